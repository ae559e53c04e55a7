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
ros2_control over DDS: topic_based_ros2_control's JointState drives REMUS as Float64 does.

The node (``ros2_control: true``) stands in for the robot behind a
``topic_based_ros2_control/TopicBasedSystem``.  A driver process publishes what
TopicBasedSystem::write() sends on /robot_joint_commands for the ros2_control block of
config/ros2_control_remus100.urdf.xacro: every joint in ``name``, ``effort`` for the
propeller (thrust, N) and ``position`` for the four fins (rad), packed.  The same run
driven by gz-sim's Float64 cmd_thrust and the fins' Float64 cmd_pos must give the same
trajectory (1e-12), and /robot_joint_states must carry every joint with the applied
thrust and the fin angles.
"""
from nodes import lock_step
from nodes.harness import REPO
import numpy as np
import pytest

pytestmark = pytest.mark.ros

REMUS = REPO / 'config' / 'remus100.yaml'
TICKS = 60
THRUST = 8.0
FINS = {'rudder_upper': 0.1, 'rudder_lower': 0.1, 'stern_port': -0.05,
        'stern_starboard': -0.05}
PARAMS = {'vehicle_file': str(REMUS), 'mode': 'simulate',
          'initial_position': [0.0, 0.0, -10.0],
          'initial_velocity': [1.0, 0.0, 0.0, 0.0, 0.0, 0.0]}


def test_joint_state_commands_equal_float64(spawn, rclpy_context, tmp_path, python):
    from sensor_msgs.msg import JointState
    names = ['propeller_joint'] + list(FINS)
    command = 'joint_state@/robot_joint_commands=%s/%s//%r' % (
        ','.join(names), ','.join(repr(v) for v in FINS.values()), THRUST)
    ros2_control, extras, diag = lock_step.run(
        spawn, rclpy_context, tmp_path, python, 'ros2_control',
        dict(PARAMS, ros2_control=True), [command], ['/robot_joint_commands'], TICKS,
        collect=[('states', JointState, '/robot_joint_states')])
    topics = ['/model/remus100/joint/propeller_joint/cmd_thrust'] + [
        'fins/%s/cmd_pos' % fin for fin in FINS]
    items = ['float64@%s=%r' % (topics[0], THRUST)] + [
        'float64@~/%s=%r' % (topic, value)
        for topic, value in zip(topics[1:], FINS.values())]
    float64, _, _ = lock_step.run(spawn, rclpy_context, tmp_path, python, 'float64', PARAMS,
                                  items, topics, TICKS)
    assert ros2_control.shape == float64.shape == (TICKS, 13)
    # the rudder turned the vehicle, the propeller kept it going
    assert abs(float64[-1, 12]) > 1e-3 and float64[-1, 7] > 0.5
    diff = float(np.max(np.abs(ros2_control - float64)))
    print('JointState vs Float64: max |difference| over %d steps %.3g' % (TICKS, diff))
    assert diff <= 1e-12, diff
    # the hardware interface reads every joint's position (and velocity, effort)
    state = extras['states'][-1]
    assert list(state.name) == names
    assert len(state.position) == len(state.velocity) == len(state.effort) == len(names)
    # the propeller's rotor lags its command (time_constant 0.2 s): 0.6 s after the
    # start the thrust is T (1 - exp(-t / tau)) within one step of lag
    assert 0.5 * THRUST < state.effort[0] <= THRUST
    assert state.velocity[0] > 0.0 and state.position[0] > 0.0  # rotor turning
    for k, value in enumerate(FINS.values()):
        # the servos reached the commanded deflection (rate 2 rad/s, lag 0.1 s)
        assert state.position[1 + k] == pytest.approx(value, abs=0.01 * abs(value))
