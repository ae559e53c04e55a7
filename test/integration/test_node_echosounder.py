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
The node's echosounders over DDS: sensor_msgs/Range at their rates, never NaN.

The BlueROV2 of config/ardusub_bluerov2.yaml with three noise-free sounders added
(:data:`SOUNDERS`): one looking down at the flat seabed 30 m deep, one up at the
surface, one of 5 m reach (no echo: +inf).  It coasts and turns from an initial twist
under /clock; every Range is recomputed from the odometry of its stamp (transducer
p + R r, axis R R_bs x; range (30 + z) / (-d_z) down, -z / d_z up).  Over a seabed
file (the sloping plane of test_node_seabed.py) the down-looking one sees the file's
plane, not its flat seabed_depth.
"""
import math

from nodes import lock_step
from nodes.harness import REPO
import numpy as np
import pytest
from required_modules import require

pytestmark = pytest.mark.ros

CONFIG = REPO / 'config' / 'ardusub_bluerov2.yaml'
SOUNDERS = """      sensors:
        altimeter:
          type: echosounder
          pose: [0.2, 0.0, -0.15, 0.0, 1.5707963267948966, 0.0]
          update_rate: 10.0
          topic: altimeter
          echosounder: {min_range: 0.3, max_range: 80.0, field_of_view: 0.0,
                        seabed_depth: 30.0}
        above:
          type: echosounder
          pose: [0.0, 0.0, 0.1, 0.0, -1.5707963267948966, 0.0]
          update_rate: 5.0
          topic: water_above
          echosounder: {max_range: 80.0, seabed_depth: 30.0}
        short:
          type: echosounder
          pose: [0.0, 0.0, -0.15, 0.0, 1.5707963267948966, 0.0]
          update_rate: 5.0
          topic: short
          echosounder: {max_range: 5.0, seabed_depth: 30.0}
"""


def _matrix(w, x, y, z):
    """Rotation matrix of a unit quaternion (Hamilton, world <- body)."""
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def _ry(a):
    return np.array([[math.cos(a), 0, math.sin(a)], [0, 1, 0], [-math.sin(a), 0, math.cos(a)]])


def _stamp(msg):
    return msg.header.stamp.sec * 10 ** 9 + msg.header.stamp.nanosec


def _vehicle(tmp_path):
    path = tmp_path / 'sounders.yaml'
    path.write_text(CONFIG.read_text().replace('      sensors:\n', SOUNDERS, 1))
    return path


def _run(spawn, rclpy_context, tmp_path, python, name, extra):
    from nav_msgs.msg import Odometry
    from sensor_msgs.msg import Range
    params = dict({'vehicle_file': str(_vehicle(tmp_path)), 'mode': 'simulate',
                   'initial_position': [2.0, -3.0, -8.0],
                   'initial_orientation_rpy': [0.1, -0.15, 0.3],
                   'initial_velocity': [0.4, 0.1, 0.05, 0.2, 0.1, 0.3]}, **extra)
    _, got, _ = lock_step.run(spawn, rclpy_context, tmp_path, python, name, params, [], [],
                              60, collect=[('down', Range, '~/altimeter'),
                                           ('up', Range, '~/water_above'),
                                           ('short', Range, '~/short'),
                                           ('odom', Odometry, '~/odometry')])
    odom = {_stamp(m): m for m in got['odom']}

    def mount(msg, lever, pitch):
        o = odom[_stamp(msg)].pose.pose
        rot = _matrix(o.orientation.w, o.orientation.x, o.orientation.y, o.orientation.z)
        p = np.array([o.position.x, o.position.y, o.position.z])
        return p + rot @ np.array(lever), (rot @ _ry(pitch))[:, 0]
    for key in ('down', 'up', 'short'):
        assert got[key] and not any(math.isnan(m.range) for m in got[key])
    stamps = [_stamp(m) for m in got['down']]
    assert set(np.diff(stamps)) == {100_000_000}  # 10 Hz on the sim clock
    return got, odom, mount


def test_sounders_publish_range_at_their_rates(spawn, rclpy_context, tmp_path, python):
    got, odom, mount = _run(spawn, rclpy_context, tmp_path, python, 'echo', {})
    checked = 0
    for msg in got['down']:
        if _stamp(msg) not in odom:
            continue
        p, d = mount(msg, [0.2, 0.0, -0.15], math.pi / 2)
        want = (30.0 + p[2]) / (-d[2])  # ray-plane: the seabed at z = -30
        assert msg.range == pytest.approx(want, rel=1e-6)  # float32
        assert msg.header.frame_id == 'altimeter' and msg.radiation_type == msg.ULTRASOUND
        assert (msg.min_range, msg.max_range) == (pytest.approx(0.3), 80.0)
        checked += 1
    for msg in got['up']:
        if _stamp(msg) not in odom:
            continue
        p, d = mount(msg, [0.0, 0.0, 0.1], -math.pi / 2)
        assert msg.range == pytest.approx(-p[2] / d[2], rel=1e-6)  # the surface, z = 0
        checked += 1
    assert all(m.range == math.inf for m in got['short'])  # REP 117: no echo in 5 m
    assert checked >= 6


def test_sounder_over_a_seabed_file(spawn, rclpy_context, tmp_path, python):
    require('rasterio')
    require('pyproj')
    from test_node_seabed import _write_plane, GX, GY, ORIGIN, Z0
    tif = tmp_path / 'plane.tif'
    _write_plane(tif)
    got, odom, mount = _run(spawn, rclpy_context, tmp_path, python, 'echo_seabed', {
        'seabed_file': str(tif), 'seabed_origin': '%r,%r' % ORIGIN})
    checked = 0
    for msg in got['down']:
        if _stamp(msg) not in odom:
            continue
        p, d = mount(msg, [0.2, 0.0, -0.15], math.pi / 2)
        # ray-plane: z = Z0 + GX x + GY y
        want = (p[2] - Z0 - GX * p[0] - GY * p[1]) / (GX * d[0] + GY * d[1] - d[2])
        flat = (30.0 + p[2]) / (-d[2])
        assert abs(want - flat) > 0.05  # the file, not seabed_depth, is seen
        assert msg.range == pytest.approx(want, rel=1e-6)
        checked += 1
    assert checked >= 4
