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

"""Whole SDF models: links lumped, buoyancy and hydrodynamics per link, includes, choice."""

import pathlib
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from required_modules import require

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.loader import load_vehicle, load_vehicle_string
from uwv_hydro.physics.hydro.hydro_model import HydroModel

CORPUS = pathlib.Path(__file__).resolve().parents[1] / 'corpus'
TWO_LINK = CORPUS / 'gz_sim' / 'two_link_auv.sdf'
INCLUDE_WORLD = CORPUS / 'gz_sim' / 'include_world.sdf'
MODELS = CORPUS / 'gz_sim' / 'models'
TETHYS = CORPUS / 'lrauv' / 'tethys_like.sdf'
RESOURCE_VARIABLES = ('GZ_SIM_RESOURCE_PATH', 'IGN_GAZEBO_RESOURCE_PATH', 'SDF_PATH',
                      'GAZEBO_MODEL_PATH')
#: Rounding of sums of O(100) products: far below any physical effect.
TIGHT = 1e-12


def rot(roll, pitch, yaw):
    """Return R = Rz(yaw) Ry(pitch) Rx(roll) (SDF/URDF fixed-axis roll-pitch-yaw)."""
    cr, sr, cp, sp, cy, sy = (np.cos(roll), np.sin(roll), np.cos(pitch), np.sin(pitch),
                              np.cos(yaw), np.sin(yaw))
    rz = np.array([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]])
    ry = np.array([[cp, 0, sp], [0, 1, 0], [-sp, 0, cp]])
    rx = np.array([[1, 0, 0], [0, cr, -sr], [0, sr, cr]])
    return rz @ ry @ rx


def hat(v):
    return np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])


def spatial_inertia(mass, com, inertia_com):
    """6x6 rigid-body inertia about the origin: [[m 1, -m S(c)], [m S(c), I_c - m S(c)^2]]."""
    s = hat(com)
    return np.block([[mass * np.eye(3), -mass * s], [mass * s, inertia_com - mass * s @ s]])


#: The two_link_auv.sdf links: pose in the base frame (p, rpy), mass, inertial pose, inertia.
LINKS = {
    'base_link': ((0, 0, 0), (0, 0, 0), 50.0, (0.05, 0, -0.03), (0, 0, 0.1),
                  [[1.2, 0.05, 0], [0.05, 6.0, 0], [0, 0, 6.3]]),
    'mast': ((0.3, 0.05, 0.25), (0.2, -0.1, 0.7), 1.0, (0, 0, 0.1), (0, 0, 0),
             np.diag([0.02, 0.03, 0.01])),
    'propeller': ((-0.85, 0, 0), (0, 0, 0), 0.5, (0, 0, 0), (0, 0, 0),
                  np.diag([0.001, 0.002, 0.002])),
    'fin': ((-0.7, 0, 0.12), (0, 0, 0), 0.3, (-0.03, 0, 0), (0, 0, 0),
            np.diag([0.0005, 0.0004, 0.0002])),
}


def link_pose(name):
    p, rpy = LINKS[name][:2]
    return np.array(p, float), rot(*rpy)


def test_multi_link_rigid_body_is_the_sum_of_spatial_inertias():
    """mass, CoM and inertia against the sum of the links' 6x6 inertias about the origin."""
    params = load_vehicle(str(TWO_LINK))
    expected = np.zeros((6, 6))
    for name, (_, _, mass, c, c_rpy, inertia) in LINKS.items():
        p, r = link_pose(name)
        r_c = r @ rot(*c_rpy)
        expected += spatial_inertia(mass, p + r @ np.array(c, float),
                                    r_c @ np.asarray(inertia, float) @ r_c.T)
    got = spatial_inertia(params.mass, params.com, params.inertia)
    assert params.mass == pytest.approx(51.8, rel=TIGHT)
    assert np.allclose(got, expected, rtol=0, atol=TIGHT * 100)
    assert params.base_frame == 'base_link' and params.name == 'auv'
    assert set(params.frames) == {'mast'}  # rigidly attached; the moving links are not


def test_moving_joints_are_warned_once_and_every_element_recorded():
    params = load_vehicle(str(TWO_LINK))
    moving = [w for w in params.warnings if w.startswith('joints that move')]
    # the propeller carries hydro of its own (fluid_added_mass, a collision volume): it is
    # kept in the kinematic tree; the fin (a capsule: no volume) stays lumped at zero
    kept, lumped = (next(w for w in moving if words in w)
                    for words in ('kept in the kinematic tree', 'lumped at their zero'))
    assert len(moving) == 2
    assert "'propeller_joint' (revolute, body 'propeller')" in kept
    assert "'fin_joint' (revolute, link 'fin')" in lumped and 'propeller' not in lumped
    assert 'inertial coupling' in lumped
    kinds = {(r.kind, r.name): r.status for r in params.elements}
    assert kinds[('joint', 'mast_joint')] == kinds[('joint', 'propeller_joint')] == 'read'
    assert kinds[('joint', 'fin_joint')] == 'warned'
    assert all(kinds[('link', n)] == 'read' for n in LINKS)
    assert sum(1 for r in params.elements if r.kind == 'plugin') == 3  # 2 hydro + buoyancy
    assert all(':' in r.where for r in params.elements)  # file:line: path


def test_buoyancy_is_the_sum_of_the_links_collision_volumes():
    params = load_vehicle(str(TWO_LINK))
    mast_p, mast_r = link_pose('mast')
    shapes = [  # closed-form volume, centre in the base frame
        (np.pi * 0.1 ** 2 * 1.6, np.zeros(3)),                            # hull cylinder
        (0.2 * 0.2 * 0.1, np.array([0.9, 0, 0])),                         # nose box
        (4.0 / 3.0 * np.pi * 0.08 ** 3, mast_p + mast_r @ [0, 0, 0.1]),   # mast sphere
        (np.pi * 0.1 ** 2 * 0.05, np.array([-0.85, 0, 0])),               # propeller disc
    ]  # the fin's capsule has no volume in gz-sim's Buoyancy.cc: none here either
    volume = sum(v for v, _ in shapes)
    assert params.fluid_density == 1025.0 and params.gravity == pytest.approx(9.81)
    assert params.buoyancy_mass == pytest.approx(1025.0 * volume, rel=TIGHT)
    assert np.allclose(params.cob, sum(v * c for v, c in shapes) / volume, rtol=0, atol=TIGHT)
    assert any("'blade' is a <capsule>" in w for w in params.warnings)


def gz_coefficients(plugin):
    """Re-derive gz-sim's matrices from a Hydrodynamics block (Hydrodynamics.cc names)."""
    force, vel = 'xyzkmn', 'UVWPQR'
    d_lin, d_abs, ma = np.zeros((6, 6)), np.zeros((6, 6, 6)), np.zeros((6, 6))
    for child in plugin:
        tag, value = child.tag, float(child.text) if child.tag != 'link_name' else None
        if tag == 'link_name' or tag == 'water_density':
            continue
        if 'Dot' in tag:
            ma[force.index(tag[0]), vel.index(tag[4])] = value
        elif 'abs' in tag:  # force i, SIGNED j, ABS k: value |nu_k| nu_j
            d_abs[force.index(tag[0]), vel.index(tag[1]), vel.index(tag[5])] = value
        else:
            d_lin[force.index(tag[0]), vel.index(tag[1])] = value
    return d_lin, d_abs, ma


def gz_link_wrench(coefficients, p, r, nu, nu_dot):
    """gz-sim's wrench of one link moved to the base origin (in base axes)."""
    d_lin, d_abs, ma = coefficients
    # link-origin twist in link axes: v_l = R^T (v + w x p), w_l = R^T w (rigid body)
    nu_l = np.concatenate((r.T @ (nu[:3] + np.cross(nu[3:], p)), r.T @ nu[3:]))
    nu_dot_l = np.concatenate((r.T @ (nu_dot[:3] + np.cross(nu_dot[3:], p)),
                               r.T @ nu_dot[3:]))
    # Hydrodynamics.cc: F = D nu + sum_k Dabs[., ., k] |nu_k| nu + Ma nu_dot (link frame)
    drag = d_lin @ nu_l + np.einsum('ijk,k,j->i', d_abs, np.abs(nu_l), nu_l)
    added = ma @ nu_dot_l

    def to_base(w):  # AddWorldWrench at the link origin: F_b = R F, M_b = R M + p x F_b
        f = r @ w[:3]
        return np.concatenate((f, r @ w[3:] + np.cross(p, f)))
    return to_base(drag), to_base(added)


def test_two_link_hydrodynamics_equal_the_sum_of_gz_sim_link_wrenches():
    params = load_vehicle(str(TWO_LINK))
    root = ET.parse(str(TWO_LINK)).getroot()
    model = HydroModel(params)
    fam = np.diag([0.2, 0, 0, 0.01, 0, 0])  # propeller <fluid_added_mass> xx, pp (+ signs)
    rng = np.random.default_rng(21)
    for _ in range(20):
        nu, nu_dot = rng.uniform(-1.5, 1.5, 6), rng.uniform(-2, 2, 6)
        drag, added = np.zeros(6), np.zeros(6)
        for plugin in root.iter('plugin'):
            if 'Hydrodynamics' not in plugin.get('name'):
                continue
            link = plugin.find('link_name').text
            d, a = gz_link_wrench(gz_coefficients(plugin), *link_pose(link), nu, nu_dot)
            drag, added = drag + d, added + a
        # sdformat fluid added mass: -M nu_dot of the link's origin, in its frame
        _, a = gz_link_wrench((np.zeros((6, 6)), np.zeros((6, 6, 6)), -fam),
                              *link_pose('propeller'), nu, nu_dot)
        added += a
        wc = model.wrench(nu, nu_dot=nu_dot).components
        scale = max(1.0, np.abs(drag).max(), np.abs(added).max())
        assert np.allclose(wc['linear_drag'] + wc['quadratic_drag'], drag,
                           rtol=0, atol=TIGHT * scale)
        assert np.allclose(wc['added_mass'], added, rtol=0, atol=TIGHT * scale)


QUAD_TWO = """<sdf version="1.10"><model name="m">
  <link name="a"><inertial><mass>10</mass></inertial></link>
  <link name="b"><pose>%s</pose><inertial><mass>1</mass></inertial></link>
  <joint name="j" type="fixed"><parent>a</parent><child>b</child></joint>
  <plugin filename="gz-sim-hydrodynamics-system" name="gz::sim::systems::Hydrodynamics">
    <link_name>a</link_name><xUabsU>-5</xUabsU><yVabsV>-20</yVabsV><nRabsR>-2</nRabsR>
  </plugin>
  <plugin filename="gz-sim-hydrodynamics-system" name="gz::sim::systems::Hydrodynamics">
    <link_name>b</link_name><xUabsU>-1</xUabsU><yVabsV>-3</yVabsV><xUabsV>-0.5</xUabsV>
    <yV>-1</yV><kPabsP>-0.2</kPabsP>
  </plugin></model></sdf>"""


def test_quadratic_drag_of_two_links_at_one_point_90_degrees_apart_is_exact():
    pose = '0 0 0 0 0 1.5707963267948966'
    params = load_vehicle_string(QUAD_TWO % pose, 'q.sdf')
    root = ET.fromstring(QUAD_TWO % pose)
    plugins = list(root.iter('plugin'))
    poses = [(np.zeros(3), np.eye(3)), (np.zeros(3), rot(0, 0, np.pi / 2))]
    rng = np.random.default_rng(3)
    for _ in range(10):
        nu = rng.uniform(-1, 1, 6)
        expected = sum(gz_link_wrench(gz_coefficients(pl), *ps, nu, np.zeros(6))[0]
                       for pl, ps in zip(plugins, poses))
        wc = HydroModel(params).wrench(nu).components
        assert np.allclose(wc['linear_drag'] + wc['quadratic_drag'], expected,
                           rtol=0, atol=TIGHT * 100)


def test_quadratic_drag_of_links_at_two_points_is_refused_with_the_reason():
    with pytest.raises(DescriptionError, match='cannot be combined exactly') as info:
        load_vehicle_string(QUAD_TWO % '0.5 0 0 0 0 0', 'q.sdf')
    assert "'a', 'b'" in info.value.reason and 'one point' in info.value.reason


URDF_TWIN = """<?xml version="1.0"?>
<robot name="auv">
  <link name="base_link"><inertial><origin xyz="0.05 0 -0.03" rpy="0 0 0.1"/>
    <mass value="50.0"/>
    <inertia ixx="1.2" ixy="0.05" ixz="0" iyy="6.0" iyz="0" izz="6.3"/></inertial></link>
  <link name="mast"><inertial><origin xyz="0 0 0.1" rpy="0 0 0"/><mass value="1.0"/>
    <inertia ixx="0.02" ixy="0" ixz="0" iyy="0.03" iyz="0" izz="0.01"/></inertial></link>
  <joint name="mast_joint" type="fixed"><parent link="base_link"/><child link="mast"/>
    <origin xyz="0.3 0.05 0.25" rpy="0.2 -0.1 0.7"/></joint>
  <link name="propeller"><inertial><origin xyz="0 0 0" rpy="0 0 0"/><mass value="0.5"/>
    <inertia ixx="0.001" ixy="0" ixz="0" iyy="0.002" iyz="0" izz="0.002"/></inertial></link>
  <joint name="propeller_joint" type="continuous"><parent link="base_link"/>
    <child link="propeller"/><origin xyz="-0.85 0 0" rpy="0 0 0"/><axis xyz="1 0 0"/></joint>
  <link name="fin"><inertial><origin xyz="-0.03 0 0" rpy="0 0 0"/><mass value="0.3"/>
    <inertia ixx="0.0005" ixy="0" ixz="0" iyy="0.0004" iyz="0" izz="0.0002"/></inertial></link>
  <joint name="fin_joint" type="revolute"><parent link="base_link"/><child link="fin"/>
    <origin xyz="-0.7 0 0.12" rpy="0 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-0.5" upper="0.5" effort="1" velocity="1"/></joint>
</robot>
"""


def test_urdf_and_sdf_of_one_vehicle_give_one_rigid_body():
    sdf = load_vehicle(str(TWO_LINK), allow_nonphysical=True)
    urdf = load_vehicle_string(URDF_TWIN, 'auv.urdf')
    assert urdf.mass == pytest.approx(sdf.mass, rel=TIGHT)
    assert np.allclose(urdf.com, sdf.com, rtol=0, atol=TIGHT)
    assert np.allclose(urdf.inertia, sdf.inertia, rtol=0, atol=TIGHT * 10)
    moving = [w for w in urdf.warnings if w.startswith('joints that move')]
    assert len(moving) == 1 and "'propeller_joint' (continuous" in moving[0]
    assert {r.name for r in urdf.elements if r.kind == 'joint'} == {
        'mast_joint', 'propeller_joint', 'fin_joint'}


# -- <include> ------------------------------------------------------------------------

@pytest.fixture
def no_resource_paths(monkeypatch):
    for variable in RESOURCE_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    return monkeypatch


@pytest.mark.parametrize('variable', RESOURCE_VARIABLES)
def test_model_uri_resolves_through_each_resource_variable(no_resource_paths, variable):
    no_resource_paths.setenv(variable, '/nonexistent/dir:' + str(MODELS))
    params = load_vehicle(str(INCLUDE_WORLD))
    # the include's <name>; model.config's newest <sdf> (1.9: 20 kg, not 1.6's 99 kg);
    # the nested include (fin, 0.5 kg) by its relative path
    assert params.name == 'auv_one' and params.mass == pytest.approx(20.5, rel=TIGHT)
    fin_x = -0.5  # the nested include's <pose>
    assert params.com[0] == pytest.approx(0.5 * fin_x / 20.5, rel=TIGHT)
    # the include's <plugin> (uwv_hydro centre of buoyancy) was appended to the model
    assert np.allclose(params.cob, [0, 0, 0.01])
    volume = 1.0 * 0.2 * 0.1 + 0.1 * 0.01 * 0.1
    assert params.buoyancy_mass == pytest.approx(1000.0 * volume, rel=TIGHT)
    assert params.gravity == 9.8  # a world without <gravity>: sdformat's 0 0 -9.8
    assert ('link', 'mini_fin::fin') in {(r.kind, r.name) for r in params.elements}
    assert params.linear_drag[0, 0] == 2.0


def test_relative_and_absolute_include_paths(no_resource_paths, tmp_path):
    world = tmp_path / 'w.sdf'
    text = ('<sdf version="1.9"><world name="w"><include><uri>%s</uri></include>'
            '</world></sdf>')
    for uri in (str(MODELS / 'mini_auv'), 'file://' + str(MODELS / 'mini_auv' / 'model.sdf')):
        world.write_text(text % uri)
        assert load_vehicle(str(world)).mass == pytest.approx(20.5, rel=TIGHT)
    (tmp_path / 'models').symlink_to(MODELS)
    world.write_text(text % 'models/mini_auv')  # relative to the world file
    assert load_vehicle(str(world)).name == 'mini_auv'
    # a bare name not beside the file is looked up in the resource paths (lrauv's
    # tethys_equipped includes <uri>tethys</uri> so)
    no_resource_paths.setenv('GZ_SIM_RESOURCE_PATH', str(MODELS))
    world.write_text(text % 'mini_auv')
    assert load_vehicle(str(world)).mass == pytest.approx(20.5, rel=TIGHT)


def test_an_include_pose_far_off_is_named_not_the_included_link(tmp_path):
    """A 1e300 m include pose overflows the lumped inertia: the error names that <pose>."""
    (tmp_path / 'mini_fin').symlink_to(MODELS / 'mini_fin')
    text = (MODELS / 'mini_auv' / 'model.sdf').read_text()
    assert '<pose>-0.5 0 0 0 0 0</pose>' in text
    vehicle = tmp_path / 'mini_auv' / 'model.sdf'
    vehicle.parent.mkdir()
    vehicle.write_text(text.replace('<pose>-0.5 0 0', '<pose>1e300 0 0'))
    with pytest.raises(DescriptionError, match="'mini_fin::fin' lumped into") as info:
        load_vehicle(str(vehicle))
    assert info.value.source == str(vehicle)
    assert info.value.line == text[:text.index('<pose>-0.5')].count('\n') + 1
    assert 'more than 1e+06 m from the model frame' in info.value.reason


def test_fuel_url_says_how_to_use_a_local_copy(no_resource_paths, tmp_path):
    world = tmp_path / 'w.sdf'
    world.write_text('<sdf version="1.9"><world name="w">\n<include>\n<uri>https://fuel.'
                     'gazebosim.org/1.0/OpenRobotics/models/Tethys</uri></include>'
                     '</world></sdf>')
    with pytest.raises(DescriptionError, match='Gazebo Fuel') as info:
        load_vehicle(str(world))
    assert 'GZ_SIM_RESOURCE_PATH' in info.value.reason and 'download' in info.value.reason
    assert info.value.line == 2 and info.value.source == str(world)


def test_missing_model_names_the_paths_searched(no_resource_paths, tmp_path):
    no_resource_paths.setenv('GZ_SIM_RESOURCE_PATH', str(tmp_path / 'a'))
    no_resource_paths.setenv('SDF_PATH', str(tmp_path / 'b'))
    world = tmp_path / 'w.sdf'
    world.write_text('<sdf version="1.9"><world name="w"><include><uri>model://nope</uri>'
                     '</include></world></sdf>')
    with pytest.raises(DescriptionError, match="cannot find model 'model://nope'") as info:
        load_vehicle(str(world))
    assert str(tmp_path / 'a' / 'nope') in info.value.reason
    assert str(tmp_path / 'b' / 'nope') in info.value.reason


def test_include_cycle_is_an_error(no_resource_paths, tmp_path):
    (tmp_path / 'a.sdf').write_text('<sdf version="1.9"><model name="a"><link name="l">'
                                    '<inertial><mass>1</mass></inertial></link><include>'
                                    '<uri>a.sdf</uri></include></model></sdf>')
    with pytest.raises(DescriptionError, match='include cycle'):
        load_vehicle(str(tmp_path / 'a.sdf'))


def test_merge_include_keeps_poses_on_the_include_frame(no_resource_paths, tmp_path):
    path = tmp_path / 'm.sdf'
    path.write_text(
        '<sdf version="1.9"><model name="outer"><link name="base_link"><inertial>'
        '<mass>10</mass></inertial></link><include merge="true"><uri>%s</uri>'
        '<pose>0 1 0 0 0 1.5707963267948966</pose></include>'
        '<joint name="j" type="fixed"><parent>base_link</parent><child>fin</child></joint>'
        '</model></sdf>' % (MODELS / 'mini_fin'))
    params = load_vehicle(str(path), allow_nonphysical=True)
    assert params.mass == pytest.approx(10.5, rel=TIGHT)
    assert np.allclose(params.frames['fin'].translation, [0, 1, 0], atol=TIGHT)
    # the fin's collision centre (0 0 0.05 in the fin frame) is rotated with it
    assert np.allclose(params.cob, [0, 1, 0.05], atol=TIGHT)


# -- several models -----------------------------------------------------------------

TWO_VEHICLES = """<sdf version="1.9"><world name="w">
  <model name="ground_plane"><static>true</static><link name="l"/></model>
  <model name="alpha"><link name="b"><inertial><mass>10</mass></inertial></link>
    <plugin filename="gz-sim-hydrodynamics-system" name="gz::sim::systems::Hydrodynamics">
      <link_name>b</link_name><xU>-1</xU></plugin></model>
  <model name="beta"><link name="b"><inertial><mass>19.5</mass></inertial></link>
    <link name="p"><pose>-1 0 0 0 0 0</pose><inertial><mass>0.5</mass></inertial></link>
    <joint name="j" type="revolute"><parent>b</parent><child>p</child>
      <axis><xyz>1 0 0</xyz></axis></joint>
    <plugin filename="gz-sim-thruster-system" name="gz::sim::systems::Thruster">
      <joint_name>j</joint_name></plugin></model>
  <model name="crate"><static>1</static><link name="b"><inertial><mass>5</mass></inertial>
    </link><plugin filename="gz-sim-hydrodynamics-system"
    name="gz::sim::systems::Hydrodynamics"><link_name>b</link_name></plugin></model>
</world></sdf>"""


def test_ambiguous_world_lists_the_candidates_and_model_name_chooses():
    with pytest.raises(DescriptionError, match='several models') as info:
        load_vehicle_string(TWO_VEHICLES, 'w.sdf')
    assert "'alpha', 'beta'" in info.value.reason and '--model' in info.value.reason
    assert 'crate' not in info.value.reason and 'ground_plane' not in info.value.reason
    assert load_vehicle_string(TWO_VEHICLES, 'w.sdf', model_name='beta').mass == 20.0
    with pytest.raises(DescriptionError, match="no model named 'gamma'"):
        load_vehicle_string(TWO_VEHICLES, 'w.sdf', model_name='gamma')
    one = TWO_VEHICLES.replace('gz-sim-thruster-system', 'gz-sim-pose-publisher-system')
    one = one.replace('systems::Thruster', 'systems::PosePublisher')
    assert load_vehicle_string(one, 'w.sdf').name == 'alpha'


def test_cli_model_option(tmp_path, capsys):
    from uwv_hydro.cli.main import main
    world = tmp_path / 'w.sdf'
    world.write_text(TWO_VEHICLES)
    assert main(['check', str(world)]) == 2
    assert 'several models' in capsys.readouterr().err
    assert main(['check', str(world), '--model', 'alpha', '--json']) == 0
    assert '"mass": 10.0' in capsys.readouterr().out


def test_node_model_name_is_a_read_only_vehicle_parameter(tmp_path):
    require('rcl_interfaces')
    from uwv_hydro.node.parameters import SPECS, VEHICLE_PARAMETERS
    from uwv_hydro.node.vehicle_source import load_from_parameters
    assert SPECS['model_name'] in VEHICLE_PARAMETERS and SPECS['model_name'].read_only
    world = tmp_path / 'w.sdf'
    world.write_text(TWO_VEHICLES)
    params, _ = load_from_parameters('', str(world), 'beta')
    assert params.name == 'beta'
    with pytest.raises(DescriptionError, match='not SDF'):
        load_from_parameters('', str(pathlib.Path(__file__).parents[2] / 'urdf' /
                                     'remus100.urdf'), 'beta')


# -- prefixes, gravity, lrauv ---------------------------------------------------------

def test_prefixed_xml_without_declarations_loads_with_lines(tmp_path):
    path = tmp_path / 'p.sdf'
    path.write_text('<sdf version="1.9">\n<model name="m">\n<link name="b">\n'
                    '<inertial><mass>3</mass></inertial>\n'
                    '<sensor name="s" type="custom" gz:type="salinity">\n'
                    '<gz:salinity><noise type="none"/></gz:salinity></sensor>\n'
                    '</link>\n<experimental:params/>\n</model>\n</sdf>\n')
    params = load_vehicle(str(path), allow_nonphysical=True)
    assert params.mass == 3.0
    from uwv_hydro.description.xml_safe import parse_xml_file
    root = parse_xml_file(str(path))
    sensor = root.find('model/link/sensor')
    assert sensor.get('gz:type') == 'salinity' and sensor.find('gz:salinity').line == 6
    urdf = ('<robot name="r">\n<link name="base_link"><inertial><mass value="2"/>'
            '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>\n'
            '<gazebo reference="base_link"><gz:extra ignition:flag="1"/></gazebo>\n</robot>')
    assert load_vehicle_string(urdf, 'r.urdf').mass == 2.0
    with pytest.raises(DescriptionError, match='forbidden'):  # safety limits stay
        load_vehicle_string('<!DOCTYPE sdf [<!ENTITY a "b">]><sdf><gz:x>&a;</gz:x></sdf>')


def test_zero_gravity_world_has_no_weight_or_buoyancy():
    text = TWO_LINK.read_text().replace('<gravity>0 0 -9.81</gravity>',
                                        '<gravity>0 0 0</gravity>')
    params = load_vehicle_string(text, 'zero_g.sdf', allow_nonphysical=True)
    assert params.gravity == 0.0 and params.buoyancy_mass > 0.0
    wc = HydroModel(params).wrench(np.zeros(6))
    assert not wc.components['weight'].any() and not wc.components['buoyancy'].any()
    with pytest.raises(DescriptionError, match='gravity must not be negative'):
        from uwv_hydro.description.validate import validate
        params.gravity = -1.0
        validate(params)


def test_graded_buoyancy_uses_the_default_density_and_names_the_layers():
    text = TWO_LINK.read_text().replace(
        '<uniform_fluid_density>1025</uniform_fluid_density>',
        '<graded_buoyancy><default_density>1000</default_density><density_change>'
        '<above_depth>0.5</above_depth><density>1.2</density></density_change>'
        '</graded_buoyancy>')
    params = load_vehicle_string(text, 'graded.sdf', allow_nonphysical=True)
    assert params.fluid_density == 1000.0
    assert any('1.2 kg/m^3 above z = 0.5 m' in w and 'not modelled' in w
               for w in params.warnings)


def test_world_without_buoyancy_system_gives_no_buoyancy():
    text = TWO_LINK.read_text()
    start, end = text.index('    <plugin filename="gz-sim-buoyancy'), text.index(
        '    <model name="ground_plane">')
    params = load_vehicle_string(text[:start] + text[end:], 'nob.sdf',
                                 allow_nonphysical=True)
    assert params.buoyancy_mass == 0.0
    assert any('no Buoyancy system' in w for w in params.warnings)


def test_lrauv_plugin_is_read_with_its_own_names_and_equations():
    params = load_vehicle(str(TETHYS), allow_nonphysical=True)
    plugin = ET.parse(str(TETHYS)).getroot().find('.//plugin[@name="tethys::'
                                                  'HydrodynamicsPlugin"]')
    value = {c.tag: float(c.text) for c in plugin if c.tag not in ('link_name', 'namespace')}
    assert params.acceleration_alpha == 0.9  # lrauv's fixed filter constant
    assert [r.note for r in params.elements if r.kind == 'plugin'][0].startswith('lrauv')
    names = ('xU', 'yV', 'zW', 'kP', 'mQ', 'nR')
    model = HydroModel(params)
    rng = np.random.default_rng(8)
    for _ in range(10):
        nu, nu_dot = rng.uniform(-1, 1, 6), rng.uniform(-1, 1, 6)
        # HydrodynamicsPlugin.cc: F_i = Xdot_i nu_dot_i + (X_i + X_ii |nu_i|) nu_i
        drag = np.array([(value[n] + value[n + n[1]] * abs(nu[i])) * nu[i]
                         for i, n in enumerate(names)])
        added = np.array([value[n[0] + 'Dot' + n[1]] * nu_dot[i] for i, n in enumerate(names)])
        wc = model.wrench(nu, nu_dot=nu_dot).components
        assert np.allclose(wc['linear_drag'] + wc['quadratic_drag'], drag, rtol=0,
                           atol=TIGHT * 1000)
        assert np.allclose(wc['added_mass'], added, rtol=0, atol=TIGHT * 1000)


def test_lrauv_enable_coriolis_false_drops_only_the_added_mass_coriolis():
    """HydrodynamicsPlugin.cc adds its kCmatVec only if enableCoriolis; C_RB is the engine's."""
    text = TETHYS.read_text().replace('<namespace>', '<enable_coriolis>false</enable_coriolis>'
                                      '<namespace>')
    params = load_vehicle_string(text, 't.sdf', allow_nonphysical=True)
    assert params.coriolis is True and params.added_mass_coriolis is False
    assert any('<enable_coriolis>false' in w and 'rigid-body Coriolis stays on' in w
               for w in params.warnings)
    nu = np.array([1.0, 0.2, 0.3, 0.1, 0.2, 0.3])
    assert np.all(HydroModel(params).wrench(nu).components['added_mass_coriolis'] == 0.0)
    assert load_vehicle(str(TETHYS), allow_nonphysical=True).added_mass_coriolis is True


def test_lrauv_defaults_are_named_and_unknown_elements_refused():
    text = TETHYS.read_text().replace('<xU>-1.0</xU>', '')
    params = load_vehicle_string(text, 't.sdf', allow_nonphysical=True)
    assert any('xU=20' in w for w in params.warnings)
    assert params.linear_drag[0, 0] == -20.0  # lrauv's positive default: energy in
    bad = TETHYS.read_text().replace('<xU>-1.0</xU>', '<xUabsU>-1.0</xUabsU>')
    with pytest.raises(DescriptionError, match='unknown lrauv HydrodynamicsPlugin parameter'):
        load_vehicle_string(bad, 't.sdf')


def test_include_params_add_elements_and_records_name_the_included_file(no_resource_paths,
                                                                        tmp_path):
    no_resource_paths.setenv('GZ_SIM_RESOURCE_PATH', str(MODELS))
    world = tmp_path / 'w.sdf'
    world.write_text(
        '<sdf version="1.9"><world name="w"><include><uri>model://mini_auv</uri>'
        '<experimental:params><sensor element_id="base_link" action="add" name="dvl" '
        'type="custom" gz:type="dvl"/><sensor element_id="base_link" action="modify" '
        'name="imu" type="imu"/></experimental:params></include></world></sdf>')
    from uwv_hydro.description.vehicle_from_sdf import sdf_from_root
    from uwv_hydro.description.xml_safe import parse_xml_file
    root = parse_xml_file(str(world))
    params = sdf_from_root(root, str(world))
    added = root.find('world/model/link/sensor')
    assert added is not None and added.get('gz:type') == 'dvl'
    assert added.get('action') is None  # the params attributes are consumed
    assert any("'imu' (action 'modify'" in w for w in params.warnings)
    base = [r for r in params.elements if r.name == 'base_link'][0]
    assert base.where.startswith(str(MODELS / 'mini_auv' / 'model.sdf') + ':7:')


@pytest.mark.ros
def test_node_reads_model_name_at_start(tmp_path, ros_env):
    """The real node: no model_name in an ambiguous world, then a wrong one, exit 2."""
    import subprocess
    from nodes.harness import node_command, write_params
    world = tmp_path / 'w.sdf'
    world.write_text(TWO_VEHICLES)
    for extra, message in (({}, "several models could be the vehicle: 'alpha', 'beta'"),
                           ({'model_name': 'gamma'}, "no model named 'gamma'")):
        params_file = write_params(tmp_path / 'params.yaml',
                                   dict({'vehicle_file': str(world)}, **extra))
        result = subprocess.run(node_command(params_file), env=ros_env, capture_output=True,
                                text=True, timeout=60.0)
        assert result.returncode == 2, result.stderr
        assert message in result.stderr and 'Traceback' not in result.stderr


def test_buoyancy_enable_limits_it_to_the_named_links():
    text = TWO_LINK.read_text().replace(
        '<uniform_fluid_density>1025</uniform_fluid_density>',
        '<uniform_fluid_density>1025</uniform_fluid_density><enable>auv::mast</enable>'
        '<enable>other_model</enable>')
    params = load_vehicle_string(text, 'enable.sdf', allow_nonphysical=True)
    mast_p, mast_r = link_pose('mast')
    # only the mast's sphere (Buoyancy.cc IsEnabled: the scoped link or its model)
    assert params.buoyancy_mass == pytest.approx(1025.0 * 4.0 / 3.0 * np.pi * 0.08 ** 3,
                                                 rel=TIGHT)
    assert np.allclose(params.cob, mast_p + mast_r @ [0, 0, 0.1], rtol=0, atol=TIGHT)
    whole = load_vehicle_string(text.replace('auv::mast', 'auv'), 'enable.sdf',
                                allow_nonphysical=True)
    assert whole.buoyancy_mass == pytest.approx(load_vehicle(str(TWO_LINK)).buoyancy_mass,
                                                rel=TIGHT)


def test_pose_relative_to_cycle_is_an_error():
    text = ('<sdf version="1.9"><model name="m"><link name="a"><pose relative_to="b">0 0 0 '
            '0 0 0</pose><inertial><mass>1</mass></inertial></link><link name="b"><pose '
            'relative_to="a">1 0 0 0 0 0</pose></link></model></sdf>')
    with pytest.raises(DescriptionError, match='cycle of pose relative_to'):
        load_vehicle_string(text, 'cycle.sdf')


def test_include_fan_out_is_bounded(no_resource_paths, tmp_path):
    from uwv_hydro.description.sdf import include as sdf_include
    no_resource_paths.setattr(sdf_include, 'MAX_INCLUDES', 100)  # the same rule, sooner
    leaf = ('<sdf version="1.9"><model name="m"><link name="l"><inertial><mass>1</mass>'
            '</inertial></link>%s</model></sdf>')
    for level in range(4):  # each level includes the next one 12 times: 1884 includes
        body = ''.join('<include><uri>l%d.sdf</uri><name>n%d</name></include>'
                       % (level + 1, i) for i in range(12)) if level < 3 else ''
        (tmp_path / ('l%d.sdf' % level)).write_text(leaf % body)
    with pytest.raises(DescriptionError, match='more than 100 includes'):
        load_vehicle(str(tmp_path / 'l0.sdf'))


def test_unresolved_world_scenery_is_not_the_vehicle(no_resource_paths, tmp_path):
    no_resource_paths.setenv('GZ_SIM_RESOURCE_PATH', str(MODELS))
    fuel = 'https://fuel.gazebosim.org/1.0/OpenRobotics/models/%s'
    world = tmp_path / 'w.sdf'
    text = ('<sdf version="1.9"><world name="w"><include><uri>%s</uri></include>'
            '<include><uri>model://ground_plane</uri></include>'
            '<include><uri>model://mini_auv</uri></include>%s</world></sdf>')
    world.write_text(text % (fuel % 'Sun', ''))
    params = load_vehicle(str(world))
    assert params.name == 'mini_auv'
    assert sum('not loaded' in w and "the vehicle is 'mini_auv'" in w
               for w in params.warnings) == 2
    # an unresolved include carrying a vehicle plugin is a candidate: ambiguous here
    world.write_text((text % (fuel % 'Tethys', '')).replace(
        '</uri></include>', '</uri><plugin filename="gz-sim-thruster-system" '
        'name="gz::sim::systems::Thruster"/></include>', 1))
    with pytest.raises(DescriptionError, match='several models could be the vehicle: '
                                               "'Tethys', 'mini_auv'"):
        load_vehicle(str(world))
    with pytest.raises(DescriptionError, match='Gazebo Fuel'):
        load_vehicle(str(world), model_name='Tethys')
