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
Odometry of a fixed child frame becomes the base's (issue 17, item 4), without ROS.

The reference is a rigid motion sampled in time: the base follows a smooth pose
trajectory, the child frame is carried along at a fixed offset, and both body twists
are central differences of their poses (v = R^T dp/dt, S(w) = R^T dR/dt).  Nothing
of the transform under test is used to build the reference.
"""
from nodes.harness import REPO
import numpy as np
import pytest

from uwv_hydro.modes.odometry_frames import child_to_base, OdometryFrames
from uwv_hydro.modes.thrust_mux import FrameResolver
from uwv_hydro.physics.spatial.rotation import matrix_to_quat, quat_from_rpy, quat_to_matrix


def _rot(rpy):
    return quat_to_matrix(quat_from_rpy(*rpy))


def _base_pose(t):
    """Return the position and rotation at time t of a smooth base trajectory in odom."""
    p = np.array([1.0 + 0.7 * t + 0.2 * t * t, -2.0 + np.sin(t), -5.0 + 0.3 * np.cos(2 * t)])
    r = _rot((0.4 * np.sin(1.3 * t), -0.3 + 0.2 * t, 0.5 * t * t))
    return p, r


def _body_twist(pose, t, h=1e-5):
    """Body twist [v, w] (in the moving frame) from central differences of pose(t)."""
    (_, r0), (p1, r1), (pm, rm) = pose(t), pose(t + h), pose(t - h)
    v = r0.T @ (p1 - pm) / (2 * h)
    s = r0.T @ (r1 - rm) / (2 * h)  # S(w) = R^T dR/dt
    w = np.array([s[2, 1] - s[1, 2], s[0, 2] - s[2, 0], s[1, 0] - s[0, 1]]) / 2
    return np.concatenate((v, w))


@pytest.mark.parametrize('translation,rpy', [
    ((0.9, 0.0, -0.35), (np.pi, 0.0, np.pi / 2)),  # a DVL: below, rotated
    ((-1.0, 0.5, 0.0), (0.0, 0.0, 0.0)),           # offset only
    ((0.0, 0.0, 0.0), (0.1, -0.7, 2.0)),           # rotation only
])
def test_child_odometry_becomes_the_base_odometry_of_the_rigid_motion(translation, rpy):
    t_bc, r_bc = np.array(translation), _rot(rpy)

    def child_pose(t):
        p, r = _base_pose(t)
        return p + r @ t_bc, r @ r_bc

    q_bc = matrix_to_quat(r_bc)
    for t in (0.0, 0.8, 2.3):
        p_c, r_c = child_pose(t)
        nu_c = _body_twist(child_pose, t)
        p, q, nu = child_to_base(p_c, matrix_to_quat(r_c), nu_c, t_bc, q_bc)
        p_b, r_b = _base_pose(t)
        np.testing.assert_allclose(p, p_b, atol=1e-12)
        np.testing.assert_allclose(quat_to_matrix(q), r_b, atol=1e-12)
        np.testing.assert_allclose(nu, _body_twist(_base_pose, t), atol=1e-7)
        assert np.linalg.norm(nu[3:]) > 0.1 and np.linalg.norm(nu[:3]) > 0.1


def test_frame_ids_accepted_and_refused():
    from uwv_hydro.description.loader import load_vehicle
    vehicle = load_vehicle(str(REPO / 'urdf' / 'dsros_vehicle.urdf.xacro'))
    strict = OdometryFrames(FrameResolver(vehicle, 'auv/'), 'odom')
    assert strict.check('odom', 'auv/base_link') == (None, '')
    assert strict.check('/odom', '') == (None, '')  # empty child: the base link
    pose, problem = strict.check('odom', 'auv/dvl_link')
    assert problem == '' and pose is not None
    # the DVL hangs off a sensor mount: the composed fixed chain
    np.testing.assert_allclose(pose[0], [0.8, 0.1, -0.35], atol=1e-12)
    for header, child in (('map', 'auv/base_link'), ('odom', 'auv/ins_link'), ('', '')):
        pose, problem = strict.check(header, child)
        assert pose is None and problem, (header, child)
    loose = OdometryFrames(FrameResolver(vehicle, 'auv/'), 'odom', accept_any=True)
    assert loose.check('map', 'ins_link') == (None, '')
    assert loose.check('map', 'auv/dvl_link')[0] is not None
