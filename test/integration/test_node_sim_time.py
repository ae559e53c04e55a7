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
use_sim_time: the test drives /clock; stamps follow it and a backwards jump resets.

A looping bag replays /clock from the start again: the node must reset like a tf2
buffer (state re-initialised, watchdog timestamps cleared) and carry on.
"""
from nodes.harness import analytic_vehicle_urdf, diag_values, Probe, start_node
import pytest

pytestmark = pytest.mark.ros

PERIOD_NS = 10 ** 7


def _ns(stamp):
    return stamp.sec * 10 ** 9 + stamp.nanosec


def test_sim_time_drives_updates_and_backward_jump_resets(rclpy_context, spawn, tmp_path):
    from builtin_interfaces.msg import Time
    from diagnostic_msgs.msg import DiagnosticArray
    from nav_msgs.msg import Odometry
    from rosgraph_msgs.msg import Clock
    proc, log = start_node(spawn, tmp_path, {
        'robot_description': analytic_vehicle_urdf(), 'mode': 'simulate', 'rate_hz': 100.0,
        'use_sim_time': True, 'initial_position': [0.0, 0.0, -10.0],
        'initial_velocity': [1.0, 0.0, 0.0, 0.0, 0.0, 0.0], 'diagnostics_period': 0.2})
    probe = Probe(rclpy_context)
    odom = probe.collect(Odometry, 'odometry')
    diags = probe.collect(DiagnosticArray, '/diagnostics', keep=5)
    clock_pub = probe.publisher(Clock, '/clock')
    published = set()
    clock = {'ns': 1000 * 10 ** 9}

    def tick():
        ns = clock['ns']
        published.add(ns)
        clock_pub.publish(Clock(clock=Time(sec=ns // 10 ** 9, nanosec=ns % 10 ** 9)))
        clock['ns'] += PERIOD_NS

    assert probe.spin_until(lambda: len(odom) >= 30, timeout=60.0, proc=proc, log=log,
                            action=tick), 'no odometry under sim time'
    stamps = [_ns(m.header.stamp) for m in odom]
    assert all(s in published for s in stamps), 'odometry stamps are not /clock times'
    assert stamps == sorted(stamps)
    before = odom[-1]
    assert before.pose.pose.position.x > 0.05
    assert before.twist.twist.linear.x < 0.95

    # the bag loops: /clock jumps back by 500 s
    clock['ns'] = 500 * 10 ** 9
    del odom[:]
    assert probe.spin_until(
        lambda: any(_ns(m.header.stamp) < 600 * 10 ** 9 for m in odom), timeout=60.0,
        proc=proc, log=log, action=tick), 'no odometry after the clock jumped back'
    first = next(m for m in odom if _ns(m.header.stamp) < 600 * 10 ** 9)
    assert _ns(first.header.stamp) in published
    assert abs(first.pose.pose.position.x) < 0.05, 'state not re-initialised'
    assert first.twist.twist.linear.x > 0.95
    assert probe.spin_until(
        lambda: diags and int(diag_values(diags[-1], 'update loop').get('clock_resets', 0)) >= 1,
        timeout=30.0, proc=proc, log=log, action=tick), 'clock reset not reported'
    probe.close()
