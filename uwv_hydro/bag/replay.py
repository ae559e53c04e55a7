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
Offline replay of a recorded rosbag2 through the node's wrench mode.

For every odometry message the hydro wrench (and its components) is computed exactly
as the live node's wrench mode does (:class:`uwv_hydro.modes.wrench_mode.WrenchMode`, with
the message's header stamp as time, or its record time when the stamp is zero, as the
node uses the receipt time: :func:`uwv_hydro.modes.input_guard.message_time_ns`) and
written to the output bag on the node's topic names, stamped with those times:

* ``<ns>/hydro/wrench`` (body frame, about base_link),
* ``<ns>/hydro/wrench_world`` (world-frame force and torque about the link origin),
* ``<ns>/hydro/components/<name>`` for each component.

Messages are taken :data:`CHUNK` at a time: the CDR float blocks of a chunk are read
into one array (:func:`uwv_hydro.bag.cdr_codec.odometry_layout`), the node's input rules
are applied in message order, and the wrenches of the chunk are evaluated together
(:meth:`WrenchMode.evaluate_many`, the same operations as one message at a time).
The wrenches are encoded with the fixed-layout CDR codec of :mod:`uwv_hydro.bag.cdr_codec`
(the same bytes rosbags would write, tested byte for byte).
"""

import contextlib
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence

import numpy as np

from uwv_hydro.bag.bag_reader import decoded, message_count, read_raw_messages
from uwv_hydro.bag.cdr_codec import encode_wrench_stamped, ODOMETRY_DOUBLES, odometry_layout
from uwv_hydro.bag.progress import Progress
from uwv_hydro.bag.rosbag_io import BagWriter, MessageFactory, ODOMETRY, WRENCH
from uwv_hydro.modes.input_guard import StampGuard
from uwv_hydro.modes.wrench_mode import usable_quaternions, world_wrenches, WrenchMode
from uwv_hydro.physics.body.vehicle_params import COMPONENT_NAMES, VehicleParams

#: Odometry messages evaluated together; bounds the working memory (about 5 MB).
CHUNK = 1024
#: Columns of the 85 float64 of an Odometry: position, orientation [w, x, y, z], twist.
_POSITION = slice(0, 3)
_WXYZ = [6, 3, 4, 5]
_TWIST = slice(43, 49)


def output_topics(namespace: str = '') -> Dict[str, str]:
    """Return the node's wrench-mode output topic names under ``namespace``."""
    ns = '/' + namespace.strip('/') if namespace.strip('/') else ''
    topics = {'wrench': ns + '/hydro/wrench', 'wrench_world': ns + '/hydro/wrench_world'}
    for name in COMPONENT_NAMES:
        topics[name] = '%s/hydro/components/%s' % (ns, name)
    return topics


@dataclass
class ReplayResult:
    """What replay computed, one row per odometry message it used (in bag order)."""

    #: Times used [ns], int64 (N,): header stamps, the record time for a zero stamp.
    stamps_ns: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    #: Body-frame total wrench about base_link (N, 6).
    total: np.ndarray = field(default_factory=lambda: np.zeros((0, 6)))
    #: Component name -> (N, 6), names as COMPONENT_NAMES.
    components: Dict[str, np.ndarray] = field(
        default_factory=lambda: {n: np.zeros((0, 6)) for n in COMPONENT_NAMES})
    skipped_non_finite: int = 0
    skipped_bad_quaternion: int = 0
    skipped_stale_stamp: int = 0


def _odometry_doubles(msg) -> List[float]:
    """Return the 85 float64 of a rosbags Odometry in CDR order (see ODOMETRY_DOUBLES)."""
    p, q = msg.pose.pose.position, msg.pose.pose.orientation
    lin, ang = msg.twist.twist.linear, msg.twist.twist.angular
    return ([p.x, p.y, p.z, q.x, q.y, q.z, q.w] + list(msg.pose.covariance)
            + [lin.x, lin.y, lin.z, ang.x, ang.y, ang.z] + list(msg.twist.covariance))


class _Replayer:
    """The per-bag state of :func:`replay_wrench` and the work on one chunk."""

    def __init__(self, mode, stamps, writer, store, topics, base_frame, world_frame,
                 current_world, components, source):
        self.mode, self.stamps, self.writer, self.store = mode, stamps, writer, store
        self.topics, self.base_frame, self.world_frame = topics, base_frame, world_frame
        self.current_world, self.components, self.source = current_world, components, source
        self.result = ReplayResult()
        self.parts = []

    def _decode(self, messages):
        """Return (headers [(sec, nanosec, frame_id)], doubles (N, 85)) of a chunk."""
        heads, rows, blocks = [], [], []
        slow = {}
        for i, (bag_ns, raw) in enumerate(messages):
            layout = decoded(odometry_layout, raw, 'odometry', bag_ns, self.source)
            if layout is None:  # big-endian CDR: rosbags' generic decoder
                msg = decoded(lambda data: self.store.deserialize_cdr(data, ODOMETRY), raw,
                              'odometry', bag_ns, self.source)
                heads.append((msg.header.stamp.sec, msg.header.stamp.nanosec,
                              msg.header.frame_id))
                slow[i] = _odometry_doubles(msg)
                continue
            sec, nanosec, frame_id, _, start = layout
            heads.append((sec, nanosec, frame_id))
            rows.append(i)
            blocks.append(raw[start:start + ODOMETRY_DOUBLES])
        doubles = np.empty((len(messages), ODOMETRY_DOUBLES // 8))
        if blocks:
            doubles[rows] = np.frombuffer(b''.join(blocks), dtype='<f8').reshape(len(rows), -1)
        for i, values in slow.items():
            doubles[i] = values
        return heads, doubles

    def chunk(self, messages) -> None:
        """Apply the node's input rules to a chunk in order, evaluate and write it."""
        admitted = self.admitted(messages)
        if admitted is None:
            return
        heads, doubles, keep, stamps, resets, quat = admitted
        stamp_ns = np.array(stamps, dtype=np.int64)
        comps = self.mode.evaluate_many(stamp_ns * 1e-9, doubles[keep, _POSITION], quat,
                                        doubles[keep, _TWIST], self.current_world, resets)
        # Superposition of the component wrenches (as WrenchMode.evaluate sums them)
        total = comps.sum(axis=1)
        self.parts.append((stamp_ns, total, comps))
        if self.writer is not None:
            self._write(messages, heads, keep, stamps, total, quat, comps)

    def admitted(self, messages):
        """
        Return the chunk's messages the node's input rules keep, counting the others.

        (headers, doubles (N, 85), kept indexes, their times, their resets, their unit
        quaternions [w, x, y, z]), or None when none is kept.
        """
        heads, doubles = self._decode(messages)
        result = self.result
        finite = np.isfinite(doubles).all(axis=1).tolist()
        wxyz = doubles[:, _WXYZ]
        norm, usable = usable_quaternions(wxyz)
        usable = usable.tolist()
        keep, stamps, resets = [], [], []
        for i, (sec, nanosec, _) in enumerate(heads):
            # the node's input rules, in its order: non-finite, bad quaternion, stale stamp
            if not finite[i]:
                result.skipped_non_finite += 1
                continue
            if not usable[i]:
                result.skipped_bad_quaternion += 1
                continue
            # a zero stamp is used at the bag's record time, as the node uses receipt time
            verdict, stamp = self.stamps.admit('odometry', int(sec) * 1_000_000_000
                                               + int(nanosec), messages[i][0])
            if verdict == 'stale_stamp':
                result.skipped_stale_stamp += 1
                continue
            keep.append(i)
            stamps.append(stamp)
            resets.append(verdict == 'stamp_jump')
        if not keep:
            return None
        return heads, doubles, keep, stamps, resets, wxyz[keep] / norm[keep, None]

    def _write(self, messages, heads, keep, stamps, total, quat, comps) -> None:
        """Queue the outputs of the kept messages, message by message as the node publishes."""
        queue, topics, body_frame = self.writer.queue_raw, self.topics, self.base_frame
        totals = total.tolist()
        worlds = world_wrenches(total, quat).tolist()
        parts = comps.tolist() if self.components else None
        names = [topics[name] for name in COMPONENT_NAMES]
        for j, i in enumerate(keep):
            bag_ns = messages[i][0]
            world = self.world_frame or heads[i][2] or 'odom'
            sec, nanosec = divmod(stamps[j], 1_000_000_000)
            queue(topics['wrench'], WRENCH, bag_ns,
                  encode_wrench_stamped(sec, nanosec, body_frame, totals[j]))
            queue(topics['wrench_world'], WRENCH, bag_ns,
                  encode_wrench_stamped(sec, nanosec, world, worlds[j]))
            if parts is None:
                continue
            for topic, values in zip(names, parts[j]):
                queue(topic, WRENCH, bag_ns,
                      encode_wrench_stamped(sec, nanosec, body_frame, values))

    def finish(self) -> ReplayResult:
        """Join the chunks into the result arrays."""
        result = self.result
        if self.parts:
            stamps, totals, comps = zip(*self.parts)
            result.stamps_ns = np.concatenate(stamps)
            result.total = np.concatenate(totals)
            all_comps = np.concatenate(comps)
            result.components = {name: all_comps[:, k] for k, name in enumerate(COMPONENT_NAMES)}
        self.parts = []
        return result


def replay_wrench(in_bag, params: VehicleParams, out_bag=None,
                  odometry_topic: str = '/odometry', added_mass: str = 'implicit',
                  apply_weight: bool = False, acceleration_alpha: Optional[float] = None,
                  current_world: Optional[Sequence[float]] = None, namespace: str = '',
                  world_frame: Optional[str] = None, progress: bool = True,
                  components: bool = False,
                  stamp_reset_threshold: float = 1.0, current_field=None) -> ReplayResult:
    """
    Compute the wrench-mode outputs for every odometry message of ``in_bag``.

    Messages the node would drop are skipped and counted by the same rules: non-finite
    fields, an unusable quaternion, a stamp going back by up to
    ``stamp_reset_threshold`` (further back is a restart: the estimate is reset).  A
    zero stamp is used at the message's record time, as the node uses its receipt time.
    When ``out_bag`` is given the outputs are written there: the wrench and the world
    wrench, plus one topic per component when ``components`` is true (the node's
    ``publish_components``).  The returned result always holds the components.
    ``current_field`` (instead of ``current_world``): a physics current field sampled
    at every message (:class:`WrenchMode`'s rule for its time).  (A vehicle whose links
    move: :func:`uwv_hydro.bag.link_replay.replay_link_wrench`, a wrench per link.)
    """
    mode = WrenchMode(params, added_mass=added_mass, apply_weight=apply_weight,
                      acceleration_alpha=acceleration_alpha)
    mode.field = current_field
    bar = Progress(message_count(in_bag, [odometry_topic]) if progress else 0, 'replay')
    bar.enabled = bar.enabled and progress
    factory = MessageFactory()
    writer = BagWriter(out_bag, store=factory.store) if out_bag is not None else None
    current = None if current_world is None else np.asarray(current_world, dtype=float)
    # the node stamps its body-frame wrench with base_frame
    replayer = _Replayer(mode, StampGuard(stamp_reset_threshold), writer, factory.store,
                         output_topics(namespace), params.base_frame, world_frame, current,
                         components, str(in_bag))
    with contextlib.ExitStack() as stack:
        stack.callback(bar.close)
        if writer is not None:
            stack.enter_context(writer)
        pending = []
        for _, bag_ns, raw, _ in read_raw_messages(in_bag, [odometry_topic],
                                                   expected_types={odometry_topic: ODOMETRY}):
            pending.append((bag_ns, raw))
            if len(pending) == CHUNK:
                replayer.chunk(pending)
                bar.update(len(pending))
                pending = []
        if pending:
            replayer.chunk(pending)
            bar.update(len(pending))
    return replayer.finish()
