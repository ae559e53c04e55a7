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
Per-link hydrodynamics beside an engine (LinkWrenchMode) against invariants and by-hand sums.

* Joints at zero and still: the summed wrench equals today's rigid WrenchMode of the same
  vehicle lumped independently (arm_trees.lumped: weighted sums and
  link_hydrodynamics.combine), every component, to 1e-9, with both added-mass options,
  a current and a turning vehicle.
* The arm swung 90 degrees: the base wrench changes by what the arm's buoyancy, weight
  and drag at their rotated points give, written out here; the arm's own wrench in its
  frame is the same forces at its own points.
* Joint motion: a swinging arm's drag and its filtered joint acceleration's added mass
  are the by-hand values of a link turning about its own origin.
* The per-link and per-body wrenches moved to the base by their poses sum to the total.
* Joint states: the rules of the module docstring (rejected, missing, unknown once).
"""
from arm_trees import (ARM_BUOYANCY, ARM_COB, ARM_COM, ARM_DRAG_POINT, ARM_LINEAR, ARM_MASS,
                       arm_part, arm_vehicle, GRAVITY, lumped, SHOULDER, three_joint_tree)
import numpy as np
import pytest
from transforms3d.euler import euler2quat
from required_modules import require  # noqa: I100

require('pinocchio')

from uwv_hydro.modes.link_wrench_mode import LinkWrenchMode  # noqa: E402
from uwv_hydro.modes.wrench_mode import WrenchMode  # noqa: E402
from uwv_hydro.physics.articulated.algorithms.link_wrench import PartWrenches  # noqa: E402
from uwv_hydro.physics.articulated.model.link_tree import LinkHydroPart  # noqa: E402
from uwv_hydro.physics.body.vehicle_params import (  # noqa: E402
    COMPONENT_NAMES, SurfaceTransition, VehicleParams)

#: Forces of hundreds of newtons summed in different orders: rounding far below this.
TOLERANCE = 1e-9
DEEP = np.array([3.0, -2.0, -40.0])
LEVEL = np.array([1.0, 0.0, 0.0, 0.0])


def _force_at(force, point):
    """Return the wrench [F, p x F] of a force at a point (written out for the test)."""
    force = np.asarray(force, float)
    return np.r_[force, np.cross(point, force)]


def _states(n=25):
    """Return (t, position, quaternion, twist) of a turning, pitching, drifting vehicle."""
    for k in range(n):
        t = 0.02 * k
        q = euler2quat(0.2 * np.sin(3 * t), -0.1 + 0.3 * t, 1.0 + 0.8 * t, 'sxyz')
        nu = np.array([1.1 + 0.5 * t, -0.2 + t, 0.1 * np.cos(5 * t), 0.3 - t, 0.2 * t, 0.4])
        yield t, DEEP + [0.5 * t, 0.0, 0.1 * t], q, nu


@pytest.mark.parametrize('added_mass', ['implicit', 'lagged'])
def test_joints_at_zero_give_the_lumped_rigid_wrench(added_mass):
    tree = LinkWrenchMode(arm_vehicle(), added_mass, apply_weight=True)
    rigid = WrenchMode(lumped(), added_mass, apply_weight=True)
    assert tree.joint_state(['shoulder'], [0.0], [0.0]) is None
    current, rate = np.array([0.3, -0.2, 0.05]), np.array([0.01, 0.02, -0.01])
    for t, position, quaternion, nu in _states():
        got = tree.evaluate(t, position, quaternion, nu, current, rate)
        want = rigid.evaluate(t, position, quaternion, nu, current, rate)
        for name in COMPONENT_NAMES:
            np.testing.assert_allclose(got.components[name], want.components[name], rtol=0,
                                       atol=TOLERANCE, err_msg=name)
        np.testing.assert_allclose(got.total, want.total, rtol=0, atol=TOLERANCE)
    # the comparison covers every term: each is well away from zero at the last state
    live = ['weight', 'buoyancy', 'linear_drag', 'quadratic_drag', 'added_mass',
            'added_mass_coriolis']
    assert all(np.linalg.norm(want.components[name]) > 0.05 for name in live)


def _arm_case(q, qdot=0.0, u=0.8):
    mode = LinkWrenchMode(arm_vehicle(), 'implicit', apply_weight=True)
    assert mode.joint_state(['shoulder'], [q], [qdot]) is None
    out = mode.evaluate(0.0, DEEP, LEVEL, [u, 0.0, 0.0, 0.0, 0.0, 0.0])
    return out, out.link_wrenches[out.link_names.index('arm_link')]


def test_swung_arm_moves_its_buoyancy_weight_and_drag_as_derived_by_hand():
    u = 0.8
    b, w = ARM_BUOYANCY * GRAVITY, ARM_MASS * GRAVITY
    lx, ly = ARM_LINEAR[0], ARM_LINEAR[1]
    # q = 0: the arm's axes are the base's; surge u is the arm's x flow
    at_zero = (_force_at([0, 0, b], SHOULDER + ARM_COB) + _force_at([0, 0, -w], SHOULDER + ARM_COM)
               + _force_at([-lx * u, 0, 0], SHOULDER + ARM_DRAG_POINT))
    # q = 90 deg: arm x is base y, arm y is base -x; the flow u is -u along arm y, whose
    # drag +ly u along arm y is -ly u along base x; points (x, y, z) go to (-y, x, z)
    turned = (_force_at([0, 0, b], SHOULDER + [-ARM_COB[1], ARM_COB[0], ARM_COB[2]])
              + _force_at([0, 0, -w], SHOULDER + [-ARM_COM[1], ARM_COM[0], ARM_COM[2]])
              + _force_at([-ly * u, 0, 0], SHOULDER + [0.0, ARM_DRAG_POINT[0], 0.0]))
    zero, arm_zero = _arm_case(0.0, u=u)
    swung, arm_swung = _arm_case(np.pi / 2, u=u)
    np.testing.assert_allclose(swung.total - zero.total, turned - at_zero, rtol=0,
                               atol=TOLERANCE)
    assert np.linalg.norm(turned - at_zero) > 10.0  # the swing matters
    # the arm's own wrench, arm frame about its origin: the same forces at its points
    np.testing.assert_allclose(arm_swung, _force_at([0, 0, b], ARM_COB)
                               + _force_at([0, 0, -w], ARM_COM)
                               + _force_at([0, ly * u, 0], ARM_DRAG_POINT), rtol=0,
                               atol=TOLERANCE)
    np.testing.assert_allclose(arm_zero[:3], [-lx * u, 0, b - w], rtol=0, atol=TOLERANCE)


def test_a_swinging_arm_drags_on_its_own_turn_rate():
    """Base still, arm turning at qdot about its origin: the drag point moves at qdot x r."""
    qdot = 0.5
    _, still = _arm_case(np.pi / 2, 0.0, u=0.0)
    _, turning = _arm_case(np.pi / 2, qdot, u=0.0)
    # the drag point (0.3, 0, 0) moves at (0, 0.3 qdot, 0); the link turns at qdot about z
    drag = -ARM_LINEAR * np.array([0.0, ARM_DRAG_POINT[0] * qdot, 0.0, 0.0, 0.0, qdot])
    expected = _force_at(drag[:3], ARM_DRAG_POINT) + np.r_[0.0, 0.0, 0.0, drag[3:]]
    np.testing.assert_allclose(turning - still, expected, rtol=0, atol=TOLERANCE)


def test_lagged_added_mass_of_a_joint_acceleration():
    """
    Base still, the arm's joint rate steps 0 -> 0.2 rad/s in 0.1 s: qddot_hat = alpha 2.

    The link turns about its own origin (on the axis), so its twist is [0, 0, 0, 0, 0,
    qdot] and its acceleration [0, 0, 0, 0, 0, qddot_hat] (no velocity-product term):
    -M_A a and -C_A(nu) nu of the arm's M_A, moved to the base at SHOULDER.
    """
    mode = LinkWrenchMode(arm_vehicle(), 'lagged', acceleration_alpha=0.3)
    still = np.zeros(6)
    mode.joint_state(['shoulder'], [0.0], [0.0])
    mode.evaluate(0.0, DEEP, LEVEL, still)
    mode.joint_state(['shoulder'], [0.0], [0.2])
    out = mode.evaluate(0.1, DEEP, LEVEL, still)
    m_a = arm_part().added_mass
    qddot = 0.3 * 0.2 / 0.1
    inertial = -m_a[:, 5] * qddot
    # Fossen 2011 eq. 6.43 written out: a = M_A nu, -C_A nu = [a1 x w, a1 x v + a2 x w]
    a = m_a[:, 5] * 0.2
    w = np.array([0.0, 0.0, 0.2])
    coriolis = np.r_[np.cross(a[:3], w), np.cross(a[3:], w)]
    np.testing.assert_allclose(out.components['added_mass'],
                               _force_at(inertial[:3], SHOULDER) + np.r_[0, 0, 0, inertial[3:]],
                               rtol=0, atol=TOLERANCE)
    np.testing.assert_allclose(out.components['added_mass_coriolis'],
                               _force_at(coriolis[:3], SHOULDER) + np.r_[0, 0, 0, coriolis[3:]],
                               rtol=0, atol=TOLERANCE)
    assert abs(out.components['added_mass'][1]) > 0.1


def _moved_to(rotation, position, wrench):
    """Return a wrench about a frame at (position, rotation) moved to the parent origin."""
    force = rotation @ wrench[:3]
    return np.r_[force, rotation @ wrench[3:] + np.cross(position, force)]


@pytest.mark.parametrize('added_mass', ['implicit', 'lagged'])
def test_links_and_bodies_sum_to_the_base_wrench(added_mass):
    mode = LinkWrenchMode(arm_vehicle(), added_mass, apply_weight=True)
    for k, (t, position, quaternion, nu) in enumerate(_states(6)):
        mode.joint_state(['shoulder'], [0.7 + 0.1 * k], [0.3])
        out = mode.evaluate(t, position, quaternion, nu, [0.2, 0.1, 0.0])
    base_r, base_p = out.body_rotations[0], out.body_positions[0]
    for names, wrenches, positions, rotations in (
            (out.link_names, out.link_wrenches, out.link_positions, out.link_rotations),
            (out.body_names, out.body_wrenches, out.body_positions, out.body_rotations)):
        total = sum(_moved_to(base_r.T @ r, base_r.T @ (p - base_p), w)
                    for w, p, r in zip(wrenches, positions, rotations))
        np.testing.assert_allclose(total, out.total, rtol=0, atol=TOLERANCE, err_msg=str(names))
    assert out.link_names == ['base_link', 'fairing', 'camera', 'arm_link']
    assert out.body_names == ['base_link', 'arm_link']


def test_part_buoyancy_follows_the_depth_of_its_cob():
    """A continuous surface transition 0..1 m scaled by the CoB's depth, not the origin's."""
    part = LinkHydroPart('float', buoyancy_mass=2.0, cob=np.array([0.4, 0.0, 0.0]),
                         surface=SurfaceTransition(0.0, 1.0, 1.0, 'continuous'))
    parts = PartWrenches([part], gravity=GRAVITY)
    # link origin 0.5 m deep, pitched nose down 90 deg: its x axis points down, so the
    # CoB 0.4 m along x is 0.9 m deep
    pitch = np.array([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0]])
    out = parts.wrenches(pitch[None], np.array([[0.0, 0.0, -0.5]]), np.zeros((1, 6)))
    buoyancy = out[0, COMPONENT_NAMES.index('buoyancy')]
    # world up is -x of the link (R^T z = [-1, 0, 0]); 0.9 of full buoyancy
    np.testing.assert_allclose(buoyancy[:3], [-0.9 * 2.0 * GRAVITY, 0.0, 0.0], rtol=0,
                               atol=TOLERANCE)
    np.testing.assert_allclose(buoyancy[3:], np.zeros(3), rtol=0, atol=TOLERANCE)
    assert parts.wrenches(pitch[None], None, np.zeros((1, 6)))[0, 1, 0] == pytest.approx(
        -2.0 * GRAVITY, abs=TOLERANCE)


def _three_joint_mode():
    params = VehicleParams(mass=45.0, inertia=np.eye(3), tree=three_joint_tree())
    return LinkWrenchMode(params)


def test_joint_states_by_name_with_their_counts():
    mode = _three_joint_mode()
    assert mode.joint_names == ['shoulder', 'extend', 'wrist_roll']
    # any order; an unknown name is ignored and reported once
    assert mode.joint_state(['wrist_roll', 'gripper', 'shoulder', 'extend'],
                            [0.3, 9.0, 0.1, 0.05], [0.03, 9.0, 0.01, 0.005]) is None
    assert mode.new_unknown == ['gripper']
    np.testing.assert_array_equal(mode.positions, [0.1, 0.05, 0.3])
    np.testing.assert_array_equal(mode.velocities, [0.01, 0.005, 0.03])
    assert mode.joint_state(['gripper', 'shoulder'], [float('nan'), 0.2], [0.0, 0.0]) is None
    assert mode.new_unknown == []  # a NaN of a joint we do not use rejects nothing
    assert dict(mode.missing) == {'extend': 1, 'wrist_roll': 1}
    np.testing.assert_array_equal(mode.positions, [0.2, 0.05, 0.3])  # the rest kept
    # no velocity: positions taken, velocities kept
    assert mode.joint_state(['extend'], [0.1]) is None
    assert mode.no_velocity == 1 and mode.velocities[1] == 0.005
    # a message of another publisher on the topic (no joint of ours) changes nothing
    missing = dict(mode.missing)
    assert mode.joint_state(['gripper'], [1.0], [0.0]) is None
    assert dict(mode.missing) == missing and mode.accepted == 3


@pytest.mark.parametrize('names, position, velocity, reason', [
    (['shoulder', 'extend'], [0.1], [], 'bad_length'),
    (['shoulder'], [0.1], [0.0, 0.0], 'bad_length'),
    (['shoulder', 'extend'], [0.1, float('inf')], [0.0, 0.0], 'non_finite'),
    (['shoulder'], [0.1], [float('nan')], 'non_finite'),
])
def test_bad_joint_states_are_rejected_whole(names, position, velocity, reason):
    mode = _three_joint_mode()
    assert mode.joint_state(['shoulder', 'extend', 'wrist_roll'], [0.5, 0.1, 0.2]) is None
    assert mode.joint_state(names, position, velocity) == reason
    assert mode.rejected[reason] == 1
    np.testing.assert_array_equal(mode.positions, [0.5, 0.1, 0.2])


def test_a_rigid_vehicle_is_no_link_vehicle():
    with pytest.raises(ValueError, match='no kinematic tree'):
        LinkWrenchMode(VehicleParams(mass=1.0, inertia=np.eye(3)))
