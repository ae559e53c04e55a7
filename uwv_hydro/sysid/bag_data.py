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
A recorded manoeuvre as uniformly sampled arrays: odometry plus held thrust.

Odometry (nav_msgs/Odometry: pose in the odometry frame, body twist of the origin)
is ordered by header stamp; duplicates are dropped.  When the stamps jitter by more
than 5 % of the median step the data are resampled onto a uniform grid (linear
interpolation, quaternions sign-aligned and renormalised), since the smoothing
filters assume uniform sampling.

Thrust is handled like :mod:`uwv_hydro.bag.replay_simulation`: every thrust topic is
transformed to the base frame through the description's fixed frames
(:class:`uwv_hydro.modes.thrust_mux.FrameResolver`) and held (zero-order hold) from
its stamp until the next message, contributing nothing once older than
``thrust_timeout``; the topics are summed.
"""

from dataclasses import dataclass, field
from typing import Dict, List, Sequence

import numpy as np

from uwv_hydro.bag.bag_reader import read_messages
from uwv_hydro.bag.rosbag_io import (BagError, ODOMETRY, odometry_arrays, stamp_to_ns, WRENCH,
                                     wrench_array)
from uwv_hydro.modes.thrust_mux import FrameResolver

#: Relative stamp jitter above which odometry is resampled onto a uniform grid.
JITTER_TOLERANCE = 0.05


@dataclass
class HeldThrust:
    """Zero-order-held thrust of several topics (base frame, about the origin)."""

    times: List[np.ndarray] = field(default_factory=list)    # per topic (k,) seconds
    values: List[np.ndarray] = field(default_factory=list)   # per topic (k, 6)
    timeout: float = 0.5

    def at(self, t) -> np.ndarray:
        """Return the summed held wrench (m, 6) at times ``t`` (m,)."""
        t = np.atleast_1d(np.asarray(t, dtype=float))
        out = np.zeros((t.size, 6))
        for times, values in zip(self.times, self.values):
            # Same rule as replay: last message stamped at or before t (1e-12 s slack)
            idx = np.searchsorted(times, t + 1e-12, side='right') - 1
            ok = idx >= 0
            ok[ok] &= (t[ok] - times[idx[ok]]) <= self.timeout
            out[ok] += values[idx[ok]]
        return out

    def window_mean(self, t, half_width: float, samples: int = 16) -> np.ndarray:
        """Return the mean held wrench over [t - half_width, t + half_width] (midpoint rule)."""
        t = np.asarray(t, dtype=float)
        offsets = ((np.arange(samples) + 0.5) / samples * 2.0 - 1.0) * half_width
        total = np.zeros((t.size, 6))
        for off in offsets:
            total += self.at(t + off)
        return total / samples


@dataclass
class Recording:
    """Uniformly sampled odometry (t, position, quaternion wxyz, twist) and thrust."""

    t: np.ndarray
    position: np.ndarray
    quaternion: np.ndarray
    twist: np.ndarray
    thrust: HeldThrust
    dt: float
    resampled: bool = False
    dropped_thrust: int = 0

    def samples(self, start: int, stop: int) -> 'Recording':
        """Return samples [start, stop) (the thrust history is shared)."""
        s = slice(start, stop)
        return Recording(self.t[s], self.position[s], self.quaternion[s], self.twist[s],
                         self.thrust, self.dt, self.resampled, self.dropped_thrust)


def _align_quaternions(q: np.ndarray) -> np.ndarray:
    q = np.array(q, dtype=float)
    for k in range(1, len(q)):
        if q[k] @ q[k - 1] < 0.0:
            q[k] = -q[k]
    return q


def uniform(t, position, quaternion, twist, thrust: HeldThrust) -> Recording:
    """Return a Recording, resampled onto a uniform grid when the stamps jitter."""
    t = np.asarray(t, dtype=float)
    if t.size < 3:
        raise ValueError('need at least 3 odometry samples, got %d' % t.size)
    steps = np.diff(t)
    dt = float(np.median(steps))
    if not dt > 0.0:
        raise ValueError('odometry stamps do not increase')
    quaternion = _align_quaternions(quaternion)
    if np.max(np.abs(steps - dt)) <= JITTER_TOLERANCE * dt:
        # Uniform enough: keep the samples, treat them as every dt
        return Recording(t, np.asarray(position, float), quaternion,
                         np.asarray(twist, float), thrust, dt)
    grid = t[0] + dt * np.arange(int(np.floor((t[-1] - t[0]) / dt + 1e-9)) + 1)

    def interp(a):
        a = np.asarray(a, dtype=float)
        return np.column_stack([np.interp(grid, t, a[:, j]) for j in range(a.shape[1])])

    q = interp(quaternion)
    q /= np.linalg.norm(q, axis=1)[:, None]
    return Recording(grid, interp(position), q, interp(twist), thrust, dt, resampled=True)


def load_recording(path, params, odometry_topic: str = '/odometry',
                   thrust_topics: Sequence[str] = ('/thrust',),
                   thrust_timeout: float = 0.5) -> Recording:
    """Read odometry and thrust topics of a bag (BagError names missing topics)."""
    frames = FrameResolver(params)
    types = {odometry_topic: ODOMETRY}
    types.update({t: WRENCH for t in thrust_topics})
    odom: Dict[int, list] = {}
    thrust: Dict[str, list] = {t: [] for t in thrust_topics}
    dropped = 0
    for topic, bag_ns, msg in read_messages(path, [odometry_topic] + list(thrust_topics),
                                            expected_types=types):
        if topic == odometry_topic:
            position, quat, twist = odometry_arrays(msg)
            ns = stamp_to_ns(msg.header.stamp) or bag_ns
            odom[ns] = [position, quat, twist]
            continue
        w = wrench_array(msg)
        frame = msg.header.frame_id
        w_base = frames.to_base(frame, w) if np.all(np.isfinite(w)) else None
        if w_base is None:
            dropped += 1
            continue
        stamp = stamp_to_ns(msg.header.stamp) or bag_ns
        thrust[topic].append((stamp * 1e-9, w_base))
    if len(odom) < 3:
        raise BagError('need odometry on %s (got %d messages)' % (odometry_topic, len(odom)),
                       source=str(path))
    stamps = sorted(odom)
    rows = [odom[s] for s in stamps]
    held = HeldThrust(timeout=float(thrust_timeout))
    for topic in thrust_topics:
        msgs = sorted(thrust[topic], key=lambda m: m[0])
        if msgs:
            held.times.append(np.array([m[0] for m in msgs]))
            held.values.append(np.array([m[1] for m in msgs]))
    rec = uniform(np.array(stamps) * 1e-9, np.array([r[0] for r in rows]),
                  np.array([r[1] for r in rows]), np.array([r[2] for r in rows]), held)
    rec.dropped_thrust = dropped
    return rec
