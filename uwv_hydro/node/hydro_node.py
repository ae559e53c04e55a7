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
    Integrates the 6-DOF dynamics from the summed thruster wrenches and publishes
    ``odometry`` and TF ``odom -> base`` (:mod:`uwv_hydro.node.simulate_io`).  The
    vehicle is :class:`uwv_hydro.modes.simulate_mode.SimulateMode`, which owns the step
    rules: the state kept on the node clock (each update runs round((now - state
    time) / period) steps, at most ``max_catchup_steps``; the rest is dropped and
    counted), so sim time (/clock) drives the simulation exactly and a late wall-clock
    update catches up (with the wall-clock thread, "now" is the update's deadline, so
    the steps are the deadlines passed: a late start alone never runs two); RK4
    sub-steps raised at start for the stiffest mode (``rk4_substeps`` in
    /diagnostics); every step checked against the physical bound on kinetic-energy
    growth, a divergent step retried with more sub-steps, else the last good state
    restored (``divergences``, ``state_restores``).

``wrench``
    Replaces the dsros_hydro Gazebo plugin (:mod:`uwv_hydro.node.wrench_io`, running
    :class:`uwv_hydro.modes.wrench_mode.WrenchMode`): from ``odometry`` (pose in
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
    out  <sensor topics>           sensor_msgs/Imu, FluidPressure, NavSatFix,
                                   geometry_msgs/TwistWithCovarianceStamped (DVL)
                                   simulate: the vehicle's sensors (node/sensor_io.py)
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

Clocks: durations (update period, catch-up, input timeouts) are measured on the
*pacing clock*, sim time under ``use_sim_time`` and the monotonic clock otherwise, so a
step of the system clock in wall-clock operation changes nothing but the stamps; ROS
time only stamps the outputs (in wall time: the pacing time plus the ROS - monotonic
offset, read after an update's outputs at most every :data:`STAMP_OFFSET_READ_NS` and
taken when it moved by more than :data:`STAMP_OFFSET_TOLERANCE_NS`).  Under
``use_sim_time`` a /clock that stops advancing for ``clock_stall_timeout`` seconds of
wall time is reported at once as "clock stalled" (WARN in /diagnostics, and a log line).

Parameters: every value is checked at start-up and on change
(:func:`uwv_hydro.node.parameters.check`: finite, in range, of the right length); a bad
one is a start-up error or refused with the reason.  A parameter given to the node but
not declared by it (a misspelling, or vehicle keys in the params file) is named in a
warning with the closest declared name.

Odometry covariance: the diagonals of ``pose_covariance_diagonal`` and
``twist_covariance_diagonal`` (default 1e-6: the simulated state is exact, a small
positive variance keeps estimators well conditioned); off-diagonals are zero.
"""

import difflib
import threading
import time
from typing import Dict, List, Optional

from diagnostic_msgs.msg import DiagnosticArray
from geometry_msgs.msg import TransformStamped, WrenchStamped
from rcl_interfaces.msg import SetParametersResult
from rclpy.clock import Clock, ClockType, JumpThreshold
from rclpy.duration import Duration
from rclpy.node import Node
from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy
from std_srvs.srv import Trigger
from tf2_msgs.msg import TFMessage
from uwv_hydro.description.yaml_params import VEHICLE_KEYS
from uwv_hydro.modes import msg_conversions as conv
from uwv_hydro.modes.input_guard import ClockJumpDetector, DropCounter, StampGuard, Throttle
from uwv_hydro.modes.thrust_mux import FrameResolver
from uwv_hydro.node.current_input import CurrentInput
from uwv_hydro.node.cycle_meter import CycleMeter
from uwv_hydro.node.diagnostics import build_statuses
from uwv_hydro.node.fin_io import FinIO
from uwv_hydro.node.markers import MarkerBuilder
from uwv_hydro.node.node_part import locked
from uwv_hydro.node.parameters import check, declare, describe, PARAMETERS, VEHICLE_PARAMETERS
from uwv_hydro.node.rate_loop import RateLoop
from uwv_hydro.node.simulate_io import SimulateIO
from uwv_hydro.node.thruster_io import ThrusterIO
from uwv_hydro.node.vehicle_source import load_from_parameters
from uwv_hydro.node.wrench_io import WrenchIO
from uwv_hydro.physics.vehicle_params import COMPONENT_NAMES
from visualization_msgs.msg import MarkerArray

NODE_NAME = 'uwv_hydro'

#: QoS of tf2_ros' StaticTransformBroadcaster.
TF_STATIC_QOS = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                           durability=DurabilityPolicy.TRANSIENT_LOCAL,
                           history=HistoryPolicy.KEEP_LAST)
#: Seconds between two copies of the same throttled warning.
THROTTLE_S = 2.0
#: Wall-time stamps: the ROS - monotonic offset is re-read when it moved by more (ns).
STAMP_OFFSET_TOLERANCE_NS = 1_000_000
#: ... and read at most this often (pacing-clock ns): reading ROS time costs ~14 us.
STAMP_OFFSET_READ_NS = 10_000_000
#: Period of the /clock watch under use_sim_time (s, steady clock).
CLOCK_WATCH_PERIOD_S = 0.1
#: Seconds between two "clock stalled" log lines while it stays stalled.
CLOCK_STALL_LOG_S = 10.0


class ConfigError(ValueError):
    """The parameters are inconsistent (the node exits non-zero)."""


class HydroNode(Node):
    """Hydrostatics / hydrodynamics node (see the module docstring)."""

    def __init__(self, **kwargs):
        super().__init__(NODE_NAME, **kwargs)
        self.lock = threading.RLock()
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
                                       'service_resets': 0, 'non_finite_outputs': 0,
                                       'update_errors': 0, 'normalised_quaternions': 0}
        self.inputs = {}
        self._loop = {'ticks': 0, 'overruns': 0, 'late_ticks': 0, 'max_update_s': 0.0}
        self.cycle_meter = CycleMeter()
        self._overruns_reported = 0
        self._drops_reported = 0
        self._last_tick_ns: Optional[int] = None
        self._diag_wall = time.monotonic()
        self._ticks_reported = 0
        self._diag_node_ns = self.now_ns()

        # Pacing: sim time under use_sim_time, else the monotonic clock (module docstring)
        self.sim_time = bool(self.get_parameter('use_sim_time').value)
        steady = Clock(clock_type=ClockType.STEADY_TIME)
        self.pace_clock = self.get_clock() if self.sim_time else steady
        self._stamp_offset_ns = 0
        self._offset_read_ns = 0
        self.tick_pace_ns = self.pace_ns()
        self._sync_stamp_offset()
        self.clock_stalled = False
        if self.sim_time:
            # a looping bag's /clock jumps back: reset like a tf2 buffer
            self._jump_handle = self.get_clock().create_jump_callback(
                JumpThreshold(min_forward=None, min_backward=Duration(nanoseconds=-1),
                              on_clock_change=True),
                post_callback=self._on_clock_jump)
            self._clock_seen = (self.now_ns(), time.monotonic())
            self._clock_logged = -CLOCK_STALL_LOG_S
            self._clock_watch = self.create_timer(CLOCK_WATCH_PERIOD_S, self._on_clock_watch,
                                                  clock=steady)

        self._create_io()
        # The update is paced by a timer on the pacing clock, or in wall time by a
        # RateLoop thread: rclpy's executor costs a few hundred us of CPU per timer tick,
        # too much for a steady 1 kHz (see rate_loop.py)
        self.loop_mode = cfg['loop'] if cfg['loop'] != 'auto' else (
            'timer' if self.sim_time else 'thread')
        self._timer = None
        if self.loop_mode == 'timer':
            self._timer = self.create_timer(self.period_ns * 1e-9, self._on_timer,
                                            clock=self.pace_clock)
        else:
            self._rate_loop = RateLoop(self.period_ns * 1e-9, self._loop_cycle,
                                       on_error=self._on_loop_error)
        if cfg['publish_markers']:
            self._marker_timer = self.create_timer(1.0 / cfg['marker_rate_hz'],
                                                   self._on_marker_timer,
                                                   clock=self.pace_clock)
        # Diagnostics on the steady clock: reported even while sim time is paused
        self._diag_timer = self.create_timer(cfg['diagnostics_period'],
                                             self._on_diagnostics_timer, clock=steady)
        self.add_on_set_parameters_callback(self._on_set_parameters)
        self.reset_state()
        if self._rate_loop is not None:
            self._rate_loop.start()
        for note in notes:
            self.get_logger().info(note)
        for warning in self.vehicle.warnings:
            self.get_logger().warning('vehicle: %s' % warning)
        for warning in self.unread_parameters():
            self.get_logger().warning(warning)
        self.get_logger().info(
            'vehicle %r from %s (mass %.6g kg, buoyancy %.6g kg, base %r); mode %s at %g Hz '
            '(paced by %s); configuration:\n%s' % (
                self.vehicle.name, self.vehicle.source, self.vehicle.mass,
                self.vehicle.buoyancy_mass, self.base_frame, self.mode, cfg['rate_hz'],
                'a wall-clock thread' if self._rate_loop else 'a timer on %s' % (
                    'sim time' if self.sim_time else 'the monotonic clock'),
                describe(dict(vehicle_values, **cfg))))

    def unread_parameters(self) -> List[str]:
        """
        Return a warning per parameter given to the node that it does not declare.

        Vehicle keys (a ``vehicle:`` section or flat ones such as ``linear_drag``) are
        named together with the way to use them; any other name with the closest
        declared name.
        """
        declared = sorted(self._parameters)
        unknown = sorted(n for n in self._parameter_overrides if not self.has_parameter(n))
        vehicle = [n for n in unknown if n.split('.')[0] in ('vehicle',) + VEHICLE_KEYS]
        warnings = []
        if vehicle:
            warnings.append(
                'the parameters give vehicle keys the node does not read: %s; the node '
                'reads its vehicle from robot_description and vehicle_file only (pass '
                'this YAML file as vehicle_file:=<path>)' % ', '.join(vehicle))
        for name in unknown:
            if name in vehicle:
                continue
            close = difflib.get_close_matches(name, declared, n=1, cutoff=0.6)
            warnings.append('parameter %r is not a parameter of this node: ignored%s' % (
                name, '; did you mean %r?' % close[0] if close else ''))
        return warnings

    # ------------------------------------------------------------------ set-up
    def _create_io(self) -> None:
        cfg = self.cfg
        self.current = CurrentInput(self)
        # the mode's topics: one part per mode
        self.io = SimulateIO(self) if self.mode == 'simulate' else WrenchIO(self)
        self.parts = [self.io, self.current]
        # fin servos: commands in, JointState out (vehicles with fins)
        self.fins = FinIO(self) if self.vehicle.fins else None
        if self.fins is not None:
            self.parts.append(self.fins)
        # per-thruster Float64 commands (simulate mode, a vehicle with thrusters)
        self.thrusters = ThrusterIO(self) if (
            self.mode == 'simulate' and self.vehicle.thrusters) else None
        if self.thrusters is not None:
            self.parts.append(self.thrusters)
        if self.mode != 'simulate' and self.vehicle.sensors:
            self.get_logger().info('the vehicle has %d navigation sensors: they are published '
                                   'in simulate mode only' % len(self.vehicle.sensors))
        self.create_service(Trigger, '~/reset', self._on_reset)
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
        sensors = getattr(self.io, 'sensors', None)  # sensor frames with a pose
        if sensors is not None:
            msg.transforms += sensors.static_transforms(stamp)
        return msg

    # ------------------------------------------------------------------ shared by the parts
    def now_ns(self) -> int:
        """Return the node-clock (ROS) time (ns): what stamps the outputs."""
        return self.get_clock().now().nanoseconds

    def pace_ns(self) -> int:
        """Return the pacing-clock time (ns): sim time, else monotonic (durations)."""
        if self.sim_time:
            return self.get_clock().now().nanoseconds
        return time.monotonic_ns()

    def stamp_ns(self, pace_ns: int) -> int:
        """Return the ROS time (ns) of the pacing-clock time ``pace_ns``."""
        return pace_ns + self._stamp_offset_ns

    def _sync_stamp_offset(self) -> None:
        """Re-read the ROS - pacing offset when it moved (a system-clock step or slew)."""
        if self.sim_time:
            return
        before = time.monotonic_ns()
        ros = self.now_ns()
        offset = ros - (before + time.monotonic_ns()) // 2
        if abs(offset - self._stamp_offset_ns) > STAMP_OFFSET_TOLERANCE_NS:
            self._stamp_offset_ns = offset

    def log_throttled(self, level: str, key: str, text: str) -> None:
        """Log ``text`` at ``level`` at most once per THROTTLE_S per ``key``."""
        if self.throttle.ready(key):
            getattr(self.get_logger(), level)(text)

    def drop(self, source: str, reason: str, detail: str = '') -> None:
        """Count a dropped message of ``source`` and warn (throttled)."""
        self.drops.count(source, reason)
        if self.throttle.ready((source, reason)):
            self.get_logger().warning('dropped a message on %s: %s%s (%d so far)' % (
                source, reason, detail, self.drops.by_source()[source][reason]))

    def admit(self, source: str, header, now_ns: int) -> Optional[int]:
        """
        Apply the stamp rules (the shared input guard) to an input's message.

        Return the time the message is used at (its stamp, or ``now_ns`` when it
        carries none, as replay uses the record time), None when it is dropped.
        """
        verdict, t_ns = self.stamps.admit(source, conv.stamp_to_ns(header.stamp), now_ns)
        if verdict == 'stale_stamp':
            self.drop(source, 'stale_stamp', ' (header stamp went backwards)')
            return None
        if verdict == 'stamp_jump':
            self.drops.count(source, 'stamp_jump')
            self.events['stamp_resets'] += 1
            if self.throttle.ready((source, 'stamp_jump')):
                self.get_logger().warning(
                    '%s: header stamp jumped back by more than %g s; input restarted'
                    % (source, self.cfg['stamp_reset_threshold']))
            if source == 'odometry':
                self.io.restart_input()
        return t_ns

    def stamp_ok(self, source: str, header) -> bool:
        """Apply the stamp rules to an input's message; False when it is dropped."""
        return self.admit(source, header, self.now_ns()) is not None

    def publish_components(self, components, stamp_ns: int) -> None:
        """Publish hydro/components/<name> (when enabled)."""
        for name, pub in self.component_pubs.items():
            msg = WrenchStamped()
            conv.ns_to_stamp(msg.header.stamp, stamp_ns)
            msg.header.frame_id = self.base_frame
            conv.fill_wrench(msg.wrench, components[name])
            pub.publish(msg)

    # ------------------------------------------------------------------ state
    def reset_state(self) -> None:
        """Re-initialise the mode's state and the input histories."""
        self.stamps.reset()
        for part in self.parts:
            part.reset()

    @locked
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

    @locked
    def _on_clock_watch(self) -> None:
        """Under use_sim_time: report a /clock that stopped advancing (steady timer)."""
        now, wall = self.now_ns(), time.monotonic()
        if now != self._clock_seen[0]:
            if self.clock_stalled:
                self.get_logger().info('clock resumed after %.3g s of wall time'
                                       % (wall - self._clock_seen[1]))
            self._clock_seen = (now, wall)
            self.clock_stalled = False
            return
        silent = wall - self._clock_seen[1]
        if now == 0 or silent <= self.cfg['clock_stall_timeout']:
            return  # /clock never started ("no update yet"), or not silent for long
        if wall - self._clock_logged >= CLOCK_STALL_LOG_S:
            self._clock_logged = wall
            self.get_logger().warning(
                'clock stalled: /clock has not advanced for %.3g s of wall time (sim time '
                'stays at %.9f s): nothing is updated or published' % (silent, now * 1e-9))
        if not self.clock_stalled:
            self.clock_stalled = True
            self._publish_diagnostics()  # at once, not at the next period

    @locked
    def _on_reset(self, request, response):
        try:
            self.reset_state()
        except ValueError as exc:  # a state that is not finite is never taken
            response.success = False
            response.message = 'not reset: %s' % exc
            return response
        self.events['service_resets'] += 1
        self.get_logger().info('state reset by service')
        response.success = True
        response.message = 'state re-initialised'
        return response

    @locked
    def _on_set_parameters(self, params) -> SetParametersResult:
        values = {p.name: p.value for p in params}
        problems = check(values)
        if problems:
            return SetParametersResult(successful=False, reason='; '.join(problems))
        for name, value in values.items():
            if name in self.cfg:
                self.cfg[name] = value
            if name == 'current':
                self.current.set_param(value)
            elif name == 'thrust_timeout' and self.mode == 'simulate':
                self.io.mux.set_timeout(value)
            elif name == 'thruster_timeout' and self.thrusters is not None:
                self.thrusters.set_timeout(value)
            elif name == 'apply_weight' and self.mode == 'wrench':
                self.io.mode.apply_weight = bool(value)
        return SetParametersResult(successful=True)

    # ------------------------------------------------------------------ update loop
    def _loop_cycle(self) -> None:
        # the RateLoop thread's cycle: nothing once the context is shut down
        if self.context.ok():
            # in wall time the tick is the loop's deadline: integration steps are counted
            # on the deadline grid, so a cycle that starts late does not step twice
            self._on_timer(None if self.sim_time else self._rate_loop.deadline_ns)

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

    def _on_timer(self, pace_ns: Optional[int] = None) -> None:
        # the cycle's CPU time (this thread's) and wall time, lock wait included
        wall, cpu = time.perf_counter_ns(), time.thread_time_ns()
        with self.lock:
            self._update(pace_ns)
        self.cycle_meter.add(time.thread_time_ns() - cpu, time.perf_counter_ns() - wall)

    def _update(self, pace_ns: Optional[int]) -> None:
        """Run one update at pacing time ``pace_ns`` (None: now)."""
        started = time.perf_counter()
        pace = self.tick_pace_ns = self.pace_ns() if pace_ns is None else pace_ns
        now = self.stamp_ns(pace)
        if self.jumps.observe(pace):
            self._clock_reset()
        if self._last_tick_ns is not None and pace - self._last_tick_ns > 1.5 * self.period_ns:
            self._loop['late_ticks'] += 1
        self._last_tick_ns = pace
        self._loop['ticks'] += 1
        try:
            self.io.update(now)
            if self.fins is not None:
                self.fins.update(now)
        except Exception as exc:  # noqa: B902 - the node must keep running
            self.events['update_errors'] += 1
            if self.throttle.ready('update_error'):
                self.get_logger().error('update failed (%s: %s); continuing'
                                        % (type(exc).__name__, exc))
        # the next cycles' stamps: read after this one's outputs are out, every
        # STAMP_OFFSET_READ_NS (a system clock step shows in the stamps that much later)
        if not pace - STAMP_OFFSET_READ_NS < self._offset_read_ns <= pace:
            self._offset_read_ns = pace
            self._sync_stamp_offset()
        elapsed = time.perf_counter() - started
        self._loop['max_update_s'] = max(self._loop['max_update_s'], elapsed)
        if elapsed > self.period_ns * 1e-9:
            self._loop['overruns'] += 1

    # ------------------------------------------------------------------ slow outputs
    def _on_marker_timer(self) -> None:
        with self.lock:  # the wrench at the state; the markers are built outside the lock
            wc = self.io.components()
        markers = self.markers.build(self.get_clock().now().to_msg(),
                                     wc.components if wc is not None else None)
        self.marker_pub.publish(MarkerArray(markers=markers))

    def diagnostics_snapshot(self) -> Dict:
        """Return the plain-data snapshot /diagnostics is built from."""
        wall = time.monotonic()
        window = max(wall - self._diag_wall, 1e-9)
        self._diag_wall = wall
        now = self.now_ns()
        wall_ns = time.monotonic_ns()
        by_source = self.drops.by_source()
        inputs = {}
        for name, stats in self.inputs.items():
            inputs[name] = {'count': stats.count, 'rate_hz': stats.window_count / window,
                            'age_s': None if stats.last_ns is None
                            else (now - stats.last_ns) * 1e-9,
                            'age_wall_s': None if stats.last_wall_ns is None
                            else (wall_ns - stats.last_wall_ns) * 1e-9,
                            'drops': by_source.get(name, {})}
            stats.window_count = 0
        loop = dict(self._loop)
        # measured over the last window of wall time; the nominal rate beside it
        loop['rate_hz'] = (loop['ticks'] - self._ticks_reported) / window
        loop['nominal_rate_hz'] = self.cfg['rate_hz']
        loop.update(self.cycle_meter.window())
        self._ticks_reported = loop['ticks']
        if self.sim_time:
            if 0 < self._diag_node_ns <= now:  # /clock running (and not jumped back)
                loop['real_time_factor'] = (now - self._diag_node_ns) * 1e-9 / window
            loop['clock_stalled'] = self.clock_stalled
            if self.clock_stalled:
                loop['clock_silent_s'] = wall - self._clock_seen[1]
        self._diag_node_ns = now
        loop['overruns_recent'] = loop['overruns'] - self._overruns_reported
        self._overruns_reported = loop['overruns']
        total_drops = self.drops.total()
        snap = {'loop': loop, 'drops': self.drops.by_reason(), 'inputs': inputs,
                'events': dict(self.events), 'drops_recent': total_drops - self._drops_reported}
        self._drops_reported = total_drops
        for part in self.parts:
            part.snapshot(snap)
        return snap

    def _on_diagnostics_timer(self) -> None:
        self._publish_diagnostics()

    def _publish_diagnostics(self) -> None:
        # only the snapshot (plain data) holds the state lock: building and publishing
        # the messages (~2 ms of Python here) must not hold up the update cycle
        with self.lock:
            snap = self.diagnostics_snapshot()
        msg = DiagnosticArray()
        msg.header.stamp = self.get_clock().now().to_msg()
        msg.status = build_statuses(self.get_fully_qualified_name(), self.vehicle.name, snap)
        self.diag_pub.publish(msg)
