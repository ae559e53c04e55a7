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
times the node's simulate mode (:class:`uwv_hydro.modes.simulate_mode.SimulateMode`, one
instance for the whole bag) advances one checked step of the recorded length with the
thrust held at the step's start (the node does the same at its timer): each thrust
topic contributes its last wrench stamped at or before that time (transformed to the
base frame) unless older than the watchdog timeout.  An interval of any length is one
step of at least ``substeps`` RK4 sub-steps, and of more when the stiffest mode of the
vehicle needs them (|lambda| h <= 2.5, the node's rule,
:func:`uwv_hydro.physics.body.stability.stable_substeps`): a gap in the recording is split,
never integrated in one unstable RK4 step.  A step that diverges is retried and, failing
that, the last good state restored, as in the node (counted in ``events``).

Inputs pass the node's input rules (:mod:`uwv_hydro.modes.input_guard`): odometry with
non-finite fields or an unusable quaternion is skipped, as is a message (odometry or
thrust) whose header stamp goes back (``stale_stamp``), so time is never integrated
twice; a zero stamp is used at the bag's record time, as the node uses the receipt
time; a stamp far back (``stamp_jump``, a restarted source) restarts the prediction
from that recorded state.

Written to the output bag, at the recorded bag times: the recorded odometry as it was
recorded (frames, covariances, stamps), and the prediction on
``/predicted<odometry_topic>`` with the recorded frame ids, stamped with the time it was
predicted for; its covariances are zero (nav_msgs: unknown), the simulation does not
estimate them.  Memory does not grow with the bag unless the trajectories are kept.
"""

from array import array
import contextlib
from dataclasses import dataclass, field
import math
from typing import Dict, Optional, Sequence

import numpy as np

from uwv_hydro.bag.bag_reader import decoded, message_count, read_raw_messages
from uwv_hydro.bag.cdr_codec import decode_odometry, decode_wrench_stamped, encode_odometry
from uwv_hydro.bag.progress import Progress
from uwv_hydro.bag.rosbag_io import (BagError, BagWriter, ODOMETRY, odometry_arrays, stamp_to_ns,
                                     typestore, WRENCH, wrench_array)
from uwv_hydro.modes.input_guard import StampGuard
from uwv_hydro.modes.offline_simulation import Trajectory
from uwv_hydro.modes.simulate_mode import SimulateMode
from uwv_hydro.modes.thrust_mux import FrameResolver
from uwv_hydro.modes.wrench_mode import QUATERNION_NORM_RANGE
from uwv_hydro.physics.body.dynamics import Simulator, State
from uwv_hydro.physics.body.stability import RK4_STABLE_LAMBDA_H, stiffness
from uwv_hydro.physics.body.vehicle_params import VehicleParams

#: Longest RK4 sub-step (s) when the vehicle has no stiff mode at all.
MAX_SUBSTEP = 1.0


@dataclass
class SimulationReplay:
    """What ``replay --simulate`` compared, over the odometry samples it used."""

    #: Recorded and predicted trajectories at the used odometry times (None unless kept).
    recorded: Optional[Trajectory]
    predicted: Optional[Trajectory]
    rms_position_error: float
    rms_velocity_error: float
    final_position_error: float
    #: Thrust messages not used: non-finite, unknown frame or a stale stamp.
    dropped_thrust: int
    #: Odometry samples used and the time they span (s).
    samples: int = 0
    span_s: float = 0.0
    skipped_non_finite: int = 0
    skipped_bad_quaternion: int = 0
    skipped_stale_stamp: int = 0
    #: Predictions restarted from the recording after a stamp jump back.
    restarts: int = 0
    #: Longest RK4 sub-step (s): |lambda_max| h <= RK4_STABLE_LAMBDA_H.
    max_substep: float = 0.0
    #: The simulate mode's counters (divergences, state_restores).
    events: Dict[str, int] = field(default_factory=dict)


def _wrench(raw, store):
    """Return (stamp ns, frame id, wrench) of WrenchStamped CDR bytes."""
    fields = decode_wrench_stamped(raw)
    if fields is None:  # big-endian: the generic decoder
        msg = store.deserialize_cdr(raw, WRENCH)
        return stamp_to_ns(msg.header.stamp), msg.header.frame_id, wrench_array(msg)
    sec, nanosec, frame, values = fields
    return sec * 1_000_000_000 + nanosec, frame, np.array(values)


def _odometry(raw, store):
    """Return (stamp ns, frame id, child frame id, position, quaternion wxyz, twist, finite)."""
    fields = decode_odometry(raw, covariances=True)
    if fields is None:
        msg = store.deserialize_cdr(raw, ODOMETRY)
        position, quat, twist = odometry_arrays(msg)
        values = [*position, *quat, *twist, *msg.pose.covariance, *msg.twist.covariance]
        return (stamp_to_ns(msg.header.stamp), msg.header.frame_id, msg.child_frame_id,
                tuple(position), tuple(quat), tuple(twist), all(map(math.isfinite, values)))
    sec, nanosec, frame, child, position, (qx, qy, qz, qw), twist, pose_cov, twist_cov = fields
    finite = all(map(math.isfinite, position + (qx, qy, qz, qw) + twist + pose_cov + twist_cov))
    return (sec * 1_000_000_000 + nanosec, frame, child, position, (qw, qx, qy, qz), twist,
            finite)


def _held(history, t):
    """Return the last (stamp, wrench) of ``history`` stamped at or before t; trim older."""
    i = len(history) - 1
    while i >= 0 and history[i][0] > t:
        i -= 1
    if i < 0:
        return None
    del history[:i]
    return history[0]


def max_substep(params: VehicleParams) -> float:
    """Return the longest stable RK4 sub-step (s) of the vehicle, as the node chooses it."""
    lam = stiffness(Simulator(params))
    if not (lam > 0.0 and math.isfinite(lam)):
        return MAX_SUBSTEP
    # RK4 stability on the real axis: |lambda| h <= 2.5 (physics.body.stability)
    return min(RK4_STABLE_LAMBDA_H / lam, MAX_SUBSTEP)


class _Comparison:
    """Running RMS errors of predicted against recorded, and the kept trajectories."""

    def __init__(self, keep: bool):
        self.rows = (array('d'), array('d')) if keep else None
        self.n = 0
        self.sum_dp2 = self.sum_dv2 = self.last_dp = 0.0
        self.first_t = self.last_t = None

    def add(self, t: float, recorded, predicted) -> None:
        """Add one sample: recorded and predicted [p (3), q wxyz (4), twist (6)]."""
        dp = math.dist(predicted[:3], recorded[:3])
        self.sum_dp2 += dp * dp
        self.sum_dv2 += math.dist(predicted[7:10], recorded[7:10]) ** 2
        self.last_dp = dp
        self.n += 1
        self.first_t = t if self.first_t is None else self.first_t
        self.last_t = t
        if self.rows is not None:
            self.rows[0].append(t)
            self.rows[0].extend(recorded)
            self.rows[1].append(t)
            self.rows[1].extend(predicted)

    def trajectories(self):
        """Return (recorded, predicted) Trajectory, or (None, None) when not kept."""
        if self.rows is None:
            return None, None
        out = []
        for rows in self.rows:
            a = np.frombuffer(rows, dtype=float).reshape(-1, 14)
            out.append(Trajectory(a[:, 0], a[:, 1:4], a[:, 4:8], a[:, 8:14]))
        return tuple(out)


def replay_simulate(in_bag, params: VehicleParams, out_bag=None,
                    odometry_topic: str = '/odometry', thrust_topics: Sequence[str] = (),
                    substeps: int = 1, thrust_timeout: float = 0.5,
                    current_world: Optional[Sequence[float]] = None,
                    progress: bool = True, stamp_reset_threshold: float = 1.0,
                    keep_trajectories: bool = True, current_field=None) -> SimulationReplay:
    """
    Simulate from the bag's thrust and compare with its odometry (see the module doc).

    ``current_field`` (a physics current field, instead of ``current_world``) is
    sampled at every step; its time starts at 0 with the first recorded state (with
    ``time_origin: clock``: the recorded stamps' seconds).
    """
    frames = FrameResolver(params)
    h_max = max_substep(params)
    # One simulate mode for every recorded interval: sub-steps of at most h_max, >= substeps
    mode = SimulateMode(params, dt=h_max * substeps, substeps=substeps)
    mode.field = current_field
    guard = StampGuard(stamp_reset_threshold)
    latest: Dict[str, list] = {}
    res = SimulationReplay(None, None, 0.0, 0.0, 0.0, 0, max_substep=h_max)
    comparison = _Comparison(keep_trajectories)
    t_prev = None
    store = typestore()
    current = None if current_world is None else np.asarray(current_world, float)
    topics = [odometry_topic] + list(thrust_topics)
    types = {odometry_topic: ODOMETRY}
    types.update({t: WRENCH for t in thrust_topics})
    predicted_topic = '/predicted' + odometry_topic
    bar = Progress(message_count(in_bag, topics) if progress else 0, 'replay --simulate')
    bar.enabled = bar.enabled and progress
    writer = BagWriter(out_bag, store=store) if out_bag is not None else None
    with contextlib.ExitStack() as stack:
        stack.callback(bar.close)
        if writer is not None:
            stack.enter_context(writer)
        for topic, bag_ns, raw, _ in read_raw_messages(in_bag, topics, expected_types=types):
            bar.update()
            if topic != odometry_topic:
                stamp_ns, frame, w = decoded(lambda data: _wrench(data, store), raw, topic,
                                             bag_ns, in_bag)
                w_base = frames.to_base(frame, w) if all(map(math.isfinite, w)) else None
                verdict, t_ns = ('', 0) if w_base is None else guard.admit(topic, stamp_ns,
                                                                           bag_ns)
                if verdict in ('', 'stale_stamp'):
                    res.dropped_thrust += 1
                    continue
                history = latest.setdefault(topic, [])
                if verdict == 'stamp_jump':
                    history.clear()
                history.append((t_ns, w_base))
                continue
            stamp_ns, frame, child, position, quat, twist, finite = decoded(
                lambda data: _odometry(data, store), raw, topic, bag_ns, in_bag)
            if not finite:
                res.skipped_non_finite += 1
                continue
            norm = math.sqrt(sum(c * c for c in quat))
            if not QUATERNION_NORM_RANGE[0] < norm < QUATERNION_NORM_RANGE[1]:
                res.skipped_bad_quaternion += 1  # the rule of wrench_mode.unit_quaternion
                continue
            verdict, t_ns = guard.admit('odometry', stamp_ns, bag_ns)
            if verdict == 'stale_stamp' or (verdict == 'ok' and t_prev is not None
                                            and t_ns < t_prev):
                # back in time (also a zero stamp recorded before the last used time)
                res.skipped_stale_stamp += 1
                continue
            recorded = [*position, *(c / norm for c in quat), *twist]
            if t_prev is None or verdict == 'stamp_jump':
                res.restarts += t_prev is not None
                mode.reset(State(recorded[:3], recorded[3:7], recorded[7:]))
                if current_field is not None and current_field.time_origin == 'clock':
                    mode.t = t_ns * 1e-9
            elif t_ns > t_prev:
                tau = np.zeros(6)
                for history in latest.values():
                    held = _held(history, t_prev)
                    if held is not None and (t_prev - held[0]) * 1e-9 <= thrust_timeout:
                        tau = tau + held[1]
                # One checked step of the recorded length (int ns, as the stamps)
                mode.step(tau, current, dt=(t_ns - t_prev) * 1e-9)
            t_prev = t_ns
            state = mode.x
            comparison.add(t_ns * 1e-9, recorded, state)
            if writer is not None:
                writer.queue_raw(odometry_topic, ODOMETRY, bag_ns, bytes(raw))
                sec, nanosec = divmod(t_ns, 1_000_000_000)
                w, x, y, z = state[3:7]
                writer.queue_raw(predicted_topic, ODOMETRY, bag_ns, encode_odometry(
                    sec, nanosec, frame, child, state[:3], (x, y, z, w), state[7:]))
    if not comparison.n:
        raise BagError('no usable odometry messages on %s' % odometry_topic,
                       source=str(in_bag))
    res.recorded, res.predicted = comparison.trajectories()
    res.samples = comparison.n
    res.span_s = comparison.last_t - comparison.first_t
    res.rms_position_error = math.sqrt(comparison.sum_dp2 / comparison.n)
    res.rms_velocity_error = math.sqrt(comparison.sum_dv2 / comparison.n)
    res.final_position_error = comparison.last_dp
    res.events = dict(mode.events)
    return res
