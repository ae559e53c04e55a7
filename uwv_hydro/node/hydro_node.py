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
    rules: the state kept on the node clock (at most ``max_catchup_steps`` per update;
    beyond, the simulated time falls behind the clock and every output carries the
    simulated time), so sim time (/clock) drives the simulation exactly and a late
    wall-clock update catches up; RK4 sub-steps raised at start for the stiffest mode;
    every step checked against the kinetic-energy growth bound, a divergent step
    retried, else the last good state restored.

``wrench``
    Replaces the dsros_hydro Gazebo plugin (:mod:`uwv_hydro.node.wrench_io`, running
    :class:`uwv_hydro.modes.wrench_mode.WrenchMode`): from ``odometry`` (pose in
    header.frame_id, twist in the body frame) it publishes the hydro wrench on
    ``hydro/wrench`` (body frame, about base) and ``hydro/wrench_world`` (world-frame
    force and torque about the link origin, for gz-sim ApplyLinkWrench).
    ApplyLinkWrench applies one message for one physics step, so run ``rate_hz`` at
    the simulator's physics rate or the wrench is applied only on some steps.

Topics, bad input, clocks, parameters and covariances: doc/reference/node.md.
The node is assembled from parts (:class:`uwv_hydro.node.node_part.NodePart`: the
mode's I/O, current, fins, thrusters), :mod:`uwv_hydro.node.clock_watch` and
:mod:`uwv_hydro.node.diagnostics`; this file keeps the set-up, the shared helpers and
the update loop.
"""

import threading
import time
from typing import Dict, List, Optional

from builtin_interfaces.msg import Time
from geometry_msgs.msg import WrenchStamped
from rcl_interfaces.msg import SetParametersResult
from rclpy.clock import Clock, ClockType
from rclpy.node import Node
from uwv_hydro.modes.input_guard import ClockJumpDetector, DropCounter, StampGuard, Throttle
from uwv_hydro.modes.messages import msg_conversions as conv
from uwv_hydro.modes.thrust_mux import FrameResolver
from uwv_hydro.node.clock_watch import ClockWatch
from uwv_hydro.node.cycle_meter import CycleMeter
from uwv_hydro.node.cycle_profile import CycleProfile
from uwv_hydro.node.node_part import locked
from uwv_hydro.node.node_setup import (
    choose_loop, ConfigError, log_start, make_parts, NodeParts, start_profile, start_reports)
from uwv_hydro.node.outbox import Outbox
from uwv_hydro.node.parameters import (
    check, declare, initial_joint_default, PARAMETERS, VEHICLE_PARAMETERS, vehicle_problems)
from uwv_hydro.node.rate_loop import RateLoop
from uwv_hydro.node.vehicle_source import load_from_parameters
from visualization_msgs.msg import MarkerArray

NODE_NAME = 'uwv_hydro'

#: Seconds between two copies of the same throttled warning.
THROTTLE_S = 2.0
#: Wall-time stamps: the ROS - monotonic offset is re-read when it moved by more (ns).
STAMP_OFFSET_TOLERANCE_NS = 1_000_000
#: ... and read at most this often (pacing-clock ns): reading ROS time costs ~14 us.
STAMP_OFFSET_READ_NS = 10_000_000
#: ... and trusted only when the two monotonic reads around it are this close (ns): the
#: offset is then known to half of it, far inside the tolerance.
STAMP_OFFSET_BRACKET_NS = 200_000
#: Timer slack (ns) asked for the update thread (rate_loop.py): Linux's default 50 us
#: stretches every sleep; 1 us lets its wake-up come when it asked.
LOOP_TIMER_SLACK_NS = 1000


class HydroNode(Node):
    """Hydrostatics / hydrodynamics node (modes: the module docstring)."""

    def __init__(self, **kwargs):
        super().__init__(NODE_NAME, **kwargs)
        self._init_fields()
        vehicle_values, notes = self._load_vehicle()
        self._declare_parameters()
        self._init_guards()
        self._choose_pacing()
        self._assign_parts(make_parts(self))
        self.diagnostics, self.static_pub = start_reports(self)
        # under use_sim_time: /clock jumps back reset, a stalled /clock is reported
        self.clock_watch = ClockWatch(self, self._steady) if self.sim_time else None
        if self.clock_watch is not None:
            self.parts.append(self.clock_watch)
        self.loop_mode, self.executor_name, self.executor_reason = choose_loop(
            self.cfg, self.sim_time)
        self._start_timers()
        self.add_on_set_parameters_callback(self._on_set_parameters)
        self.reset_state()
        self._start_threads()
        log_start(self, vehicle_values, notes)

    # ------------------------------------------------------------------ set-up steps
    def _init_fields(self) -> None:
        """Set the fields read before the parameters are (a start-up error, the outbox)."""
        self.lock = threading.RLock()
        self._rate_loop: Optional[RateLoop] = None
        # ArduPilot SITL's JSON backend (node/sitl_json_io.py), when on; set before a
        # start-up error can reach destroy_node
        self.sitl = None
        # outputs this installation cannot publish (a message package missing), by name
        self.unavailable_outputs: List[str] = []
        self.profile: Optional[CycleProfile] = None  # cycle_profile: set once configured
        # the update's messages go out at once, from the update's thread (outbox.py)
        self.outbox = Outbox(on_error=self._on_publish_error)

    def _load_vehicle(self):
        """Declare the vehicle's parameters, load it; return their values and its notes."""
        vehicle_values = declare(self, VEHICLE_PARAMETERS)
        self.vehicle, notes = load_from_parameters(vehicle_values['robot_description'],
                                                   vehicle_values['vehicle_file'],
                                                   vehicle_values['model_name'],
                                                   vehicle_values['package_path'])
        return vehicle_values, notes

    def _declare_parameters(self) -> None:
        """Declare the node's parameters (defaults from the vehicle), check them: cfg."""
        cfg = declare(self, PARAMETERS,
                      {'acceleration_alpha': float(self.vehicle.acceleration_alpha),
                       'initial_joint_positions': initial_joint_default(self.vehicle)})
        problems = check(cfg) + vehicle_problems(cfg, self.vehicle)
        if problems:
            raise ConfigError('; '.join(problems))
        self.cfg = cfg
        self.mode = cfg['mode']
        self.period_ns = max(1, int(round(1e9 / cfg['rate_hz'])))
        prefix = cfg['frame_prefix']
        self.base_frame = prefix + self.vehicle.base_frame
        self.odom_frame = cfg['odom_frame']
        self.frames = FrameResolver(self.vehicle, prefix)

    def _init_guards(self) -> None:
        """Create the input guards, the event counts and the loop's statistics."""
        self.drops = DropCounter()
        self.stamps = StampGuard(self.cfg['stamp_reset_threshold'])
        self.jumps = ClockJumpDetector()
        self.throttle = Throttle(THROTTLE_S)
        self.events: Dict[str, int] = {'clock_resets': 0, 'stamp_resets': 0,
                                       'service_resets': 0, 'non_finite_outputs': 0,
                                       'update_errors': 0, 'normalised_quaternions': 0}
        self.inputs = {}
        self.loop_stats = {'ticks': 0, 'overruns': 0, 'late_ticks': 0, 'max_update_s': 0.0}
        self.cycle_meter = CycleMeter()
        # the debug profile of every cycle's stages (cycle_profile.py), off by default
        if self.cfg['cycle_profile']:
            self.profile = CycleProfile()
        self._last_tick_ns: Optional[int] = None

    def _choose_pacing(self) -> None:
        """Choose the pacing clock and read the stamps' offset from it."""
        # Pacing: sim time under use_sim_time, else the monotonic clock (doc/reference/node.md);
        # ArduPilot's JSON SITL: its frames (node/sitl_json_io.py), the node being the clock
        sitl = self.cfg['ardusub_input'] == 'sitl_json'
        self.sim_time = bool(self.get_parameter('use_sim_time').value) and not sitl
        self._steady = Clock(clock_type=ClockType.STEADY_TIME)
        self.pace_clock = self.get_clock() if self.sim_time else self._steady
        self._stamp_offset_ns = 0
        self._offset_read_ns = 0
        self.tick_pace_ns = self.pace_ns()
        if not sitl:
            self._sync_stamp_offset(initial=True)

    def _assign_parts(self, parts: NodeParts) -> None:
        """Keep the node's parts (node_setup.make_parts) as the node's attributes."""
        self.current, self.io, self.parts = parts.current, parts.io, parts.parts
        self.stack_outputs = parts.stack_outputs
        self.fins, self.thrusters, self.sitl = parts.fins, parts.thrusters, parts.sitl
        self.joints, self.engines, self.tether = parts.joints, parts.engines, parts.tether
        self.component_pubs = parts.component_pubs
        self.markers, self.marker_pub = parts.markers, parts.marker_pub

    def _start_timers(self) -> None:
        """Create the update's timer (or thread), the markers' and the diagnostics' timers."""
        cfg = self.cfg
        self._timer = None
        if self.loop_mode == 'timer':
            self._timer = self.create_timer(self.period_ns * 1e-9, self._on_timer,
                                            clock=self.pace_clock)
        elif self.loop_mode == 'thread':
            self._rate_loop = RateLoop(self.period_ns * 1e-9, self._loop_cycle,
                                       on_error=self._on_loop_error,
                                       timer_slack_ns=LOOP_TIMER_SLACK_NS)
        if cfg['publish_markers']:
            self._marker_timer = self.create_timer(1.0 / cfg['marker_rate_hz'],
                                                   self._on_marker_timer,
                                                   clock=self.pace_clock)
        # Diagnostics on the steady clock: reported even while sim time is paused
        self._diag_timer = self.create_timer(cfg['diagnostics_period'],
                                             self.diagnostics.publish, clock=self._steady)

    def _start_threads(self) -> None:
        """Start the debug profile (when on), then the update thread or ArduPilot's server."""
        if self.profile is not None:
            start_profile(self)
        if self._rate_loop is not None:
            self._rate_loop.start()
        if self.sitl is not None:
            self.sitl.start()

    # ------------------------------------------------------------------ shared by the parts
    def now_ns(self) -> int:
        """Return the node-clock (ROS) time (ns): what stamps the outputs."""
        if self.sitl is not None:  # the physics time of ArduPilot's frames
            return self.sitl.time_ns
        return self.get_clock().now().nanoseconds

    def pace_ns(self) -> int:
        """Return the pacing-clock time (ns): sim time, else monotonic (durations)."""
        if self.sitl is not None:
            return self.sitl.time_ns
        if self.sim_time:
            return self.get_clock().now().nanoseconds
        return time.monotonic_ns()

    def stamp_ns(self, pace_ns: int) -> int:
        """Return the ROS time (ns) of the pacing-clock time ``pace_ns``."""
        return pace_ns + self._stamp_offset_ns

    def _read_stamp_offset(self, tries: int):
        """Return (ROS - monotonic offset, bracket) of the best of ``tries`` readings (ns)."""
        best = None
        for _ in range(tries):
            before = time.monotonic_ns()
            ros = self.now_ns()
            after = time.monotonic_ns()
            if best is None or after - before < best[1]:
                best = (ros - (before + after) // 2, after - before)
        return best

    def _sync_stamp_offset(self, initial: bool = False) -> None:
        """Re-read the ROS - pacing offset when it moved (a system-clock step or slew)."""
        if self.sim_time or self.sitl is not None:
            return
        offset, bracket = self._read_stamp_offset(20 if initial else 1)
        if initial:
            self._stamp_offset_ns = offset
            return
        if bracket > STAMP_OFFSET_BRACKET_NS:
            # preempted between the reads (a loaded machine): the midpoint could be off by
            # milliseconds, which would shift every stamp; read again next time
            return
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
            self.outbox.publish(pub, msg)

    # ------------------------------------------------------------------ state
    def reset_state(self) -> None:
        """Re-initialise the mode's state and the input histories."""
        self.stamps.reset()
        for part in self.parts:
            part.reset()

    @property
    def clock_stalled(self) -> bool:
        """Return True while /clock is stalled (use_sim_time)."""
        return self.clock_watch is not None and self.clock_watch.stalled

    def clock_reset(self) -> None:
        """Reset the state and inputs after the node clock went back."""
        self.events['clock_resets'] += 1
        if self.throttle.ready('clock_reset'):
            self.get_logger().warning('node clock jumped back: state and inputs reset')
        self.reset_state()

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
    def _loop_cycle(self) -> bool:
        # the RateLoop thread's cycle: nothing once the context is shut down
        if self.context.ok():
            # in wall time the tick is the loop's deadline: integration steps are counted
            # on the deadline grid, so a cycle that starts late does not step twice
            self._on_timer(None if self.sim_time else self._rate_loop.deadline_ns)
        # behind (steps due not simulated): a rest before the next cycle (rate_loop.py)
        return getattr(self.io, 'behind', False)

    def _on_loop_error(self, exc: BaseException) -> None:
        self.events['update_errors'] += 1
        if self.throttle.ready('loop_error'):
            self.get_logger().error('update loop error (%s: %s); continuing'
                                    % (type(exc).__name__, exc))

    def _on_publish_error(self, exc: BaseException) -> None:
        self.events['update_errors'] += 1
        if self.throttle.ready('publish_error'):
            self.get_logger().error('publishing an update output failed (%s: %s); continuing'
                                    % (type(exc).__name__, exc))

    def destroy_node(self) -> None:
        """Stop the update thread (if any), then the node."""
        if self._rate_loop is not None:
            self._rate_loop.stop()
        if self.sitl is not None:
            self.sitl.stop()
        if self.profile is not None:
            self.profile.unwatch_gc()
        super().destroy_node()

    def _on_timer(self, pace_ns: Optional[int] = None) -> None:
        if self.profile is not None:  # the debug profile (cycle_profile.py)
            self._profiled_cycle(pace_ns)
            return
        # the cycle's CPU time (this thread's) and wall time, lock wait included
        wall, cpu = time.perf_counter_ns(), time.thread_time_ns()
        with self.lock:
            self._update(pace_ns)
        self.cycle_meter.add(time.thread_time_ns() - cpu, time.perf_counter_ns() - wall)

    def _profiled_cycle(self, pace_ns: Optional[int]) -> None:
        """Run :meth:`_on_timer`'s cycle, timing its stages into the profile."""
        clock = time.monotonic_ns  # the RateLoop's clock: its deadline and wake times
        start, cpu = clock(), time.thread_time_ns()
        loop = self._rate_loop
        with self.lock:
            locked_at = clock()
            marks = self._update(pace_ns, clock)
            end = clock()
        self.cycle_meter.add(time.thread_time_ns() - cpu, end - start)
        if loop is None:  # the executor's timer: no deadline, no sleep of ours
            wake_late = overshoot = 0
        else:
            wake_late, overshoot = start - loop.deadline_ns, loop.woke_ns - loop.sleep_until_ns
        inputs_start, inputs_end, update_end = marks
        self.profile.add_cycle(wake_late, overshoot, locked_at - start,
                               inputs_end - inputs_start, update_end - inputs_end,
                               end - start)

    def _update(self, pace_ns: Optional[int], clock=None):
        """
        Run one update at pacing time ``pace_ns`` (None: now).

        With ``clock`` (the profile), return the times (ns) the inputs were started and
        taken and the mode's update ended.
        """
        started = time.perf_counter()
        pace = self.tick_pace_ns = self.pace_ns() if pace_ns is None else pace_ns
        now = self.stamp_ns(pace)
        if self.jumps.observe(pace):
            self.clock_reset()
        if self._last_tick_ns is not None and pace - self._last_tick_ns > 1.5 * self.period_ns:
            self.loop_stats['late_ticks'] += 1
        self._last_tick_ns = pace
        self.loop_stats['ticks'] += 1
        marks = None
        try:
            # the inputs the callbacks handed over (input_slots.py), then the mode's update
            if clock is None:
                self._take_inputs()
                self._run_mode(now)
            else:
                marks = [clock()]
                self._take_inputs()
                marks.append(clock())
                self._run_mode(now)
                marks.append(clock())
        except Exception as exc:  # noqa: B902 - the node must keep running
            if marks is not None:  # the stages not reached end where the update failed
                marks += [clock()] * (3 - len(marks))
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
        self.loop_stats['max_update_s'] = max(self.loop_stats['max_update_s'], elapsed)
        if elapsed > self.period_ns * 1e-9:
            self.loop_stats['overruns'] += 1
        return marks

    def _take_inputs(self) -> None:
        for part in self.parts:
            part.take_inputs()

    def _run_mode(self, now: int) -> None:
        self.io.update(now)
        if self.mode == 'simulate' and self.io.mode.state_ns is not None:
            # the update's other outputs carry the state's simulated time, as odometry
            now = self.stamp_ns(self.io.mode.state_ns)
        if self.fins is not None:
            self.fins.update(now)
        for part in self.stack_outputs:
            part.update(now)

    # ------------------------------------------------------------------ slow outputs
    def _on_marker_timer(self) -> None:
        with self.lock:  # the wrench at the state; the markers are built outside the lock
            wc = self.io.components()
            # simulate mode: the state's time (behind the clock while the node is)
            at = self.io.mode.state_ns if self.mode == 'simulate' else None
        stamp = Time()  # the physics time under ArduPilot SITL
        conv.ns_to_stamp(stamp, self.now_ns() if at is None else self.stamp_ns(at))
        markers = self.markers.build(stamp,
                                     wc.components if wc is not None else None)
        self.marker_pub.publish(MarkerArray(markers=markers))
