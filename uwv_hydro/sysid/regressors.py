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
The unknown coefficients and their regressor columns in the equations of motion.

Per sample (Fossen 2021 ch. 8, no current, about the body origin)::

    M_RB nu_dot + C_RB(nu) nu - tau - tau_known(eta, nu, nu_dot)
        = -L_O nu - D_q,O(nu) nu - M_A,O nu_dot - C_A(nu) nu  =  sum_j theta_j phi_j

``tau_known`` holds weight, buoyancy and every hydrodynamic term that is NOT being
fitted (kept from the vehicle description).  The right-hand side is linear in each
coefficient theta_j; its column phi_j (n, 6) is the wrench about the origin that a
unit coefficient produces, evaluated with the description's reference points exactly
as :mod:`uwv_hydro.physics.hydro.drag` and :mod:`uwv_hydro.physics.hydro.added_mass` do:

* drag: nu_p = H(r_v) nu (``drag_velocity_point``), wrench at ``drag_center`` moved to
  the origin with H(r_c)^T; linear entry (a, b): -e_a nu_p,b; quadratic (a, b, c):
  -e_a |nu_p,b| nu_p,c;
* added mass (a, b) about ``added_mass_point`` r_a: inertial -e_a (H nu_dot)_b and, when
  ``coriolis`` and ``added_mass_coriolis`` are on, the Coriolis wrench
  [a1 x w, a1 x v + a2 x w] of a = e_a nu_p,b
  (Fossen 2011 eq. 6.43), both moved with H(r_a)^T.  A symmetric coupled pair (a, b)
  uses E_ab + E_ba.

Term sets: diagonal (default) L_ii, Q_iii, M_A,ii, all bounded >= 0; ``coupled`` adds
every L_ab, the cross-flow quadratic terms Q_abb (F_a = -Q_abb |nu_b| nu_b, the form
of e.g. Y_r|r| and N_v|v|) and the symmetric off-diagonal added mass M_A,ab = M_A,ba;
off-diagonal coefficients are unbounded.
"""

from dataclasses import dataclass
from typing import List, Sequence, Tuple

import numpy as np

from uwv_hydro.description.conventions import DSROS_LETTERS

TERMS = ('linear', 'quadratic', 'added_mass')
#: VehicleParams attribute of each term.
TERM_FIELDS = {'linear': 'linear_drag', 'quadratic': 'quadratic_drag',
               'added_mass': 'added_mass'}
TERM_NAMES = {'linear': 'linear drag', 'quadratic': 'quadratic drag',
              'added_mass': 'added mass'}
AXIS_NAMES = ('surge', 'sway', 'heave', 'roll', 'pitch', 'yaw')
AXIS_SYMBOLS = ('u', 'v', 'w', 'p', 'q', 'r')
AXIS_VELOCITY_UNITS = ('m/s', 'm/s', 'm/s', 'rad/s', 'rad/s', 'rad/s')
AXIS_FORCE_UNITS = ('N', 'N', 'N', 'N m', 'N m', 'N m')


def axis_label(i: int) -> str:
    """Return e.g. 'sway (v)'."""
    return '%s (%s)' % (AXIS_NAMES[i], AXIS_SYMBOLS[i])


@dataclass(frozen=True)
class Coefficient:
    """One unknown: ``term`` and its index into the VehicleParams tensor."""

    term: str
    index: Tuple[int, ...]
    #: Also set the transposed entry (symmetric coupled added mass).
    symmetric: bool = False

    @property
    def tag(self) -> str:
        """Return the YAML key, e.g. 'quadratic_drag.yyy'."""
        return '%s.%s' % (TERM_FIELDS[self.term], ''.join(DSROS_LETTERS[i] for i in self.index))

    @property
    def diagonal(self) -> bool:
        """Return whether all indices are equal (bounded >= 0)."""
        return len(set(self.index)) == 1

    @property
    def output_axis(self) -> int:
        """Return the wrench axis the coefficient acts on."""
        return self.index[0]

    @property
    def motion_axes(self) -> Tuple[int, ...]:
        """Return the velocity (drag) or acceleration (added mass) axes it needs."""
        if self.term == 'added_mass':
            return tuple(sorted(set(self.index)))
        return (self.index[-1],)

    def describe(self) -> str:
        """Return e.g. 'quadratic drag in sway (v)' or 'linear drag yh (sway from yaw)'."""
        if self.diagonal:
            return '%s in %s' % (TERM_NAMES[self.term], axis_label(self.index[0]))
        return '%s %s (%s from %s)' % (
            TERM_NAMES[self.term], self.tag.split('.')[1], AXIS_NAMES[self.index[0]],
            AXIS_NAMES[self.index[-1]])

    def units(self) -> str:
        """Return the SI units of the coefficient."""
        out = AXIS_FORCE_UNITS[self.index[0]]
        vel = [AXIS_VELOCITY_UNITS[i] for i in self.index[1:]]
        if self.term == 'added_mass':
            return '%s/(%s/s)' % (out, vel[0])
        return '%s/(%s)' % (out, ' '.join(vel))


def select(terms: Sequence[str], coupled: bool = False) -> List[Coefficient]:
    """Return the unknown coefficients of ``terms`` (diagonal, plus coupled on request)."""
    out: List[Coefficient] = []
    for term in terms:
        if term not in TERMS:
            raise ValueError("unknown term '%s'; expected %s" % (term, ', '.join(TERMS)))
        for i in range(6):
            out.append(Coefficient(term, (i,) * (3 if term == 'quadratic' else 2)))
        if not coupled:
            continue
        for a in range(6):
            for b in range(6):
                if a == b:
                    continue
                if term == 'linear':
                    out.append(Coefficient(term, (a, b)))
                elif term == 'quadratic':
                    out.append(Coefficient(term, (a, b, b)))
                elif a < b:
                    out.append(Coefficient(term, (a, b), symmetric=True))
    return out


def _point_twist(nu, r):
    """Return H(r) nu for (n, 6) twists: [v + w x r, w]."""
    out = np.array(nu, dtype=float)
    # Fossen's H(r), MSS Hmtrx: v_p = v + omega x r
    out[:, :3] += np.cross(nu[:, 3:], np.broadcast_to(r, nu[:, 3:].shape))
    return out


def _to_origin(wrench, r):
    """Return H(r)^T wrench for (n, 6) wrenches about the point r."""
    out = np.array(wrench, dtype=float)
    # Moment transport M_O = M_P + r x F_P
    out[:, 3:] += np.cross(np.broadcast_to(r, wrench[:, :3].shape), wrench[:, :3])
    return out


def columns(coefficients: Sequence[Coefficient], params, nu, nu_dot) -> np.ndarray:
    """
    Return phi (n, 6, p): the wrench about the origin of each unit coefficient.

    ``nu``/``nu_dot`` are (n, 6) body twists and their derivatives (smoothed).
    """
    nu = np.asarray(nu, dtype=float)
    nu_dot = np.asarray(nu_dot, dtype=float)
    n = nu.shape[0]
    r_v = params.resolved_drag_velocity_point().reshape(3)
    r_c = params.resolved_drag_center().reshape(3)
    r_a = np.asarray(params.added_mass_point, float).reshape(3)
    nu_drag = _point_twist(nu, r_v)
    nu_am = _point_twist(nu, r_a)
    acc_am = _point_twist(nu_dot, r_a)
    coriolis = bool(params.coriolis) and bool(getattr(params, 'added_mass_coriolis', True))
    out = np.zeros((n, 6, len(coefficients)))
    for j, c in enumerate(coefficients):
        if c.term == 'added_mass':
            pairs = [c.index] + ([c.index[::-1]] if c.symmetric else [])
            w = np.zeros((n, 6))
            for a, b in pairs:
                # tau_A = -M_A nu_dot (Fossen 2011 ch. 6), unit entry (a, b)
                w[:, a] -= acc_am[:, b]
                if coriolis:
                    # Fossen 2011 eqs. 6.43-6.46: [a1, a2] = E_ab nu_p = e_a nu_p,b
                    vec = np.zeros((n, 6))
                    vec[:, a] = nu_am[:, b]
                    a1, a2 = vec[:, :3], vec[:, 3:]
                    w[:, :3] += np.cross(a1, nu_am[:, 3:])
                    w[:, 3:] += np.cross(a1, nu_am[:, :3]) + np.cross(a2, nu_am[:, 3:])
            out[:, :, j] = _to_origin(w, r_a)
            continue
        w = np.zeros((n, 6))
        a = c.index[0]
        if c.term == 'linear':
            # dsros_hydro linear drag: tau_a = -L_ab nu_b
            w[:, a] = -nu_drag[:, c.index[1]]
        else:
            # dsros_hydro quadratic drag: F_a = -Q_abc |nu_b| nu_c
            w[:, a] = -np.abs(nu_drag[:, c.index[1]]) * nu_drag[:, c.index[2]]
        out[:, :, j] = _to_origin(w, r_c)
    return out


def apply(params, coefficients: Sequence[Coefficient], values) -> None:
    """Write ``values`` into ``params`` (in place) at the coefficients' indices."""
    for c, v in zip(coefficients, values):
        arr = getattr(params, TERM_FIELDS[c.term])
        arr[c.index] = float(v)
        if c.symmetric:
            arr[c.index[::-1]] = float(v)


def read(params, coefficients: Sequence[Coefficient]) -> np.ndarray:
    """Return the values of ``coefficients`` in ``params``."""
    return np.array([float(getattr(params, TERM_FIELDS[c.term])[c.index])
                     for c in coefficients])
