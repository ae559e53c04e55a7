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
Odometry frames: which odometry the wrench mode may use, and how it becomes the base's.

nav_msgs/Odometry gives the pose of ``child_frame_id`` in ``header.frame_id`` and the
twist of ``child_frame_id`` expressed in ``child_frame_id`` (REP-105).  The wrench mode
needs the pose and body twist of the base link in ``odom_frame``:

* ``header.frame_id`` must be ``odom_frame`` (a pose in ``map`` is not one in ``odom``);
* ``child_frame_id`` must be the base link or a frame rigidly attached to it through the
  URDF's fixed joints (a DVL or INS frame); an empty one means the base link.  With
  (t, R_bc) the pose of the child frame c in the base frame b (rigid body kinematics,
  Fossen 2021 ch. 2 / Featherstone's motion transform)::

      R_ob = R_oc R_bc^T,      p_ob = p_oc - R_ob t
      w_b = R_bc w_c,          v_b = R_bc v_c - w_b x t

  (the base origin moves with the child's velocity plus w x (p_ob - p_oc)).

Anything else is refused as ``frame_mismatch`` unless ``accept_any`` (the parameter
``accept_any_odometry_frames``) is set; then the header frame is taken as the world
and a child frame that is not a vehicle frame as the base link, as before.
"""
from typing import Optional, Tuple

import numpy as np

from uwv_hydro.physics.spatial.rotation import cross, matrix_to_quat, quat_to_matrix


def child_to_base(position, quaternion, twist, translation, rotation_wxyz
                  ) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """
    Return (position, quaternion wxyz, twist) of the base from those of a fixed child frame.

    ``translation`` and ``rotation_wxyz`` are the child frame's pose in the base frame;
    ``twist`` is [v, w] of the child frame expressed in the child frame.
    """
    r_bc = quat_to_matrix(np.asarray(rotation_wxyz, dtype=float))
    t = np.asarray(translation, dtype=float)
    # R_ob = R_oc R_bc^T
    r_ob = quat_to_matrix(np.asarray(quaternion, dtype=float)) @ r_bc.T
    # p_ob = p_oc - R_ob t
    p_ob = np.asarray(position, dtype=float) - r_ob @ t
    nu = np.asarray(twist, dtype=float)
    w_b = r_bc @ nu[3:]
    # v_b = R_bc v_c - w_b x t (velocity of the base origin on the same rigid body)
    v_b = r_bc @ nu[:3] - cross(w_b, t)
    q_ob = matrix_to_quat(r_ob)
    return p_ob, q_ob, np.concatenate((v_b, w_b))


class OdometryFrames:
    """Checks odometry frame ids and moves the odometry to the base (see the module doc)."""

    def __init__(self, resolver, odom_frame: str, accept_any: bool = False):
        #: a :class:`uwv_hydro.modes.thrust_mux.FrameResolver` of the vehicle
        self.resolver = resolver
        self.odom_frame = odom_frame.lstrip('/')
        self.accept_any = bool(accept_any)

    def check(self, header_frame: str, child_frame: str):
        """
        Return (pose of the child in the base or None for the base itself, problem or '').

        A non-empty problem means the message is a ``frame_mismatch``.
        """
        pose = self.resolver.lookup(child_frame)
        if self.accept_any:
            return self._non_trivial(pose), ''
        if header_frame.lstrip('/') != self.odom_frame:
            return None, ('header.frame_id %r is not odom_frame %r'
                          % (header_frame, self.odom_frame))
        if pose is None:
            return None, ('child_frame_id %r is not the base link or a fixed frame of the '
                          'vehicle' % child_frame)
        return self._non_trivial(pose), ''

    @staticmethod
    def _non_trivial(pose) -> Optional[Tuple[np.ndarray, np.ndarray]]:
        if pose is None:
            return None
        translation, rotation = pose
        if not np.any(translation) and np.array_equal(rotation, [1.0, 0.0, 0.0, 0.0]):
            return None
        return pose
