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
The node as ArduPilot's JSON SITL physics: lock step over UDP, frames, bad input.

The node runs config/ardusub_bluerov2.yaml as shipped with ``ardusub_input:
sitl_json``; the test is ArduPilot's side (test/helpers/ardupilot_json_peer.py, from
SIM_JSON.cpp's layout and parsing rules), sending servo packets and reading the replies
as ArduPilot does, while a probe reads the node's odometry and /diagnostics over DDS.

With a seabed file (an ESRI ASCII grid of a sloping plane whose CRS is the transverse
Mercator on the datum, so that its coordinates are the world's east and north) every
reply carries ``rng_1``, read back as SIM_JSON.cpp reads it and compared with the
plane's range written out from the reply's own position and attitude.
"""
import math
import re
import socket

from ardupilot_json_peer import Peer, servo_packet
from nodes.harness import diag_values, Probe, REPO, start_node
import numpy as np
import pytest
from required_modules import require
from uwv_hydro.description.loader import load_vehicle
from uwv_hydro.node.launch_commands.launch_command import stop_node
from uwv_hydro.physics.spatial.rotation import quat_to_matrix
import yaml

pytestmark = pytest.mark.ros

CONFIG = REPO / 'config' / 'ardusub_bluerov2.yaml'
RATE = 1200
PERIOD_S = round(1e9 / RATE) * 1e-9
#: the vehicle's gravity (its default: description/simulator_defaults)
G = load_vehicle(str(CONFIG)).gravity
T = np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, -1.0]])  # ENU <-> NED
F = np.diag([1.0, -1.0, -1.0])  # FLU <-> FRD
#: PWM of servos 1..6 (Motor1..6): forward, a little yaw and heave
PWM = [1400, 1400, 1620, 1600, 1560, 1540]


def _free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def _start(spawn, tmp_path, **extra):
    params = dict(yaml.safe_load(CONFIG.read_text())['/**']['ros__parameters'])
    params.pop('vehicle')
    port = _free_port()
    params.update(vehicle_file=str(CONFIG), initial_position=[0.0, 0.0, -10.0],
                  ardusub_input='sitl_json', rate_hz=float(RATE), sitl_json_port=port,
                  sitl_json_publish_rate=float(RATE), diagnostics_period=0.2)
    params.update(extra)
    params = {key: value for key, value in params.items() if value is not None}
    proc, log = start_node(spawn, tmp_path, params)
    return proc, log, port


def _first_reply(peer, proc, log):
    """Send frame 0 until the node answers (it binds while starting)."""
    for _ in range(120):
        assert proc.poll() is None, log.read_text()
        try:
            return peer.frame(0, PWM)
        except socket.timeout:
            continue
    raise AssertionError('no reply from the node: ' + log.read_text())


def _check_against_odometry(reply, odom):
    """Every reply field is the node's odometry of the same time, in NED / FRD."""
    p = odom.pose.pose.position
    q = odom.pose.pose.orientation
    v, w = odom.twist.twist.linear, odom.twist.twist.angular
    r = quat_to_matrix(np.array([q.w, q.x, q.y, q.z]))
    assert np.allclose(reply['position'], T @ [p.x, p.y, p.z], rtol=0, atol=1e-12)
    assert np.allclose(reply['velocity'], T @ r @ [v.x, v.y, v.z], rtol=0, atol=1e-12)
    assert np.allclose(reply['imu/gyro'], F @ [w.x, w.y, w.z], rtol=0, atol=1e-12)
    r_ned_frd = quat_to_matrix(np.array(reply['quaternion']))
    assert np.allclose(r_ned_frd, T @ r @ F, rtol=0, atol=1e-12)


def test_lock_step_frames_and_conversions(spawn, rclpy_context, tmp_path):
    from nav_msgs.msg import Odometry
    from rosgraph_msgs.msg import Clock
    proc, log, port = _start(spawn, tmp_path)
    probe = Probe(rclpy_context)
    peer = Peer(port, timeout=1.0)
    try:
        odom = probe.collect(Odometry, 'odometry', qos=1000)
        clock = probe.collect(Clock, '/clock')
        assert probe.spin_until(lambda: probe.node.count_publishers('odometry') > 0
                                and probe.node.count_publishers('/clock') > 0,
                                timeout=60.0, proc=proc, log=log)
        probe.spin_for(1.0)  # readers matched before the frames come
        replies = [_first_reply(peer, proc, log)[0]]
        for k in range(1, 240):
            replies.append(peer.frame(k, PWM)[0])
        # exactly one step of 1/rate per new frame: the physics time is the frame count
        stamps = np.array([r['timestamp'] for r in replies])
        assert np.allclose(stamps, PERIOD_S * np.arange(1, 241), rtol=0, atol=1e-12)
        # a repeated frame gets the last reply again, without a step
        again, raw = peer.frame(239, PWM)
        assert again == replies[-1]
        # the thrusters moved it: forward (Motor1-2 below 1500, Motor3-4 above) and down
        body_v = quat_to_matrix(np.array(replies[-1]['quaternion'])).T @ replies[-1]['velocity']
        assert body_v[0] > 1e-3
        # accel_body is the specific force: the central difference of the NED velocity
        # minus gravity, in FRD.  Its error is O(dt^2) of the jerk, below 1e-4 m/s^2, but
        # the thrust changes from one frame to the next while the rotors spin up, and the
        # difference averages the two steps around a state: allowed that change on top
        accel = np.array([r['imu/accel_body'] for r in replies])
        for k in range(1, 239):
            a_ned = (np.array(replies[k + 1]['velocity'])
                     - np.array(replies[k - 1]['velocity'])) / (2 * PERIOD_S)
            r_ned_frd = quat_to_matrix(np.array(replies[k]['quaternion']))
            f = r_ned_frd.T @ (a_ned - [0.0, 0.0, G])
            tol = 1e-4 + np.max(np.abs(accel[k + 1] - accel[k - 1]))
            assert np.allclose(accel[k], f, rtol=0, atol=tol), (k, accel[k] - f, tol)
        # level and nearly at rest at first: the accelerometer reads about -g down
        assert abs(replies[1]['imu/accel_body'][2] + G) < 0.2
        # every reply is the node's odometry of that time (published every frame here)
        assert probe.spin_until(lambda: len(odom) >= 241, timeout=30.0, proc=proc, log=log)
        by_stamp = {round(m.header.stamp.sec + m.header.stamp.nanosec * 1e-9, 9): m
                    for m in odom}
        for reply in replies:
            _check_against_odometry(reply, by_stamp[round(reply['timestamp'], 9)])
        # /clock is the physics time
        assert probe.spin_until(lambda: clock and abs(
            clock[-1].clock.sec + clock[-1].clock.nanosec * 1e-9 - stamps[-1]) < 1e-9,
            timeout=10.0, proc=proc, log=log)
        # ArduPilot restarted (the count goes back): initial state at physics time 0
        restart, _ = peer.frame(3, [1500] * 6)
        assert restart['timestamp'] == pytest.approx(PERIOD_S, abs=1e-12)
        assert restart['position'] == pytest.approx([0.0, 0.0, 10.0], abs=1e-6)
    finally:
        peer.close()
        probe.close()
        stop_node(proc)


def test_bad_input_is_counted_never_fatal(spawn, rclpy_context, tmp_path):
    from diagnostic_msgs.msg import DiagnosticArray
    proc, log, port = _start(spawn, tmp_path, sitl_json_timeout=1.0)
    probe = Probe(rclpy_context)
    peer, intruder = Peer(port, timeout=1.0), Peer(port, timeout=0.1)
    name = 'input sitl_json udp 127.0.0.1:%d' % port
    try:
        diags = probe.collect(DiagnosticArray, '/diagnostics', keep=3)
        first = _first_reply(peer, proc, log)[0]
        peer.sock.settimeout(0.1)  # all of these within sitl_json_timeout of that frame
        good = servo_packet(RATE, 1, PWM)
        bad = {'bad_magic': b'\xff\xff' + good[2:], 'bad_size': good[:-2],
               'bad_frame_rate': servo_packet(0, 1, PWM)}
        for data in list(bad.values()) + [good + b'\0\0']:
            peer.send(data)
            with pytest.raises(socket.timeout):  # no reply, and no step
                peer.reply()
        # a second sender while ArduPilot is alive: ignored
        with pytest.raises(socket.timeout):
            intruder.frame(1, PWM)
        # PWM outside [1000, 2000] us is clamped, and the frame still steps
        peer.sock.settimeout(1.0)
        stepped, _ = peer.frame(1, [2500, 900] + PWM[2:])
        assert stepped['timestamp'] == pytest.approx(first['timestamp'] + PERIOD_S, abs=1e-12)
        # a silence longer than sitl_json_timeout is reported; the vehicle waits
        probe.spin_for(1.6)
        after, _ = peer.frame(2, PWM)
        assert after['timestamp'] == pytest.approx(first['timestamp'] + 2 * PERIOD_S,
                                                   abs=1e-12)

        def counted():
            if not diags:
                return False
            values = diag_values(diags[-1], name)
            return (int(values.get('bad_magic', 0)) == 1 and int(values.get('bad_size', 0)) == 2
                    and int(values.get('bad_frame_rate', 0)) == 1
                    and int(values.get('foreign_sender', 0)) == 1
                    and int(values.get('pwm_clamped', 0)) == 2
                    and int(values.get('silences', 0)) == 1 and int(values.get('frames', 0)) == 3)
        assert probe.spin_until(counted, timeout=20.0, proc=proc, log=log), (
            diag_values(diags[-1], name) if diags else 'no diagnostics')
        assert proc.poll() is None
        # /diagnostics is stamped on the node's clock: the physics time (3 frames), not wall
        stamp = diags[-1].header.stamp
        assert stamp.sec == 0 and stamp.nanosec <= 3 * round(1e9 / RATE)
        text = log.read_text()
        for reason in ('bad_magic', 'bad_size', 'bad_frame_rate', 'foreign_sender',
                       'clamped', 'no servo packet'):
            assert reason in text, reason
        assert math.isfinite(after['position'][2])
    finally:
        peer.close()
        intruder.close()
        probe.close()
        stop_node(proc)


def test_real_time_factor_counts_only_the_run_since_the_restart(spawn, rclpy_context,
                                                                tmp_path):
    """
    The real-time factor is physics time over the wall time the frames ran.

    A first run, a silence longer than ``sitl_json_timeout``, then ArduPilot restarts
    (frame count back to 0) and sends M frames.  The M - 1 steps after the restart's
    first frame ran within the wall time from the restart's send to the reading of the
    diagnostics, so the factor is at least (M - 1) dt over that time -- whatever the
    machine's speed.  Counting the first run and the silence (before the fix) gave a
    factor below it.  A later silence adds no run time: the factor stays as it was.
    """
    import time
    from diagnostic_msgs.msg import DiagnosticArray
    proc, log, port = _start(spawn, tmp_path, sitl_json_timeout=0.5)
    probe = Probe(rclpy_context)
    peer = Peer(port, timeout=1.0)
    name = 'input sitl_json udp 127.0.0.1:%d' % port
    m = 60
    try:
        diags = probe.collect(DiagnosticArray, '/diagnostics', keep=50)
        _first_reply(peer, proc, log)
        for k in range(1, 120):
            peer.frame(k, PWM)
        probe.spin_for(2.0)  # a silence of 4 sitl_json_timeout
        t0 = time.monotonic()
        for k in range(m):  # the restart: frame 0 again
            peer.frame(k, PWM)

        def values():
            return diag_values(diags[-1], name) if diags else {}

        def after_restart():
            v = values()
            return ('real_time_factor' in v
                    # the value is rounded in /diagnostics: within half a step is frame m
                    and abs(float(v['physics_time_s']) - m * PERIOD_S) < 0.5 * PERIOD_S)
        assert probe.spin_until(after_restart, timeout=20.0, proc=proc, log=log), str(sorted(
            values().items()))[-600:]
        elapsed = time.monotonic() - t0
        factor = float(values()['real_time_factor'])
        assert factor >= (m - 1) * PERIOD_S / elapsed, (factor, elapsed)
        # ArduPilot silent again: the factor does not fall
        first = len(diags)
        assert probe.spin_until(lambda: len(diags) >= first + 5, timeout=20.0, proc=proc,
                                log=log)
        assert float(values()['real_time_factor']) == pytest.approx(factor, rel=1e-12)
    finally:
        peer.close()
        probe.close()
        stop_node(proc)


def test_without_rate_hz_the_step_follows_ardupilots_frame_rate(spawn, rclpy_context,
                                                                tmp_path):
    """
    Without rate_hz each run steps 1/frame_rate of its first frame (SIM_RATE_HZ).

    ArduPilot's JSON backend sends its loop rate (SIM_RATE_HZ, 1200 by default) as
    frame_rate and adapts its frames to the replies' timestamps: before the fix the
    node's 100 Hz default made the real ArduSub fly at 100 frames/s.  A restart at
    another rate (ArduSub relaunched with SIM_RATE_HZ 400) starts a run at that rate.
    """
    from diagnostic_msgs.msg import DiagnosticArray
    proc, log, port = _start(spawn, tmp_path, rate_hz=None)
    probe = Probe(rclpy_context)
    peer = Peer(port, timeout=1.0)
    name = 'input sitl_json udp 127.0.0.1:%d' % port
    try:
        diags = probe.collect(DiagnosticArray, '/diagnostics', keep=3)
        stamps = [_first_reply(peer, proc, log)[0]['timestamp']]
        for k in range(1, 20):
            stamps.append(peer.frame(k, PWM, frame_rate=RATE)[0]['timestamp'])
        assert np.allclose(stamps, PERIOD_S * np.arange(1, 21), rtol=0, atol=1e-12)
        # ArduPilot restarted with SIM_RATE_HZ 400: frame 0 again, 400 frames/s
        period_400 = round(1e9 / 400) * 1e-9
        stamps = [peer.frame(k, PWM, frame_rate=400)[0]['timestamp'] for k in range(20)]
        assert np.allclose(stamps, period_400 * np.arange(1, 21), rtol=0, atol=1e-12)

        def counted():
            values = diag_values(diags[-1], name) if diags else {}
            return int(values.get('resets', 0)) == 1 and int(values.get('frames', 0)) == 40
        assert probe.spin_until(counted, timeout=20.0, proc=proc, log=log)
        assert int(diag_values(diags[-1], name)['frame_rate_mismatch']) == 0
        assert 'ArduPilot runs 400 frames per second' in log.read_text()
    finally:
        peer.close()
        probe.close()
        stop_node(proc)


#: the sloping seabed of the rangefinder test: z = Z0 + GX x + GY y (ENU, m)
ORIGIN = (43.1, 5.9)
Z0, GX, GY = -30.0, 0.1, -0.05


def write_plane_asc(path, z0=Z0, gx=GX, gy=GY, half=100.0, step=1.0, origin=ORIGIN):
    """Write an ESRI ASCII grid of z0 + gx x + gy y in the tangent plane at ``origin``."""
    n = int(round(2 * half / step)) + 1
    x = -half + step * np.arange(n)
    rows = [' '.join(repr(float(z0 + gx * xi + gy * yj)) for xi in x) for yj in x[::-1]]
    path.write_text('ncols %d\nnrows %d\nxllcenter %r\nyllcenter %r\ncellsize %r\n%s\n'
                    % (n, n, -half, -half, step, '\n'.join(rows)))
    path.with_suffix('.prj').write_text(
        '+proj=tmerc +lat_0=%r +lon_0=%r +k=1 +x_0=0 +y_0=0 +ellps=WGS84 +units=m +no_defs'
        % origin)


def test_rng_1_is_the_range_to_the_seabed_file(spawn, rclpy_context, tmp_path):
    """
    rng_1: the beam from the lever arm to the sloping seabed, at its own rate.

    The vehicle starts pitched and rolled, 10 m deep; the beam starts 0.1 m ahead of
    and 0.15 m below the origin and looks down, tilted forward.  Each new reading is
    the range t = (s_z - Z0 - GX s_x - GY s_y) / (GX d_x + GY d_y - d_z) of the start s
    = p + R r and direction d = R u of the reply it first appears in; a reading lasts
    1/sitl_json_rangefinder_rate s of physics time (here 4 frames) and no longer.
    """
    require('pyproj')
    asc = tmp_path / 'slope.asc'
    write_plane_asc(asc)
    lever, beam = np.array([0.1, 0.0, -0.15]), np.array([0.2, 0.0, -1.0])
    rate = 300.0
    proc, log, port = _start(spawn, tmp_path, seabed_file=str(asc),
                             seabed_origin='%r,%r' % ORIGIN,
                             initial_orientation_rpy=[0.15, -0.25, 0.4],
                             initial_velocity=[0.3, 0.0, 0.1, 0.0, 0.0, 0.0],
                             sitl_json_rangefinder_position=lever.tolist(),
                             sitl_json_rangefinder_direction=beam.tolist(),
                             sitl_json_rangefinder_rate=rate)
    peer = Peer(port, timeout=1.0)
    try:
        frames = [_first_reply(peer, proc, log)]
        for k in range(1, 120):
            frames.append(peer.frame(k, PWM))
        u = beam / np.linalg.norm(beam)
        changes, last = [], None
        for k, (reply, raw) in enumerate(frames):
            assert 'rng_1' in reply, reply
            # a new reading: the text's double changes (the float ArduPilot keeps may not)
            text = re.search(rb'"rng_1":([^,}]+)', raw).group(1)
            if text == last:
                continue
            last = text
            changes.append(reply['timestamp'])
            r = T @ quat_to_matrix(np.array(reply['quaternion'])) @ F  # body FLU -> ENU
            start = T @ np.array(reply['position']) + r @ lever
            d = r @ u
            expected = (start[2] - Z0 - GX * start[0] - GY * start[1]) / (
                GX * d[0] + GY * d[1] - d[2])
            # ArduPilot keeps a float: half an ulp of single precision, and the plane's
            # cast to 1e-9 m
            assert reply['rng_1'] == pytest.approx(expected, rel=2.0 ** -24, abs=1e-9), k
        # a new reading every 1/rate s of physics time (the frames fall on it to a frame)
        gaps = np.diff(changes)
        assert len(changes) >= 119 * PERIOD_S * rate - 1
        assert np.all(gaps > 1 / rate - PERIOD_S - 1e-9) and np.all(gaps < 1 / rate + PERIOD_S)
        assert 'rangefinder 1 (rng_1, RNGFND1_TYPE 100)' in log.read_text()
    finally:
        peer.close()
        stop_node(proc)


def test_rng_1_over_a_flat_seabed_is_height_over_cos(spawn, rclpy_context, tmp_path):
    """
    A flat seabed file 30 m deep, the default beam (the origin, straight down), pitched.

    ArduPilot reads h / (cos roll cos pitch), h = 30 m - the depth, roll and pitch those
    of the reply's own quaternion (ZYX Euler angles of FRD -> NED); by default (20 Hz)
    the 120 frames of 0.1 s hold two readings.
    """
    require('pyproj')
    asc = tmp_path / 'flat.asc'
    write_plane_asc(asc, gx=0.0, gy=0.0)
    proc, log, port = _start(spawn, tmp_path, seabed_file=str(asc),
                             seabed_origin='%r,%r' % ORIGIN,
                             initial_orientation_rpy=[0.0, 0.3, -0.6])
    peer = Peer(port, timeout=1.0)
    try:
        frames = [_first_reply(peer, proc, log)]
        for k in range(1, 120):
            frames.append(peer.frame(k, PWM))
        readings, last = 0, None
        for reply, raw in frames:
            text = re.search(rb'"rng_1":([^,}]+)', raw).group(1)
            if text == last:
                continue
            last, readings = text, readings + 1
            w, x, y, z = reply['quaternion']
            pitch = math.asin(-2 * (x * z - w * y))
            roll = math.atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y))
            expected = (-Z0 - reply['position'][2]) / (math.cos(roll) * math.cos(pitch))
            # still pitched: +0.3 rad about FLU's y (left) is nose down, -0.3 in FRD
            assert abs(pitch + 0.3) < 0.05
            assert reply['rng_1'] == pytest.approx(expected, rel=2.0 ** -24, abs=1e-9)
        assert readings == 2
    finally:
        peer.close()
        stop_node(proc)


def test_no_seabed_file_no_rng_1_and_a_bad_beam_is_refused(spawn, rclpy_context, tmp_path):
    proc, log, port = _start(spawn, tmp_path)
    peer = Peer(port, timeout=1.0)
    try:
        reply, raw = _first_reply(peer, proc, log)
        assert b'rng_' not in raw and 'rng_1' not in reply
    finally:
        peer.close()
        stop_node(proc)
    require('pyproj')
    asc = tmp_path / 'slope.asc'
    write_plane_asc(asc)
    (tmp_path / 'bad').mkdir()
    proc, log, port = _start(spawn, tmp_path / 'bad', seabed_file=str(asc),
                             seabed_origin='%r,%r' % ORIGIN,
                             sitl_json_rangefinder_direction=[0.0, 0.0, 0.0])
    try:
        assert proc.wait(timeout=60) != 0
        assert 'rangefinder direction [0.0, 0.0, 0.0]: not a direction' in log.read_text()
    finally:
        stop_node(proc)
