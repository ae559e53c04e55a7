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
Forward kinematics of a kinematic tree (Pinocchio) against DART, an independent engine.

The tree of ``arm_trees.three_joint_tree`` (revolute with an SDF-style child pose,
prismatic, continuous about -z, links at poses of their own) is built a second time as
a DART skeleton (dartpy, the engine under gz-sim; ``articulated_reference.dart_skeleton``,
the engine of the articulated comparisons): a FreeJoint base, each joint with DART's
parent-to-joint and child-to-joint transforms; each extra link a SimpleFrame on its
body.  At random states (base pose and twist, joint positions and velocities, and
accelerations) every body's and link's pose, twist and acceleration agree to 1e-9
(rounding only: both are exact recursions).  DART orders spatial vectors [angular,
linear]; the project [linear, angular].
"""
from arm_trees import three_joint_tree
from articulated_reference import dart_set_state, dart_skeleton
import numpy as np
import pytest
from required_modules import require
from transforms3d.quaternions import mat2quat

require('pinocchio')

from uwv_hydro.physics.articulated.model.multibody import MultibodyModel  # noqa: E402

# pinned in requirements.txt; a sourced ROS 2 installation may lack it
dart = require('dartpy')

#: Kinematics agree to rounding: both engines run exact recursions on the same numbers.
TOLERANCE = 1e-9


def _iso(rotation, position):
    return dart.math.Isometry3(np.asarray(rotation, float), np.asarray(position, float))


def _dart_tree(tree):
    """Return (skeleton, free joint, {body: node}, {joint: joint}, {link: frame})."""
    skeleton, free, nodes, joints = dart_skeleton(tree)
    frames = {}
    for name, body in tree.bodies.items():
        for link, (position, rotation) in body.links.items():
            frames[link] = dart.dynamics.SimpleFrame(nodes[name], link, _iso(rotation, position))
    return skeleton, free, nodes, dict(zip(tree.joint_names(), joints)), frames


def _random_state(rng, n):
    position = rng.normal(size=3) * 5.0
    quaternion = rng.normal(size=4)
    quaternion /= np.linalg.norm(quaternion)
    return (position, quaternion, rng.normal(size=6), rng.normal(size=n),
            rng.normal(size=n), rng.normal(size=6), rng.normal(size=n))


def _set_dart_state(tree, free, nodes, joints, state):
    position, quaternion, twist, q, qdot, acc, qddot = state
    dart_set_state(tree, free, nodes, list(joints.values()), (position, quaternion, twist, q),
                   qdot)
    for k, j in enumerate(tree.joints):
        joints[j.name].setAcceleration(0, qddot[k])
    # the base's body acceleration [w_dot, v_dot] relative to the world, in base coordinates
    free.setSpatialAcceleration(np.r_[acc[3:], acc[:3]], dart.dynamics.Frame.World(),
                                nodes[tree.base])


def _dart_frame(frame):
    """Return (position, rotation, twist, acceleration) of a DART frame, project order."""
    transform = frame.getWorldTransform()
    v = np.asarray(frame.getSpatialVelocity(), float)
    a = np.asarray(frame.getSpatialAcceleration(), float)
    return (np.asarray(transform.translation(), float), np.asarray(transform.rotation(), float),
            np.r_[v[3:], v[:3]], np.r_[a[3:], a[:3]])


def _assert_frames(ours, k, theirs, what):
    position, rotation, twist, acceleration = theirs
    for got, want, name in ((ours.position[k], position, 'position'),
                            (ours.rotation[k], rotation, 'rotation'),
                            (ours.twist[k], twist, 'twist'),
                            (ours.acceleration[k], acceleration, 'acceleration')):
        np.testing.assert_allclose(got, want, rtol=0, atol=TOLERANCE,
                                   err_msg='%s %s' % (what, name))


def test_kinematics_of_every_body_and_link_equal_dart():
    tree = three_joint_tree()
    model = MultibodyModel(tree)
    assert model.joint_names == ['shoulder', 'extend', 'wrist_roll']
    assert model.body_names == ['base_link', 'upper_arm', 'slider', 'wrist']
    _, free, nodes, joints, frames = _dart_tree(tree)
    rng = np.random.default_rng(30)
    for _ in range(20):
        state = _random_state(rng, 3)
        _set_dart_state(tree, free, nodes, joints, state)
        position, quaternion, twist, q, qdot, acc, qddot = state
        kin = model.kinematics(position, quaternion, twist, q, qdot, acc, qddot)
        for k, name in enumerate(model.body_names):
            _assert_frames(kin.bodies, k, _dart_frame(nodes[name]), name)
        for k, name in enumerate(model.link_names):
            _assert_frames(kin.links, k, _dart_frame(frames[name]), name)


def test_without_accelerations_none_are_computed():
    tree = three_joint_tree()
    model = MultibodyModel(tree)
    state = _random_state(np.random.default_rng(1), 3)
    kin = model.kinematics(*state[:5])
    assert kin.bodies.acceleration is None and kin.links.acceleration is None
    with_acc = model.kinematics(*state)
    np.testing.assert_allclose(kin.links.twist, with_acc.links.twist, rtol=0, atol=1e-12)


def test_base_body_is_the_odometry_pose_and_twist():
    """The base's pose and twist are the inputs themselves (REP-105 child-frame twist)."""
    model = MultibodyModel(three_joint_tree())
    rng = np.random.default_rng(2)
    position, quaternion, twist, q, qdot, _, _ = _random_state(rng, 3)
    kin = model.kinematics(position, quaternion, twist, q, qdot)
    np.testing.assert_allclose(kin.bodies.position[0], position, rtol=0, atol=1e-12)
    # the same rotation (transforms3d gives w >= 0)
    np.testing.assert_allclose(mat2quat(kin.bodies.rotation[0]),
                               quaternion * np.sign(quaternion[0]), rtol=0, atol=1e-12)
    np.testing.assert_allclose(kin.bodies.twist[0], twist, rtol=0, atol=1e-12)


def test_joint_limits_and_effort_reach_the_model():
    tree = three_joint_tree()
    model = MultibodyModel(tree)
    # q = [base 7, shoulder, extend, wrist_roll]; the continuous joint has no limits
    np.testing.assert_array_equal(model.model.lowerPositionLimit[7:], [-2.0, 0.0, -np.inf])
    np.testing.assert_array_equal(model.model.upperPositionLimit[7:], [2.0, 0.2, np.inf])
    assert model.model.nq == 10 and model.model.nv == 9


@pytest.mark.parametrize('change, message', [
    (lambda t: t.joints.reverse(), "parent body 'slider' is not placed before it"),
    (lambda t: setattr(t.joints[0], 'axis', np.zeros(3)), 'is not a direction'),
    (lambda t: setattr(t.joints[1], 'kind', 'fixed'), "type 'fixed' is not one of"),
    (lambda t: t.joints.pop(), "bodies ['wrist'] are joined to nothing"),
])
def test_a_broken_tree_is_refused_with_the_joint_named(change, message):
    tree = three_joint_tree()
    change(tree)
    with pytest.raises(ValueError) as err:
        MultibodyModel(tree)
    assert message in str(err.value)
