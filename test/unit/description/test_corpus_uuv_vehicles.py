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
uuv_simulator's own vehicles load and fly (issue 29): their macros' patterns.

The look-alikes under ``corpus/uuv_simulator`` reproduce what stopped rexrov, rexrov2,
lauv, desistek_saga and the ECA A9 from loading: the sensor and battery macros' links on
revolute joints with ``lower = upper = 0``, the ECA fin macro's ``cda_stall=""`` and
the fin joints' ``velocity="0"`` (under uuv fins and restated as gz-sim LiftDrag).
"""
import math
import pathlib
import re

import numpy as np
import pytest

from uwv_hydro.cli.main import main
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.loader import load_vehicle
from uwv_hydro.description.vehicle_from_sdf import load_sdf_string
from uwv_hydro.description.vehicle_from_urdf import load_urdf_string

CORPUS = pathlib.Path(__file__).resolve().parents[2] / 'corpus' / 'uuv_simulator'
ZERO_RANGE = 'zero-range revolute joint: rigid'

#: What each look-alike declares (counted in the file): thrusters, fins, simulated
#: sensors (uuv IMU, pressure, DVL, GPS plugins), links on zero-range joints, the
#: thrust flown [N] and the drag written there -- the smallest translational linear and
#: quadratic damping [N s/m, N s^2/m^2] -- and |weight - buoyancy| [N].
VEHICLES = {
    'eca_like.urdf.xacro': {
        'thrusters': 1, 'fins': 4, 'sensors': {'imu', 'pressure', 'dvl', 'gps'},
        'rigid': ('imu', 'pressure', 'dvl', 'gps', 'camera', 'battery'),
        'thrust': 20.0, 'linear': 5.0, 'quadratic': 20.0},
    'lauv_liftdrag_like.urdf.xacro': {
        'thrusters': 1, 'fins': 4, 'sensors': {'imu', 'pressure'},
        'rigid': ('imu', 'pressure'), 'thrust': 10.0, 'linear': 2.0, 'quadratic': 4.0},
}


@pytest.fixture(scope='module', params=sorted(VEHICLES))
def vehicle(request):
    return request.param, load_vehicle(CORPUS / request.param)


def test_every_thruster_fin_and_navigation_sensor_is_read(vehicle):
    name, params = vehicle
    want = VEHICLES[name]
    assert len(params.thrusters) == want['thrusters']
    assert len(params.fins) == want['fins']
    assert {s.name for s in params.sensors} == want['sensors']


def test_sensor_and_battery_links_on_zero_range_joints_are_rigid_frames(vehicle):
    name, params = vehicle
    ns = params.name
    for link in VEHICLES[name]['rigid']:
        assert '%s/%s_link' % (ns, link) in params.frames
        notes = [r.note for r in params.elements
                 if r.kind == 'joint' and r.name == '%s/%s_joint' % (ns, link)]
        assert len(notes) == 1 and notes[0].startswith(ZERO_RANGE)
    # the fins' joints have a real range: they still move
    for fin in params.fins:
        assert fin.upper > fin.lower
        assert not any(r.note.startswith(ZERO_RANGE) for r in params.elements
                       if r.name == fin.name)


def test_what_is_not_simulated_is_named(vehicle):
    name, params = vehicle
    text = '\n'.join(params.warnings)
    if 'camera' in VEHICLES[name]['rigid']:
        assert "sensor 'camera' (not modelled: camera sensor" in text
        assert ("plugin 'liblinear_battery_ros_plugin.so' (not modelled: battery model "
                '(uuv_simulator))') in text
        assert ("plugin 'libcustom_battery_consumer_ros_plugin.so' (not modelled: battery "
                'consumer (uuv_simulator))') in text
        assert 'unknown plugin' not in text


def test_empty_cda_stall_is_zero_with_a_warning_naming_file_element_and_line():
    params = load_vehicle(CORPUS / 'eca_like.urdf.xacro')
    assert all(f.cda_stall == 0.0 for f in params.fins)
    found = [w for w in params.warnings if 'cda_stall: empty number read as 0' in w]
    assert len(found) == 4
    for w in found:
        assert re.search(r'eca_like\.urdf\.xacro:\d+: robot.*/plugin.*/liftdrag/cda_stall', w)


def test_empty_number_in_a_plain_urdf_names_its_line():
    text = FIN_URDF % ('-0.4', '0.4', '2.0', '<cda_stall></cda_stall>')
    line = text[:text.index('<cda_stall>')].count('\n') + 1
    params = load_urdf_string(text, 'fin.urdf')
    warning, = [w for w in params.warnings if 'empty number' in w]
    assert warning.startswith('uuv fin fin_joint: fin.urdf:%d: ' % line)
    assert params.fins[0].cda_stall == 0.0


def test_text_that_is_not_a_number_is_still_refused():
    text = FIN_URDF % ('-0.4', '0.4', '2.0', '<cda_stall>abc</cda_stall>')
    with pytest.raises(DescriptionError, match='cda_stall.*expected a number'):
        load_urdf_string(text, 'fin.urdf')


def test_fin_joint_velocity_zero_under_gz_liftdrag_is_no_rate_limit():
    params = load_vehicle(CORPUS / 'lauv_liftdrag_like.urdf.xacro')
    assert all(math.isinf(f.velocity) for f in params.fins)
    assert sum('<limit velocity="0"> read as no rate limit' in w
               for w in params.warnings) == 4


@pytest.mark.parametrize('name', sorted(VEHICLES))
def test_each_flies_60_s_finite_and_bounded(name, tmp_path):
    want = VEHICLES[name]
    params = load_vehicle(CORPUS / name)
    out = tmp_path / 'run.csv'
    assert main(['simulate', str(CORPUS / name), '--duration', '60', '--no-sensors',
                 '--initial-position', '0', '0', '-20',
                 '--thrust', str(want['thrust']), '0', '0', '0', '0', '0',
                 '--out', str(out)]) == 0
    rows = np.loadtxt(out, delimiter=',', skiprows=1)
    assert rows.shape[0] == 6001 and np.all(np.isfinite(rows))
    speed = np.linalg.norm(rows[:, 8:11], axis=1)
    # Power balance: the external forces (thrust, net weight) put in at most
    # (F + |W - B|)|v|; drag takes out at least (d_lin + d_quad |v|)|v|^2 / sqrt(3)
    # (per-axis drag, smallest coefficients): so |v| is below the root u of
    # d_quad u^2 + d_lin u = sqrt(3) (F + |W - B|).
    force = math.sqrt(3.0) * (want['thrust'] + abs(params.weight() - params.buoyancy()))
    a, b = want['quadratic'], want['linear']
    bound = (-b + math.sqrt(b * b + 4.0 * a * force)) / (2.0 * a)
    assert speed.max() < bound
    assert rows[-1, 1] > 10.0  # it went forward: tens of metres in a minute


#: A 10 kg base link; the two URDFs below hang a fin or an IMU link from it.
BASE = """<?xml version="1.0"?>
<robot name="v">
  <link name="base_link"><inertial><mass value="10"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
"""

FIN_URDF = BASE + """  <joint name="fin_joint" type="revolute">
    <origin xyz="-0.5 0 0"/><axis xyz="0 0 1"/>
    <limit lower="%s" upper="%s" velocity="%s" effort="0"/>
    <parent link="base_link"/><child link="fin"/></joint>
  <link name="fin"/>
  <gazebo>
    <plugin name="fm" filename="libuuv_fin_ros_plugin.so">
      <dynamics><type>ZeroOrder</type></dynamics>
      <liftdrag><type>TwoLines</type><area>0.01</area><fluid_density>1000</fluid_density>
        <a0>0</a0><alpha_stall>0.3</alpha_stall><cla>2</cla><cla_stall>-1</cla_stall>
        <cda>0.2</cda>
        %s
      </liftdrag>
      <link_name>fin</link_name><joint_name>fin_joint</joint_name>
    </plugin>
  </gazebo>
</robot>
"""

SENSOR_URDF = BASE + """  <joint name="imu_joint" type="%s">
    <origin xyz="0.3 0 0.2"/><axis xyz="%s"/>
    <limit lower="%s" upper="%s" velocity="0" effort="0"/>
    <parent link="base_link"/><child link="imu_link"/></joint>
  <link name="imu_link"><inertial><origin xyz="0 1 0"/><mass value="2"/>
    <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
  <gazebo>
    <plugin filename="libuuv_gazebo_ros_imu_plugin.so" name="imu">
      <link_name>imu_link</link_name><sensor_topic>imu</sensor_topic>
      <update_rate>10</update_rate>
    </plugin>
  </gazebo>
</robot>
"""


def test_zero_range_revolute_joint_is_rigid_at_its_only_angle():
    q = 0.1
    params = load_urdf_string(SENSOR_URDF % ('revolute', '1 0 0', q, q), 'imu.urdf')
    frame = params.frames['imu_link']
    assert np.allclose(frame.translation, [0.3, 0.0, 0.2], atol=1e-12)
    # rotation by q about x: quaternion [cos(q/2), sin(q/2), 0, 0]
    assert np.allclose(frame.rotation, [math.cos(q / 2), math.sin(q / 2), 0, 0], atol=1e-12)
    # the link's 2 kg at (0, 1, 0) in its frame sits at (0.3, cos q, 0.2 + sin q) in the
    # base frame; the lumped centre of mass is the mass-weighted mean with the base's 10 kg
    want = 2.0 * np.array([0.3, math.cos(q), 0.2 + math.sin(q)]) / 12.0
    assert np.allclose(params.com, want, atol=1e-12)
    assert params.sensors[0].link == 'imu_link'


def test_zero_range_prismatic_joint_is_rigid_at_its_only_offset():
    params = load_urdf_string(SENSOR_URDF % ('prismatic', '0 0 2', 0.05, 0.05), 'imu.urdf')
    # the axis is normalised: 0.05 m along z
    assert np.allclose(params.frames['imu_link'].translation, [0.3, 0.0, 0.25], atol=1e-12)
    note, = [r.note for r in params.elements if r.name == 'imu_joint']
    assert note.startswith('zero-range prismatic joint: rigid')


def test_a_joint_with_a_range_still_moves_and_a_sensor_on_it_is_refused():
    with pytest.raises(DescriptionError, match="link 'imu_link' is not the base link"):
        load_urdf_string(SENSOR_URDF % ('revolute', '1 0 0', -0.1, 0.1), 'imu.urdf')


SDF_MODEL = """<sdf version="1.9"><model name="m">
  <link name="base"><inertial><mass>10</mass></inertial></link>
  <link name="s"><pose>0.5 0 0 0 0 0</pose><inertial><mass>1</mass></inertial></link>
  <joint name="j" type="revolute"><parent>base</parent><child>s</child>
    <axis><xyz>1 0 0</xyz><limit><lower>%s</lower><upper>%s</upper></limit></axis>
  </joint>
</model></sdf>"""


def test_sdf_zero_range_joint_is_rigid_and_a_range_moves():
    params = load_sdf_string(SDF_MODEL % (0, 0), 'm.sdf')
    assert 's' in params.frames
    note, = [r.note for r in params.elements if r.kind == 'joint']
    assert note.startswith(ZERO_RANGE)
    params = load_sdf_string(SDF_MODEL % (-1, 1), 'm.sdf')
    assert 's' not in params.frames
    assert any("'j' (revolute, link 's')" in w for w in params.warnings)
    # held at q = 0.1: not re-posed in SDF, and a warning says so
    params = load_sdf_string(SDF_MODEL % (0.1, 0.1), 'm.sdf')
    assert 's' not in params.frames
    assert any('range is zero at q = 0.1' in w and 'not re-posed' in w
               for w in params.warnings)


def test_empty_number_in_a_uuv_sensor_plugin_is_zero_with_a_warning():
    text = (SENSOR_URDF % ('revolute', '1 0 0', 0, 0)).replace(
        '<update_rate>10</update_rate>', '<update_rate>10</update_rate>\n'
        '      <orientation_noise></orientation_noise>')
    line = text[:text.index('<orientation_noise>')].count('\n') + 1
    params = load_urdf_string(text, 'imu.urdf')
    warning, = [w for w in params.warnings if 'empty number' in w]
    assert 'imu.urdf:%d: ' % line in warning and warning.endswith(
        'orientation_noise: empty number read as 0, as sdformat reads it (Gazebo prints an '
        'error and uses 0)')
    assert all(n.stddev == 0.0 for n in params.sensors[0].model.orientation)


def _rpy(r, p, y):
    """Return URDF's R = Rz(y) Ry(p) Rx(r)."""
    rx = np.array([[1, 0, 0], [0, math.cos(r), -math.sin(r)], [0, math.sin(r), math.cos(r)]])
    ry = np.array([[math.cos(p), 0, math.sin(p)], [0, 1, 0], [-math.sin(p), 0, math.cos(p)]])
    rz = np.array([[math.cos(y), -math.sin(y), 0], [math.sin(y), math.cos(y), 0], [0, 0, 1]])
    return rz @ ry @ rx


def _origin(elem):
    o = elem.find('origin')
    if o is None:
        return np.zeros(3), np.eye(3)
    return (np.array([float(v) for v in o.get('xyz', '0 0 0').split()]),
            _rpy(*[float(v) for v in o.get('rpy', '0 0 0').split()]))


def uuv_formula(text):
    """
    Return f(nu) -> (drag, buoyancy) about the base origin as uuv_simulator applies them.

    Written from the expanded URDF alone: Gazebo classic's base body is the base link and
    its fixed-joint descendants (sdformat ReduceFixedJoints); HMFossen's damping on the
    link-origin twist in NED, its force at that body's CoG (AddRelativeForce); buoyancy
    rho V g at CoG + center_of_buoyancy (AddForceAtRelativePosition), V = m / rho when
    neutrally_buoyant; Gazebo's default gravity 9.8.
    """
    import xml.etree.ElementTree as ET
    root = ET.fromstring(text)
    links = {link.get('name'): link for link in root.findall('link')}
    plugin = next(p for p in root.iter('plugin')
                  if 'underwater_object' in p.get('filename', ''))
    block = plugin.find('link')
    poses = {block.get('name'): (np.zeros(3), np.eye(3))}
    grown = True
    while grown:
        grown = False
        for joint in root.findall('joint'):
            parent, child = joint.find('parent').get('link'), joint.find('child').get('link')
            if joint.get('type') == 'fixed' and parent in poses and child not in poses:
                xyz, rot = _origin(joint)
                poses[child] = (poses[parent][0] + poses[parent][1] @ xyz,
                                poses[parent][1] @ rot)
                grown = True
    mass, moment = 0.0, np.zeros(3)
    for name, (p, r) in poses.items():
        inertial = links[name].find('inertial')
        if inertial is not None:
            m = float(inertial.find('mass').get('value'))
            mass, moment = mass + m, moment + m * (p + r @ _origin(inertial)[0])
    cog = moment / mass
    rho = float(plugin.findtext('fluid_density') or 1028.0)
    volume = float(block.findtext('volume') or 0.0)
    if (block.findtext('neutrally_buoyant') or '0').strip() in ('1', 'true'):
        volume = mass / rho
    cob = np.array([float(v) for v in (block.findtext('center_of_buoyancy')
                                       or '0 0 0').split()])
    model = block.find('hydrodynamic_model')

    def matrix(tag):
        elem = model.find(tag)
        values = np.array([float(v) for v in elem.text.split()]) if elem is not None \
            else np.zeros(6)
        return np.diag(values) if values.size == 6 else values.reshape(6, 6)
    lin, quad, fwd = (matrix('linear_damping'), matrix('quadratic_damping'),
                      matrix('linear_damping_forward_speed'))
    t = np.array([1.0, -1.0, -1.0, 1.0, -1.0, -1.0])  # ToNEDConvention

    def wrench(nu):
        v = t * nu
        d = -lin - v[0] * fwd - np.diag(np.diag(quad) * np.abs(v))  # ComputeDampingMatrix
        f = t * (-d @ v)
        lift = np.array([0.0, 0.0, volume * rho * 9.8])
        return (np.concatenate([f[:3], f[3:] + np.cross(cog, f[:3])]),
                np.concatenate([lift, np.cross(cog + cob, lift)]))
    return wrench


@pytest.mark.parametrize('name', ['rexrov_like.urdf.xacro', 'eca_like.urdf.xacro',
                                  'lauv_liftdrag_like.urdf.xacro'])
def test_the_underwater_object_is_uuvs_formula_on_gazebo_classics_base_body(name):
    """Issue 40: the block acts on the base link's own body, not the lumped vehicle."""
    from uwv_hydro.description.urdf.xacro_file import expand_xacro
    from uwv_hydro.physics.hydro.hydro_model import HydroModel
    formula = uuv_formula(expand_xacro(str(CORPUS / name)))
    model = HydroModel(load_vehicle(CORPUS / name))
    rng = np.random.default_rng(40)
    for _ in range(10):
        nu = rng.uniform(-1.0, 1.0, 6)
        drag, buoyancy = formula(nu)
        w = model.wrench(nu).components
        # the same sums in another order: 1e-12 of the largest term
        assert np.allclose(w['linear_drag'] + w['quadratic_drag'], drag, rtol=0,
                           atol=1e-12 * np.abs(drag).max())
        assert np.allclose(w['buoyancy'], buoyancy, rtol=0, atol=1e-12 * buoyancy[2])
