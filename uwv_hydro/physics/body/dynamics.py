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

Equations of motion about the body origin (Fossen 2021 ch. 8, Models for Underwater
Vehicles)::

    p_dot = R(q) v                                  (world position of the origin)
    q_dot = 0.5 q (x) [0, w]                        (world <- body quaternion)
    (M_RB + M_A) nu_dot = tau + tau_hydro(nu_r) - C_RB(nu) nu - C_A(nu_r) nu_r
                          + M_A nu_dot_c + g(eta)

with M_RB and M_A both referred to the origin (M_A = H(r_a)^T M_A,p H(r_a)).  The
added mass is implicit (in the mass matrix, inverted once at construction), so a
light body with large added mass is as stable as a heavy one; compare the explicit
dsros scheme (:class:`uwv_hydro.physics.hydro.added_mass.LaggedAcceleration`).

Integration (uwv_dynamic_model): fixed-step classic RK4 with step dt/substeps,
thrust and fin deflections (:meth:`Simulator.set_fin_angles`) held constant over the
step, quaternion renormalised after every sub-step.  The fin wrench
(:mod:`uwv_hydro.physics.actuators.fins`) is evaluated at every RK4 stage from the stage twist.
``dynamics_only`` integrates nu only (pose frozen, uwv_dynamic_model DYNAMIC mode).

:meth:`Simulator.step`, :meth:`Simulator.step_flat` and
:meth:`Simulator.state_acceleration` run the compiled core (:mod:`uwv_hydro.physics.kernel`:
nu_dot from the affine/bilinear feature forms of :mod:`uwv_hydro.physics.hydro.wrench_forms`
premultiplied by M^-1, the kinematics, the fins, RK4); :meth:`Simulator.acceleration`
and :meth:`Simulator.derivative` keep the term-by-term evaluation of the equations (the
definitions the forms are built from).
"""
from dataclasses import dataclass, field
import math
from typing import Optional, Tuple

import numpy as np

from uwv_hydro.physics import kernel
from uwv_hydro.physics.body.rigid_body import coriolis_wrench
from uwv_hydro.physics.body.vehicle_params import MAX_MASS_CONDITION
from uwv_hydro.physics.hydro.hydro_model import HydroModel
from uwv_hydro.physics.spatial.rotation import quat_derivative, quat_normalize, quat_to_matrix

_kernel = kernel.core
#: Outcomes of one checked step (kernel.core.advance)
_VERDICTS = ('ok', 'non_finite', 'implausible')


def _floats(a, n: int) -> list:
    """Return the n values of a float vector as a list (any sequence; cheap for arrays)."""
    if type(a) is np.ndarray and a.shape == (n,) and a.dtype == np.float64:
        return a.tolist()
    return np.asarray(a, dtype=float).reshape(n).tolist()


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
    ``dynamics_only``: integrate the twist only (pose frozen).
    """

    def __init__(self, params, dt: float = 0.01, substeps: int = 1,
                 dynamics_only: bool = False):
        if not (float(dt) > 0.0 and math.isfinite(float(dt))):
            raise ValueError('dt must be positive and finite, got %r' % (dt,))
        if int(substeps) != substeps or int(substeps) < 1:
            raise ValueError('substeps must be an integer >= 1, got %r' % (substeps,))
        self.params = params
        self.dynamics_only = bool(dynamics_only)
        self.model = HydroModel(params)
        self.set_step(dt, substeps)
        self._m_rb = self.model.rigid_body_mass_matrix()
        mass = self.model.mass_matrix()
        if not np.all(np.isfinite(mass)) or np.linalg.cond(mass) > MAX_MASS_CONDITION:
            raise ValueError('the mass matrix M_RB + M_A is singular or not finite')
        # Implicit added mass: (M_RB + M_A)^-1 computed once
        self._m_inv = np.linalg.inv(mass)
        self._coriolis = bool(params.coriolis)
        self._hs = self.model.hydrostatics
        self._fins = self.model.fins
        self._fin_angles = np.zeros(0 if self._fins is None else self._fins.count)
        self._angles = None if self._fins is None else self._fin_angles.tolist()
        #: The compiled dynamics of this vehicle (uwv_hydro.physics.kernel)
        self.core = kernel.core.model(kernel.pack_model(self.model, self._m_inv))
        #: The seabed contact (physics.environment.seabed_contact.SeabedContact) and its seabed, or
        #: None
        self.contact = None
        self.seabed = None

    def set_contact(self, contact, seabed) -> None:
        """
        Land on ``seabed`` through ``contact`` (a SeabedContact; None: no contact).

        The compiled derivative applies the contact at every RK4 stage (``_contact.c``).
        """
        if contact is None or seabed is None:
            kernel.core.contact(self.core, np.zeros(kernel.core.CONTACT_HEAD), None)
            self.contact = self.seabed = None
            return
        # the core keeps a reference to the seabed (its capsule: physics.environment.seabed)
        kernel.core.contact(self.core, contact.pack(), seabed)
        self.contact, self.seabed = contact, seabed

    def contact_energy(self, x) -> float:
        """Return the contact springs' energy sum 1/2 k d^2 (J) at the flat state ``x``."""
        return kernel.core.contact_energy(self.core, x)

    def set_step(self, dt: float, substeps: int) -> None:
        """Set the step length dt (s) and its RK4 sub-steps (the state is the caller's)."""
        self.dt = float(dt)
        self.substeps = int(substeps)
        self._h = self.dt / self.substeps

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
        self._angles = a.tolist()

    def acceleration(self, nu, rotation, fraction: float, tau, current_world=None) -> np.ndarray:
        """Return nu_dot for twist ``nu``, attitude matrix ``rotation`` and surface fraction."""
        rhs = tau + self.model.dynamics_wrench(nu, rotation, fraction, current_world,
                                               self._fin_angles)
        if self._coriolis:
            # Fossen 2021 Theorem 3.2: -C_RB(nu) nu
            rhs += coriolis_wrench(self._m_rb, nu)
        # nu_dot = (M_RB + M_A)^-1 (sum of wrenches), Fossen 2021 ch. 8
        return self._m_inv @ rhs

    def _flat_derivative(self, x, tau, current_world):
        """Return d/dt of the flat state [p (3), q (4), nu (6)]."""
        q = x[3:7]
        nu = x[7:13]
        # Attitude matrix of the (renormalised) stage quaternion, Fossen 2021 ch. 2
        rotation = quat_to_matrix(q / math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]
                                                + q[3] * q[3]))
        fraction = self._hs.fraction(-x[2])
        out = np.empty(13)
        # Fossen 2021 ch. 2: p_dot = R(q) v
        out[:3] = rotation @ nu[:3]
        # Fossen 2021 ch. 2: q_dot = 1/2 q (x) [0, w]
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

    def state_acceleration(self, x, tau_body=None, current_world=None, field=None) -> list:
        """
        Return nu_dot (6 floats) at the flat state ``x`` (13 floats) under ``tau_body``.

        The fast-path evaluation of the equations of motion at one state (what an IMU
        at that state senses), equal to ``derivative(...).twist``.  ``field``: a current
        field linearised at ``x`` (34 floats, :func:`uwv_hydro.physics.environment.current_field.
        linearise`) instead of ``current_world``: its velocity and rate along the path.
        """
        if field is None:
            return _kernel.derivative(self.core, x, tau_body, current_world, self._angles)[7:]
        return _kernel.derivative(self.core, x, tau_body, None, self._angles, field)[7:]

    def step(self, state: State, tau_body=None, current_world=None,
             substeps: Optional[int] = None, dt: Optional[float] = None) -> State:
        """
        Advance ``state`` by dt with constant body wrench ``tau_body``; return a new State.

        ``substeps`` overrides the instance's RK4 sub-step count for this step (e.g. to
        retry a step that diverged with a smaller sub-step); ``dt`` overrides the step
        length (see :meth:`substeps_for`).
        """
        x = _floats(state.position, 3) + _floats(state.quaternion, 4) + _floats(state.twist, 6)
        if self.dynamics_only:
            # RK4 on the twist only, pose frozen (uwv_dynamic_model DYNAMIC mode)
            h, n = self.substeps_for(dt, substeps)
            out = _kernel.step(self.core, x, tau_body, current_world, self._angles, h, n, True)
            return State(state.position, state.quaternion, out[7:])
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
        if dt is None and substeps is None:
            h, n = self._h, self.substeps
        else:
            h, n = self.substeps_for(dt, substeps)
        # Classic RK4 (uwv_dynamic_model), quaternion renormalised after every sub-step
        return _kernel.step(self.core, x, tau_body, current_world, self._angles, h, n, False)

    def checked_steps(self, x, guard, taus, n: int, current_world=None,
                      retry_substeps: int = 16, dt: Optional[float] = None, rows=None,
                      field=None):
        """
        Run up to ``n`` steps checked by ``guard``; return (x, steps, verdict, retry, |nu|).

        Each step (RK4, as :meth:`step_flat`) must keep |nu|_M within the physical bound
        of the :class:`uwv_hydro.physics.body.stability.EnergyGuard` ``guard``; one that breaks
        it or goes non-finite is retried with ``retry_substeps`` sub-steps, and when that
        fails too the state before the step is kept.  ``taus``: None (no wrench), one
        body wrench for every step, or a contiguous (n, 6) float array, one per step.
        Stops after the first step that needed the retry: ``verdict`` and ``retry`` are
        that step's outcomes ('ok', 'non_finite' or 'implausible'; ``retry`` 'ok' also
        when nothing was retried) and ``|nu|`` the Euclidean norm of the twist before it.
        ``rows`` (None or a contiguous (n, 13) float array) receives the state after
        every step.  ``x`` is returned as 13 floats.  ``field`` (instead of
        ``current_world``): a current field linearised at ``x`` (34 floats, see
        :meth:`state_acceleration`), evaluated at every RK4 stage's position and time.
        """
        if dt is None:
            h, sub = self._h, self.substeps
        else:
            h, sub = self.substeps_for(dt)
        h_retry, sub_retry = self.substeps_for(dt, retry_substeps)
        step = self.dt if dt is None else float(dt)
        if field is None:
            c_force, c_rate = guard.current_terms(current_world)
        else:
            c_force, c_rate = guard.field_terms(field, x[7:13], n * step)
        x, done, first, second, nu_before = _kernel.advance(
            self.core, guard.core, x, taus, n, current_world, self._angles, h, sub, h_retry,
            sub_retry, step, c_force, c_rate, rows, field)
        return x, done, _VERDICTS[first], _VERDICTS[second], nu_before

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
