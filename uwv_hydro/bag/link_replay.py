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
Offline replay of a vehicle whose links move: odometry and joint_states in, a wrench per link.

What the node's wrench mode does for such a vehicle (:mod:`uwv_hydro.node.link_wrench_io`),
with the same pure class, :class:`~uwv_hydro.modes.link_wrench_mode.LinkWrenchMode`:
every sensor_msgs/JointState on the joint-states topic goes to
:meth:`LinkWrenchMode.joint_state` (joints matched by name, its rejection rules), and
every odometry message the node's input rules keep (:class:`uwv_hydro.bag.replay.
_Replayer`) is evaluated at the latest joint values.  Written, stamped as the
odometry: the base's total on ``<ns>/hydro/wrench`` and ``hydro/wrench_world``, the
components with ``components``, and each wrench link's own wrench (its frame, about
its origin) on ``<ns>/hydro/links/<link>/wrench``.

Messages are taken in record order; a joint state recorded at the same time as an
odometry message is taken first (``simulate`` writes both of a state at its stamp).
A bag without the joint-states topic is replayed with every joint at zero, as the node
before its first joint state.
"""
import contextlib
from dataclasses import dataclass, field
from typing import List, Optional, Sequence

import numpy as np

from uwv_hydro.bag.bag_reader import bag_topics, decoded, message_count, read_raw_messages
from uwv_hydro.bag.cdr_codec import encode_wrench_stamped
from uwv_hydro.bag.progress import Progress
from uwv_hydro.bag.replay import _POSITION, _Replayer, _TWIST, output_topics, ReplayResult
from uwv_hydro.bag.rosbag_io import BagWriter, MessageFactory, ODOMETRY, WRENCH
from uwv_hydro.modes.input_guard import StampGuard
from uwv_hydro.modes.link_wrench_mode import LINK_TOPIC, LinkWrenchMode, topic_token
from uwv_hydro.physics.body.vehicle_params import COMPONENT_NAMES

JOINT_STATE = 'sensor_msgs/msg/JointState'


@dataclass
class LinkReplayResult(ReplayResult):
    """ReplayResult plus each wrench link's wrench and the joint-state counts."""

    #: The wrench links (LinkWrenchMode.link_names) and their wrenches (N, L, 6), each in
    #: its link's frame about its origin.
    link_names: List[str] = field(default_factory=list)
    link_wrenches: np.ndarray = field(default_factory=lambda: np.zeros((0, 0, 6)))
    joint_states: int = 0
    #: Joint-state messages rejected by LinkWrenchMode (by reason)
    rejected_joint_states: dict = field(default_factory=dict)
    #: False: the bag has no joint-states topic (every joint at zero)
    had_joint_states: bool = True


class _LinkReplayer(_Replayer):
    """The odometry rules of :class:`_Replayer`, evaluated one message at a time."""

    def __init__(self, *args, namespace: str = '', **kwargs):
        super().__init__(*args, **kwargs)
        ns = '/' + namespace.strip('/') if namespace.strip('/') else ''
        self.link_topics = [ns + '/' + LINK_TOPIC % topic_token(link)
                            for link in self.mode.link_names]
        self.links = []

    def chunk(self, messages) -> None:
        """Evaluate and write the kept odometry messages at the current joint values."""
        admitted = self.admitted(messages)
        if admitted is None:
            return
        heads, doubles, keep, stamps, resets, quat = admitted
        mode = self.mode
        n = len(keep)
        comps = np.empty((n, len(COMPONENT_NAMES), 6))
        links = np.empty((n, len(mode.link_names), 6))
        for j, i in enumerate(keep):
            if resets[j]:
                mode.reset()
            wc = mode.evaluate(stamps[j] * 1e-9, doubles[i, _POSITION], quat[j],
                               doubles[i, _TWIST], self.current_world)
            comps[j] = [wc.components[name] for name in COMPONENT_NAMES]
            links[j] = wc.link_wrenches
        total = comps.sum(axis=1)
        stamp_ns = np.array(stamps, dtype=np.int64)
        self.parts.append((stamp_ns, total, comps))
        self.links.append(links)
        if self.writer is None:
            return
        self._write(messages, heads, keep, stamps, total, quat, comps)
        values = links.tolist()
        for j, i in enumerate(keep):
            sec, nanosec = divmod(stamps[j], 1_000_000_000)
            for topic, link, wrench in zip(self.link_topics, mode.link_names, values[j]):
                self.writer.queue_raw(topic, WRENCH, messages[i][0],
                                      encode_wrench_stamped(sec, nanosec, link, wrench))


def _ordered(messages, joint_topic: str):
    """Yield ``messages`` with, at each record time, the joint states first."""
    group, at = [], None
    for item in messages:
        if item[1] != at and group:
            yield from sorted(group, key=lambda m: m[0] != joint_topic)
            group = []
        at = item[1]
        group.append(item)
    yield from sorted(group, key=lambda m: m[0] != joint_topic)


def replay_link_wrench(in_bag, params, out_bag=None, odometry_topic: str = '/odometry',
                       joint_states_topic: str = '/joint_states',
                       added_mass: str = 'implicit', apply_weight: bool = False,
                       acceleration_alpha: Optional[float] = None,
                       current_world: Optional[Sequence[float]] = None, namespace: str = '',
                       world_frame: Optional[str] = None, progress: bool = True,
                       components: bool = False, stamp_reset_threshold: float = 1.0,
                       current_field=None) -> LinkReplayResult:
    """Replay ``in_bag`` for a vehicle with moving links (see the module docstring)."""
    mode = LinkWrenchMode(params, added_mass=added_mass, apply_weight=apply_weight,
                          acceleration_alpha=acceleration_alpha)
    mode.field = current_field
    has_joints = joint_states_topic in bag_topics(in_bag)
    topics = [odometry_topic] + ([joint_states_topic] if has_joints else [])
    bar = Progress(message_count(in_bag, [odometry_topic]) if progress else 0, 'replay')
    bar.enabled = bar.enabled and progress
    factory = MessageFactory()
    store = factory.store
    writer = BagWriter(out_bag, store=store) if out_bag is not None else None
    current = None if current_world is None else np.asarray(current_world, dtype=float)
    replayer = _LinkReplayer(mode, StampGuard(stamp_reset_threshold), writer, store,
                             output_topics(namespace), params.base_frame, world_frame,
                             current, components, str(in_bag), namespace=namespace)
    joint_states = 0
    with contextlib.ExitStack() as stack:
        stack.callback(bar.close)
        if writer is not None:
            stack.enter_context(writer)
        pending = []
        raw_messages = read_raw_messages(in_bag, topics, expected_types={
            odometry_topic: ODOMETRY, joint_states_topic: JOINT_STATE})
        for topic, bag_ns, raw, _ in _ordered(raw_messages, joint_states_topic):
            if topic == odometry_topic:
                pending.append((bag_ns, raw))
                continue
            # a joint state: the odometry before it is evaluated at the values before it
            if pending:
                replayer.chunk(pending)
                bar.update(len(pending))
                pending = []
            msg = decoded(lambda data: store.deserialize_cdr(data, JOINT_STATE), raw, topic,
                          bag_ns, in_bag)
            mode.joint_state(msg.name, msg.position, msg.velocity)
            joint_states += 1
        if pending:
            replayer.chunk(pending)
            bar.update(len(pending))
    links = replayer.links
    base = replayer.finish()
    result = LinkReplayResult(**vars(base))
    result.link_names = list(mode.link_names)
    result.link_wrenches = (np.concatenate(links) if links
                            else np.zeros((0, len(mode.link_names), 6)))
    result.joint_states = joint_states
    result.rejected_joint_states = dict(mode.rejected)
    result.had_joint_states = has_joints
    return result
