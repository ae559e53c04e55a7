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
The ``uwv_hydro`` node: a thin rclpy layer over the physics core.

Modes (parameter ``mode``):

``simulate``
    Integrates the 6-DOF dynamics (:class:`uwv_hydro.physics.dynamics.Simulator`,
    implicit added mass, RK4) from the summed thruster wrenches and publishes
    ``odometry`` and TF ``odom -> base``.  The state is kept on the node clock: each
    update runs round((now - state time) / period) steps (at most
    ``max_catchup_steps``; the rest is dropped and counted), so sim time (/clock)
    drives the simulation exactly and a late wall-clock update catches up.

    Numerical safety (:mod:`uwv_hydro.physics.stability`): at start the node estimates
    the stiffest mode of the dynamics (linear drag at rest, quadratic drag at 2 m/s,
    1 rad/s) and raises the RK4 sub-steps so that |lambda| h <= 2.5 (logged; reported
    as ``rk4_substeps`` in /diagnostics).  Every step is checked against the physical
    bound on kinetic-energy growth (thrust + hydrostatics + current); a step that
    breaks it (or goes non-finite) is counted as ``divergences`` and retried once with
    :data:`RETRY_SUBSTEP_FACTOR` times the sub-steps; if that fails too the last good
    state is restored (``state_restores``) and the update's remaining steps skipped.

``wrench``
    Replaces the dsros_hydro Gazebo plugin: from ``odometry`` (pose in
    header.frame_id, twist in the body frame) it publishes the hydro wrench on
    ``hydro/wrench`` (body frame, about base) and ``hydro/wrench_world`` (world-frame
    force and torque about the link origin, for gz-sim ApplyLinkWrench).
    ApplyLinkWrench applies one message for one physics step, so run ``rate_hz`` at
    the simulator's physics rate (e.g. 1000 Hz for a 1 ms step) or the wrench is
    applied only on the steps a message arrived in.

Topics (relative names resolve in the node's namespace)::

    in   <thrust_topics>           geometry_msgs/WrenchStamped  simulate: thruster wrenches
    in   odometry                  nav_msgs/Odometry            wrench: link state
    in   current                   geometry_msgs/Vector3Stamped world current (ENU)
    in   current_twist             geometry_msgs/TwistStamped   world current (linear part)
    out  odometry                  nav_msgs/Odometry            simulate
    out  /tf                       tf2_msgs/TFMessage           simulate: odom -> base
    out  /tf_static                tf2_msgs/TFMessage           base -> _com, _cob, _drag_center
    out  hydro/wrench              geometry_msgs/WrenchStamped  wrench: body frame
    out  hydro/wrench_world        geometry_msgs/WrenchStamped  wrench: world frame
    out  hydro/components/<name>   geometry_msgs/WrenchStamped  publish_components
    out  hydro/markers             visualization_msgs/MarkerArray
    out  /diagnostics              diagnostic_msgs/DiagnosticArray
    srv  ~/reset                   std_srvs/Trigger             re-initialise state/inputs

Bad input (see :mod:`uwv_hydro.modes.input_guard`): a message with NaN/inf in any
float field it carries (odometry pose, twist and both covariances; thrust force and
torque; the current vector, both halves of current_twist) is dropped as
``non_finite``; thrust in a frame that is not a fixed frame of the vehicle as
``unknown_frame``; an odometry quaternion with |q| outside (0.5, 2) (e.g. all zeros)
as ``bad_quaternion``.  A quaternion inside that range but not of unit length (e.g.
|q| = 1.3, a sender's rounding or scaling bug) is normalised and used, and counted as
the event ``normalised_quaternions`` when ||q| - 1| > 1e-3.  Header stamps only order
an input's messages (``stale_stamp``/``stamp_jump``, see input_guard): a far-future
stamp is accepted and the next normal stamp counts as a ``stamp_jump`` restart.

Odometry covariance: the diagonals of ``pose_covariance_diagonal`` and
``twist_covariance_diagonal`` (default 1e-6: the simulated state is exact, a small
positive variance keeps estimators well conditioned); off-diagonals are zero.
"""
import functools
import threading
import time
from typing import Dict, Optional

from diagnostic_msgs.msg import DiagnosticArray
from geometry_msgs.msg import TransformStamped, TwistStamped, Vector3Stamped, WrenchStamped
from nav_msgs.msg import Odometry
import numpy as np
from rcl_interfaces.msg import SetParametersResult
from rclpy.clock import Clock, ClockType, JumpThreshold
from rclpy.duration import Duration
from rclpy.node import Node
from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy
from std_srvs.srv import Trigger
from tf2_msgs.msg import TFMessage
from uwv_hydro.modes import msg_conversions as conv
from uwv_hydro.modes.input_guard import (all_finite, ClockJumpDetector, DropCounter, StampGuard,
                                         Throttle)
from uwv_hydro.modes.thrust_mux import FrameResolver, ThrustMux
from uwv_hydro.modes.wrench_mode import unit_quaternion, world_wrench, WrenchMode
from uwv_hydro.node.diagnostics import build_statuses
from uwv_hydro.node.markers import MarkerBuilder
from uwv_hydro.node.parameters import (check, declare, describe, PARAMETERS, SPECS,
                                       VEHICLE_PARAMETERS)
from uwv_hydro.node.rate_loop import RateLoop
from uwv_hydro.node.vehicle_source import load_from_parameters
from uwv_hydro.physics.dynamics import Simulator, State
from uwv_hydro.physics.hydro_model import HydroModel
from uwv_hydro.physics.rotation import quat_from_rpy
from uwv_hydro.physics.stability import EnergyGuard, stable_substeps, stiffness
from uwv_hydro.physics.vehicle_params import COMPONENT_NAMES
from visualization_msgs.msg import MarkerArray

NODE_NAME = 'uwv_hydro'
#: Upper bound of the automatic RK4 sub-step count (the substeps parameter's bound).
PARAMETERS_SUBSTEPS_MAX = int(SPECS['substeps'].bounds[1])

#: QoS of tf2_ros' TransformBroadcaster.
TF_QOS = QoSProfile(depth=100, reliability=ReliabilityPolicy.RELIABLE,
                    durability=DurabilityPolicy.VOLATILE, history=HistoryPolicy.KEEP_LAST)
#: QoS of tf2_ros' StaticTransformBroadcaster.
TF_STATIC_QOS = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                           durability=DurabilityPolicy.TRANSIENT_LOCAL,
                           history=HistoryPolicy.KEEP_LAST)
#: Seconds between two copies of the same throttled warning.
THROTTLE_S = 2.0
#: A step that diverged is retried once with this many times the sub-steps.
RETRY_SUBSTEP_FACTOR = 16
#: ||q| - 1| above which an accepted odometry quaternion counts as normalised.
QUATERNION_TOLERANCE = 1e-3


class ConfigError(ValueError):
    """The parameters are inconsistent (the node exits non-zero)."""


class InputStats:
    """Message count and last receive time of one input, for /diagnostics."""

    def __init__(self):
        self.count = 0
        self.window_count = 0
        self.last_ns: Optional[int] = None

    def received(self, now_ns: int) -> None:
        """Record one accepted message."""
        self.count += 1
        self.window_count += 1
        self.last_ns = now_ns


def _locked(method):
    """Run ``method`` holding the node's state lock (executor callbacks vs the loop thread)."""
    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        with self._lock:
            return method(self, *args, **kwargs)
    return wrapper


class HydroNode(Node):
    """Hydrostatics / hydrodynamics node (see the module docstring)."""

    def __init__(self, **kwargs):
        super().__init__(NODE_NAME, **kwargs)
        self._lock = threading.RLock()
        self._rate_loop: Optional[RateLoop] = None
        vehicle_values = declare(self, VEHICLE_PARAMETERS)
        self.vehicle, notes = load_from_parameters(vehicle_values['robot_description'],
                                                   vehicle_values['vehicle_file'])
        cfg = declare(self, PARAMETERS,
                      {'acceleration_alpha': float(self.vehicle.acceleration_alpha)})
        problems = check(cfg)
        if problems:
            raise ConfigError('; '.join(problems))
        self.cfg = cfg
        self.mode = cfg['mode']
        self.model = HydroModel(self.vehicle)
        self.period_ns = max(1, int(round(1e9 / cfg['rate_hz'])))
        prefix = cfg['frame_prefix']
        self.base_frame = prefix + self.vehicle.base_frame
        self.odom_frame = cfg['odom_frame']
        self.frames = FrameResolver(self.vehicle, prefix)
        self.drops = DropCounter()
        self.stamps = StampGuard(cfg['stamp_reset_threshold'])
        self.jumps = ClockJumpDetector()
        self.throttle = Throttle(THROTTLE_S)
        self.events: Dict[str, int] = {'clock_resets': 0, 'stamp_resets': 0,
                                       'state_restores': 0, 'service_resets': 0,
                                       'dropped_steps': 0, 'non_finite_outputs': 0,
                                       'update_errors': 0, 'divergences': 0,
                                       'normalised_quaternions': 0}
        self.inputs: Dict[str, InputStats] = {}
        self._loop = {'ticks': 0, 'overruns': 0, 'late_ticks': 0, 'max_update_s': 0.0}
        self.wrench_mode: Optional[WrenchMode] = None
        self._odom = None
        self._current_param = np.array(cfg['current'], dtype=float)
        self._current_msg: Optional[np.ndarray] = None
        self._components = None
        self._overruns_reported = 0
        self._drops_reported = 0
        self._last_tick_ns: Optional[int] = None
        self._diag_wall = time.monotonic()
        self._ticks_reported = 0

        self._jump_handle = self.get_clock().create_jump_callback(
            JumpThreshold(min_forward=None, min_backward=Duration(nanoseconds=-1),
                          on_clock_change=True),
            post_callback=self._on_clock_jump)

        self._create_io()
        # The update is paced by a node-clock timer (sim time when use_sim_time is set), or
        # in wall time by a RateLoop thread: rclpy's executor costs a few hundred us of
        # CPU per timer tick, too much for a steady 1 kHz (see rate_loop.py)
        sim_time = bool(self.get_parameter('use_sim_time').value)
        self.loop_mode = cfg['loop'] if cfg['loop'] != 'auto' else (
            'timer' if sim_time else 'thread')
        self._timer = None
        if self.loop_mode == 'timer':
            self._timer = self.create_timer(self.period_ns * 1e-9, self._on_timer,
                                            clock=self.get_clock())
        else:
            self._rate_loop = RateLoop(self.period_ns * 1e-9, self._loop_cycle,
                                       on_error=self._on_loop_error)
        if cfg['publish_markers']:
            self._marker_timer = self.create_timer(1.0 / cfg['marker_rate_hz'],
                                                   self._on_marker_timer,
                                                   clock=self.get_clock())
        # Diagnostics on the steady clock: reported even while sim time is paused
        self._diag_timer = self.create_timer(cfg['diagnostics_period'],
                                             self._on_diagnostics_timer,
                                             clock=Clock(clock_type=ClockType.STEADY_TIME))
        self.add_on_set_parameters_callback(self._on_set_parameters)
        self.reset_state()
        if self._rate_loop is not None:
            self._rate_loop.start()
        for note in notes:
            self.get_logger().info(note)
        for warning in self.vehicle.warnings:
            self.get_logger().warning('vehicle: %s' % warning)
        self.get_logger().info(
            'vehicle %r from %s (mass %.6g kg, buoyancy %.6g kg, base %r); mode %s at %g Hz '
            '(paced by %s); configuration:\n%s' % (
                self.vehicle.name, self.vehicle.source, self.vehicle.mass,
                self.vehicle.buoyancy_mass, self.base_frame, self.mode, cfg['rate_hz'],
                'a wall-clock thread' if self._rate_loop else 'a node-clock timer',
                describe(dict(vehicle_values, **cfg))))

    # ------------------------------------------------------------------ set-up
    def _create_io(self) -> None:
        cfg = self.cfg
        self.tf_pub = None
        self.odom_pub = None
        self.mux = ThrustMux(cfg['thrust_topics'], cfg['thrust_timeout'])
        if self.mode == 'simulate':
            self.sim = self._stable_simulator(cfg['substeps'])
            self.energy_guard = EnergyGuard(self.sim)
            self.odom_pub = self.create_publisher(Odometry, 'odometry', 10)
            if cfg['publish_tf']:
                self.tf_pub = self.create_publisher(TFMessage, '/tf', TF_QOS)
            for topic in cfg['thrust_topics']:
                self.inputs[topic] = InputStats()
                self.create_subscription(
                    WrenchStamped, topic,
                    lambda msg, topic=topic: self._on_thrust(msg, topic), 10)
            self.create_service(Trigger, '~/reset', self._on_reset)
        else:
            # the same evaluator as the offline `replay` tool: both agree by construction
            self.wrench_mode = WrenchMode(self.vehicle, added_mass=cfg['added_mass'],
                                          apply_weight=cfg['apply_weight'],
                                          acceleration_alpha=cfg['acceleration_alpha'])
            self.inputs['odometry'] = InputStats()
            self.create_subscription(Odometry, 'odometry', self._on_odometry, 10)
            self.wrench_pub = self.create_publisher(WrenchStamped, 'hydro/wrench', 10)
            self.wrench_world_pub = self.create_publisher(WrenchStamped, 'hydro/wrench_world',
                                                          10)
            self.create_service(Trigger, '~/reset', self._on_reset)
        self.inputs['current'] = InputStats()
        self.inputs['current_twist'] = InputStats()
        self.create_subscription(Vector3Stamped, 'current', self._on_current, 10)
        self.create_subscription(TwistStamped, 'current_twist', self._on_current_twist, 10)
        self.component_pubs = {}
        if cfg['publish_components']:
            self.component_pubs = {
                name: self.create_publisher(WrenchStamped, 'hydro/components/' + name, 10)
                for name in COMPONENT_NAMES}
        self.markers = None
        if cfg['publish_markers']:
            self.markers = MarkerBuilder(self.vehicle, self.base_frame,
                                         cfg['marker_force_scale'])
            self.marker_pub = self.create_publisher(MarkerArray, 'hydro/markers', 1)
        self.diag_pub = self.create_publisher(DiagnosticArray, '/diagnostics', 10)
        if cfg['publish_static_frames']:
            self.static_pub = self.create_publisher(TFMessage, '/tf_static', TF_STATIC_QOS)
            self.static_pub.publish(self._static_frames())
        self._odom_msg = Odometry()
        self._odom_msg.header.frame_id = self.odom_frame
        self._odom_msg.child_frame_id = self.base_frame
        pose_cov = np.diag(cfg['pose_covariance_diagonal']).reshape(36)
        twist_cov = np.diag(cfg['twist_covariance_diagonal']).reshape(36)
        self._odom_msg.pose.covariance = [float(v) for v in pose_cov]
        self._odom_msg.twist.covariance = [float(v) for v in twist_cov]
        self._tf = TransformStamped()
        self._tf.header.frame_id = self.odom_frame
        self._tf.child_frame_id = self.base_frame

    def _stable_simulator(self, requested: int) -> Simulator:
        """Return the Simulator with enough RK4 sub-steps for the stiffest mode."""
        dt = self.period_ns * 1e-9
        probe = Simulator(self.vehicle, dt=dt, substeps=1)
        lam = stiffness(probe)
        maximum = PARAMETERS_SUBSTEPS_MAX
        substeps = stable_substeps(lam, dt, minimum=requested, maximum=maximum)
        self._loop['rk4_substeps'] = substeps
        self._loop['stiffness_per_s'] = lam
        if substeps > requested:
            self.get_logger().info(
                'stiffest mode |lambda| = %.6g 1/s: %d RK4 sub-steps per %.6g s update '
                '(substeps parameter %d) keep |lambda| h <= 2.5'
                % (lam, substeps, dt, requested))
        if lam * dt / substeps > 2.5:
            self.get_logger().warning(
                'stiffest mode |lambda| = %.6g 1/s needs more than %d sub-steps at %.6g s: '
                'the integration may diverge (detected and restored at run time); raise '
                'rate_hz' % (lam, maximum, dt))
        return Simulator(self.vehicle, dt=dt, substeps=substeps)

    def _static_frames(self) -> TFMessage:
        msg = TFMessage()
        stamp = self.get_clock().now().to_msg()
        for suffix, point in (('_com', self.vehicle.com), ('_cob', self.vehicle.cob),
                              ('_drag_center', self.vehicle.resolved_drag_center())):
            t = TransformStamped()
            t.header.stamp = stamp
            t.header.frame_id = self.base_frame
            t.child_frame_id = self.base_frame + suffix
            conv.fill_vector3(t.transform.translation, point)
            t.transform.rotation.w = 1.0
            msg.transforms.append(t)
        return msg

    # ------------------------------------------------------------------ state
    def initial_state(self) -> State:
        """Return the state given by the initial_* parameters."""
        rpy = self.cfg['initial_orientation_rpy']
        return State(position=np.array(self.cfg['initial_position'], dtype=float),
                     quaternion=quat_from_rpy(*rpy),
                     twist=np.array(self.cfg['initial_velocity'], dtype=float))

    def reset_state(self) -> None:
        """Re-initialise the simulate state / lagged estimator and the input histories."""
        self.mux.clear()
        self.stamps.reset()
        self._components = None
        if self.mode == 'simulate':
            self.state = self.initial_state()
            self._good_state = self.state.copy()
            self._nu_dot = np.zeros(6)
            self._state_ns: Optional[int] = None
        else:
            self.wrench_mode.reset()
            self._odom = None

    def current_world(self) -> Optional[np.ndarray]:
        """Return the world current (latest topic value, else the parameter), None if zero."""
        current = self._current_msg if self._current_msg is not None else self._current_param
        return current if np.any(current) else None

    # ------------------------------------------------------------------ callbacks
    def _now_ns(self) -> int:
        return self.get_clock().now().nanoseconds

    def _drop(self, source: str, reason: str, detail: str = '') -> None:
        self.drops.count(source, reason)
        if self.throttle.ready((source, reason)):
            self.get_logger().warning('dropped a message on %s: %s%s (%d so far)' % (
                source, reason, detail, self.drops.by_source()[source][reason]))

    def _stamp_ok(self, source: str, header) -> bool:
        verdict = self.stamps.check(source, conv.stamp_to_ns(header.stamp))
        if verdict == 'stale_stamp':
            self._drop(source, 'stale_stamp', ' (header stamp went backwards)')
            return False
        if verdict == 'stamp_jump':
            self.drops.count(source, 'stamp_jump')
            self.events['stamp_resets'] += 1
            if self.throttle.ready((source, 'stamp_jump')):
                self.get_logger().warning(
                    '%s: header stamp jumped back by more than %g s; input restarted'
                    % (source, self.cfg['stamp_reset_threshold']))
            if source == 'odometry':
                self.wrench_mode.reset()
        return True

    @_locked
    def _on_thrust(self, msg: WrenchStamped, topic: str) -> None:
        w = conv.wrench_to_array(msg.wrench)
        if not np.all(np.isfinite(w)):
            self._drop(topic, 'non_finite')
            return
        w_base = self.frames.to_base(msg.header.frame_id, w)
        if w_base is None:
            self._drop(topic, 'unknown_frame', ' (frame %r is not a fixed frame of %s)'
                       % (msg.header.frame_id, self.vehicle.base_frame))
            return
        if not self._stamp_ok(topic, msg.header):
            return
        now = self._now_ns()
        self.mux.update(topic, w_base, now)
        self.inputs[topic].received(now)

    @_locked
    def _on_odometry(self, msg: Odometry) -> None:
        position, quaternion = conv.pose_to_arrays(msg.pose.pose)
        nu = conv.twist_to_array(msg.twist.twist)
        if not (np.all(np.isfinite(position)) and np.all(np.isfinite(quaternion))
                and np.all(np.isfinite(nu)) and all_finite(msg.pose.covariance)
                and all_finite(msg.twist.covariance)):
            self._drop('odometry', 'non_finite')
            return
        unit, norm = unit_quaternion(quaternion)
        if unit is None:
            self._drop('odometry', 'bad_quaternion', ' (|q| = %g)' % norm)
            return
        if not self._stamp_ok('odometry', msg.header):
            return
        now = self._now_ns()
        stamp_ns = conv.stamp_to_ns(msg.header.stamp) or now
        if abs(norm - 1.0) > QUATERNION_TOLERANCE:
            self.events['normalised_quaternions'] += 1
            if self.throttle.ready(('odometry', 'normalised_quaternion')):
                self.get_logger().warning('odometry quaternion has |q| = %g: normalised'
                                          % norm)
        quaternion = unit
        try:
            wc = self.wrench_mode.evaluate(stamp_ns * 1e-9, position, quaternion, nu,
                                           self.current_world())
        except (ArithmeticError, ValueError):
            wc = None
        self._odom = (wc, quaternion, msg.header.frame_id, now)
        self.inputs['odometry'].received(now)

    @_locked
    def _store_current(self, source: str, header, values, extra=()) -> None:
        if not (np.all(np.isfinite(values)) and all_finite(extra)):
            self._drop(source, 'non_finite')
            return
        if not self._stamp_ok(source, header):
            return
        self._current_msg = np.array(values, dtype=float)
        self.inputs[source].received(self._now_ns())

    def _on_current(self, msg: Vector3Stamped) -> None:
        self._store_current('current', msg.header, conv.vector3_to_array(msg.vector))

    def _on_current_twist(self, msg: TwistStamped) -> None:
        # the angular part is unused, but a message with NaN anywhere is dropped
        angular = msg.twist.angular
        self._store_current('current_twist', msg.header, conv.vector3_to_array(msg.twist.linear),
                            (angular.x, angular.y, angular.z))

    @_locked
    def _on_clock_jump(self, jump) -> None:
        # Called from the /clock subscription, in this node's (single-threaded)
        # executor, before any message that follows the jump is processed.
        if jump.delta.nanoseconds < 0:
            self._clock_reset()
            self.jumps.forget()

    def _clock_reset(self) -> None:
        self.events['clock_resets'] += 1
        if self.throttle.ready('clock_reset'):
            self.get_logger().warning('node clock jumped back: state and inputs reset')
        self.reset_state()

    @_locked
    def _on_reset(self, request, response):
        self.reset_state()
        self.events['service_resets'] += 1
        self.get_logger().info('state reset by service')
        response.success = True
        response.message = 'state re-initialised'
        return response

    @_locked
    def _on_set_parameters(self, params) -> SetParametersResult:
        values = {p.name: p.value for p in params}
        problems = check(values)
        if problems:
            return SetParametersResult(successful=False, reason='; '.join(problems))
        for name, value in values.items():
            if name in self.cfg:
                self.cfg[name] = value
            if name == 'current':
                self._current_param = np.array(value, dtype=float)
            elif name == 'thrust_timeout':
                self.mux.set_timeout(value)
            elif name == 'apply_weight' and self.wrench_mode is not None:
                self.wrench_mode.apply_weight = bool(value)
        return SetParametersResult(successful=True)

    # ------------------------------------------------------------------ update loop
    def _loop_cycle(self) -> None:
        # the RateLoop thread's cycle: nothing once the context is shut down
        if self.context.ok():
            self._on_timer()

    def _on_loop_error(self, exc: BaseException) -> None:
        self.events['update_errors'] += 1
        if self.throttle.ready('loop_error'):
            self.get_logger().error('update loop error (%s: %s); continuing'
                                    % (type(exc).__name__, exc))

    def destroy_node(self) -> None:
        """Stop the update thread (if any) before the node goes away."""
        if self._rate_loop is not None:
            self._rate_loop.stop()
        super().destroy_node()

    @_locked
    def _on_timer(self) -> None:
        started = time.perf_counter()
        now = self._now_ns()
        if self.jumps.observe(now):
            self._clock_reset()
        if self._last_tick_ns is not None and now - self._last_tick_ns > 1.5 * self.period_ns:
            self._loop['late_ticks'] += 1
        self._last_tick_ns = now
        self._loop['ticks'] += 1
        try:
            if self.mode == 'simulate':
                self._simulate(now)
            else:
                self._wrench(now)
        except Exception as exc:  # noqa: B902 - the node must keep running
            self.events['update_errors'] += 1
            if self.throttle.ready('update_error'):
                self.get_logger().error('update failed (%s: %s); continuing'
                                        % (type(exc).__name__, exc))
        elapsed = time.perf_counter() - started
        self._loop['max_update_s'] = max(self._loop['max_update_s'], elapsed)
        if elapsed > self.period_ns * 1e-9:
            self._loop['overruns'] += 1

    def _watchdog(self, now: int) -> np.ndarray:
        tau, went_stale, recovered = self.mux.total(now)
        for topic in went_stale:
            if self.throttle.ready((topic, 'watchdog')):
                self.get_logger().warning('thrust topic %s silent for more than %g s: it '
                                          'contributes zero' % (topic, self.cfg['thrust_timeout']))
        for topic in recovered:
            self.get_logger().info('thrust topic %s is back' % topic)
        return tau

    def _simulate(self, now: int) -> None:
        if self._state_ns is None:
            self._state_ns = now
            self._publish_state(now)
            return
        steps = int(round((now - self._state_ns) / self.period_ns))
        if steps <= 0:
            return
        limit = self.cfg['max_catchup_steps']
        if steps > limit:
            self.events['dropped_steps'] += steps - limit
            self._state_ns += (steps - limit) * self.period_ns
            steps = limit
        tau = self._watchdog(now)
        current = self.current_world()
        nu_before = self.state.twist
        for k in range(1, steps + 1):
            new = self._checked_step(tau, current)
            if new is None:
                self.events['state_restores'] += 1
                self.state = self._good_state.copy()
                break
            self.state = new
            if k < steps:
                # every integration step is published, one period apart (TF: the last)
                self._publish_odometry(self._state_ns + k * self.period_ns)
        self._good_state = self.state.copy()
        self._state_ns += steps * self.period_ns
        self._nu_dot = (self.state.twist - nu_before) / (steps * self.period_ns * 1e-9)
        self._components = None
        self._publish_state(self._state_ns)
        if self.component_pubs:
            self._publish_components(self._sim_components().components,
                                     self._state_ns)

    def _try_step(self, tau, current, substeps=None):
        """Return (new state or None, 'ok' / 'non_finite' / 'implausible')."""
        try:
            new = self.sim.step(self.state, tau, current, substeps)
        except (ArithmeticError, ValueError):  # e.g. NaN depth after an overflow
            return None, 'non_finite'
        if not (np.all(np.isfinite(new.position)) and np.all(np.isfinite(new.quaternion))
                and np.all(np.isfinite(new.twist))):
            return None, 'non_finite'
        with np.errstate(over='ignore', invalid='ignore'):
            plausible = self.energy_guard.plausible(self.state.twist, new.twist, tau,
                                                    self.sim.dt, current)
        return (new, 'ok') if plausible else (None, 'implausible')

    def _checked_step(self, tau, current) -> Optional[State]:
        """
        Return the state one step on, or None when it diverged even when retried.

        A divergent step (non-finite, or kinetic energy growing faster than thrust,
        hydrostatics and current can drive it) is retried once with
        RETRY_SUBSTEP_FACTOR times the sub-steps.
        """
        new, verdict = self._try_step(tau, current)
        if new is not None:
            return new
        self.events['divergences'] += 1
        retry = min(self.sim.substeps * RETRY_SUBSTEP_FACTOR, PARAMETERS_SUBSTEPS_MAX * 16)
        new, second = self._try_step(tau, current, retry)
        if new is not None:
            if self.throttle.ready('divergence_retried'):
                self.get_logger().warning(
                    'integration diverged (%s) at |nu| = %.6g: step recomputed with %d '
                    'sub-steps' % (verdict, float(np.linalg.norm(self.state.twist)), retry))
            return new
        if verdict == 'non_finite' or second == 'non_finite':
            self.get_logger().error('simulated state went non-finite: last good state '
                                    'restored', throttle_duration_sec=THROTTLE_S)
        else:
            self.get_logger().error('simulated state diverged (kinetic energy beyond what '
                                    'thrust and buoyancy can inject): last good state '
                                    'restored', throttle_duration_sec=THROTTLE_S)
        return None

    def _sim_components(self):
        if self._components is None:
            s = self.state
            self._components = self.model.wrench(s.twist, s.position, s.quaternion,
                                                 self._nu_dot, self.current_world())
        return self._components

    def _publish_odometry(self, stamp_ns: int):
        """Publish the state as odometry stamped ``stamp_ns``; return the message."""
        s = self.state
        msg = self._odom_msg
        conv.ns_to_stamp(msg.header.stamp, stamp_ns)
        conv.fill_vector3(msg.pose.pose.position, s.position)
        conv.fill_quaternion(msg.pose.pose.orientation, s.quaternion)
        conv.fill_twist(msg.twist.twist, s.twist)
        self.odom_pub.publish(msg)
        return msg

    def _publish_state(self, stamp_ns: int) -> None:
        msg = self._publish_odometry(stamp_ns)
        s = self.state
        if self.tf_pub is not None:
            t = self._tf
            t.header.stamp = msg.header.stamp
            conv.fill_vector3(t.transform.translation, s.position)
            conv.fill_quaternion(t.transform.rotation, s.quaternion)
            self.tf_pub.publish(TFMessage(transforms=[t]))

    def _wrench(self, now: int) -> None:
        if self._odom is None:
            return
        wc, quaternion, world_frame, received = self._odom
        if now - received > self.cfg['odometry_timeout'] * 1e9:
            return
        if wc is None or not np.all(np.isfinite(wc.total)):
            # finite but extreme input (overflow): publish nothing rather than inf/NaN
            self.events['non_finite_outputs'] += 1
            if self.throttle.ready('non_finite_output'):
                self.get_logger().error('hydro wrench not finite for the latest odometry: '
                                        'not published')
            return
        self._components = wc
        total = wc.total  # without the weight unless apply_weight (WrenchMode)
        msg = WrenchStamped()
        conv.ns_to_stamp(msg.header.stamp, now)
        msg.header.frame_id = self.base_frame
        conv.fill_wrench(msg.wrench, total)
        self.wrench_pub.publish(msg)
        world = WrenchStamped()
        world.header.stamp = msg.header.stamp
        world.header.frame_id = world_frame or self.odom_frame
        conv.fill_wrench(world.wrench, world_wrench(total, quaternion))
        self.wrench_world_pub.publish(world)
        if self.component_pubs:
            self._publish_components(wc.components, now)

    def _publish_components(self, components, stamp_ns: int) -> None:
        for name, pub in self.component_pubs.items():
            msg = WrenchStamped()
            conv.ns_to_stamp(msg.header.stamp, stamp_ns)
            msg.header.frame_id = self.base_frame
            conv.fill_wrench(msg.wrench, components[name])
            pub.publish(msg)

    # ------------------------------------------------------------------ slow outputs
    @_locked
    def _on_marker_timer(self) -> None:
        if self.mode == 'simulate':
            components = self._sim_components().components if self._state_ns else None
        else:
            components = self._components.components if self._components else None
        markers = self.markers.build(self.get_clock().now().to_msg(), components)
        self.marker_pub.publish(MarkerArray(markers=markers))

    def diagnostics_snapshot(self) -> Dict:
        """Return the plain-data snapshot /diagnostics is built from."""
        wall = time.monotonic()
        window = max(wall - self._diag_wall, 1e-9)
        self._diag_wall = wall
        now = self._now_ns()
        by_source = self.drops.by_source()
        inputs = {}
        for name, stats in self.inputs.items():
            info = {'count': stats.count, 'rate_hz': stats.window_count / window,
                    'age_s': None if stats.last_ns is None else (now - stats.last_ns) * 1e-9,
                    'drops': by_source.get(name, {})}
            if name in self.mux.inputs:
                info['state'] = self.mux.state(name)
            stats.window_count = 0
            inputs[name] = info
        loop = dict(self._loop)
        loop['rate_hz'] = (loop['ticks'] - self._ticks_reported) / window
        self._ticks_reported = loop['ticks']
        loop['overruns_recent'] = loop['overruns'] - self._overruns_reported
        self._overruns_reported = loop['overruns']
        total_drops = self.drops.total()
        snap = {'loop': loop, 'drops': self.drops.by_reason(), 'inputs': inputs,
                'events': dict(self.events), 'drops_recent': total_drops - self._drops_reported}
        self._drops_reported = total_drops
        if self.mode == 'simulate':
            snap['watchdog'] = {t: self.mux.state(t) for t in self.mux.inputs}
        return snap

    @_locked
    def _on_diagnostics_timer(self) -> None:
        msg = DiagnosticArray()
        msg.header.stamp = self.get_clock().now().to_msg()
        msg.status = build_statuses(self.get_fully_qualified_name(), self.vehicle.name,
                                    self.diagnostics_snapshot())
        self.diag_pub.publish(msg)
