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
Numerical safety of the explicit RK4 integration: sub-step choice and divergence check.

Stiffness.  Near a twist nu the dynamics are nu_dot ~ J (nu - nu0) with the Jacobian
J = d nu_dot / d nu; for linear drag J = -(M_RB + M_A)^-1 L.  Classic RK4 is stable
for an eigenvalue lambda of J when lambda h lies in its stability region (on the
negative real axis |lambda h| <= 2.785, on the imaginary axis 2.828).
:func:`stiffness` estimates max |lambda| from finite-difference Jacobians at rest and
at a plausible speed (the quadratic drag's local stiffness 2 Q |u| / (m + A) grows
with speed); :func:`stable_substeps` returns the sub-step count that keeps
|lambda| h <= :data:`RK4_STABLE_LAMBDA_H` (2.5, a margin inside the region).

Divergence.  With the kinetic energy E = 1/2 nu^T M nu (M = M_RB + M_A, symmetric
positive definite), the Coriolis terms do no work and dissipative drag removes
energy, so dE/dt <= nu^T f with f the thrust plus the hydrostatic wrench.  With
s = sqrt(2 E) = |nu|_M (Cauchy-Schwarz in the M metric), ds/dt <= |f|_{M^-1} + mu s,
where mu >= 0 is the energy the linear drag could inject if it is not dissipative
(0 for any physical description).  :class:`EnergyGuard` checks one step against this
bound with a safety factor: an unstable integration multiplies s by |R(lambda h)| >> 1
per step and fails the check long before the state overflows, so the node can restore
the last good state instead of publishing garbage.  The bound is conservative: it
catches the exponential growth of an unstable integration, not small errors.

A world current adds the drag and added-mass forces of the relative flow, bounded by
polynomials in the current speed s along a fixed direction e: the wrench of the flow
s F1(e) + s^2 F2(e) and the change of the Jacobian at rest s D1(e) (with M_A S(v_c)
from the current's rate of change), scaled by the same safety factor; F1, F2 and D1
are found once, when the guard is built.
"""
import math
from typing import Optional, Sequence

import numpy as np

from uwv_hydro.physics.kernel import core, pack_guard

#: |lambda h| kept by :func:`stable_substeps` (RK4 is stable to 2.785 on the real axis).
RK4_STABLE_LAMBDA_H = 2.5
#: Plausible speeds of :func:`stiffness`: linear (m/s) and angular (rad/s).
PLAUSIBLE_SPEED = 2.0
PLAUSIBLE_RATE = 1.0
#: Safety factor on the physical energy bound of :class:`EnergyGuard`.
ENERGY_SAFETY = 2.0


def jacobian(sim, nu, current_world=None, eps: float = 1e-6) -> np.ndarray:
    """Return d nu_dot / d nu (6x6, central differences) of ``sim`` at twist ``nu``, level."""
    nu = np.asarray(nu, dtype=float)
    rotation = np.eye(3)
    out = np.empty((6, 6))
    for j in range(6):
        step = eps * max(1.0, abs(nu[j]))
        plus, minus = nu.copy(), nu.copy()
        plus[j] += step
        minus[j] -= step
        out[:, j] = (sim.acceleration(plus, rotation, 1.0, np.zeros(6), current_world)
                     - sim.acceleration(minus, rotation, 1.0, np.zeros(6), current_world)
                     ) / (2.0 * step)
    return out


def plausible_twists(speed: float = PLAUSIBLE_SPEED, rate: float = PLAUSIBLE_RATE):
    """Return the twists :func:`stiffness` linearises at (rest, each axis, all axes)."""
    scale = np.array([speed] * 3 + [rate] * 3, dtype=float)
    twists = [np.zeros(6), scale.copy(), -scale]
    for axis in range(6):
        for sign in (1.0, -1.0):
            nu = np.zeros(6)
            nu[axis] = sign * scale[axis]
            twists.append(nu)
    return twists


#: Relative offset of the second linearisation point of :func:`stiffness` (a generic
#: direction, so that it does not fall on a force discontinuity as well).
_OFFSET = 1e-3 * np.array([0.9, 0.8, 0.7, 0.6, 0.5, 0.4])


def stiffness(sim, speed: float = PLAUSIBLE_SPEED, rate: float = PLAUSIBLE_RATE) -> float:
    """
    Return max |eig(J)| (1/s) over :func:`plausible_twists` (J at rest: linear drag).

    Each twist is linearised twice, there and 1e-3 of the plausible scale away, and the
    smaller spectral radius counts: a jump of the force on the twist itself (a uuv
    quadratic fin at exactly 90 deg angle of attack) is no stiffness, and a central
    difference across it would read as one (jump / 2 eps).
    """
    scale = np.array([speed] * 3 + [rate] * 3, dtype=float)
    worst = 0.0
    for nu in plausible_twists(speed, rate):
        radii = []
        for point in (nu, nu + _OFFSET * scale):
            eig = np.linalg.eigvals(jacobian(sim, point))
            if np.all(np.isfinite(eig)):
                radii.append(float(np.max(np.abs(eig))))
        if radii:
            worst = max(worst, min(radii))
    return worst


def stable_substeps(lambda_max: float, dt: float, minimum: int = 1,
                    maximum: int = 1000) -> int:
    """Return the RK4 sub-steps of a step dt keeping lambda_max h <= 2.5 (in [min, max])."""
    if not (lambda_max > 0.0 and math.isfinite(lambda_max)):
        return max(1, int(minimum))
    needed = int(math.ceil(lambda_max * dt / RK4_STABLE_LAMBDA_H - 1e-12))
    return int(min(max(needed, int(minimum), 1), int(maximum)))


class EnergyGuard:
    """
    Physical bound on the growth of s = |nu|_M over one step (see the module docstring).

    ``sim`` is a :class:`uwv_hydro.physics.body.dynamics.Simulator` (its model and mass matrix
    are used; :meth:`Simulator.acceleration` gives the linear-drag Jacobian at rest).
    """

    def __init__(self, sim, safety: float = ENERGY_SAFETY):
        self.safety = float(safety)
        params = sim.params
        mass = sim.model.mass_matrix()
        mass = 0.5 * (mass + mass.T)
        self._chol = np.linalg.cholesky(mass)  # M = C C^T: |nu|_M = |C^T nu|
        m_inv = np.linalg.inv(mass)
        # |f|_{M^-1} <= sqrt(lambda_max(M^-1)) |f|
        self._inv_scale = math.sqrt(float(np.max(np.linalg.eigvalsh(m_inv))))
        weight, buoyancy = abs(params.weight()), abs(params.buoyancy())
        force = weight + buoyancy
        torque = (float(np.linalg.norm(params.com)) * weight
                  + float(np.linalg.norm(params.cob)) * buoyancy)
        self._static = math.hypot(force, torque)
        # mu: the largest energy growth rate the linear part at rest allows,
        # max eig of sym(C^T J C) with J = -M^-1 L (0 when L is dissipative)
        j0 = jacobian(sim, np.zeros(6))
        self._j0 = j0
        self._mass = mass
        c = self._chol
        a = c.T @ j0 @ np.linalg.inv(c.T)
        self.mu = max(0.0, float(np.max(np.linalg.eigvalsh(0.5 * (a + a.T)))))
        # per current direction (+-x, +-y, +-z in the body frame: every direction a
        # rotation can bring the current to): F1, F2 (rows) and the unit-speed rate
        f1, f2, rates = [], [], []
        at_rest = sim.acceleration(np.zeros(6), np.eye(3), 1.0, np.zeros(6))
        for axis in range(3):
            for sign in (1.0, -1.0):
                unit = [0.0, 0.0, 0.0]
                unit[axis] = sign
                # M (nu_dot(s e) - nu_dot(0)) = s F1 + s^2 F2, from s = 1 and s = 2
                one = mass @ (sim.acceleration(np.zeros(6), np.eye(3), 1.0, np.zeros(6),
                                               unit) - at_rest)
                two = mass @ (sim.acceleration(np.zeros(6), np.eye(3), 1.0, np.zeros(6),
                                               [2.0 * v for v in unit]) - at_rest)
                f2.append(0.5 * (two - 2.0 * one))
                f1.append(one - f2[-1])
                # speed-proportional part (added-mass Coriolis and current inertia of the
                # relative flow, drag stiffness): spectral norm of C^T D1 C^-T (M metric)
                delta = jacobian(sim, np.zeros(6), unit) - j0
                rates.append(float(np.linalg.norm(c.T @ delta @ np.linalg.inv(c.T), 2)))
        # |s F1 + s^2 F2|^2 = s^2 |F1|^2 + s^3 2 F1.F2 + s^4 |F2|^2, per direction
        self._current_force_poly = [(float(a @ a), 2.0 * float(a @ b), float(b @ b))
                                    for a, b in zip(f1, f2)]
        self._current_rate = max(rates)
        self._current_cache = (None, 0.0, 0.0)
        # |M_A,O[:, :3]|: the wrench per unit current rate (a current field's rate)
        self._rate_wrench = float(np.linalg.norm(
            sim.model.added_mass.origin_matrix[:, :3], 2))
        #: The bound in the compiled core (kernel: guard_norm, guard_max_norm, advance)
        self.core = core.guard(pack_guard(self._chol, self._inv_scale, self._static,
                                          self.mu, self.safety))

    def norm(self, twist) -> float:
        """Return |nu|_M = sqrt(nu^T M nu) (sqrt of twice the kinetic energy)."""
        return core.guard_norm(self.core, twist)

    def current_terms(self, current_world: Optional[Sequence[float]]):
        """Return (force bound, rate bound) the current adds (see the module docstring)."""
        if current_world is None:
            return 0.0, 0.0
        key = tuple(float(v) for v in current_world)
        if key == self._current_cache[0]:
            return self._current_cache[1], self._current_cache[2]
        speed = math.sqrt(sum(v * v for v in key))
        force = rate = 0.0
        if speed > 0.0:
            # |M nu_dot| of the current on a vehicle at rest: |s F1 + s^2 F2|, worst
            # direction; the rate bound grows as s D1
            s2 = speed * speed
            force = math.sqrt(max(max(0.0, a * s2 + b * s2 * speed + c * s2 * s2)
                                  for a, b, c in self._current_force_poly))
            rate = speed * self._current_rate
        self._current_cache = (key, force, rate)
        return force, rate

    def field_terms(self, field: Sequence[float], twist: Sequence[float], dt: float):
        """
        Return (force bound, rate bound) of a linearised current field over a step of dt.

        ``field``: [v0 (3), G0 (9), dv/dt_0 (3), G1 (9), dv/dt_1 (3), span, v1 (3),
        b1 (3)] (:func:`uwv_hydro.physics.environment.current_field.linearise`).  The current
        drifts by at most dt (|dv/dt| + |G| |p_dot|) over the step (bounded with twice
        the speeds at its start), and its rate along the path dv/dt + G p_dot enters as
        the wrench M_A,O [R^T dv_c/dt, 0] (Fossen 2021 ch. 10).
        """
        f = np.asarray(field, dtype=float)
        v0 = f[:3]
        speed = float(np.linalg.norm(v0))
        # the larger of the two samples; Frobenius >= spectral norm
        g = max(float(np.linalg.norm(f[3:12])), float(np.linalg.norm(f[15:24])))
        a0, a1 = float(np.linalg.norm(f[12:15])), float(np.linalg.norm(f[24:27]))
        rate = max(a0, a1)
        if len(f) >= 34 and f[27] > 0.0:
            # cubic Hermite c'(s) = d00 (v0 - v1) + d10 a0 + d11 b1 with |d00| <= 1.5 / T,
            # |d10|, |d11| <= 1, plus the path's change of rate a1 - b1
            b1 = f[31:34]
            hermite = (1.5 * float(np.linalg.norm(f[28:31] - v0)) / f[27] + a0
                       + float(np.linalg.norm(b1)) + float(np.linalg.norm(f[24:27] - b1)))
            rate = max(rate, hermite)
        body = float(np.linalg.norm(np.asarray(twist, dtype=float)[:3]))
        path = 2.0 * (body + speed) + 1.0
        reach = speed + dt * (rate + g * path)
        force, growth = self.current_terms((reach, 0.0, 0.0))
        return force + self._rate_wrench * (rate + g * path), growth

    def max_norm(self, s_before: float, tau, dt: float,
                 current_world: Optional[Sequence[float]] = None) -> float:
        """Return the largest |nu|_M physically reachable from s_before in dt under tau."""
        c_force, c_rate = self.current_terms(current_world)
        tau_norm = float(np.linalg.norm(np.asarray(tau, dtype=float))) if tau is not None \
            else 0.0
        # ds/dt <= drive + rate s integrated over dt (Gronwall), in the compiled core
        return core.guard_max_norm(self.core, float(s_before), tau_norm, float(dt), c_force,
                                   c_rate)

    def plausible(self, twist_before, twist_after, tau, dt: float,
                  current_world: Optional[Sequence[float]] = None) -> bool:
        """Return True when the step's |nu|_M growth is physically possible (finite)."""
        after = self.norm(twist_after)
        if not math.isfinite(after):
            return False
        return after <= self.max_norm(self.norm(twist_before), tau, dt, current_world)
