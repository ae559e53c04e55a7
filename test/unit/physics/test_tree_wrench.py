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
The compiled per-link wrench of a tree against Pinocchio and the numpy parts.

The reference is another implementation of the same equations: Pinocchio's forward
kinematics (MultibodyModel.kinematics), the parts placed on their bodies by
AttachedFrames, their terms by PartWrenches (the numpy path of articulated simulate
mode) and the dual map wrench_in_parent.  Only rounding separates the two: the
tolerances are 1e-12 of each quantity's scale.
"""
from arm_trees import three_joint_tree
import numpy as np
import pytest
from required_modules import require  # noqa: I100

require('pinocchio')

from uwv_hydro.physics.articulated.algorithms.link_wrench import (  # noqa: E402
    part_poses, PartWrenches, wrench_in_parent)
from uwv_hydro.physics.articulated.algorithms.tree_wrench import TreeWrench  # noqa: E402
from uwv_hydro.physics.articulated.model.link_tree import LinkHydroPart  # noqa: E402
from uwv_hydro.physics.articulated.model.multibody import (  # noqa: E402
    AttachedFrames, MultibodyModel)
from uwv_hydro.physics.body.vehicle_params import COMPONENT_NAMES, SurfaceTransition  # noqa: E402
from uwv_hydro.physics.spatial.point_transform import motion_transforms  # noqa: E402
from uwv_hydro.physics.spatial.rotation import quat_to_matrix  # noqa: E402

GRAVITY = 9.81
HYDRO = ('buoyancy', 'linear_drag', 'quadratic_drag', 'added_mass', 'added_mass_coriolis')


def _symmetric(rng, scale):
    a = rng.normal(size=(6, 6)) * scale
    return a @ a.T + np.diag(np.full(6, scale))


def _parts(tree, rng):
    """Two parts on every body, each on one of its links, every coefficient random."""
    surfaces = [None, SurfaceTransition(-0.1, 0.4, 0.7, 'dsros'),
                SurfaceTransition(-0.2, 0.3, 1.0, 'continuous')]
    parts, part_body = [], []
    for k, (name, body) in enumerate(tree.bodies.items()):
        for j, (link, (position, rotation)) in enumerate(list(body.links.items())[:2]):
            parts.append(LinkHydroPart(
                link, position=position, rotation=rotation,
                buoyancy_mass=rng.uniform(1.0, 40.0), cob=rng.normal(size=3) * 0.1,
                surface=surfaces[(k + j) % 3], added_mass=_symmetric(rng, 2.0),
                linear_drag=_symmetric(rng, 3.0), quadratic_drag=rng.normal(size=(6, 6, 6)),
                drag_velocity_point=rng.normal(size=3) * 0.1,
                drag_center=rng.normal(size=3) * 0.1))
            part_body.append(name)
    return parts, part_body


def _setup(damping='linear_quadratic', coriolis=True, seed=3):
    rng = np.random.default_rng(seed)
    tree = three_joint_tree()
    multibody = MultibodyModel(tree)
    parts, names = _parts(tree, rng)
    part_body = [multibody.body_names.index(name) for name in names]
    numpy_parts = PartWrenches(parts, GRAVITY, damping, coriolis)
    rows, part_row = [], []
    for part, body in zip(parts, part_body):
        if part.link not in [r[0] for r in rows]:
            rows.append((part.link, body, part.rotation, part.position))
        part_row.append([r[0] for r in rows].index(part.link))
    # a body's weight goes to the row of its root link (every body's root carries a part)
    body_row = [[r[0] for r in rows].index(name) for name in multibody.body_names]
    weight = np.array([tree.bodies[n].mass for n in multibody.body_names]) * GRAVITY
    coms = np.array([tree.bodies[n].com for n in multibody.body_names])
    compiled = TreeWrench(multibody, numpy_parts, part_body, part_row,
                          [r[1:] for r in rows], body_row, weight, coms)
    return multibody, numpy_parts, part_body, part_row, body_row, weight, coms, compiled


def _reference(multibody, parts, part_body, part_row, body_row, weight, coms, state,
               engine_added_mass):
    """Return the same outputs from Pinocchio and the numpy parts (module docstring)."""
    position, quat, nu, q, qd, acc, qdd, current, rate = state
    kin = multibody.kinematics(np.zeros(3) if position is None else position, quat, nu, q,
                               qd, acc, qdd, links=False).bodies
    position_p, rotation_p = part_poses(parts.parts)
    frames = AttachedFrames(part_body, rotation_p, position_p)
    at = frames(kin)
    comps = parts.wrenches(at.rotation, None if position is None else at.position, at.twist,
                           at.acceleration, current, rate, engine_added_mass)
    r0, p0 = kin.rotation[0], kin.position[0]
    # each part's pose in the base frame and its dual map to the base
    x_part = motion_transforms(np.einsum('ji,njk->nik', r0, at.rotation),
                               (at.position - p0) @ r0)
    values = np.zeros((len(COMPONENT_NAMES), 6))
    for name in HYDRO:
        c = COMPONENT_NAMES.index(name)
        values[c] = wrench_in_parent(comps[:, c], x_part).sum(axis=0)
    # weight m g along world down at each body's CoM
    force = -weight[:, None] * kin.rotation[:, 2, :]
    body_weight = np.concatenate((force, np.cross(coms, force)), axis=1)
    x_body = motion_transforms(np.einsum('ji,njk->nik', r0, kin.rotation),
                               (kin.position - p0) @ r0)
    values[COMPONENT_NAMES.index('weight')] = wrench_in_parent(body_weight, x_body).sum(axis=0)
    totals = comps.sum(axis=1)
    links = np.zeros((max(part_row) + 1, 6))
    bodies = body_weight.copy()
    for k, (row, body) in enumerate(zip(part_row, part_body)):
        links[row] += totals[k]
        bodies[body] += wrench_in_parent(totals[k:k + 1], frames.transform[k:k + 1])[0]
    for body, row in enumerate(body_row):
        links[row] += body_weight[body]
    return kin, values, links, bodies


def _state(rng, multibody, position=True, acceleration=True, current=True):
    n = multibody.n_joints
    quat = rng.normal(size=4)
    return (np.array([1.0, -2.0, 0.0]) + rng.normal(size=3) * [1.0, 1.0, 0.3]
            if position else None,
            quat / np.linalg.norm(quat), rng.normal(size=6), rng.normal(size=n),
            rng.normal(size=n), rng.normal(size=6) if acceleration else None,
            rng.normal(size=n) if acceleration else None,
            rng.normal(size=3) if current else None, rng.normal(size=3) if current else None)


@pytest.mark.parametrize('engine_added_mass', [False, True], ids=['lagged', 'implicit'])
@pytest.mark.parametrize('variant', ['full', 'still_water', 'no_position', 'no_acceleration',
                                     'quadratic_only', 'no_coriolis'])
def test_the_compiled_tree_matches_pinocchio_and_the_numpy_parts(engine_added_mass, variant):
    options = {'quadratic_only': {'damping': 'quadratic_only'},
               'no_coriolis': {'coriolis': False}}.get(variant, {})
    multibody, parts, part_body, part_row, body_row, weight, coms, compiled = _setup(**options)
    rng = np.random.default_rng(11)
    surfaces_crossed = 0
    for _ in range(20):
        state = _state(rng, multibody, position=variant != 'no_position',
                       acceleration=variant != 'no_acceleration',
                       current=variant != 'still_water')
        kin, values, links, bodies = _reference(multibody, parts, part_body, part_row,
                                                body_row, weight, coms, state,
                                                engine_added_mass)
        got = compiled.evaluate(*state, engine_added_mass=engine_added_mass,
                                apply_weight=True)
        # the kinematics: Pinocchio's, to rounding (lengths ~1 m, rates ~1)
        np.testing.assert_allclose(got.body_positions, kin.position, rtol=0, atol=1e-12)
        np.testing.assert_allclose(got.body_rotations, kin.rotation, rtol=0, atol=1e-12)
        np.testing.assert_allclose(got.body_twists, kin.twist, rtol=0, atol=1e-12)
        if state[5] is not None:
            np.testing.assert_allclose(got.body_accelerations, kin.acceleration, rtol=0,
                                       atol=1e-11)
        # the wrenches: 1e-12 of the largest term
        scale = max(1.0, float(np.max(np.abs(values))))
        for name in HYDRO + ('weight',):
            c = COMPONENT_NAMES.index(name)
            np.testing.assert_allclose(got.components[c], values[c], rtol=0,
                                       atol=1e-12 * scale, err_msg=name)
        np.testing.assert_allclose(got.link_wrenches, links, rtol=0, atol=1e-12 * scale)
        np.testing.assert_allclose(got.body_wrenches, bodies, rtol=0, atol=1e-12 * scale)
        untouched = [COMPONENT_NAMES.index(n) for n in ('fins', 'hull_lift', 'crossflow_drag')]
        assert not np.any(got.components[untouched])
        if state[0] is not None:
            depth = -got.body_positions[:, 2]
            surfaces_crossed += int(np.any((depth > -0.2) & (depth < 0.4)))
    if variant != 'no_position':
        assert surfaces_crossed > 0, 'no state put a part in a surface band'


def test_link_rows_sit_on_their_bodies():
    multibody, _, _, _, _, _, _, compiled = _setup()
    rng = np.random.default_rng(5)
    state = _state(rng, multibody)
    kin = multibody.kinematics(state[0], state[1], state[2], state[3], state[4]).links
    got = compiled.evaluate(*state)
    rows = ['base_link', 'dvl_link', 'upper_arm', 'elbow_cover', 'slider', 'wrist', 'jaw']
    for k, name in enumerate(rows):
        j = kin.names.index(name)
        np.testing.assert_allclose(got.link_positions[k], kin.position[j], atol=1e-12)
        np.testing.assert_allclose(got.link_rotations[k], kin.rotation[j], atol=1e-12)
    # the base's pose is the odometry's
    np.testing.assert_allclose(got.body_rotations[0], quat_to_matrix(state[1]), atol=1e-15)


def test_bad_inputs_raise_naming_them():
    multibody, _, _, _, _, _, _, compiled = _setup()
    n = multibody.n_joints
    good = (np.array([0.0, 0.0, -0.1]), np.array([1.0, 0.0, 0.0, 0.0]), np.zeros(6),
            np.zeros(n), np.zeros(n))
    with pytest.raises(ValueError, match='depth is not a number'):
        compiled.evaluate(np.array([0.0, 0.0, np.nan]), *good[1:])
    with pytest.raises(ValueError, match='joint positions'):
        compiled.evaluate(good[0], good[1], good[2], np.zeros(n - 1), good[4])
    with pytest.raises(ValueError, match='twist'):
        compiled.evaluate(good[0], good[1], np.zeros(5), good[3], good[4])
    from uwv_hydro.physics.kernel import core
    with pytest.raises(ValueError, match='packed sizes'):
        core.tree_model(np.array([1.0, 2, 0, 1, 0, 0, 0, 0, 8, 0, 1, 2, 3, 4, 5]))
    with pytest.raises(ValueError, match='another version'):
        core.tree_model(np.zeros(15))
