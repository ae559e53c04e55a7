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
Magnetometers: uuv_simulator's plugin and gz-sim's sensor, field, noise and messages.

uuv (MagnetometerROSPlugin.cc, Load/OnUpdate): the world field
I [cos i cos(h - d), cos i sin(h - d), -sin i] from intensity I, reference heading h,
declination d and inclination i; the measurement RotateVectorReverse(field) in the
link plus a turn-on bias amp * N(0, turn_on_bias) and white noise amp * N(0, noise_xy)
(x, y) or amp * N(0, noise_z), rotated into <link>_ned (roll pi) by default; the
message's covariance noise_xy^2, noise_xy^2, noise_z^2.  gz-sim (Magnetometer.cc and
gz-sensors' MagnetometerSensor): the world's <magnetic_field> (SDF default
5.5645e-6 22.8758e-6 -42.3884e-6 T) in the sensor frame, per-axis <noise>.  The look-alikes
below use our own numbers; each expected value is re-derived from those formulas.
"""
import math

import numpy as np
import pytest

from uwv_hydro.description.loader import load_vehicle_string
from uwv_hydro.physics.sensing.sensors import build_sensor
from uwv_hydro.physics.spatial.rotation import quat_from_rpy, quat_to_matrix

INTENSITY, HEADING, DECLINATION, INCLINATION = 48.0, 1.2, 0.1, 1.0
#: sdformat 16.1.0, sdf/1.12/world.sdf <magnetic_field default=...> and src/World.cc
#: (World::Implementation::magneticField), the same since sdf/1.6: the published literal.
SDFORMAT_MAGNETIC_FIELD = (5.5645e-6, 22.8758e-6, -42.3884e-6)


def uuv_robot(extra='', ned=None):
    """Return a base link and uuv's magnetometer on a zero-range revolute link, rotated."""
    flag = '' if ned is None else ('<enable_local_ned_frame>%s</enable_local_ned_frame>'
                                   % ('true' if ned else 'false'))
    return """<?xml version="1.0"?>
<robot name="mag">
  <link name="base_link"><inertial><mass value="100"/>
    <inertia ixx="10" ixy="0" ixz="0" iyy="10" iyz="0" izz="10"/></inertial></link>
  <link name="mag_link"><inertial><mass value="0.015"/>
    <inertia ixx="1e-5" ixy="0" ixz="0" iyy="1e-5" iyz="0" izz="1e-5"/></inertial></link>
  <joint name="mag_joint" type="revolute"><parent link="base_link"/><child link="mag_link"/>
    <origin xyz="0.3 0.1 -0.2" rpy="0.2 -0.1 0.5"/><axis xyz="1 0 0"/>
    <limit upper="0" lower="0" effort="0" velocity="0"/></joint>
  <gazebo><plugin filename="libuuv_gazebo_ros_magnetometer_plugin.so" name="mag_plugin">
    <robot_namespace>mag</robot_namespace><link_name>mag_link</link_name>
    <sensor_topic>magnetometer</sensor_topic><update_rate>50</update_rate>
    <intensity>%r</intensity><reference_heading>%r</reference_heading>
    <declination>%r</declination><inclination>%r</inclination>
    %s %s
  </plugin></gazebo>
</robot>
""" % (INTENSITY, HEADING, DECLINATION, INCLINATION, flag, extra)


def uuv_field():
    """MagnetometerROSPlugin::Load's magneticFieldWorld."""
    i, h, d = INCLINATION, HEADING, DECLINATION
    return INTENSITY * np.array([math.cos(i) * math.cos(h - d), math.cos(i) * math.sin(h - d),
                                 -math.sin(i)])


ATTITUDES = [np.array([1.0, 0.0, 0.0, 0.0]), quat_from_rpy(0.3, -0.2, 2.0),
             quat_from_rpy(-1.0, 0.7, -2.5)]


@pytest.mark.parametrize('ned', [None, True, False])
def test_uuv_magnetometer_field_frame_and_covariance(ned):
    params = load_vehicle_string(uuv_robot(ned=ned), 'mag.urdf')
    (spec,) = [s for s in params.sensors if s.kind == 'magnetometer']
    assert spec.topic == 'magnetometer' and spec.update_rate == 50.0
    # enable_local_ned_frame defaults to true (ROSBaseModelPlugin.cc): frame <link>_ned
    assert spec.frame_id() == ('mag_link' if ned is False else 'mag_link_ned')
    model = build_sensor(spec, params)
    r_link = quat_to_matrix(quat_from_rpy(0.2, -0.1, 0.5))  # base <- link
    for q in ATTITUDES:
        got = model.measure(0.0, [0.0, 0.0, -5.0], q, np.zeros(6), None)
        # pose.Rot().RotateVectorReverse(field): the link's world rotation, transposed
        link_value = (quat_to_matrix(q) @ r_link).T @ uuv_field()
        if ned is not False:  # localNEDFrame.Rot() (roll pi) .RotateVector(meas)
            link_value = np.array([1.0, -1.0, -1.0]) * link_value
        assert np.allclose(got.magnetic_field, link_value, rtol=0, atol=1e-12 * INTENSITY)
    # uuv writes noise_xy^2, noise_xy^2, noise_z^2 (defaults 1 and 1.4), whatever the amp
    assert np.allclose(np.array(got.covariance)[[0, 4, 8]], [1.0, 1.0, 1.4 ** 2])
    notes = [r.note for r in params.elements if r.kind == 'sensor' and r.name == spec.name]
    assert 'not converted to tesla' in notes[0]


def test_uuv_magnetometer_noise_and_turn_on_bias_as_uuv_draws_them():
    amp, xy, z, bias = 0.5, 2.0, 3.0, 4.0
    extra = ('<noise_amplitude>%r</noise_amplitude><noise_xy>%r</noise_xy><noise_z>%r'
             '</noise_z><turn_on_bias>%r</turn_on_bias>' % (amp, xy, z, bias))
    params = load_vehicle_string(uuv_robot(extra, ned=False), 'mag.urdf')
    spec = params.sensors[0]
    model = build_sensor(spec, params)
    q = quat_from_rpy(0.3, -0.2, 2.0)
    r_link = quat_to_matrix(quat_from_rpy(0.2, -0.1, 0.5))
    truth = (quat_to_matrix(q) @ r_link).T @ uuv_field()
    n = 4000
    samples = np.array([model.measure(0.02 * k, [0, 0, -5.0], q, np.zeros(6), None)
                        .magnetic_field for k in range(n)]) - truth
    # GetGaussianNoise(name, amp) = amp * N(0, sigma): white stddev amp*xy, amp*xy, amp*z
    # (std of n samples: relative standard error 1/sqrt(2n) = 1.1 %; 5 % is 4.5 of them)
    assert np.allclose(samples.std(axis=0), [amp * xy, amp * xy, amp * z], rtol=0.05)
    # the turn-on bias is drawn once: the mean offset of the run, |b| ~ amp*bias
    offset = samples.mean(axis=0)
    assert np.all(np.abs(offset) < 5.0 * amp * bias) and np.any(np.abs(offset) > 0.1)
    assert spec.model.covariance == (xy * xy, xy * xy, z * z)  # uuv's, without amp


GZ_WORLD = """<?xml version="1.0"?>
<sdf version="1.10"><world name="w">{world_extra}
<model name="auv"><link name="body"><inertial><mass>10</mass>
  <inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz></inertia></inertial>
  <sensor name="mag" type="magnetometer"><update_rate>100</update_rate><topic>mag</topic>
    <pose>0.1 0 0.05 0 0.3 1.0</pose>
    <magnetometer>
      <x><noise type="gaussian"><stddev>1e-7</stddev></noise></x>
      <z><noise type="gaussian"><stddev>2e-7</stddev><bias_mean>1e-6</bias_mean></noise></z>
    </magnetometer></sensor>
</link></model></world></sdf>
"""


@pytest.mark.parametrize('world_extra,field', [
    ('<magnetic_field>1e-5 2e-5 -3e-5</magnetic_field>', (1e-5, 2e-5, -3e-5)),
    ('', SDFORMAT_MAGNETIC_FIELD),  # sdformat world.sdf's default
])
def test_gz_magnetometer_takes_the_worlds_field(world_extra, field):
    params = load_vehicle_string(GZ_WORLD.format(world_extra=world_extra), 'w.sdf')
    (spec,) = params.sensors
    assert spec.kind == 'magnetometer' and spec.model.magnetic_field == field
    assert [a.stddev for a in spec.model.noise] == [1e-7, 0.0, 2e-7]
    spec.model.noise = tuple(type(a)() for a in spec.model.noise)  # noise free below
    model = build_sensor(spec, params)
    r_sensor = quat_to_matrix(quat_from_rpy(0.0, 0.3, 1.0))
    for q in ATTITUDES:
        got = model.measure(0.0, [0, 0, -5.0], q, np.zeros(6), None).magnetic_field
        # gz-sensors: worldPose.Rot().RotateVectorReverse(worldField)
        want = (quat_to_matrix(q) @ r_sensor).T @ np.array(field)
        assert np.allclose(got, want, rtol=0, atol=1e-12 * np.linalg.norm(field))


def test_gz_magnetometer_names_what_is_not_modelled():
    coords = ('<spherical_coordinates><latitude_deg>41.5</latitude_deg>'
              '<longitude_deg>-70.7</longitude_deg><elevation>0</elevation>'
              '</spherical_coordinates>')
    params = load_vehicle_string(GZ_WORLD.format(world_extra=coords), 'w.sdf')
    assert any('declination/inclination tables' in w for w in params.warnings)
    # a model file alone: the world (and its field) is not known
    alone = GZ_WORLD.format(world_extra='').replace('<world name="w">', '').replace(
        '</world>', '')
    params = load_vehicle_string(alone, 'm.sdf')
    notes = [r.note for r in params.elements if r.kind == 'sensor']
    assert any('<magnetic_field> is not known' in n for n in notes)


def test_yaml_round_trip():
    from uwv_hydro.description.yaml.export import export_yaml
    params = load_vehicle_string(uuv_robot(ned=True), 'mag.urdf')
    again = load_vehicle_string(export_yaml(params), 'again.yaml').sensors
    (mag,) = [s for s in again if s.kind == 'magnetometer']
    assert np.allclose(mag.model.magnetic_field, uuv_field(), rtol=1e-12)
    assert mag.model.covariance == params.sensors[0].model.covariance
    assert mag.frame_id() == 'mag_link_ned'


MAG_BODY = """
uwv_hydro:
  ros__parameters:
    vehicle:
      name: mag_body
      mass: 50.0
      inertia: {ixx: 2.0, iyy: 5.0, izz: 5.0}
      buoyancy_mass: 50.0
      linear_drag: {xx: 3.0, yy: 30.0, zz: 30.0, rr: 5.0, pp: 5.0, hh: 5.0}
      sensors:
        mag:
          type: magnetometer
          update_rate: 20.0
          topic: imu/mag
          pose: [0.2, 0.0, 0.1, 0.0, 0.0, 0.8]
          magnetometer: {field: [2.0e-5, 0.0, -4.0e-5]}
"""


def test_offline_simulate_bag_has_the_field_of_each_state(tmp_path):
    from test_offline_tools import run_cli
    from test_simulate_outputs import read_bag
    body = tmp_path / 'mag.yaml'
    body.write_text(MAG_BODY)
    run_cli('simulate', body, '--duration', 1, '--thrust', 0, 0, 0, 0, 0, 3,
            '--initial-position', 0, 0, -10, '--out', tmp_path / 'm.mcap')
    bag = read_bag(tmp_path / 'm.mcap')
    kind, stamps, messages = bag['/imu/mag']
    assert kind == 'sensor_msgs/msg/MagneticField'
    assert stamps == [k * 50_000_000 for k in range(21)]
    odom = dict(zip(bag['/odometry'][1], bag['/odometry'][2]))
    r_sensor = quat_to_matrix(quat_from_rpy(0.0, 0.0, 0.8))
    turned = 0.0
    for stamp, msg in zip(stamps, messages):
        o = odom[stamp].pose.pose.orientation
        rot = quat_to_matrix([o.w, o.x, o.y, o.z])
        want = (rot @ r_sensor).T @ [2.0e-5, 0.0, -4.0e-5]
        got = [msg.magnetic_field.x, msg.magnetic_field.y, msg.magnetic_field.z]
        assert np.allclose(got, want, rtol=0, atol=1e-15)
        assert msg.header.frame_id == 'mag'
        turned = max(turned, abs(math.atan2(rot[1, 0], rot[0, 0])))
    assert turned > 0.05  # the yaw torque turned it: the field turns in the sensor frame


def test_lrauv_pattern_magnetometer_added_by_include_params(monkeypatch, tmp_path):
    """tethys_equipped adds its AHRS magnetometer to base_link through experimental:params."""
    import pathlib
    models = pathlib.Path(__file__).resolve().parents[2] / 'corpus' / 'gz_sim' / 'models'
    for name in ('GZ_SIM_RESOURCE_PATH', 'IGN_GAZEBO_RESOURCE_PATH', 'SDF_PATH',
                 'GAZEBO_MODEL_PATH'):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv('GZ_SIM_RESOURCE_PATH', str(models))
    world = tmp_path / 'w.sdf'
    world.write_text(
        '<sdf version="1.9"><world name="w"><include><uri>model://mini_auv</uri>'
        '<experimental:params><sensor element_id="base_link" action="add" '
        'name="ahrs_magnetometer" type="magnetometer"><update_rate>10</update_rate>'
        '<pose degrees="true">0 0 0 180 0 180</pose>'
        '<topic>/tethys/ahrs/magnetometer</topic></sensor></experimental:params>'
        '</include></world></sdf>')
    from uwv_hydro.description.loader import load_vehicle
    params = load_vehicle(str(world))
    (mag,) = [s for s in params.sensors if s.kind == 'magnetometer']
    assert mag.topic == '/tethys/ahrs/magnetometer' and mag.update_rate == 10.0
    assert mag.model.magnetic_field == SDFORMAT_MAGNETIC_FIELD  # the world leaves it out
    model = build_sensor(mag, params)
    flip = quat_to_matrix(quat_from_rpy(math.pi, 0.0, math.pi))
    for q in ATTITUDES:
        got = model.measure(0.0, [0, 0, -5.0], q, np.zeros(6), None).magnetic_field
        want = (quat_to_matrix(q) @ flip).T @ np.array(mag.model.magnetic_field)
        assert np.allclose(got, want, rtol=0, atol=1e-18)
