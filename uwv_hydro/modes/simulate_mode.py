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
Simulate mode: the 6-DOF vehicle stepped on a clock, with the step rules of the node.

:class:`SimulateMode` is pure (no rclpy): the node runs it once per update on its
clock, the offline ``simulate`` once per ``dt``, ``replay --simulate`` once per
recorded step, so all three integrate the same way and count the same events.  Rules:

* **Sub-steps.**  The stiffest mode of the dynamics at start
  (:func:`uwv_hydro.physics.body.stability.stiffness`) sets the RK4 sub-steps so that
  |lambda| h <= 2.5 (:attr:`substeps`, never fewer than asked).
* **Checked step.**  A step that breaks the kinetic-energy growth bound
  (:class:`~uwv_hydro.physics.body.stability.EnergyGuard`) or goes non-finite is a
  ``divergence``, retried once with :data:`RETRY_SUBSTEP_FACTOR` times the sub-steps,
  else the state before it is restored (``state_restores``).
* **Clock.**  :meth:`SimulateMode.advance` runs round((now - lag - state time) / dt)
  steps, at most ``max_catchup_steps``; steps beyond are not run and the simulated
  time falls behind the clock (:attr:`lag_ns`, ``lagged_steps``), recovered at a
  bounded rate (``recovered_steps``); :meth:`reset` forgets it.  The rule and its
  reasons: doc/guide/hil.md ("When the node is held up: the lag and its recovery
  (simulate mode)").
* **Per-step equipment.**  Fin servos (:attr:`servos`) and buoyancy engines
  (:attr:`engines`) advance by dt at the start of every step and are held over it; a
  current field (:attr:`field`) is sampled at the step's start and end and evaluated
  affinely at every RK4 stage (:func:`~uwv_hydro.physics.environment.current_field.linearise`;
  exact for an affine field, else second order); the seabed contact
  (:meth:`set_contact`, :mod:`uwv_hydro.physics.environment.seabed_contact`) joins the stiffness
  and the energy bound; a tether (:attr:`tether`, :meth:`tether_step`,
  :mod:`uwv_hydro.modes.tether`) is predicted, run and corrected per step, and dropped
  (the step restored) on a MoorDyn failure.
"""
import math
import sys
from typing import Callable, Dict, Optional

import numpy as np

from uwv_hydro.modes.body_wrenches import add_wrenches
from uwv_hydro.physics.body.dynamics import Simulator, State
from uwv_hydro.physics.body.stability import (
    EnergyGuard, RK4_STABLE_LAMBDA_H, stable_substeps, stiffness)
from uwv_hydro.physics.body.vehicle_params import VehicleParams
from uwv_hydro.physics.environment.current_field import linearise
from uwv_hydro.physics.environment.seabed_contact import resolve, stable_stiction_speed
from uwv_hydro.physics.hydro.hydro_model import WrenchComponents
from uwv_hydro.physics.spatial.rotation import quat_to_matrix

#: A step that diverged is retried once with this many times the sub-steps.
RETRY_SUBSTEP_FACTOR = 16
#: Upper bound of the automatic RK4 sub-step count.
MAX_SUBSTEPS = 1000
#: The seabed contact's regularised friction may multiply the sub-steps of the rest of
#: the dynamics by at most this (its stiction speed, unless given, is then raised).
FRICTION_SUBSTEP_BUDGET = 4

#: log(level, key, text): level 'info' | 'warning' | 'error'; key names the kind of
#: message (for throttling by the caller).
Log = Callable[[str, str, str], None]


def _silent(level: str, key: str, text: str) -> None:
    """Drop a log line (offline use without a logger)."""


def rest_state() -> State:
    """Return the vehicle at the origin, level, at rest."""
    return State(position=np.zeros(3), quaternion=np.array([1.0, 0.0, 0.0, 0.0]),
                 twist=np.zeros(6))


def _flat(state: State) -> list:
    return ([float(v) for v in state.position] + [float(v) for v in state.quaternion]
            + [float(v) for v in state.twist])


class SimulateMode:
    """
    The simulated vehicle: state, clock and step rules (see the module docstring).

    ``dt``: the step (s); ``substeps``: the least RK4 sub-steps per step;
    ``max_catchup_steps``: the most steps one :meth:`advance` may run; ``initial``:
    the state :meth:`reset` returns to (default :func:`rest_state`); ``log``: where
    warnings go.  Counters are in :attr:`events`.  Not thread-safe: the caller
    serialises calls (the node holds its state lock).
    """

    def __init__(self, vehicle: VehicleParams, dt: float, substeps: int = 1,
                 max_catchup_steps: int = 10, initial: Optional[State] = None,
                 log: Optional[Log] = None):
        self.vehicle = vehicle
        self.max_catchup_steps = int(max_catchup_steps)
        self._log = log or _silent
        self.min_substeps = int(substeps)
        self.stiffness_per_s = stiffness(Simulator(vehicle, dt=float(dt), substeps=1))
        self._step_length(dt)
        self.sim = Simulator(vehicle, dt=self.dt, substeps=self.substeps)
        self.guard = EnergyGuard(self.sim)
        self.events: Dict[str, int] = {'divergences': 0, 'state_restores': 0,
                                       'lagged_steps': 0, 'recovered_steps': 0}
        self.initial = initial if initial is not None else rest_state()
        #: Fin servos stepped with the vehicle (None: fins stay as set on :attr:`sim`).
        self.servos = None
        #: Buoyancy engines stepped with the vehicle, their wrench added to every step's
        #: input (a :class:`~uwv_hydro.modes.buoyancy_engines.BuoyancyEngines`, or None).
        self.engines = None
        #: The tether's cable (a :class:`~uwv_hydro.modes.tether.Tether`, or None).
        self.tether = None
        #: The latest MoorDyn failure (text), None while none.
        self.tether_error = None
        #: The body wrench of the latest step (thrust included; None before the first).
        self.last_tau = None
        #: The seabed contact (physics.environment.seabed_contact.SeabedContact;
        #: :meth:`set_contact`)
        self.contact = None
        #: A current field (physics.environment.current_field.CurrentField) used when no explicit
        #: current is given (None: the explicit current only).
        self.field = None
        self.reset()

    # ------------------------------------------------------------------ state
    def _step_length(self, dt: float) -> None:
        """Set dt, period_ns and the sub-steps that keep |lambda| h <= 2.5 (warn if none)."""
        self.dt = float(dt)
        self.period_ns = max(1, int(round(self.dt * 1e9)))
        self.substeps = stable_substeps(self.stiffness_per_s, self.dt,
                                        minimum=self.min_substeps, maximum=MAX_SUBSTEPS)
        #: True when even MAX_SUBSTEPS cannot keep |lambda| h <= 2.5 (divergences
        #: are then detected and restored at run time)
        self.too_stiff = not math.isfinite(self.stiffness_per_s) or stable_substeps(
            self.stiffness_per_s, self.dt, maximum=sys.maxsize) > self.substeps
        if self.too_stiff:
            self._log('warning', 'too_stiff', 'stiffest mode |lambda| = %.6g 1/s needs more '
                      'than %d sub-steps at %.6g s: the integration may diverge (detected and '
                      'restored at run time); shorten the step (the node: raise rate_hz)'
                      % (self.stiffness_per_s, self.substeps, self.dt))

    def set_contact(self, spec, seabed) -> None:
        """
        Land the vehicle on ``seabed`` at the points of ``spec`` (a ContactSpec; None: none).

        The contact's springs, dampers and regularised friction (linearised at rest on
        flat ground, :meth:`~uwv_hydro.physics.environment.seabed_contact.SeabedContact.
        linear_stiffness`) join the stiffness that sets the sub-steps.  Without a given
        stiction speed v_s it is Drake's 1 mm/s, raised to the least that keeps the
        sub-steps within :data:`FRICTION_SUBSTEP_BUDGET` times the rest's.
        """
        self.contact = None
        stiff = stiffness(Simulator(self.vehicle, dt=self.dt, substeps=1))
        if spec is not None and seabed is not None:
            mass = self.sim.model.mass_matrix()
            contact = resolve(spec, self.vehicle, mass)
            # without friction: the hydrodynamics and the contact's springs and dampers
            stiff = max(stiff, contact.linear_stiffness(mass, friction=False))
            if spec.stiction_speed is None:
                # v_s from the sub-steps the rest needs, times the friction's budget
                # (stable_stiction_speed)
                rest = stable_substeps(stiff, self.dt, minimum=self.min_substeps,
                                       maximum=MAX_SUBSTEPS)
                h = self.dt / min(rest * FRICTION_SUBSTEP_BUDGET, MAX_SUBSTEPS)
                contact = contact.with_stiction_speed(stable_stiction_speed(
                    contact, mass, RK4_STABLE_LAMBDA_H / h))
            self.contact = contact
            stiff = max(stiff, contact.linear_stiffness(mass))
        self.stiffness_per_s = stiff
        self._step_length(self.dt)
        self.sim.set_step(self.dt, self.substeps)
        self.sim.set_contact(self.contact, seabed)

    def set_step(self, dt: float) -> None:
        """Change the step to ``dt`` s before a run starts (ArduPilot's frame rate)."""
        self._step_length(dt)
        self.sim.set_step(self.dt, self.substeps)

    def reset(self, state: Optional[State] = None) -> None:
        """
        Return to ``state`` (default: the initial state) and forget the clock.

        A state that is not finite is refused (ValueError): it never becomes the
        state, nor the last good one.
        """
        x = _flat(self.initial if state is None else state)
        if len(x) != 13 or not all(math.isfinite(v) for v in x):
            raise ValueError('the state must be 13 finite numbers (position, quaternion, '
                             'twist), got %r' % (x,))
        self._x = x
        #: simulated time of the state on the clock's scale (ns), None until the first
        #: :meth:`advance`
        self.state_ns: Optional[int] = None
        #: how far the simulated time is behind the clock (ns): the steps not run
        self.lag_ns = 0
        #: mean body acceleration over the last update
        self.nu_dot = np.zeros(6)
        #: body wrench and world current of the latest step (what the state felt)
        self.step_inputs = (None, None)
        self._components: Optional[WrenchComponents] = None
        #: the field time of the state (s): 0 at reset (time_origin clock: set by the
        #: first :meth:`advance`)
        self.t = 0.0
        if self.field is not None:
            self.field.reset()
        if getattr(self, 'tether', None) is not None:
            # a new cable hung from the reset state (MoorDyn's static solution)
            self.tether = self.tether.restart(self.attachment())

    @property
    def state(self) -> State:
        """Return a new State holding the current position, attitude and twist."""
        x = self._x
        return State._wrap(np.array(x[:3]), np.array(x[3:7]), np.array(x[7:]))

    @property
    def x(self) -> list:
        """Return the current state as 13 floats: position, quaternion [w, x, y, z], twist."""
        return self._x

    def acceleration(self) -> np.ndarray:
        """
        Return nu_dot at the current state (what an IMU senses).

        The equations of motion under the inputs of the step that led to the state,
        not the mean over the update (:attr:`nu_dot`).
        """
        tau, current = self.step_inputs
        if current is None and self.field is not None:
            lin = linearise(self.field, self._x, self.t, 0.0)
            return np.array(self.sim.state_acceleration(self._x, tau, None, lin))
        return np.array(self.sim.state_acceleration(self._x, tau, current))

    def field_sample(self):
        """Return the field's CurrentSample at the state's position and time :attr:`t`."""
        return self.field.sample(self._x[:3], self.t)

    def current_at_state(self, current_world=None):
        """Return (world current, its rate along the path) the state feels, or (None, None)."""
        if current_world is not None or self.field is None:
            return current_world, None
        sample = self.field_sample()
        p_dot = quat_to_matrix(np.array(self._x[3:7])) @ np.array(self._x[7:10])
        return sample.velocity, sample.total_rate(p_dot)

    def components(self, current_world=None) -> WrenchComponents:
        """Return the hydro wrench components at the current state (cached per step)."""
        if self._components is None:
            s = self.state
            current, rate = self.current_at_state(current_world)
            self._components = self.sim.model.wrench(s.twist, s.position, s.quaternion,
                                                     self.nu_dot, current,
                                                     current_rate_world=rate,
                                                     fin_angles=self.sim.fin_angles)
        return self._components

    # ------------------------------------------------------------------ stepping
    def _log_event(self, verdict: str, retry: str, nu_before: float, retries: int) -> None:
        """Count and log one step that diverged (retried, or restored when ``retry`` failed)."""
        self.events['divergences'] += 1
        if retry != 'ok':
            self.events['state_restores'] += 1
            if 'non_finite' in (verdict, retry):
                self._log('error', 'state_restored', 'simulated state went non-finite: '
                          'last good state restored')
            else:
                self._log('error', 'state_restored', 'simulated state diverged (kinetic '
                          'energy beyond what thrust and buoyancy can inject): last '
                          'good state restored')
            return
        self._log('warning', 'divergence_retried',
                  'integration diverged (%s) at |nu| = %.6g: step recomputed with %d '
                  'sub-steps' % (verdict, nu_before, retries))

    def run(self, taus, n: int, current=None, dt: Optional[float] = None, rows=None,
            stop_on_restore: bool = True) -> int:
        """
        Run ``n`` checked steps under ``taus`` (see :meth:`step`); return the steps run.

        ``taus``: None, one body wrench for every step, or a contiguous (n, 6) float
        array (one per step); ``rows``: None or a contiguous (n, 13) float array that
        receives the state after every step.  The steps run in the compiled core without
        returning to Python (the offline ``simulate`` loop); a restore ends the run early
        when ``stop_on_restore``.
        """
        retries = min(self.sim.substeps * RETRY_SUBSTEP_FACTOR, MAX_SUBSTEPS * 16)
        per_step = taus is not None and getattr(taus, 'ndim', 1) == 2
        if self.field is not None and current is None:
            return self._run_field(taus, n, dt, rows, stop_on_restore, retries, per_step)
        done = 0
        while done < n:
            x, k, verdict, retry, nu_before = self.sim.checked_steps(
                self._x, self.guard, taus[done:] if per_step else taus, n - done, current,
                retries, dt, None if rows is None else rows[done:])
            self._x = x
            done += k
            if verdict != 'ok':
                self._log_event(verdict, retry, nu_before, retries)
                if retry != 'ok' and stop_on_restore:
                    break
        self._components = None
        self.t += done * (self.dt if dt is None else float(dt))
        if done > 0:
            # what the state felt in its latest step
            self.step_inputs = (taus[done - 1] if per_step else taus, current)
        return done

    def _run_field(self, taus, n: int, dt, rows, stop_on_restore: bool, retries: int,
                   per_step: bool) -> int:
        """Run ``n`` checked steps in the current field, linearised at every step's start."""
        h = self.dt if dt is None else float(dt)
        done = 0
        while done < n:
            tau = taus[done] if per_step else taus
            lin = linearise(self.field, self._x, self.t, h)
            x, k, verdict, retry, nu_before = self.sim.checked_steps(
                self._x, self.guard, tau, 1, None, retries, dt,
                None if rows is None else rows[done:done + 1], field=lin)
            self._x = x
            done += 1
            self.t += h
            if verdict != 'ok':
                self._log_event(verdict, retry, nu_before, retries)
                if retry != 'ok' and stop_on_restore:
                    break
        self._components = None
        if done > 0:
            self.step_inputs = (taus[done - 1] if per_step else taus, None)
        return done

    def engine_wrench(self, engines) -> np.ndarray:
        """Return the buoyancy engines' wrench at the state (the step's input)."""
        return engines.wrench(self._x)

    def attachment(self, x=None) -> np.ndarray:
        """Return the tether's attachment point in the world at state ``x`` (default now)."""
        x = self._x if x is None else x
        rot = quat_to_matrix(np.asarray(x[3:7], float))  # world <- body
        return np.asarray(x[:3], float) + rot @ np.asarray(self.tether.spec.attachment, float)

    def tether_wrench(self, force_world, x=None) -> np.ndarray:
        """Return the body wrench of the world force ``force_world`` at the attachment."""
        x = self._x if x is None else x
        rot = quat_to_matrix(np.asarray(x[3:7], float))
        force = rot.T @ np.asarray(force_world, float)
        # the force moved to the body origin: [F, r x F] (body frame)
        return np.concatenate([force, np.cross(self.tether.spec.attachment, force)])

    def tether_step(self, tau=None, current=None, dt: Optional[float] = None) -> bool:
        """
        Advance one step with the tether (predict, run the cable, correct; module docstring).

        Return as :meth:`step`.  A MoorDyn failure (TetherError) restores the step's
        start, logs the error with its values, stores it in :attr:`tether_error` and
        drops the tether, so that no non-finite force ever reaches the vehicle.
        """
        from uwv_hydro.modes.tether import TetherError
        h = self.dt if dt is None else float(dt)
        x0, t0 = list(self._x), self.t
        events = dict(self.events)
        start = self.attachment(x0)
        # predictor: the step under the cable's previous mean force
        self.step(add_wrenches(tau, self.tether_wrench(self.tether.mean_force, x0)),
                  current, dt)
        predicted = self.attachment()
        self._x, self.t, self.events = x0, t0, events
        try:
            mean = self.tether.step(start, predicted, h, current)
        except TetherError as exc:
            self.tether_error = str(exc)
            self._log('error', 'tether_failed', self.tether_error + ': the tether is dropped')
            self.tether = None
            return False
        # corrector: the same step from its start under the cable's mean force over it
        ok = self.step(add_wrenches(tau, self.tether_wrench(mean, x0)), current, dt)
        self.tether.correct(predicted, self.attachment())
        return ok

    def step(self, tau=None, current=None, dt: Optional[float] = None) -> bool:
        """
        Advance one checked step of dt under the body wrench ``tau`` (held over the step).

        Return False when the step diverged even when retried: the last good state
        (the state before the step) is then restored.  ``dt`` overrides the step length
        (``replay --simulate``: one recorded interval), in sub-steps no longer than the
        mode's (:meth:`uwv_hydro.physics.body.dynamics.Simulator.substeps_for`).
        """
        restores = self.events['state_restores']
        self.run(tau, 1, current, dt)
        return self.events['state_restores'] == restores

    def due(self, now_ns: int) -> int:
        """Return the steps due at clock time ``now_ns``: round((now - lag - state) / dt)."""
        return int(round((now_ns - self.lag_ns - self.state_ns) / self.period_ns))

    def advance(self, now_ns: int, tau=None, current=None,
                on_step: Optional[Callable[[int], None]] = None,
                thrust: Optional[Callable[[list], np.ndarray]] = None) -> Optional[int]:
        """
        Bring the state to the clock time ``now_ns``; return the state's stamp or None.

        The first call only starts the clock (the state is stamped ``now_ns``).  Then
        each call runs :meth:`due` steps (at most ``max_catchup_steps``; beyond, the
        simulated time falls behind the clock: :attr:`lag_ns`), plus, while behind, as
        many lagged steps as fit under ``max_catchup_steps``, and returns the new
        state time (the simulated time: dt per step run), or None when no step was
        due or a step failed (restored; a failed step claims no time) leaving a state
        already handed to ``on_step`` or not moved.  ``on_step(stamp_ns)`` is called
        after every step but the last, with :attr:`state` at that step, so that every
        integration step can be published one period apart.  ``thrust(x)``, when given,
        is called before every step with the state (13 floats) and returns a body wrench
        added to ``tau`` over that step (the thruster models advance once per step).
        """
        if self.state_ns is None:
            self.state_ns = int(now_ns)
            if self.field is not None and self.field.time_origin == 'clock':
                self.t = self.state_ns * 1e-9
            return self.state_ns
        steps = self.due(now_ns)
        if steps <= 0:
            return None
        if steps > self.max_catchup_steps:
            # not run, and not claimed: the simulated time falls behind the clock
            self.events['lagged_steps'] += steps - self.max_catchup_steps
            self.lag_ns += (steps - self.max_catchup_steps) * self.period_ns
            steps = self.max_catchup_steps
        elif self.lag_ns > 0:
            # catch up at a bounded rate: lagged steps, simulated, up to the limit
            extra = min(self.lag_ns // self.period_ns, self.max_catchup_steps - steps)
            self.lag_ns -= extra * self.period_ns
            self.events['recovered_steps'] += extra
            steps += extra
        nu_before = self._x[7:]
        ran = 0
        for k in range(1, steps + 1):
            if self.servos is not None:
                # The servos move over the step; the vehicle sees their angles held
                t = (self.state_ns + (k - 1) * self.period_ns) * 1e-9
                self.sim.set_fin_angles(self.servos.step(self.dt, t))
            # a wrench per body (equipment on moving links) or the base's (body_wrenches)
            tau_k = tau if thrust is None else (
                thrust(self._x) if tau is None else add_wrenches(tau, thrust(self._x)))
            if self.engines is not None:
                # gz-sim BuoyancyEngine: the volume moves first, its force acts over the step
                self.engines.step(self.dt)
                tau_k = add_wrenches(tau_k, self.engine_wrench(self.engines))
            self.last_tau = tau_k
            if not (self.step(tau_k, current) if self.tether is None
                    else self.tether_step(tau_k, current)):
                break
            ran = k
            if k < steps and on_step is not None:
                on_step(self.state_ns + k * self.period_ns)
        self._components = None
        if ran == 0:
            return None  # the step failed and was restored: no time claimed
        # dt per step run: a failed (restored) step claims none, it is due again
        self.state_ns += ran * self.period_ns
        self.nu_dot = (np.array(self._x[7:]) - nu_before) / (ran * self.dt)
        if ran < steps and on_step is not None:
            return None  # a later step failed: on_step had this state and its stamp
        return self.state_ns
