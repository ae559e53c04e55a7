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
uuv_simulator / DAVE / ds_sim equipment in URDF/xacro (issue 21, item 1).

The expected thrusts and fin forces are uuv_simulator's equations re-derived here from
its sources (ThrusterPlugin.cc Update, Dynamics.cc, ThrusterConversionFcn.cc,
FinPlugin.cc OnUpdate, LiftDragModel.cc LiftDragQuadratic::compute), not the project's.
"""
import math
import pathlib

import numpy as np
import pytest

from uwv_hydro.cli.main import main
from uwv_hydro.description.dsros.sensors import beam_velocity_stddev
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.loader import load_vehicle
from uwv_hydro.description.vehicle_from_urdf import load_urdf_string
from uwv_hydro.description.yaml.params import load_yaml_string
from uwv_hydro.physics.actuators.fins import FinSet
from uwv_hydro.physics.actuators.thruster_bank import ThrusterBank

CORPUS = pathlib.Path(__file__).resolve().parents[2] / 'corpus'
REXROV = CORPUS / 'uuv_simulator' / 'rexrov_like.urdf.xacro'
LAUV = CORPUS / 'uuv_simulator' / 'lauv_like.urdf.xacro'
SENTRY = CORPUS / 'ds_sim' / 'sentry_like.urdf.xacro'
RHO = 1028.0
INF = math.inf

#: The thrusters of rexrov_like.urdf.xacro as written there: id -> (xyz, rpy, dynamics,
#: conversion, gain, thrust_efficiency, propeller_efficiency, clamp, thrust limits).
REXROV_THRUSTERS = {
    0: ((-0.890895, 0.334385, 0.528822), (0, -1.3089969, 0.392699), ('FirstOrder',),
        ('Basic', 0.00031), 1.0, 1.0, 1.0, (-INF, INF), (-INF, INF)),  # min >= max: reset
    1: ((-0.890895, -0.334385, 0.528822), (0, -1.3089969, -0.392699), ('FirstOrder',),
        ('Basic', 0.00031), 1.0, 1.0, 1.0, (-INF, INF), (-INF, INF)),
    2: ((0.890895, 0.334385, 0.528822), (0, -1.3089969, 2.748894), ('ZeroOrder',),
        ('Basic', 0.00031), 1.5, 0.9, 0.8, (-INF, INF), (-600.0, 800.0)),
    3: ((0.890895, -0.334385, 0.528822), (0, -1.3089969, -2.748894), ('FirstOrder',),
        ('Basic', 0.00031), -2.0, 1.0, 1.0, (-1000.0, 1200.0), (-INF, INF)),
    4: ((-1.412, 0.567, 0.0), (0, 0, 0.5), ('Yoerger', 0.05, 4.0), ('Basic', 0.0004),
        2.0, 1.0, 0.7, (-INF, INF), (-INF, 500.0)),
    5: ((-1.412, -0.567, 0.0), (0, 0, -0.5), ('Bessa', 0.5, 0.3, 0.02, 2.0, 0.8),
        ('Bessa', 0.0003, 0.00035, -20.0, 30.0), 1.2, 0.95, 0.9, (-INF, INF), (-300.0, INF)),
    6: ((1.412, 0.567, 0.0), (0, 0, 2.6), ('FirstOrder',),
        ('LinearInterp', (-10, -5, 0, 5, 10), (-400, -100, 0, 120, 480)), 0.5, 0.9, 0.8,
        (-INF, INF), (-INF, 300.0)),
    7: ((1.412, -0.567, 0.0), (0, 0, -2.6), ('ZeroOrder',),
        ('LinearInterp', (0, -20, 20), (0, -250, 300)), 1.0, 1.0, 1.0, (-15.0, 12.0),
        (-INF, INF)),
}


def _rpy(r, p, y):
    """URDF fixed-axis roll-pitch-yaw: R = Rz(y) Ry(p) Rx(r)."""
    cr, sr, cp, sp, cy, sy = (math.cos(r), math.sin(r), math.cos(p), math.sin(p),
                              math.cos(y), math.sin(y))
    rx = np.array([[1, 0, 0], [0, cr, -sr], [0, sr, cr]])
    ry = np.array([[cp, 0, sp], [0, 1, 0], [-sp, 0, cp]])
    rz = np.array([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]])
    return rz @ ry @ rx


def _uuv_steady_state(dynamics, v):
    """Rotor state uuv_simulator's Dynamics.cc settles at under the input v."""
    if dynamics[0] in ('ZeroOrder', 'FirstOrder'):
        return v
    if dynamics[0] == 'Yoerger':
        alpha, beta = dynamics[1:]
        # 0 = beta v - alpha w|w|
        return math.copysign(math.sqrt(beta * abs(v) / alpha), v)
    jmsp, kv1, kv2, kt, rm = dynamics[1:]
    # 0 = Kt/Rm v - Kv1 w - Kv2 w|w|: Kv2 m^2 + Kv1 m - |Kt v/Rm| = 0 for m = |w|
    p = kt / rm * v
    m = (-kv1 + math.sqrt(kv1 * kv1 + 4.0 * kv2 * abs(p))) / (2.0 * kv2)
    return math.copysign(m, p)


def _uuv_conversion(conversion, x):
    """uuv_simulator's ThrusterConversionFcn.cc: rotor state -> thrust."""
    if conversion[0] == 'Basic':
        return conversion[1] * x * abs(x)
    if conversion[0] == 'Bessa':
        kl, kr, dl, dr = conversion[1:]
        b = x * abs(x)
        return kl * (b - dl) if b <= dl else kr * (b - dr) if b >= dr else 0.0
    inputs, outputs = conversion[1:]
    pairs = sorted(zip(inputs, outputs))  # a std::map, held at the ends
    return float(np.interp(x, [p[0] for p in pairs], [p[1] for p in pairs]))


def _uuv_thrust(entry, u):
    """ThrusterPlugin::Update at steady state for the command u."""
    _, _, dynamics, conversion, gain, te, pe, clamp, limits = entry
    v = gain * min(max(u, clamp[0]), clamp[1])
    x = pe * _uuv_steady_state(dynamics, v)
    thrust = te * _uuv_conversion(conversion, x)
    return min(max(thrust, limits[0]), limits[1])


@pytest.fixture(scope='module')
def rexrov():
    return load_vehicle(REXROV)


def test_rexrov_like_loads_all_thrusters_and_sensors_with_records(rexrov):
    assert [t.joint_name for t in rexrov.thrusters] == [
        'rexrov/thruster_%d_joint' % k for k in range(8)]
    assert [t.topic for t in rexrov.thrusters] == ['thrusters/id_%d/input' % k for k in range(8)]
    assert sorted((s.name, s.kind) for s in rexrov.sensors) == [
        ('dvl', 'dvl'), ('gps', 'navsat'), ('imu', 'imu'), ('pressure', 'fluid_pressure')]
    kinds = {}
    for rec in rexrov.elements:
        kinds.setdefault((rec.kind, rec.status), []).append(rec.name)
    assert len(kinds[('thruster', 'read')]) + len(kinds[('thruster', 'warned')]) == 8
    # the pose_3d and camera plugins are recognised, not simulated, and said so
    assert 'libuuv_gazebo_ros_pose_gt_plugin.so' in kinds[('sensor', 'warned')]
    assert 'libuuv_gazebo_ros_camera_plugin.so' in kinds[('sensor', 'warned')]
    assert kinds[('plugin', 'read')] == ['libuuv_underwater_object_ros_plugin.so']
    unknown = [r for r in rexrov.elements if r.note == 'unknown plugin']
    assert [r.name for r in unknown] == ['libsomething_else.so']
    summary = [w for w in rexrov.warnings if w.startswith('recognised but not simulated')]
    assert len(summary) == 1 and 'pose_3d' in summary[0] and 'joint-state' in summary[0]
    # rexrov's clampMin = clampMax = 0 is reset by uuv (no clamp): one line for both
    assert any('thruster_0_joint, rexrov/thruster_1_joint: clampMin 0 >= clampMax 0' in w
               for w in rexrov.warnings)


@pytest.mark.parametrize('tid', sorted(REXROV_THRUSTERS))
def test_steady_thrust_is_uuvs_formula(rexrov, tid):
    entry = REXROV_THRUSTERS[tid]
    bank = ThrusterBank([rexrov.thrusters[tid]], RHO)
    commands = [-2000.0, -900.0, -37.5, -12.0, -3.0, 0.0, 0.7, 4.0, 11.0, 24.0, 150.0,
                1300.0, 5000.0]
    for u in commands:
        bank.state[:] = bank.steady_state([u])
        bank.evaluate()
        expected = _uuv_thrust(entry, u)
        # the same arithmetic in another order: round-off of |T| only
        assert abs(bank.thrust[0] - expected) <= 1e-12 * max(1.0, abs(expected)), (u,)


@pytest.mark.parametrize('tid', sorted(REXROV_THRUSTERS))
def test_force_along_the_joint_axis_at_the_thruster_link(rexrov, tid):
    xyz, rpy = REXROV_THRUSTERS[tid][:2]
    bank = ThrusterBank([rexrov.thrusters[tid]], RHO)
    # ThrusterPlugin: force T * joint axis (x of the joint frame) at the thruster link
    d = _rpy(*rpy) @ np.array([1.0, 0.0, 0.0])
    expected = np.concatenate((d, np.cross(xyz, d)))
    assert np.max(np.abs(bank.allocation[:, 0] - expected)) < 1e-12


def _yaml_of(tid, dynamics_yaml, conversion_yaml):
    xyz, rpy = REXROV_THRUSTERS[tid][:2]
    return '\n'.join([
        'vehicle:', '  name: rexrov', '  mass: 1862.87',
        '  inertia: {ixx: 525.39, iyy: 794.2, izz: 691.23}',
        '  thrusters:', '    rexrov/thruster_%d_joint:' % tid,
        '      xyz: [%r, %r, %r]' % xyz, '      rpy: [%r, %r, %r]' % tuple(map(float, rpy)),
        '      topic: thrusters/id_%d/input' % tid, '      namespace: /rexrov',
        '      dynamics: %s' % dynamics_yaml, '      conversion: %s' % conversion_yaml, ''])


@pytest.mark.parametrize('tid,dynamics,conversion', [
    (1, '{type: FirstOrder, timeConstant: 0.05}', '{type: Basic, rotorConstant: 0.00031}'),
    (7, '{type: ZeroOrder}',
     '{type: LinearInterp, inputValues: [0, -20, 20], outputValues: [0, -250, 300]}'),
])
def test_block_gives_the_spec_the_yaml_uuv_block_gives(rexrov, tid, dynamics, conversion):
    yaml_spec = load_yaml_string(_yaml_of(tid, dynamics, conversion), 'y.yaml').thrusters[0]
    block = rexrov.thrusters[tid]
    for field in ('joint_name', 'model', 'dynamics_type', 'conversion_type', 'topic'):
        assert getattr(block, field) == getattr(yaml_spec, field)
    for field in ('translation', 'rotation', 'axis', 'dynamics_terms', 'conversion_terms',
                  'lookup_command', 'lookup_thrust'):
        a, b = np.asarray(getattr(block, field), float), np.asarray(getattr(yaml_spec, field))
        assert a.shape == b.shape and (a.size == 0 or np.max(np.abs(a - b)) < 1e-12), field
    assert abs(block.time_constant - yaml_spec.time_constant) < 1e-12


def test_first_order_rotor_follows_uuvs_discrete_lag(rexrov):
    # DynamicsFirstOrder: x+ = x e^(-dt/tau) + (1 - e^(-dt/tau)) u (tau 0.05, gain -2 on 3)
    bank = ThrusterBank([rexrov.thrusters[3]], RHO)
    x, dt, tau, k = 0.0, 0.01, 0.1, 0.00031
    for _ in range(20):
        bank.step([300.0], dt)
        x = x * math.exp(-dt / tau) + (1.0 - math.exp(-dt / tau)) * (-2.0 * 300.0)
        assert abs(bank.thrust[0] - k * x * abs(x)) < 1e-9 * k * x * x


def _fin_case(rpy, nu, delta):
    """Return uuv's FinPlugin + LiftDragQuadratic force of a fin at -0.9 x (axis: link z)."""
    lift_constant, drag_constant = 5.0, 1.2
    # fin link: joint origin rpy, then the deflection about the joint axis (link z)
    rot = _rpy(*rpy) @ _rpy(0.0, 0.0, delta)
    r = np.array([-0.9, 0.0, 0.0])
    v = nu[:3] + np.cross(nu[3:], r)  # link velocity (world = body axes at rest)
    normal = rot @ np.array([0.0, 0.0, 1.0])
    v_plane = np.cross(normal, np.cross(v, normal))
    vel_l = rot.T @ v_plane
    angle = math.atan2(vel_l[1], vel_l[0])
    if angle > math.pi / 2:
        angle -= math.pi
    elif angle < -math.pi / 2:
        angle += math.pi
    u2 = float(vel_l @ vel_l)
    lift = angle * u2 * lift_constant
    drag = angle * angle * u2 * drag_constant
    lift_dir = -np.cross([0.0, 0.0, 1.0], vel_l)
    lift_dir /= np.linalg.norm(lift_dir)
    force_l = lift * lift_dir + drag * (-vel_l / np.linalg.norm(vel_l))
    return rot @ force_l


@pytest.mark.parametrize('nu', [
    [1.5, 0.2, -0.1, 0.0, 0.0, 0.0],
    [2.0, -0.3, 0.25, 0.05, -0.1, 0.2],
    [0.8, 0.0, 0.0, 0.0, 0.3, -0.4],
])
def test_lauv_fin_forces_are_uuvs_lift_drag_quadratic(nu):
    params = load_vehicle(LAUV)
    assert [f.name for f in params.fins] == ['lauv/fin%d_joint' % k for k in range(4)]
    assert len(params.thrusters) == 1
    fins = FinSet(params.fins, RHO)
    rpys = [(0, 0, 0), (math.pi / 2, 0, 0), (math.pi, 0, 0), (-math.pi / 2, 0, 0)]
    nu = np.array(nu, float)
    for delta in (0.0, 0.15, -0.3):
        _, forces, _ = fins.forces(nu, np.full(4, delta))
        for k, rpy in enumerate(rpys):
            expected = _fin_case(rpy, nu, delta)
            scale = max(1.0, float(np.linalg.norm(expected)))
            assert np.max(np.abs(forces[0, k] - expected)) < 1e-12 * scale, (k, delta)


def test_fin_joint_velocity_zero_is_no_rate_limit_and_limits_from_the_joint():
    params = load_vehicle(LAUV)
    for fin in params.fins:
        assert fin.velocity == math.inf  # uuv sets the angle directly
        assert (fin.lower, fin.upper) == (-0.4, 0.4)
        assert fin.time_constant == 0.1
        assert fin.model == 'quadratic'


def test_ds_sim_sensors_frames_and_noise():
    params = load_vehicle(SENTRY)
    by_name = {s.name: s for s in params.sensors}
    assert sorted(by_name) == ['dvl_sensor', 'gps_sensor', 'paro_sensor', 'phins_sensor']
    paro = by_name['paro_sensor']
    assert paro.kind == 'fluid_pressure' and paro.topic == 'depth'
    assert paro.pose == (0.2, 0.0, 0.5, 0.0, 0.0, 0.0) and paro.frame_id() == 'paro_sensor'
    assert abs(paro.model.pressure.stddev - 0.005 * 1e4) < 1e-9  # dbar -> Pa
    phins = by_name['phins_sensor']
    assert phins.kind == 'imu' and phins.update_rate == 10.0  # min(sensor 10, plugin 20)
    assert [a.stddev for a in phins.model.orientation] == [0.001, 0.001, 0.01]
    assert phins.pose[5] == pytest.approx(math.pi / 2, abs=1e-15)
    dvl = by_name['dvl_sensor']
    theta = math.radians(30.0)
    # four Janus beams at 30 deg: sigma / (sqrt(2) sin theta) across, sigma / (2 cos theta) down
    expected = [0.01 / (math.sqrt(2.0) * math.sin(theta))] * 2 + [0.01 / (2 * math.cos(theta))]
    assert np.max(np.abs(np.array([a.stddev for a in dvl.model.velocity]) - expected)) < 1e-15
    assert dvl.pose[3] == pytest.approx(math.pi, abs=1e-15)
    gps = by_name['gps_sensor']
    assert gps.kind == 'navsat' and gps.model.surfaced_depth == -0.01
    assert (gps.model.horizontal.stddev, gps.model.vertical.stddev) == (1.0, 2.0)
    reson = [r for r in params.elements if r.name == 'reson_sensor']
    assert reson[0].status == 'warned' and reson[0].note.startswith('not modelled')


def test_beam_noise_of_an_unbalanced_azimuth_set_is_the_least_squares_one():
    # three beams only at 0/120/240 deg and 20 deg from down: (B^T B) is still diagonal
    theta, sigma = math.radians(20.0), 0.02
    std = beam_velocity_stddev(sigma, 20.0, [0.0, 120.0, 240.0])
    # sum cos^2 = sum sin^2 = 3/2 over three equally spaced azimuths
    expected = [sigma / math.sqrt(1.5 * math.sin(theta) ** 2)] * 2 + [
        sigma / math.sqrt(3.0 * math.cos(theta) ** 2)]
    assert np.max(np.abs(std - expected)) < 1e-15


def test_uuv_sensor_noise_mapping(rexrov):
    by_name = {s.name: s for s in rexrov.sensors}
    imu = by_name['imu'].model
    # white noise: density / sqrt(dt) with dt = 1 / 50 Hz
    assert abs(imu.angular_velocity[0].stddev - 0.0003394 * math.sqrt(50.0)) < 1e-15
    assert imu.angular_velocity[2].dynamic_bias_stddev == 0.000038785
    assert imu.angular_velocity[1].dynamic_bias_correlation_time == 1000.0
    assert imu.linear_acceleration[0].bias_stddev == 0.1960
    assert [a.stddev for a in imu.orientation] == [0.01] * 3
    pressure = by_name['pressure']
    assert pressure.model.atmospheric_pressure == pytest.approx(101325.0, abs=1e-9)
    assert pressure.model.pressure.stddev == pytest.approx(3000.0, abs=1e-9)  # 3 kPa
    assert by_name['dvl'].model.velocity[0].stddev == pytest.approx(0.03, abs=1e-15)
    gps = by_name['gps']
    assert gps.link == 'rexrov/gps_link' and gps.model.horizontal.stddev == 1.5


def test_check_lists_the_uuv_thruster_topics(capsys):
    assert main(['check', str(REXROV)]) == 0
    out = capsys.readouterr().out
    assert 'thrusters:      8' in out
    assert '/rexrov/thrusters/id_5/input' in out


URDF_HEAD = """<?xml version="1.0"?>
<robot name="v">
  <link name="base_link"><inertial><mass value="10"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <joint name="t_joint" type="continuous"><origin xyz="-1 0 0"/><axis xyz="1 0 0"/>
    <parent link="base_link"/><child link="t"/></joint>
  <link name="t"/>
  <gazebo>
    <plugin name="tm" filename="libuuv_thruster_ros_plugin.so">
      <linkName>t</linkName><thrusterID>0</thrusterID>
      %s
    </plugin>
  </gazebo>
</robot>
"""


@pytest.mark.parametrize('body,words', [
    ('<conversion><type>Basic</type><rotorConstant>1e-3</rotorConstant></conversion>',
     'needs <dynamics>'),
    ('<dynamics><type>Magic</type></dynamics>'
     '<conversion><type>Basic</type><rotorConstant>1e-3</rotorConstant></conversion>',
     "'Magic': expected one of ZeroOrder"),
    ('<dynamics><type>ZeroOrder</type></dynamics>'
     '<conversion><type>Basic</type></conversion>', 'Basic needs rotorConstant'),
    ('<dynamics><type>ZeroOrder</type></dynamics><gain>-1</gain><conversion><type>Bessa'
     '</type><rotorConstantL>1</rotorConstantL><rotorConstantR>1</rotorConstantR><deltaL>'
     '-1</deltaL><deltaR>1</deltaR></conversion>', 'negative gain'),
    ('<dynamics><type>ZeroOrder</type></dynamics><thrustMin>10</thrustMin>'
     '<conversion><type>Basic</type><rotorConstant>1e-3</rotorConstant></conversion>',
     'exclude zero thrust'),
])
def test_bad_uuv_thruster_blocks_name_what_and_where(body, words):
    with pytest.raises(DescriptionError) as err:
        load_urdf_string(URDF_HEAD % body, 'v.urdf')
    assert words in str(err.value)
    assert err.value.line is not None and 'plugin' in err.value.element


def test_thruster_without_joint_name_uses_the_joint_of_its_link():
    params = load_urdf_string(URDF_HEAD % (
        '<dynamics><type>ZeroOrder</type></dynamics>'
        '<conversion><type>Basic</type><rotorConstant>1e-3</rotorConstant></conversion>'
        '<efficiency>1</efficiency>'), 'v.urdf')
    assert params.thrusters[0].joint_name == 't_joint'
    assert any('unknown element <efficiency> ignored' in w for w in params.warnings)


def test_dave_like_sensors():
    params = load_vehicle(CORPUS / 'dave' / 'caldus_like.urdf.xacro')
    by_name = {s.name: s for s in params.sensors}
    dvl, pressure = by_name['dvl_sensor'], by_name['pressure']
    assert dvl.link == 'caldus/dvl_link' and dvl.update_rate == 7.0 and dvl.pose is None
    theta = math.radians(25.0)  # DAVE's beam angle, four Janus beams
    expected = [0.005 / (math.sqrt(2.0) * math.sin(theta))] * 2 + [
        0.005 / (2.0 * math.cos(theta))]
    assert np.max(np.abs(np.array([a.stddev for a in dvl.model.velocity]) - expected)) < 1e-15
    assert pressure.model.pressure.stddev == pytest.approx(1000.0, abs=1e-9)  # 0.5 x 2 kPa
    # kPa_per_meter within 1 % of the vehicle's rho g: no warning about it
    assert not any('kPa_per_meter' in w for w in params.warnings)
    assert any('minRange/maxRange not applied' in w for w in params.warnings)
    sonar = [r for r in params.elements if r.name == 'libnps_multibeam_sonar_ros_plugin.so']
    assert sonar[0].status == 'warned' and sonar[0].note.startswith('not modelled')


def test_uuv_dvl_local_ned_frame_is_the_link_rolled_by_pi(rexrov):
    dvl = {s.name: s for s in rexrov.sensors}['dvl']
    # DVLROSPlugin: v_ned = Rx(pi) v_link, frame_id <link>_ned (uuv's default)
    assert dvl.frame_id() == 'rexrov/dvl_link_ned'
    rot = _rpy(*dvl.pose[3:])
    assert np.max(np.abs(rot - np.diag([1.0, -1.0, -1.0]))) < 1e-15
    assert any('uuv sensor imu: enable_local_ned_frame' in w for w in rexrov.warnings)


def test_dvl_beams_that_do_not_span_three_axes_are_refused():
    # beams straight down (0 deg) measure the vertical velocity only
    text = (CORPUS / 'dave' / 'caldus_like.urdf.xacro').read_text().replace(
        '<beamAngleDeg>25.0</beamAngleDeg>', '<beamAngleDeg>0</beamAngleDeg>')
    with pytest.raises(DescriptionError) as err:
        load_urdf_string(text, 'caldus.urdf')  # no xacro in it: plain URDF
    assert 'do not span three axes' in str(err.value) and 'beamAngleDeg' in err.value.element


MIXED_SENSORS = """<robot name="m">
  <link name="base_link"><inertial><mass value="10"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <gazebo reference="base_link">
    <sensor name="plain_gps" type="gps"><update_rate>1</update_rate>
      <gps><position_sensing><horizontal><noise type="gaussian"><stddev>4.0</stddev>
      </noise></horizontal></position_sensing></gps></sensor>
    <sensor name="ds_gps" type="gps"><update_rate>1</update_rate>
      <gps><position_sensing><horizontal><noise type="gaussian"><stddev>9.0</stddev>
      </noise></horizontal></position_sensing></gps>
      <plugin name="g" filename="libdsros_ros_gps.so"><topicName>ds_fix</topicName>
        <gaussianNoiseLL_meters>0.5</gaussianNoiseLL_meters></plugin></sensor>
    <sensor name="ds_dvl" type="dsros_dvl"><update_rate>5</update_rate>
      <plugin name="d" filename="libdsros_ros_dvl.so"><topicName>dvl</topicName></plugin>
    </sensor>
    <sensor name="cam" type="camera">
      <plugin name="c" filename="libuuv_gazebo_ros_camera_plugin.so"/></sensor>
    <sensor name="eye" type="camera"><update_rate>5</update_rate></sensor>
  </gazebo>
</robot>"""


@pytest.mark.parametrize('path', [REXROV, SENTRY, LAUV,
                                  CORPUS / 'dave' / 'caldus_like.urdf.xacro', None])
def test_each_urdf_element_is_recorded_once_and_warned_in_one_line(path):
    """The generic <sensor> table and the ds_sim / uuv readers never share a sensor."""
    params = load_vehicle(path) if path else load_urdf_string(MIXED_SENSORS, 'm.urdf')
    places = [r.where for r in params.elements]
    assert len(places) == len(set(places)), sorted(p for p in places if places.count(p) > 1)
    lines = [w for w in params.warnings if w.startswith('recognised but not simulated')]
    assert len(lines) <= 1
    warned = [r for r in params.elements
              if r.status == 'warned' and r.note.startswith('not modelled')]
    assert (len(lines) == 1) == bool(warned)
    for r in warned:
        assert '%s %r' % (r.kind, r.name) in lines[0]


def test_a_sensor_goes_to_the_reader_of_its_simulator():
    params = load_urdf_string(MIXED_SENSORS, 'm.urdf')
    by_name = {s.name: s for s in params.sensors}
    assert sorted(by_name) == ['ds_dvl', 'ds_gps', 'plain_gps']
    # Gazebo classic gps: the sensor's own <gps> noise (generic table, gz element names)
    assert by_name['plain_gps'].model.horizontal.stddev == 4.0
    # ds_sim gps: dsros_gps_plugin.cc's gaussianNoiseLL_meters and topicName, not <gps>
    assert by_name['ds_gps'].model.horizontal.stddev == 0.5
    assert by_name['ds_gps'].topic == 'ds_fix'
    notes = {r.name: (r.status, r.note) for r in params.elements if r.kind == 'sensor'}
    # the camera holding a uuv plugin: recorded once, by the uuv reader, under its plugin
    assert 'cam' not in notes
    cam = notes['libuuv_gazebo_ros_camera_plugin.so']
    assert cam[0] == 'warned' and 'uuv_simulator' in cam[1]
    assert notes['eye'][0] == 'warned' and notes['eye'][1].startswith('not modelled: camera')
    assert notes['ds_dvl'][0] == 'read' and notes['ds_dvl'][1].startswith('ds_sim dsros_dvl')
