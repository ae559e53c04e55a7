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
Diagnostics tell the truth under sim time (issue 17, item 4).

Before, with ``use_sim_time`` and /clock stopped (a paused or crashed simulator) no
wrench was published, yet /diagnostics said "update loop: running" at OK and the
odometry input "ok" with age 0 (its age in the stopped clock).  Now /clock silent for
more than a second of wall time turns the update loop WARN "clock stalled" within 2 s
(at the default diagnostics period) with a log line, every input reports its age in
both clocks, the loop its measured rate and the real-time factor, and the status
returns to OK when /clock resumes.
"""
import time

from nodes.harness import diag_values, Probe, read_log, REPO, start_node
import pytest

pytestmark = pytest.mark.ros

VEHICLE = str(REPO / 'urdf' / 'dsros_vehicle.urdf.xacro')
PERIOD_NS = 10 ** 7


def _status(msg, part):
    return next((s for s in msg.status if part in s.name), None)


def test_stalled_clock_is_a_warning_within_two_seconds(rclpy_context, spawn, tmp_path):
    from builtin_interfaces.msg import Time
    from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus
    from geometry_msgs.msg import WrenchStamped
    from nav_msgs.msg import Odometry
    from rosgraph_msgs.msg import Clock
    proc, log = start_node(spawn, tmp_path, {'vehicle_file': VEHICLE, 'mode': 'wrench',
                                             'rate_hz': 50.0, 'use_sim_time': True})
    probe = Probe(rclpy_context)
    diags = []
    probe.node.create_subscription(
        DiagnosticArray, '/diagnostics', lambda m: diags.append((time.monotonic(), m)), 10)
    body = probe.collect(WrenchStamped, 'hydro/wrench', keep=2)
    clock_pub = probe.publisher(Clock, '/clock')
    odom_pub = probe.publisher(Odometry, 'odometry')
    odom = Odometry()
    odom.header.frame_id = 'odom'
    odom.child_frame_id = 'base_link'
    odom.pose.pose.position.z = -10.0
    odom.pose.pose.orientation.w = 1.0
    odom.twist.twist.linear.x = 0.5
    clock = {'ns': 100 * 10 ** 9}

    def tick():  # the simulator: /clock and odometry, in step
        clock['ns'] += PERIOD_NS
        ns = clock['ns']
        clock_pub.publish(Clock(clock=Time(sec=ns // 10 ** 9, nanosec=ns % 10 ** 9)))
        odom.header.stamp = Time(sec=ns // 10 ** 9, nanosec=ns % 10 ** 9)
        odom_pub.publish(odom)

    def loop_ok():
        return diags and _status(diags[-1][1], 'update loop').level == DiagnosticStatus.OK

    def odometry_ok():  # a report published after the first odometry arrived
        return diag_values(diags[-1][1], 'input odometry')['state'] == 'ok'

    assert probe.spin_until(lambda: body and loop_ok() and odometry_ok(), timeout=60.0,
                            proc=proc, log=log, action=tick), \
        'no wrench / update loop not OK / odometry not ok while running'
    # the loop's measured rate (per wall second) is the nominal one times the real-time
    # factor of /clock
    assert probe.spin_until(lambda: 'real_time_factor' in diag_values(
        diags[-1][1], 'update loop'), timeout=10.0, proc=proc, log=log, action=tick)
    loop = diag_values(diags[-1][1], 'update loop')
    assert float(loop['nominal_rate_hz']) == 50.0
    assert float(loop['real_time_factor']) > 0.1, loop
    assert float(loop['rate_hz']) / float(loop['real_time_factor']) == pytest.approx(50.0, 0.25)

    stopped = time.monotonic()  # the simulator pauses: no /clock, no odometry

    def stalled():
        status = diags and _status(diags[-1][1], 'update loop')
        return bool(status) and diags[-1][0] > stopped and status.level == \
            DiagnosticStatus.WARN and 'clock stalled' in status.message

    assert probe.spin_until(stalled, timeout=10.0, proc=proc, log=log), (
        'no "clock stalled": %s' % [(round(t - stopped, 2), _status(m, 'update loop').message)
                                    for t, m in diags if t > stopped])
    assert diags[-1][0] - stopped <= 2.0, 'WARN after %.2f s' % (diags[-1][0] - stopped)
    assert probe.spin_until(
        lambda: float(diag_values(diags[-1][1], 'input odometry')['age_wall_s']) > 1.0,
        timeout=10.0, proc=proc, log=log)
    odometry = diag_values(diags[-1][1], 'input odometry')
    assert float(odometry['age_s']) < 0.1  # nothing moves on the stopped clock ...
    assert odometry['state'] != 'ok'        # ... but the input is not fresh
    assert probe.spin_until(lambda: 'clock stalled' in read_log(log), timeout=5.0,
                            proc=proc, log=log), 'no "clock stalled" log line'

    # the simulator resumes: the warning clears
    assert probe.spin_until(lambda: loop_ok() and diags[-1][0] > time.monotonic() - 0.5,
                            timeout=30.0, proc=proc, log=log, action=tick), \
        'update loop not OK after /clock resumed'
    probe.close()
