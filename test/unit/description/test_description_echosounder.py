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
The echosounder in descriptions: YAML, its errors, ``check``, and the peers' range finders.

The peers' sonar altimeter is a Gazebo ``ray`` sensor with gazebo_ros_range, as
uuv_simulator's ``dvl_single_sonar`` (uuv_sensor_ros_plugins/urdf/dvl_snippets.xacro)
and DAVE's ``teledyne_whn_uuvsim`` write it; :data:`UUV_BEAM` is that element with
uuv's values.
"""
import math

import numpy as np
import pytest

from uwv_hydro.cli.main import main
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.loader import load_vehicle_string
from uwv_hydro.description.sensor_export import sensor_tree
from uwv_hydro.description.sensors import _Ctx, sensor_from_mapping
from uwv_hydro.physics.sensing.sensors import sensor_mount
from uwv_hydro.physics.spatial.rotation import quat_to_matrix

HEAD = 'mass: 1.0\ninertia: {ixx: 1, iyy: 1, izz: 1}\nsensors:\n  alt: %s\n'
SOUNDER = ('{type: echosounder, update_rate: 5, topic: altimeter, '
           'pose: [0, 0, -0.1, 0, 1.5707963267948966, 0], '
           'echosounder: {min_range: 0.3, max_range: 120, field_of_view: 0.2, '
           'range: {noise: {stddev: 0.02}}, seabed_depth: 40, surface_echo: false}}')


def test_yaml_echosounder_and_its_check_line(tmp_path, capsys):
    params = load_vehicle_string(HEAD % SOUNDER, 'v.yaml')
    (s,) = params.sensors
    m = s.model
    assert (s.kind, s.update_rate, s.topic, s.frame_id()) == ('echosounder', 5.0,
                                                              'altimeter', 'alt')
    assert (m.min_range, m.max_range, m.field_of_view, m.noise.stddev, m.seabed_depth,
            m.surface_echo) == (0.3, 120.0, 0.2, 0.02, 40.0, False)
    path = tmp_path / 'v.yaml'
    path.write_text(HEAD % SOUNDER)
    assert main(['check', str(path)]) == 0
    assert ('  - alt (echosounder) in alt (pose 0 0 -0.1 0 1.5708 0 in base_link) at 5 Hz '
            '-> altimeter; range 0.3..120 m along +x, cone 11.46 deg, sigma 0.02 m, seabed '
            '40 m (unless the world has one)\n') in capsys.readouterr().out
    # the YAML export's tree reads back to the same sensor
    back = sensor_from_mapping('alt', sensor_tree(s), _Ctx('t', 'sensors.'), 'base_link')
    assert (back.kind, back.model, back.pose) == (s.kind, s.model, s.pose)


def test_defaults():
    params = load_vehicle_string(HEAD % '{type: echosounder, update_rate: 1}', 'v.yaml')
    m = params.sensors[0].model
    assert (m.min_range, m.max_range, m.field_of_view, m.seabed_depth, m.surface_echo) == (
        0.0, 100.0, 0.0, None, True)


@pytest.mark.parametrize('block, key, match', [
    ('{min_range: 5, max_range: 5}', 'min_range', 'min_range 5 must be below max_range 5'),
    ('{max_range: 0}', 'max_range', 'must be positive, got 0'),
    ('{max_range: .inf}', 'max_range', 'expected a finite number, got inf'),
    ('{min_range: -1}', 'min_range', 'must be >= 0, got -1'),
    ('{max_range: 1.0e+9}', 'max_range', 'max_range 1e\\+09 is beyond 22000'),
    ('{field_of_view: 3.2}', 'field_of_view', 'field_of_view 3.2 rad'),
    ('{field_of_view: "wide"}', 'field_of_view', "expected a number, got 'wide'"),
    ('{surface_echo: 1}', 'surface_echo', 'expected true or false, got 1'),
    ('{seabed_depth: 0}', 'seabed_depth', 'must be positive, got 0'),
    ('{range: {noise: {stddev: -0.1}}}', 'range.noise.stddev', 'must be >= 0, got -0.1'),
    ('{beam_width: 0.1}', 'beam_width', "unknown key 'beam_width'"),
])
def test_yaml_errors_name_the_key_and_the_value(block, key, match):
    text = HEAD % ('{type: echosounder, update_rate: 5, echosounder: %s}' % block)
    with pytest.raises(DescriptionError, match=match) as info:
        load_vehicle_string(text, 'v.yaml')
    assert 'sensors.alt.echosounder.' + key in str(info.value)


URDF = """<robot name="m">
  <link name="base_link"><inertial><mass value="10"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <link name="sonar_link"/>
  <joint name="sj" type="fixed"><parent link="base_link"/><child link="sonar_link"/>
    <origin xyz="0 0 -0.2" rpy="0 1.5707963267948966 0"/></joint>
  <gazebo reference="sonar_link">%s</gazebo>
</robot>"""
#: uuv_simulator's dvl_single_sonar beam (dvl_snippets.xacro), its values
UUV_BEAM = """
    <sensor type="ray" name="dvl_sonar0">
      <pose>0 0 0 0 0 0</pose>
      <update_rate>%s</update_rate>
      <visualize>false</visualize>
      <ray>
        <scan>
          <horizontal><samples>3</samples><resolution>1</resolution>
            <min_angle>%s</min_angle><max_angle>%s</max_angle></horizontal>
          <vertical><samples>3</samples><resolution>1</resolution>
            <min_angle>-0.03</min_angle><max_angle>0.03</max_angle></vertical>
        </scan>
        <range><min>0.55</min><max>81</max><resolution>0.01</resolution></range>
      </ray>
      <plugin filename="libgazebo_ros_range.so" name="dvl_sonar0">
        <gaussianNoise>0.005</gaussianNoise>
        <alwaysOn>true</alwaysOn>
        <updateRate>7</updateRate>
        <topicName>dvl_sonar0</topicName>
        <frameName>dvl_sonar0_link</frameName>
        <fov>0.06</fov>
        <radiation>ultrasound</radiation>
      </plugin>
    </sensor>"""


def test_uuv_sonar_beam_is_an_echosounder_with_the_differences_warned():
    params = load_vehicle_string(URDF % (UUV_BEAM % (20, -0.03, 0.03)), 'm.urdf')
    (s,) = params.sensors
    m = s.model
    assert (s.kind, s.topic, s.link) == ('echosounder', 'dvl_sonar0', 'sonar_link')
    assert s.update_rate == 7.0  # gazebo_ros_range throttles the 20 Hz ray to its 7 Hz
    assert (m.min_range, m.max_range, m.noise.stddev) == (0.55, 81.0, 0.005)
    assert m.seabed_depth is None
    assert m.field_of_view == pytest.approx(0.06, abs=1e-15)
    warned = [w for w in params.warnings if w.startswith('sensor dvl_sonar0 (Gazebo ray')]
    assert any('gazebo_ros_range publishes max_range for no echo' in w
               and 'gazebo_ros_range.cpp' in w for w in warned)
    assert any('sees only the sea surface' in w for w in warned)
    record = {r.name: r for r in params.elements}
    assert record['dvl_sonar0'].status == 'warned'
    assert record['libgazebo_ros_range.so'].status == 'read'


def test_an_off_centre_scan_turns_the_boresight_onto_its_centre():
    """Gazebo's ray at angles (h, v): Rz(h) Ry(-v) x; the cone's axis is the scan centre."""
    params = load_vehicle_string(URDF % (UUV_BEAM % (7, 0.17, 0.23)), 'm.urdf')
    (s,) = params.sensors
    _, q = sensor_mount(s, params)
    h, v = 0.2, 0.0  # the horizontal scan is centred at 0.2 rad
    # the link: pitch +pi/2 (its x down); the scan's centre in the link frame
    centre_link = np.array([math.cos(v) * math.cos(h), math.cos(v) * math.sin(h),
                            math.sin(v)])
    c, sn = 0.0, 1.0  # Ry(pi/2)
    expected = np.array([[c, 0, sn], [0, 1, 0], [-sn, 0, c]]) @ centre_link
    assert np.max(np.abs(quat_to_matrix(q)[:, 0] - expected)) < 1e-12
    assert s.model.field_of_view == pytest.approx(0.06, abs=1e-12)  # the larger extent


def test_ros2_ray_sensor_with_a_range_output():
    sensor = """
    <sensor type="gpu_ray" name="alt">
      <update_rate>10</update_rate>
      <ray><scan><horizontal><samples>1</samples><min_angle>0</min_angle>
        <max_angle>0</max_angle></horizontal></scan>
        <range><min>0.1</min><max>30</max></range>
        <noise><type>gaussian</type><mean>0</mean><stddev>0.03</stddev></noise></ray>
      <plugin name="sonar" filename="libgazebo_ros_ray_sensor.so">
        <ros><namespace>/rov</namespace><remapping>~/out:=altitude</remapping></ros>
        <output_type>sensor_msgs/Range</output_type>
        <radiation_type>infrared</radiation_type>
        <frame_name>sonar_link</frame_name>
      </plugin>
    </sensor>"""
    params = load_vehicle_string(URDF % sensor, 'm.urdf')
    (s,) = params.sensors
    assert (s.kind, s.topic, s.update_rate) == ('echosounder', '/rov/altitude', 10.0)
    assert (s.model.min_range, s.model.max_range, s.model.field_of_view) == (0.1, 30.0, 0.0)
    assert s.model.noise.stddev == 0.03
    assert any('radiation infrared published as ULTRASOUND' in w for w in params.warnings)


def test_other_ray_sensors_and_gz_altimeters_stay_not_modelled():
    """A ray sensor publishing LaserScan, or gz's altimeter (a height, not a range)."""
    sensors = """
    <sensor type="ray" name="scan"><update_rate>5</update_rate>
      <plugin name="l" filename="libgazebo_ros_laser.so"/></sensor>
    <sensor type="altimeter" name="alt"><update_rate>5</update_rate></sensor>
    <sensor type="gpu_ray" name="r2"><update_rate>5</update_rate>
      <plugin name="l" filename="libgazebo_ros_ray_sensor.so">
        <output_type>sensor_msgs/LaserScan</output_type></plugin></sensor>"""
    params = load_vehicle_string(URDF % sensors, 'm.urdf')
    assert params.sensors == []
    record = {r.name: r for r in params.elements if r.kind == 'sensor'}
    assert all(record[n].status == 'warned' and 'not modelled' in record[n].note
               for n in ('scan', 'alt', 'r2'))
    assert 'altitude above a reference' in record['alt'].note


def test_a_bad_ray_element_is_an_error_naming_it():
    bad = UUV_BEAM.replace('<range><min>0.55</min>', '<range><min>near</min>') % (7, -1, 1)
    with pytest.raises(DescriptionError, match="expected a number, got 'near'") as info:
        load_vehicle_string(URDF % bad, 'm.urdf')
    assert 'range' in str(info.value)
    bad = UUV_BEAM.replace('<range>', '<sweep/><range>') % (7, -1, 1)
    with pytest.raises(DescriptionError, match="unknown ray element 'sweep'"):
        load_vehicle_string(URDF % bad, 'm.urdf')
