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
Physical checks of drag and added mass, each naming the coefficient and its consequence.

All coefficients are in uwv_hydro's convention (positive = dissipative / added
inertia), after any conversion, so a positive gz-sim ``<xU>`` or a negative dsros
``<linear><xx>`` fail the same check; the message quotes the user's own element or
key (``params.coefficient_labels``).

* Linear drag L (skipped for ``damping: quadratic_only``): the drag power is
  P = -nu^T sym(L) nu, sym(L) = (L + L^T) / 2, so sym(L) must be positive
  semi-definite: a negative diagonal L_ii makes a lone motion along i grow as
  exp(-L_ii t / M_ii), a negative eigenvalue injects energy along its eigenvector.
* Quadratic drag Q: a negative Q[i, i, i] blows a lone motion up in finite time.
* Added mass M_A: a negative diagonal makes the fluid push the vehicle along its
  acceleration; an M_A that is not symmetric is no added mass of potential flow (which
  derives from the fluid kinetic energy T_A = nu^T M_A nu / 2, Fossen 2011 ch. 6), and
  a drag-free, neutrally buoyant body's energy then drifts.

Each failure is a DescriptionError; with ``params.allow_nonphysical`` (YAML
``allow_nonphysical: true``, ``--allow-nonphysical``) a warning with the same text.

Forward-speed drag L_u (uuv_simulator's ``linear_damping_forward_speed``): L + u L_u
with the signed surge u injects energy past some speed; uuv_simulator runs it so, and
so does uwv_hydro, with a warning naming that speed (:func:`forward_speed_limits`).

Rounding (:func:`symmetrise_rounding`, before the checks): a pair of added-mass halves
that differ by at most :data:`SYMMETRY_RTOL` of the pair's magnitude (rexrov's 10.774
and 10.775; :data:`TINY_FRACTION` for small entries) is set to its mean with a warning
naming both entries; a larger difference fails the check (doc/guide/semantics.md,
"Rounding in real files").
"""
from typing import List, Optional, Tuple

import numpy as np

from uwv_hydro.description.conventions import (
    added_mass_about_origin, DSROS_LETTERS, rigid_body_mass_matrix)
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.physics.body.vehicle_params import VehicleParams

#: Relative tolerance (of the largest entry) of the sign and symmetry checks.
RTOL = 1e-9
#: A symmetric pair differing by at most this fraction of its magnitude is rounding.
SYMMETRY_RTOL = 1e-3
#: Entries below this fraction of the matrix scale are compared with that fraction.
TINY_FRACTION = 1e-3
_AXES = ('surge', 'sway', 'heave', 'roll', 'pitch', 'yaw')


def _where(params: VehicleParams, field: str, idx: Tuple[int, ...]
           ) -> Tuple[str, Optional[int]]:
    """Return (element, line) naming coefficient ``idx`` of ``field`` as the user wrote it."""
    label = params.coefficient_labels.get(field, {}).get(tuple(idx))
    if label is not None:
        return label
    name = '%s[%s]' % (field, ', '.join(DSROS_LETTERS[i] for i in idx))
    origin = params.origins.get(field)
    return (name + (' (from %s)' % origin if origin else ''), None)


def _text(params, field, idx, value, with_line: bool = False) -> str:
    """Return e.g. "xx = -40" or "linear_drag.yh (line 7) = 2" for a message."""
    labels = params.coefficient_labels.get(field, {})
    if tuple(idx) not in labels:
        given = ' (not given)' if labels else ''
        return '%s[%s]%s = %.6g' % (field, ', '.join(DSROS_LETTERS[i] for i in idx), given,
                                    value)
    element, line = labels[tuple(idx)]
    short = element.rsplit('/', 1)[-1]
    for marker in ('vehicle.', 'ros__parameters.'):
        short = short.split(marker, 1)[-1]
    where = ' (line %d)' % line if with_line and line is not None else ''
    return '%s%s = %.6g' % (short, where, value)


class _Findings:
    def __init__(self, params: VehicleParams):
        self.params = params
        self.items: List[Tuple[str, str, Optional[int]]] = []

    def add(self, field: str, idx, reason: str) -> None:
        element, line = _where(self.params, field, idx)
        self.items.append((reason, element, line))


def _scale(matrix) -> float:
    return max(float(np.max(np.abs(matrix))), 1e-300)


def _inertia_along(params: VehicleParams, i: int) -> float:
    """Return M_ii of M = M_RB + sym(M_A) about the origin (the inertia a lone motion sees)."""
    m_a = added_mass_about_origin(params.added_mass, params.added_mass_point)
    m_rb = rigid_body_mass_matrix(params.mass, params.inertia, params.com)
    return float(m_rb[i, i] + m_a[i, i])


def _negative_diagonal(values: np.ndarray) -> Optional[int]:
    """Return the first i with values[i, i(, i)] < -tol (None if none)."""
    diagonal = np.array([values[(i,) * values.ndim] for i in range(6)])
    below = np.flatnonzero(diagonal < -RTOL * _scale(values))
    return int(below[0]) if below.size else None


def _check_linear(params: VehicleParams, out: _Findings) -> None:
    lin = np.asarray(params.linear_drag, float)
    if params.damping == 'quadratic_only' or not np.any(lin):
        return
    tol = RTOL * _scale(lin)
    i = _negative_diagonal(lin)
    if i is not None:
        out.add('linear_drag', (i, i), (
            'linear drag %s is negative: it pushes %s along the motion and injects energy '
            'instead of damping (a lone %s motion grows as exp(%.3g t))'
            % (_text(params, 'linear_drag', (i, i), lin[i, i]), _AXES[i], _AXES[i],
               -lin[i, i] / _inertia_along(params, i))))
        return
    sym = 0.5 * (lin + lin.T)
    eig, vec = np.linalg.eigh(sym)
    if eig[0] >= -tol:
        return
    v = vec[:, 0]
    axes = [k for k in range(6) if abs(v[k]) > 0.1 * np.max(np.abs(v))]
    pairs = [(sym[i, j] ** 2 - sym[i, i] * sym[j, j], i, j)
             for i in axes for j in axes if i < j]
    _, i, j = max(pairs) if pairs else (0.0, axes[0], axes[0])
    pair = '%s and %s' % (_text(params, 'linear_drag', (i, j), lin[i, j], True),
                          _text(params, 'linear_drag', (j, i), lin[j, i], True))
    out.add('linear_drag', (i, j), (
        'the symmetric part of the linear drag is not positive semi-definite (eigenvalue '
        '%.6g along %s; largest coupling there: %s, between %s and %s): drag injects '
        'energy at %.3g |nu|^2 W for motion along that direction instead of damping it'
        % (eig[0], np.array2string(v, precision=3), pair, _AXES[i], _AXES[j], -eig[0])))


def _check_quadratic(params: VehicleParams, out: _Findings) -> None:
    quad = np.asarray(params.quadratic_drag, float)
    if not np.any(quad):
        return
    i = _negative_diagonal(quad)
    if i is not None:
        out.add('quadratic_drag', (i, i, i), (
            'quadratic drag %s is negative: F = +|Q| |v| v pushes %s along the motion, which '
            'then blows up in finite time instead of being damped'
            % (_text(params, 'quadratic_drag', (i, i, i), quad[i, i, i]), _AXES[i])))


def _check_added_mass(params: VehicleParams, out: _Findings) -> None:
    added = np.asarray(params.added_mass, float)
    if not np.any(added):
        return
    i = _negative_diagonal(added)
    if i is not None:
        out.add('added_mass', (i, i), (
            'added mass %s is negative: the fluid would push the vehicle along its %s '
            'acceleration' % (_text(params, 'added_mass', (i, i), added[i, i]), _AXES[i])))
        return
    asym = np.abs(added - added.T)
    i, j = np.unravel_index(int(np.argmax(asym)), asym.shape)
    if asym[i, j] > RTOL * _scale(added):
        i, j = min(i, j), max(i, j)
        out.add('added_mass', (i, j), (
            'added mass is not symmetric: %s but %s; a potential-flow added mass is '
            'symmetric (it derives from the fluid kinetic energy), and without it the '
            'motion conserves no energy: a drag-free body gains or loses energy. Give both '
            'halves of the pair the same value'
            % (_text(params, 'added_mass', (i, j), added[i, j], True),
               _text(params, 'added_mass', (j, i), added[j, i], True))))


def rounding_pairs(matrix: np.ndarray) -> List[Tuple[int, int]]:
    """
    Return the pairs (i < j) of ``matrix`` whose asymmetry is at rounding level.

    |a_ij - a_ji| <= SYMMETRY_RTOL * max(|a_ij|, |a_ji|, TINY_FRACTION * scale), nonzero
    (scale = the largest |entry|).
    """
    m = np.asarray(matrix, float)
    floor = TINY_FRACTION * _scale(m)
    out = []
    for i in range(m.shape[0]):
        for j in range(i + 1, m.shape[1]):
            diff = abs(m[i, j] - m[j, i])
            magnitude = max(abs(m[i, j]), abs(m[j, i]), floor)
            if 0.0 < diff <= SYMMETRY_RTOL * magnitude:
                out.append((i, j))
    return out


def symmetrise_rounding(params: VehicleParams) -> VehicleParams:
    """Set every rounding-level asymmetric pair of the added mass to its mean (warning)."""
    added = np.array(params.added_mass, float)
    pairs = rounding_pairs(added) if added.shape == (6, 6) else []
    for i, j in pairs:
        mean = 0.5 * (added[i, j] + added[j, i])
        text = ('added mass %s and %s differ at rounding level (%.2g of the pair, '
                '<= %g): both set to their mean %.9g (a potential-flow added mass is '
                'symmetric)' % (_text(params, 'added_mass', (i, j), added[i, j], True),
                                _text(params, 'added_mass', (j, i), added[j, i], True),
                                abs(added[i, j] - added[j, i])
                                / max(abs(added[i, j]), abs(added[j, i])),
                                SYMMETRY_RTOL, mean))
        added[i, j] = added[j, i] = mean
        if text not in params.warnings:
            params.warnings.append(text)
    if pairs:
        params.added_mass = added
    return params


#: Largest surge speed (m/s) considered when looking where forward-speed drag reverses.
FORWARD_SPEED_RANGE = 100.0


def _damping_floor(sym_l: np.ndarray, sym_u: np.ndarray, u: float) -> float:
    """Return the smallest eigenvalue of sym(L + u L_u)."""
    return float(np.linalg.eigvalsh(sym_l + u * sym_u)[0])


def forward_speed_limits(params: VehicleParams):
    """
    Return (u_min, u_max): the surge range where sym(L + u L_u) stays PSD (None: unbounded).

    The linear damping of uuv_simulator's model with forward-speed terms is L + u L_u
    (u signed), so its drag power -nu^T (L + u L_u) nu turns positive past a speed;
    the smallest eigenvalue is concave in u, so bisection finds the bound on each side.
    """
    lin = np.asarray(params.linear_drag, float)
    if params.damping == 'quadratic_only':
        lin = np.zeros((6, 6))
    fwd = np.asarray(params.forward_speed_drag, float)
    sym_l, sym_u = 0.5 * (lin + lin.T), 0.5 * (fwd + fwd.T)
    tol = RTOL * max(_scale(lin), _scale(fwd))
    if not np.any(fwd) or _damping_floor(sym_l, sym_u, 0.0) < -tol:
        return None, None
    bounds = []
    for sign in (-1.0, 1.0):
        if _damping_floor(sym_l, sym_u, sign * FORWARD_SPEED_RANGE) >= -tol:
            bounds.append(None)
            continue
        good, bad = 0.0, FORWARD_SPEED_RANGE
        for _ in range(60):
            mid = 0.5 * (good + bad)
            if _damping_floor(sym_l, sym_u, sign * mid) >= -tol:
                good = mid
            else:
                bad = mid
        bounds.append(sign * good)
    return bounds[0], bounds[1]


def _warn_forward_speed(params: VehicleParams) -> None:
    """Warn where uuv's forward-speed drag makes the linear damping inject energy."""
    low, high = forward_speed_limits(params)
    for bound, side in ((low, 'below'), (high, 'above')):
        if bound is not None:
            text = ('forward-speed linear drag: for a surge speed %s %.4g m/s the linear '
                    'damping L + u L_u (uuv_simulator linear_damping_forward_speed, u '
                    'signed) is no longer positive semi-definite and injects energy; '
                    'loaded as uuv_simulator runs it' % (side, bound))
            if text not in params.warnings:
                params.warnings.append(text)


def check_physical(params: VehicleParams) -> VehicleParams:
    """Raise DescriptionError on the first failed check (warn if allow_nonphysical)."""
    _warn_forward_speed(params)
    out = _Findings(params)
    _check_linear(params, out)
    _check_quadratic(params, out)
    _check_added_mass(params, out)
    for reason, element, line in out.items:
        if not params.allow_nonphysical:
            raise DescriptionError(
                reason + ' (set allow_nonphysical: true or pass --allow-nonphysical to '
                'load it anyway)', params.source, element, line)
        text = 'non-physical, loaded because allow_nonphysical is set: %s: %s' % (
            element, reason)
        if text not in params.warnings:
            params.warnings.append(text)
    return params
