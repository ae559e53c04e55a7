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
Bad input never crashes the node nor poisons the simulated state.

NaN/inf thrust, thrust in an unknown frame and stamps going backwards are dropped and
counted per reason in /diagnostics; good thrust keeps working alongside.
"""
import math

from nodes.harness import analytic_vehicle_urdf, diag_values, Probe, start_node, TEST_Q_XXX
import pytest

pytestmark = pytest.mark.ros


def test_bad_thrust_is_dropped_counted_and_state_stays_finite(
        rclpy_context, spawn, tmp_path):
    from diagnostic_msgs.msg import DiagnosticArray
    from geometry_msgs.msg import WrenchStamped
    from nav_msgs.msg import Odometry
    proc, log = start_node(spawn, tmp_path, {
        'robot_description': analytic_vehicle_urdf(), 'mode': 'simulate', 'rate_hz': 200.0,
        'initial_position': [0.0, 0.0, -10.0], 'thrust_topics': ['thrust', 'bad_thrust'],
        'diagnostics_period': 0.2})
    probe = Probe(rclpy_context)
    odom = probe.collect(Odometry, 'odometry', keep=5)
    diags = probe.collect(DiagnosticArray, '/diagnostics', keep=5)
    good_pub = probe.publisher(WrenchStamped, 'thrust')
    bad_pub = probe.publisher(WrenchStamped, 'bad_thrust')
    good = WrenchStamped()
    good.header.frame_id = 'base_link'
    good.wrench.force.x = 36.0
    nan = WrenchStamped()
    nan.header.frame_id = 'base_link'
    nan.wrench.force.x = float('nan')
    inf = WrenchStamped()
    inf.header.frame_id = 'thruster_port'
    inf.wrench.torque.y = float('-inf')
    unknown = WrenchStamped()
    unknown.header.frame_id = 'no_such_link'
    unknown.wrench.force.x = 1000.0
    newer = WrenchStamped()
    newer.header.frame_id = 'base_link'
    newer.header.stamp.sec = 100
    older = WrenchStamped()
    older.header.frame_id = 'base_link'
    older.header.stamp.sec = 99
    older.header.stamp.nanosec = 500000000
    older.wrench.force.x = 1000.0

    def publish():
        good_pub.publish(good)
        for msg in (nan, inf, unknown, newer, older):
            bad_pub.publish(msg)

    def drops():
        return diag_values(diags[-1], 'dropped messages') if diags else {}

    def counted():
        d = drops()
        reasons = ('non_finite', 'unknown_frame', 'stale_stamp')
        return all(int(d.get(k, 0)) >= 5 for k in reasons)

    expected = math.sqrt(36.0 / TEST_Q_XXX)
    assert probe.spin_until(
        lambda: counted() and odom and abs(odom[-1].twist.twist.linear.x - expected) < 1e-6,
        timeout=60.0, proc=proc, log=log, action=publish), (
        'drops %s, surge %s (expected %s)' % (drops(), odom[-1].twist.twist.linear.x
                                              if odom else None, expected))
    o = odom[-1]
    values = [o.pose.pose.position.x, o.pose.pose.position.y, o.pose.pose.position.z,
              o.twist.twist.linear.x, o.twist.twist.angular.y]
    assert all(math.isfinite(v) for v in values)
    text = open(log).read()
    assert 'non_finite' in text and 'unknown_frame' in text and 'stale_stamp' in text
    assert proc.poll() is None
    probe.close()


def test_non_finite_simulated_state_is_restored_and_counted(rclpy_context, spawn, tmp_path):
    from diagnostic_msgs.msg import DiagnosticArray
    from geometry_msgs.msg import WrenchStamped
    from nav_msgs.msg import Odometry
    proc, log = start_node(spawn, tmp_path, {
        'robot_description': analytic_vehicle_urdf(), 'mode': 'simulate', 'rate_hz': 100.0,
        'initial_position': [0.0, 0.0, -10.0], 'thrust_timeout': 0.3,
        'diagnostics_period': 0.2})
    probe = Probe(rclpy_context)
    odom = probe.collect(Odometry, 'odometry', keep=5)
    diags = probe.collect(DiagnosticArray, '/diagnostics', keep=5)
    pub = probe.publisher(WrenchStamped, 'thrust')
    huge = WrenchStamped()
    huge.wrench.force.x = 1e308  # finite, but the integration overflows

    def restores():
        if not diags:
            return 0
        return int(diag_values(diags[-1], 'update loop').get('state_restores', 0))

    assert probe.spin_until(lambda: restores() >= 3, timeout=60.0, proc=proc, log=log,
                            action=lambda: pub.publish(huge)), 'no state restore reported'
    assert probe.spin_until(lambda: odom, timeout=30.0, proc=proc, log=log)
    o = odom[-1]
    values = (o.pose.pose.position.x, o.twist.twist.linear.x, o.pose.pose.orientation.w)
    assert all(math.isfinite(v) for v in values)
    # once the bad thrust stops, normal thrust works again
    normal = WrenchStamped()
    normal.wrench.force.x = 16.0
    expected = math.sqrt(16.0 / TEST_Q_XXX)
    assert probe.spin_until(
        lambda: odom and abs(odom[-1].twist.twist.linear.x - expected) < 1e-6, timeout=60.0,
        proc=proc, log=log, action=lambda: pub.publish(normal))
    assert 'went non-finite' in open(log).read()
    probe.close()
