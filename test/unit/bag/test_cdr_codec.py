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

"""The fixed-layout CDR codec against rosbags' generic serialiser, byte for byte."""

import numpy as np
import pytest

from uwv_hydro.bag.cdr_codec import (decode_odometry, decode_wrench_stamped, encode_odometry,
                                     encode_tf_message, encode_wrench_stamped)
from uwv_hydro.bag.rosbag_io import MessageFactory, ODOMETRY, TF, WRENCH

FRAMES = ['', 'a', 'ab', 'abc', 'odom', 'base', 'base_link', 'frame_7ch', 'x' * 8,
          'x' * 9, 'x' * 10, 'x' * 11, 'x' * 12, 'world/ünïcode', 'ns/robot/base_link_frd']


@pytest.fixture(scope='module')
def factory():
    return MessageFactory()


@pytest.mark.parametrize('frame', FRAMES)
def test_wrench_stamped_bytes_equal_rosbags(factory, frame):
    rng = np.random.default_rng(len(frame))
    for stamp in (0, 1, 999_999_999, 1_700_000_000_123_456_789, 5_000_000_001):
        w = rng.normal(size=6) * 10.0 ** rng.integers(-5, 5)
        w[rng.integers(0, 6)] = -0.0
        want = bytes(factory.store.serialize_cdr(factory.wrench(stamp, frame, w), WRENCH))
        got = encode_wrench_stamped(stamp // 1_000_000_000, stamp % 1_000_000_000, frame,
                                    [float(v) for v in w])
        assert got == want


@pytest.mark.parametrize('frame', FRAMES)
@pytest.mark.parametrize('child', ['', 'b', 'base_link', 'x' * 7, 'x' * 8, 'x' * 11])
def test_odometry_and_tf_bytes_equal_rosbags(factory, frame, child):
    rng = np.random.default_rng(len(frame) + 31 * len(child))
    for stamp in (0, 999_999_999, 1_700_000_000_123_456_789):
        p, q, v = rng.normal(size=3) * 1e3, rng.normal(size=4), rng.normal(size=6) * 1e-3
        v[rng.integers(0, 6)] = -0.0
        for covariances in ((None, None), (rng.normal(size=36), rng.normal(size=36))):
            msg = factory.odometry(stamp, frame, child, p, q, v, *covariances)
            want = bytes(factory.store.serialize_cdr(msg, ODOMETRY))
            got = encode_odometry(stamp // 1_000_000_000, stamp % 1_000_000_000, frame, child,
                                  p.tolist(), [q[1], q[2], q[3], q[0]], v.tolist(),
                                  *[None if c is None else c.tolist() for c in covariances])
            assert got == want
        want = bytes(factory.store.serialize_cdr(factory.tf(stamp, frame, child, p, q), TF))
        got = encode_tf_message(stamp // 1_000_000_000, stamp % 1_000_000_000, frame, child,
                                p.tolist(), [q[1], q[2], q[3], q[0]])
        assert got == want


@pytest.mark.parametrize('frame', FRAMES)
def test_wrench_stamped_decode_equals_rosbags(factory, frame):
    rng = np.random.default_rng(5)
    w = rng.normal(size=6)
    raw = factory.store.serialize_cdr(factory.wrench(1_234_567_890_123, frame, w), WRENCH)
    ref = factory.store.deserialize_cdr(raw, WRENCH)
    sec, nanosec, frame_id, values = decode_wrench_stamped(raw)
    assert (sec, nanosec, frame_id) == (ref.header.stamp.sec, ref.header.stamp.nanosec,
                                        ref.header.frame_id)
    f, t = ref.wrench.force, ref.wrench.torque
    assert values == (f.x, f.y, f.z, t.x, t.y, t.z)
    with pytest.raises(ValueError):
        decode_wrench_stamped(bytes(raw)[:-8])


@pytest.mark.parametrize('frame', FRAMES)
@pytest.mark.parametrize('child', ['', 'b', 'base_link', 'x' * 7, 'x' * 8])
def test_odometry_decode_equals_rosbags(factory, frame, child):
    rng = np.random.default_rng(3)
    stamp = 1_700_000_000_987_654_321
    q = rng.normal(size=4)
    msg = factory.odometry(stamp, frame, child, rng.normal(size=3), q, rng.normal(size=6),
                           pose_covariance=rng.normal(size=36),
                           twist_covariance=rng.normal(size=36))
    raw = factory.store.serialize_cdr(msg, ODOMETRY)
    ref = factory.store.deserialize_cdr(raw, ODOMETRY)
    sec, nanosec, frame_id, child_id, pos, quat, twist = decode_odometry(raw)
    assert (sec, nanosec) == (ref.header.stamp.sec, ref.header.stamp.nanosec)
    assert frame_id == ref.header.frame_id and child_id == ref.child_frame_id
    p, o = ref.pose.pose.position, ref.pose.pose.orientation
    lin, ang = ref.twist.twist.linear, ref.twist.twist.angular
    assert pos == (p.x, p.y, p.z)
    assert quat == (o.x, o.y, o.z, o.w)
    assert twist == (lin.x, lin.y, lin.z, ang.x, ang.y, ang.z)


def test_odometry_decode_rejects_bad_input_and_defers_big_endian(factory):
    msg = factory.odometry(5, 'odom', 'base_link', [1, 2, 3], [1, 0, 0, 0], [0] * 6)
    raw = bytes(factory.store.serialize_cdr(msg, ODOMETRY))
    with pytest.raises(ValueError):
        decode_odometry(raw[:100])
    with pytest.raises(ValueError):
        decode_odometry(raw[:12] + b'\xff\xff\x00\x00' + raw[16:])
    big = bytes(factory.store.serialize_cdr(msg, ODOMETRY, little_endian=False))
    assert decode_odometry(big) is None
