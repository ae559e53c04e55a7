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
Wrench mode of a vehicle whose links move: joint states in, a wrench per link out.

With ``vehicle.tree`` set, :class:`uwv_hydro.node.wrench_io.WrenchIO` runs
:class:`~uwv_hydro.modes.link_wrench_mode.LinkWrenchMode` and this part:

* takes sensor_msgs/JointState on ``joint_states_topic`` (default ``joint_states``:
  gz-sim's JointStatePublisher through ros_gz_bridge, or a robot driver), joints
  matched by name under LinkWrenchMode's rules.  A message with an array of the wrong
  length or a NaN/inf value of a joint used is dropped whole and counted (``bad_length``,
  ``non_finite`` in /diagnostics) with a throttled warning; an unknown name is warned
  about once.  No stamp rule applies: several publishers may share the topic, and the
  latest value of each joint is used.  The messages are taken as serialised bytes
  (:mod:`uwv_hydro.node.joint_state_input`): the names are matched once per layout,
  then each message's arrays are read at their offsets; unreadable bytes are dropped
  (``malformed``).
* with every base wrench, publishes each wrench link's own wrench as
  geometry_msgs/WrenchStamped on ``hydro/links/<link>/wrench`` (frame_id: the link,
  prefixed; about the link origin; other characters than letters, digits and ``_`` in
  ``<link>`` replaced by ``_``), as serialised bytes patched in place
  (:mod:`uwv_hydro.node.serialized_message`; why: doc/guide/performance.md).  A link
  topic nobody subscribes to is not published (as image_transport does); subscribers
  are looked up every ``LISTENER_REFRESH_S``;
* with ``gz_entity_wrench``, publishes one EntityWrench per body (``<model>::<body's
  root link>``, world axes, about its origin or, with ``gz_wrench_point: com``, its
  centre of mass) instead of the base's single one: the bodies are the engine's links
  (gz-sim merges links joined by fixed joints), and their wrenches sum to the total, so
  nothing is applied twice.
"""
import time

from geometry_msgs.msg import WrenchStamped
import numpy as np
from sensor_msgs.msg import JointState

from uwv_hydro.modes.link_wrench_mode import LINK_TOPIC, topic_token
from uwv_hydro.modes.messages import msg_conversions as conv
from uwv_hydro.node.joint_state_input import JointStateInput
from uwv_hydro.node.node_part import NodePart
from uwv_hydro.node.serialized_message import SerializedMessage

#: Seconds between two lookups of the link topics' subscriber counts.
LISTENER_REFRESH_S = 0.5


def _fill_wrench(msg: WrenchStamped, stamp_ns: int, values) -> None:
    """Write a stamp and the wrench (force, torque) into a WrenchStamped."""
    conv.ns_to_stamp(msg.header.stamp, stamp_ns)
    conv.fill_wrench(msg.wrench, values)


def _wire(frame: str):
    """Return the patchable serialised WrenchStamped of ``frame`` (None: not possible)."""
    msg = WrenchStamped()
    msg.header.frame_id = frame
    return SerializedMessage.create(msg, _fill_wrench, (6,))


class LinkWrenchIO(NodePart):
    """JointState subscription, per-link WrenchStamped and per-body EntityWrench outputs."""

    def __init__(self, node, mode, gz=None):
        super().__init__(node)
        self.mode = mode
        self.gz = gz
        self.topic = self.cfg['joint_states_topic']
        self.stats = self.add_input(self.topic)
        # serialised bytes; each layout's names mapped to the joints once
        self.joint_states = JointStateInput(lambda layout: mode.joint_state_rows(layout.names))
        node.create_subscription(JointState, self.topic, self._on_joint_state, 10, raw=True)
        prefix = self.cfg['frame_prefix']
        self.frames = [prefix + link for link in mode.link_names]
        self.link_pubs = [node.create_publisher(
            WrenchStamped, LINK_TOPIC % topic_token(link), 10)
            for link in mode.link_names]
        self.wires = [_wire(frame) for frame in self.frames]
        #: the link topics with a subscriber (looked up every LISTENER_REFRESH_S)
        self._listened = []
        self._next_lookup = 0.0  # the first publish looks them up
        self.entities = [] if gz is None else [
            gz.entity_name if k == 0 else gz.entity(body)
            for k, body in enumerate(mode.multibody.body_names)]

    def _on_joint_state(self, raw: bytes) -> None:
        # no state lock: the joint values are read by the odometry callback alone, on
        # the same executor thread (the update only publishes its result)
        node = self.node
        reading = self.joint_states.read_or_drop(raw, node, self.topic)
        if reading is None:
            return
        names, position, velocity, _, rows = reading
        if rows is None:
            reason = self.mode.joint_state(names, position, velocity)
        else:
            reason = self.mode.joint_state_arrays(rows, position, velocity)
        if reason is not None:
            node.drop(self.topic, reason, ' (%d names, %d positions, %d velocities)' % (
                len(names), len(position), len(velocity)))
            return
        for name in self.mode.new_unknown:
            self.logger.warning('%s: joint %r is no moving joint of vehicle %r: ignored '
                                '(said once)' % (self.topic, name, node.vehicle.name))
        self.stats.received(node.now_ns())

    def publish(self, wc, header) -> None:
        """Publish every link's wrench (link frames) and, for gz, every body's (world)."""
        outbox = self.node.outbox
        stamp_ns = conv.stamp_to_ns(header.stamp)
        now = time.monotonic()
        if now >= self._next_lookup:
            self._next_lookup = now + LISTENER_REFRESH_S
            self._listened = [(pub, wire, frame, k) for k, (pub, wire, frame) in enumerate(
                zip(self.link_pubs, self.wires, self.frames)) if pub.get_subscription_count()]
        for pub, wire, frame, k in self._listened:
            wrench = wc.link_wrenches[k]
            if wire is not None:
                outbox.publish(pub, wire.pack(stamp_ns, wrench.tolist()))
                continue
            msg = WrenchStamped()
            msg.header.frame_id = frame
            _fill_wrench(msg, stamp_ns, wrench)
            outbox.publish(pub, msg)
        if self.gz is None:
            return
        for k, entity in enumerate(self.entities):
            rotation = wc.body_rotations[k]
            wrench = wc.body_wrenches[k]
            # F_w = R F_b, T_w = R T_b (same point, only the axes change)
            world = np.concatenate((rotation @ wrench[:3], rotation @ wrench[3:]))
            com = rotation @ self.mode.body_coms[k] if self.gz.at_com else None
            self.gz.publish_entity(header, entity, world, com)

    def snapshot(self, snap: dict) -> None:
        """Joint-state figures: joints never heard of, messages leaving joints out."""
        mode = self.mode
        info = snap['inputs'][self.topic]
        never = [n for n, got in zip(mode.joint_names, mode.received) if not got]
        info['state'] = 'ok' if not never else 'waiting'
        values = {'joints': len(mode.joint_names),
                  'never_received': ', '.join(never) or 'none',
                  'without_velocity': mode.no_velocity}
        values.update({'missing.' + name: count for name, count in sorted(mode.missing.items())})
        info['values'] = values
