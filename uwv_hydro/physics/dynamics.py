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
thrust held constant over the step, quaternion renormalised after every sub-step.
``dynamics_only`` integrates nu only (pose frozen, uwv_dynamic_model DYNAMIC mode).
"""
from dataclasses import dataclass, field
import math

import numpy as np

from uwv_hydro.physics.hydro_model import HydroModel
from uwv_hydro.physics.rigid_body import coriolis_wrench
from uwv_hydro.physics.rotation import quat_derivative, quat_normalize, quat_to_matrix


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


class Simulator:
    """
    Fixed-step RK4 integrator of one vehicle.

    ``dt``: step of :meth:`step` (s); ``substeps``: RK4 sub-steps per step;
    ``dynamics_only``: integrate the twist only (pose frozen).
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

    def acceleration(self, nu, rotation, fraction: float, tau, current_world=None) -> np.ndarray:
        """Return nu_dot for twist ``nu``, attitude matrix ``rotation`` and surface fraction."""
        rhs = tau + self.model.dynamics_wrench(nu, rotation, fraction, current_world)
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

    def step(self, state: State, tau_body=None, current_world=None) -> State:
        """Advance ``state`` by dt with constant body wrench ``tau_body``; return a new State."""
        tau = self._tau(tau_body)
        h = self._h
        if current_world is not None:
            current_world = np.array(current_world, dtype=float).reshape(3)
        if self.dynamics_only:
            rotation = quat_to_matrix(quat_normalize(state.quaternion))
            fraction = self._hs.fraction(-float(state.position[2]))
            nu = np.array(state.twist, dtype=float)
            for _ in range(self.substeps):
                nu = self._rk4_twist(nu, rotation, fraction, tau, current_world, h)
            return State(state.position, state.quaternion, nu)
        x = self._pack(state)
        f = self._flat_derivative
        for _ in range(self.substeps):
            # Classic RK4 (uwv_dynamic_model): x += h/6 (k1 + 2 k2 + 2 k3 + k4)
            k1 = f(x, tau, current_world)
            k2 = f(x + (0.5 * h) * k1, tau, current_world)
            k3 = f(x + (0.5 * h) * k2, tau, current_world)
            k4 = f(x + h * k3, tau, current_world)
            x = x + (h / 6.0) * (k1 + 2.0 * (k2 + k3) + k4)
            # Renormalise the quaternion after every sub-step
            x[3:7] = quat_normalize(x[3:7])
        return State(x[:3], x[3:7], x[7:])

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
