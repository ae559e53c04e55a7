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
An arm vehicle offline like online: the node's joint_states and link TF are simulate's bag's.

The node (test/corpus/uuv_simulator/arm_vehicle_like.urdf, the set-up of
test_node_articulated.py) runs under /clock in lock step (nodes/lock_step.py) with a
driver publishing the shoulder's Float64 position command, starting from
``initial_joint_positions``; ``simulate`` of the same vehicle, initial state and
command (a CSV held from t = 0, ``--initial-joint-positions``) writes a bag whose
/joint_states and arm_link /tf must equal what the node published at the same step
(1e-12: the same code on the same numbers).  ``initial_joint_positions`` is checked at
start (a value outside the joint's limits stops the node with the joint named) and is
where ``~/reset`` puts the joint again.
"""
import pathlib
import time

from nodes import lock_step
from nodes.harness import Probe, read_log, start_node
import numpy as np
import pytest
from required_modules import require

pytestmark = pytest.mark.ros
require('pinocchio')

URDF = pathlib.Path(__file__).resolve().parents[1] / 'corpus' / 'uuv_simulator' / \
    'arm_vehicle_like.urdf'
TICKS = 40
START = 0.2
TARGET = 0.6
PARAMS = {'vehicle_file': str(URDF), 'mode': 'simulate', 'initial_position': [0.0, 0.0, -5.0],
          'initial_joint_positions': [START]}


def _ns(stamp):
    return stamp.sec * 10 ** 9 + stamp.nanosec


def test_node_joint_states_and_tf_equal_simulates_bag(spawn, rclpy_context, tmp_path, python):
    from rosbags.highlevel import AnyReader
    from sensor_msgs.msg import JointState
    from tf2_msgs.msg import TFMessage
    from uwv_hydro.cli.main import main
    _, extras, _ = lock_step.run(
        spawn, rclpy_context, tmp_path, python, 'arm_offline', PARAMS,
        ['float64@~/joints/shoulder/cmd_pos=%r' % TARGET], ['joints/shoulder/cmd_pos'],
        TICKS, collect=[('states', JointState, '~/joint_states'), ('tf', TFMessage, '/tf')])
    node_states = {_ns(m.header.stamp) - lock_step.T0_NS: m for m in extras['states']}
    node_tf = {_ns(t.header.stamp) - lock_step.T0_NS: t for m in extras['tf']
               for t in m.transforms if t.child_frame_id == 'arm_link'}
    command = tmp_path / 'shoulder.csv'
    command.write_text('t,position\n0,%r\n' % TARGET)
    bag = tmp_path / 'offline.mcap'
    assert main(['simulate', str(URDF), '--duration', str(TICKS * 0.01), '--initial-position',
                 '0', '0', '-5', '--initial-joint-positions', str(START), '--joint-command',
                 'shoulder', str(command), '--no-sensors', '--out', str(bag)]) == 0
    offline, offline_tf = {}, {}
    with AnyReader([bag]) as reader:
        conns = [c for c in reader.connections if c.topic in ('/joint_states', '/tf')]
        for conn, stamp, raw in reader.messages(connections=conns):
            msg = reader.deserialize(raw, conn.msgtype)
            if conn.topic == '/joint_states':
                offline[stamp] = msg
            else:
                offline_tf.update({stamp: t for t in msg.transforms
                                   if t.child_frame_id == 'arm_link'})
    steps = [k * lock_step.PERIOD_NS for k in range(TICKS + 1)]
    assert all(s in node_states and s in node_tf for s in steps), sorted(node_states)[:5]
    for s in steps:
        a, b = node_states[s], offline[s]
        assert list(a.name) == list(b.name) == ['shoulder']
        for x, y in ((a.position, b.position), (a.velocity, b.velocity),
                     (a.effort, b.effort)):
            np.testing.assert_allclose(list(x), list(y), rtol=0, atol=1e-12)
        ta, tb = node_tf[s], offline_tf[s]
        assert ta.header.frame_id == tb.header.frame_id == 'base_link'
        for u, v in ((ta.transform.translation, tb.transform.translation),
                     (ta.transform.rotation, tb.transform.rotation)):
            np.testing.assert_allclose([getattr(u, f) for f in 'xyz'],
                                       [getattr(v, f) for f in 'xyz'], rtol=0, atol=1e-12)
    # the joint started at initial_joint_positions and moved towards the command
    assert node_states[0].position[0] == pytest.approx(START, abs=1e-12)
    assert node_states[steps[-1]].position[0] > START + 0.1


def test_initial_joint_positions_at_start_and_reset(spawn, rclpy_context, tmp_path):
    from sensor_msgs.msg import JointState
    from std_msgs.msg import Float64
    ns = '/arm_initial_%d' % int(time.time() * 1000 % 1e6)
    proc, log = start_node(spawn, tmp_path, dict(PARAMS, rate_hz=50.0,
                                                 publish_markers=False), ns)
    probe = Probe(rclpy_context)
    try:
        states = probe.collect(JointState, ns + '/joint_states', keep=500)
        command = probe.publisher(Float64, ns + '/joints/shoulder/cmd_pos')
        assert probe.spin_until(lambda: states, timeout=60.0, proc=proc, log=log)
        # the first states may go before the subscription is matched: the servo holding
        # the joint at START against the settling vehicle keeps it within 0.01 rad
        assert states[0].position[0] == pytest.approx(START, abs=0.01)
        assert probe.spin_until(lambda: states[-1].position[0] > 0.5, timeout=60.0, proc=proc,
                                log=log, action=lambda: command.publish(Float64(data=TARGET)),
                                period=0.05), 'the arm did not follow its command'
        before = len(states)
        assert probe.trigger(ns + '/uwv_hydro/reset', proc=proc, log=log).success
        # the first state after the reset is the initial one: the joint at START, at rest
        assert probe.spin_until(lambda: any(abs(m.position[0] - START) < 1e-12 and
                                            m.velocity[0] == 0.0 for m in states[before:]),
                                timeout=30.0, proc=proc, log=log), \
            'no joint state at initial_joint_positions after ~/reset'
    finally:
        probe.close()


def test_initial_joint_positions_outside_limits_stop_the_node(spawn, tmp_path):
    proc, log = start_node(spawn, tmp_path, dict(PARAMS, initial_joint_positions=[2.0]))
    assert proc.wait(timeout=60) != 0
    text = read_log(log)
    assert ('initial_joint_positions[0] = 2.0: outside the position limits [-1.5, 1.5] of '
            'joint shoulder') in text, text[-2000:]
    assert 'Traceback' not in text, text[-2000:]
