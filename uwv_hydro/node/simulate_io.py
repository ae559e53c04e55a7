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
Simulate mode I/O: thruster wrenches in, odometry and TF out.

The vehicle is :class:`uwv_hydro.modes.simulate_mode.SimulateMode` (also run by the
offline ``simulate``): each update brings its state to the node clock, publishing
odometry for every integration step (stamps one period apart) and TF for the last.

Thruster drivers publish geometry_msgs/WrenchStamped on each of ``thrust_topics`` with
``header.frame_id`` = the thruster link; the wrench is moved to the base through the
URDF's fixed-joint chain and summed (:class:`uwv_hydro.modes.thrust_mux.ThrustMux`,
which also zeroes a topic silent for ``thrust_timeout``).
"""
from geometry_msgs.msg import TransformStamped, WrenchStamped
from nav_msgs.msg import Odometry
import numpy as np
from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy
from rclpy.serialization import serialize_message
from tf2_msgs.msg import TFMessage

from uwv_hydro.modes.messages import msg_conversions as conv
from uwv_hydro.modes.seabed_landing import land
from uwv_hydro.modes.simulate_mode import SimulateMode
from uwv_hydro.modes.thrust_mux import ThrustMux
from uwv_hydro.node.input_slots import LatestSlots
from uwv_hydro.node.node_part import NodePart
from uwv_hydro.node.parameters import joint_start
from uwv_hydro.node.seabed_source import node_seabed
from uwv_hydro.node.sensor_io import SensorIO
from uwv_hydro.node.serialized_message import SerializedMessage
from uwv_hydro.physics.body.dynamics import State
from uwv_hydro.physics.spatial.rotation import quat_from_rpy

#: QoS of tf2_ros' TransformBroadcaster.
TF_QOS = QoSProfile(depth=100, reliability=ReliabilityPolicy.RELIABLE,
                    durability=DurabilityPolicy.VOLATILE, history=HistoryPolicy.KEEP_LAST)


def _always(pace_ns: int) -> bool:
    """Return True: every state is published."""
    return True


def _pose_twist(x) -> tuple:
    """Return position, quaternion [x, y, z, w] and twist of the 13-float state ``x``."""
    return (x[0], x[1], x[2], x[4], x[5], x[6], x[3], *x[7:13])


def _fill_odometry(msg: Odometry, stamp_ns: int, values) -> None:
    """Write a stamp, the pose (position, quaternion xyzw) and the twist into odometry."""
    conv.ns_to_stamp(msg.header.stamp, stamp_ns)
    pose = msg.pose.pose
    pose.position.x, pose.position.y, pose.position.z = values[0:3]
    q = pose.orientation
    q.x, q.y, q.z, q.w = values[3:7]
    conv.fill_twist(msg.twist.twist, values[7:13])


def _fill_tf(msg: TFMessage, stamp_ns: int, values) -> None:
    """Write a stamp and the pose (position, quaternion xyzw) into the one transform."""
    t = msg.transforms[0]
    conv.ns_to_stamp(t.header.stamp, stamp_ns)
    v = t.transform.translation
    v.x, v.y, v.z = values[0:3]
    q = t.transform.rotation
    q.x, q.y, q.z, q.w = values[3:7]


class SimulateIO(NodePart):
    """Thrust subscriptions, SimulateMode, odometry and TF publishers."""

    def __init__(self, node, current):
        super().__init__(node)
        cfg = self.cfg
        common = {'dt': node.period_ns * 1e-9, 'substeps': cfg['substeps'],
                  'max_catchup_steps': cfg['max_catchup_steps'],
                  'initial': self.initial_state(), 'log': node.log_throttled}
        if node.vehicle.tree is None:
            self.mode = SimulateMode(node.vehicle, **common)
        else:  # moving links: the floating base with its joints (node/joint_io.py)
            # Pinocchio is loaded only for such a vehicle
            from uwv_hydro.modes.articulated_simulate_mode import ArticulatedSimulateMode
            self.mode = ArticulatedSimulateMode(
                node.vehicle, added_mass=cfg['joint_added_mass'],
                servo_bandwidth=cfg['joint_servo_bandwidth'],
                joint_positions=joint_start(cfg, node.vehicle), **common)
        # the seabed (seabed_file): under the DVLs, and the vehicle lands on it
        self.seabed = node_seabed(node)
        land(self.mode, node.vehicle, self.seabed[0] if self.seabed else None,
             node.log_throttled)
        # the current description's field, sampled at every step (node.current)
        self.mode.field = current.field
        self._report_substeps(cfg['substeps'])
        self.mux = ThrustMux(cfg['thrust_topics'], cfg['thrust_timeout'])
        # accepted thrust wrenches, handed to the update without the state lock
        self._thrust_slots = LatestSlots()
        self.odom_pub = node.create_publisher(Odometry, 'odometry', 10)
        self.tf_pub = node.create_publisher(TFMessage, '/tf', TF_QOS) if cfg['publish_tf'] \
            else None
        for topic in cfg['thrust_topics']:
            self.add_input(topic)
            node.create_subscription(WrenchStamped, topic,
                                     lambda msg, topic=topic: self._on_thrust(msg, topic), 10)
        self._odom_msg = Odometry()
        self._odom_msg.header.frame_id = node.odom_frame
        self._odom_msg.child_frame_id = node.base_frame
        pose_cov = np.diag(cfg['pose_covariance_diagonal']).reshape(36)
        twist_cov = np.diag(cfg['twist_covariance_diagonal']).reshape(36)
        self._odom_msg.pose.covariance = [float(v) for v in pose_cov]
        self._odom_msg.twist.covariance = [float(v) for v in twist_cov]
        self._tf = TFMessage(transforms=[TransformStamped()])
        self._tf.transforms[0].header.frame_id = node.odom_frame
        self._tf.transforms[0].child_frame_id = node.base_frame
        # both go out every cycle as serialised bytes patched in place (None: as messages)
        self._odom_wire = SerializedMessage.create(self._odom_msg, _fill_odometry, (7, 6))
        self._tf_wire = SerializedMessage.create(self._tf, _fill_tf, (7,))
        # navigation sensors sampled from every published state (node/sensor_io.py)
        self.sensors = SensorIO(node, self.mode) if node.vehicle.sensors \
            else None
        #: f(pacing ns) -> whether odometry and TF go out at that state (every state by
        #: default; the SITL backend publishes at its own rate, node/sitl_json_io.py)
        self.output_due = _always
        #: f(stamp ns) called after each state's odometry, with the mode at that state
        #: (joint_states of a vehicle whose links move: node/joint_io.py)
        self.state_followers = []
        #: the clock time the state started at; (simulated, lag) ns at the last lag
        #: warning and at the last /diagnostics window (reset with the state)
        self._clock_start = 0
        self._lag_mark = self._window = None
        #: one update cycle's and one physics step's CPU cost measured at start (s;
        #: node/step_cost.py), None if not measured
        self.step_cost_s = self.step_physics_cost_s = None
        #: whether the last update left steps due unsimulated (the simulation is behind)
        self.behind = False

    def _report_substeps(self, requested: int) -> None:
        mode = self.mode
        lam, dt = mode.stiffness_per_s, mode.dt
        if mode.substeps > requested:
            self.logger.info(
                'stiffest mode |lambda| = %.6g 1/s: %d RK4 sub-steps per %.6g s update '
                '(substeps parameter %d) keep |lambda| h <= 2.5'
                % (lam, mode.substeps, dt, requested))

    def initial_state(self) -> State:
        """Return the state given by the initial_* parameters."""
        cfg = self.cfg
        return State(position=np.array(cfg['initial_position'], dtype=float),
                     quaternion=quat_from_rpy(*cfg['initial_orientation_rpy']),
                     twist=np.array(cfg['initial_velocity'], dtype=float))

    def reset(self) -> None:
        """Return to the initial_* state and forget the thrust inputs."""
        self._thrust_slots.clear()
        self.mux.clear()
        self.mode.reset(self.initial_state())
        if self.sensors is not None:
            self.sensors.reset()

    def components(self):
        """Return the hydro wrench components at the simulated state (None before start)."""
        if self.mode.state_ns is None:
            return None
        return self.mode.components(self.node.current.world())

    def _on_thrust(self, msg: WrenchStamped, topic: str) -> None:
        profile = self.node.profile  # the debug cycle profile: mark the section
        if profile is None:
            self._accept_thrust(msg, topic)
            return
        profile.enter('input')
        self._accept_thrust(msg, topic)
        profile.leave()

    def _accept_thrust(self, msg: WrenchStamped, topic: str) -> None:
        # executor thread, no state lock: checked here, handed over in a slot
        node = self.node
        w = conv.wrench_to_array(msg.wrench)
        if not np.all(np.isfinite(w)):
            node.drop(topic, 'non_finite')
            return
        w_base = node.frames.to_base(msg.header.frame_id, w)
        if w_base is None:
            node.drop(topic, 'unknown_frame', ' (frame %r is not a fixed frame of %s)'
                      % (msg.header.frame_id, node.vehicle.base_frame))
            return
        if not node.stamp_ok(topic, msg.header):
            return
        # received on the watchdog's clock; the mux takes it at the next update
        self._thrust_slots.put(topic, (w_base, node.pace_ns()))
        node.inputs[topic].received(node.now_ns())

    def take_inputs(self) -> None:
        """Give the thrust mux the latest wrench of each topic received since the last update."""
        for topic, (w_base, received_ns) in self._thrust_slots.take():
            self.mux.update(topic, w_base, received_ns)

    def _thrust(self, now: int) -> np.ndarray:
        tau, went_stale, recovered = self.mux.total(now)
        for topic in went_stale:
            if self.node.throttle.ready((topic, 'watchdog')):
                self.logger.warning('thrust topic %s silent for more than %g s: it '
                                    'contributes zero' % (topic, self.cfg['thrust_timeout']))
        for topic in recovered:
            self.logger.info('thrust topic %s is back' % topic)
        return tau

    def update(self, now: int) -> None:
        """Bring the vehicle to the tick; publish odometry per step and TF for the last."""
        mode = self.mode
        pace = self.node.tick_pace_ns  # the state is kept on the pacing clock
        self.behind = False
        if mode.state_ns is None:
            self._clock_start = mode.advance(pace)
            self._lag_mark = None
            self._window = (mode.state_ns, mode.lag_ns)  # the first window from here
            self._publish_due(self._clock_start)
            return
        if mode.due(pace) <= 0:
            return
        lag = mode.lag_ns
        current = self.node.current.world()
        thrusters = self.node.thrusters
        # the thrusters' inflow: the current at the state (a field: held over the update)
        inflow = current if current is not None or mode.field is None else (
            mode.field_sample().velocity)
        per_step = None if thrusters is None else thrusters.per_step(pace, inflow)
        stamp = mode.advance(pace, self._thrust(pace), current, on_step=self._publish_odometry,
                             thrust=per_step)
        # behind: steps due were not simulated (the rate loop then rests, rate_loop.py)
        self.behind = mode.lag_ns > lag
        if self.behind:
            self._report_lag()
        elif lag and not mode.lag_ns:
            self.logger.info('the simulation is back on the clock (%d lagged steps simulated '
                             'since the start; at most max_catchup_steps = %d steps per '
                             'update)' % (mode.events['recovered_steps'],
                                          mode.max_catchup_steps))
        if stamp is None:
            return
        if not self._publish_due(stamp):
            return
        if thrusters is not None:
            thrusters.publish()
        self.node.current.publish(self.node.stamp_ns(stamp), mode.current_at_state(current)[0])
        if self.node.component_pubs:
            self.node.publish_components(self.components().components,
                                         self.node.stamp_ns(stamp))

    def _report_lag(self) -> None:
        """Warn (throttled) that the simulated time fell behind the clock, with the factor."""
        mode, node = self.mode, self.node
        if not node.throttle.ready('falling_behind'):
            return
        # simulated time over clock time since the last warning (or since the start)
        sim, clock = mode.state_ns, mode.state_ns + mode.lag_ns
        mark = self._lag_mark or (self._clock_start, self._clock_start)
        factor = (sim - mark[0]) / max(clock - mark[1], 1)
        self._lag_mark = (sim, clock)
        self.logger.warning(
            'the simulation cannot keep up with the clock: real-time factor %.3g over the last '
            '%.3g s (at most max_catchup_steps = %d steps of %g s per update); the simulated '
            'time, which stamps odometry and every output, is %.6g s behind the clock '
            '(%d steps not simulated so far); lower rate_hz, or raise max_catchup_steps '
            'when the clock itself comes in larger jumps (a /clock slower than rate_hz)' % (
                factor, (clock - mark[1]) * 1e-9, mode.max_catchup_steps, mode.dt,
                mode.lag_ns * 1e-9, mode.events['lagged_steps']))

    def _publish_odometry(self, pace_ns: int) -> int:
        """Publish the state as odometry of pacing time ``pace_ns``; return its stamp."""
        stamp_ns = self.node.stamp_ns(pace_ns)
        values = _pose_twist(self.mode.x)
        outbox = self.node.outbox  # published at once (outbox.py)
        if self._odom_wire is not None:
            outbox.publish(self.odom_pub, self._odom_wire.pack(stamp_ns, values))
        else:  # the message object is reused: its bytes are what is published
            _fill_odometry(self._odom_msg, stamp_ns, values)
            outbox.publish(self.odom_pub, serialize_message(self._odom_msg))
        if self.sensors is not None:
            self.sensors.sample(pace_ns, stamp_ns)
        for follow in self.state_followers:
            follow(stamp_ns)
        return stamp_ns

    def _publish_due(self, pace_ns: int) -> bool:
        """Publish the state when its outputs are due, else only sample the sensors."""
        if self.output_due(pace_ns):
            self._publish_state(pace_ns)
            return True
        if self.sensors is not None:
            self.sensors.sample(pace_ns, self.node.stamp_ns(pace_ns))
        return False

    def _publish_state(self, pace_ns: int) -> None:
        stamp_ns = self._publish_odometry(pace_ns)
        if self.tf_pub is not None:
            values = _pose_twist(self.mode.x)[:7]
            if self._tf_wire is not None:
                self.node.outbox.publish(self.tf_pub, self._tf_wire.pack(stamp_ns, values))
            else:
                _fill_tf(self._tf, stamp_ns, values)
                self.node.outbox.publish(self.tf_pub, serialize_message(self._tf))

    def snapshot(self, snap: dict) -> None:
        """Add the watchdog states, the step events and the sub-step figures."""
        snap['watchdog'] = {t: self.mux.state(t) for t in self.mux.inputs}
        for name in self.mux.inputs:
            snap['inputs'][name]['state'] = self.mux.state(name)
        snap['events'].update(self.mode.events)
        loop, mode = snap['loop'], self.mode
        loop['rk4_substeps'] = mode.substeps
        loop['stiffness_per_s'] = mode.stiffness_per_s
        if self.step_cost_s is not None:
            loop['step_cost_us'] = self.step_cost_s * 1e6
            loop['step_physics_cost_us'] = self.step_physics_cost_s * 1e6
        if mode.state_ns is not None:
            # simulated time over clock time in the window: 1 while the node keeps up
            loop['simulated_lag_s'] = mode.lag_ns * 1e-9
            window, self._window = self._window, (mode.state_ns, mode.lag_ns)
            if window is not None and mode.state_ns > window[0]:
                simulated = mode.state_ns - window[0]
                loop['simulated_time_factor'] = simulated / (simulated + mode.lag_ns - window[1])
        if self.sensors is not None:
            self.sensors.snapshot(snap)
