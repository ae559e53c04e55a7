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
ros2_control (simulate mode): the topics of topic_based_ros2_control's TopicBasedSystem.

With ``ros2_control`` true the node stands in for the robot behind a
``topic_based_ros2_control/TopicBasedSystem`` hardware interface: it takes
sensor_msgs/JointState commands on ``ros2_control_commands_topic`` (default
``/robot_joint_commands``) -- thruster joints: effort = thrust (or the thruster
model's command), velocity = rotor speed for ``use_angvel_cmd`` thrusters; fin
joints: position = deflection; the moving joints of a vehicle with moving links: the
value of ``ros2_control_joint_interface`` -- and publishes the JointState of every
thruster, fin and moving joint on ``ros2_control_states_topic`` (default
``/robot_joint_states``) after each update.  The decoding rules are
:class:`uwv_hydro.modes.joint_state_io.JointCommands`; a thruster command goes through
the same watchdog (``thruster_timeout``) as its Float64 command, a fin command through
the fin servos, a moving joint's is that joint's command (``node/joint_io.py``).
The commands are taken as serialised bytes (:mod:`uwv_hydro.node.joint_state_input`:
names read once per layout, the arrays at their offsets; unreadable bytes are
dropped as ``malformed``) and the states go out as serialised bytes patched in place
(:mod:`uwv_hydro.node.serialized_message`), or as messages where that layout does not
hold.
"""
import numpy as np
from rclpy.serialization import serialize_message
from sensor_msgs.msg import JointState

from uwv_hydro.modes.joint_state_io import INTERFACES, joint_state_arrays, JointCommands
from uwv_hydro.node.joint_io import fill_joint_state
from uwv_hydro.node.joint_state_input import JointStateInput
from uwv_hydro.node.node_part import locked, NodePart
from uwv_hydro.node.serialized_message import SerializedMessage


class Ros2ControlIO(NodePart):
    """JointState commands to thrusters, fins and moving joints; their JointState out."""

    def __init__(self, node, thrusters, fins, joints=None):
        super().__init__(node)
        cfg = self.cfg
        self.thrusters = thrusters
        self.fins = fins
        #: the moving joints' part (node/joint_io.py) of a vehicle with moving links
        self.joints = joints
        specs = node.vehicle.thrusters if thrusters is not None else ()
        fin_names = list(fins.servos.names) if fins is not None else []
        joint_names = list(joints.mode.joint_names) if joints is not None else []
        self.interface = cfg['ros2_control_joint_interface']
        self.decoder = JointCommands(specs, fin_names,
                                     [(name, self.interface) for name in joint_names])
        self.topic = cfg['ros2_control_commands_topic']
        self.add_input(self.topic)
        # serialised bytes; where each layout's commands lie worked out once
        self.commands = JointStateInput(lambda layout: self.decoder.plan(
            layout.names, dict(zip(INTERFACES, layout.counts))))
        node.create_subscription(JointState, self.topic, self._on_commands, 10, raw=True)
        self.pub = node.create_publisher(JointState, cfg['ros2_control_states_topic'], 10)
        self._msg = JointState(name=[s.joint_name for s in specs] + fin_names + joint_names)
        n = len(self._msg.name)
        self._wire = SerializedMessage.create(self._msg, fill_joint_state, (n, n, n))
        self.logger.info('ros2_control: JointState commands on %s, states on %s (%s)' % (
            self.topic, cfg['ros2_control_states_topic'], ', '.join(self._msg.name)))

    @locked
    def _on_commands(self, raw: bytes) -> None:
        node = self.node
        reading = self.commands.read_or_drop(raw, node, self.topic)
        if reading is None:
            return
        names, position, velocity, effort, plan = reading
        arrays = {'position': position, 'velocity': velocity, 'effort': effort}
        reason, commands = self.decoder.decode(names, arrays) if plan is None else \
            self.decoder.take(plan, arrays)
        if reason is not None:
            node.drop(self.topic, reason, ' (%d names, %d/%d/%d values)' % (
                len(names), len(position), len(velocity), len(effort)))
            return
        pace = node.pace_ns()
        for kind, index, value in commands:
            if kind == 'thruster':
                self.thrusters.drive.command(self.thrusters.drive.names[index], value, pace)
            elif kind == 'joint':
                self.joints.command(index, self.interface, value)
            else:
                self.fins.servos.command(index, value, pace * 1e-9)
        node.inputs[self.topic].received(node.now_ns())

    def update(self, now: int) -> None:
        """Publish the joint states (stamped now)."""
        if self.thrusters is not None:
            bank = self.thrusters.drive.bank
            thrust, omega, angle = bank.thrust, bank.omega, self.thrusters.rotor_angle
        else:
            thrust = omega = angle = np.zeros(0)
        if self.fins is not None:
            fin_angles, fin_rates = self.fins.servos.angles, self.fins.servos.rates
        else:
            fin_angles = fin_rates = []
        mode = self.joints.mode if self.joints is not None else None
        joints = ((), (), ()) if mode is None else (mode.q, mode.qd, mode.efforts)
        position, velocity, effort = joint_state_arrays(
            thrust, omega, angle, fin_angles, fin_rates, joints)
        values = position + velocity + effort
        if self._wire is not None:
            self.node.outbox.publish(self.pub, self._wire.pack(now, values))
            return
        fill_joint_state(self._msg, now, values)
        self.node.outbox.publish(self.pub, serialize_message(self._msg))
