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
ArduPilot's JSON SITL interface, pure parts: packets, reply, frames and lock step.

The ArduPilot side is test/helpers/ardupilot_json_peer.py, written from SIM_JSON.cpp's layout
and parsing rules; the frame conversions are checked against the rotation written out
independently here (R_NED<-FRD = T R_ENU<-FLU F) and the specific force against its
definition f = R^T (a - g) in NED.
"""
import math

from ardupilot_json_peer import parse, servo_packet
import numpy as np
import pytest

from uwv_hydro.modes.messages.sitl_json_packet import (
    pack_servo_packet, parse_servo_packet, sensor_json, ServoPacket)
from uwv_hydro.modes.sitl_json_frames import ned_state
from uwv_hydro.modes.sitl_lock_step import FOREIGN, LockStep, REPEAT, RESET, STEP
from uwv_hydro.modes.sitl_real_time import RealTimeFactor
from uwv_hydro.physics.spatial.rotation import matrix_to_quat, quat_from_rpy, quat_to_matrix

G = 9.80665
T = np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, -1.0]])  # ENU <-> NED
F = np.diag([1.0, -1.0, -1.0])  # FLU <-> FRD


def test_servo_packets_of_both_layouts():
    pwm = [1100 + 37 * k for k in range(16)]
    assert parse_servo_packet(servo_packet(1200, 77, pwm)) == ServoPacket(1200, 77, tuple(pwm))
    pwm32 = [1000 + 31 * k for k in range(32)]
    packet = servo_packet(400, 2 ** 32 - 1, pwm32, channels=32)
    assert len(packet) == 72
    assert parse_servo_packet(packet) == ServoPacket(400, 2 ** 32 - 1, tuple(pwm32))
    # the bytes a stand-in for ArduPilot packs are SIM_JSON.h's
    assert pack_servo_packet(1200, 77, pwm) == servo_packet(1200, 77, pwm)
    assert pack_servo_packet(400, 5, pwm32) == servo_packet(400, 5, pwm32, channels=32)


@pytest.mark.parametrize('data, reason', [
    (b'', 'bad_size'), (b'\x1a', 'bad_size'),
    (servo_packet(1200, 1, [1500])[:-1], 'bad_size'),
    (servo_packet(1200, 1, [1500]) + b'\0', 'bad_size'),
    (servo_packet(1200, 1, [1500] * 32, channels=32)[:40], 'bad_size'),
    (b'\x00\x00' + servo_packet(1200, 1, [1500])[2:], 'bad_magic'),
    (servo_packet(0, 1, [1500]), 'bad_frame_rate'),
    (b'{"timestamp":1}\n' * 3, 'bad_magic'),
])
def test_bad_packets_name_why(data, reason):
    assert parse_servo_packet(data) == reason


def test_reply_is_read_back_by_ardupilots_rules():
    values = (12.345678901234, [0.1, -0.2, 0.3], [0.01, -1e-9, -9.81], [1.5, -2.25, 7.125],
              [0.5, 0.5, -0.5, 0.5], [1e-12, -3.5, 0.25])
    text = sensor_json(*values)
    assert text.startswith(b'\n') and text.endswith(b'\n')
    body = text.decode()
    assert ': ' not in body and ', ' not in body  # compact
    for key in ('timestamp', 'gyro', 'accel_body', 'position', 'quaternion', 'velocity'):
        assert body.count(key) == 1
    state, leftover = parse(text)
    assert state['timestamp'] == pytest.approx(values[0], rel=1e-15)
    for key, value in zip(('imu/gyro', 'imu/accel_body', 'position', 'quaternion',
                           'velocity'), values[1:]):
        # the text carries every digit (repr); ArduPilot's sscanf keeps a float32 of it
        assert state[key] == pytest.approx(value, rel=1e-15, abs=1e-300)
    # ArduPilot keeps the text after the last NUL: the next reply parses alone
    second, _ = parse(leftover + sensor_json(13.0, *values[1:]))
    assert second['timestamp'] == 13.0
    with pytest.raises(ValueError, match='not finite'):
        sensor_json(1.0, [math.nan, 0, 0], *values[2:])


def _random_state(rng):
    q = quat_from_rpy(*rng.uniform(-math.pi, math.pi, 3))
    return list(rng.normal(size=3)) + list(q) + list(rng.normal(size=6))


def test_frames_against_the_rotation_written_out():
    rng = np.random.default_rng(4)
    for _ in range(50):
        x = _random_state(rng)
        gyro, accel, position, q_ned, velocity = ned_state(x, np.zeros(6), G)
        r = quat_to_matrix(np.array(x[3:7]))
        r_ned_frd = T @ r @ F
        assert np.allclose(quat_to_matrix(np.array(q_ned)), r_ned_frd, atol=1e-12)
        assert abs(np.linalg.norm(q_ned) - 1.0) < 1e-12 and q_ned[0] >= 0.0
        assert np.allclose(position, T @ np.array(x[:3]), atol=0.0)
        assert np.allclose(velocity, T @ r @ np.array(x[7:10]), atol=1e-12)
        assert np.allclose(gyro, F @ np.array(x[10:13]), atol=0.0)


def test_specific_force_at_rest_and_in_a_known_acceleration():
    rng = np.random.default_rng(5)
    # level at rest: the accelerometer reads -g on its down axis
    x = [0, 0, -3] + list(quat_from_rpy(0.0, 0.0, 1.0)) + [0.0] * 6
    assert np.allclose(ned_state(x, np.zeros(6), G)[1], [0.0, 0.0, -G], atol=1e-12)
    for _ in range(30):
        # no rotation rate: nu_dot = R^T a_world; f_FRD = R_NED<-FRD^T (a_NED - g_NED)
        q = quat_from_rpy(*rng.uniform(-math.pi, math.pi, 3))
        r = quat_to_matrix(q)
        a_world = rng.normal(size=3)
        x = list(rng.normal(size=3)) + list(q) + list(rng.normal(size=3)) + [0.0] * 3
        nu_dot = np.concatenate([r.T @ a_world, np.zeros(3)])
        _, accel, _, _, _ = ned_state(x, nu_dot, G)
        r_ned_frd = T @ r @ F
        expected = r_ned_frd.T @ (T @ a_world - np.array([0.0, 0.0, G]))
        assert np.allclose(accel, expected, atol=1e-12)


def _rotation(axis_angle):
    """Return exp([phi]x) by Rodrigues' formula (phi = axis * angle)."""
    angle = float(np.linalg.norm(axis_angle))
    k = np.asarray(axis_angle, float) / angle
    kx = np.array([[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]])
    return np.eye(3) + math.sin(angle) * kx + (1.0 - math.cos(angle)) * kx @ kx


def test_specific_force_of_a_turning_vehicle():
    """
    Turning, tilted and moving: accel_body is R^T (a - g) of a known trajectory.

    The body turns at a constant body rate w from a tilted attitude, R(t) = R0 exp(t [w]x),
    while its origin flies a helix p(t) = (A cos Wt, A sin Wt, c t^2) (ENU).  The state
    at t carries the body velocity v(t) = R^T p'(t) and the rate w; the body acceleration
    handed in is the central difference of v(t) -- the omega x v term is not written
    here -- and the expected reading is R_NED<-FRD^T (T p''(t) - g_NED) with p'' exact.
    The central difference errs by h^2 / 6 |v'''| with |v'''| <= (|w| + |W|)^3 max|p'|,
    below (2.6 + 2)^3 * 5 ~ 500 here: 1e-6 at h = 1e-4 (rounding, eps |v| / h, 1e-11).
    """
    rng = np.random.default_rng(8)
    h = 1e-4
    for _ in range(20):
        r0 = quat_to_matrix(quat_from_rpy(*rng.uniform(-1.2, 1.2, 3)))
        w = rng.uniform(-1.5, 1.5, 3)
        amp, big_w, c = rng.uniform(0.5, 2.0), rng.uniform(-2.0, 2.0), rng.uniform(-0.5, 0.5)
        t = rng.uniform(0.1, 3.0)

        def attitude(s):
            return r0 @ _rotation(w * s)

        def body_velocity(s):
            world = [-amp * big_w * math.sin(big_w * s), amp * big_w * math.cos(big_w * s),
                     2 * c * s]
            return attitude(s).T @ np.array(world)

        p = [amp * math.cos(big_w * t), amp * math.sin(big_w * t), c * t * t]
        a_world = np.array([-amp * big_w ** 2 * math.cos(big_w * t),
                            -amp * big_w ** 2 * math.sin(big_w * t), 2 * c])
        r = attitude(t)
        x = p + list(matrix_to_quat(r)) + list(body_velocity(t)) + list(w)
        nu_dot = np.concatenate([(body_velocity(t + h) - body_velocity(t - h)) / (2 * h),
                                 np.zeros(3)])
        _, accel, _, _, _ = ned_state(x, nu_dot, G)
        r_ned_frd = T @ r @ F
        expected = r_ned_frd.T @ (T @ a_world - np.array([0.0, 0.0, G]))
        assert np.allclose(accel, expected, rtol=0, atol=1e-6), accel - expected
        # the turn matters: the omega x v term is far above the tolerance
        assert np.linalg.norm(np.cross(w, body_velocity(t))) > 1e-2


def test_lock_step_rules():
    ls = LockStep(peer_timeout_ns=1_000_000_000)
    ap, other = ('127.0.0.1', 40000), ('127.0.0.1', 40001)
    assert ls.classify(0, ap, 0) == STEP
    assert ls.classify(0, ap, 10) == REPEAT       # ArduPilot re-sent the frame
    assert ls.classify(1, ap, 20) == STEP
    assert ls.classify(4, ap, 30) == STEP         # frames 2 and 3 never came: a gap
    assert ls.counts['gaps'] == 1 and ls.counts['frames_skipped'] == 2
    assert ls.classify(5, other, 40) == FOREIGN   # a second sender while ArduPilot lives
    assert ls.peer == ap and ls.counts['foreign_packets'] == 1
    assert ls.classify(2, ap, 50) == RESET        # the count went back: restarted
    assert ls.classify(3, ap, 60) == STEP
    # ArduPilot restarted from a new port after a silence: it becomes the peer
    assert ls.silent_for_ns(60 + 1_000_000_000) == 1_000_000_000
    assert ls.classify(0, other, 60 + 1_000_000_000) == RESET
    assert ls.peer == other and ls.counts['peer_changes'] == 1
    assert dict(ls.counts) == {'frames': 6, 'repeats': 1, 'gaps': 1, 'frames_skipped': 2,
                               'foreign_packets': 1, 'resets': 2, 'peer_changes': 1}


def test_real_time_factor_leaves_out_silences_and_earlier_runs():
    """Physics time over the wall time run: a silence adds nothing, a restart forgets."""
    rtf = RealTimeFactor(silence_ns=1000)
    assert rtf.factor() is None
    for k in range(5):  # 5 frames 100 ns apart, each a step of 400 ns
        rtf.frame(100 * k, 400)
    assert rtf.factor() == pytest.approx(4 * 400 / 400, rel=1e-15)
    rtf.frame(400 + 5000, 400)  # after a silence: nothing ran in it
    rtf.frame(400 + 5200, 400)  # then 200 ns for a step of 400 ns
    assert rtf.factor() == pytest.approx(5 * 400 / 600, rel=1e-15)
    rtf.restart()  # ArduPilot restarted: the physics time is 0 again
    rtf.frame(10 ** 6, 400)
    assert rtf.factor() is None
    rtf.frame(10 ** 6 + 800, 400)
    assert rtf.factor() == pytest.approx(0.5, rel=1e-15)
