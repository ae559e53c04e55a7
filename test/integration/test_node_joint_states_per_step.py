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
Simulate mode of an arm vehicle over DDS: one joint_states per odometry, every step.

The node (test/corpus/uuv_simulator/arm_vehicle_like.urdf, one revolute joint) runs
under /clock in lock step; /clock advances three periods per update, so each update
runs three integration steps.  Every step must give one odometry and one joint_states
message with the same stamp, and each joint_states must equal, to 1e-12, the state of
an offline ArticulatedSimulateMode driven through the same clock (the node's own
mode class: the node must publish the state of each step, not of the update's last).
/tf carries the arm link once per update, stamped as that update's base transform.
"""
import os
import pathlib

from nodes.harness import node_command, Probe, write_params
import numpy as np
import pytest
from required_modules import require

pytestmark = pytest.mark.ros
require('pinocchio')

URDF = pathlib.Path(__file__).resolve().parents[1] / 'corpus' / 'uuv_simulator' / \
    'arm_vehicle_like.urdf'
PERIOD_NS = 10 ** 7  # rate_hz 100
STEPS_PER_UPDATE = 3
UPDATES = 8
INITIAL = {'initial_position': [0.0, 0.0, -5.0], 'initial_orientation_rpy': [0.1, -0.2, 0.3],
           'initial_velocity': [0.4, 0.1, -0.2, 0.3, -0.2, 0.5],
           'initial_joint_positions': [0.5]}


def _ns(stamp):
    return stamp.sec * 10 ** 9 + stamp.nanosec


def _offline(start_ns):
    """Return {stamp: (13-float state, q, qd, efforts)} of the mode under the same clock."""
    from uwv_hydro.description.loader import load_vehicle
    from uwv_hydro.modes.articulated_simulate_mode import ArticulatedSimulateMode
    from uwv_hydro.physics.body.dynamics import State
    from uwv_hydro.physics.spatial.rotation import quat_from_rpy
    vehicle = load_vehicle(str(URDF))
    initial = State(position=np.array(INITIAL['initial_position']),
                    quaternion=quat_from_rpy(*INITIAL['initial_orientation_rpy']),
                    twist=np.array(INITIAL['initial_velocity']))
    mode = ArticulatedSimulateMode(vehicle, dt=PERIOD_NS * 1e-9, initial=initial,
                                   joint_positions=INITIAL['initial_joint_positions'])
    states = {}

    def record(pace_ns):
        states[pace_ns] = (list(mode.x), mode.q.copy(), mode.qd.copy(), mode.efforts.copy())

    mode.advance(start_ns)
    record(start_ns)
    for k in range(1, UPDATES + 1):
        now = start_ns + k * STEPS_PER_UPDATE * PERIOD_NS
        assert mode.advance(now, np.zeros(6), None, on_step=record) == now
        record(now)
    return states


def test_joint_states_every_step_with_the_odometry_stamp(rclpy_context, spawn, tmp_path):
    from builtin_interfaces.msg import Time
    from nav_msgs.msg import Odometry
    from rosgraph_msgs.msg import Clock
    from sensor_msgs.msg import JointState
    from tf2_msgs.msg import TFMessage
    ns = '/joint_steps_%d' % os.getpid()
    params = write_params(tmp_path / 'params.yaml', dict(
        INITIAL, vehicle_file=str(URDF), mode='simulate', rate_hz=100.0, use_sim_time=True,
        publish_markers=False, publish_static_frames=False))
    log = tmp_path / 'node.log'
    with open(log, 'w') as out:
        proc = spawn(node_command(params, ns, ['-r', '/clock:=%s/clock' % ns]),
                     stdout=out, stderr=out)
    probe = Probe(rclpy_context)
    odom = probe.collect(Odometry, ns + '/odometry', keep=1000)
    states = probe.collect(JointState, ns + '/joint_states', keep=1000)
    tf = probe.collect(TFMessage, '/tf', keep=1000)
    clock_pub = probe.publisher(Clock, ns + '/clock')
    clock = {'ns': 100 * 10 ** 9}

    def publish_clock(t_ns):
        clock['ns'] = max(clock['ns'], t_ns)  # /clock never goes back (a reset)
        clock_pub.publish(Clock(clock=Time(sec=clock['ns'] // 10 ** 9,
                                           nanosec=clock['ns'] % 10 ** 9)))

    # both writers matched before /clock starts the node's clock (a volatile reader
    # drops what an unmatched writer sends: the first state would be lost)
    assert probe.spin_until(lambda: probe.node.count_publishers(ns + '/odometry') > 0 and
                            probe.node.count_publishers(ns + '/joint_states') > 0,
                            timeout=60.0, proc=proc, log=log)
    probe.spin_for(0.5)
    assert probe.spin_until(lambda: odom, timeout=60.0, proc=proc, log=log,
                            action=lambda: publish_clock(clock['ns']), period=0.2), \
        'no odometry under sim time'
    start = _ns(odom[0].header.stamp)
    for k in range(1, UPDATES + 1):
        want = start + k * STEPS_PER_UPDATE * PERIOD_NS
        assert probe.spin_until(lambda: any(_ns(m.header.stamp) == want for m in states),
                                timeout=30.0, proc=proc, log=log,
                                action=lambda: publish_clock(want)), \
            'no joint_states at update %d' % k
    probe.spin_for(0.3)
    last = start + UPDATES * STEPS_PER_UPDATE * PERIOD_NS
    odom_stamps = [_ns(m.header.stamp) for m in odom]
    state_stamps = [_ns(m.header.stamp) for m in states]
    expected = list(range(start, last + 1, PERIOD_NS))
    # one odometry and one joint_states per step, same stamps, in order
    assert odom_stamps == expected
    assert state_stamps == expected
    offline = _offline(start)
    assert sorted(offline) == expected
    for m, o in zip(states, odom):
        x, q, qd, effort = offline[_ns(m.header.stamp)]
        assert list(m.name) == ['shoulder']
        np.testing.assert_allclose(m.position, q, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(m.velocity, qd, rtol=1e-12, atol=1e-12)
        # efforts: the servo torque (N m) of a 3 kg link, scale ~10
        np.testing.assert_allclose(m.effort, effort, rtol=1e-12, atol=1e-11)
        p = o.pose.pose
        np.testing.assert_allclose(
            [p.position.x, p.position.y, p.position.z, p.orientation.w, o.twist.twist.angular.y],
            [x[0], x[1], x[2], x[3], x[11]], rtol=1e-12, atol=1e-12)
    # the arm link on /tf: once per update, at the update's base stamp, at its angle
    arm = {_ns(t.header.stamp): t for msg in tf for t in msg.transforms
           if t.child_frame_id == 'arm_link'}
    base = {_ns(t.header.stamp) for msg in tf for t in msg.transforms
            if t.child_frame_id == 'base_link'}
    updates = [start + k * STEPS_PER_UPDATE * PERIOD_NS for k in range(UPDATES + 1)]
    assert sorted(s for s in arm if start <= s <= last) == updates
    assert set(updates) <= base
    for stamp in updates:
        angle = offline[stamp][1][0]
        r = arm[stamp].transform.rotation
        np.testing.assert_allclose([r.w, r.x, r.y, r.z],
                                   [np.cos(angle / 2), 0.0, np.sin(angle / 2), 0.0],
                                   atol=1e-12)
    probe.close()
