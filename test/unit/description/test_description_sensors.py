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

"""Sensors in vehicle descriptions: URDF <gazebo> sensors, YAML sensors:, errors."""
import json
import math
import pathlib

import numpy as np
import pytest
from required_modules import require

from uwv_hydro.cli.main import main
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.loader import load_vehicle, load_vehicle_string
from uwv_hydro.description.sensors import default_seed, SENSOR_SCHEMA

REPO = pathlib.Path(__file__).resolve().parents[3]
XACRO = REPO / 'urdf' / 'dsros_vehicle.urdf.xacro'

URDF = """<robot name="r">
  <link name="base_link">
    <inertial><mass value="10"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/>
    </inertial>
  </link>
  <link name="mount"/>
  <joint name="j1" type="fixed"><parent link="base_link"/><child link="mount"/>
    <origin xyz="1 0 0" rpy="0 0 1.5707963267948966"/></joint>
  <link name="imu_link"/>
  <joint name="j2" type="fixed"><parent link="mount"/><child link="imu_link"/>
    <origin xyz="0 0.5 0"/></joint>
  <link name="wheel"/>
  <joint name="j3" type="continuous"><parent link="base_link"/><child link="wheel"/></joint>
  %s
</robot>"""

IMU = """<gazebo reference="%s">
    <sensor name="imu" type="imu">
      <always_on>1</always_on>
      <update_rate>50</update_rate>
      %s
      <imu>
        <angular_velocity>
          <x><noise type="gaussian"><stddev>0.001</stddev><bias_mean>0.01</bias_mean>
             <dynamic_bias_stddev>1e-5</dynamic_bias_stddev>
             <dynamic_bias_correlation_time>300</dynamic_bias_correlation_time></noise></x>
          <z><noise type="gaussian"><stddev>0.003</stddev></noise></z>
        </angular_velocity>
        <linear_acceleration><noise type="gaussian"><stddev>0.02</stddev></noise>
        </linear_acceleration>
        <enable_orientation>false</enable_orientation>
      </imu>
    </sensor>
    <sensor name="cam" type="camera"><anything/></sensor>
  </gazebo>"""


def test_urdf_gazebo_sensor_is_read_with_gz_noise_names():
    """A gz-style <sensor type="imu"> on a fixed-chain link; other sensor types skipped."""
    params = load_vehicle_string(URDF % (IMU % ('imu_link', '<topic>imu/data</topic>')))
    assert [s.name for s in params.sensors] == ['imu']
    imu = params.sensors[0]
    assert (imu.kind, imu.link, imu.update_rate, imu.topic) == ('imu', 'imu_link', 50.0,
                                                                'imu/data')
    x, y, z = imu.model.angular_velocity
    assert (x.stddev, x.bias_mean, x.dynamic_bias_stddev) == (0.001, 0.01, 1e-5)
    assert x.dynamic_bias_correlation_time == 300.0
    assert y.is_zero() and z.stddev == 0.003
    assert [a.stddev for a in imu.model.linear_acceleration] == [0.02] * 3
    assert imu.model.enable_orientation is False
    assert imu.seed == default_seed('imu')
    # The sensor frame is the link's pose through the fixed chain
    t, q = params.frame_transform(imu.link)
    assert np.allclose(t, [1.0, 0.0, 0.0] + np.array([-0.5, 0.0, 0.0]), atol=1e-12)


@pytest.mark.parametrize('reference, extra, match', [
    ('wheel', '', "link 'wheel' is not the base link"),
    ('nowhere', '', "link 'nowhere'"),
    ('imu_link', '<pose>0 0 0</pose>', 'expected 6 finite numbers'),
    ('imu_link', '<pose relative_to="mount">0 0 0 0 0 0</pose>', 'relative to its link'),
    ('imu_link', '<link>mount</link>', '<link> inside a sensor is not supported'),
    ('imu_link', '<rate>3</rate>', "unknown key 'rate' for sensor type imu"),
    ('imu_link', '<seed>-2</seed>', 'non-negative integer'),
])
def test_urdf_sensor_errors_name_the_problem(reference, extra, match):
    """A sensor on a moving link, an unknown key or a bad value is a clear error."""
    with pytest.raises(DescriptionError, match=match) as info:
        load_vehicle_string(URDF % (IMU % (reference, extra)))
    assert 'sensor' in str(info.value)


def test_sensor_pose_in_its_link_gives_a_frame_of_its_own():
    """A <pose> as gz and ds_sim write it (degrees too): the mount composes link and pose."""
    from uwv_hydro.physics.spatial.rotation import quat_from_rpy, quat_multiply, quat_to_matrix
    from uwv_hydro.physics.sensing.sensors import sensor_mount
    text = URDF % (IMU % ('mount', '<pose degrees="true">0.2 0 -0.1 0 180 90</pose>'))
    params = load_vehicle_string(text)
    imu = params.sensors[0]
    assert imu.pose == pytest.approx((0.2, 0.0, -0.1, 0.0, math.pi, math.pi / 2))
    assert (imu.link, imu.frame_id()) == ('mount', 'imu')
    t, q = sensor_mount(imu, params)
    t_l, q_l = params.frame_transform('mount')
    assert np.allclose(t, t_l + quat_to_matrix(q_l) @ [0.2, 0.0, -0.1], atol=1e-12)
    assert np.allclose(quat_to_matrix(q), quat_to_matrix(
        quat_multiply(q_l, quat_from_rpy(0.0, math.pi, math.pi / 2))), atol=1e-12)
    yaml_text = ('mass: 1.0\ninertia: {ixx: 1, iyy: 1, izz: 1}\nsensors:\n'
                 '  d: {type: dvl, update_rate: 5, pose: [0.5, 0, -0.3, 3.14159, 0, 0], '
                 'frame_id: dvl_transducer}\n')
    dvl = load_vehicle_string(yaml_text, 'v.yaml').sensors[0]
    assert (dvl.link, dvl.frame_id(), dvl.pose[0]) == ('base_link', 'dvl_transducer', 0.5)
    assert load_vehicle_string(URDF % (IMU % ('imu_link', ''))).sensors[0].frame_id() == \
        'imu_link'


def test_urdf_sensor_error_points_at_the_element_line():
    """An unknown noise key names the element path and its line."""
    bad = (IMU % ('imu_link', '')).replace('<stddev>0.003</stddev>',
                                           '<sigma>0.003</sigma>')
    with pytest.raises(DescriptionError, match="unknown key 'sigma'") as info:
        load_vehicle_string(URDF % bad)
    assert info.value.line is not None and 'sensor' in info.value.element


def test_xacro_vehicle_has_the_four_sensors_only_when_asked():
    """The default vehicle gains IMU, pressure, DVL and GPS with sensors:=true."""
    assert load_vehicle(str(XACRO)).sensors == []
    params = load_vehicle(str(XACRO), mappings={'sensors': 'true'})
    kinds = {s.name: (s.kind, s.link) for s in params.sensors}
    assert kinds == {'imu': ('imu', 'imu_link'), 'pressure': ('fluid_pressure', 'pressure_link'),
                     'dvl': ('dvl', 'dvl_link'), 'gps': ('navsat', 'gps_link')}
    dvl = next(s for s in params.sensors if s.kind == 'dvl').model
    assert (dvl.seabed_depth, dvl.max_altitude, dvl.min_altitude) == (60.0, 80.0, 0.5)


YAML = """
mass: 10.0
inertia: {ixx: 1.0, iyy: 2.0, izz: 2.5}
sensors:
  depth:
    type: fluid_pressure
    update_rate: 10
    seed: 4
    fluid_pressure: {atmospheric_pressure: 100000.0, pressure: {noise: {stddev: 20.0}}}
  dvl:
    type: dvl
    update_rate: 5
    topic: dvl/twist
    dvl:
      seabed_depth: 40.0
      max_altitude: .inf
      velocity: {x: {noise: {stddev: 0.01}}}
  gps:
    type: navsat
    update_rate: 1
    navsat:
      latitude_deg: -33.9
      longitude_deg: 151.2
      position_sensing: {horizontal: {noise: {stddev: 2.0}}}
"""


def test_yaml_sensors_read_the_same_fields():
    """YAML: name -> sensor; link defaults to the base frame, topic to the name."""
    params = load_vehicle_string(YAML, 'v.yaml')
    by_name = {s.name: s for s in params.sensors}
    depth = by_name['depth']
    assert (depth.link, depth.topic, depth.seed) == ('base_link', 'depth', 4)
    assert depth.model.atmospheric_pressure == 100000.0
    assert depth.model.pressure.stddev == 20.0
    dvl = by_name['dvl'].model
    assert dvl.max_altitude == math.inf and dvl.seabed_depth == 40.0
    assert [a.stddev for a in dvl.velocity] == [0.01, 0.0, 0.0]
    gps = by_name['gps'].model
    assert (gps.latitude_deg, gps.longitude_deg, gps.horizontal.stddev) == (-33.9, 151.2, 2.0)


def test_yaml_over_urdf_replaces_sensors_by_name(tmp_path):
    """A YAML overlay keeps the base's sensors and replaces same-named ones."""
    base = load_vehicle(str(XACRO), mappings={'sensors': 'true'})
    overlay = ('sensors:\n  dvl: {type: dvl, link: dvl_link, update_rate: 2}\n'
               '  imu2: {type: imu, link: imu_link, update_rate: 400}\n')
    params = load_vehicle_string(overlay, 'o.yaml', base=base)
    rates = {s.name: s.update_rate for s in params.sensors}
    assert rates == {'imu': 100.0, 'pressure': 10.0, 'gps': 1.0, 'dvl': 2.0, 'imu2': 400.0}


@pytest.mark.parametrize('sensor, match', [
    ('{type: sonar, update_rate: 1}', "unknown sensor type 'sonar'"),
    ('{type: imu}', "missing 'update_rate'"),
    ('{type: imu, update_rate: 0}', 'must be positive'),
    ('{type: imu, update_rate: "10"}', 'expected a number'),
    ('{type: imu, update_rate: 1.0e-300}', 'must be within'),
    ('{type: imu, update_rate: 10, imu: [1, 2]}', 'expected a mapping'),
    ('{type: imu, update_rate: 10, seed: 1.5}', 'non-negative integer'),
    ('{type: imu, update_rate: 10, link: mast}', "link 'mast' is not the base link"),
    ('{type: imu, update_rate: 10, imu: {angular_velocity: {noise: {stddev: -1}}}}',
     'must be >= 0'),
    ('{type: imu, update_rate: 10, imu: {angular_velocity: {noise: {}, x: {}}}}',
     'not both'),
    ('{type: dvl, update_rate: 10, dvl: {max_altitude: 30}}', 'needs seabed_depth'),
    ('{type: dvl, update_rate: 10, dvl: {seabed_depth: 9, min_altitude: 5, '
     'max_altitude: 2}}', 'above max_altitude'),
    ('{type: navsat, update_rate: 1, navsat: {latitude_deg: 91}}', 'within \\[-90, 90\\]'),
    ('{type: imu, update_rate: 10, imu: {gyro: {}}}', "unknown key 'gyro'"),
    ('{type: imu, update_rate: 10, imu: {angular_velocity: {noise: {type: uniform}}}}',
     "expected 'gaussian' or 'none'"),
    ('{type: imu, update_rate: 10, imu: {angular_velocity: {noise: {'
     'dynamic_bias_correlation_time: 0}}}}', 'must be positive'),
])
def test_yaml_sensor_errors_name_the_key(sensor, match):
    """Each bad sensor entry is rejected with the key path in the message."""
    text = 'mass: 1.0\ninertia: {ixx: 1, iyy: 1, izz: 1}\nsensors:\n  s1: %s\n' % sensor
    with pytest.raises(DescriptionError, match=match) as info:
        load_vehicle_string(text, 'v.yaml')
    assert 'sensors.s1' in str(info.value)


def test_two_sensors_on_one_topic_are_an_error():
    """Each sensor needs its own topic (a second publisher could even have another type)."""
    text = ('mass: 1.0\ninertia: {ixx: 1, iyy: 1, izz: 1}\nsensors:\n'
            '  a: {type: imu, update_rate: 10, topic: nav}\n'
            '  b: {type: dvl, update_rate: 10, topic: nav}\n')
    with pytest.raises(DescriptionError, match="sensors 'a' and 'b' publish on the same "
                                               "topic 'nav'"):
        load_vehicle_string(text, 'v.yaml')


def test_schema_lists_every_key_each_type_accepts():
    """The schema the unknown-key checks use covers the common keys and the type block."""
    for kind, schema in SENSOR_SCHEMA.items():
        assert {'type', 'update_rate', 'link', 'topic', 'seed', kind} <= set(schema)
    assert 'dynamic_bias_stddev' in SENSOR_SCHEMA['imu']['imu']['angular_velocity']['noise']


def test_check_prints_the_sensors_it_found(capsys):
    """`uwv-hydro check` lists each sensor (text) and gives its fields (--json)."""
    assert main(['check', str(XACRO), '--set', 'sensors:=true']) == 0
    out = capsys.readouterr().out
    assert 'sensors:\n  - imu (imu) in imu_link at 100 Hz -> imu/data; gyro sigma' in out
    assert '  - dvl (dvl) in dvl_link at 5 Hz -> dvl/twist; seabed 60 m, lock at altitude ' \
        '0.5..80 m' in out
    assert main(['check', str(XACRO), '--set', 'sensors:=true', '--json']) == 0
    data = json.loads(capsys.readouterr().out)
    gps = next(s for s in data['sensors'] if s['name'] == 'gps')
    assert gps['type'] == 'navsat' and gps['link'] == 'gps_link'
    assert gps['model']['latitude_deg'] == 41.524
    assert main(['check', str(XACRO)]) == 0
    assert 'sensors:        (none)' in capsys.readouterr().out


def test_bluerov2_rig_sensors_load_with_poses():
    """config/bluerov2.yaml: thrusters and the four rig sensors, mounted by poses."""
    params = load_vehicle(str(REPO / 'config' / 'bluerov2.yaml'))
    assert params.name == 'bluerov2' and params.buoyancy_mass > 0.0 and params.thrusters
    assert {s.name: (s.kind, s.frame_id()) for s in params.sensors} == {
        'imu': ('imu', 'imu'), 'pressure': ('fluid_pressure', 'pressure'),
        'dvl': ('dvl', 'dvl'), 'gps': ('navsat', 'gps')}
    assert all(s.link == 'base_link' and s.pose is not None for s in params.sensors)


@pytest.mark.parametrize('with_base', [True, False])
def test_yaml_export_round_trip_keeps_every_sensor(tmp_path, with_base):
    """Export then load gives the same sensors; without the URDF, mounts become poses."""
    require('rclpy')
    from uwv_hydro.description.yaml.export import write_yaml
    from uwv_hydro.physics.sensing.sensors import sensor_mount
    params = load_vehicle(str(XACRO), mappings={'sensors': 'true'})
    imu = params.sensors[0]
    imu.model.angular_velocity[2].dynamic_bias_correlation_time = 120.0
    imu.model.linear_acceleration[0].bias_mean = 0.03
    out = tmp_path / 'exported.yaml'
    write_yaml(params, out, base=str(XACRO) if with_base else None)
    from test_description_examples import _rcl_accepts
    assert _rcl_accepts(str(out))
    back = load_vehicle(str(out), mappings={'sensors': 'true'})
    assert [s.name for s in back.sensors] == [s.name for s in params.sensors]
    for old, new in zip(params.sensors, back.sensors):
        assert (new.kind, new.update_rate, new.topic, new.seed, new.model) == (
            old.kind, old.update_rate, old.topic, old.seed, old.model)
        assert new.frame_id() == old.frame_id()
        t0, q0 = sensor_mount(old, params)
        t1, q1 = sensor_mount(new, back)
        assert np.max(np.abs(t1 - t0)) < 1e-12
        assert min(np.max(np.abs(q1 - q0)), np.max(np.abs(q1 + q0))) < 1e-12
        assert (new.link == old.link) if with_base else (new.link == 'base_link')
