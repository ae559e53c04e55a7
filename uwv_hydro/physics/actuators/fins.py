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
Lift and drag of control surfaces (fins), each a revolute joint with a lift/drag model.

Per fin and state (gz-sim LiftDrag's geometry, all vectors in the body frame):

* the deflection delta rotates the fin's ``cp``, ``forward`` f and ``upward`` u about
  its joint ``axis`` k (Rodrigues: v' = v cos d + (k x v) sin d + k (k.v)(1 - cos d));
* the fin's velocity through the water at its centre of pressure r = position + cp' is
  v = v_r + w x r, with nu_r = nu - nu_c the body twist relative to the water
  (Fossen's H(r), MSS Hmtrx: the twist moved to the point);
* s = f' x u' (spanwise), v_p = v - (v.s) s the flow in the fin's lift/drag plane;
  alpha = a0 + atan2(-v.u', v.f') wrapped into [-pi/2, pi/2] (so alpha = delta + the
  flow angle when k = s), dynamic pressure q = 1/2 rho |v_p|^2 (the fin's
  ``fluid_density`` when set, else the vehicle's);
* lift acts along s x v_p / |v_p| (perpendicular to the flow), drag along -v_p / |v_p|,
  with the coefficients of the fin's model: ``two_line`` (gz-sim LiftDrag, with its
  sweep factor and control-joint term), ``quadratic`` (uuv_simulator:
  L = lift_constant alpha |v_p|^2, D = drag_constant alpha^2 |v_p|^2) or
  ``uuv_two_lines`` (uuv_simulator's TwoLines, LiftDragModel.cc, its signed drag and
  its ``cda_stall`` on the negative lift branch kept as there);
* no force below 1 cm/s (gz-sim) or without in-plane flow;
* the force F acting at r is moved to the body origin: [F, r x F] (tau_O = H(r)^T tau_r,
  H as gnc.Hmtrx of Fossen's PythonVehicleSimulator).

Fin rates (delta_dot) are not in the flow: a quasi-steady model, as gz-sim and uuv.
The model is evaluated by the compiled core (``_fins.c``: ``fin_force``, also at every
RK4 stage of the integrators); this class holds the validated, precomputed geometry.
The models' formulas past the stall: doc/guide/sdf_equipment.md ("Fins: gz-sim
`LiftDrag`") and doc/guide/uuv_dave_dssim.md.
"""
from typing import Sequence, Tuple

import numpy as np

from uwv_hydro.physics.body.vehicle_params import Fin, FIN_MODELS
from uwv_hydro.physics.kernel import core, pack_fins

#: The compiled core's code of each fin model (_fins.c, fin_force).
_MODEL_CODES = {'quadratic': 0, 'two_line': 1, 'uuv_two_lines': 2}
#: Below this fin speed through the water (m/s) the fin has no force (gz-sim LiftDrag).
MIN_SPEED = core.MIN_FIN_SPEED


def _unit_rows(a: np.ndarray, what: str, names: Sequence[str]) -> np.ndarray:
    """Return the rows of (K, 3) ``a`` scaled to unit length (ValueError if zero)."""
    norm = np.linalg.norm(a, axis=1)
    bad = [n for n, v in zip(names, norm) if not v > 1e-12 or not np.isfinite(v)]
    if bad:
        raise ValueError('fin %s: %s must be a nonzero finite vector' % (bad[0], what))
    return a / norm[:, None]


class FinSet:
    """The fins of one vehicle, evaluated together (vectorised over states and fins)."""

    def __init__(self, fins: Sequence[Fin], fluid_density: float):
        self.names = [f.name for f in fins]
        names = self.names
        for f in fins:
            if f.model not in FIN_MODELS:
                raise ValueError("fin %s: model must be one of %s, got '%s'"
                                 % (f.name, ', '.join(FIN_MODELS), f.model))
        self.count = len(fins)
        self.rho = float(fluid_density)

        def rows(attr):
            return np.array([np.asarray(getattr(f, attr), float).reshape(3) for f in fins]
                            ).reshape(-1, 3)

        def column(attr):
            return np.array([float(getattr(f, attr)) for f in fins])

        k = _unit_rows(rows('axis'), 'axis', names)
        forward = _unit_rows(rows('forward'), 'forward', names)
        upward = _unit_rows(rows('upward'), 'upward', names)
        dots = np.abs(np.einsum('ki,ki->k', forward, upward))
        if np.any(dots > 1e-6):
            bad = names[int(np.argmax(dots))]
            raise ValueError('fin %s: forward and upward must be perpendicular' % bad)
        span = np.cross(forward, upward)
        #: Joint origins, component-major (3, K).
        self.position = rows('position').T.copy()
        #: Rodrigues split v(d) = par + perp cos d + kxv sin d of cp, forward (f),
        #: upward (u) and spanwise (s), component-major (3, 3, K)
        self.rotation_parts = {}
        for key, v in (('cp', rows('cp')), ('f', forward), ('u', upward), ('s', span)):
            par = k * np.einsum('ki,ki->k', k, v)[:, None]
            self.rotation_parts[key] = np.array([par.T, (v - par).T, np.cross(k, v).T])
        #: The core's model code per fin: 0 quadratic, 1 two_line, 2 uuv_two_lines.
        self.model_code = np.array([_MODEL_CODES[f.model] for f in fins], dtype=int)
        self.area = column('area')
        #: The density of each fin's dynamic pressure: its own, or the vehicle's.
        density = column('fluid_density')
        self.density = np.where(density > 0.0, density, self.rho)
        self.cla, self.cda = column('cla'), column('cda')
        self.alpha_stall = column('alpha_stall')
        self.cla_stall, self.cda_stall = column('cla_stall'), column('cda_stall')
        self.a0 = column('a0')
        self.k_cl = column('control_joint_rad_to_cl')
        self.lift_constant = column('lift_constant')
        self.drag_constant = column('drag_constant')
        # The model itself is evaluated by the compiled core (_fins.c, fin_force)
        self._core = core.fins(pack_fins(self))

    def angles_array(self, angles, n: int) -> np.ndarray:
        """Return deflections as (n, K) (None: zero; (K,) is used for every state)."""
        if angles is None:
            return np.zeros((n, self.count))
        a = np.asarray(angles, dtype=float)
        if a.shape == (self.count,):
            return np.broadcast_to(a, (n, self.count))
        if a.shape != (n, self.count):
            raise ValueError('fin angles must be (%d,) or (%d, %d), got shape %s'
                             % (self.count, n, self.count, a.shape))
        return a

    def _inputs(self, nu_r, angles):
        """Return (nu_r (N, 6), angles (N, K) or (K,), stride) as contiguous arrays."""
        nu_r = np.ascontiguousarray(np.asarray(nu_r, dtype=float).reshape(-1, 6))
        n = nu_r.shape[0]
        if angles is None:
            return nu_r, np.zeros(self.count), 0
        a = np.asarray(angles, dtype=float)
        if a.shape == (self.count,):
            return nu_r, np.ascontiguousarray(a), 0
        return nu_r, np.ascontiguousarray(self.angles_array(a, n)), self.count

    def forces(self, nu_r, angles=None) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """
        Return the centres of pressure, forces and angles of attack for N relative twists.

        Shapes: points (N, K, 3), forces (N, K, 3), alpha (N, K).

        ``nu_r``: (N, 6) or (6,) body twists relative to the water; ``angles``: fin
        deflections (K,) or (N, K) in radians (None: zero).  Points and forces are in
        the body frame; alpha is the angle of attack of each fin.
        """
        nu_r, angles, stride = self._inputs(nu_r, angles)
        n = nu_r.shape[0]
        r = np.empty((n, self.count, 3))
        force = np.empty((n, self.count, 3))
        alpha = np.empty((n, self.count))
        core.fin_eval(self._core, nu_r, angles, stride, None, r, force, alpha)
        return r, force, alpha

    def wrench_many(self, nu_r, angles=None) -> np.ndarray:
        """Return the fins' body wrenches about the origin, (N, 6), for N relative twists."""
        nu_r, angles, stride = self._inputs(nu_r, angles)
        out = np.empty((nu_r.shape[0], 6))
        core.fin_eval(self._core, nu_r, angles, stride, out, None, None, None)
        return out

    def wrench(self, nu_r, angles=None) -> np.ndarray:
        """Return the fins' body wrench about the origin (6,) for one relative twist."""
        if angles is not None and np.shape(angles) != (self.count,):
            raise ValueError('expected %d fin angles, got shape %s'
                             % (self.count, np.shape(angles)))
        return np.array(core.fin_wrench(self._core, nu_r, angles))
