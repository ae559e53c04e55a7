# Copyright 2026 The uwv_hydro Authors
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

"""
Fit drag and added-mass coefficients to a recording by bounded least squares.

Pipeline (see :mod:`uwv_hydro.sysid.regressors` for the equation):

1. Acceleration: the central difference of the recorded twist, which over
   [t - dt, t + dt] is exactly the mean of nu_dot over that interval; the thrust is
   averaged over the same interval (its zero-order hold integrated).  Every term of
   the equation (M_RB nu_dot, C_RB(nu) nu, tau, g(eta), the kept description terms
   and each regressor column phi_j, all evaluated per sample with the recorded twist)
   is then filtered with one Savitzky-Golay smoother S (window ``window`` s,
   polynomial ``order``).  S is linear, so the filtered equation holds exactly:
   smoothing removes noise without biasing the fit (odometry noise enters the
   quadratic columns only as a bias of order noise^2).
2. y = S(M_RB nu_dot - (-C_RB(nu) nu) - tau - g(eta) - kept terms) is regressed on the
   columns S(phi_j), rows weighted per axis by the inverse residual standard deviation
   (two passes), with diagonal coefficients bounded >= 0
   (:func:`uwv_hydro.sysid.bounded_least_squares.bounded_lstsq`).
3. Confidence intervals: 1.96 sqrt(diag(sigma^2 (A^T W A)^-1)) with sigma^2 the weighted
   residual variance, inflated by the residual's integrated autocorrelation time (the
   samples are not independent after smoothing).
4. Identifiability (:mod:`uwv_hydro.sysid.identifiability`): unexcited axes are refused
   before fitting, undetermined coefficients after; by default that is an
   :class:`IdentificationError`, with ``keep_unidentified`` those coefficients keep
   the description's value and the rest is refitted.
5. The last ``validation_fraction`` of the recording is held out: not fitted, but
   simulated open loop with the fitted model (and with the description for comparison).

The fitted terms replace the description's tensors of those terms (the diagonal model
by default); all other fields are kept.  Still water is assumed (no current).
"""

import copy
from dataclasses import dataclass, field
from typing import List, Optional, Sequence

import numpy as np

from uwv_hydro.physics.body.rigid_body import rigid_body_mass_matrix
from uwv_hydro.physics.hydro.hydro_model import HydroModel
from uwv_hydro.sysid import regressors
from uwv_hydro.sysid.bounded_least_squares import bounded_lstsq, covariance
from uwv_hydro.sysid.differentiation import noise_std, savgol, savgol_kernel
from uwv_hydro.sysid.identifiability import (excitation_problems, IdentificationError,
                                             integrated_autocorrelation,
                                             uncertainty_problems, Unidentified)
from uwv_hydro.sysid.regressors import Coefficient, TERM_FIELDS, TERMS
from uwv_hydro.sysid.validation import simulate_held_out, ValidationResult

#: Two-sided 95 % normal quantile.
Z95 = 1.959963984540054


@dataclass
class FitOptions:
    """Settings of :func:`fit_recording` (defaults are those of the CLI)."""

    terms: Sequence[str] = TERMS
    coupled: bool = False
    validation_fraction: float = 0.3
    window: float = 0.5            # s, Savitzky-Golay window
    order: int = 3                 # Savitzky-Golay polynomial order
    ridge: float = 1e-9            # relative ridge on the column-normalised unknowns
    min_excitation: float = 5.0    # signal RMS / noise RMS needed per axis
    max_uncertainty: float = 0.1   # CI force / axis hydrodynamic force RMS allowed
    keep_unidentified: bool = False
    substeps: int = 1              # RK4 sub-steps in the validation simulation


@dataclass
class Estimate:
    """One fitted coefficient."""

    coefficient: Coefficient
    value: float
    half_width: float      # 95 % confidence half-width
    at_bound: bool         # held at 0 by its >= 0 bound
    prior: float           # the description's value


@dataclass
class FitResult:
    """Everything the fit found (see :func:`fit_recording`)."""

    params: object                          # fitted VehicleParams (complete)
    estimates: List[Estimate]
    kept: List[Unidentified]                 # not identified, description value kept
    t: np.ndarray                            # fitted sample times
    measured: np.ndarray                     # (n, 6) hydrodynamic wrench from the data
    predicted: np.ndarray                    # (n, 6) fitted model's wrench
    rms_residual: np.ndarray                 # (6,) per axis
    r_squared: np.ndarray                    # (6,) per axis
    condition_number: float
    autocorrelation_time: float
    velocity_noise: np.ndarray               # (6,) estimated odometry twist noise
    window_samples: int
    dt: float
    n_samples: int
    validation: Optional[ValidationResult] = None
    prior_validation: Optional[ValidationResult] = None
    notes: List[str] = field(default_factory=list)
    #: The final weighted regression (for :mod:`uwv_hydro.sysid.bootstrap`).
    regression: Optional['Regression'] = None


@dataclass
class Regression:
    """The fitted least-squares problem: y (n, 6) ~ phi (n, 6, p) x, x_j >= 0 where nonneg."""

    phi: np.ndarray
    y: np.ndarray
    nonneg: np.ndarray
    ridge: float
    autocorrelation_time: float


@dataclass
class _Prepared:
    nu: np.ndarray          # recorded twist
    nu_dot: np.ndarray      # central difference of the twist
    nu_s: np.ndarray        # S(nu)
    nu_dot_s: np.ndarray    # S(nu_dot)
    y_base: np.ndarray      # S(M_RB nu_dot + C_RB nu - tau - g), before kept hydro terms
    position: np.ndarray
    quaternion: np.ndarray
    window: int
    order: int

    def smooth(self, x):
        """Return S(x) along the sample axis."""
        x = np.asarray(x, dtype=float)
        return savgol(x.reshape(x.shape[0], -1), self.window, self.order).reshape(x.shape)


def _odd(n: int) -> int:
    return n if n % 2 else n + 1


def _coriolis_rows(m, nu):
    """Return -C(nu) nu for (n, 6) twists (Fossen 2021 Theorem 3.2, vectorised)."""
    a = nu @ m.T
    a1, a2, v, w = a[:, :3], a[:, 3:], nu[:, :3], nu[:, 3:]
    # Kirchhoff: -C(nu) nu = [a1 x w, a1 x v + a2 x w]
    return np.hstack([np.cross(a1, w), np.cross(a1, v) + np.cross(a2, w)])


def _without_hydro(params, terms):
    """Return a copy of params with the tensors of ``terms`` zeroed."""
    out = copy.deepcopy(params)
    for term in terms:
        setattr(out, TERM_FIELDS[term], np.zeros_like(getattr(params, TERM_FIELDS[term])))
    return out


def _prepare(rec, params, window: int, order: int) -> _Prepared:
    dt = rec.dt
    nu = np.asarray(rec.twist, dtype=float)
    # Central difference = mean of nu_dot over [t - dt, t + dt]
    nu_dot = np.gradient(nu, dt, axis=0)
    # Thrust averaged over the same interval (zero-order hold integrated)
    tau = rec.thrust.window_mean(rec.t, dt)
    static = HydroModel(_without_hydro(params, TERMS))
    g = np.array([static.wrench(np.zeros(6), p, q).total
                  for p, q in zip(rec.position, rec.quaternion)])
    m_rb = rigid_body_mass_matrix(params.mass, params.inertia, params.com)
    y = nu_dot @ m_rb.T - tau - g
    if params.coriolis:
        y -= _coriolis_rows(m_rb, nu)
    return _Prepared(nu, nu_dot, savgol(nu, window, order), savgol(nu_dot, window, order),
                     savgol(y, window, order), rec.position, rec.quaternion, window, order)


def _known_hydro(params_known, prep) -> np.ndarray:
    """Return the description's velocity/acceleration terms that are not fitted."""
    pk = params_known
    if not (np.any(pk.linear_drag) or np.any(pk.quadratic_drag) or np.any(pk.added_mass)):
        return np.zeros_like(prep.nu)
    model = HydroModel(pk)
    out = np.empty_like(prep.nu)
    for k in range(prep.nu.shape[0]):
        wc = model.wrench(prep.nu[k], prep.position[k], prep.quaternion[k], prep.nu_dot[k])
        c = wc.components
        out[k] = wc.total - c['weight'] - c['buoyancy']
    return prep.smooth(out)


def _solve(phi, y, nonneg, ridge):
    """Two-pass axis-weighted bounded least squares; return (solution, weights)."""
    n, _, p = phi.shape
    scale = np.sqrt(np.mean(y ** 2, axis=0))
    scale[scale == 0.0] = 1.0
    weights = 1.0 / scale
    sol = None
    for _ in range(2):
        a = (phi * weights[None, :, None]).reshape(n * 6, p)
        b = (y * weights[None, :]).reshape(n * 6)
        sol = bounded_lstsq(a, b, nonneg, ridge)
        resid = (y - np.einsum('nap,p->na', phi, sol.x))
        std = np.sqrt(np.mean(resid ** 2, axis=0))
        # Axes the model cannot reach (no column touches them) keep their scale
        active = np.any(phi != 0.0, axis=(0, 2))
        std[~active] = scale[~active]
        std[std == 0.0] = 1.0
        weights = 1.0 / std
    return sol, weights


def fit_recording(rec, params, options: FitOptions = FitOptions(),
                  source: str = '') -> FitResult:
    """
    Fit ``options.terms`` of ``params`` to the Recording ``rec``; return a FitResult.

    Raise IdentificationError when the data cannot identify a requested coefficient
    (unless ``options.keep_unidentified``), ValueError for unusable settings.
    """
    opts = options
    if not 0.0 <= opts.validation_fraction < 1.0:
        raise ValueError('validation fraction must be in [0, 1)')
    window = max(_odd(int(round(opts.window / rec.dt))), _odd(opts.order + 2))
    n_total = rec.t.size
    n_train = int(round(n_total * (1.0 - opts.validation_fraction)))
    if n_train < 4 * window:
        raise ValueError('too few samples to fit: %d before the held-out part, need >= %d '
                         '(window %d samples)' % (n_train, 4 * window, window))
    train = rec.samples(0, n_train)
    prep = _prepare(train, params, window, opts.order)
    # Drop the filter's edge samples (and one for the central difference)
    keep = slice(window, n_train - window)
    coefficients = regressors.select(opts.terms, opts.coupled)
    prior = regressors.read(params, coefficients)
    noise = noise_std(train.twist)
    # Floor: 1e-6 of the largest motion of the same kind (noise-free simulated bags)
    rms = np.sqrt(np.mean(train.twist ** 2, axis=0))
    noise = np.maximum(noise, 1e-6 * np.repeat([rms[:3].max(), rms[3:].max()], 3))
    kernel = np.convolve(savgol_kernel(window, opts.order), [0.5, 0.0, -0.5]) / rec.dt
    acc_noise = noise * float(np.linalg.norm(kernel))
    problems = excitation_problems(coefficients, prep.nu_s[keep], prep.nu_dot_s[keep], noise,
                                   acc_noise, opts.min_excitation)
    kept: List[Unidentified] = []
    notes: List[str] = []
    while True:
        if problems and not opts.keep_unidentified:
            raise IdentificationError(
                problems, source, 'excite these axes in the manoeuvre, fit fewer terms '
                "(--terms), or keep the description's values (--keep-unidentified)")
        if problems:
            kept += problems
            dropped = {p.coefficient for p in problems}
            coefficients = [c for c in coefficients if c not in dropped]
        if not coefficients:
            raise IdentificationError(kept, source, 'no coefficient left to fit')
        # Known: fitted terms zeroed except the coefficients kept from the description
        known = _without_hydro(params, opts.terms)
        for p in kept:
            c = p.coefficient
            regressors.apply(known, [c], [regressors.read(params, [c])[0]])
        if 'linear' in opts.terms:
            known.damping = 'linear_quadratic'
        y = prep.y_base - _known_hydro(known, prep)
        y = y[keep]
        phi = prep.smooth(regressors.columns(coefficients, known, prep.nu,
                                             prep.nu_dot))[keep]
        nonneg = np.array([c.diagonal for c in coefficients])
        sol, weights = _solve(phi, y, nonneg, opts.ridge)
        n = y.shape[0]
        resid = y - np.einsum('nap,p->na', phi, sol.x)
        tau_int = max(integrated_autocorrelation(resid[:, a] * weights[a]) for a in range(6)
                      if np.any(resid[:, a]))
        a_w = (phi * weights[None, :, None]).reshape(n * 6, -1)
        r_w = (resid * weights[None, :]).reshape(n * 6)
        cov = covariance(a_w, r_w, np.ones(len(coefficients), bool), tau_int)
        half = Z95 * np.sqrt(np.maximum(np.diag(cov), 0.0))
        problems = uncertainty_problems(coefficients, phi, y, half, opts.max_uncertainty)
        if not problems:
            break
    fitted = copy.deepcopy(known)
    regressors.apply(fitted, coefficients, sol.x)
    fitted.warnings = []
    fitted.source = ''
    a_n = a_w / np.maximum(np.linalg.norm(a_w, axis=0), 1e-300)
    cond = float(np.linalg.cond(a_n))
    predicted = np.einsum('nap,p->na', phi, sol.x)
    ss_tot = np.sum((y - y.mean(axis=0)) ** 2, axis=0)
    r2 = 1.0 - np.sum(resid ** 2, axis=0) / np.where(ss_tot > 0.0, ss_tot, np.inf)
    prior_by = dict(zip(regressors.select(opts.terms, opts.coupled), prior))
    estimates = [Estimate(c, float(v), float(h), bool(b), float(prior_by[c]))
                 for c, v, h, b in zip(coefficients, sol.x, half, sol.at_bound)]
    if train.resampled:
        notes.append('odometry stamps jitter: resampled onto a uniform %.4g s grid' % rec.dt)
    if rec.dropped_thrust:
        notes.append('%d thrust messages dropped (non-finite or unknown frame)'
                     % rec.dropped_thrust)
    result = FitResult(fitted, estimates, kept, train.t[keep], y, predicted,
                       np.sqrt(np.mean(resid ** 2, axis=0)), r2, cond, tau_int, noise,
                       window, rec.dt, n, notes=notes,
                       regression=Regression(phi, y, nonneg, opts.ridge, tau_int))
    if n_train < n_total - 1:
        start = n_train
        # Initial twist: polynomial fitted to the window AFTER the start (one-sided, so a
        # thrust step just before the start does not bias it), evaluated at the start
        segment = rec.twist[start:start + window]
        twist0 = (savgol(segment, window, opts.order)[0] if segment.shape[0] == window
                  else rec.twist[start])
        result.validation = simulate_held_out(fitted, rec, start, twist0, opts.substeps)
        result.prior_validation = simulate_held_out(params, rec, start, twist0,
                                                    opts.substeps)
    return result
