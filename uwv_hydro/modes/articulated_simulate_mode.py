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
twist plus the joint positions and speeds, the equations of motion are those of
:class:`~uwv_hydro.physics.articulated_dynamics.TreeDynamics` (per-link hydro as
external forces, Pinocchio's ABA, added mass as chosen there).

Integration: classic RK4 on [p, quaternion, nu, q, qdot] with the rigid vehicle's
sub-step rule (the lumped vehicle's stiffness, :func:`~uwv_hydro.physics.stability.
stable_substeps`; at least servo bandwidth x dt sub-steps) and its quaternion handling
(the stage attitude from the normalised quaternion, renormalised after every sub-step),
so that with every joint locked the base follows the rigid vehicle's integrator.  The
base wrench and the current are held over a step, the joint servos act at every stage.
A step that goes non-finite is retried once with 16x the sub-steps, else the state
before it is restored (``divergences``, ``state_restores``).

Joint commands (:meth:`ArticulatedSimulateMode.command`, per joint, held until the
next):

* ``position`` (rad or m): a cascaded servo, critically damped, on the joint's
  apparent inertia I = 1 / (M^-1)_jj (Pinocchio's ``computeMinverse`` at each step's
  start: the joint's inertia with the base and the other joints free, added mass
  included): qdot_ref = clamp(w/4 (q_cmd - q), +-velocity limit), torque =
  clamp(tau_s + I w (qdot_ref - qdot), +-effort limit), w = ``servo_bandwidth`` (rad/s),
  tau_s the torque holding the joint against weight and buoyancy (inverse dynamics at
  rest, base held; both held over the step): no offset at rest.  The command is
  clamped to the joint's position limits.
* ``velocity`` (rad/s or m/s): the inner loop of the same servo, qdot_ref = the command.
* ``effort`` (N m or N): the torque itself, clamped to the effort limit.
* ``locked``: a brake: the joint acceleration is zero exactly (the torque that holds it
  is solved for, unlimited); it stays where it is.

Initially every joint holds its initial position (``position`` command).

Position limits (URDF ``<limit lower upper>``; none for continuous joints) are one-sided
constraints, as DART's joint-limit constraint with no restitution: a sub-step in which a
joint would cross its limit is cut at the crossing (found on the cut sub-step's length
to 1e-9 rad or m by the Illinois method), the joint set on its limit and stopped by an
inelastic impulse at the joint (equal and opposite on the bodies it joins, so the
vehicle's momentum is kept; its size from the joint-space inertia with the added-mass
remainders), and the rest of the sub-step run from there.  A joint at its limit that the
torques push outward is held there (a brake whose torque is solved for, pushing it back
in only) until they pull it inward.
``events['limit_stops']`` counts the stops.
"""
import math
from typing import Dict, List, Optional, Sequence

import numpy as np

from uwv_hydro.modes.simulate_mode import RETRY_SUBSTEP_FACTOR, SimulateMode
from uwv_hydro.physics.articulated_dynamics import TreeDynamics
from uwv_hydro.physics.hydro_model import WrenchComponents
from uwv_hydro.physics.rotation import matrix_to_quat
from uwv_hydro.physics.vehicle_params import COMPONENT_NAMES

#: Joint command kinds.
COMMAND_KINDS = ('position', 'velocity', 'effort', 'locked')
#: Servo bandwidth by default (rad/s): the velocity loop's; the position loop is w / 4.
DEFAULT_SERVO_BANDWIDTH = 20.0
#: Limit stops per sub-step before the joints past their stops are simply set on them.
MAX_LIMIT_EVENTS = 16
#: How close (rad or m) the cut sub-step must land on the stop; a joint this close to its
#: stop at a crossing stops with the first one.
LIMIT_HIT = 1e-9
#: Iterations on the cut sub-step's length at most.
CROSSING_STEPS = 12


def _limit(value, bound):
    return np.clip(value, -bound, bound)


class ArticulatedSimulateMode(SimulateMode):
    """
    The simulated vehicle with moving links (see the module docstring).

    ``vehicle``: VehicleParams with ``tree`` set (its lumped fields give the sub-step
    rule); ``added_mass``: 'inertia' or 'lagged'
    (:mod:`~uwv_hydro.physics.articulated_dynamics`); ``servo_bandwidth``: w of the
    joint servos (rad/s); ``joint_positions``: the initial joint positions (default:
    zero, clamped to the limits).  The other arguments are SimulateMode's.
    """

    def __init__(self, vehicle, dt: float, substeps: int = 1, max_catchup_steps: int = 10,
                 initial=None, log=None, added_mass: str = 'inertia',
                 servo_bandwidth: float = DEFAULT_SERVO_BANDWIDTH,
                 joint_positions: Optional[Sequence[float]] = None):
        tree = vehicle.tree
        if tree is None:
            raise ValueError('vehicle %r has no kinematic tree: use SimulateMode'
                             % vehicle.name)
        if not (servo_bandwidth > 0.0 and math.isfinite(servo_bandwidth)):
            raise ValueError('servo_bandwidth must be positive, got %r' % (servo_bandwidth,))
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
        super().__init__(vehicle, dt, substeps, max_catchup_steps, initial, log)
        self.events['limit_stops'] = 0
        # the servos' fastest mode w needs w h <= 1 (RK4 is stable to |lambda h| 2.78)
        self.substeps = max(self.substeps, int(math.ceil(self.servo_bandwidth * self.dt)))
        if vehicle.fins or vehicle.hull is not None:
            self._log('warning', 'articulated_lumped', 'vehicle %s: its fins and hull are '
                      'not simulated with moving links (per-link hydro only)' % vehicle.name)

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
        #: per joint: command kind and value (held until the next command)
        self.kinds: List[str] = ['position'] * len(q)
        self.values = q.copy()
        self._lag: Dict[int, np.ndarray] = {j: np.zeros(6) for j in self.dynamics.lagged}
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

    def _rk4(self, x, q, qd, tau, current, h: float, n: int):
        """Run n RK4 sub-steps of h; return (x, q, qd, the torque law, the locked joints)."""
        dyn = self.dynamics
        locked = self._locked()
        apparent = static = np.zeros(len(q))
        if any(kind in ('position', 'velocity') for kind in self.kinds):
            m_inv = dyn.minverse(dyn.configuration(x, q))
            apparent = 1.0 / np.diag(m_inv)[6:]
            # compensation of weight and buoyancy (held over the step)
            static = dyn.static_torques(x, q)
        torques_of = self._servo(apparent, static)
        x = np.array(x, dtype=float)

        def f(held):
            def derivative(x, q, qd):
                dx, qdd, _ = dyn.derivative(x, q, qd, tau, current, torques_of, self._lag,
                                            held)
                return dx, qd, qdd
            return derivative

        for _ in range(n):
            x, q, qd = self._limited_substep(f, locked, x, q, qd, h)
        q = np.where([k == 'locked' for k in self.kinds], self.q, q)
        held = sorted(set(locked) | set(self._held(f, locked, x, q, qd)))
        return x, q, qd, torques_of, held

    @staticmethod
    def _rk4_substep(f, x, q, qd, h: float):
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

    def _held(self, f, locked, x, q, qd) -> List[int]:
        """
        Return the joints to hold at their position limits for the next sub-step.

        Those at a limit, not moving inward, and pushed outward (or not inward) by the
        free dynamics: the limit as a one-sided constraint, whose torque only ever
        pushes the joint back in.
        """
        at = [j for j in range(len(q)) if j not in locked and (
            (q[j] <= self.lower[j] and qd[j] <= 0.0)
            or (q[j] >= self.upper[j] and qd[j] >= 0.0))]
        held: List[int] = []
        # holding one joint changes the others' accelerations: add until none is pushed out
        for _ in range(len(at)):
            _, _, qdd = f(sorted(set(locked) | set(held)))(x, q, qd)
            more = [j for j in at if j not in held and (
                qdd[j] <= 0.0 if q[j] <= self.lower[j] else qdd[j] >= 0.0)]
            if not more:
                break
            held += more
        return held

    def _limited_substep(self, f, locked, x, q, qd, h: float, events: int = 0):
        """
        Return one RK4 sub-step of h with the joints' position limits (module docstring).

        A joint that would cross its limit in the sub-step stops there: the sub-step is
        cut at the earliest crossing (:meth:`_first_crossing`), the joint set on its
        limit and stopped by an inelastic impulse (:meth:`_stop`), and the rest of the
        sub-step run from there (with the joint held if pushed outward).
        """
        outward = [j for j in range(len(q)) if j not in locked and self._outward(j, q, qd)]
        if outward:  # at a stop and moving out of the range (not from a stop's impulse)
            x, q, qd = self._stop(x, q, qd, outward)
        held = sorted(set(locked) | set(self._held(f, locked, x, q, qd)))
        while True:
            x1, q1, qd1 = self._rk4_substep(f(held), x.copy(), q, qd, h)
            over = np.maximum(self.lower - q1, q1 - self.upper)
            crossing = [j for j in range(len(q)) if over[j] > 0.0 and j not in held]
            # a joint on its stop that leaves it and is back past it within the sub-step
            # is held there for the sub-step (there is no crossing to cut at)
            sticky = [j for j in crossing
                      if min(q[j] - self.lower[j], self.upper[j] - q[j]) <= LIMIT_HIT]
            if not sticky:
                break
            held = sorted(set(held) | set(sticky))
        if not crossing:
            return x1, q1, qd1
        if events >= MAX_LIMIT_EVENTS:  # a joint chattering at its stop: set it there
            return self._stop(x1, np.clip(q1, self.lower, self.upper), qd1, crossing)
        fraction, (x2, q2, qd2), hit = self._first_crossing(
            f(held), held, x, q, qd, h, (x1, q1, qd1), crossing)
        x2, q2, qd2 = self._stop(x2, q2, qd2, hit)
        return self._limited_substep(f, locked, x2, q2, qd2, h * (1.0 - fraction), events + 1)

    def _past(self, j: int, q, crossed) -> float:
        """Return how far joint j is past the limit that ``crossed`` (its q) is past (> 0)."""
        if crossed[j] > self.upper[j]:
            return float(q[j] - self.upper[j])
        return float(self.lower[j] - q[j])

    def _first_crossing(self, f, held, x, q, qd, h: float, end, crossing):
        """
        Return the earliest crossing of a limit by ``crossing`` in a sub-step.

        The sub-step goes from (x, q, qd) to ``end``; returned: the fraction of h where
        it is cut, the state there and the joints there on their stops.  Each joint's
        crossing: q's linear interpolation, then the Illinois method (regula falsi) on
        the cut sub-step's length, RK4 from the same start, to LIMIT_HIT; a joint found
        past its stop there crossed earlier and is searched for in turn.
        """
        hi_frac, hi_state, candidates = 1.0, end, crossing
        while True:
            q_hi = hi_state[1]
            # q's linear interpolation: the fraction where past() goes through zero
            fractions = [hi_frac * self._past(j, q, q_hi)
                         / (self._past(j, q, q_hi) - self._past(j, q_hi, q_hi))
                         for j in candidates]
            first = candidates[int(np.argmin(fractions))]
            lo, f_lo = 0.0, self._past(first, q, q_hi)
            hi, f_hi = hi_frac, self._past(first, q_hi, q_hi)
            fraction, side, state = min(max(min(fractions), 0.0), hi_frac), 0, hi_state
            for _ in range(CROSSING_STEPS):
                state = self._rk4_substep(f, x.copy(), q, qd, h * fraction)
                miss = self._past(first, state[1], q_hi)
                if abs(miss) <= LIMIT_HIT:
                    break
                if miss > 0.0:
                    hi, f_hi = fraction, miss
                    f_lo = 0.5 * f_lo if side > 0 else f_lo
                    side = 1
                else:
                    lo, f_lo = fraction, miss
                    f_hi = 0.5 * f_hi if side < 0 else f_hi
                    side = -1
                fraction = ((lo * f_hi - hi * f_lo) / (f_hi - f_lo) if f_hi > f_lo
                            else 0.5 * (lo + hi))
            q2 = state[1]
            earlier = [j for j in range(len(q)) if j != first and j not in held
                       and max(self.lower[j] - q2[j], q2[j] - self.upper[j]) > LIMIT_HIT]
            if not earlier:
                break
            hi_frac, hi_state, candidates = fraction, state, earlier
        # the joints there (the first, and any within LIMIT_HIT of its stop), set on it
        hit = [first] + [j for j in range(len(q)) if j != first and j not in held and min(
            q2[j] - self.lower[j], self.upper[j] - q2[j]) <= LIMIT_HIT]
        q2 = q2.copy()
        for j in hit:
            q2[j] = self.lower[j] if q2[j] - self.lower[j] < self.upper[j] - q2[j] \
                else self.upper[j]
        return fraction, (state[0], q2, state[2]), hit

    def _outward(self, j: int, q, qd) -> bool:
        """Return whether joint j is at (or past) a limit and moving out of its range."""
        return bool((q[j] <= self.lower[j] and qd[j] < 0.0)
                    or (q[j] >= self.upper[j] and qd[j] > 0.0))

    def _stop(self, x, q, qd, joints):
        """
        Return the state after the inelastic stop of ``joints`` (indices) at their limits.

        The impulse of each stop acts at its joint only (equal and opposite on the bodies
        it joins: the vehicle's momentum is kept): delta v = (M + K)^-1 E lambda with
        E^T (v + delta v) = 0, M the joint-space inertia and K the exact added-mass
        remainders (articulated_dynamics), as DART's joint-limit constraints with no
        restitution.  E: the joints at a limit that would move outward (a stop pushes a
        joint back in only: the active set is found by adding and dropping joints) and
        the locked ones (a brake holds either way).
        """
        dyn = self.dynamics
        v = np.concatenate((x[7:13], qd))
        config = dyn.configuration(x, q)
        k_mat, _ = dyn.remainder_terms(config, v)  # (K, b): K alone
        g = dyn.minverse(config)
        # (M + K)^-1 = (I + M^-1 K)^-1 M^-1
        g = np.linalg.solve(np.eye(len(v)) + g @ k_mat, g)
        brakes = [6 + j for j in self._locked()]
        stops = sorted(set(joints) | {j for j in range(len(q)) if j not in self._locked()
                                      and (q[j] <= self.lower[j] or q[j] >= self.upper[j])})
        active = [6 + j for j in stops if self._outward(j, q, v[6:])]
        for _ in range(2 * len(stops) + 1):
            rows = active + brakes
            if not active:
                break
            lam = np.linalg.solve(g[np.ix_(rows, rows)], -v[rows])
            pulls = [k for k, value in zip(active, lam)
                     if (value < 0.0 if q[k - 6] <= self.lower[k - 6] else value > 0.0)]
            if pulls:
                active = [k for k in active if k not in pulls]
                continue
            moved = v + g[:, rows] @ lam
            moved[rows] = 0.0  # E^T (v + delta v) = 0, not its rounding
            more = [6 + j for j in stops if 6 + j not in active and self._outward(
                j, q, moved[6:])]
            if not more:
                v = moved
                break
            active = active + more
        x = np.array(x, dtype=float)
        x[7:13] = v[:6]
        self.events['limit_stops'] += len(joints)
        return x, q, v[6:].copy()

    def step(self, tau=None, current=None, dt: Optional[float] = None) -> bool:
        """
        Advance one step of dt under the base wrench ``tau`` (held over the step).

        Return False when the step went non-finite even when retried with more
        sub-steps: the state before it is then kept.
        """
        h_dt = self.dt if dt is None else float(dt)
        current, _ = self.current_at_state(current)
        tau = None if tau is None else np.asarray(tau, dtype=float).reshape(6)
        n = max(self.substeps, int(math.ceil(h_dt / (self.dt / self.substeps) - 1e-9)))
        ok = False
        for attempt in (n, n * RETRY_SUBSTEP_FACTOR):
            try:
                with np.errstate(all='ignore'):
                    x, q, qd, torques_of, locked = self._rk4(
                        self._x, self.q, self.qd, tau, current, h_dt / attempt, attempt)
                    # the state's acceleration and torques (IMU, joint_states, the lag)
                    end = self.dynamics.derivative(x, q, qd, tau, current, torques_of,
                                                   self._lag, locked)
                ok = all(bool(np.all(np.isfinite(v))) for v in (x, q, qd, end[0], end[1]))
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
        dx, qdd, self.efforts = end
        self._nu_dot_state = dx[7:13]
        if dyn.lagged:
            self._lag = dyn.link_accelerations(x, q, qd, dx[7:13], qdd)
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

    # ------------------------------------------------------------------ outputs
    def body_states(self) -> Dict[str, tuple]:
        """Return body -> (world position, world <- body rotation, body twist) of its frame."""
        kin = self.dynamics.body_states(self._x, self.q, self.qd)
        return {name: (kin.position[k], kin.rotation[k], kin.twist[k])
                for k, name in enumerate(kin.names)}

    def joint_transforms(self) -> List[tuple]:
        """
        Return (parent link, child body, position, quaternion [w, x, y, z]) per moving joint.

        The child body frame in the joint's parent link frame (the description's, which
        may be a link fixed in the parent body) at the current joint positions: what
        robot_state_publisher sends for the joint.
        """
        states = self.body_states()
        tree = self.dynamics.tree
        out = []
        for joint in tree.joints:
            p_p, r_p, _ = states[joint.parent]
            p_c, r_c, _ = states[joint.child]
            p_l, r_l = tree.link_in_body(joint.parent, tree.parent_link(joint))
            # the parent link in the world: T_parent T_link
            p_p, r_p = p_p + r_p @ p_l, r_p @ r_l
            # T_link^-1 T_child: R = R_l^T R_c, p = R_l^T (p_c - p_l)
            out.append((tree.parent_link(joint), joint.child, r_p.T @ (p_c - p_p),
                        matrix_to_quat(r_p.T @ r_c)))
        return out

    def components(self, current_world=None) -> WrenchComponents:
        """Return the per-link hydro and weights summed at the base (cached per step)."""
        if self._components is None:
            current, _ = self.current_at_state(current_world)
            rows = self.dynamics.base_components(self._x, self.q, self.qd, current)
            self._components = WrenchComponents(components=dict(zip(COMPONENT_NAMES, rows)),
                                                total=rows.sum(axis=0))
        return self._components
