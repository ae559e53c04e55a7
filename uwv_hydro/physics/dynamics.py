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
Six-degree-of-freedom vehicle dynamics with implicit added mass, integrated with RK4.

Equations of motion about the body origin (Fossen 2011 eq. 10.x / sec. 10.3)::

    p_dot = R(q) v                                  (world position of the origin)
    q_dot = 0.5 q (x) [0, w]                        (world <- body quaternion)
    (M_RB + M_A) nu_dot = tau + tau_hydro(nu_r) - C_RB(nu) nu - C_A(nu_r) nu_r
                          + M_A nu_dot_c + g(eta)

with M_RB and M_A both referred to the origin (M_A = H(r_a)^T M_A,p H(r_a)).  The
added mass is implicit (in the mass matrix, inverted once at construction), so a
light body with large added mass is as stable as a heavy one; compare the explicit
dsros scheme (:class:`uwv_hydro.physics.added_mass.LaggedAcceleration`).

Integration (uwv_dynamic_model): fixed-step classic RK4 with step dt/substeps,
thrust and fin deflections (:meth:`Simulator.set_fin_angles`) held constant over the
step, quaternion renormalised after every sub-step.  The fin wrench
(:mod:`uwv_hydro.physics.fins`) is evaluated at every RK4 stage from the stage twist.
``dynamics_only`` integrates nu only (pose frozen, uwv_dynamic_model DYNAMIC mode).

:meth:`Simulator.step` evaluates nu_dot through the precomputed affine/bilinear
feature forms of :mod:`uwv_hydro.physics.features` (premultiplied by M^-1) and does
the kinematics in plain floats; :meth:`Simulator.acceleration` and
:meth:`Simulator.derivative` keep the term-by-term evaluation (the reference the
fast path is tested against).
"""
from dataclasses import dataclass, field
import math
from typing import Optional, Tuple

import numpy as np

from uwv_hydro.physics import features
from uwv_hydro.physics.hydro_model import HydroModel
from uwv_hydro.physics.hydrostatics import transition_interior
from uwv_hydro.physics.rigid_body import coriolis_wrench
from uwv_hydro.physics.rotation import quat_derivative, quat_normalize, quat_to_matrix


def _floats(a, n: int) -> list:
    """Return the n values of a float vector as a list (any sequence; cheap for arrays)."""
    if type(a) is np.ndarray and a.shape == (n,) and a.dtype == np.float64:
        return a.tolist()
    return np.asarray(a, dtype=float).reshape(n).tolist()


def _unit(q) -> list:
    """Return q / |q| for a quaternion given as 4 floats (ValueError if zero or not finite)."""
    n = math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3])
    if not n > 0.0 or not math.isfinite(n):
        raise ValueError('cannot normalise quaternion %r' % (q,))
    # Unit quaternion: q / |q| (as rotation.quat_normalize)
    return [q[0] / n, q[1] / n, q[2] / n, q[3] / n]


@dataclass
class State:
    """Vehicle state: world position of the origin, attitude [w, x, y, z], body twist."""

    position: np.ndarray = field(default_factory=lambda: np.zeros(3))
    quaternion: np.ndarray = field(default_factory=lambda: np.array([1.0, 0.0, 0.0, 0.0]))
    twist: np.ndarray = field(default_factory=lambda: np.zeros(6))

    def __post_init__(self):
        self.position = np.array(self.position, dtype=float).reshape(3)
        self.quaternion = np.array(self.quaternion, dtype=float).reshape(4)
        self.twist = np.array(self.twist, dtype=float).reshape(6)

    def copy(self) -> 'State':
        """Return an independent copy."""
        return State(self.position, self.quaternion, self.twist)

    @classmethod
    def _wrap(cls, position, quaternion, twist) -> 'State':
        """Return a State holding the given float arrays as they are (no copies)."""
        state = cls.__new__(cls)
        state.position = position
        state.quaternion = quaternion
        state.twist = twist
        return state


class Simulator:
    """
    Fixed-step RK4 integrator of one vehicle.

    ``dt``: step of :meth:`step` (s); ``substeps``: RK4 sub-steps per step;
    ``dynamics_only``: integrate the twist only (pose frozen).  :meth:`step` reuses
    evaluation buffers of the instance: step one Simulator from one thread at a time.
    """

    def __init__(self, params, dt: float = 0.01, substeps: int = 1,
                 dynamics_only: bool = False):
        if not (float(dt) > 0.0 and math.isfinite(float(dt))):
            raise ValueError('dt must be positive and finite, got %r' % (dt,))
        if int(substeps) != substeps or int(substeps) < 1:
            raise ValueError('substeps must be an integer >= 1, got %r' % (substeps,))
        self.params = params
        self.dt = float(dt)
        self.substeps = int(substeps)
        self.dynamics_only = bool(dynamics_only)
        self.model = HydroModel(params)
        self._h = self.dt / self.substeps
        self._m_rb = self.model.rigid_body_mass_matrix()
        mass = self.model.mass_matrix()
        if not np.all(np.isfinite(mass)) or np.linalg.cond(mass) > 1e12:
            raise ValueError('the mass matrix M_RB + M_A is singular or not finite')
        # Implicit added mass: (M_RB + M_A)^-1 computed once
        self._m_inv = np.linalg.inv(mass)
        self._coriolis = bool(params.coriolis)
        self._hs = self.model.hydrostatics
        self._fins = self.model.fins
        self._fin_angles = np.zeros(0 if self._fins is None else self._fins.count)
        self._tau_held = np.zeros(6)
        self._init_fast_path()

    @property
    def fin_angles(self) -> np.ndarray:
        """Return the fin deflections (rad, ``params.fins`` order) used by the next steps."""
        return self._fin_angles.copy()

    def set_fin_angles(self, angles) -> None:
        """Hold the fin deflections (rad, ``params.fins`` order) for the following steps."""
        a = np.array(angles, dtype=float).reshape(-1)
        if a.shape != self._fin_angles.shape:
            raise ValueError('expected %d fin angles, got %d' % (self._fin_angles.size, a.size))
        if not np.all(np.isfinite(a)):
            raise ValueError('fin angles must be finite, got %r' % (a.tolist(),))
        self._fin_angles = a

    def _add_fin_wrench(self, n0, n1, n2, n3, n4, n5, c0, c1, c2) -> None:
        """Put tau + the fin wrench of the stage twist into the feature buffer."""
        # Fins see the twist relative to the water: nu_r = nu - [v_cb, 0]
        self._extra[:] = self._tau_held + self._fins.wrench(
            [n0 - c0, n1 - c1, n2 - c2, n3, n4, n5], self._fin_angles)

    def _init_fast_path(self):
        """Precompute M^-1 times every feature form and the evaluation buffers."""
        forms = features.FeatureForms(self.model)
        m_inv = self._m_inv
        # Right-hand side of Fossen 2011 eq. 10.x without tau: -C_RB(nu) nu
        # - C_A(nu_r) nu_r + M_A nu_dot_c (bilinear) + drag + g(eta) (affine)
        bilinear = (forms.rigid_body_coriolis + forms.added_mass_coriolis
                    + forms.current_inertia)
        # nu_dot = (M_RB + M_A)^-1 rhs: every coefficient premultiplied by M^-1
        self._kernel = features.build_kernel(
            m_inv @ forms.linear, m_inv @ forms.weight, m_inv @ forms.buoyancy, m_inv,
            np.einsum('ia,abk->ibk', m_inv, forms.quadratic),
            np.einsum('ia,ajk->ijk', m_inv, bilinear), forms.p)
        buf = features.new_buffer()
        self._buf = buf
        self._lin = buf[features.LIN_START:]
        self._u = buf[:features.U_SIZE]
        self._abs = buf[features.ABS_SLICE]
        self._feat = buf[features.Z_SLICE.start:features.FD_SLICE.stop]
        self._extra = buf[features.EXTRA_SLICE]
        self._y = np.empty(self._kernel.shape[0])
        self._y_mat = self._y[:-6].reshape(6, features.U_SIZE)
        self._y_p = self._y[-6:]
        # Bound methods: the hot path is dominated by call overhead
        self._kernel_dot = self._kernel.dot
        self._y_mat_dot = self._y_mat.dot
        surface = self._hs.surface
        self._full_depth = float(surface.fully_submerged_depth)
        self._out_depth = float(surface.out_of_water_depth)
        band = (self._full_depth, self._out_depth, float(surface.scale_factor),
                1.0 if surface.model == 'continuous' else 0.0)
        # the transition is affine in depth: its two ends give it exactly (when it exists)
        if self._full_depth > self._out_depth:
            at_out = transition_interior(self._out_depth, *band)
            at_full = transition_interior(self._full_depth, *band)
            self._band_slope = (at_full - at_out) / (self._full_depth - self._out_depth)
            self._band_offset = at_out - self._band_slope * self._out_depth

    def _fraction(self, depth: float) -> float:
        """Return the surface fraction (the common fully submerged case inline)."""
        if depth >= self._full_depth:
            return 1.0
        if depth <= self._out_depth:
            return 0.0
        if depth != depth:
            raise ValueError('depth is not a number')
        return self._band_offset + self._band_slope * depth

    def _fast_acceleration(self, feats):
        """
        Return nu_dot (list) for the 15 features [nu, v_cb, d, f d]; tau is in the buffer.

        Two matrix-vector products, see :mod:`uwv_hydro.physics.features`.
        """
        self._feat[:] = feats
        if self._fins is not None:
            self._add_fin_wrench(*feats[:9])
        self._kernel_dot(self._lin, self._y)
        np.absolute(self._y_p, self._abs)
        return self._y_mat_dot(self._u).tolist()

    def _fast_derivative(self, x, k, c, cw):
        """
        Return d/dt of the flat float state x + c k ([p (3), q (4), nu (6)]) as a list.

        ``k`` None means the state x itself; only the depth of the position is needed.
        """
        if k is None:
            p2, qw, qx, qy, qz = x[2], x[3], x[4], x[5], x[6]
            n0, n1, n2, n3, n4, n5 = x[7], x[8], x[9], x[10], x[11], x[12]
        else:
            # RK4 stage state x + c k
            p2 = x[2] + c * k[2]
            qw, qx, qy, qz = x[3] + c * k[3], x[4] + c * k[4], x[5] + c * k[5], x[6] + c * k[6]
            n0, n1, n2 = x[7] + c * k[7], x[8] + c * k[8], x[9] + c * k[9]
            n3, n4, n5 = x[10] + c * k[10], x[11] + c * k[11], x[12] + c * k[12]
        # Fossen 2011 eq. 2.72 for q / |q|: R = I + 2/|q|^2 (w S(e) + S(e)^2)
        s = 2.0 / (qw * qw + qx * qx + qy * qy + qz * qz)
        sx, sy, sz = s * qx, s * qy, s * qz
        xx, yy, zz = sx * qx, sy * qy, sz * qz
        xy, xz, yz = sx * qy, sx * qz, sy * qz
        wx, wy, wz = sx * qw, sy * qw, sz * qw
        r00, r01, r02 = 1.0 - (yy + zz), xy - wz, xz + wy
        r10, r11, r12 = xy + wz, 1.0 - (xx + zz), yz - wx
        r20, r21, r22 = xz - wy, yz + wx, 1.0 - (xx + yy)
        if cw is None:
            c0 = c1 = c2 = 0.0
        else:
            # Body-frame current v_cb = R^T v_c (Fossen 2011 sec. 10.3)
            c0 = r00 * cw[0] + r10 * cw[1] + r20 * cw[2]
            c1 = r01 * cw[0] + r11 * cw[1] + r21 * cw[2]
            c2 = r02 * cw[0] + r12 * cw[1] + r22 * cw[2]
        depth = -p2
        if depth >= self._full_depth:
            f = 1.0
        elif depth <= self._out_depth:
            f = 0.0
        elif depth == depth:
            # inside the surface band (hydrostatics.transition_interior, affine in depth)
            f = self._band_offset + self._band_slope * depth
        else:
            raise ValueError('depth is not a number')
        # Down direction d = -R[2, :] (hydrostatics.down_direction)
        d0, d1, d2 = -r20, -r21, -r22
        # nu_dot from the feature forms (_fast_acceleration, inlined)
        self._feat[:] = (n0, n1, n2, n3, n4, n5, c0, c1, c2, d0, d1, d2,
                         f * d0, f * d1, f * d2)
        if self._fins is not None:
            self._add_fin_wrench(n0, n1, n2, n3, n4, n5, c0, c1, c2)
        self._kernel_dot(self._lin, self._y)
        np.absolute(self._y_p, self._abs)
        acc = self._y_mat_dot(self._u).tolist()
        return [
            # Fossen 2011 eq. 2.83: p_dot = R(q) v
            r00 * n0 + r01 * n1 + r02 * n2,
            r10 * n0 + r11 * n1 + r12 * n2,
            r20 * n0 + r21 * n1 + r22 * n2,
            # Fossen 2011 eq. 2.86: q_dot = 1/2 q (x) [0, w]
            0.5 * (-qx * n3 - qy * n4 - qz * n5),
            0.5 * (qw * n3 + qy * n5 - qz * n4),
            0.5 * (qw * n4 - qx * n5 + qz * n3),
            0.5 * (qw * n5 + qx * n4 - qy * n3),
        ] + acc

    def acceleration(self, nu, rotation, fraction: float, tau, current_world=None) -> np.ndarray:
        """Return nu_dot for twist ``nu``, attitude matrix ``rotation`` and surface fraction."""
        rhs = tau + self.model.dynamics_wrench(nu, rotation, fraction, current_world,
                                               self._fin_angles)
        if self._coriolis:
            # Fossen 2011 eq. 3.56: -C_RB(nu) nu
            rhs += coriolis_wrench(self._m_rb, nu)
        # Fossen 2011 eq. 10.x: nu_dot = (M_RB + M_A)^-1 (sum of wrenches)
        return self._m_inv @ rhs

    def _flat_derivative(self, x, tau, current_world):
        """Return d/dt of the flat state [p (3), q (4), nu (6)]."""
        q = x[3:7]
        nu = x[7:13]
        # Attitude matrix of the (renormalised) stage quaternion, Fossen 2011 eq. 2.72
        rotation = quat_to_matrix(q / math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]
                                                + q[3] * q[3]))
        fraction = self._hs.fraction(-x[2])
        out = np.empty(13)
        # Fossen 2011 eq. 2.83: p_dot = R(q) v
        out[:3] = rotation @ nu[:3]
        # Fossen 2011 eq. 2.86: q_dot = 1/2 q (x) [0, w]
        out[3:7] = quat_derivative(q, nu[3:])
        out[7:] = self.acceleration(nu, rotation, fraction, tau, current_world)
        return out

    def derivative(self, state: State, tau_body=None, current_world=None) -> State:
        """
        Return the state derivative as a State (position_dot, quaternion_dot, twist_dot).

        In ``dynamics_only`` mode the pose derivatives are zero.
        """
        tau = self._tau(tau_body)
        x = self._pack(state)
        d = self._flat_derivative(x, tau, current_world)
        if self.dynamics_only:
            d[:7] = 0.0
        return State(d[:3], d[3:7], d[7:])

    def state_acceleration(self, x, tau_body=None, current_world=None) -> list:
        """
        Return nu_dot (6 floats) at the flat state ``x`` (13 floats) under ``tau_body``.

        The fast-path evaluation of the equations of motion at one state (what an IMU
        at that state senses), equal to ``derivative(...).twist``.
        """
        self._set_tau(tau_body)
        return self._fast_derivative(x, None, 0.0, self._current(current_world))[7:]

    def step(self, state: State, tau_body=None, current_world=None,
             substeps: Optional[int] = None, dt: Optional[float] = None) -> State:
        """
        Advance ``state`` by dt with constant body wrench ``tau_body``; return a new State.

        ``substeps`` overrides the instance's RK4 sub-step count for this step (e.g. to
        retry a step that diverged with a smaller sub-step); ``dt`` overrides the step
        length (see :meth:`substeps_for`).
        """
        q = _floats(state.quaternion, 4)
        if self.dynamics_only:
            self._set_tau(tau_body)
            h, n = self.substeps_for(dt, substeps)
            return self._step_twist(state, _unit(q), self._current(current_world), h, n)
        x = _floats(state.position, 3) + q + _floats(state.twist, 6)
        out = np.array(self.step_flat(x, tau_body, current_world, substeps, dt))
        return State._wrap(out[:3], out[3:7], out[7:])

    def substeps_for(self, dt: Optional[float] = None,
                     substeps: Optional[int] = None) -> Tuple[float, int]:
        """
        Return (sub-step length, count) of one step of length ``dt`` (default: the instance's).

        A step of any length takes ``substeps`` (default: the instance's) sub-steps, and
        more when needed so that no sub-step is longer than the instance's dt / substeps:
        one Simulator steps recorded intervals of any length (replay), and an interval
        longer than its dt (a gap) is split instead of taken in one possibly unstable
        RK4 step.  For dt <= the instance's dt the result is that of a Simulator built
        with that dt.
        """
        if substeps is None:
            n = self.substeps
        else:
            n = int(substeps)
            if n < 1:
                raise ValueError('substeps must be >= 1, got %r' % (substeps,))
        if dt is None:
            return (self._h if substeps is None else self.dt / n), n
        dt = float(dt)
        if not (dt > 0.0 and math.isfinite(dt)):
            raise ValueError('dt must be positive and finite, got %r' % (dt,))
        # Sub-steps no longer than the instance's (the 1e-9 absorbs dt / h rounding)
        n = max(n, math.ceil(dt / self._h - 1e-9))
        return dt / n, n

    def step_flat(self, x, tau_body=None, current_world=None,
                  substeps: Optional[int] = None, dt: Optional[float] = None) -> list:
        """
        Return the state after dt as a list, for the flat float state ``x`` (13 floats).

        ``x`` = [position (3), quaternion [w, x, y, z] (4), twist (6)] (a list); the
        quaternion is normalised first, as :meth:`step` does.  The pose is integrated
        even in ``dynamics_only`` mode (use :meth:`step` there).  The loop of
        :func:`uwv_hydro.modes.offline_simulation.simulate` uses this directly.  ``substeps``
        overrides the RK4 sub-step count and ``dt`` the step length for this call
        (:meth:`substeps_for`).
        """
        if len(x) != 13:
            raise ValueError('x must have 13 values, got %d' % len(x))
        x = x[:3] + _unit(x[3:7]) + x[7:]
        self._set_tau(tau_body)
        cw = self._current(current_world)
        if dt is None and substeps is None:
            h, n = self._h, self.substeps
        else:
            h, n = self.substeps_for(dt, substeps)
        f = self._fast_derivative
        half, sixth = 0.5 * h, h / 6.0
        for _ in range(n):
            # Classic RK4 (uwv_dynamic_model): x += h/6 (k1 + 2 k2 + 2 k3 + k4)
            k1 = f(x, None, 0.0, cw)
            k2 = f(x, k1, half, cw)
            k3 = f(x, k2, half, cw)
            k4 = f(x, k3, h, cw)
            x = [a + sixth * (b1 + 2.0 * (b2 + b3) + b4)
                 for a, b1, b2, b3, b4 in zip(x, k1, k2, k3, k4)]
            # Renormalise the quaternion after every sub-step
            x[3:7] = _unit(x[3:7])
        return x

    def _set_tau(self, tau_body) -> None:
        """Put the body wrench (held over the step) into the feature buffer."""
        if tau_body is None:
            self._extra[:] = 0.0
        elif type(tau_body) is np.ndarray and tau_body.shape == (6,):
            self._extra[:] = tau_body
        else:
            self._extra[:] = np.asarray(tau_body, dtype=float).reshape(6)
        if self._fins is not None:
            self._tau_held[:] = self._extra

    @staticmethod
    def _current(current_world):
        """Return the world current as a list of 3 floats (or None)."""
        if current_world is None:
            return None
        return _floats(current_world, 3)

    def _step_twist(self, state: State, q, cw, h, substeps: int) -> State:
        """Integrate the twist only (pose frozen): RK4 on nu with constant d, v_cb, f."""
        # Fossen 2011 eq. 2.72 (unit q): d = -R[2, :], v_cb = R^T v_c
        r = quat_to_matrix(q)
        d = (-r[2, :]).tolist()
        c = [0.0, 0.0, 0.0] if cw is None else (r.T @ np.array(cw)).tolist()
        f = self._fraction(-float(state.position[2]))
        const = c + d + [f * d[0], f * d[1], f * d[2]]
        acc = self._fast_acceleration
        nu = np.asarray(state.twist, dtype=float).reshape(6).tolist()
        half, sixth = 0.5 * h, h / 6.0
        for _ in range(substeps):
            k1 = acc(nu + const)
            k2 = acc([a + half * b for a, b in zip(nu, k1)] + const)
            k3 = acc([a + half * b for a, b in zip(nu, k2)] + const)
            k4 = acc([a + h * b for a, b in zip(nu, k3)] + const)
            # Classic RK4 on the twist only (uwv_dynamic_model DYNAMIC mode)
            nu = [a + sixth * (b1 + 2.0 * (b2 + b3) + b4)
                  for a, b1, b2, b3, b4 in zip(nu, k1, k2, k3, k4)]
        return State(state.position, state.quaternion, nu)

    def _rk4_twist(self, nu, rotation, fraction, tau, current_world, h):
        """Return nu after one RK4 sub-step with the pose frozen."""
        a = self.acceleration
        k1 = a(nu, rotation, fraction, tau, current_world)
        k2 = a(nu + (0.5 * h) * k1, rotation, fraction, tau, current_world)
        k3 = a(nu + (0.5 * h) * k2, rotation, fraction, tau, current_world)
        k4 = a(nu + h * k3, rotation, fraction, tau, current_world)
        # Classic RK4 on the twist only (uwv_dynamic_model DYNAMIC mode)
        return nu + (h / 6.0) * (k1 + 2.0 * (k2 + k3) + k4)

    @staticmethod
    def _tau(tau_body) -> np.ndarray:
        if tau_body is None:
            return np.zeros(6)
        return np.array(tau_body, dtype=float).reshape(6)

    @staticmethod
    def _pack(state: State) -> np.ndarray:
        x = np.empty(13)
        x[:3] = state.position
        x[3:7] = quat_normalize(state.quaternion)
        x[7:] = state.twist
        return x
