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
as the live node's wrench mode does (:class:`uwv_hydro.wrench_mode.WrenchMode`, with
the message's header stamp as time) and written to the output bag on the node's topic
names, stamped with the input stamps:

* ``<ns>/hydro/wrench`` (body frame, about base_link),
* ``<ns>/hydro/wrench_world`` (world-frame force and torque about the link origin),
* ``<ns>/hydro/components/<name>`` for each component.

Odometry is decoded and the wrenches encoded with the fixed-layout CDR codec of
:mod:`uwv_hydro.cdr_codec` (the same bytes rosbags would write, tested byte for byte).
"""

from dataclasses import dataclass, field
import math
from typing import Dict, List, Optional, Sequence

import numpy as np

from uwv_hydro.cdr_codec import decode_odometry, encode_wrench_stamped
from uwv_hydro.node.input_guard import StampGuard
from uwv_hydro.progress import Progress
from uwv_hydro.rosbag_io import (BagWriter, message_count, MessageFactory, ODOMETRY,
                                 read_raw_messages, WRENCH)
from uwv_hydro.vehicle_params import COMPONENT_NAMES, VehicleParams
from uwv_hydro.wrench_mode import unit_quaternion, world_wrench, WrenchMode


def output_topics(namespace: str = '') -> Dict[str, str]:
    """Return the node's wrench-mode output topic names under ``namespace``."""
    ns = '/' + namespace.strip('/') if namespace.strip('/') else ''
    topics = {'wrench': ns + '/hydro/wrench', 'wrench_world': ns + '/hydro/wrench_world'}
    for name in COMPONENT_NAMES:
        topics[name] = '%s/hydro/components/%s' % (ns, name)
    return topics


@dataclass
class ReplayResult:
    """Arrays of what replay computed, one row per odometry message."""

    stamps_ns: List[int] = field(default_factory=list)
    total: List[np.ndarray] = field(default_factory=list)
    components: Dict[str, List[np.ndarray]] = field(
        default_factory=lambda: {n: [] for n in COMPONENT_NAMES})
    skipped_non_finite: int = 0
    skipped_bad_quaternion: int = 0
    skipped_stale_stamp: int = 0


def _odometry_fields(msg):
    """Return the :func:`uwv_hydro.cdr_codec.decode_odometry` tuple of a rosbags Odometry."""
    p, q = msg.pose.pose.position, msg.pose.pose.orientation
    lin, ang = msg.twist.twist.linear, msg.twist.twist.angular
    return (msg.header.stamp.sec, msg.header.stamp.nanosec, msg.header.frame_id,
            msg.child_frame_id, (p.x, p.y, p.z), (q.x, q.y, q.z, q.w),
            (lin.x, lin.y, lin.z, ang.x, ang.y, ang.z), tuple(msg.pose.covariance),
            tuple(msg.twist.covariance))


def replay_wrench(in_bag, params: VehicleParams, out_bag=None,
                  odometry_topic: str = '/odometry', added_mass: str = 'implicit',
                  apply_weight: bool = False, acceleration_alpha: Optional[float] = None,
                  current_world: Optional[Sequence[float]] = None, namespace: str = '',
                  world_frame: Optional[str] = None, progress: bool = True,
                  components: bool = False,
                  stamp_reset_threshold: float = 1.0) -> ReplayResult:
    """
    Compute the wrench-mode outputs for every odometry message of ``in_bag``.

    Messages the node would drop are skipped and counted by the same rules: non-finite
    fields, an unusable quaternion, a stamp going back by up to
    ``stamp_reset_threshold`` (further back is a restart: the estimate is reset).
    When ``out_bag`` is given the outputs are written there: the wrench and the world
    wrench, plus one topic per component when ``components`` is true (the node's
    ``publish_components``).  The returned result always holds the components.
    """
    mode = WrenchMode(params, added_mass=added_mass, apply_weight=apply_weight,
                      acceleration_alpha=acceleration_alpha)
    stamps = StampGuard(stamp_reset_threshold)
    topics = output_topics(namespace)
    result = ReplayResult()
    bar = Progress(message_count(in_bag, [odometry_topic]) if progress else 0, 'replay')
    bar.enabled = bar.enabled and progress
    factory = MessageFactory()
    writer = BagWriter(out_bag, store=factory.store) if out_bag is not None else None
    try:
        if writer is not None:
            writer.__enter__()
        for _, bag_ns, raw, _ in read_raw_messages(in_bag, [odometry_topic],
                                                   expected_types={odometry_topic: ODOMETRY}):
            bar.update()
            fields = decode_odometry(raw, covariances=True)
            if fields is None:  # big-endian CDR: rosbags' generic decoder
                fields = _odometry_fields(factory.store.deserialize_cdr(raw, ODOMETRY))
            (sec, nanosec, frame_id, child_frame_id, position, xyzw, twist, pose_cov,
             twist_cov) = fields
            # the node's input rules: non-finite anywhere, bad quaternion, stale stamp
            if not all(map(math.isfinite, position + xyzw + twist + pose_cov + twist_cov)):
                result.skipped_non_finite += 1
                continue
            quat, _ = unit_quaternion((xyzw[3], xyzw[0], xyzw[1], xyzw[2]))
            if quat is None:
                result.skipped_bad_quaternion += 1
                continue
            stamp = int(sec) * 1_000_000_000 + int(nanosec)
            verdict = stamps.check('odometry', stamp)
            if verdict == 'stale_stamp':
                result.skipped_stale_stamp += 1
                continue
            if verdict == 'stamp_jump':
                mode.reset()
            wc = mode.evaluate(stamp * 1e-9, position, quat, twist, current_world)
            result.stamps_ns.append(stamp)
            result.total.append(wc.total)
            for name in COMPONENT_NAMES:
                result.components[name].append(wc.components[name])
            if writer is None:
                continue
            body_frame = params.base_frame  # as the node stamps its body-frame wrench
            world = world_frame or frame_id or 'odom'
            out_sec, out_nanosec = stamp // 1_000_000_000, stamp % 1_000_000_000
            writer.queue_raw(topics['wrench'], WRENCH, bag_ns, encode_wrench_stamped(
                out_sec, out_nanosec, body_frame, wc.total.tolist()))
            writer.queue_raw(topics['wrench_world'], WRENCH, bag_ns, encode_wrench_stamped(
                out_sec, out_nanosec, world, world_wrench(wc.total, quat).tolist()))
            if not components:
                continue
            for name in COMPONENT_NAMES:
                writer.queue_raw(topics[name], WRENCH, bag_ns, encode_wrench_stamped(
                    out_sec, out_nanosec, body_frame, wc.components[name].tolist()))
    finally:
        if writer is not None:
            writer.__exit__(None, None, None)
        bar.close()
    return result
