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
ArduPilot's side of the JSON SITL lock step, as fast as it can go, and the UDP floor.

``measure(port, frames)`` sends servo packets the way ArduPilot does (SIM_JSON.cpp:
one packet per frame, then wait for the reply) and returns the frames per second and
the reply latencies; ``python sitl_json_probe.py echo PORT`` is the floor: a minimal
UDP server that answers every packet at once with a reply of the node's size, so the
two runs differ only by what the node does per frame.
"""
import os
import pathlib
import socket
import subprocess
import sys
import time

import numpy as np

from uwv_hydro.modes.messages.sitl_json_packet import pack_servo_packet

ROOT = pathlib.Path(__file__).resolve().parent.parent
VEHICLES = {'bluerov2': 'ardusub_bluerov2.yaml', 'bluerov2_heavy': 'ardusub_bluerov2_heavy.yaml'}

#: a reply of the node's length (its JSON for a vehicle in motion)
ECHO_REPLY = (b'\n{"timestamp":123.456789,"imu":{"gyro":[0.012345678901234,-0.0012345678901,'
              b'0.12345678901234],"accel_body":[0.12345678901234,-0.0123456789012,'
              b'-9.8112345678901]},"position":[12.345678901234,-3.4567890123456,'
              b'5.6789012345678],"quaternion":[0.70710678118654,0.0012345678901,'
              b'-0.0012345678901,0.70710678118654],"velocity":[1.2345678901234,'
              b'-0.0123456789012,0.0012345678901]}\n')


def measure(port, frames, rate=1200, pwm=(1600, 1600, 1400, 1400, 1500, 1500),
            first_timeout=60.0):
    """Return (frames per second, reply latencies in us) of ``frames`` lock-step frames."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(('127.0.0.1', 0))
    values = list(pwm)
    target = ('127.0.0.1', port)
    deadline = time.monotonic() + first_timeout
    sock.settimeout(0.5)
    while True:  # the first frame, until the server answers
        sock.sendto(pack_servo_packet(rate, 0, values), target)
        try:
            sock.recvfrom(65536)
            break
        except socket.timeout:
            if time.monotonic() > deadline:
                raise RuntimeError('no reply on UDP port %d' % port)
    sock.settimeout(5.0)
    lat = np.empty(frames)
    clock = time.perf_counter_ns
    start = clock()
    for k in range(frames):
        t0 = clock()
        sock.sendto(pack_servo_packet(rate, k + 1, values), target)
        sock.recvfrom(65536)
        lat[k] = clock() - t0
    wall = (clock() - start) * 1e-9
    sock.close()
    return frames / wall, lat / 1000.0


def echo(port):
    """Answer every datagram on ``port`` with ECHO_REPLY (the floor); runs until killed."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(('127.0.0.1', port))
    while True:
        data, sender = sock.recvfrom(65536)
        sock.sendto(ECHO_REPLY, sender)


def _free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def _stop(proc):
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def node_run(vehicle, frames):
    """Start the node as ArduPilot's JSON backend; return (frames/s, latencies in us)."""
    config = str(ROOT / 'config' / VEHICLES[vehicle])
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, '-m', 'uwv_hydro.node.main', '--ros-args', '--params-file', config,
         '-p', 'vehicle_file:=' + config, '-p', 'ardusub_input:=sitl_json',
         '-p', 'rate_hz:=1200.0', '-p', 'sitl_json_port:=%d' % port],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ))
    try:
        return measure(port, frames)
    finally:
        _stop(proc)


def echo_run(frames):
    """Start the UDP echo (the floor) in its own process; return (frames/s, latencies)."""
    port = _free_port()
    proc = subprocess.Popen([sys.executable, __file__, 'echo', str(port)])
    try:
        return measure(port, frames)
    finally:
        _stop(proc)


def bench(emit, quiet_check, frames, runs, vehicles=('bluerov2', 'bluerov2_heavy')):
    """
    Emit the lock-step figures of the node and of the echo floor, run after run.

    Per vehicle and run: frames per second through the node's backend and the reply
    latency p50 / p99 (us), the echo's in the same run, and their ratios; then the
    medians and ranges over the runs, and the ArduPilot speed-up the rate allows at
    1200 frames/s (ArduPilot's own time per frame not counted).
    """
    for vehicle in vehicles:
        per_run = []
        for run in range(runs):
            load, quiet = quiet_check('sitl_json %s run %d' % (vehicle, run + 1))
            fps, lat = node_run(vehicle, frames)
            floor_fps, floor_lat = echo_run(frames)
            rec = {'fps': fps, 'p50': float(np.percentile(lat, 50)),
                   'p99': float(np.percentile(lat, 99)), 'floor_fps': floor_fps,
                   'floor_p50': float(np.percentile(floor_lat, 50)),
                   'floor_p99': float(np.percentile(floor_lat, 99)), 'quiet': quiet,
                   'load': load}
            per_run.append(rec)
            emit('sitl_json_%s_run' % vehicle, fps, 'frames/s', **rec)
        quiet = all(r['quiet'] for r in per_run)
        for key, unit in (('fps', 'frames/s'), ('p50', 'us'), ('p99', 'us'),
                          ('floor_fps', 'frames/s'), ('floor_p50', 'us'), ('floor_p99', 'us')):
            values = [r[key] for r in per_run]
            emit('sitl_json_%s_%s' % (vehicle, key), float(np.median(values)), unit,
                 range=[min(values), max(values)], runs=runs, quiet=quiet)
        ratio = [r['fps'] / r['floor_fps'] for r in per_run]
        emit('sitl_json_%s_fps_vs_echo_ratio' % vehicle, float(np.median(ratio)), '',
             range=[min(ratio), max(ratio)], quiet=quiet)
        speedup = [r['fps'] / 1200.0 for r in per_run]
        emit('sitl_json_%s_max_speedup' % vehicle, float(np.median(speedup)), 'x',
             range=[min(speedup), max(speedup)], quiet=quiet)


if __name__ == '__main__':
    if len(sys.argv) == 3 and sys.argv[1] == 'echo':
        echo(int(sys.argv[2]))
