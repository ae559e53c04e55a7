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


"""Fins in the descriptions: YAML ``fins:``, gz-sim LiftDrag blocks in URDF, overlays."""
import math
import pathlib

import numpy as np
import pytest

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.loader import load_vehicle, load_vehicle_string
from uwv_hydro.physics.hydro.hydro_model import HydroModel

REMUS = pathlib.Path(__file__).resolve().parents[3] / 'config' / 'remus100.yaml'

URDF = """<?xml version="1.0"?>
<robot name="finned">
  <link name="base_link">
    <inertial><origin xyz="0 0 0"/><mass value="20"/>
      <inertia ixx="0.2" ixy="0" ixz="0" iyy="2" iyz="0" izz="2"/></inertial>
  </link>
  <link name="tail_link"/>
  <joint name="tail_joint" type="fixed">
    <parent link="base_link"/><child link="tail_link"/><origin xyz="-0.5 0 0"/>
  </joint>
  <link name="plane_link"/>
  <joint name="plane_joint" type="revolute">
    <parent link="tail_link"/><child link="plane_link"/>
    <origin xyz="-0.1 0.12 0.02" rpy="1.5707963267948966 0 0"/>
    <axis xyz="0 0 1"/>
    <limit lower="-0.4" upper="0.3" velocity="1.5" effort="1"/>
  </joint>
  <gazebo>
    <plugin filename="gz-sim-lift-drag-system" name="gz::sim::systems::LiftDrag">
      <link_name>plane_link</link_name>
      <control_joint_name>plane_joint</control_joint_name>
      <a0>0.0</a0><cla>3.0</cla><cda>0.3</cda><alpha_stall>0.4</alpha_stall>
      <cla_stall>-1.0</cla_stall><cda_stall>1.0</cda_stall><area>0.004</area>
      <cp>0.01 0 0</cp><forward>1 0 0</forward><upward>0 1 0</upward>
      %s
    </plugin>
  </gazebo>
</robot>
"""

# The same fin written in the body frame: the joint frame is rolled by 90 deg, so its
# z axis is body -y and its y axis body z
YAML = """
vehicle:
  mass: 20.0
  inertia: {ixx: 0.2, iyy: 2.0, izz: 2.0}
  fins:
    plane_joint:
      position: [-0.6, 0.12, 0.02]
      axis: [0.0, -1.0, 0.0]
      cp: [0.01, 0.0, 0.0]
      forward: [1.0, 0.0, 0.0]
      upward: [0.0, 0.0, 1.0]
      area: 0.004
      cla: 3.0
      cda: 0.3
      alpha_stall: 0.4
      cla_stall: -1.0
      cda_stall: 1.0
      lower: -0.4
      upper: 0.3
      velocity: 1.5
"""


def test_liftdrag_block_equals_the_yaml_fin():
    """A revolute joint + LiftDrag block is the same fin as its YAML body-frame entry."""
    urdf = load_vehicle_string(URDF % '<control_joint_rad_to_cl>0.0</control_joint_rad_to_cl>')
    yaml_fin = load_vehicle_string(YAML)
    assert [f.name for f in urdf.fins] == ['plane_joint']
    a, b = urdf.fins[0], yaml_fin.fins[0]
    for key in ('position', 'axis', 'cp', 'forward', 'upward'):
        assert np.allclose(getattr(a, key), getattr(b, key), rtol=0, atol=1e-15), key
    assert (a.lower, a.upper, a.velocity) == (-0.4, 0.3, 1.5)
    nu = [1.2, 0.1, -0.2, 0.1, 0.2, -0.1]
    for angle in (0.0, 0.25, -0.3):
        wa = HydroModel(urdf).wrench(nu, fin_angles=[angle]).components['fins']
        wb = HydroModel(yaml_fin).wrench(nu, fin_angles=[angle]).components['fins']
        assert np.allclose(wa, wb, rtol=1e-12, atol=1e-12)
        assert np.linalg.norm(wa) > 0.01


def test_liftdrag_defaults_follow_gz_sim():
    """Without control_joint_rad_to_cl gz-sim adds 4 per radian; air_density is reported."""
    params = load_vehicle_string(URDF % '<air_density>1.2041</air_density>')
    assert params.fins[0].control_joint_rad_to_cl == 4.0
    assert any('air_density' in w for w in params.warnings)


@pytest.mark.parametrize('change,words', [
    (('<link_name>plane_link</link_name>', '<link_name>tail_link</link_name>'),
     'child link'),
    (('<control_joint_name>plane_joint', '<control_joint_name>nope'), 'not a joint'),
    (('<area>0.004</area>', '<area>0.004</area><span>1</span>'), 'unknown LiftDrag element'),
    (('<upward>0 1 0</upward>', '<upward>1 1 0</upward>'), 'perpendicular'),
    (('type="revolute"', 'type="prismatic"'), 'revolute or continuous'),
    (('lower="-0.4"', 'lower="0.1"'), 'contain zero'),
])
def test_liftdrag_errors_name_the_problem(change, words):
    """Bad fin blocks are refused with a message saying what is wrong."""
    text = (URDF % '').replace(*change)
    with pytest.raises(DescriptionError) as err:
        load_vehicle_string(text)
    assert words in str(err.value)


@pytest.mark.parametrize('change,words', [
    (('area: 0.004', 'wingspan: 3.0'), 'fins.plane_joint.wingspan'),
    (('area: 0.004', 'area: -1.0'), 'area must be positive'),
    (('area: 0.004', 'model: linear'), 'two_line, quadratic'),
    (('position: [-0.6, 0.12, 0.02]', 'position: [1.0, 2.0]'), 'fins.plane_joint.position'),
    (('position: [-0.6, 0.12, 0.02]', 'a0: 0.0'), 'needs a position'),
])
def test_yaml_fin_errors_name_the_key(change, words):
    """Unknown keys and bad values of a YAML fin name the key path."""
    with pytest.raises(DescriptionError) as err:
        load_vehicle_string(YAML.replace(*change))
    assert words in str(err.value)


def test_yaml_over_a_base_keeps_its_fins_and_overlays_them_by_name(tmp_path):
    """Fins are equipment on the base's joints, like thrusters: kept, overlaid by name."""
    (tmp_path / 'v.urdf').write_text(URDF % '')
    base = load_vehicle(str(tmp_path / 'v.urdf'))
    (tmp_path / 'bare.yaml').write_text('vehicle:\n  base: v.urdf\n')
    (kept,) = load_vehicle(str(tmp_path / 'bare.yaml')).fins
    (plane,) = base.fins
    assert kept.name == plane.name and kept.area == plane.area
    assert np.array_equal(kept.position, plane.position)
    (tmp_path / 'o.yaml').write_text(
        'vehicle:\n  base: v.urdf\n  fins:\n'
        '    %s: {area: %r}\n'
        '    fixed_keel: {position: [0.0, 0.0, -0.1], forward: [1.0, 0.0, 0.0],\n'
        '                 upward: [0.0, 1.0, 0.0], area: 0.01, lower: 0.0, upper: 0.0}\n'
        % (plane.name, 2.0 * plane.area))
    overlaid, keel = load_vehicle(str(tmp_path / 'o.yaml')).fins
    assert overlaid.area == 2.0 * plane.area and overlaid.cla == plane.cla
    assert np.array_equal(overlaid.position, plane.position)
    assert keel.name == 'fixed_keel' and keel.lower == keel.upper == 0.0


def test_remus_fins_from_frd():
    """config/remus100.yaml gives its fins in FRD: loaded as FLU rudders and stern planes."""
    params = load_vehicle(str(REMUS))
    by_name = {f.name: f for f in params.fins}
    upper = by_name['rudder_upper']
    assert np.allclose(upper.position, [-0.638, 0.0, 0.135])
    assert np.allclose(upper.axis, [0.0, 0.0, -1.0])
    port = by_name['stern_port']
    assert np.allclose(port.position, [-0.638, 0.135, 0.0])
    assert np.allclose(port.axis, [0.0, -1.0, 0.0]) and np.allclose(port.upward, [0, 0, 1])
    assert upper.upper == pytest.approx(math.radians(15.0), rel=1e-4)  # PVS 2024


def test_remus_urdf_fins_equal_the_yaml_fins():
    """urdf/remus100.urdf's LiftDrag fins are config/remus100.yaml's (density aside)."""
    urdf = load_vehicle(str(REMUS.parents[1] / 'urdf' / 'remus100.urdf'))
    yaml_params = load_vehicle(str(REMUS))
    assert [f.name for f in urdf.fins] == [f.name for f in yaml_params.fins]
    rng = np.random.default_rng(2)
    # The URDF's dsros block gives no fluid density (1025 by default), the YAML 1030
    ratio = yaml_params.fluid_density / urdf.fluid_density
    for _ in range(20):
        nu = rng.normal(0.0, 0.3, 6) + [1.5, 0, 0, 0, 0, 0]
        angles = rng.uniform(-0.5, 0.5, 4)
        a = HydroModel(urdf).wrench(nu, fin_angles=angles).components['fins']
        b = HydroModel(yaml_params).wrench(nu, fin_angles=angles).components['fins']
        assert np.allclose(a * ratio, b, rtol=1e-12, atol=1e-12)
