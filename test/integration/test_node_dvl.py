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
The DVL as drivers publish it, over DDS: marine_acoustic_msgs/Dvl beside the twist.

The BlueROV2 of config/ardusub_bluerov2.yaml (a down-looking A50-like DVL 0.12 m below
and 0.1 m ahead of the origin, a flat seabed 30 m deep) coasts and turns from an
initial twist under /clock.  Every Dvl message is matched with the odometry of its
stamp and its beams recomputed here from that pose: transducer depth d = -(p + R r)_z,
beam i along R R_bs b_i, slant range (30 - d) / (-(R R_bs b_i)_z).  Its velocity must
be the twist message's (one reading, two messages), the noise-free velocity within 5
sigma of the noise model, the altitude the message definition's.
"""
import math

from nodes import lock_step
from nodes.harness import REPO
import numpy as np
import pytest

pytestmark = pytest.mark.ros

CONFIG = REPO / 'config' / 'ardusub_bluerov2.yaml'
LEVER = np.array([0.1, 0.0, -0.12])
R_BS = np.diag([1.0, -1.0, -1.0])  # roll pi: the DVL's z looks down
JANUS = math.radians(22.5)
AZIMUTHS = [math.radians(a) for a in (45.0, 135.0, -45.0, -135.0)]


def _matrix(w, x, y, z):
    """Rotation matrix of a unit quaternion (Hamilton, world <- body)."""
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def _stamp(msg):
    return msg.header.stamp.sec * 10 ** 9 + msg.header.stamp.nanosec


def test_dvl_message_beams_match_the_pose(spawn, rclpy_context, tmp_path, python):
    from geometry_msgs.msg import TwistWithCovarianceStamped
    from marine_acoustic_msgs.msg import Dvl
    from nav_msgs.msg import Odometry
    params = {'vehicle_file': str(CONFIG), 'mode': 'simulate',
              'initial_position': [0.0, 0.0, -10.0],
              'initial_orientation_rpy': [0.05, -0.08, 0.0],
              'initial_velocity': [0.4, 0.1, 0.05, 0.0, 0.0, 0.3]}
    _, got, _ = lock_step.run(spawn, rclpy_context, tmp_path, python, 'dvl', params, [], [],
                              60, collect=[('dvl', Dvl, '~/dvl/data'),
                                           ('twist', TwistWithCovarianceStamped, '~/dvl/twist'),
                                           ('odom', Odometry, '~/odometry')])
    odom = {_stamp(m): m for m in got['odom']}
    twist = {_stamp(m): m for m in got['twist']}
    assert len(got['dvl']) >= 4  # 8 Hz over 0.6 s of sim time
    b = np.array([[math.sin(JANUS) * math.cos(a), math.sin(JANUS) * math.sin(a),
                   math.cos(JANUS)] for a in AZIMUTHS])
    checked = 0
    for msg in got['dvl']:
        t = _stamp(msg)
        if t not in odom:
            continue
        o = odom[t]
        q = o.pose.pose.orientation
        rot = _matrix(q.w, q.x, q.y, q.z)
        p = o.pose.pose.position
        depth = -(np.array([p.x, p.y, p.z]) + rot @ LEVER)[2]
        beams = (rot @ R_BS @ b.T).T
        expected = (30.0 - depth) / (-beams[:, 2])
        assert np.asarray(msg.range) == pytest.approx(expected, rel=1e-9)
        assert msg.num_good_beams == 4 and msg.beam_ranges_valid
        assert msg.altitude == pytest.approx(math.cos(JANUS) * np.mean(expected), rel=1e-9)
        unit = np.array([[u.x, u.y, u.z] for u in msg.beam_unit_vec])
        assert unit == pytest.approx(b, abs=1e-15)
        assert msg.header.frame_id == 'dvl'
        # one reading, two messages: the twist of the same stamp carries the same velocity
        tw = twist[t].twist.twist.linear
        assert (msg.velocity.x, msg.velocity.y, msg.velocity.z) == (tw.x, tw.y, tw.z)
        # the noise-free velocity of the transducer, in the DVL frame: R_bs^T (v + w x r)
        tl, ta = o.twist.twist.linear, o.twist.twist.angular
        v = np.array([tl.x, tl.y, tl.z]) + np.cross([ta.x, ta.y, ta.z], LEVER)
        true = R_BS.T @ v
        measured = np.array([msg.velocity.x, msg.velocity.y, msg.velocity.z])
        assert np.all(np.abs(measured - true) < 5 * 3e-3), (measured, true)
        assert msg.velocity_covar[0] == pytest.approx(9e-6, rel=1e-12)
        assert np.asarray(msg.beam_velocity) == pytest.approx(unit @ measured, abs=1e-6)
        checked += 1
    assert checked >= 4
