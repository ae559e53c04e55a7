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
ArduSub over DDS: MAVROS's OverrideRCIn and RCOut drive the BlueROV2 as Float64 PWM does.

The node runs config/ardusub_bluerov2.yaml as shipped (vehicle and ArduSub parameters)
under /clock in lock step.  A separate driver process publishes one of three
equivalent inputs: mavros_msgs/OverrideRCIn on mavros/rc/override (channel n = the
thruster on servo n, SERVOn_FUNCTION = Motor n), mavros_msgs/RCOut on mavros/rc/out
(the autopilot's outputs), or gz-sim's per-thruster std_msgs/Float64 cmd_thrust with
the same PWM widths.  The three trajectories must agree to 1e-12 (the same commands
reach the same thruster tables; only rounding of identical operations could differ).
"""
from nodes import lock_step
from nodes.harness import REPO
import numpy as np
import pytest
import yaml

pytestmark = pytest.mark.ros

CONFIG = REPO / 'config' / 'ardusub_bluerov2.yaml'
TICKS = 60
#: PWM of servos 1..6: forward, a little yaw, a little heave
PWM = [1400, 1400, 1620, 1600, 1560, 1540]


def _params(**extra):
    node_params = dict(yaml.safe_load(CONFIG.read_text())['/**']['ros__parameters'])
    node_params.pop('vehicle')
    node_params.update(vehicle_file=str(CONFIG), initial_position=[0.0, 0.0, -10.0])
    node_params.update(extra)
    return node_params


def test_override_and_rc_out_equal_float64_pwm(spawn, rclpy_context, tmp_path, python):
    channels = ','.join(str(v) for v in PWM)
    override, _, diag = lock_step.run(
        spawn, rclpy_context, tmp_path, python, 'override', _params(),
        ['override@~/mavros/rc/override=' + channels], ['mavros/rc/override'], TICKS)
    rc_out, _, _ = lock_step.run(
        spawn, rclpy_context, tmp_path, python, 'rc_out', _params(ardusub_input='rc_out'),
        ['rc_out@~/mavros/rc/out=' + channels + ',1100,1900'], ['mavros/rc/out'], TICKS)
    joints = ['/model/bluerov2/joint/thruster%d_joint/cmd_thrust' % k for k in range(1, 7)]
    float64, _, _ = lock_step.run(
        spawn, rclpy_context, tmp_path, python, 'float64', _params(ardusub_input='none'),
        ['float64@%s=%d' % (topic, pwm) for topic, pwm in zip(joints, PWM)], joints, TICKS)
    assert override.shape == rc_out.shape == float64.shape == (TICKS, 13)
    # the thrusters moved the vehicle (the T200 table is dead between 1460 and 1540 us)
    # forward: Motor1-2 below 1500, Motor3-4 above (their forward factors -1, +1)
    assert float64[-1, 7] > 1e-3 and abs(float64[-1, 12]) > 1e-5
    for name, states in (('override', override), ('rc_out', rc_out)):
        diff = float(np.max(np.abs(states - float64)))
        print('%s vs Float64: max |difference| over %d steps %.3g' % (name, TICKS, diff))
        assert diff <= 1e-12, (name, diff)
    # /diagnostics shows each servo's thruster and PWM on the input
    values = lock_step.diag_values(diag, 'input mavros/rc/override')
    assert values['servo3 thruster3_joint pwm'] == '1620'
    assert values['servo1 thruster1_joint'] == 'ok'
