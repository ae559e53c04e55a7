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
Seabed contact points of descriptions: collision shapes, YAML contact_points, contact:.

Box corners, cylinder rims and sphere centres are checked against the shapes' geometry
(a corner is half a size from the centre on every axis, a rim point a radius from the
axis at half the length), placed by the collision origin and the link's fixed joint.
"""
import math

from conftest import REPO
import numpy as np
import pytest
from test_offline_tools import run_cli

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.loader import load_vehicle

URDF = """<robot name="shapes">
  <link name="base_link">
    <inertial><mass value="20"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/>
    </inertial>
    <collision name="hull"><origin xyz="0 0 -0.05" rpy="0 0 0"/>
      <geometry><box size="0.6 0.4 0.2"/></geometry></collision>
    <collision name="skin"><geometry><mesh filename="package://x/hull.stl"/></geometry>
    </collision>
  </link>
  <link name="pod">
    <collision name="tube"><origin xyz="0 0 0" rpy="0 1.5707963267948966 0"/>
      <geometry><cylinder radius="0.05" length="0.5"/></geometry></collision>
    <collision name="ball"><origin xyz="0.2 0 0"/>
      <geometry><sphere radius="0.07"/></geometry></collision>
  </link>
  <joint name="pod_joint" type="fixed"><parent link="base_link"/><child link="pod"/>
    <origin xyz="0 0.3 0.02" rpy="0 0 0"/></joint>
</robot>
"""


def _by(spec, word):
    pick = [i for i, label in enumerate(spec.labels) if word in label]
    return spec.points[pick], (None if spec.radii is None else np.asarray(spec.radii)[pick])


def test_urdf_boxes_cylinders_spheres_give_their_points(tmp_path):
    path = tmp_path / 'shapes.urdf'
    path.write_text(URDF)
    params = load_vehicle(str(path))
    spec = params.contact
    box, box_r = _by(spec, '(box)')
    assert len(box) == 8 and np.all(box_r == 0.0)
    # every corner is half a size from the box centre on each axis
    assert np.allclose(np.abs(box - [0.0, 0.0, -0.05]), [0.3, 0.2, 0.1], atol=1e-12)
    assert len({tuple(np.round(p, 9)) for p in box}) == 8
    tube, _ = _by(spec, '(cylinder)')
    assert len(tube) == 24
    # the cylinder's axis is the base x (pitch pi/2), centred at the joint (0, 0.3, 0.02)
    rel = tube - [0.0, 0.3, 0.02]
    assert np.allclose(np.hypot(rel[:, 1], rel[:, 2]), 0.05, atol=1e-12)
    assert np.allclose(np.abs(rel[:, 0]), 0.25, atol=1e-12)
    # the lowest rim points reach the cylinder's bottom, z = 0.02 - r
    assert np.min(tube[:, 2]) == pytest.approx(-0.03, abs=1e-12)
    ball, ball_r = _by(spec, '(sphere)')
    assert np.allclose(ball, [[0.2, 0.3, 0.02]], atol=1e-12) and np.allclose(ball_r, [0.07])
    # the mesh is named, not used
    assert any('hull.stl' in w and 'not used' in w for w in params.contact_warnings)


def test_yaml_contact_points_and_contact_block(tmp_path):
    path = tmp_path / 'v.yaml'
    path.write_text("""vehicle:
  mass: 10.0
  inertia: {ixx: 1.0, iyy: 1.0, izz: 1.0}
  contact_points: [[0.2, 0.1, -0.1], [-0.2, 0.1, -0.1], [0.0, -0.1, -0.1]]
  contact: {stiffness: 10000.0, damping: 50.0, friction: 0.3, stiction_speed: 0.002}
""")
    spec = load_vehicle(str(path)).contact
    assert np.allclose(spec.points, [[0.2, 0.1, -0.1], [-0.2, 0.1, -0.1], [0.0, -0.1, -0.1]])
    assert (spec.stiffness, spec.damping, spec.friction, spec.stiction_speed) == (
        1.0e4, 50.0, 0.3, 0.002)


def test_named_contact_points_are_what_a_ros_parameter_file_holds(tmp_path):
    """The mapping form (name: [x, y, z]) reads as the list, the names as labels."""
    path = tmp_path / 'v.yaml'
    path.write_text("""/**:
  ros__parameters:
    vehicle:
      mass: 10.0
      inertia: {ixx: 1.0, iyy: 1.0, izz: 1.0}
      contact_points:
        bow: [0.2, 0.0, -0.1]
        port_skid: [-0.2, 0.1, -0.1]
        starboard_skid: [-0.2, -0.1, -0.1]
""")
    spec = load_vehicle(str(path)).contact
    assert spec.labels == ['bow', 'port_skid', 'starboard_skid']
    assert np.allclose(spec.points, [[0.2, 0.0, -0.1], [-0.2, 0.1, -0.1], [-0.2, -0.1, -0.1]])


def test_a_yaml_over_a_urdf_keeps_its_shapes_and_overrides_the_coefficients(tmp_path):
    (tmp_path / 'shapes.urdf').write_text(URDF)
    path = tmp_path / 'over.yaml'
    path.write_text('vehicle:\n  base: shapes.urdf\n  buoyancy_mass: 15.0\n'
                    '  contact: {friction: 0.4}\n')
    spec = load_vehicle(str(path)).contact
    assert len(spec.points) == 8 + 24 + 1 and spec.friction == 0.4


@pytest.mark.parametrize('block, key, value', [
    ('contact: {friction: -0.5}', 'contact.friction', '-0.5'),
    ('contact: {stiffness: 0}', 'contact.stiffness', '0'),
    ('contact: {stifness: 1.0}', 'contact.stifness', 'stifness'),
    ('contact_points: [[0.1, 0.2]]', 'contact_points[0]', '[0.1, 0.2]'),
    ('contact_points: 3', 'contact_points', '3'),
    ('contact_points: {skid: [0.1, 0.2]}', 'contact_points.skid', '[0.1, 0.2]'),
])
def test_bad_contact_input_names_key_and_value(tmp_path, block, key, value):
    path = tmp_path / 'bad.yaml'
    points = '' if block.startswith('contact_points') else \
        '  contact_points: [[0.0, 0.0, -0.1]]\n'
    path.write_text('vehicle:\n  mass: 10.0\n  inertia: {ixx: 1.0, iyy: 1.0, izz: 1.0}\n'
                    '%s  %s\n' % (points, block))
    with pytest.raises(DescriptionError) as err:
        load_vehicle(str(path))
    text = str(err.value)
    assert key in text and value in text and str(path) in text


def test_check_lists_the_contact_and_simulate_lands(tmp_path):
    (tmp_path / 'shapes.urdf').write_text(URDF)
    vehicle = tmp_path / 'over.yaml'
    vehicle.write_text('vehicle:\n  base: shapes.urdf\n  buoyancy_mass: 15.0\n'
                       '  linear_drag: [20, 20, 20, 5, 5, 5]\n')
    seabed = tmp_path / 'seabed.yaml'
    seabed.write_text('seabed:\n  depth: 8.0\n')
    out = run_cli('check', vehicle, '--seabed', seabed).stdout
    assert 'seabed contact:  33 points' in out
    assert 'friction angle 45 deg' in out
    # W_water = (20 - 15) g; on the box's 4 lowest corners (the sphere and tube sit higher)
    g = load_vehicle(str(vehicle)).gravity
    w = 5.0 * g
    k = 20.0 * g / 1e-3 / 33
    assert 'weight in water %.4g N' % w in out
    assert 'penetration %.4g m' % (w / (4 * k)) in out
    assert 'hull.stl' in out
    csv = tmp_path / 'o.csv'
    proc = run_cli('simulate', vehicle, '--duration', '15', '--seabed', seabed,
                   '--initial-position', '0', '0', '-7.5', '--out', csv)
    rows = np.loadtxt(csv, delimiter=',', skiprows=1)
    # at rest on the 4 lowest box corners (z -0.15 below the origin): z = -8 + 0.15 - d
    assert rows[-1, 3] == pytest.approx(-8.0 + 0.15 - w / (4 * k), abs=1e-5)
    assert np.linalg.norm(rows[-1, 8:]) < 1e-5
    assert 'seabed contact at 33 points' in proc.stderr
    assert math.isfinite(rows[-1, 3])


def test_sdf_box_gives_its_corners():
    import xml.etree.ElementTree as ET
    path = REPO / 'test' / 'corpus' / 'gz_sim' / 'bluerov_like.sdf'
    size = np.array([float(v) for v in ET.parse(path).find(
        './/collision[@name="hull"]/geometry/box/size').text.split()])
    spec = load_vehicle(str(path)).contact
    box, _ = _by(spec, 'hull (box)')
    assert len(box) == 8
    # the hull box has no <pose>: its corners are +-size / 2 about the base origin
    assert np.allclose(np.abs(box), 0.5 * size, atol=1e-12)


def test_a_vehicle_with_moving_links_is_warned_that_it_does_not_land(tmp_path):
    seabed = tmp_path / 'seabed.yaml'
    seabed.write_text('seabed:\n  depth: 8.0\n')
    out = run_cli('check', REPO / 'test' / 'corpus' / 'gz_sim' / 'two_link_auv.sdf',
                  '--seabed', seabed).stdout
    assert 'seabed contact is not modelled for a vehicle whose links move' in out
    assert 'seabed contact:  ' not in out
