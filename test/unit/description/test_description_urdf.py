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

"""URDF, xacro and dsros_hydro block loading."""

import pathlib

import numpy as np
import pytest

from uwv_hydro.description.conventions import quat_to_matrix, rpy_to_matrix
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.loader import load_vehicle, load_vehicle_string

INERTIAL = """<inertial>
      <origin xyz="0.1 0.0 -0.2" rpy="{rpy}"/>
      <mass value="100.0"/>
      <inertia ixx="10" ixy="0" ixz="0" iyy="20" iyz="0" izz="25"/>
    </inertial>"""


def robot(body='', plugin='', rpy='0 0 0', extra_links=''):
    return """<robot name="testbot">
  <link name="base_link">
    %s
  </link>
  %s
  <gazebo>
    %s
  </gazebo>
</robot>""" % (INERTIAL.format(rpy=rpy) + body, extra_links, plugin)


def dsros(drag='', buoyancy='<buoyancy><center x="0.1" y="0" z="0.1"/><mass>100</mass>'
          '<buoyancy>101</buoyancy><fully_submerged_depth>0.2</fully_submerged_depth>'
          '</buoyancy>', extra=''):
    return ('<plugin name="dsros_hydro" filename="libdsros_hydro.so">'
            '<base_link>base_link</base_link>%s<drag>%s</drag>%s</plugin>'
            % (buoyancy, drag, extra))


def test_inertial_origin_rpy_rotates_inertia_into_link_frame():
    rpy = [0.3, -0.2, 0.9]
    params = load_vehicle_string(robot(rpy=' '.join(map(str, rpy)), plugin=dsros()),
                                 'x.urdf')
    rot = rpy_to_matrix(rpy)
    expected = rot @ np.diag([10.0, 20.0, 25.0]) @ rot.T
    assert np.allclose(params.inertia, expected)
    assert np.allclose(params.com, [0.1, 0.0, -0.2])
    # rpy of pure yaw 90 deg swaps Ixx and Iyy
    params = load_vehicle_string(robot(rpy='0 0 1.5707963267948966', plugin=dsros()))
    assert np.allclose(np.diag(params.inertia), [20.0, 10.0, 25.0])


def test_rpy_matrix_is_fixed_axis_xyz():
    roll, pitch, yaw = 0.1, 0.2, 0.3

    def rx(a):
        return np.array([[1, 0, 0], [0, np.cos(a), -np.sin(a)], [0, np.sin(a), np.cos(a)]])

    def ry(a):
        return np.array([[np.cos(a), 0, np.sin(a)], [0, 1, 0], [-np.sin(a), 0, np.cos(a)]])

    def rz(a):
        return np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]])

    assert np.allclose(rpy_to_matrix([roll, pitch, yaw]), rz(yaw) @ ry(pitch) @ rx(roll))


def test_dsros_block_letters_and_semantics():
    drag = ('<center x="0.0" y="0.0" z="0.3"/>'
            '<linear><xx>1</xx><rr>2</rr><hh>3</hh><xh>1.5</xh></linear>'
            '<quadratic><xxx>5</xxx><rpp>6</rpp><hyx>7</hyx></quadratic>'
            '<added_mass><pp>8</pp><zz>9</zz></added_mass>')
    params = load_vehicle_string(robot(plugin=dsros(drag, extra='<acceleration_alpha>0.5'
                                                                '</acceleration_alpha>')))
    assert params.linear_drag[0, 0] == 1 and params.linear_drag[3, 3] == 2
    assert params.linear_drag[5, 5] == 3 and params.linear_drag[0, 5] == 1.5
    assert params.quadratic_drag[0, 0, 0] == 5 and params.quadratic_drag[3, 4, 4] == 6
    assert params.quadratic_drag[5, 1, 0] == 7
    assert params.added_mass[4, 4] == 8 and params.added_mass[2, 2] == 9
    assert np.count_nonzero(params.linear_drag) == 4
    assert params.semantics == 'dsros'
    assert np.allclose(params.drag_center, [0, 0, 0.3])
    assert np.allclose(params.drag_velocity_point, params.com)
    assert np.allclose(params.added_mass_point, params.com)
    assert params.acceleration_alpha == 0.5
    assert params.buoyancy_mass == 101.0
    assert np.allclose(params.cob, [0.1, 0.0, 0.1])
    assert params.surface.fully_submerged_depth == 0.2
    assert params.warnings == []


def test_dsros_drag_center_defaults_to_com():
    params = load_vehicle_string(robot(plugin=dsros('<linear><xx>1</xx></linear>')))
    assert params.drag_center is None
    assert np.allclose(params.resolved_drag_center(), params.com)


def test_dsros_mass_mismatch_warns():
    buoy = ('<buoyancy><center x="0" y="0" z="0"/><mass>90</mass><buoyancy>100</buoyancy>'
            '</buoyancy>')
    params = load_vehicle_string(robot(plugin=dsros(buoyancy=buoy)))
    assert any('90' in w and 'URDF' in w for w in params.warnings)


def test_dsros_block_found_outside_gazebo_too():
    text = robot().replace('<gazebo>', '').replace('</gazebo>', '')
    text = text.replace('</robot>', dsros() + '</robot>')
    assert load_vehicle_string(text).buoyancy_mass == 101.0


def test_unknown_coefficient_tag_names_file_element_line(tmp_path):
    text = robot(plugin=dsros('<linear>\n<xx>1</xx>\n<xxy>2</xxy>\n</linear>'))
    path = tmp_path / 'bad.urdf'
    path.write_text(text)
    with pytest.raises(DescriptionError) as info:
        load_vehicle(str(path))
    err = info.value
    assert err.reason == ("unknown coefficient 'xxy' in linear drag; "
                          'expected two of x y z r p h')
    assert err.source == str(path)
    assert err.element.endswith('drag/linear/xxy')
    assert err.line == text.splitlines().index('<xxy>2</xxy>') + 1
    assert str(err).startswith('%s:%d:' % (path, err.line))


@pytest.mark.parametrize('block,tag,what', [
    ('quadratic', 'xx', 'quadratic drag'), ('added_mass', 'xq', 'added mass'),
    ('quadratic', 'xyw', 'quadratic drag')])
def test_unknown_tags_in_other_blocks(block, tag, what):
    drag = '<%s><%s>1</%s></%s>' % (block, tag, tag, block)
    with pytest.raises(DescriptionError, match="unknown coefficient '%s' in %s" % (tag, what)):
        load_vehicle_string(robot(plugin=dsros(drag)))


def test_duplicate_coefficient_is_an_error():
    with pytest.raises(DescriptionError, match="duplicate coefficient 'xx'") as info:
        load_vehicle_string(robot(plugin=dsros('<linear><xx>1</xx><xx>2</xx></linear>')))
    assert info.value.line is not None


def test_bad_number_names_element():
    with pytest.raises(DescriptionError, match='expected a number') as info:
        load_vehicle_string(robot(plugin=dsros('<linear><yy>fast</yy></linear>')), 'v.urdf')
    assert info.value.element.endswith('linear/yy')


def test_number_attributes_required_defaulted_and_finite():
    """<mass value> is required; a missing <inertia> term is 0; every number is finite."""
    sensor = ('<link name="sensor"><inertial>%s<inertia ixx="1" iyy="1" izz="1"/>'
              '</inertial></link><joint name="j" type="fixed"><parent link="base_link"/>'
              '<child link="sensor"/></joint>')
    with pytest.raises(DescriptionError, match='missing attribute value') as info:
        load_vehicle_string(robot(extra_links=sensor % '<mass/>'), 'v.urdf')
    assert info.value.element.endswith('inertial/mass') and info.value.line is not None
    with pytest.raises(DescriptionError, match="attribute value: non-finite number 'inf'"):
        load_vehicle_string(robot(extra_links=sensor % '<mass value="inf"/>'))
    with pytest.raises(DescriptionError, match="attribute z: expected a number, got 'deep'"):
        load_vehicle_string(robot(plugin=dsros(buoyancy=(
            '<buoyancy><center x="0" y="0" z="deep"/><buoyancy>1</buoyancy></buoyancy>'))))


def test_fixed_joint_chain_composes_frames_and_lumps_inertials():
    links = """
  <link name="mount"/>
  <joint name="j1" type="fixed"><parent link="base_link"/><child link="mount"/>
    <origin xyz="1 0 0" rpy="0 0 1.5707963267948966"/></joint>
  <link name="sensor"><inertial><origin xyz="0 0 0"/><mass value="10"/>
    <inertia ixx="1" iyy="1" izz="1"/></inertial></link>
  <joint name="j2" type="fixed"><parent link="mount"/><child link="sensor"/>
    <origin xyz="0.5 0 0" rpy="0 0 0"/></joint>
  <link name="wheel"/>
  <joint name="j3" type="continuous"><parent link="base_link"/><child link="wheel"/></joint>
"""
    params = load_vehicle_string(robot(plugin=dsros(), extra_links=links))
    assert set(params.frames) == {'mount', 'sensor'}
    sensor = params.frames['sensor']
    assert np.allclose(sensor.translation, [1.0, 0.5, 0.0])
    assert np.allclose(quat_to_matrix(sensor.rotation), rpy_to_matrix([0, 0, np.pi / 2]))
    # lumped: 100 kg at (0.1, 0, -0.2) and 10 kg at (1, 0.5, 0)
    assert params.mass == pytest.approx(110.0)
    com = (100 * np.array([0.1, 0, -0.2]) + 10 * np.array([1.0, 0.5, 0.0])) / 110
    assert np.allclose(params.com, com)
    d1, d2 = np.array([0.1, 0, -0.2]) - com, np.array([1.0, 0.5, 0.0]) - com
    steiner = (100 * (d1 @ d1 * np.eye(3) - np.outer(d1, d1))
               + 10 * (d2 @ d2 * np.eye(3) - np.outer(d2, d2)))
    assert np.allclose(params.inertia, np.diag([11.0, 21.0, 26.0]) + steiner)
    # the warning compares the dsros mass (100) with the lumped URDF mass (110)
    assert any('110' in w for w in params.warnings)


def test_base_link_is_root_of_tree_without_dsros_block():
    text = """<robot name="r">
  <link name="child"/>
  <joint name="j" type="fixed"><parent link="root"/><child link="child"/></joint>
  <link name="root">%s</link>
</robot>""" % INERTIAL.format(rpy='0 0 0')
    params = load_vehicle_string(text)
    assert params.base_frame == 'root' and params.name == 'r'
    assert params.buoyancy_mass == 0.0
    assert any('no buoyancy' in w for w in params.warnings)


def test_missing_inertial_is_an_error():
    with pytest.raises(DescriptionError, match='no <inertial>') as info:
        load_vehicle_string('<robot name="r">\n<link name="b"/>\n</robot>', 'r.urdf')
    assert info.value.line == 2


def test_dsros_base_link_must_exist():
    plugin = dsros().replace('<base_link>base_link', '<base_link>nope')
    with pytest.raises(DescriptionError, match="'nope' is not a link"):
        load_vehicle_string(robot(plugin=plugin))


def test_xacro_mappings_and_errors(tmp_path):
    path = tmp_path / 'v.urdf.xacro'
    path.write_text("""<?xml version="1.0"?>
<robot name="x" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:arg name="m" default="5.0"/>
  <link name="base_link"><inertial><mass value="$(arg m)"/>
    <inertia ixx="1" iyy="1" izz="1"/></inertial></link>
</robot>""")
    assert load_vehicle(str(path)).mass == 5.0
    assert load_vehicle(str(path), mappings={'m': '7.5'}).mass == 7.5
    bad = tmp_path / 'bad.xacro'
    bad.write_text('<robot name="x" xmlns:xacro="http://www.ros.org/wiki/xacro">'
                   '<xacro:undefined_macro/></robot>')
    with pytest.raises(DescriptionError, match='xacro failed') as info:
        load_vehicle(str(bad))
    assert info.value.source == str(bad)


def test_missing_file_and_unknown_extension(tmp_path):
    with pytest.raises(DescriptionError, match='no such file'):
        load_vehicle(str(tmp_path / 'nope.urdf'))
    other = tmp_path / 'v.txt'
    other.write_text('x')
    with pytest.raises(DescriptionError, match='unknown file type'):
        load_vehicle(str(other))


def test_gazebo_block_inside_a_link_is_ignored_as_gazebo_does():
    # sdformat reads only <robot>'s own <gazebo> children: the plugin never runs
    path = pathlib.Path(__file__).parents[2] / 'corpus' / 'ds_sim' / 'nested_gazebo_plate.urdf'
    params = load_vehicle(str(path))
    assert params.mass == pytest.approx(20.0, rel=1e-12)
    assert params.buoyancy_mass == 0.0  # the underwater-object plugin's volume is not read
    (note,) = [w for w in params.warnings if '<gazebo> inside link' in w]
    assert "'plate/base_link'" in note and "'plate_uuv_plugin' does not run" in note
    assert 'nested_gazebo_plate.urdf:17' in note
