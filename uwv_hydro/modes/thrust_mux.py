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
Thruster wrenches: per-topic latest wrench in the base frame, summed, with a watchdog.

Each thrust topic carries a WrenchStamped whose header.frame_id is the thruster link.
The wrench is moved into the base frame through the URDF fixed-joint chain
(``VehicleParams.frames``; no tf2 needed since thrusters are rigidly mounted)::

    F_b = R F,    T_b = R T + t x F_b

with (t, R) the pose of the thruster frame in the base frame.  An empty frame_id
means the base frame.  A topic silent for longer than ``timeout`` (node clock)
contributes zero until messages return.
"""
from dataclasses import dataclass
from typing import Dict, Iterable, List, Optional, Tuple

import numpy as np

from uwv_hydro.physics.spatial.rotation import cross, quat_to_matrix


def transform_wrench(wrench, translation, rotation_wxyz) -> np.ndarray:
    """Return ``wrench`` (about and in a frame at (t, R) in the base) in the base frame."""
    r = quat_to_matrix(np.asarray(rotation_wxyz, dtype=float))
    return _move_wrench(np.asarray(wrench, dtype=float), np.asarray(translation, float), r)


def _move_wrench(w: np.ndarray, translation: np.ndarray, rotation: np.ndarray) -> np.ndarray:
    force = rotation @ w[:3]
    # Moving a wrench: T_b = R T + t x F_b
    torque = rotation @ w[3:] + cross(translation, force)
    return np.concatenate((force, torque))


class FrameResolver:
    """Looks up thruster frames in the vehicle's fixed frames (frame_prefix aware)."""

    def __init__(self, params, frame_prefix: str = ''):
        self._params = params
        self._prefix = frame_prefix
        self._cache: Dict[str, Tuple[np.ndarray, np.ndarray]] = {}
        self._matrices: Dict[str, Tuple[np.ndarray, np.ndarray]] = {}

    def strip(self, frame_id: str) -> str:
        """Return ``frame_id`` without the frame prefix (and a leading '/')."""
        frame = frame_id.lstrip('/')
        if self._prefix and frame.startswith(self._prefix):
            frame = frame[len(self._prefix):]
        return frame

    def lookup(self, frame_id: str) -> Optional[Tuple[np.ndarray, np.ndarray]]:
        """Return (translation, rotation wxyz) of the frame in the base, or None."""
        frame = self.strip(frame_id)
        if frame not in self._cache:
            try:
                self._cache[frame] = self._params.frame_transform(frame)
            except KeyError:
                return None
        return self._cache[frame]

    def to_base(self, frame_id: str, wrench) -> Optional[np.ndarray]:
        """Return ``wrench`` given in ``frame_id`` as a base-frame wrench, None if unknown."""
        frame = self.strip(frame_id)
        cached = self._matrices.get(frame)
        if cached is None:
            pose = self.lookup(frame_id)
            if pose is None:
                return None
            cached = self._matrices[frame] = (np.asarray(pose[0], float),
                                              quat_to_matrix(np.asarray(pose[1], float)))
        return _move_wrench(np.asarray(wrench, dtype=float), cached[0], cached[1])


@dataclass
class ThrustInput:
    """Latest accepted wrench of one thrust topic."""

    wrench: Optional[np.ndarray] = None
    received_ns: Optional[int] = None
    count: int = 0
    #: True while the topic is past its timeout after having delivered data.
    stale: bool = False


class ThrustMux:
    """Per-topic latest base-frame wrench; :meth:`total` sums the fresh ones."""

    def __init__(self, topics: Iterable[str], timeout_s: float):
        self.inputs: Dict[str, ThrustInput] = {t: ThrustInput() for t in topics}
        self.timeout_ns = int(timeout_s * 1e9)

    def set_timeout(self, timeout_s: float) -> None:
        """Change the watchdog timeout (s)."""
        self.timeout_ns = int(timeout_s * 1e9)

    def update(self, topic: str, wrench_base, now_ns: int) -> None:
        """Store the latest base-frame wrench of ``topic`` received at ``now_ns``."""
        entry = self.inputs[topic]
        entry.wrench = np.asarray(wrench_base, dtype=float)
        entry.received_ns = now_ns
        entry.count += 1

    def total(self, now_ns: int) -> Tuple[np.ndarray, List[str], List[str]]:
        """
        Return (summed wrench, topics that just went stale, topics that just recovered).

        A topic is fresh when its last message is at most ``timeout`` old.
        """
        fresh, went_stale, recovered = self.fresh(now_ns)
        total = np.zeros(6)
        for wrench in fresh.values():
            total += wrench
        return total, went_stale, recovered

    def fresh(self, now_ns: int) -> Tuple[Dict[str, np.ndarray], List[str], List[str]]:
        """Return (latest value of each fresh topic, topics just gone stale, just recovered)."""
        fresh: Dict[str, np.ndarray] = {}
        went_stale, recovered = [], []
        for topic, entry in self.inputs.items():
            if entry.received_ns is None:
                continue
            if now_ns - entry.received_ns <= self.timeout_ns:
                fresh[topic] = entry.wrench
                if entry.stale:
                    entry.stale = False
                    recovered.append(topic)
            elif not entry.stale:
                entry.stale = True
                went_stale.append(topic)
        return fresh, went_stale, recovered

    def state(self, topic: str) -> str:
        """Return 'waiting' (never received), 'ok' or 'stale'."""
        entry = self.inputs[topic]
        if entry.received_ns is None:
            return 'waiting'
        return 'stale' if entry.stale else 'ok'

    def age_s(self, topic: str, now_ns: int) -> Optional[float]:
        """Return the age (s) of the topic's last message, or None."""
        entry = self.inputs[topic]
        if entry.received_ns is None:
            return None
        return (now_ns - entry.received_ns) * 1e-9

    def clear(self) -> None:
        """Forget every topic's wrench and timestamp (after a clock jump or reset)."""
        for entry in self.inputs.values():
            entry.wrench = None
            entry.received_ns = None
            entry.stale = False
