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
Fins over DDS: the node flies the REMUS-like vehicle from Float64 fin commands.

The test drives /clock one update at a time (use_sim_time): it reads the odometry of
update k, runs the autopilot of test/helpers/fin_flight.py on it, publishes the four fin angle
commands and then the clock of update k + 1.  The node's trajectory must equal the
offline flight (SimulateMode + FinServos, the same autopilot) to rounding.
"""
import math
import os
import pathlib

from fin_flight import (Autopilot, CRUISE_SPEED, CRUISE_THRUST, euler_zyx,  # noqa: I100
                        fly_offline)
from nodes.harness import diag_values, node_command, Probe, write_params
import numpy as np
import pytest

pytestmark = pytest.mark.ros

REMUS = pathlib.Path(__file__).resolve().parents[2] / 'config' / 'remus100.yaml'
DT = 0.02
T0_NS = 1000 * 10 ** 9
FINS = ('rudder_upper', 'rudder_lower', 'stern_port', 'stern_starboard')


def _start(spawn, tmp_path, params):
    """
    Start the node in a namespace of its own, /clock included; return (proc, log, ns).

    Concurrent test runs may share a ROS domain: their /clock, /thrust or /odometry must
    not reach this node.
    """
    ns = '/fins_test_%d' % os.getpid()
    params_file = write_params(tmp_path / 'params.yaml', params)
    log = tmp_path / 'node.log'
    with open(log, 'w') as out:
        proc = spawn(node_command(params_file, ns, ['-r', '/clock:=%s/clock' % ns]),
                     stdout=out, stderr=out)
    return proc, log, ns


def _ns(stamp):
    return stamp.sec * 10 ** 9 + stamp.nanosec


def _state(msg):
    p, q, v, w = (msg.pose.pose.position, msg.pose.pose.orientation, msg.twist.twist.linear,
                  msg.twist.twist.angular)
    return [p.x, p.y, p.z, q.w, q.x, q.y, q.z, v.x, v.y, v.z, w.x, w.y, w.z]


def test_dds_flight_equals_offline_flight(rclpy_context, spawn, tmp_path):
    from builtin_interfaces.msg import Time
    from diagnostic_msgs.msg import DiagnosticArray
    from geometry_msgs.msg import WrenchStamped
    from nav_msgs.msg import Odometry
    from rosgraph_msgs.msg import Clock
    from sensor_msgs.msg import JointState
    from std_msgs.msg import Float64
    from uwv_hydro.description.loader import load_vehicle
    # the turn starts at 6 s: 6 s at the 0.04 rad/s heading ramp of fin_flight
    duration, start_depth, depth, turn_at = 12.0, 4.0, 5.0, 6.0
    proc, log, ns = _start(spawn, tmp_path, {
        'vehicle_file': str(REMUS), 'mode': 'simulate', 'rate_hz': 1.0 / DT,
        'use_sim_time': True, 'initial_position': [0.0, 0.0, -start_depth],
        'initial_velocity': [CRUISE_SPEED, 0.0, 0.0, 0.0, 0.0, 0.0],
        'thrust_timeout': 3600.0, 'fin_command_timeout': 0.0, 'publish_markers': False,
        'diagnostics_period': 0.2})
    probe = Probe(rclpy_context)
    odom = probe.collect(Odometry, ns + '/odometry', keep=50)
    joints = probe.collect(JointState, ns + '/joint_states', keep=5)
    diags = probe.collect(DiagnosticArray, '/diagnostics', keep=50)
    clock_pub = probe.publisher(Clock, ns + '/clock')
    thrust_pub = probe.publisher(WrenchStamped, ns + '/thrust')
    fin_pubs = [probe.publisher(Float64, '%s/fins/%s/cmd_pos' % (ns, name)) for name in FINS]
    thrust = WrenchStamped()
    thrust.wrench.force.x = CRUISE_THRUST

    def publish_clock(ns):
        clock_pub.publish(Clock(clock=Time(sec=ns // 10 ** 9, nanosec=ns % 10 ** 9)))

    def stamped(ns):
        return lambda: any(_ns(m.header.stamp) == ns for m in odom)

    # Before the clock starts, the node has received the (constant) thrust and a centred
    # command on every fin topic, as its /diagnostics input counts show
    inputs = ['thrust'] + ['fins/%s/cmd_pos' % name for name in FINS]

    def received():
        for topic in inputs:
            name = '%s/uwv_hydro: input %s' % (ns, topic)
            if not any(int(diag_values(d, name).get('count', 0)) > 0 for d in diags):
                return False
        return True

    def send_inputs():
        thrust_pub.publish(thrust)
        for pub in fin_pubs:
            pub.publish(Float64(data=0.0))
    assert probe.spin_until(received, timeout=60.0, proc=proc, log=log, action=send_inputs,
                            period=0.05), 'the node did not receive thrust and fin commands'
    now = T0_NS
    assert probe.spin_until(stamped(now), timeout=60.0, proc=proc, log=log,
                            action=lambda: publish_clock(now)), 'no odometry under sim time'
    pilot = Autopilot(depth, turn_at, math.pi / 2, DT)
    period = int(round(DT * 1e9))
    states = []
    for _ in range(int(round(duration / DT))):
        msg = next(m for m in odom if _ns(m.header.stamp) == now)
        x = _state(msg)
        states.append(x)
        for pub, angle in zip(fin_pubs, pilot((now - T0_NS) * 1e-9, x[:3], x[3:7], x[7:])):
            pub.publish(Float64(data=angle))
        probe.spin_for(0.01)   # the commands arrive before the next clock tick
        now += period
        assert probe.spin_until(stamped(now), timeout=30.0, proc=proc, log=log,
                                action=lambda: publish_clock(now)), 'no odometry at %d' % now
    states = np.array(states)
    _, offline, _ = fly_offline(load_vehicle(str(REMUS)), duration, DT, start_depth, depth,
                                turn_at, math.pi / 2, t0_ns=T0_NS)
    assert np.allclose(states, offline, rtol=1e-12, atol=1e-12), np.abs(states - offline).max()
    # The run did something: the vehicle dived and began its turn on its fins
    yaw = euler_zyx(states[-1, 3:7])[2]
    assert -states[-1, 2] > start_depth + 0.15 and math.degrees(yaw) > 5.0
    # JointState carries the actual fin angles of the servos
    assert probe.spin_until(lambda: joints and _ns(joints[-1].header.stamp) == now,
                            timeout=10.0)
    assert list(joints[-1].name) == list(FINS)
    assert np.abs(np.array(joints[-1].position)).max() > 0.01
    status = ns + '/uwv_hydro: fin servos'
    assert probe.spin_until(lambda: any(diag_values(d, status) for d in diags),
                            timeout=30.0, proc=proc, log=log, action=lambda: publish_clock(now))
    values = next(diag_values(d, status) for d in reversed(diags) if diag_values(d, status))
    assert values['rudder_upper.state'] == 'ok' and values['on_timeout'] == 'hold'
    probe.close()


def test_wrench_mode_fins_and_watchdog(rclpy_context, spawn, tmp_path):
    """Wrench mode: the fins component uses the servos' angles; stale fins centre."""
    from diagnostic_msgs.msg import DiagnosticArray
    from geometry_msgs.msg import WrenchStamped
    from nav_msgs.msg import Odometry
    from sensor_msgs.msg import JointState
    from std_msgs.msg import Float64
    from uwv_hydro.description.loader import load_vehicle
    from uwv_hydro.physics.hydro.hydro_model import HydroModel
    nu = [1.5, 0.05, -0.02, 0.01, 0.02, -0.03]
    proc, log, ns = _start(spawn, tmp_path, {
        'vehicle_file': str(REMUS), 'mode': 'wrench', 'rate_hz': 50.0,
        'publish_components': True,
        'fin_command_topic': 'model/{model}/joint/{joint}/cmd_pos',
        'fin_command_timeout': 0.3, 'fin_timeout_action': 'centre', 'publish_markers': False,
        'diagnostics_period': 0.2})
    probe = Probe(rclpy_context)
    fins = probe.collect(WrenchStamped, ns + '/hydro/components/fins', keep=5)
    joints = probe.collect(JointState, ns + '/joint_states', keep=5)
    diags = probe.collect(DiagnosticArray, '/diagnostics', keep=20)
    odom_pub = probe.publisher(Odometry, ns + '/odometry')
    rudders = [probe.publisher(Float64, '%s/model/remus100/joint/%s/cmd_pos' % (ns, name))
               for name in FINS[:2]]
    odom = Odometry()
    odom.header.frame_id, odom.child_frame_id = 'odom', 'base_link'
    odom.pose.pose.position.z = -5.0
    odom.pose.pose.orientation.w = 1.0
    t = odom.twist.twist
    t.linear.x, t.linear.y, t.linear.z = nu[:3]
    t.angular.x, t.angular.y, t.angular.z = nu[3:]

    def drive(command=None):
        def action():
            odom.header.stamp = probe.node.get_clock().now().to_msg()
            odom_pub.publish(odom)
            if command is not None:
                for pub in rudders:
                    pub.publish(Float64(data=command))
        return action

    def settled(target):
        return bool(joints) and np.abs(np.array(joints[-1].position)
                                       - [target, target, 0.0, 0.0]).max() < 1e-12

    assert probe.spin_until(lambda: settled(0.2) and fins, timeout=60.0, proc=proc, log=log,
                            action=drive(0.2)), 'the rudders did not reach 0.2 rad'
    model = HydroModel(load_vehicle(str(REMUS)))

    def fins_match(angles):
        want = model.wrench(nu, [0.0, 0.0, -5.0], [1.0, 0, 0, 0],
                            fin_angles=angles).components['fins']
        w = fins[-1].wrench
        got = [w.force.x, w.force.y, w.force.z, w.torque.x, w.torque.y, w.torque.z]
        return np.allclose(got, want, rtol=0, atol=1e-9)

    assert probe.spin_until(lambda: fins_match([0.2, 0.2, 0.0, 0.0]), timeout=10.0,
                            action=drive(0.2))
    assert not fins_match([0.0] * 4)
    # Commands stop: after fin_command_timeout the rudders centre and /diagnostics says so
    assert probe.spin_until(lambda: settled(0.0) and fins_match([0.0] * 4), timeout=30.0,
                            proc=proc, log=log, action=drive())
    status = ns + '/uwv_hydro: fin servos'
    assert probe.spin_until(
        lambda: any(diag_values(d, status).get('rudder_upper.state') == 'stale'
                    for d in diags), timeout=10.0, action=drive())
    probe.close()


@pytest.mark.parametrize('pattern,words', [('fins/cmd', 'use {joint}'),
                                           ('fins/{joint}/{axis}', 'only {joint} and {model}'),
                                           ('fins/{joint}/0/cmd_pos', 'gives fin')])
def test_bad_fin_topic_pattern_is_refused(spawn, tmp_path, pattern, words):
    """A pattern that cannot give each fin its own valid topic stops the node with a reason."""
    from nodes.harness import read_log
    proc, log, _ = _start(spawn, tmp_path, {'vehicle_file': str(REMUS),
                                            'fin_command_topic': pattern})
    assert proc.wait(timeout=60) != 0
    assert words in read_log(log)
