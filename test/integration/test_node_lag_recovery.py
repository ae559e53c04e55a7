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
After a stall the node catches up with the clock at a bounded rate, WARN meanwhile (issue 51).

Before, one 150 ms stall in wall-clock mode left the simulated time, and every stamp,
0.14 s behind the clock for good, and /diagnostics read OK again as soon as a window's
real-time factor was 1.  Now an update with fewer than ``max_catchup_steps`` steps due
also runs lagged steps, up to that limit, each a real step one period on, and
/diagnostics is WARN "behind the clock" while the lag is a period or more.

The node (50 Hz, ``max_catchup_steps`` 2: at most one lagged step per update) is
stopped for 1 s by SIGSTOP, as a machine that withholds the CPU: ~50 steps are due
at once, 2 run, ~48 are lagged (~0.96 s).  The vehicle coasts at 1 m/s with no surge force, so
x = x0 + u0 t tells the simulated time of every odometry message: it must be its
stamp, catch-up steps included, one period apart.  /diagnostics must report the lag
WARN while it lasts, the lag must never shrink by more than one step per update (the
bound), it must come back under one period, the status then no longer behind, and the
last stamps must be on the clock again.
"""
import os
import signal
import time

from nodes.harness import diag_values, Probe, read_log, start_node, TEST_IZZ, TEST_MASS, \
    TEST_N_R, TEST_VEHICLE
import numpy as np
import pytest

pytestmark = pytest.mark.ros

RATE_HZ = 50.0  # slow enough for a host several times slower than the project's
DT_NS = 20_000_000
CATCHUP = 2  # max_catchup_steps: one step due and one lagged step per update
STOP_S = 1.0
U0, X0 = 1.0, 3.0


def _stamp(msg) -> int:
    return msg.header.stamp.sec * 10 ** 9 + msg.header.stamp.nanosec


def test_the_lag_of_a_stall_is_recovered_at_a_bounded_rate_and_warned(
        rclpy_context, spawn, tmp_path):
    from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus
    from nav_msgs.msg import Odometry
    urdf = TEST_VEHICLE.format(mass=TEST_MASS, izz=TEST_IZZ, q_xxx=0.0, n_r=TEST_N_R)
    proc, log = start_node(spawn, tmp_path, {
        'robot_description': urdf, 'mode': 'simulate', 'rate_hz': RATE_HZ,
        'initial_position': [X0, 0.0, -10.0], 'initial_velocity': [U0, 0.0, 0.0, 0.0, 0.0, 0.0],
        'max_catchup_steps': CATCHUP, 'diagnostics_period': 0.1, 'publish_markers': False})
    probe = Probe(rclpy_context)
    clock = probe.node.get_clock()  # ROS time, as the node's stamps
    odom, received = [], []

    def on_odometry(msg):
        odom.append(msg)
        received.append(clock.now().nanoseconds)

    probe.node.create_subscription(Odometry, 'odometry', on_odometry, 20000)
    diags = probe.collect(DiagnosticArray, '/diagnostics', qos=1000)
    assert probe.spin_until(lambda: len(odom) > 100, timeout=60.0, proc=proc, log=log)
    try:
        os.kill(proc.pid, signal.SIGSTOP)  # the machine withholds the CPU
        time.sleep(STOP_S)
    finally:
        os.kill(proc.pid, signal.SIGCONT)
    stalled_at = len(diags)

    def loop(msg):
        return diag_values(msg, 'update loop')

    def lag(msg):
        return float(loop(msg).get('simulated_lag_s', 'nan'))

    def recovered():
        later = diags[stalled_at:]
        return any(lag(d) > 0.5 for d in later) and lag(later[-1]) < DT_NS * 1e-9
    assert probe.spin_until(recovered, timeout=60.0, proc=proc, log=log), \
        [loop(d) for d in diags[stalled_at:]][-3:]
    probe.spin_for(0.5)  # reports after the recovery, and the last odometry
    reports = [(loop(d), next(s for s in d.status if 'update loop' in s.name))
               for d in diags[stalled_at:] if loop(d)]
    lagging = [(v, s) for v, s in reports if float(v['simulated_lag_s']) >= DT_NS * 1e-9]
    # the stall left ~STOP_S behind (at least 0.5 s: a stop is >= 1 s, minus the steps run)
    assert max(float(v['simulated_lag_s']) for v, _ in lagging) > 0.5, lagging
    # WARN, "behind the clock", for as long as the lag lasts
    for values, status in lagging:
        assert status.level == DiagnosticStatus.WARN and 'behind the clock' in status.message, \
            (status.message, values)
    # the bound: never more than CATCHUP - 1 lagged steps run per update
    for (a, _), (b, _) in zip(reports, reports[1:]):
        shrunk = round((float(a['simulated_lag_s']) - float(b['simulated_lag_s'])) * 1e9 / DT_NS)
        updates = int(b['ticks']) - int(a['ticks'])
        assert shrunk <= (CATCHUP - 1) * updates, (a, b)
    last, status = reports[-1]
    assert int(last['recovered_steps']) >= 0.5 / (DT_NS * 1e-9), last
    # back on the clock: no longer "behind"; OK unless this loaded machine made a cycle
    # overrun in the window (its own WARN)
    assert 'behind' not in status.message, status.message
    assert status.level == DiagnosticStatus.OK or int(last['overruns_recent']) > 0, last
    assert 'back on the clock' in read_log(log)
    stamps = np.array([_stamp(m) for m in odom])
    x = np.array([m.pose.pose.position.x for m in odom])
    # every state is the simulated time of its stamp, catch-up steps included (RK4 is
    # exact on a constant velocity; 1e-9 m: rounding over 10^3 steps of 2 cm)
    t0 = stamps[0] - round((x[0] - X0) / U0 * 1e9)
    assert np.max(np.abs(x - (X0 + U0 * (stamps - t0) * 1e-9))) < 1e-9, \
        'a stamp claims time the state did not go through'
    gaps = np.diff(stamps)
    assert np.all(gaps == DT_NS), np.unique(gaps, return_counts=True)
    # the last stamps are on the clock again (the stall put them 1 s behind): the least
    # reception delay of the last 50 (a delayed reception only adds to it)
    delay = (np.array(received[-50:]) - stamps[-50:]) * 1e-9
    assert delay.min() < 0.25, delay.min()
    probe.close()
