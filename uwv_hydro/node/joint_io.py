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
Moving joints in simulate mode: Float64 commands per joint in, joint_states and TF out.

For a vehicle with a kinematic tree (``VehicleParams.tree``) the simulate mode is
:class:`~uwv_hydro.modes.articulated_simulate_mode.ArticulatedSimulateMode`.  Each moving
joint takes std_msgs/Float64 commands on ``joint_command_topic`` (``{joint}``, ``{model}``
substituted; default ``joints/{joint}``) followed by gz-sim's suffixes:
``/cmd_pos`` (position, JointPositionController), ``/cmd_vel`` (velocity,
JointController) and ``/cmd_force`` (effort, ApplyJointForce); gz-style:
``/model/{model}/joint/{joint}`` (gz-sim's JointPositionController topic with its
``/0`` index token dropped, as for fins).  sensor_msgs/JointState commands as
topic_based_ros2_control sends them: :mod:`uwv_hydro.node.ros2_control_io`.

Out: sensor_msgs/JointState of every moving joint on ``joint_states_topic`` (position,
velocity, effort = the joint torque or force) with every odometry message, so once
per integration step and stamped as that step's odometry (SimulateIO publishes every
state through its odometry, SimulateIO.state_followers); after every update, on
/tf, each moving joint's child link in the joint's parent link in the description
(which may be a link fixed to the parent body, e.g. an arm's base on the vehicle's
base link), as robot_state_publisher sends a joint, stamped as the base's odom ->
base transform of the same update.  Both go out as serialised bytes patched in place
(:mod:`uwv_hydro.node.serialized_message`: the names, frame ids and array lengths
are fixed), or as messages where that layout does not hold.  On /tf_static
(:func:`uwv_hydro.node.static_frames.static_frames`): every other link in the link it
hangs from in the description (robot_state_publisher's fixed joints).
"""
import math

from geometry_msgs.msg import TransformStamped
from rclpy.serialization import serialize_message
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64
from tf2_msgs.msg import TFMessage

from uwv_hydro.modes.messages import msg_conversions as conv
from uwv_hydro.node.input_slots import LatestSlots
from uwv_hydro.node.node_part import NodePart
from uwv_hydro.node.serialized_message import SerializedMessage
from uwv_hydro.node.simulate_io import TF_QOS
from uwv_hydro.node.static_frames import transform_stamped
from uwv_hydro.physics.spatial.rotation import matrix_to_quat

#: gz-sim's command topic suffix -> joint command kind.
SUFFIXES = (('cmd_pos', 'position'), ('cmd_vel', 'velocity'), ('cmd_force', 'effort'))


def fill_joint_state(msg: JointState, stamp_ns: int, values) -> None:
    """Write a stamp and the positions, velocities, efforts (n each, in turn) into msg."""
    conv.ns_to_stamp(msg.header.stamp, stamp_ns)
    n = len(msg.name)
    msg.position = [float(v) for v in values[:n]]
    msg.velocity = [float(v) for v in values[n:2 * n]]
    msg.effort = [float(v) for v in values[2 * n:3 * n]]


def fill_transforms(msg: TFMessage, stamp_ns: int, values) -> None:
    """Write a stamp and each transform's translation and rotation xyzw (7 values each)."""
    for k, t in enumerate(msg.transforms):
        conv.ns_to_stamp(t.header.stamp, stamp_ns)
        v, q = t.transform.translation, t.transform.rotation
        v.x, v.y, v.z, q.x, q.y, q.z, q.w = values[7 * k:7 * k + 7]


def joint_transforms_message(frames) -> TFMessage:
    """Return a TFMessage of one transform per (parent frame, child frame) in ``frames``."""
    msg = TFMessage(transforms=[TransformStamped() for _ in frames])
    for t, (parent, child) in zip(msg.transforms, frames):
        t.header.frame_id, t.child_frame_id = parent, child
    return msg


def transform_values(transforms) -> list:
    """Return the 7 values per (parent, child, position, quaternion wxyz) transform."""
    out = []
    for _, _, p, q in transforms:
        out += [float(p[0]), float(p[1]), float(p[2]),
                float(q[1]), float(q[2]), float(q[3]), float(q[0])]
    return out


class JointIO(NodePart):
    """Joint command subscriptions, joint_states and the moving links' TF."""

    def __init__(self, node, io):
        super().__init__(node)
        cfg = self.cfg
        self.mode = io.mode  # the mode's part (node.io)
        self.prefix = cfg['frame_prefix']
        self._slots = LatestSlots()
        self.topics = {}
        for k, name in enumerate(self.mode.joint_names):
            try:
                base = cfg['joint_command_topic'].format(joint=name, model=node.vehicle.name)
            except (KeyError, IndexError, ValueError) as exc:
                raise ValueError('joint_command_topic %r: only {joint} and {model} can be '
                                 'substituted (%s)' % (cfg['joint_command_topic'], exc)) from None
            for suffix, kind in SUFFIXES:
                topic = base.rstrip('/') + '/' + suffix
                if topic in self.topics:
                    raise ValueError('joint_command_topic %r gives two joints the topic %r: '
                                     'use {joint}' % (cfg['joint_command_topic'], topic))
                self.topics[topic] = (k, kind)
                try:
                    node.create_subscription(
                        Float64, topic, lambda msg, k=k, kind=kind, topic=topic:
                            self._on_command(msg, k, kind, topic), 10)
                except Exception as exc:  # noqa: B902 - rclpy's invalid-name exceptions
                    raise ValueError('joint_command_topic %r gives joint %s the topic %r: %s'
                                     % (cfg['joint_command_topic'], name, topic, exc)) from None
                self.add_input(topic)
        self.state_pub = node.create_publisher(JointState, cfg['joint_states_topic'], 10)
        self.tf_pub = node.create_publisher(TFMessage, '/tf', TF_QOS) if cfg['publish_tf'] \
            else None
        self.rejected = 0
        self._last_ns = None
        n = len(self.mode.joint_names)
        self._state_msg = JointState(name=list(self.mode.joint_names))
        # the layouts are fixed (names, frames, lengths): patched bytes (None: messages)
        self._state_wire = SerializedMessage.create(self._state_msg, fill_joint_state,
                                                    (n, n, n))
        frames = [(self.prefix + parent, self.prefix + child)
                  for parent, child, _, _ in self.mode.joint_transforms()]
        self._tf_msg = joint_transforms_message(frames)
        self._tf_wire = SerializedMessage.create(self._tf_msg, fill_transforms,
                                                 (7,) * len(frames), len(frames)) \
            if frames else None
        # joint_states with every odometry message (each step), its stamp
        io.state_followers.append(self.publish_joint_state)
        self.logger.info('moving joints %s: Float64 commands on %s/{cmd_pos,cmd_vel,cmd_force}'
                         ', JointState on %s' % (', '.join(self.mode.joint_names),
                                                 cfg['joint_command_topic'],
                                                 cfg['joint_states_topic']))

    def _on_command(self, msg: Float64, index: int, kind: str, topic: str) -> None:
        # executor thread, no state lock: checked here, handed over in a slot
        value = float(msg.data)
        if not math.isfinite(value):
            self.rejected += 1
            self.node.drop(topic, 'non_finite')
            return
        self._slots.put(index, (kind, value))
        self.node.inputs[topic].received(self.node.now_ns())

    def command(self, index: int, kind: str, value: float) -> None:
        """Hand a command over to the next update (ros2_control's decoder uses it too)."""
        self._slots.put(index, (kind, value))

    def take_inputs(self) -> None:
        """Give the mode the latest command of each joint received since the last update."""
        for index, (kind, value) in self._slots.take():
            self.mode.command(index, kind, value)

    def reset(self) -> None:
        """Forget the commands not taken (the mode's reset holds the initial positions)."""
        self._slots.clear()
        self._last_ns = None

    def static_transforms(self, stamp) -> list:
        """Return every link fixed in a body in the link it hangs from (/tf_static)."""
        return [transform_stamped(stamp, self.prefix + parent, self.prefix + link, position,
                                  matrix_to_quat(rotation))
                for parent, link, position, rotation
                in self.mode.dynamics.tree.fixed_link_frames()]

    def publish_joint_state(self, stamp_ns: int) -> None:
        """Publish the mode's joint positions, speeds and efforts stamped ``stamp_ns``."""
        mode = self.mode
        values = mode.q.tolist() + mode.qd.tolist() + mode.efforts.tolist()
        if self._state_wire is not None:
            self.node.outbox.publish(self.state_pub, self._state_wire.pack(stamp_ns, values))
            return
        fill_joint_state(self._state_msg, stamp_ns, values)
        self.node.outbox.publish(self.state_pub, serialize_message(self._state_msg))

    def update(self, now: int) -> None:
        """Publish the moving joints' transforms of the state (once per update)."""
        mode = self.mode
        if self.tf_pub is None or mode.state_ns is None or mode.state_ns == self._last_ns:
            return  # no new state (tf2 refuses a transform repeated at one stamp)
        self._last_ns = mode.state_ns
        stamp_ns = self.node.stamp_ns(mode.state_ns)
        values = transform_values(mode.joint_transforms())
        if self._tf_wire is not None:
            self.node.outbox.publish(self.tf_pub, self._tf_wire.pack(stamp_ns, values))
            return
        fill_transforms(self._tf_msg, stamp_ns, values)
        self.node.outbox.publish(self.tf_pub, serialize_message(self._tf_msg))

    def snapshot(self, snap: dict) -> None:
        """Add each joint's command, position and speed."""
        mode = self.mode
        snap['joints'] = {name: {'command': mode.kinds[k], 'value': float(mode.values[k]),
                                 'position': float(mode.q[k]), 'velocity': float(mode.qd[k]),
                                 'effort': float(mode.efforts[k])}
                          for k, name in enumerate(mode.joint_names)}
        snap['joints_rejected'] = self.rejected
