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
TF of a vehicle with moving links laid out as robot_state_publisher lays it out.

The vehicle-manipulator look-alike (test/corpus/uuv_simulator/uvms_like.urdf.xacro)
mounts its arm's base on the vehicle's base link by a zero-range joint: the base body
holds ``base_link``, ``propeller`` and ``arm/base``, and the shoulder joint's parent
link is ``arm/base``, not the body root.  What the simulate mode sends on /tf (the moving
joints) and /tf_static (the fixed links) must give each link exactly its URDF parent
(written out below from the file), and the chain of transforms from the base to every
link must compose to the link's pose by the multibody model's forward kinematics
(Pinocchio), at a base pose and joint angles away from zero, with the arm's mount
rotated or not, and through the YAML export (which keeps the links with hydro).
"""
import pathlib

import numpy as np
import pytest
from required_modules import require
from test_link_tree_descriptions import rot_x, rot_z

from uwv_hydro.description.loader import load_vehicle
from uwv_hydro.description.yaml.export import export_yaml
from uwv_hydro.physics.spatial.rotation import quat_to_matrix

require('pinocchio')

UVMS = pathlib.Path(__file__).resolve().parents[2] / 'corpus' / 'uuv_simulator' / \
    'uvms_like.urdf.xacro'
#: Each link's parent link in the URDF (the <parent> of the joint whose <child> it is).
URDF_PARENTS = {'propeller': 'base_link', 'arm/base': 'base_link', 'arm/upper': 'arm/base',
                'arm/fore': 'arm/upper', 'arm/jaw': 'arm/fore'}
QUATERNION = np.array([0.9, 0.2, -0.3, 0.25]) / np.linalg.norm([0.9, 0.2, -0.3, 0.25])
#: Poses composed through a few 3x3 products: rounding far below this.
TOLERANCE = 1e-9


def _vehicle(tmp_path, mount_rpy):
    text = UVMS.read_text().replace('<origin xyz="0.8 0.2 -0.3" rpy="0 0 0"/>',
                                    '<origin xyz="0.8 0.2 -0.3" rpy="%s"/>' % mount_rpy)
    assert mount_rpy == '0 0 0' or 'rpy="%s"' % mount_rpy in text
    path = tmp_path / 'uvms.urdf.xacro'
    path.write_text(text)
    return load_vehicle(str(path))


@pytest.mark.parametrize('through_yaml', [False, True], ids=['urdf', 'exported_yaml'])
@pytest.mark.parametrize('mount_rpy', ['0 0 0', '0.3 -0.2 0.5'])
def test_tf_chain_composes_to_forward_kinematics_with_urdf_parents(tmp_path, mount_rpy,
                                                                   through_yaml):
    from uwv_hydro.modes.articulated_simulate_mode import ArticulatedSimulateMode
    from uwv_hydro.physics.body.dynamics import State
    vehicle = _vehicle(tmp_path, mount_rpy)
    parents = dict(URDF_PARENTS)
    if through_yaml:  # export_yaml keeps every link, the propeller without hydro too
        path = tmp_path / 'exported.yaml'
        path.write_text(export_yaml(vehicle))
        vehicle = load_vehicle(str(path))
    tree = vehicle.tree
    assert tree.joint_names() == ['arm/shoulder', 'arm/elbow']
    start = State(position=np.array([1.0, -2.0, -10.0]), quaternion=QUATERNION)
    mode = ArticulatedSimulateMode(vehicle, 0.01, initial=start, joint_positions=[0.7, -0.9])
    sent = [(parent, child, np.asarray(p, float), quat_to_matrix(q))
            for parent, child, p, q in mode.joint_transforms()]
    sent += [(parent, link, p, r) for parent, link, p, r in tree.fixed_link_frames()]
    children = [child for _, child, _, _ in sent]
    assert sorted(children) == sorted(parents), 'each link but the base sent once'
    assert {child: parent for parent, child, _, _ in sent} == parents
    for _, _, _, rotation in sent:  # proper rotations (quaternions are unit)
        np.testing.assert_allclose(rotation @ rotation.T, np.eye(3), atol=TOLERANCE)
    # compose odom -> base -> ... -> link
    world = {tree.base: (start.position, quat_to_matrix(start.quaternion))}
    pending = list(sent)
    while pending:
        parent, child, p, r = next(s for s in pending if s[0] in world)
        pending.remove((parent, child, p, r))
        p_w, r_w = world[parent]
        # pose composition: p = p_w + R_w p, R = R_w R
        world[child] = (p_w + r_w @ p, r_w @ r)
    kin = mode.dynamics.multibody.kinematics(start.position, start.quaternion, np.zeros(6),
                                             mode.q, np.zeros(2)).links
    assert sorted(kin.names) == sorted(world)
    for k, link in enumerate(kin.names):
        np.testing.assert_allclose(world[link][0], kin.position[k], atol=TOLERANCE,
                                   err_msg=link)
        np.testing.assert_allclose(world[link][1], kin.rotation[k], atol=TOLERANCE,
                                   err_msg=link)
    # the shoulder in arm/base as its URDF joint says: origin xyz 0.1 0 0.05, rpy pi/2 0 0,
    # then the angle about the axis z
    (p, r), = [(p, r) for _, child, p, r in sent if child == 'arm/upper']
    np.testing.assert_allclose(p, [0.1, 0.0, 0.05], atol=TOLERANCE)
    np.testing.assert_allclose(r, rot_x(np.pi / 2) @ rot_z(0.7), atol=TOLERANCE)
