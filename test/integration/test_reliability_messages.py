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
Message faults against the running node (issue 9, item 3), table-driven.

Every float field of every input gets NaN, +inf and -inf; quaternions of length 0 and
1.3; unknown frames; stamps of year 2100, 0 and before 1970; 10k-message bursts; a
thruster publisher process killed with SIGKILL.  The node never exits, its outputs stay
finite and correct, and each bad message is counted in /diagnostics: exactly where
delivery is reliable (messages sent one at a time with a deep reliable writer queue),
and at most the number sent in bursts (the node's keep-last-10 reader queue may
overwrite samples it has not taken yet; the delivered share is printed).

Documented choices checked here: a quaternion with 0.5 < |q| < 2 is normalised and
used (event ``normalised_quaternions``), outside that it is dropped
(``bad_quaternion``); header stamps only order an input, so a far-future stamp is
accepted and the next normal stamp counts as a ``stamp_jump`` (input restarted).
"""
import math
import os
import signal

from nodes.harness import (analytic_vehicle_urdf, diag_values, Probe, REPO, start_node,
                           TEST_Q_XXX, TEST_VEHICLE)
import numpy as np
import pytest

pytestmark = pytest.mark.ros

BAD = (float('nan'), float('inf'), float('-inf'))
YEAR_2100 = 4102444800
THRUST_FIELDS = ['force.x', 'force.y', 'force.z', 'torque.x', 'torque.y', 'torque.z']
ODOM_FIELDS = (['pose.pose.position.' + a for a in 'xyz']
               + ['pose.pose.orientation.' + a for a in 'xyzw']
               + ['twist.twist.linear.' + a for a in 'xyz']
               + ['twist.twist.angular.' + a for a in 'xyz']
               + ['pose.covariance[%d]' % i for i in (0, 7, 21, 35)]
               + ['twist.covariance[%d]' % i for i in (0, 14, 35)])


def _reliable(depth=1000):
    from rclpy.qos import HistoryPolicy, QoSProfile, ReliabilityPolicy
    return QoSProfile(depth=depth, history=HistoryPolicy.KEEP_LAST,
                      reliability=ReliabilityPolicy.RELIABLE)


def _set(msg, path, value):
    """Set a dotted field (``a.b.c`` or ``a.covariance[i]``) of a message."""
    *parents, leaf = path.split('.')
    for name in parents:
        msg = getattr(msg, name)
    if leaf.endswith(']'):
        name, index = leaf[:-1].split('[')
        values = list(getattr(msg, name))
        values[int(index)] = value
        setattr(msg, name, values)
    else:
        setattr(msg, leaf, value)


def _stamp(msg, sec, nanosec=0):
    msg.header.stamp.sec, msg.header.stamp.nanosec = int(sec), int(nanosec)
    return msg


def _send_each(probe, pub, messages, proc, log):
    """Publish the messages one by one, spinning in between (reliable, in order)."""
    for msg in messages:
        pub.publish(msg)
        probe.spin_for(0.005)
        assert proc.poll() is None, open(log).read()


def _wait_counts(probe, diags, expected, proc, log, timeout=30.0):
    """Wait until every {(status part, key): count} is exactly reached in /diagnostics."""
    def got():
        if not diags:
            return {}
        return {k: int(diag_values(diags[-1], k[0]).get(k[1], 0)) for k in expected}
    ok = probe.spin_until(lambda: got() == expected, timeout=timeout, proc=proc, log=log)
    assert ok, 'counts %s, expected %s' % (got(), expected)


def test_simulate_mode_every_bad_field_is_dropped_and_counted(rclpy_context, spawn,
                                                              tmp_path):
    from diagnostic_msgs.msg import DiagnosticArray
    from geometry_msgs.msg import TwistStamped, Vector3Stamped, WrenchStamped
    from nav_msgs.msg import Odometry
    proc, log = start_node(spawn, tmp_path, {
        'robot_description': analytic_vehicle_urdf(), 'mode': 'simulate', 'rate_hz': 100.0,
        'initial_position': [0.0, 0.0, -10.0], 'thrust_topics': ['thrust', 'bad_thrust'],
        'diagnostics_period': 0.1, 'publish_markers': False, 'thrust_timeout': 5.0})
    probe = Probe(rclpy_context)
    odom = probe.collect(Odometry, 'odometry', keep=200)
    diags = probe.collect(DiagnosticArray, '/diagnostics', keep=3)
    good_pub = probe.publisher(WrenchStamped, 'thrust', _reliable())
    bad_pub = probe.publisher(WrenchStamped, 'bad_thrust', _reliable())
    current_pub = probe.publisher(Vector3Stamped, 'current', _reliable())
    twist_pub = probe.publisher(TwistStamped, 'current_twist', _reliable())
    good = WrenchStamped()
    good.wrench.force.x = 36.0
    assert probe.spin_until(lambda: odom and diags, timeout=60.0, proc=proc, log=log,
                            action=lambda: good_pub.publish(good))

    # NaN / +inf / -inf in each of the 6 thrust fields, then a thruster frame unknown
    bad = []
    for field in THRUST_FIELDS:
        for value in BAD:
            msg = WrenchStamped()
            msg.header.frame_id = 'thruster_port'
            _set(msg.wrench, field, value)
            bad.append(msg)
    unknown = WrenchStamped()
    unknown.header.frame_id = 'no_such_link'
    unknown.wrench.force.x = 1000.0
    # stamps: 1000 s, year 2100 (accepted), 1000 s (jump back: restart), 0 (never
    # compared), -1 s (jump back: restart), 1000 s, 999.5 s (stale: dropped)
    stamped = [_stamp(WrenchStamped(), s, ns) for s, ns in (
        (1000, 0), (YEAR_2100, 0), (1000, 0), (0, 0), (-1, 0), (1000, 0), (999, 5 * 10 ** 8))]
    for msg in stamped:
        msg.header.frame_id = 'base_link'
    _send_each(probe, bad_pub, bad + [unknown] + stamped, proc, log)
    currents = []
    for axis in 'xyz':
        for value in BAD:
            msg = Vector3Stamped()
            _set(msg.vector, axis, value)
            currents.append(msg)
    _send_each(probe, current_pub, currents, proc, log)
    twists = []
    for field in ['linear.' + a for a in 'xyz'] + ['angular.' + a for a in 'xyz']:
        msg = TwistStamped()
        _set(msg.twist, field, float('nan'))
        twists.append(msg)
    _send_each(probe, twist_pub, twists, proc, log)

    _wait_counts(probe, diags, {
        ('input bad_thrust', 'non_finite'): 18, ('input bad_thrust', 'unknown_frame'): 1,
        ('input bad_thrust', 'stamp_jump'): 2, ('input bad_thrust', 'stale_stamp'): 1,
        ('input bad_thrust', 'count'): 6, ('input current', 'non_finite'): 9,
        ('input current_twist', 'non_finite'): 6, ('input current_twist', 'count'): 0,
        ('dropped messages', 'total'): 18 + 1 + 2 + 1 + 9 + 6}, proc, log)

    # the good thrust alone still drives the vehicle to its exact terminal speed
    expected = math.sqrt(36.0 / TEST_Q_XXX)
    assert probe.spin_until(
        lambda: odom and abs(odom[-1].twist.twist.linear.x - expected) < 1e-6,
        timeout=60.0, proc=proc, log=log, action=lambda: good_pub.publish(good))
    _assert_finite_odometry(odom)
    assert abs(odom[-1].twist.twist.angular.z) < 1e-9, 'a dropped torque leaked in'

    # burst: 10k NaN thrust messages in a tight loop, then 10k good ones
    before = int(diag_values(diags[-1], 'input bad_thrust')['non_finite'])
    nan = bad[0]
    for _ in range(10000):
        bad_pub.publish(nan)
    burst_ok = WrenchStamped()
    burst_ok.header.frame_id = 'base_link'
    for _ in range(10000):
        bad_pub.publish(burst_ok)
    del odom[:]
    probe.spin_for(2.0, action=lambda: good_pub.publish(good))
    values = diag_values(diags[-1], 'input bad_thrust')
    counted = int(values['non_finite']) - before
    accepted = int(values['count']) - 6
    print('thrust burst: %d of 10000 NaN messages counted, %d of 10000 good accepted'
          % (counted, accepted))
    assert 0 < counted <= 10000 and 0 < accepted <= 10000
    assert proc.poll() is None
    assert probe.spin_until(
        lambda: odom and abs(odom[-1].twist.twist.linear.x - expected) < 1e-6,
        timeout=30.0, proc=proc, log=log, action=lambda: good_pub.publish(good))
    _assert_finite_odometry(odom)
    probe.close()


def _assert_finite_odometry(odom):
    for o in odom:
        p, q, t = o.pose.pose.position, o.pose.pose.orientation, o.twist.twist
        values = (p.x, p.y, p.z, q.x, q.y, q.z, q.w, t.linear.x, t.linear.y, t.linear.z,
                  t.angular.x, t.angular.y, t.angular.z)
        assert all(math.isfinite(v) for v in values), values
        assert abs(math.sqrt(q.x ** 2 + q.y ** 2 + q.z ** 2 + q.w ** 2) - 1.0) < 1e-9


def _tilted_vehicle():
    """Return the analytic test vehicle with the CoB 0.1 m above the origin."""
    return TEST_VEHICLE.format(mass=1.0, izz=0.1, q_xxx=TEST_Q_XXX, n_r=1.0).replace(
        '<center x="0" y="0" z="0"/>', '<center x="0" y="0" z="0.1"/>')


def _odometry(stamp_sec=0, scale=1.0, roll=0.3):
    from nav_msgs.msg import Odometry
    msg = Odometry()
    msg.header.frame_id = 'odom'
    msg.child_frame_id = 'base_link'
    _stamp(msg, stamp_sec)
    msg.pose.pose.position.z = -10.0
    o = msg.pose.pose.orientation
    o.w, o.x = scale * math.cos(roll / 2), scale * math.sin(roll / 2)
    msg.twist.twist.linear.x = 0.5
    return msg


def _wrench(w):
    return np.array([w.force.x, w.force.y, w.force.z, w.torque.x, w.torque.y, w.torque.z])


def test_wrench_mode_every_bad_odometry_field_quaternions_stamps_and_burst(
        rclpy_context, spawn, tmp_path):
    from diagnostic_msgs.msg import DiagnosticArray
    from geometry_msgs.msg import WrenchStamped
    from nav_msgs.msg import Odometry
    proc, log = start_node(spawn, tmp_path, {
        'robot_description': _tilted_vehicle(), 'mode': 'wrench', 'rate_hz': 100.0,
        'diagnostics_period': 0.1, 'publish_markers': False, 'odometry_timeout': 30.0})
    probe = Probe(rclpy_context)
    wrenches = probe.collect(WrenchStamped, 'hydro/wrench', keep=1000)
    diags = probe.collect(DiagnosticArray, '/diagnostics', keep=3)
    pub = probe.publisher(Odometry, 'odometry', _reliable())
    unit = _odometry()
    assert probe.spin_until(lambda: wrenches and diags, timeout=60.0, proc=proc, log=log,
                            action=lambda: pub.publish(unit))
    reference = _wrench(wrenches[-1].wrench)
    assert abs(reference[3]) > 0.05, 'the CoB offset gives a roll restoring torque'

    bad = []
    for field in ODOM_FIELDS:
        for value in BAD:
            msg = _odometry()
            _set(msg, field, value)
            bad.append(msg)
    zero = _odometry(scale=0.0)
    tiny = _odometry(scale=0.3)  # |q| = 0.3: not a rotation someone meant
    _send_each(probe, pub, bad + [zero, tiny], proc, log)
    # |q| = 1.3 is normalised and gives the unit quaternion's wrench
    del wrenches[:]
    long_q = _odometry(scale=1.3)
    _send_each(probe, pub, [long_q], proc, log)
    n_bad = 3 * len(ODOM_FIELDS)
    _wait_counts(probe, diags, {
        ('input odometry', 'non_finite'): n_bad, ('input odometry', 'bad_quaternion'): 2,
        ('update loop', 'normalised_quaternions'): 1, ('update loop', 'non_finite_outputs'): 0,
        ('dropped messages', 'total'): n_bad + 2}, proc, log)
    assert probe.spin_until(lambda: len(wrenches) >= 3, timeout=10.0, proc=proc, log=log)
    for w in wrenches:
        np.testing.assert_allclose(_wrench(w.wrench), reference, rtol=1e-12, atol=1e-12)

    # stamps: 1000 s, 2100 (accepted), 1000 s (restart), 0, -1 s (restart), 999.5 s (stale)
    stamped = [_odometry(s) for s in (1000, YEAR_2100, 1000, 0, -1, 1000)]
    late = _odometry(999)
    late.header.stamp.nanosec = 5 * 10 ** 8
    _send_each(probe, pub, stamped + [late], proc, log)
    _wait_counts(probe, diags, {('input odometry', 'stamp_jump'): 2,
                                ('input odometry', 'stale_stamp'): 1}, proc, log)
    del wrenches[:]
    probe.spin_for(0.3)
    assert wrenches
    for w in wrenches:
        assert np.all(np.isfinite(_wrench(w.wrench)))

    # burst: 10k odometry messages in a tight loop, every 10th with a NaN twist
    count_before = int(diag_values(diags[-1], 'input odometry')['count'])
    nan_before = int(diag_values(diags[-1], 'input odometry')['non_finite'])
    nan_odom = _odometry(2000)
    nan_odom.twist.twist.angular.z = float('nan')
    msgs = [_odometry(2000) for _ in range(9)]
    for k in range(1000):
        for i, msg in enumerate(msgs):
            msg.header.stamp.nanosec = (k * 10 + i) * 1000
            pub.publish(msg)
        nan_odom.header.stamp.nanosec = (k * 10 + 9) * 1000
        pub.publish(nan_odom)
    del wrenches[:]
    probe.spin_for(2.0)
    values = diag_values(diags[-1], 'input odometry')
    counted = int(values['non_finite']) - nan_before
    accepted = int(values['count']) - count_before
    print('odometry burst: %d of 1000 NaN counted, %d of 9000 good accepted'
          % (counted, accepted))
    assert 0 < counted <= 1000 and 0 < accepted <= 9000
    assert proc.poll() is None
    assert wrenches and all(np.all(np.isfinite(_wrench(w.wrench))) for w in wrenches)
    probe.close()


def test_killed_thruster_process_goes_stale_and_a_new_one_recovers(
        rclpy_context, spawn, tmp_path, python):
    from diagnostic_msgs.msg import DiagnosticArray
    from nav_msgs.msg import Odometry
    publisher = str(REPO / 'test' / 'helpers' / 'nodes' / 'thrust_publisher.py')
    thrust = 100.0
    terminal = math.sqrt(thrust / TEST_Q_XXX)
    proc, log = start_node(spawn, tmp_path, {
        'robot_description': analytic_vehicle_urdf(), 'mode': 'simulate', 'rate_hz': 100.0,
        'initial_position': [0.0, 0.0, -10.0], 'thrust_timeout': 0.3,
        'diagnostics_period': 0.1, 'publish_markers': False})
    probe = Probe(rclpy_context)
    odom = probe.collect(Odometry, 'odometry', keep=10)
    diags = probe.collect(DiagnosticArray, '/diagnostics', keep=3)
    driver = spawn([python, publisher, 'thrust', str(thrust)])

    def speed():
        return odom[-1].twist.twist.linear.x if odom else 0.0

    def watchdog():
        return diag_values(diags[-1], 'thrust watchdog').get('thrust') if diags else None

    def status(part):
        for s in diags[-1].status if diags else ():
            if part in s.name:
                return s
        return None

    assert probe.spin_until(lambda: speed() > 0.99 * terminal and watchdog() == 'ok',
                            timeout=60.0, proc=proc, log=log), 'thrust not applied'
    os.kill(driver.pid, signal.SIGKILL)
    driver.wait(timeout=10)
    assert probe.spin_until(lambda: watchdog() == 'stale' and speed() < 0.2 * terminal,
                            timeout=30.0, proc=proc, log=log), \
        'watchdog %s, speed %.3g after the publisher died' % (watchdog(), speed())
    wd = status('thrust watchdog')
    assert wd.level == wd.WARN and 'stale: thrust' in wd.message
    assert diag_values(diags[-1], 'input thrust')['state'] == 'stale'
    assert 'contributes zero' in open(log).read()
    spawn([python, publisher, 'thrust', str(thrust)])
    assert probe.spin_until(lambda: watchdog() == 'ok' and speed() > 0.99 * terminal,
                            timeout=60.0, proc=proc, log=log), 'no recovery'
    assert 'thrust is back' in open(log).read()
    _assert_finite_odometry(odom)
    assert proc.poll() is None
    probe.close()
