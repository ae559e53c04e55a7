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
Simulate mode of a vehicle whose links move: a floating base with actuated joints.

:class:`ArticulatedSimulateMode` is :class:`~uwv_hydro.modes.simulate_mode.SimulateMode`
(same clock, catch-up, thrust and buoyancy-engine hooks, same events) for a vehicle
with a kinematic tree (``VehicleParams.tree``): the state is the base pose and body
twist plus the joint positions and speeds.  The equations of motion (per-link hydro,
weights and the base's thrust as each body's external forces, each body's added mass in
its spatial inertia) are by default the compiled ones of
:class:`~uwv_hydro.physics.articulated.algorithms.tree_dynamics.CompiledTreeDynamics`
(Featherstone's ABA in
C; the base's fins and hull included); ``added_mass='lagged'`` or ``compiled=False``
take Pinocchio's path,
:class:`~uwv_hydro.physics.articulated.algorithms.articulated_dynamics.TreeDynamics`
(per-link hydro only: the reference of the tests).  The compiled path runs a whole step
in one call; a sub-step that meets a joint limit is the Python stops'.

Integration: classic RK4 on [p, quaternion, nu, q, qdot] with the rigid vehicle's
sub-step rule (:func:`~uwv_hydro.physics.body.stability.stable_substeps`; at least servo
bandwidth x dt sub-steps) and quaternion handling, so that with every joint locked the
base follows the rigid vehicle's integrator.  The base wrench and the current are held
over a step, the joint servos act at every stage.  A step that goes non-finite is
retried once with 16x the sub-steps, else restored (``divergences``, ``state_restores``).

Joint commands (:meth:`ArticulatedSimulateMode.command`, per joint, held until the
next; initially every joint holds its initial position): ``position`` (a cascaded,
critically damped servo on the joint's apparent inertia 1 / (M^-1)_jj with the torque
holding it against weight and buoyancy), ``velocity`` (the servo's inner loop),
``effort`` (clamped to the effort limit) and ``locked`` (zero joint acceleration).
Position limits are one-sided constraints, as DART's with no restitution: an inelastic
impulse (:mod:`~uwv_hydro.modes.joint_stops`, ``events['limit_stops']``).  Gains and
limits: doc/guide/hil.md ("Moving links: an arm on a floating base (simulate mode)").
"""
import math
from typing import Dict, List, Optional, Sequence

import numpy as np

from uwv_hydro.modes.body_wrenches import body_index, BodyEngines, step_input
from uwv_hydro.modes.joint_stops import JointStops
from uwv_hydro.modes.simulate_mode import RETRY_SUBSTEP_FACTOR, SimulateMode
from uwv_hydro.physics.articulated.algorithms.articulated_dynamics import TreeDynamics
from uwv_hydro.physics.articulated.algorithms.tree_dynamics import (
    CompiledTreeDynamics, SERVO_KINDS)
from uwv_hydro.physics.body.vehicle_params import COMPONENT_NAMES
from uwv_hydro.physics.hydro.hydro_model import WrenchComponents
from uwv_hydro.physics.spatial.rotation import matrix_to_quat

#: Joint command kinds.
COMMAND_KINDS = ('position', 'velocity', 'effort', 'locked')
#: Servo bandwidth by default (rad/s): the velocity loop's; the position loop is w / 4.
DEFAULT_SERVO_BANDWIDTH = 20.0


def _limit(value, bound):
    return np.clip(value, -bound, bound)


def rk4_substep(f, x, q, qd, h: float):
    """Return the classic RK4 sub-step of h from (x, q, qd)."""
    k1 = f(x, q, qd)
    k2 = f(*(s + 0.5 * h * k for s, k in zip((x, q, qd), k1)))
    k3 = f(*(s + 0.5 * h * k for s, k in zip((x, q, qd), k2)))
    k4 = f(*(s + h * k for s, k in zip((x, q, qd), k3)))
    # classic RK4
    x, q, qd = (s + (h / 6.0) * (a + 2.0 * b + 2.0 * c + d)
                for s, a, b, c, d in zip((x, q, qd), k1, k2, k3, k4))
    x[3:7] /= np.linalg.norm(x[3:7])
    return x, q, qd


class ArticulatedSimulateMode(SimulateMode):
    """
    The simulated vehicle with moving links (see the module docstring).

    ``vehicle``: VehicleParams with ``tree`` set (its lumped fields give the sub-step
    rule); ``added_mass``: 'inertia' or 'lagged'
    (:mod:`~uwv_hydro.physics.articulated.algorithms.articulated_dynamics`); ``servo_bandwidth``: w
    of the
    joint servos (rad/s); ``joint_positions``: the initial joint positions (default:
    zero, clamped to the limits); ``compiled``: the compiled equations (with 'inertia';
    False: Pinocchio's).  The other arguments are SimulateMode's.
    """

    def __init__(self, vehicle, dt: float, substeps: int = 1, max_catchup_steps: int = 10,
                 initial=None, log=None, added_mass: str = 'inertia',
                 servo_bandwidth: float = DEFAULT_SERVO_BANDWIDTH,
                 joint_positions: Optional[Sequence[float]] = None, compiled: bool = True):
        tree = vehicle.tree
        if tree is None:
            raise ValueError('vehicle %r has no kinematic tree: use SimulateMode'
                             % vehicle.name)
        if not (servo_bandwidth > 0.0 and math.isfinite(servo_bandwidth)):
            raise ValueError('servo_bandwidth must be positive, got %r' % (servo_bandwidth,))
        if added_mass not in ('inertia', 'lagged'):
            raise ValueError("added_mass must be 'inertia' or 'lagged', got %r" % (added_mass,))
        #: the compiled equations and sub-steps (physics.articulated.algorithms.tree_dynamics);
        #: else Pinocchio's
        self.compiled = added_mass == 'inertia' and compiled
        if self.compiled:
            self.dynamics = CompiledTreeDynamics(
                tree, vehicle.gravity, fins=vehicle.fins, hull=vehicle.hull,
                fluid_density=vehicle.fluid_density)
        else:
            self.dynamics = TreeDynamics(tree, vehicle.gravity, added_mass)
        self.joint_names: List[str] = tree.joint_names()
        joints = tree.joints
        self.lower = np.array([j.lower for j in joints], dtype=float)
        self.upper = np.array([j.upper for j in joints], dtype=float)
        self.velocity_limit = np.array([j.velocity for j in joints], dtype=float)
        self.effort_limit = np.array([j.effort for j in joints], dtype=float)
        self.servo_bandwidth = float(servo_bandwidth)
        n = len(joints)
        start = np.zeros(n) if joint_positions is None else np.array(
            joint_positions, dtype=float).reshape(n)
        self.initial_joints = np.clip(start, self.lower, self.upper)
        self._index = {name: k for k, name in enumerate(self.joint_names)}
        #: (buoyancy engines, their BodyEngines placement) of the latest engine_wrench
        self._engines = None
        super().__init__(vehicle, dt, substeps, max_catchup_steps, initial, log)
        self.events['limit_stops'] = 0
        self.stops = JointStops(self.lower, self.upper, self.dynamics, rk4_substep,
                                self.events)
        #: the compiled sub-steps' servo rows: kind, value, apparent inertia, static
        #: torque, velocity and effort limits (tree_dynamics.CompiledTreeDynamics.rk4)
        self._servo_rows = np.zeros((6, n))
        self._servo_rows[4], self._servo_rows[5] = self.velocity_limit, self.effort_limit
        #: the joints' frames for joint_transforms (built when first asked)
        self._joint_frames = None
        self._servo_substeps()
        if not self.compiled and (vehicle.fins or vehicle.hull is not None):
            self._log('warning', 'articulated_lumped', 'vehicle %s: its fins and hull are '
                      'not simulated on the Pinocchio path (joint_added_mass %r; per-link '
                      "hydro only; 'inertia' simulates them)" % (vehicle.name, added_mass))

    def _servo_substeps(self) -> None:
        # the servos' fastest mode w needs w h <= 1 (RK4 is stable to |lambda h| 2.78)
        self.substeps = max(self.substeps, int(math.ceil(self.servo_bandwidth * self.dt)))

    def set_step(self, dt: float) -> None:
        """Change the step to ``dt`` s before a run starts (the servos' sub-steps too)."""
        self._step_length(dt)
        self._servo_substeps()
        self.sim.set_step(self.dt, self.substeps)

    # ------------------------------------------------------------------ state
    def reset(self, state=None, joint_positions=None) -> None:
        """Return to ``state`` and the joint positions (default: the initial ones), at rest."""
        super().reset(state)
        q = self.initial_joints if joint_positions is None else np.array(
            joint_positions, dtype=float).reshape(len(self.joint_names))
        if not np.all(np.isfinite(q)):
            raise ValueError('joint positions must be finite, got %r' % (q.tolist(),))
        #: joint positions, speeds and the torques of the latest step's end
        self.q = q.copy()
        self.qd = np.zeros(len(q))
        self.efforts = np.zeros(len(q))
        #: joint accelerations of the latest step's end (sensors on moving links)
        self.qdd = np.zeros(len(q))
        #: per joint: command kind and value (held until the next command)
        self.kinds: List[str] = ['position'] * len(q)
        self.values = q.copy()
        self._lag: Dict[int, np.ndarray] = {
            j: np.zeros(6) for j in getattr(self.dynamics, 'lagged', ())}
        self._nu_dot_state = np.zeros(6)

    def joint(self, name: str) -> int:
        """Return the index of joint ``name`` (KeyError naming the joints if unknown)."""
        try:
            return self._index[name]
        except KeyError:
            raise KeyError('no moving joint %r; joints: %s'
                           % (name, ', '.join(self.joint_names))) from None

    def command(self, index: int, kind: str, value: float = 0.0) -> bool:
        """Set joint ``index``'s command; False (ignored) for a non-finite value."""
        if kind not in COMMAND_KINDS:
            raise ValueError('joint command kind must be one of %s, got %r'
                             % (', '.join(COMMAND_KINDS), kind))
        value = float(value)
        if not math.isfinite(value):
            return False
        if kind == 'position':
            value = min(max(value, self.lower[index]), self.upper[index])
        if kind == 'locked':
            self.qd[index] = 0.0
        self.kinds[index] = kind
        self.values[index] = value
        return True

    # ------------------------------------------------------------------ dynamics
    def _servo(self, apparent, static):
        """Return torques_of(q, qd) for the commands, apparent inertias and statics held."""
        kinds = np.array(self.kinds)
        values = self.values.copy()
        w = self.servo_bandwidth
        position = kinds == 'position'
        servo = position | (kinds == 'velocity')
        effort = kinds == 'effort'
        vmax, emax = self.velocity_limit, self.effort_limit

        def torques_of(q, qd):
            out = np.zeros(len(q))
            if servo.any():
                # cascade: qdot_ref from the position error (critically damped at w / 4)
                ref = np.where(position, 0.25 * w * (values - q), values)
                ref = _limit(ref, vmax)
                out = np.where(servo, _limit(static + apparent * w * (ref - qd), emax), out)
            return np.where(effort, _limit(values, emax), out)
        return torques_of

    def _locked(self) -> List[int]:
        return [k for k, kind in enumerate(self.kinds) if kind == 'locked']

    def _f(self, tau, current, torques_of, angles):
        """Return f(held) -> derivative(x, q, qd) -> (d/dt x, qd, qdd) of the stops."""
        dyn = self.dynamics

        def f(held):
            def derivative(x, q, qd):
                dx, qdd, _ = dyn.derivative(x, q, qd, tau, current, torques_of, self._lag,
                                            held, fin_angles=angles)
                return dx, qd, qdd
            return derivative
        return f

    def _end(self, x, q, qd, tau, current, torques_of, angles):
        """Return (x, q, qd, (d/dt x, qdd, torques)) with the held joints' brakes at the end."""
        locked = self._locked()
        q = np.where([k == 'locked' for k in self.kinds], self.q, q)
        f = self._f(tau, current, torques_of, angles)
        held = sorted(set(locked) | set(self.stops.held(f, locked, x, q, qd)))
        # the state's acceleration and torques (IMU, joint_states, the lag)
        return x, q, qd, self.dynamics.derivative(x, q, qd, tau, current, torques_of,
                                                  self._lag, held, fin_angles=angles)

    def _integrate(self, x, q, qd, tau, current, h: float, n: int):
        """Run n RK4 sub-steps of h; return (x, q, qd, (d/dt x, qdd, torques) there)."""
        if self.compiled:
            return self._integrate_compiled(x, q, qd, tau, current, h, n)
        dyn = self.dynamics
        locked = self._locked()
        apparent = static = np.zeros(len(q))
        if any(kind in ('position', 'velocity') for kind in self.kinds):
            m_inv = dyn.joint_space_inverse(x, q)
            apparent = 1.0 / np.diag(m_inv)[6:]
            # compensation of weight and buoyancy (held over the step)
            static = dyn.static_torques(x, q)
        torques_of = self._servo(apparent, static)
        f = self._f(tau, current, torques_of, None)
        x = np.array(x, dtype=float)
        for _ in range(n):
            x, q, qd = self.stops.substep(f, locked, x, q, qd, h)
        return self._end(x, q, qd, tau, current, torques_of, None)

    def _integrate_compiled(self, x, q, qd, tau, current, h: float, n: int):
        """
        Run the compiled sub-steps (servo terms included), the stops' in Python.

        The compiled call runs up to the first sub-step that meets a joint limit; that
        one is the stops' (:mod:`~uwv_hydro.modes.joint_stops`), then the compiled calls
        go on.
        """
        dyn, nj = self.dynamics, len(q)
        servo = self._servo_rows
        servo[0] = [SERVO_KINDS[k] for k in self.kinds]
        servo[1] = self.values
        angles = self.sim.fin_angles if dyn.has_fins else None
        state = np.concatenate((x, q, qd))
        end = np.empty(13 + 2 * nj)
        args = (self.servo_bandwidth, self.lower, self.upper, tau, current, angles)
        done, ended = dyn.rk4(state, h, n, servo, *args, terms=True, end=end)
        if ended:
            return (state[:13], state[13:13 + nj], state[13 + nj:],
                    (end[:13], end[13:13 + nj], end[13 + nj:]))
        # a joint limit: the servo terms as the compiled call computed them
        torques_of = self._servo(servo[2].copy(), servo[3].copy())
        f = self._f(tau, current, torques_of, angles)
        locked = self._locked()
        while True:
            x, q, qd = state[:13], state[13:13 + nj], state[13 + nj:]
            if done == n:
                return self._end(x, q, qd, tau, current, torques_of, angles)
            state = np.concatenate(self.stops.substep(f, locked, x, q, qd, h))
            done += 1
            more, ended = dyn.rk4(state, h, n - done, servo, *args, end=end)
            done += more
            if ended:
                return (state[:13], state[13:13 + nj], state[13 + nj:],
                        (end[:13], end[13:13 + nj], end[13 + nj:]))

    def step(self, tau=None, current=None, dt: Optional[float] = None) -> bool:
        """
        Advance one step of dt under the base wrench ``tau`` (held over the step).

        Return False when the step went non-finite even when retried with more
        sub-steps: the state before it is then kept.
        """
        h_dt = self.dt if dt is None else float(dt)
        current, _ = self.current_at_state(current)
        # the base body's wrench (6,) or one per body (nb, 6): modes/body_wrenches.py
        tau = step_input(tau, len(self.dynamics.multibody.body_names))
        n = max(self.substeps, int(math.ceil(h_dt / (self.dt / self.substeps) - 1e-9)))
        ok = False
        for attempt in (n, n * RETRY_SUBSTEP_FACTOR):
            try:
                with np.errstate(all='ignore'):
                    x, q, qd, end = self._integrate(self._x, self.q, self.qd, tau, current,
                                                    h_dt / attempt, attempt)
                ok = bool(np.isfinite(np.concatenate((x, q, qd, end[0], end[1]))).all())
            except (ValueError, ArithmeticError, RuntimeError, np.linalg.LinAlgError):
                ok = False  # a diverging state: NaN depths, a singular solve
            if ok or attempt != n:
                break
            self.events['divergences'] += 1
            self._log('warning', 'divergence_retried', 'articulated integration went '
                      'non-finite: step recomputed with more sub-steps')
        if not ok:
            self.events['state_restores'] += 1
            self._log('error', 'state_restored', 'simulated state went non-finite: last '
                      'good state restored')
            return False
        self._x = [float(v) for v in x]
        self.q, self.qd = q, qd
        dyn = self.dynamics
        dx, self.qdd, self.efforts = end
        self._nu_dot_state = dx[7:13]
        if getattr(dyn, 'lagged', None):
            self._lag = dyn.link_accelerations(x, q, qd, dx[7:13], self.qdd)
        self.step_inputs = (tau, current)
        self._components = None
        self.t += h_dt
        return True

    def run(self, taus, n: int, current=None, dt: Optional[float] = None, rows=None,
            stop_on_restore: bool = True) -> int:
        """Run ``n`` steps (see SimulateMode.run; ``rows`` receives the base state)."""
        per_step = taus is not None and getattr(taus, 'ndim', 1) == 2
        done = 0
        for k in range(n):
            ok = self.step(taus[k] if per_step else taus, current, dt)
            if ok:
                done += 1
                if rows is not None:
                    rows[k] = self._x
            elif stop_on_restore:
                break
        return done

    def acceleration(self) -> np.ndarray:
        """Return the base's nu_dot at the current state (under the latest step's inputs)."""
        return self._nu_dot_state.copy()

    def engine_wrench(self, engines) -> np.ndarray:
        """Return the buoyancy engines' wrench: one per body when a bladder is on a moving one."""
        if self._engines is None or self._engines[0] is not engines:
            self._engines = (engines, BodyEngines(self.dynamics.tree, engines.specs))
        placed = self._engines[1]
        if not placed.moving:
            return engines.wrench(self._x)
        kin = self.dynamics.body_states(self._x, self.q, self.qd)
        return placed.wrenches(engines.volumes, engines.gravity, kin.position, kin.rotation)

    # ------------------------------------------------------------------ outputs
    def body_states(self) -> Dict[str, tuple]:
        """Return body -> (world position, world <- body rotation, body twist) of its frame."""
        kin = self.dynamics.body_states(self._x, self.q, self.qd)
        return {name: (kin.position[k], kin.rotation[k], kin.twist[k])
                for k, name in enumerate(kin.names)}

    def body_frames(self):
        """Return the bodies' FrameKinematics with accelerations (nu_dot, qdd of the state)."""
        x = self._x
        if self.compiled:
            return self.dynamics.body_states(x, self.q, self.qd, self._nu_dot_state, self.qdd)
        quat = np.asarray(x[3:7], float) / np.linalg.norm(x[3:7])
        return self.dynamics.multibody.kinematics(
            x[0:3], quat, x[7:13], self.q, self.qd, base_acceleration=self._nu_dot_state,
            qddot=self.qdd, links=False).bodies

    def joint_transforms(self) -> List[tuple]:
        """
        Return (parent link, child body, position, quaternion [w, x, y, z]) per moving joint.

        The child body frame in the joint's parent link frame (the description's, which
        may be a link fixed in the parent body) at the current joint positions: what
        robot_state_publisher sends for the joint.
        """
        if self._joint_frames is None:
            tree = self.dynamics.tree
            index = body_index(tree)
            # per joint: its parent and child bodies, the parent link's pose in its body
            mounts = [tree.link_in_body(j.parent, tree.parent_link(j)) for j in tree.joints]
            self._joint_frames = (
                [tree.parent_link(j) for j in tree.joints], [j.child for j in tree.joints],
                np.array([index[j.parent] for j in tree.joints]),
                np.array([index[j.child] for j in tree.joints]),
                np.array([m[0] for m in mounts], dtype=float).reshape(-1, 3),
                np.array([m[1] for m in mounts], dtype=float).reshape(-1, 3, 3))
        links, children, parent, child, p_l, r_l = self._joint_frames
        kin = self.dynamics.body_states(self._x, self.q, self.qd)
        r_b, p_b = kin.rotation[parent], kin.position[parent]
        # the parent link in the world: T_parent T_link
        r_p = np.einsum('nij,njk->nik', r_b, r_l)
        p_p = p_b + np.einsum('nij,nj->ni', r_b, p_l)
        # T_link^-1 T_child: R = R_l^T R_c, p = R_l^T (p_c - p_l)
        rel = np.einsum('nji,njk->nik', r_p, kin.rotation[child])
        pos = np.einsum('nji,nj->ni', r_p, kin.position[child] - p_p)
        return [(link, name, pos[k], matrix_to_quat(rel[k]))
                for k, (link, name) in enumerate(zip(links, children))]

    def components(self, current_world=None) -> WrenchComponents:
        """Return the per-link hydro and weights summed at the base (cached per step)."""
        if self._components is None:
            current, _ = self.current_at_state(current_world)
            if self.compiled:
                rows = self.dynamics.base_components(self._x, self.q, self.qd, current,
                                                     self.sim.fin_angles)
            else:
                rows = self.dynamics.base_components(self._x, self.q, self.qd, current)
            self._components = WrenchComponents(components=dict(zip(COMPONENT_NAMES, rows)),
                                                total=rows.sum(axis=0))
        return self._components
