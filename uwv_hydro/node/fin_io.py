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
Fin servo I/O: one std_msgs/Float64 angle command per fin in, sensor_msgs/JointState out.

Commands are joint positions in radians (ds_sim servo / gz-sim JointPositionController
semantics) on ``fin_command_topic`` with ``{joint}`` (the fin's joint name) and
``{model}`` (the vehicle name) substituted: ``fins/{joint}/cmd_pos`` by default, or
gz-style ``/model/{model}/joint/{joint}/cmd_pos`` (gz-sim's JointPositionController
listens on ``.../joint/{joint}/0/cmd_pos``, which is no valid ROS 2 name: a bridge maps
it).  A fin whose SDF model has a JointPositionController listens, while
``fin_command_topic`` keeps its default, on that controller's topic as a ROS 2 name
(``/model/{model}/joint/{joint}/cmd_pos`` for gz-sim's default, the ``/0`` index token
dropped: :func:`uwv_hydro.description.sdf.joint_controller.ros_fin_topic`).  The
servos (:class:`uwv_hydro.modes.fin_servos.FinServos`: joint limits, rate
limit, first-order lag, watchdog) step once per update: in simulate mode inside
:class:`~uwv_hydro.modes.simulate_mode.SimulateMode` (before every integration step),
in wrench mode here, handing their angles to the wrench evaluation.  The actual angles
go out as JointState on ``fin_joint_state_topic`` (robot_state_publisher moves the fin
links); /diagnostics shows each fin's command, angle and watchdog state.
"""
import math

from sensor_msgs.msg import JointState
from std_msgs.msg import Float64

from uwv_hydro.description.sdf.joint_controller import ros_fin_topic
from uwv_hydro.modes.fin_servos import FinServos
from uwv_hydro.modes.messages import msg_conversions as conv
from uwv_hydro.node.input_slots import LatestSlots
from uwv_hydro.node.node_part import NodePart
from uwv_hydro.node.parameters import DEFAULT_FIN_TOPIC


class FinIO(NodePart):
    """Fin command subscriptions, the servos and the JointState publisher."""

    def __init__(self, node, io):
        super().__init__(node)
        cfg = self.cfg
        fins = node.vehicle.fins
        self.servos = FinServos(fins, cfg['fin_command_timeout'], cfg['fin_timeout_action'])
        mode = io.mode  # the mode's part (node.io)
        #: simulate mode steps the servos with the vehicle; wrench mode steps them here
        self._in_simulation = hasattr(mode, 'servos')
        if self._in_simulation:
            mode.servos = self.servos
        self._last_ns = None
        # accepted commands, handed to the update without the state lock
        self._command_slots = LatestSlots()
        self.topics = {}
        for k, fin in enumerate(fins):
            if fin.lower == fin.upper:
                continue  # a fixed lifting surface has no servo
            if fin.command_topic and cfg['fin_command_topic'] == DEFAULT_FIN_TOPIC:
                # the model's JointPositionController topic, as a ROS 2 name
                self.topics[fin.name] = ros_fin_topic(fin.command_topic)
                node.create_subscription(
                    Float64, self.topics[fin.name],
                    lambda msg, k=k, topic=self.topics[fin.name]:
                        self._on_fin_command(msg, k, topic), 10)
                self.add_input(self.topics[fin.name])
                continue
            try:
                topic = cfg['fin_command_topic'].format(joint=fin.name,
                                                        model=node.vehicle.name)
            except (KeyError, IndexError, ValueError) as exc:
                raise ValueError('fin_command_topic %r: only {joint} and {model} can be '
                                 'substituted (%s)' % (cfg['fin_command_topic'], exc)) from None
            if topic in self.topics.values():
                raise ValueError('fin_command_topic %r gives two fins the topic %r: use '
                                 '{joint}' % (cfg['fin_command_topic'], topic))
            self.topics[fin.name] = topic
            try:
                node.create_subscription(
                    Float64, topic,
                    lambda msg, k=k, topic=topic: self._on_fin_command(msg, k, topic), 10)
            except Exception as exc:  # noqa: B902 - rclpy's invalid-name exceptions
                raise ValueError('fin_command_topic %r gives fin %s the topic %r: %s'
                                 % (cfg['fin_command_topic'], fin.name, topic, exc)) from None
            self.add_input(topic)
        self.joint_pub = node.create_publisher(JointState, cfg['fin_joint_state_topic'], 10)
        self._joint_names = list(self.servos.names)

    def _on_fin_command(self, msg: Float64, index: int, topic: str) -> None:
        # executor thread, no state lock: checked here, handed over in a slot
        node = self.node
        angle = float(msg.data)
        if not math.isfinite(angle):
            self.servos.rejected += 1  # as FinServos.command counts it (only here now)
            node.drop(topic, 'non_finite')
            return
        # commands are timed on the pacing clock, as the servos and SimulateMode step
        self._command_slots.put(index, (angle, node.pace_ns() * 1e-9))
        node.inputs[topic].received(node.now_ns())

    def take_inputs(self) -> None:
        """Give the servos the latest command of each fin received since the last update."""
        for index, (angle, t) in self._command_slots.take():
            self.servos.command(index, angle, t)

    def reset(self) -> None:
        """Centre the fins and forget the commands."""
        self._command_slots.clear()
        self.servos.reset()
        self._last_ns = None

    def update(self, now: int) -> None:
        """Step the servos (wrench mode) and publish the actual fin angles (stamped now)."""
        if not self._in_simulation:
            pace = self.node.tick_pace_ns
            if self._last_ns is not None and pace > self._last_ns:
                self.servos.step((pace - self._last_ns) * 1e-9, self._last_ns * 1e-9)
            self._last_ns = pace
            self.node.io.mode.fin_angles = self.servos.angles
        # a new message each update
        msg = JointState(name=self._joint_names)
        conv.ns_to_stamp(msg.header.stamp, now)
        msg.position = [float(a) for a in self.servos.angles]
        msg.velocity = [float(r) for r in self.servos.rates]
        self.node.outbox.publish(self.joint_pub, msg)

    def snapshot(self, snap: dict) -> None:
        """Add each fin's command, angle and watchdog state."""
        stale = self.servos.stale(self.node.pace_ns() * 1e-9)
        fins = {}
        for k, name in enumerate(self.servos.names):
            fins[name] = {'command': float(self.servos.commands[k]),
                          'angle': float(self.servos.angles[k]),
                          'state': 'stale' if stale[k] else 'ok'}
            topic = self.topics.get(name)
            if topic is not None and topic in snap['inputs'] and stale[k]:
                snap['inputs'][topic]['state'] = 'stale'
        snap['fins'] = {'fins': fins, 'on_timeout': self.servos.on_timeout,
                        'timeout_s': self.servos.timeout, 'rejected': self.servos.rejected,
                        'clamped': self.servos.clamped}
