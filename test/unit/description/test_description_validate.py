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

"""Validation errors and warnings of VehicleParams."""

import numpy as np
import pytest

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.validate import validate
from uwv_hydro.physics.body.vehicle_params import VehicleParams


def vehicle(**kwargs):
    values = {'mass': 10.0, 'inertia': np.diag([1.0, 2.0, 2.5]), 'buoyancy_mass': 10.0,
              'cob': np.array([0.0, 0.0, 0.05]), 'source': 'v.yaml',
              'linear_drag': np.diag([5.0] * 6), 'added_mass': np.diag([1.0] * 6)}
    values.update(kwargs)
    return VehicleParams(**values)


def test_valid_vehicle_has_no_warnings():
    assert validate(vehicle()).warnings == []


def test_no_hydrodynamics_is_named():
    """A description without drag or added mass is valid, and says what it lacks."""
    bare = validate(vehicle(linear_drag=np.zeros((6, 6)), added_mass=np.zeros((6, 6)),
                            buoyancy_mass=0.0))
    assert [w.split(':')[0] for w in bare.warnings] == ['no buoyancy', 'no drag',
                                                        'no added mass']
    quadratic = np.zeros((6, 6, 6))
    quadratic[0, 0, 0] = 3.0
    assert not [w for w in validate(vehicle(
        linear_drag=np.zeros((6, 6)), quadratic_drag=quadratic)).warnings if 'drag' in w]


@pytest.mark.parametrize('mass', [0.0, -1.0])
def test_non_positive_mass(mass):
    with pytest.raises(DescriptionError, match='mass must be positive') as info:
        validate(vehicle(mass=mass))
    assert info.value.source == 'v.yaml' and info.value.element == 'mass'


URDF_MASS = """<robot name="r">
  <link name="base_link">
    <inertial>
      <mass value="%s"/>
      <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/>
    </inertial>
  </link>
  <link name="arm"><inertial><mass value="%s"/>
    <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j" type="fixed"><parent link="base_link"/><child link="arm"/></joint>
</robot>
"""
SDF_MASS = """<sdf version="1.9">
<model name="m">
<link name="base_link">
<inertial>
<mass>%s</mass>
<inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz></inertia>
</inertial>
</link>
<link name="arm"><inertial><mass>%s</mass>
<inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz></inertia></inertial></link>
<joint name="j" type="fixed"><parent>base_link</parent><child>arm</child></joint>
</model>
</sdf>
"""
YAML_MASS = """vehicle:
  inertia: {ixx: 1.0, iyy: 1.0, izz: 1.0}
  mass: %s
"""


@pytest.mark.parametrize('text,name,masses,line,element', [
    (URDF_MASS, 'v.urdf', ('-11.5', '1'), 4,
     "robot[@name='r']/link[@name='base_link']/inertial/mass"),
    (URDF_MASS, 'v.urdf', ('1', '-11.5'), 8, "robot[@name='r']/link[@name='arm']/inertial/mass"),
    (SDF_MASS, 'v.sdf', ('-11.5', '1'), 5,
     "sdf/model[@name='m']/link[@name='base_link']/inertial/mass"),
    (SDF_MASS, 'v.sdf', ('1', '-11.5'), 9, "sdf/model[@name='m']/link[@name='arm']/inertial/mass"),
    (YAML_MASS, 'v.yaml', ('-11.5',), 3, 'vehicle.mass'),
])
def test_a_non_positive_mass_names_its_file_line_and_element(text, name, masses, line,
                                                             element):
    """The <mass> (or mass: key) that makes the total non-positive: file, line, element."""
    from uwv_hydro.description.loader import load_vehicle_string
    with pytest.raises(DescriptionError, match='mass must be positive') as info:
        load_vehicle_string(text % masses, name)
    assert (info.value.source, info.value.line, info.value.element) == (name, line, element)
    assert str(info.value).startswith('%s:%d: %s: mass must be positive, got' % (
        name, line, element))


def test_triangle_inequality_names_the_inequality():
    with pytest.raises(DescriptionError, match=r'Ixx \+ Iyy >= Izz'):
        validate(vehicle(inertia=np.diag([1.0, 1.0, 3.0])))
    with pytest.raises(DescriptionError, match=r'Iyy \+ Izz >= Ixx'):
        validate(vehicle(inertia=np.diag([5.0, 1.0, 1.0])))


def test_principal_triangle_inequality_for_rotated_inertia():
    # principal moments (1, 1, 2.5) violate I1 + I2 >= I3 although the rotated
    # diagonal alone would not show it
    c, s = np.cos(0.7), np.sin(0.7)
    rot = np.array([[1, 0, 0], [0, c, -s], [0, s, c]])
    inertia = rot @ np.diag([1.0, 1.0, 2.5]) @ rot.T
    with pytest.raises(DescriptionError, match='triangle inequality'):
        validate(vehicle(inertia=inertia))


def test_inertia_not_positive_definite():
    with pytest.raises(DescriptionError, match='not positive definite'):
        validate(vehicle(inertia=np.array([[1.0, 1.0, 0], [1.0, 1.0, 0], [0, 0, 1.5]])))


def test_mass_matrix_with_added_mass_not_positive_definite():
    added = np.zeros((6, 6))
    added[0, 0] = -11.0  # makes the surge mass negative
    with pytest.raises(DescriptionError, match='M_RB \\+ M_A is not positive definite'):
        validate(vehicle(added_mass=added, allow_nonphysical=True))


def test_added_mass_check_uses_origin_and_symmetric_part():
    # an antisymmetric coupling does not change the symmetric check (loaded with the
    # flag: the asymmetry itself is a physical-check failure)
    added = np.zeros((6, 6))
    added[0, 5], added[5, 0] = 100.0, -100.0
    params = validate(vehicle(added_mass=added, allow_nonphysical=True))
    assert any('added mass is not symmetric' in w for w in params.warnings)
    # a large offset CoM is fine: M_RB about the origin stays positive definite
    validate(vehicle(com=np.array([3.0, -2.0, 1.0]), cob=np.array([3.0, -2.0, 1.5])))


def test_non_finite_numbers():
    with pytest.raises(DescriptionError, match='non-finite number in linear_drag'):
        drag = np.zeros((6, 6))
        drag[1, 2] = np.nan
        validate(vehicle(linear_drag=drag))
    with pytest.raises(DescriptionError, match='non-finite number in com'):
        validate(vehicle(com=np.array([0.0, np.inf, 0.0])))


def test_warnings_buoyancy_mismatch_and_cob_below_com():
    params = validate(vehicle(buoyancy_mass=13.0, cob=np.array([0.0, 0.0, -0.1])))
    assert any('differs from weight' in w for w in params.warnings)
    assert any('below the centre of mass' in w for w in params.warnings)
    assert validate(vehicle(buoyancy_mass=11.9)).warnings == []
