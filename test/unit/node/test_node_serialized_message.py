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
SerializedMessage: patched bytes are the message rclpy's serialiser writes.

The odometry and TF of simulate mode, and the joint_states and moving links' TF of an
arm vehicle (several stamps, arrays), go out as serialised bytes patched in place.  For
random states, stamps and odd-length frame ids, the patched bytes must have the length
of rclpy's serialisation of the filled message and read back (rclpy's deserialiser) as
that message, so subscribers cannot tell.  (Not byte for byte: Fast CDR leaves the
alignment padding uninitialised, so two serialisations of one message differ there.)
A layout the patching cannot find is refused (None: the node publishes messages).
ValueWire, the thrusters' std_msgs/Float64 feedback, is held to the same rule.
"""
from required_modules import require  # noqa: I100

require('rclpy')

from geometry_msgs.msg import TransformStamped, WrenchStamped  # noqa: E402, I100
from nav_msgs.msg import Odometry  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from rclpy.serialization import deserialize_message, serialize_message  # noqa: E402
from sensor_msgs.msg import JointState  # noqa: E402
from std_msgs.msg import Float64  # noqa: E402
from tf2_msgs.msg import TFMessage  # noqa: E402

from uwv_hydro.node import joint_io, simulate_io, thruster_io  # noqa: E402
from uwv_hydro.node.serialized_message import SerializedMessage, ValueWire  # noqa: E402


def _odometry(frame, child):
    msg = Odometry()
    msg.header.frame_id, msg.child_frame_id = frame, child
    msg.pose.covariance = [1e-6 * (k + 1) for k in range(36)]
    msg.twist.covariance = [2e-6 * (k + 1) for k in range(36)]
    return msg


def _tf(frame, child):
    msg = TFMessage(transforms=[TransformStamped()])
    msg.transforms[0].header.frame_id, msg.transforms[0].child_frame_id = frame, child
    return msg


@pytest.mark.parametrize('frames', [('odom', 'base_link'), ('w', 'ns1/b'),
                                    ('world_ned_x', 'r')])
@pytest.mark.parametrize('make, fill, blocks, n', [
    (_odometry, simulate_io._fill_odometry, (7, 6), 13),
    (_tf, simulate_io._fill_tf, (7,), 7)])
def test_patched_bytes_equal_rclpy_serialisation(frames, make, fill, blocks, n):
    wire = SerializedMessage.create(make(*frames), fill, blocks)
    assert wire is not None
    rng = np.random.default_rng(7)
    for stamp_ns in (0, 1, 999_999_999, 1_700_000_000_000_000_001,
                     int(rng.integers(0, 2 * 10 ** 18))):
        values = [float(v) for v in rng.normal(0.0, 100.0, n)]
        expected = make(*frames)
        fill(expected, stamp_ns, values)
        raw = wire.pack(stamp_ns, values)
        assert len(raw) == len(serialize_message(expected))
        got = deserialize_message(raw, type(expected))
        assert got == expected, (got, expected)


@pytest.mark.parametrize('names', [['j'], ['shoulder', 'elbow_joint', 'w'],
                                   ['a%d' % k for k in range(9)]])
def test_joint_states_and_joint_transforms_patch_as_rclpy_serialises(names):
    n = len(names)
    rng = np.random.default_rng(n)
    frames = [('p' * (k + 1), names[k]) for k in range(n)]
    for make, fill, blocks, stamps in (
            (lambda: JointState(name=list(names)), joint_io.fill_joint_state, (n, n, n), 1),
            (lambda: joint_io.joint_transforms_message(frames), joint_io.fill_transforms,
             (7,) * n, n)):
        wire = SerializedMessage.create(make(), fill, blocks, stamps)
        assert wire is not None
        for stamp_ns in (0, 999_999_999, int(rng.integers(0, 2 * 10 ** 18))):
            values = [float(v) for v in rng.normal(0.0, 100.0, sum(blocks))]
            expected = make()
            fill(expected, stamp_ns, values)
            raw = wire.pack(stamp_ns, values)
            assert len(raw) == len(serialize_message(expected))
            assert deserialize_message(raw, type(expected)) == expected


def test_transform_values_are_translation_then_quaternion_xyzw():
    values = joint_io.transform_values([('a', 'b', [1.0, 2.0, 3.0], [0.5, 0.1, 0.2, 0.3])])
    assert values == [1.0, 2.0, 3.0, 0.1, 0.2, 0.3, 0.5]


def test_a_stamp_written_a_wrong_number_of_times_is_refused():
    frames = [('a', 'b'), ('a', 'c')]

    def fill_first_stamp_only(msg, stamp_ns, values):
        joint_io.fill_transforms(msg, stamp_ns, values)
        msg.transforms[1].header.stamp.sec = 0
    assert SerializedMessage.create(joint_io.joint_transforms_message(frames),
                                    fill_first_stamp_only, (7, 7), 2) is None


def test_the_state_maps_to_position_quaternion_xyzw_and_twist():
    x = [float(k) for k in range(13)]  # position, quaternion [w x y z], twist
    assert simulate_io._pose_twist(x) == (0.0, 1.0, 2.0, 4.0, 5.0, 6.0, 3.0,
                                          7.0, 8.0, 9.0, 10.0, 11.0, 12.0)


def test_a_layout_that_cannot_be_patched_is_refused():
    def fill_without_torque(msg, stamp_ns, values):
        # the second block is never written: its sentinels are not in the bytes
        msg.header.stamp.sec, msg.header.stamp.nanosec = divmod(stamp_ns, 10 ** 9)
        f = msg.wrench.force
        f.x, f.y, f.z = values[:3]
    assert SerializedMessage.create(WrenchStamped(), fill_without_torque, (3, 3)) is None


def test_float64_bytes_equal_rclpy_serialisation():
    wire = ValueWire.create(Float64(), thruster_io._fill_float64)
    assert wire is not None
    rng = np.random.default_rng(5)
    for value in [0.0, -0.0, 1.5, -1e300, 5e-324, np.inf, -np.inf] + list(rng.normal(size=20)):
        raw = wire.pack(float(value))
        assert len(raw) == len(serialize_message(Float64(data=float(value))))
        assert deserialize_message(raw, Float64).data == float(value)
    assert np.isnan(deserialize_message(wire.pack(float('nan')), Float64).data)
