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
Linear and quadratic drag (dsros_hydro coefficients, positive = dissipative).

* linear:    tau = -L nu
* quadratic: F_a = -sum_bc Q[a, b, c] |nu_b| nu_c  (dsros: Q_abc |V_b| V_c)
* forward speed: tau = -u L_u nu with the signed surge u = nu[0] (uuv_simulator
  HMFossen::ComputeDampingMatrix, D = -D_lin - u D_lin,fwd: the damping grows with
  forward speed and shrinks, then reverses, going backwards); reported with the
  linear drag.

:class:`Drag` evaluates both with the relative twist (nu - nu_current) of
``drag_velocity_point`` (nu_p = H(r_v) nu_r) and moves the result from
``drag_center`` to the origin (tau_O = H(r_c)^T tau_p).  For the physical model
both points coincide; dsros_hydro evaluates drag with the centre-of-mass
velocity but applies it at its drag centre, which a dsros block reproduces with
drag_velocity_point = com.
"""
import numpy as np

from uwv_hydro.physics.body.vehicle_params import DAMPING_MODELS
from uwv_hydro.physics.spatial.point_transform import transfer_matrix_h


def linear_drag(linear, nu) -> np.ndarray:
    """Return -L nu."""
    # dsros_hydro linear drag: tau = -L nu
    return -(np.asarray(linear, dtype=float) @ np.asarray(nu, dtype=float))


def quadratic_drag(quadratic, nu) -> np.ndarray:
    """Return F_a = -sum_bc Q[a, b, c] |nu_b| nu_c for a 6x6x6 tensor Q."""
    nu = np.asarray(nu, dtype=float)
    q = np.asarray(quadratic, dtype=float).reshape(6, 36)
    # dsros_hydro quadratic drag: F_a = -Q_abc |nu_b| nu_c
    return -(q @ np.outer(np.abs(nu), nu).ravel())


class QuadraticDrag:
    """Quadratic drag with the nonzero entries of Q precomputed (sparse evaluation)."""

    def __init__(self, quadratic):
        q = np.array(quadratic, dtype=float).reshape(6, 6, 6)
        a, b, c = np.nonzero(q)
        self.tensor = q
        self.is_zero = a.size == 0
        self._rows = a
        self._abs_index = b
        self._sign_index = c
        self._values = q[a, b, c]
        # Dense evaluation is cheaper than scatter-add once many terms are present
        self._dense = a.size > 24
        self._flat = q.reshape(6, 36)

    def __call__(self, nu) -> np.ndarray:
        """Return the quadratic drag wrench at the point whose twist is ``nu``."""
        if self.is_zero:
            return np.zeros(6)
        if self._dense:
            # dsros_hydro quadratic drag: F_a = -Q_abc |nu_b| nu_c (dense)
            return -(self._flat @ np.outer(np.abs(nu), nu).ravel())
        # dsros_hydro quadratic drag: F_a = -Q_abc |nu_b| nu_c (nonzero terms only)
        terms = self._values * np.abs(nu[self._abs_index]) * nu[self._sign_index]
        return -np.bincount(self._rows, weights=terms, minlength=6)


class Drag:
    """Linear and quadratic drag of one vehicle, with its reference points precomputed."""

    def __init__(self, params):
        if params.damping not in DAMPING_MODELS:
            raise ValueError('unknown damping model %r (expected one of %s)'
                             % (params.damping, ', '.join(DAMPING_MODELS)))
        self.center = params.resolved_drag_center().reshape(3)
        self.velocity_point = params.resolved_drag_velocity_point().reshape(3)
        linear = np.array(params.linear_drag, dtype=float).reshape(6, 6)
        if params.damping == 'quadratic_only':
            # uwv_dynamic_model COMPLEX-like switch: the linear term is ignored
            linear = np.zeros((6, 6))
        self.linear = linear
        forward = np.array(getattr(params, 'forward_speed_drag', np.zeros((6, 6))),
                           dtype=float).reshape(6, 6)
        if params.damping == 'quadratic_only':
            forward = np.zeros((6, 6))
        self.forward_speed = forward
        self.forward_is_zero = not np.any(forward)
        self.linear_is_zero = not np.any(linear) and self.forward_is_zero
        self.quadratic = QuadraticDrag(params.quadratic_drag)
        self.signed = np.array(getattr(params, 'signed_quadratic_drag', np.zeros((6, 6, 6))),
                               dtype=float).reshape(6, 6, 6)
        self.signed_is_zero = not np.any(self.signed)
        self.is_zero = (self.linear_is_zero and self.quadratic.is_zero
                        and self.signed_is_zero)
        # Twist transfer to the velocity point and wrench transfer from the centre
        self._h_velocity = transfer_matrix_h(self.velocity_point)
        self._h_center_t = np.ascontiguousarray(transfer_matrix_h(self.center).T)
        self._velocity_at_origin = not np.any(self.velocity_point)
        self._center_at_origin = not np.any(self.center)

    def point_twist(self, nu_r) -> np.ndarray:
        """Return the relative twist of the drag velocity point: H(r_v) nu_r."""
        if self._velocity_at_origin:
            return nu_r
        # Fossen's H(r), MSS Hmtrx: nu_p = H(r_v) nu
        return self._h_velocity @ nu_r

    def to_origin(self, tau_point) -> np.ndarray:
        """Return the drag-centre wrench moved to the origin: H(r_c)^T tau."""
        if self._center_at_origin:
            return tau_point
        # Wrench transfer: tau_O = H(r_c)^T tau_c
        return self._h_center_t @ tau_point

    def wrenches(self, nu_r):
        """Return (linear, quadratic) drag wrenches about the origin for the relative twist."""
        if self.is_zero:
            return np.zeros(6), np.zeros(6)
        nu_p = self.point_twist(np.asarray(nu_r, dtype=float))
        if self.linear_is_zero:
            lin = np.zeros(6)
        else:
            # dsros_hydro linear drag: tau = -L nu_p
            tau = -(self.linear @ nu_p)
            if not self.forward_is_zero:
                # uuv_simulator HMFossen forward-speed damping: tau = -u L_u nu_p (u signed)
                tau -= nu_p[0] * (self.forward_speed @ nu_p)
            lin = self.to_origin(tau)
        quad = self.quadratic(nu_p)
        if not self.signed_is_zero:
            # gz-sim Hydrodynamics signed quadratic terms: F_a = -S_abc nu_b nu_c
            quad = quad - np.einsum('abc,b,c->a', self.signed, nu_p, nu_p)
        return lin, self.to_origin(quad)
