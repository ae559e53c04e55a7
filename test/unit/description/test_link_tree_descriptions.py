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
Descriptions keep their kinematic tree and each link's own hydro (issue 30, part 1).

Three look-alike files of test/corpus (a uuv_simulator vehicle-manipulator xacro, a
gz-sim SDF with a rudder on a revolute joint, a YAML with links: and joints:) are
loaded and checked against what each simulator's own equations give, re-derived here:
uuv_simulator's HMFossen (NED -> FLU flip, negative damping) and HMCylinder (added
mass and pressure drag of a cylinder from the link's box, computed with 1028 kg/m^3),
gz-sim's Hydrodynamics and Buoyancy systems (derivatives at the link origin, collision
volume at its centre).  The lumped vehicle fields must be what a rigid description
of the same vehicle gives, and the tree at zero joint positions must lump back to
them (Steiner).  Bad per-link blocks are errors naming file, element and line.
A joint whose motion changes no hydro (buoyancy only, centred on its axis: a
propeller's tiny collision) stays lumped (no tree).
"""
import contextlib
import io
import json
import pathlib

import numpy as np
import pytest

from uwv_hydro.cli.main import main
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.loader import load_vehicle, load_vehicle_string
from uwv_hydro.description.yaml.export import export_yaml

CORPUS = pathlib.Path(__file__).resolve().parents[2] / 'corpus'
UVMS = CORPUS / 'uuv_simulator' / 'uvms_like.urdf.xacro'
RUDDER = CORPUS / 'gz_sim' / 'rudder_arm_like.sdf'
ARM_YAML = CORPUS / 'arm_links.yaml'
PROPS = CORPUS / 'gz_sim' / 'propeller_on_axis_like.sdf'
#: Float tolerance of values computed through a few products and sums (double rounding).
TIGHT = 1e-12


def rot_x(a):
    c, s = np.cos(a), np.sin(a)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def rot_z(a):
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def box_inertia(mass, x, y, z):
    """Solid box about its centre: m (b^2 + c^2) / 12 on each axis."""
    return np.diag([mass * (y * y + z * z), mass * (x * x + z * z),
                    mass * (x * x + y * y)]) / 12.0


def steiner(parts):
    """(mass, com, inertia about com) of (m, c, I_c) parts in one frame, summed by hand."""
    total = sum(m for m, _, _ in parts)
    com = sum(m * np.asarray(c, float) for m, c, _ in parts) / total
    inertia = np.zeros((3, 3))
    for m, c, i_c in parts:
        d = np.asarray(c, float) - com
        inertia += i_c + m * (np.dot(d, d) * np.eye(3) - np.outer(d, d))
    return total, com, inertia


def hm_cylinder(width, length, height, axis):
    """uuv_simulator HMCylinder from its source: (added-mass diag, quadratic diag), FLU."""
    rho = 1028.0  # BuoyantObject's default: the constructor runs before SetFluidDensity
    edges = [width, length, height]
    r, ell = min(edges), max(edges)
    ratio = ell / (2 * r)
    cd_circ = next(v for top, v in ((1, 0.91), (2, 0.85), (4, 0.87), (7, 0.99)) if ratio <= top)
    cd_len = next(v for top, v in ((1, 0.63), (2, 0.68), (5, 0.74), (10, 0.82), (1e9, 0.98))
                  if ratio <= top)
    ma_len = -rho * np.pi * r ** 2 * ell
    ma_circ = -rho * np.pi * r ** 2
    ma_torque = -rho * np.pi * r ** 2 * ell ** 3 / 12
    d_circ = -0.5 * cd_circ * np.pi * r ** 2 * rho
    d_len = -0.5 * cd_len * r * ell * rho
    k = 'ijk'.index(axis)
    ma = np.zeros(6)
    dq = np.zeros(6)
    for i in range(3):
        ma[i] = -(ma_circ if i == k else ma_len)  # HMCylinder stores Ma(i, i) = -Ma...
        dq[i] = d_circ if i == k else d_len
        if i != k:
            ma[3 + i] = -ma_torque
    # uwv_hydro signs: added mass as stored (positive), quadratic drag Q_iii = -D_q,i
    return ma, -dq


def part_of(tree, link):
    for body in tree.bodies.values():
        for part in body.parts:
            if part.link == link:
                return body.name, part
    raise KeyError(link)


@pytest.fixture(scope='module')
def uvms():
    return load_vehicle(str(UVMS))


def test_uvms_tree_bodies_and_joints(uvms):
    tree = uvms.tree
    assert tree is not None and tree.base == 'base_link'
    assert list(tree.bodies) == ['base_link', 'arm/upper', 'arm/fore']
    assert tree.joint_names() == ['arm/shoulder', 'arm/elbow']
    # zero-range anchor and the propeller (no hydro) stay in the base body; the mimic jaw
    # (hydro, but a mimic joint) stays in the forearm's body
    assert set(tree.bodies['base_link'].links) == {'base_link', 'propeller', 'arm/base'}
    assert set(tree.bodies['arm/fore'].links) == {'arm/fore', 'arm/jaw'}
    shoulder, elbow = tree.joints
    assert (shoulder.parent, shoulder.child) == ('base_link', 'arm/upper')
    assert (elbow.parent, elbow.child) == ('arm/upper', 'arm/fore')
    # shoulder frame = anchor origin (rigid, q = 0) then the shoulder origin
    np.testing.assert_allclose(shoulder.origin_position, [0.9, 0.2, -0.25], atol=TIGHT)
    np.testing.assert_allclose(shoulder.origin_rotation, rot_x(np.pi / 2), atol=TIGHT)
    np.testing.assert_allclose(elbow.origin_rotation, rot_z(0.3), atol=TIGHT)
    np.testing.assert_allclose(elbow.axis, [0.0, 0.0, 1.0])
    assert (shoulder.lower, shoulder.upper, shoulder.velocity, shoulder.effort) == \
        (-1.2, 1.2, 0.4, 150.0)
    assert elbow.velocity == np.inf and elbow.effort == 80.0  # velocity="0": no limit
    jaw_pose = tree.bodies['arm/fore'].links['arm/jaw']
    np.testing.assert_allclose(jaw_pose[0], [0.4, 0.0, 0.0], atol=TIGHT)
    text = ' '.join(uvms.warnings)
    assert 'kept in the kinematic tree' in text and "'arm/jaw_joint'" in text
    assert 'mimic' in text and "'propeller_joint'" in text
    kept = {r.name: r for r in uvms.elements if r.kind == 'joint'}
    assert kept['arm/shoulder'].status == 'read' and 'tree' in kept['arm/shoulder'].note


def test_uvms_link_hydro_as_uuv_simulator_computes_it(uvms):
    tree = uvms.tree
    body, base_part = part_of(tree, 'arm/base')
    assert body == 'base_link'
    np.testing.assert_allclose(base_part.position, [0.8, 0.2, -0.3], atol=TIGHT)
    assert base_part.buoyancy_mass == pytest.approx(0.0021 * 1025.0, rel=TIGHT)
    ma, quad = hm_cylinder(0.2, 0.15, 0.12, 'i')
    np.testing.assert_allclose(np.diag(base_part.added_mass), ma, rtol=TIGHT)
    np.testing.assert_allclose([base_part.quadratic_drag[i, i, i] for i in range(6)], quad,
                               rtol=TIGHT)
    # buoyancy at CoM + <center_of_buoyancy>, drag at the CoM on the origin's twist
    np.testing.assert_allclose(base_part.cob, [0.05, 0.0, 0.0], atol=TIGHT)
    np.testing.assert_allclose(base_part.drag_center, [0.05, 0.0, 0.0], atol=TIGHT)
    np.testing.assert_allclose(base_part.drag_velocity_point, 0.0)
    assert base_part.surface.fully_submerged_depth == pytest.approx(0.06)
    _, upper = part_of(tree, 'arm/upper')
    ma, quad = hm_cylinder(0.5, 0.1, 0.09, 'i')
    np.testing.assert_allclose(np.diag(upper.added_mass), ma, rtol=TIGHT)
    np.testing.assert_allclose(upper.position, 0.0)
    body, fore = part_of(tree, 'arm/fore')
    assert body == 'arm/fore'
    m_ned = np.array([[0.8, 0, 0.1, 0, 0.02, 0], [0, 2.5, 0, 0.05, 0, 0.3],
                      [0.1, 0, 2.6, 0, 0.04, 0], [0, 0.05, 0, 0.01, 0, 0],
                      [0.02, 0, 0.04, 0, 0.06, 0], [0, 0.3, 0, 0, 0, 0.07]])
    flip = np.diag([1.0, -1.0, -1.0, 1.0, -1.0, -1.0])  # NED/FRD <-> FLU
    np.testing.assert_allclose(fore.added_mass, flip @ m_ned @ flip, atol=TIGHT)
    assert fore.added_mass[0, 2] == pytest.approx(-0.1)  # x-z couples change sign
    np.testing.assert_allclose(np.diag(fore.linear_drag), [1.0, 3.0, 3.5, 0.1, 0.4, 0.45])
    np.testing.assert_allclose([fore.quadratic_drag[i, i, i] for i in range(6)],
                               [2.0, 8.0, 9.0, 0.2, 0.6, 0.7])
    np.testing.assert_allclose(fore.cob, [0.22, 0.0, 0.01], atol=TIGHT)
    _, hull = part_of(tree, 'base_link')
    # the base link's own CoM (0, 0, 0.05), not the lumped vehicle's
    np.testing.assert_allclose(hull.cob, [0.0, 0.0, 0.15], atol=TIGHT)
    assert hull.buoyancy_mass == pytest.approx(0.125 * 1025.0, rel=TIGHT)


def test_uvms_lumped_fields_are_the_rigid_vehicles(uvms):
    rigid = load_vehicle(str(UVMS), {'arm_hydro': 'false'})
    assert rigid.tree is None
    for name in ('mass', 'buoyancy_mass', 'fluid_density'):
        assert getattr(uvms, name) == getattr(rigid, name), name
    for name in ('com', 'inertia', 'cob', 'added_mass', 'linear_drag', 'quadratic_drag',
                 'drag_center', 'drag_velocity_point', 'added_mass_point'):
        np.testing.assert_array_equal(getattr(uvms, name), getattr(rigid, name), name)
    assert uvms.surface == rigid.surface


def _body_poses(tree):
    """Body frames in the base frame at q = 0: T_parent T_origin T_child, by hand."""
    poses = {tree.base: (np.zeros(3), np.eye(3))}
    for j in tree.joints:
        p, r = poses[j.parent]
        p_j, r_j = p + r @ j.origin_position, r @ j.origin_rotation
        poses[j.child] = (p_j + r_j @ j.child_position, r_j @ j.child_rotation)
    return poses


@pytest.mark.parametrize('path', [UVMS, RUDDER, ARM_YAML], ids=lambda p: p.name)
def test_tree_at_zero_lumps_back_to_the_vehicle(path):
    params = load_vehicle(str(path))
    poses = _body_poses(params.tree)
    parts = []
    for name, body in params.tree.bodies.items():
        p, r = poses[name]
        parts.append((body.mass, p + r @ body.com, r @ body.inertia @ r.T))
    mass, com, inertia = steiner(parts)
    assert mass == pytest.approx(params.mass, rel=TIGHT)
    np.testing.assert_allclose(com, params.com, atol=TIGHT)
    np.testing.assert_allclose(inertia, params.inertia, atol=TIGHT * np.abs(inertia).max())


def test_uvms_forearm_body_is_forearm_and_jaw_by_steiner(uvms):
    body = uvms.tree.bodies['arm/fore']
    mass, com, inertia = steiner([
        (1.5, [0.2, 0.0, 0.0], box_inertia(1.5, 0.4, 0.08, 0.08)),
        (0.2, [0.45, 0.0, 0.0], box_inertia(0.2, 0.1, 0.02, 0.04))])
    assert body.mass == pytest.approx(mass, rel=TIGHT)
    np.testing.assert_allclose(body.com, com, atol=TIGHT)
    np.testing.assert_allclose(body.inertia, inertia, atol=TIGHT)


def test_sdf_rudder_tree_as_gz_sim_computes_it():
    params = load_vehicle(str(RUDDER))
    tree = params.tree
    assert list(tree.bodies) == ['hull', 'rudder']
    (joint,) = tree.joints
    # joint frame: its pose in the rudder frame (0.03, 0, 0); rudder at (-0.7, 0, 0.05), yaw
    # pi/2 (so that today's lumping of its quadratic drag is exact: see below)
    yaw = np.pi / 2
    np.testing.assert_allclose(joint.origin_position,
                               [-0.7 + 0.03 * np.cos(yaw), 0.03 * np.sin(yaw), 0.05], atol=TIGHT)
    np.testing.assert_allclose(joint.origin_rotation, rot_z(yaw), atol=TIGHT)
    np.testing.assert_allclose(joint.child_position, [-0.03, 0.0, 0.0], atol=TIGHT)
    assert (joint.lower, joint.upper, joint.velocity, joint.effort) == (-0.5, 0.5, 1.2, np.inf)
    _, rudder = part_of(tree, 'rudder')
    assert rudder.buoyancy_mass == pytest.approx(0.1 * 0.01 * 0.2 * 1025.0, rel=TIGHT)
    np.testing.assert_allclose(rudder.cob, [-0.05, 0.0, 0.0], atol=TIGHT)
    # gz-sim: F = D nu with D negative: L = -yV, -nR; Q[y, |v|, v] = -yVabsV
    assert rudder.linear_drag[1, 1] == pytest.approx(1.5)
    assert rudder.linear_drag[5, 5] == pytest.approx(0.02)
    assert rudder.quadratic_drag[1, 1, 1] == pytest.approx(6.0)
    assert np.count_nonzero(rudder.quadratic_drag) == 1
    # <fluid_added_mass> yy and rr (SDF letters p q r: rr is yaw-yaw)
    assert rudder.added_mass[1, 1] == pytest.approx(0.3)
    assert rudder.added_mass[5, 5] == pytest.approx(0.002)
    _, hull = part_of(tree, 'hull')
    assert hull.buoyancy_mass == pytest.approx(1.2 * 0.25 * 0.13 * 1025.0, rel=TIGHT)
    np.testing.assert_allclose(np.diag(hull.added_mass)[:3], [2.0, 30.0, 32.0])


def test_sdf_lumped_fields_are_the_fixed_joint_vehicles():
    text = RUDDER.read_text()
    moving = load_vehicle_string(text, 'rudder.sdf')
    fixed = load_vehicle_string(text.replace('type="revolute"', 'type="fixed"'), 'fixed.sdf')
    assert moving.tree is not None and fixed.tree is None
    for name in ('mass', 'buoyancy_mass', 'fluid_density', 'gravity'):
        assert getattr(moving, name) == getattr(fixed, name), name
    for name in ('com', 'inertia', 'cob', 'added_mass', 'linear_drag', 'quadratic_drag',
                 'drag_center', 'drag_velocity_point'):
        np.testing.assert_array_equal(getattr(moving, name), getattr(fixed, name), name)


def test_sdf_quadratic_drag_a_body_cannot_hold_is_kept_per_link():
    """Rudder yawed 0.2 rad: no one-point lumping of its |v| v drag; the tree keeps it."""
    text = RUDDER.read_text().replace('0 0 1.5707963267948966</pose>', '0 0 0.2</pose>')
    error = _error(text.replace('type="revolute"', 'type="fixed"'), 'fixed.sdf')
    assert 'cannot be combined exactly' in str(error)  # as before for a rigid vehicle
    params = load_vehicle_string(text, 'yawed.sdf')
    _, rudder = part_of(params.tree, 'rudder')
    assert rudder.quadratic_drag[1, 1, 1] == pytest.approx(6.0)
    assert not np.any(params.quadratic_drag)  # the lumped fields: the hull's alone
    assert params.linear_drag[0, 0] == pytest.approx(4.0)
    assert any('cannot be combined exactly' in w and 'rigid with the base only' in w
               for w in params.warnings)


def test_yaml_links_and_joints():
    params = load_vehicle(str(ARM_YAML))
    tree = params.tree
    assert tree.joint_names() == ['shoulder', 'elbow']
    mass, com, inertia = steiner([
        (80.0, [0.0, 0.0, 0.02], np.diag([4.0, 9.0, 10.0])),
        (2.5, [0.8, 0.0, -0.25], np.diag([0.004, 0.04, 0.04])),
        (1.2, [1.15, 0.0, -0.25], np.diag([0.001, 0.01, 0.01]))])
    assert params.mass == pytest.approx(mass, rel=TIGHT)
    np.testing.assert_allclose(params.com, com, atol=TIGHT)
    np.testing.assert_allclose(params.inertia, inertia, atol=TIGHT)
    _, upper = part_of(tree, 'upper')
    assert upper.buoyancy_mass == pytest.approx(0.0016 * 1025.0, rel=TIGHT)
    np.testing.assert_allclose(upper.drag_center, [0.2, 0.0, 0.0])
    assert tree.joints[1].velocity == np.inf and tree.joints[1].lower == -2.0
    assert params.buoyancy_mass == 82.0  # the top-level keys: the lumped vehicle


def _same_tree(a, b, tol=TIGHT):
    assert list(a.bodies) == list(b.bodies)
    for name, body in a.bodies.items():
        other = b.bodies[name]
        assert other.mass == pytest.approx(body.mass, rel=tol)
        np.testing.assert_allclose(other.com, body.com, atol=tol)
        np.testing.assert_allclose(other.inertia, body.inertia, atol=tol)
        # every link of the body and its pose (the frames TF publishes), hydro or not
        assert set(other.links) == set(body.links), name
        for link, (position, rotation) in body.links.items():
            np.testing.assert_allclose(other.links[link][0], position, atol=tol, err_msg=link)
            np.testing.assert_allclose(other.links[link][1], rotation, atol=tol, err_msg=link)
        mine = {p.link: p for p in body.parts}
        theirs = {p.link: p for p in other.parts}
        assert set(mine) == set(theirs)
        for link, part in mine.items():
            for field in ('position', 'rotation', 'cob', 'added_mass', 'linear_drag',
                          'quadratic_drag', 'drag_center', 'drag_velocity_point'):
                np.testing.assert_allclose(getattr(theirs[link], field), getattr(part, field),
                                           atol=tol, err_msg='%s %s' % (link, field))
            assert theirs[link].buoyancy_mass == pytest.approx(part.buoyancy_mass, rel=tol)
            assert theirs[link].surface == part.surface
    assert [j.name for j in a.joints] == [j.name for j in b.joints]
    for ja, jb in zip(a.joints, b.joints):
        assert (ja.kind, ja.parent, ja.child) == (jb.kind, jb.parent, jb.child)
        assert a.parent_link(ja) == b.parent_link(jb)
        for field in ('origin_position', 'origin_rotation', 'axis', 'child_position',
                      'child_rotation'):
            np.testing.assert_allclose(getattr(jb, field), getattr(ja, field), atol=tol)
        assert (ja.lower, ja.upper, ja.velocity, ja.effort) == \
            (jb.lower, jb.upper, jb.velocity, jb.effort)


@pytest.mark.parametrize('path', [UVMS, RUDDER, ARM_YAML], ids=lambda p: p.name)
def test_yaml_export_round_trips_the_tree(path, tmp_path):
    params = load_vehicle(str(path))
    out = tmp_path / 'exported.yaml'
    out.write_text(export_yaml(params))
    again = load_vehicle(str(out))
    _same_tree(params.tree, again.tree)
    assert again.mass == pytest.approx(params.mass, rel=TIGHT)


def _error(text, source):
    with pytest.raises(DescriptionError) as info:
        load_vehicle_string(text, source)
    return info.value


ARM_URDF = """<?xml version="1.0"?>
<robot name="two">
  <link name="base_link">
    <inertial><mass value="10"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/>
    </inertial>
  </link>
  <link name="arm">
    <inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/>
    </inertial>
  </link>
  <joint name="j" type="revolute">
    <parent link="base_link"/><child link="arm"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" velocity="1" effort="1"/>
  </joint>
  <gazebo>
    <plugin name="uuv_plugin" filename="libuuv_underwater_object_ros_plugin.so">
      <link name="base_link">
        <volume>0.01</volume>
        <hydrodynamic_model><type>fossen</type></hydrodynamic_model>
      </link>
      <link name="arm">
        <volume>0.001</volume>
        ARM_MODEL
      </link>
    </plugin>
  </gazebo>
</robot>
"""


@pytest.mark.parametrize('model,match', [
    ('<hydrodynamic_model><type>cylinder</type><axis>i</axis></hydrodynamic_model>',
     'give <box>'),
    ('<box><width>0.1</width><length>0.1</length><height>0.3</height></box>'
     '<hydrodynamic_model><type>cylinder</type><axis>x</axis></hydrodynamic_model>',
     "expected 'i', 'j' or 'k'"),
    ('<hydrodynamic_model><type>sphere</type></hydrodynamic_model>', "type 'sphere'"),
    ('<hydrodynamic_model><type>fossen</type><linear_damping>1 2</linear_damping>'
     '</hydrodynamic_model>', 'linear_damping'),
])
def test_bad_link_block_is_an_error_naming_file_element_line(model, match):
    error = _error(ARM_URDF.replace('ARM_MODEL', model), 'two.urdf')
    assert match in str(error)
    assert error.source == 'two.urdf' and error.line is not None
    assert "link[@name='arm']" in error.element


def test_link_blocks_on_a_rigid_vehicle_stay_an_error():
    text = ARM_URDF.replace('ARM_MODEL', '<hydrodynamic_model><type>fossen</type>'
                            '</hydrodynamic_model>').replace('type="revolute"', 'type="fixed"')
    error = _error(text, 'rigid.urdf')
    assert "only the base link 'base_link'" in str(error) and error.line is not None


@pytest.mark.parametrize('change,key', [
    (('parent: upper', 'parent: uper'), 'joints.elbow.parent'),
    (('          mass: 1.2', '          masss: 1.2'), 'links.fore.masss'),
    (('type: revolute\n          parent: upper', 'type: hinge\n          parent: upper'),
     'joints.elbow.type'),
    (('      buoyancy_mass: 82.0', '      mass: 90.0\n      buoyancy_mass: 82.0'), 'mass'),
])
def test_bad_yaml_tree_is_an_error_naming_the_key_and_line(change, key):
    text = ARM_YAML.read_text()
    assert change[0] in text
    error = _error(text.replace(*change), 'arm.yaml')
    assert error.element.endswith(key) and error.line is not None, error


def test_check_lists_the_tree():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(['check', str(UVMS), '--json']) == 0
    tree = json.loads(out.getvalue())['tree']
    assert [j['name'] for j in tree['joints']] == ['arm/shoulder', 'arm/elbow']
    assert tree['joints'][1]['limits']['velocity'] is None  # no limit
    # the shoulder hangs from the arm's base, fixed in the base body (URDF parent link)
    assert [(j['parent'], j['parent_link']) for j in tree['joints']] == [
        ('base_link', 'arm/base'), ('arm/upper', 'arm/upper')]
    wet = {p['link']: p for p in tree['links_with_hydro']}
    assert set(wet) == {'base_link', 'arm/base', 'arm/upper', 'arm/fore', 'arm/jaw'}
    assert wet['arm/fore']['volume'] == pytest.approx(0.0024, rel=TIGHT)
    assert wet['arm/jaw']['added_mass'] is False and wet['arm/upper']['quadratic_drag']
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        assert main(['check', str(UVMS)]) == 0
    assert 'kinematic tree: 3 bodies, 2 joints, 5 links with hydro' in text.getvalue()
    assert 'joint arm/elbow: revolute, arm/upper -> arm/fore' in text.getvalue()
    assert 'joint arm/shoulder: revolute, base_link (link arm/base) -> arm/upper' in \
        text.getvalue()


GZ_URDF = ARM_URDF.split('  <gazebo>')[0] + """  <gazebo>
    <plugin filename="gz-sim-hydrodynamics-system" name="gz::sim::systems::Hydrodynamics">
      <link_name>base_link</link_name>
      <xU>-10.0</xU>
      <xUabsU>-20.0</xUabsU>
    </plugin>
  </gazebo>
  <gazebo>
    <plugin filename="gz-sim-hydrodynamics-system" name="gz::sim::systems::Hydrodynamics">
      <link_name>arm</link_name>
      <yV>-3.0</yV>
      <yDotV>-0.5</yDotV>
    </plugin>
  </gazebo>
</robot>
"""


def test_urdf_gz_hydrodynamics_per_link():
    """ros_gz users' URDF: one gz-sim Hydrodynamics block per link, each at its origin."""
    params = load_vehicle_string(GZ_URDF, 'gz_arm.urdf')
    _, arm = part_of(params.tree, 'arm')
    assert arm.linear_drag[1, 1] == pytest.approx(3.0)  # L = -yV
    assert arm.added_mass[1, 1] == pytest.approx(0.5)   # M_A = -yDotV
    _, base = part_of(params.tree, 'base_link')
    assert base.quadratic_drag[0, 0, 0] == pytest.approx(20.0)
    # the lumped fields: the base link's block, as a rigid URDF with that block alone
    assert params.linear_drag[0, 0] == pytest.approx(10.0) and params.linear_drag[1, 1] == 0
    assert not np.any(params.added_mass)
    error = _error(GZ_URDF.replace('type="revolute"', 'type="fixed"'), 'gz_rigid.urdf')
    assert 'more than one gz-sim Hydrodynamics block' in str(error) and error.line is not None


def rodrigues(axis, angle):
    """Rotation by ``angle`` about the unit ``axis`` (Rodrigues' formula)."""
    k = np.array([[0.0, -axis[2], axis[1]], [axis[2], 0.0, -axis[0]],
                  [-axis[1], axis[0], 0.0]])
    return np.eye(3) + np.sin(angle) * k + (1.0 - np.cos(angle)) * k @ k


def cob_in_base(joint, part, q):
    """World-free forward kinematics: a part's CoB in the base body at joint angle q."""
    # T_base_link(q) = T_origin Rot(axis, q) T_child, then the part's pose in its body
    rot = joint.origin_rotation @ rodrigues(joint.axis, q)
    child = joint.child_position + joint.child_rotation @ (part.position
                                                           + part.rotation @ part.cob)
    return joint.origin_position + rot @ child


#: gz-sim collision volumes of the look-alike: hull box, propeller cylinder (pi r^2 L).
PROP_VOLUMES = 1.1 * 0.7 * 0.2 + 2 * np.pi * 0.001 ** 2 * 0.002


def test_propellers_buoyant_on_their_axes_stay_lumped():
    """As in DAVE's ROVs: a tiny collision centred on the axis turns with no hydro change."""
    params = load_vehicle(str(PROPS))
    assert params.tree is None
    # their volume counts in the lumped buoyancy, as gz-sim's Buoyancy system has it
    assert params.buoyancy_mass == pytest.approx(1025.0 * PROP_VOLUMES, rel=TIGHT)
    notes = {r.name: r.note for r in params.elements if r.kind == 'joint'}
    for name in ('prop_port_joint', 'prop_stbd_joint'):
        assert 'centred on its axis' in notes[name], notes[name]


def test_propeller_buoyant_off_its_axis_is_a_tree_joint():
    text = PROPS.read_text()
    across = text.replace('<pose>0 0 0 0 0 0</pose>\n        <geometry><cylinder>',
                          '<pose>0 0.01 0 0 0 0</pose>\n        <geometry><cylinder>')
    assert across != text
    params = load_vehicle_string(across, 'across.sdf')
    (joint,) = params.tree.joints
    assert joint.name == 'prop_port_joint'  # the starboard one is still on its axis
    _, part = part_of(params.tree, 'prop_port')
    # its CoB turns on a 0.01 m circle about the axis: half a turn moves it by 0.02 m
    moved = np.linalg.norm(cob_in_base(joint, part, np.pi) - cob_in_base(joint, part, 0.0))
    assert moved == pytest.approx(0.02, rel=1e-9)
    assert params.buoyancy_mass == pytest.approx(1025.0 * PROP_VOLUMES, rel=TIGHT)
    notes = {r.name: r.note for r in params.elements if r.kind == 'joint'}
    assert 'centred on its axis' in notes['prop_stbd_joint']


@pytest.mark.parametrize('change', [
    ('<mass>0.002</mass>\n', '<mass>0.002</mass>\n<fluid_added_mass><xx>1e-4</xx>'
     '</fluid_added_mass>\n'),                       # added mass: turns with the joint
    ('type="continuous"', 'type="prismatic"'),        # a slide moves the CoB
])
def test_on_axis_rule_is_for_buoyancy_only_and_rotation(change):
    text = PROPS.read_text()
    assert change[0] in text
    params = load_vehicle_string(text.replace(*change, 1), 'changed.sdf')
    assert params.tree is not None and params.tree.joints


def test_on_axis_cob_is_a_fixed_point_of_the_trees_kinematics():
    """The rule's axis line is the tree's: forced into the tree, the CoB does not move."""
    text = PROPS.read_text().replace(
        '<mass>0.002</mass>\n', '<mass>0.002</mass>\n<fluid_added_mass><xx>1e-4</xx>'
        '</fluid_added_mass>\n')
    params = load_vehicle_string(text, 'forced.sdf')
    for joint in params.tree.joints:
        _, part = part_of(params.tree, joint.child)
        for q in (0.7, 2.0, -3.0):
            np.testing.assert_allclose(cob_in_base(joint, part, q),
                                       cob_in_base(joint, part, 0.0), atol=1e-12)


def _buoyancy_only(text, link_cobs):
    """Return the arm YAML with only buoyancy on upper and fore, at the CoBs given."""
    for old in ('          quadratic_drag: [0.5, 6.0, 6.0, 0.0, 0.1, 0.1]\n',
                '          added_mass: {yy: 1.2, zz: 1.2, pp: 0.02, hh: 0.02}\n',
                '          drag_center: com\n', '          linear_drag: {yy: 2.0, zz: 2.0}\n'):
        assert old in text
        text = text.replace(old, '')
    for old, new in link_cobs:
        assert old in text
        text = text.replace(old, new)
    return text


def test_yaml_on_axis_joint_below_a_tree_joint_is_lumped():
    """With fore's CoB on the elbow axis the elbow is lumped: fore rides in 'upper'."""
    text = _buoyancy_only(ARM_YAML.read_text(), [
        ('cob: [0.2, 0.0, 0.0]', 'cob: [0.2, 0.0, 0.05]'),    # off the shoulder axis (y)
        ('cob: [0.15, 0.0, 0.0]', 'cob: [0.0, 0.07, 0.0]')])  # on the elbow axis (y)
    params = load_vehicle_string(text, 'arm.yaml')
    assert [j.name for j in params.tree.joints] == ['shoulder']
    body, fore = part_of(params.tree, 'fore')
    assert body == 'upper'
    np.testing.assert_allclose(fore.position, [0.4, 0.0, 0.0], atol=TIGHT)


def test_yaml_joint_whose_on_axis_cob_moves_with_a_joint_below_is_a_tree_joint():
    """A CoB on the shoulder axis at q = 0 but off the elbow's: both are tree joints."""
    text = _buoyancy_only(ARM_YAML.read_text(), [
        ('cob: [0.2, 0.0, 0.0]', 'cob: [0.0, 0.03, 0.0]'),     # on the shoulder axis
        ('cob: [0.15, 0.0, 0.0]', 'cob: [-0.4, 0.05, 0.0]')])  # shoulder axis, 0.4 m off elbow's
    params = load_vehicle_string(text, 'arm.yaml')
    assert [j.name for j in params.tree.joints] == ['shoulder', 'elbow']
    both = _buoyancy_only(ARM_YAML.read_text(), [  # elbow on the shoulder: one axis line
        ('cob: [0.2, 0.0, 0.0]', 'cob: [0.0, 0.03, 0.0]'),
        ('cob: [0.15, 0.0, 0.0]', 'cob: [0.0, -0.02, 0.0]'),
        ('origin: {xyz: [0.4, 0.0, 0.0]', 'origin: {xyz: [0.0, 0.0, 0.0]')])
    error = _error(both, 'arm.yaml')
    assert 'only buoyancy on the axis of a joint that turns them' in str(error)
