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
Simulate mode over real DDS: thrust in, odometry and TF out, checked against analytics.

The test vehicle (nodes/harness.py) has all reference points at the origin, neutral
buoyancy and no added mass, so steady states are exact: surge terminal speed
sqrt(F / Q_xxx) and yaw rate T_z / N_r.  Values are compared at steady state, which
does not depend on how fast this loaded machine runs the node.
"""
import math

from nodes.harness import (analytic_vehicle_urdf, diag_values, Probe, start_node, TEST_N_R,
                           TEST_Q_XXX)
import pytest

pytestmark = pytest.mark.ros


def _params(**extra):
    params = {'robot_description': analytic_vehicle_urdf(), 'mode': 'simulate',
              'rate_hz': 200.0, 'initial_position': [0.0, 0.0, -10.0],
              'publish_markers': False}
    params.update(extra)
    return params


def _wrench(frame, fx=0.0, fy=0.0, tz=0.0):
    from geometry_msgs.msg import WrenchStamped
    msg = WrenchStamped()
    msg.header.frame_id = frame
    msg.wrench.force.x = fx
    msg.wrench.force.y = fy
    msg.wrench.torque.z = tz
    return msg


def test_constant_surge_thrust_reaches_quadratic_drag_terminal_speed(
        rclpy_context, spawn, tmp_path):
    from geometry_msgs.msg import WrenchStamped
    from nav_msgs.msg import Odometry
    from tf2_msgs.msg import TFMessage
    thrust = 100.0
    expected = math.sqrt(thrust / TEST_Q_XXX)
    proc, log = start_node(spawn, tmp_path, _params())
    probe = Probe(rclpy_context)
    odom = probe.collect(Odometry, 'odometry', keep=400)
    tf = probe.collect(TFMessage, '/tf', qos=100, keep=400)
    pub = probe.publisher(WrenchStamped, 'thrust')
    msg = _wrench('base_link', fx=thrust)
    converged = probe.spin_until(
        lambda: odom and abs(odom[-1].twist.twist.linear.x - expected) < 1e-6 * expected,
        timeout=60.0, proc=proc, log=log, action=lambda: pub.publish(msg))
    assert odom, 'no odometry'
    last = odom[-1]
    assert converged, 'surge %.9g, expected sqrt(F/Q) = %.9g' % (
        last.twist.twist.linear.x, expected)
    assert last.header.frame_id == 'odom'
    assert last.child_frame_id == 'base_link'
    assert abs(last.twist.twist.linear.y) < 1e-9 and abs(last.twist.twist.angular.z) < 1e-9
    assert abs(last.pose.pose.position.z + 10.0) < 1e-9, 'neutral vehicle changed depth'
    assert last.pose.pose.position.x > 0.0
    cov = list(last.pose.covariance)
    assert cov[0] == cov[35] == 1e-6 and cov[1] == 0.0
    # TF odom -> base_link carries exactly the odometry pose of the same stamp
    by_stamp = {(m.header.stamp.sec, m.header.stamp.nanosec): m for m in odom}
    matched = 0
    for message in tf:
        for t in message.transforms:
            o = by_stamp.get((t.header.stamp.sec, t.header.stamp.nanosec))
            if o is None:
                continue
            assert (t.header.frame_id, t.child_frame_id) == ('odom', 'base_link')
            p, q = o.pose.pose.position, o.pose.pose.orientation
            assert (t.transform.translation.x, t.transform.translation.y,
                    t.transform.translation.z) == (p.x, p.y, p.z)
            assert (t.transform.rotation.x, t.transform.rotation.y, t.transform.rotation.z,
                    t.transform.rotation.w) == (q.x, q.y, q.z, q.w)
            matched += 1
    assert matched > 10, 'TF and odometry stamps never matched'
    probe.close()


def test_thruster_lever_arm_gives_steady_yaw_rate(rclpy_context, spawn, tmp_path):
    """thruster_stern (1 m aft, turned +90 deg) pushing along its x: T_z = -F, r = -F/N_r."""
    from geometry_msgs.msg import WrenchStamped
    from nav_msgs.msg import Odometry
    force = 0.8
    expected = -force * 1.0 / TEST_N_R
    proc, log = start_node(spawn, tmp_path, _params())
    probe = Probe(rclpy_context)
    odom = probe.collect(Odometry, 'odometry', keep=10)
    pub = probe.publisher(WrenchStamped, 'thrust')
    msg = _wrench('thruster_stern', fx=force)
    converged = probe.spin_until(
        lambda: odom and abs(odom[-1].twist.twist.angular.z - expected) < 1e-6,
        timeout=60.0, proc=proc, log=log, action=lambda: pub.publish(msg))
    assert odom, 'no odometry'
    assert converged, 'yaw rate %.9g, expected %.9g' % (odom[-1].twist.twist.angular.z,
                                                        expected)
    twist = odom[-1].twist.twist
    assert abs(twist.angular.x) < 1e-9 and abs(twist.angular.y) < 1e-9
    probe.close()


def test_watchdog_zeroes_silent_thrust_and_recovers(rclpy_context, spawn, tmp_path):
    from diagnostic_msgs.msg import DiagnosticArray
    from geometry_msgs.msg import WrenchStamped
    from nav_msgs.msg import Odometry
    thrust = 100.0
    terminal = math.sqrt(thrust / TEST_Q_XXX)
    proc, log = start_node(spawn, tmp_path, _params(thrust_timeout=0.3,
                                                    diagnostics_period=0.2))
    probe = Probe(rclpy_context)
    odom = probe.collect(Odometry, 'odometry', keep=10)
    diags = probe.collect(DiagnosticArray, '/diagnostics', keep=5)
    pub = probe.publisher(WrenchStamped, 'thrust')
    msg = _wrench('', fx=thrust)  # empty frame_id: base frame

    def speed():
        return odom[-1].twist.twist.linear.x if odom else 0.0

    assert probe.spin_until(lambda: speed() > 0.99 * terminal, timeout=60.0, proc=proc,
                            log=log, action=lambda: pub.publish(msg)), 'thrust not applied'

    def watchdog_is(state):
        return diags and diag_values(diags[-1], 'thrust watchdog').get('thrust') == state

    # silence: the thrust drops out after the timeout and drag slows the vehicle
    assert probe.spin_until(lambda: speed() < 0.2 * terminal and watchdog_is('stale'),
                            timeout=30.0, proc=proc, log=log), \
        'speed %.3g with the thrust topic silent, watchdog %s' % (
            speed(), diag_values(diags[-1], 'thrust watchdog') if diags else None)
    assert 'contributes zero' in open(log).read()
    # messages return: the topic recovers
    assert probe.spin_until(lambda: speed() > 0.9 * terminal and watchdog_is('ok'),
                            timeout=30.0, proc=proc, log=log,
                            action=lambda: pub.publish(msg)), 'thrust did not recover'
    probe.close()


def test_reset_service_reinitialises_the_state(rclpy_context, spawn, tmp_path):
    from geometry_msgs.msg import WrenchStamped
    from nav_msgs.msg import Odometry
    from std_srvs.srv import Trigger
    proc, log = start_node(spawn, tmp_path, _params(initial_orientation_rpy=[0.0, 0.0, 0.5]))
    probe = Probe(rclpy_context)
    odom = probe.collect(Odometry, 'odometry', keep=10)
    pub = probe.publisher(WrenchStamped, 'thrust')
    msg = _wrench('base_link', fx=50.0)
    assert probe.spin_until(lambda: odom and odom[-1].pose.pose.position.x > 0.5,
                            timeout=60.0, proc=proc, log=log, action=lambda: pub.publish(msg))
    client = probe.node.create_client(Trigger, 'uwv_hydro/reset')
    assert probe.spin_until(client.service_is_ready, timeout=30.0, proc=proc, log=log)
    future = client.call_async(Trigger.Request())
    assert probe.spin_until(future.done, timeout=30.0, proc=proc, log=log)
    assert future.result().success
    del odom[:]
    # no thrust any more: the first odometry after the reset is the initial state
    # (odometry still in flight from before the reset may come first)
    assert probe.spin_until(lambda: odom and abs(odom[-1].pose.pose.position.x) < 0.05,
                            timeout=30.0, proc=proc, log=log), 'position not reset'
    assert abs(odom[-1].pose.pose.orientation.z - math.sin(0.25)) < 1e-6
    probe.close()
