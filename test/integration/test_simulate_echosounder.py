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
The offline ``simulate`` bag carries the echosounders (sensor_msgs/Range) and the DVL.

A neutrally buoyant body turning and rolling under a constant wrench carries three
noise-free sounders -- one looking down at the flat seabed 30 m deep, one up at the
surface, one with a 5 m reach (no echo: +inf) -- and a DVL.  Read back with rosbags,
every Range is recomputed from the odometry of its stamp: transducer p + R r, axis
R R_bs x, range (30 + z) / (-d_z) down and -z / d_z up (ray-plane intersections); every
marine_acoustic_msgs/Dvl sample is there (also without lock) with the beams' slant
ranges (30 + z) / (-(R R_bs b_i)_z).
"""
import math
import pathlib

import numpy as np
from test_offline_tools import run_cli
from test_simulate_outputs import BODY_YAML

from uwv_hydro.bag.rosbag_io import typestore
from uwv_hydro.modes.messages import sensor_messages

# pitch +pi/2: the sensor's +x looks down; pitch -pi/2: up
BODY = BODY_YAML + """      fluid_density: 1000.0
      sensors:
        altimeter:
          type: echosounder
          pose: [0.2, 0.0, -0.3, 0.0, 1.5707963267948966, 0.0]
          update_rate: 10.0
          topic: altimeter
          echosounder: {min_range: 0.5, max_range: 60.0, seabed_depth: 30.0}
        above:
          type: echosounder
          pose: [0.0, 0.1, 0.3, 0.0, -1.5707963267948966, 0.0]
          update_rate: 4.0
          topic: water_above
          echosounder: {max_range: 60.0, seabed_depth: 30.0}
        short:
          type: echosounder
          pose: [0.0, 0.0, -0.3, 0.0, 1.5707963267948966, 0.0]
          update_rate: 2.0
          topic: short
          echosounder: {max_range: 5.0, seabed_depth: 30.0}
        dvl:
          type: dvl
          pose: [0.0, 0.0, -0.2, 3.141592653589793, 0.0, 0.0]
          update_rate: 5.0
          topic: dvl/twist
          dvl: {seabed_depth: 30.0, max_altitude: 50.0}
"""
A50 = [math.radians(a) for a in (45.0, 135.0, -45.0, -135.0)]
JANUS = math.radians(22.5)


def _rotation(w, x, y, z):
    """Rotation matrix of a unit quaternion (Hamilton, world <- body)."""
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def _ry(a):
    return np.array([[math.cos(a), 0, math.sin(a)], [0, 1, 0], [-math.sin(a), 0, math.cos(a)]])


def _read(path):
    from rosbags.highlevel import AnyReader
    from rosbags.typesys import get_types_from_msg
    store = typestore()
    store.register(get_types_from_msg(sensor_messages.DVL_DEFINITION,
                                      sensor_messages.DVL_MESSAGE_TYPE))
    out = {}
    with AnyReader([pathlib.Path(path)], default_typestore=store) as reader:
        for conn in reader.connections:
            out[conn.topic] = (conn.msgtype, [], [])
        for conn, stamp, raw in reader.messages():
            out[conn.topic][1].append(stamp)
            out[conn.topic][2].append(reader.deserialize(raw, conn.msgtype))
    return out


def test_the_bag_carries_the_sounders_and_the_dvl(tmp_path):
    body = tmp_path / 'body.yaml'
    body.write_text(BODY)
    run_cli('simulate', body, '--duration', 2, '--thrust', 20, 0, -5, 3, 1, 2,
            '--initial-position', 0, 0, -10, '--out', tmp_path / 's.mcap')
    bag = _read(tmp_path / 's.mcap')
    odom = dict(zip(bag['/odometry'][1], bag['/odometry'][2]))
    assert bag['/altimeter'][0] == 'sensor_msgs/msg/Range'
    assert bag['/altimeter'][1] == [k * 100_000_000 for k in range(21)]  # 10 Hz, 2 s
    assert bag['/water_above'][1] == [k * 250_000_000 for k in range(9)]

    def mount(stamp, lever, pitch):
        o = odom[stamp].pose.pose
        rot = _rotation(o.orientation.w, o.orientation.x, o.orientation.y, o.orientation.z)
        p = np.array([o.position.x, o.position.y, o.position.z])
        return p + rot @ lever, rot @ _ry(pitch), rot
    tilts = []
    for stamp, msg in zip(*bag['/altimeter'][1:]):
        p, axes, rot = mount(stamp, [0.2, 0.0, -0.3], math.pi / 2)
        d = axes[:, 0]
        tilts.append(math.degrees(math.acos(-d[2])))
        # ray-plane: the seabed at z = -30
        want = (30.0 + p[2]) / (-d[2]) if d[2] < 0.0 else math.inf
        if want > 60.0:  # beyond max_range: no echo
            assert msg.range == math.inf
            continue
        assert abs(msg.range - want) <= 1e-6 * want  # float32 in the message
        assert (msg.min_range, msg.max_range, msg.field_of_view, msg.variance) == (
            0.5, 60.0, 0.0, 0.0)
        assert msg.radiation_type == 0 and msg.header.frame_id == 'altimeter'
    assert max(tilts) > 5.0  # the body rolls and pitches: not h itself
    assert sum(math.isfinite(m.range) for m in bag['/altimeter'][2]) >= 10
    for stamp, msg in zip(*bag['/water_above'][1:]):
        p, axes, _ = mount(stamp, [0.0, 0.1, 0.3], -math.pi / 2)
        # ray-plane: the surface at z = 0 from below
        want = -p[2] / axes[2, 0]
        assert abs(msg.range - want) <= 1e-6 * want
    assert bag['/short'][1] and all(m.range == math.inf for m in bag['/short'][2])
    # the DVL: its twist and every sample as marine_acoustic_msgs/Dvl
    assert bag['/dvl/data'][0] == 'marine_acoustic_msgs/msg/Dvl'
    assert bag['/dvl/data'][1] == [k * 200_000_000 for k in range(11)]
    locks = []
    beams = np.array([[math.sin(JANUS) * math.cos(a), math.sin(JANUS) * math.sin(a),
                       math.cos(JANUS)] for a in A50])
    for stamp, msg in zip(*bag['/dvl/data'][1:]):
        p, axes, _ = mount(stamp, [0.0, 0.0, -0.2], 0.0)
        axes = axes @ np.diag([1.0, -1.0, -1.0])  # roll pi: the DVL's z down
        dz = (axes @ beams.T)[2]
        want = (30.0 + p[2]) / (-dz)
        # a beam locks while r cos(theta) <= max_altitude 50 m; the message: 0 without
        lock = want * math.cos(JANUS) <= 50.0
        want = np.where(lock, want, 0.0)
        assert np.max(np.abs(np.asarray(msg.range) - want)) <= 1e-9 * want.max()
        assert msg.num_good_beams == lock.sum() and msg.header.frame_id == 'dvl'
        locks.append(lock.sum())
    assert 4 in locks and min(locks) < 4  # with and without lock: every sample is there
    frames = {t.child_frame_id for t in bag['/tf_static'][2][0].transforms}
    assert {'altimeter', 'above', 'short', 'dvl'} <= frames
