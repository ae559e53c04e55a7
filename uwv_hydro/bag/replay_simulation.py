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
Model validation from a bag: drive the simulate mode with recorded thrust.

The first recorded odometry sets the initial state.  Between consecutive odometry
stamps the simulator advances one step of that length with the thrust held at the
step's start (the node's simulate mode does the same at its timer): each thrust topic
contributes its last wrench stamped at or before that time (transformed to the base
frame) unless older than the watchdog timeout.  Predicted odometry is written on
``/predicted<odometry_topic>`` next to a copy of the recorded odometry.
"""

from dataclasses import dataclass
from typing import Dict, Optional, Sequence

import numpy as np

from uwv_hydro.bag.cdr_codec import decode_odometry, decode_wrench_stamped, encode_odometry
from uwv_hydro.bag.progress import Progress
from uwv_hydro.bag.rosbag_io import (BagWriter, message_count, ODOMETRY,
                                     odometry_arrays, read_raw_messages, stamp_to_ns, typestore,
                                     WRENCH, wrench_array)
from uwv_hydro.modes.offline_simulation import Trajectory
from uwv_hydro.modes.thrust_mux import FrameResolver
from uwv_hydro.physics.dynamics import Simulator
from uwv_hydro.physics.vehicle_params import VehicleParams


@dataclass
class SimulationReplay:
    """Recorded and predicted trajectories at the recorded odometry stamps."""

    recorded: Trajectory
    predicted: Trajectory
    rms_position_error: float
    rms_velocity_error: float
    final_position_error: float
    dropped_thrust: int


def _trajectory(rows):
    a = np.array(rows, float).reshape(-1, 14)
    return Trajectory(a[:, 0], a[:, 1:4], a[:, 4:8], a[:, 8:14])


def _wrench(raw, store):
    """Return (stamp ns, frame id, wrench) of WrenchStamped CDR bytes."""
    fields = decode_wrench_stamped(raw)
    if fields is None:  # big-endian: the generic decoder
        msg = store.deserialize_cdr(raw, WRENCH)
        return stamp_to_ns(msg.header.stamp), msg.header.frame_id, wrench_array(msg)
    sec, nanosec, frame, values = fields
    return sec * 1_000_000_000 + nanosec, frame, np.array(values)


def _odometry(raw, store):
    """Return (stamp ns, position, quaternion wxyz, twist) of Odometry CDR bytes."""
    fields = decode_odometry(raw)
    if fields is None:
        msg = store.deserialize_cdr(raw, ODOMETRY)
        return (stamp_to_ns(msg.header.stamp),) + tuple(odometry_arrays(msg))
    sec, nanosec, _, _, position, (qx, qy, qz, qw), twist = fields
    return sec * 1_000_000_000 + nanosec, position, (qw, qx, qy, qz), twist


def _held(history, t):
    """Return the last (stamp, wrench) of ``history`` stamped at or before t; trim older."""
    i = len(history) - 1
    while i >= 0 and history[i][0] > t + 1e-12:
        i -= 1
    if i < 0:
        return None
    del history[:i]
    return history[0]


def replay_simulate(in_bag, params: VehicleParams, out_bag=None,
                    odometry_topic: str = '/odometry', thrust_topics: Sequence[str] = (),
                    substeps: int = 1, thrust_timeout: float = 0.5,
                    current_world: Optional[Sequence[float]] = None,
                    progress: bool = True) -> SimulationReplay:
    """Simulate from the bag's thrust and compare with its odometry."""
    frames = FrameResolver(params)
    simulators: Dict[int, Simulator] = {}
    latest: Dict[str, list] = {}
    dropped = 0
    state = None
    t_prev = None
    recorded_rows, predicted_rows = [], []
    store = typestore()
    current = None if current_world is None else np.asarray(current_world, float)
    topics = [odometry_topic] + list(thrust_topics)
    types = {odometry_topic: ODOMETRY}
    types.update({t: WRENCH for t in thrust_topics})
    bar = Progress(message_count(in_bag, topics) if progress else 0, 'replay --simulate')
    bar.enabled = bar.enabled and progress
    for topic, bag_ns, raw, msgtype in read_raw_messages(in_bag, topics, expected_types=types):
        bar.update()
        if topic != odometry_topic:
            stamp_ns, frame, w = _wrench(raw, store)
            w_base = frames.to_base(frame, w) if np.all(np.isfinite(w)) else None
            if w_base is None:
                dropped += 1
                continue
            latest.setdefault(topic, []).append(((stamp_ns or bag_ns) * 1e-9, w_base))
            continue
        stamp_ns, position, quat, twist = _odometry(raw, store)
        t = stamp_ns * 1e-9
        recorded_rows.append([t, *position, *quat, *twist])
        if state is None:
            quat = np.asarray(quat) / np.linalg.norm(quat)
            state = [*position, *quat, *twist]
        elif t > t_prev:
            tau = np.zeros(6)
            for history in latest.values():
                held = _held(history, t_prev)
                if held is not None and t_prev - held[0] <= thrust_timeout:
                    tau = tau + held[1]
            key = int(round((t - t_prev) * 1e9))
            sim = simulators.get(key)
            if sim is None:
                sim = simulators[key] = Simulator(params, dt=key * 1e-9, substeps=substeps)
            state = sim.step_flat(state, tau, current)
        t_prev = t
        predicted_rows.append([t, *state])
    bar.close()
    if not recorded_rows:
        from uwv_hydro.bag.rosbag_io import BagError
        raise BagError('no odometry messages on %s' % odometry_topic, source=str(in_bag))
    recorded, predicted = _trajectory(recorded_rows), _trajectory(predicted_rows)
    if out_bag is not None:
        with BagWriter(out_bag, store=store) as bag:
            rows = {topic: (traj.position.tolist(), traj.quaternion.tolist(),
                            traj.twist.tolist())
                    for traj, topic in ((recorded, odometry_topic),
                                        (predicted, '/predicted' + odometry_topic))}
            for k, t in enumerate(recorded.t.tolist()):
                ns = int(round(t * 1e9))
                sec, nanosec = divmod(ns, 1_000_000_000)
                for topic, (position, quaternion, twist) in rows.items():
                    w, x, y, z = quaternion[k]
                    bag.queue_raw(topic, ODOMETRY, ns, encode_odometry(
                        sec, nanosec, 'odom', params.base_frame, position[k], (x, y, z, w),
                        twist[k]))
    dp = np.linalg.norm(predicted.position - recorded.position, axis=1)
    dv = np.linalg.norm(predicted.twist[:, :3] - recorded.twist[:, :3], axis=1)
    return SimulationReplay(recorded, predicted, float(np.sqrt(np.mean(dp ** 2))),
                            float(np.sqrt(np.mean(dv ** 2))), float(dp[-1]), dropped)
