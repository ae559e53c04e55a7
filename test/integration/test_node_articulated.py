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
Simulate mode over DDS for a vehicle with an arm: joint commands in, joint_states and TF out.

The vehicle (test/corpus/uuv_simulator/arm_vehicle_like.urdf: uuv_simulator per-link
blocks for the base and the arm link on a revolute joint) runs in the node; the test
sends a Float64 position command (``joints/shoulder/cmd_pos``), then a JointState
command as topic_based_ros2_control sends it, and reads back ``joint_states``, the
ros2_control states, /tf (the arm link in the base link at the joint's angle, stamped
as the joint state) and /tf_static (the fixed camera link).
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


def _ns(stamp):
    return stamp.sec * 10 ** 9 + stamp.nanosec


def test_arm_joint_commands_joint_states_and_tf(rclpy_context, spawn, tmp_path):
    from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
    from sensor_msgs.msg import JointState
    from std_msgs.msg import Float64
    from tf2_msgs.msg import TFMessage
    ns = '/arm_test_%d' % os.getpid()
    params = write_params(tmp_path / 'params.yaml', {
        'vehicle_file': str(URDF), 'mode': 'simulate', 'rate_hz': 50.0,
        'initial_position': [0.0, 0.0, -5.0], 'publish_markers': False,
        'ros2_control': True, 'ros2_control_commands_topic': 'robot_joint_commands',
        'ros2_control_states_topic': 'robot_joint_states'})
    log = tmp_path / 'node.log'
    with open(log, 'w') as out:
        proc = spawn(node_command(params, ns), stdout=out, stderr=out)
    probe = Probe(rclpy_context)
    states = probe.collect(JointState, ns + '/joint_states', keep=200)
    control = probe.collect(JointState, ns + '/robot_joint_states', keep=5)
    tf = probe.collect(TFMessage, '/tf', keep=400)
    latched = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                         durability=DurabilityPolicy.TRANSIENT_LOCAL)
    static = probe.collect(TFMessage, '/tf_static', qos=latched)
    position = probe.publisher(Float64, ns + '/joints/shoulder/cmd_pos')
    commands = probe.publisher(JointState, ns + '/robot_joint_commands')

    def reached(target):
        return lambda: bool(states) and list(states[-1].name) == ['shoulder'] and abs(
            states[-1].position[0] - target) < 0.03 and abs(states[-1].velocity[0]) < 0.05

    assert probe.spin_until(reached(0.6), timeout=60.0, proc=proc, log=log,
                            action=lambda: position.publish(Float64(data=0.6)), period=0.05), \
        'the arm did not reach 0.6 rad on its Float64 command: %s' % (states[-1:],)
    # /tf: the arm link in the base link at the joint angle of the same stamp (axis y)
    by_stamp = {_ns(m.header.stamp): m.position[0] for m in states}
    arm = [(t, _ns(t.header.stamp)) for m in tf for t in m.transforms
           if t.child_frame_id == 'arm_link' and _ns(t.header.stamp) in by_stamp]
    assert arm, 'no /tf of arm_link stamped as a joint state'
    for t, stamp in arm[-20:]:
        q = by_stamp[stamp]
        assert t.header.frame_id == 'base_link'
        r = t.transform.rotation
        np.testing.assert_allclose([r.w, r.x, r.y, r.z], [np.cos(q / 2), 0.0, np.sin(q / 2), 0.0],
                                   atol=1e-12)
        v = t.transform.translation
        np.testing.assert_allclose([v.x, v.y, v.z], [0.4, 0.0, -0.1], atol=1e-12)
    odom = [t for m in tf for t in m.transforms if t.child_frame_id == 'base_link']
    assert odom and odom[-1].header.frame_id == 'odom'
    # ros2_control: a JointState command (position interface), and its states topic
    command = JointState(name=['shoulder'], position=[-0.4])
    assert probe.spin_until(reached(-0.4), timeout=60.0, proc=proc, log=log,
                            action=lambda: commands.publish(command), period=0.05), \
        'the arm did not reach -0.4 rad on its JointState command'
    assert probe.spin_until(lambda: bool(control), timeout=10.0, proc=proc, log=log)
    assert 'shoulder' in control[-1].name
    k = list(control[-1].name).index('shoulder')
    assert abs(control[-1].position[k] + 0.4) < 0.05
    # effort: the servo holds the arm against its net weight (mass 3 kg, 2.78 kg displaced)
    assert abs(states[-1].effort[0]) < 30.0
    assert probe.spin_until(lambda: any(t.child_frame_id == 'camera_link'
                                        for m in static for t in m.transforms), timeout=10.0)
    camera = next(t for m in static for t in m.transforms if t.child_frame_id == 'camera_link')
    assert camera.header.frame_id == 'base_link'
    assert abs(camera.transform.translation.x - 0.3) < 1e-12
    probe.close()
