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
Thruster wrenches into the base frame through the URDF's fixed-joint chain.

A thruster driver publishes a wrench in its own link frame (header.frame_id); with the
link's pose in the base frame (translation t, rotation R base <- link) the wrench about
the base origin is F_b = R F, T_b = R T + t x F_b (rigid-body wrench transfer).  An
empty frame id means the base frame.  No tf2 is needed: fixed joints do not move.
"""

from typing import Dict, Sequence, Tuple

import numpy as np

from uwv_hydro.physics.rotation import quat_to_matrix
from uwv_hydro.vehicle_params import VehicleParams


class UnknownFrame(KeyError):
    """A wrench names a frame that is not rigidly attached to the base link."""


class ThrustTransform:
    """Cache of frame -> (R, t) for one vehicle; transforms wrenches to the base."""

    def __init__(self, params: VehicleParams):
        self.base_frame = params.base_frame
        self._frames: Dict[str, Tuple[np.ndarray, np.ndarray]] = {}
        for name, frame in params.frames.items():
            self._frames[name] = (quat_to_matrix(np.asarray(frame.rotation, float)),
                                  np.asarray(frame.translation, float))

    def knows(self, frame_id: str) -> bool:
        """Return whether ``frame_id`` can be transformed (base, empty or a fixed link)."""
        return frame_id in ('', self.base_frame) or frame_id in self._frames

    def to_base(self, frame_id: str, wrench: Sequence[float]) -> np.ndarray:
        """Return the wrench [F, T] given in ``frame_id`` as a wrench about the base origin."""
        w = np.asarray(wrench, float)
        if frame_id in ('', self.base_frame):
            return w.copy()
        try:
            rot, t = self._frames[frame_id]
        except KeyError:
            raise UnknownFrame(frame_id) from None
        force = rot @ w[:3]
        # T_b = R T + t x F_b (moment of the force about the base origin)
        torque = rot @ w[3:] + np.cross(t, force)
        return np.concatenate([force, torque])
