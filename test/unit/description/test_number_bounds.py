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
The numbers of signed quadratic terms, magnetometers and RPT are bounded (issue 40).

Each number beyond its bound (uwv_hydro/description/overflow_bounds.py) is refused at load
naming its key or element and the line it is on, in every route it can come by (uuv
plugin, gz-sim SDF, YAML); the same number just inside the bound loads.
"""
import pytest

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.loader import load_vehicle_string
from uwv_hydro.description.overflow_bounds import (
    MAX_ANGLE, MAX_MAGNETIC_FIELD, MAX_REFERENCE_METRES, MAX_SENSOR_NOISE,
    MAX_SIGNED_QUADRATIC, MAX_STEPS, too_many_steps)

URDF = """<?xml version="1.0"?>
<robot name="v">
  <link name="base_link"><inertial><mass value="100"/>
    <inertia ixx="10" ixy="0" ixz="0" iyy="10" iyz="0" izz="10"/></inertial></link>
  <gazebo><plugin filename="libuuv_gazebo_ros_%s_plugin.so" name="p">
    <robot_namespace>v</robot_namespace><link_name>base_link</link_name>
    <sensor_topic>s</sensor_topic><update_rate>10</update_rate>
    %s
  </plugin></gazebo>
</robot>
"""

SDF = """<?xml version="1.0"?>
<sdf version="1.10"><world name="w">%s
<model name="auv"><link name="body"><inertial><mass>10</mass>
  <inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz></inertia></inertial>
  <sensor name="mag" type="magnetometer"><update_rate>100</update_rate>
    <magnetometer><x><noise type="gaussian"><stddev>%s</stddev></noise></x></magnetometer>
  </sensor></link>
  <plugin filename="gz-sim-hydrodynamics-system" name="gz::sim::systems::Hydrodynamics">
    <link_name>body</link_name><xU>-5</xU><xUabsU>-10</xUabsU>
    <xUU>%s</xUU></plugin>
</model></world></sdf>
"""

YAML = """vehicle:
  mass: 50.0
  inertia: {ixx: 2.0, iyy: 5.0, izz: 5.0}
  buoyancy_mass: 50.0
  linear_drag: {xx: 3.0, yy: 30.0, zz: 30.0, rr: 5.0, pp: 5.0, hh: 5.0}
  signed_quadratic_drag: {xxx: %s}
  sensors:
    mag:
      type: magnetometer
      update_rate: 20.0
      magnetometer: {field: [%s, 0.0, 0.0], x: {noise: {stddev: %s}}, covariance: [%s, 0, 0]}
    usbl:
      type: rpt
      update_rate: 5.0
      rpt: {reference_position: [%s, 0.0, 0.0], reference_rpy: [0.0, %s, 0.0]}
"""


def _line(text, marker):
    return text[:text.index(marker)].count('\n') + 1


def _refused(text, name, marker, where):
    with pytest.raises(DescriptionError) as err:
        load_vehicle_string(text, name)
    assert err.value.line == _line(text, marker)
    assert where in err.value.element
    assert 'beyond' in str(err.value) and 'overflow' in str(err.value)


UUV_CASES = [  # (plugin, element, bound)
    ('magnetometer', 'intensity', MAX_MAGNETIC_FIELD),
    ('magnetometer', 'inclination', MAX_ANGLE),
    ('magnetometer', 'declination', MAX_ANGLE),
    ('magnetometer', 'reference_heading', MAX_ANGLE),
    ('magnetometer', 'noise_xy', MAX_SENSOR_NOISE),
    ('magnetometer', 'noise_z', MAX_SENSOR_NOISE),
    ('magnetometer', 'turn_on_bias', MAX_SENSOR_NOISE),
    ('magnetometer', 'noise_amplitude', MAX_SENSOR_NOISE),
    ('rpt', 'noise_sigma', MAX_SENSOR_NOISE),
    ('rpt', 'noise_amplitude', MAX_SENSOR_NOISE),
]


@pytest.mark.parametrize('plugin,tag,bound', UUV_CASES)
def test_uuv_plugin_numbers(plugin, tag, bound):
    element = '<%s>%r</%s>'
    load_vehicle_string(URDF % (plugin, element % (tag, bound, tag)), 'v.urdf')
    text = URDF % (plugin, element % (tag, 1.5 * bound, tag))
    _refused(text, 'v.urdf', '<%s>' % tag, tag)


def test_gz_world_field_sensor_noise_and_signed_quadratic():
    ok = ('<magnetic_field>%r 0 0</magnetic_field>' % MAX_MAGNETIC_FIELD, MAX_SENSOR_NOISE,
          -MAX_SIGNED_QUADRATIC)
    load_vehicle_string(SDF % ok, 'w.sdf')
    for i, (marker, where) in enumerate((('<magnetic_field>', 'magnetic_field'),
                                         ('<stddev>', 'stddev'), ('<xUU>', 'xUU'))):
        bad = list(ok)
        bad[i] = ('<magnetic_field>%r 0 0</magnetic_field>' % (2 * MAX_MAGNETIC_FIELD)
                  if i == 0 else 2 * bad[i])
        _refused(SDF % tuple(bad), 'w.sdf', marker, where)


#: (key path in the error, place in YAML's argument tuple, bound, marker in the text)
YAML_CASES = [
    ('signed_quadratic_drag.xxx', 0, MAX_SIGNED_QUADRATIC, 'xxx:'),
    ('magnetometer.field', 1, MAX_MAGNETIC_FIELD, 'magnetometer:'),
    ('stddev', 2, MAX_SENSOR_NOISE, 'magnetometer:'),
    ('magnetometer.covariance', 3, MAX_SENSOR_NOISE ** 2, 'magnetometer:'),
    ('rpt.reference_position', 4, MAX_REFERENCE_METRES, 'rpt:'),
    ('rpt.reference_rpy', 5, MAX_ANGLE, 'rpt:'),
]


@pytest.mark.parametrize('where,place,bound,marker', YAML_CASES)
def test_yaml_numbers(where, place, bound, marker):
    ok = [repr(float(b)) for _, _, b, _ in YAML_CASES]
    load_vehicle_string(YAML % tuple(ok), 'v.yaml')
    bad = list(ok)
    bad[place] = repr(2.0 * bound)
    _refused(YAML % tuple(bad), 'v.yaml', marker, where)


def test_the_one_step_check_passes_max_steps_and_refuses_one_more():
    """too_many_steps (the CLI's, the manoeuvres', the hold's, the sweep's) at its bound."""
    assert too_many_steps(MAX_STEPS * 0.5, 0.5) is None
    assert too_many_steps(0.0, 0.01) is None
    why = too_many_steps((MAX_STEPS + 1) * 0.5, 0.5, 'scenario.duration', 'scenario.dt')
    assert why is not None and why.startswith('scenario.duration ')
    assert 'at scenario.dt 0.5' in why and 'lengthen scenario.dt' in why
    assert too_many_steps(float('nan'), 0.5) is not None
