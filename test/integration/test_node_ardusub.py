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


def test_bad_stack_messages_are_counted_never_fatal(spawn, rclpy_context, tmp_path):
    """Bad RCOut / JointState: dropped, counted, alive; a silent autopilot: neutral."""
    from diagnostic_msgs.msg import DiagnosticArray
    from mavros_msgs.msg import RCOut
    from nav_msgs.msg import Odometry
    from sensor_msgs.msg import JointState
    from nodes.harness import diag_values, Probe, start_node
    from uwv_hydro.node.launch_commands.launch_command import stop_node
    proc, log = start_node(spawn, tmp_path, _params(ardusub_input='rc_out', ros2_control=True,
                                                    diagnostics_period=0.2,
                                                    ardusub_timeout=0.5))
    probe = Probe(rclpy_context)
    try:
        odom = probe.collect(Odometry, 'odometry', keep=2)
        diags = probe.collect(DiagnosticArray, '/diagnostics', keep=3)
        rc = probe.publisher(RCOut, 'mavros/rc/out')
        joints = probe.publisher(JointState, '/robot_joint_commands')
        assert probe.spin_until(lambda: rc.get_subscription_count() > 0 and
                                joints.get_subscription_count() > 0 and odom,
                                timeout=60.0, proc=proc, log=log)
        bad = [RCOut(channels=[1500, 1500, 1500]),                     # 3 of 6 servos
               RCOut(channels=[1500, 1500, 1500, 1500, 1500, 65535])]  # no pulse
        nan = JointState(name=['thruster1_joint'], effort=[float('nan')])
        misfit = JointState(name=['thruster1_joint', 'thruster2_joint'], effort=[1.0, 2.0, 3.0])

        def counted():
            if not diags:
                return False
            rc_in = diag_values(diags[-1], 'input mavros/rc/out')
            js_in = diag_values(diags[-1], 'input /robot_joint_commands')
            return (int(rc_in.get('bad_channel_count', 0)) >= 1
                    and int(rc_in.get('pwm_out_of_range', 0)) >= 1
                    and int(js_in.get('non_finite', 0)) >= 1
                    and int(js_in.get('bad_length', 0)) >= 1)

        def send():
            for msg in bad:
                rc.publish(msg)
            joints.publish(nan)
            joints.publish(misfit)
        assert probe.spin_until(counted, timeout=30.0, proc=proc, log=log, action=send,
                                period=0.05), diags[-1] if diags else 'no diagnostics'
        # still running: odometry keeps coming, the thrusters stayed neutral
        n = len(odom)
        odom.clear()
        assert probe.spin_until(lambda: len(odom) > 0, timeout=10.0, proc=proc, log=log), n
        values = diag_values(diags[-1], 'input mavros/rc/out')
        assert values['servo1 thruster1_joint pwm'] == '1500'
        assert values['servo1 thruster1_joint'] == 'neutral'
        # a good RCOut drives the thrusters; when the autopilot falls silent for longer
        # than ardusub_timeout (RC_OVERRIDE_TIME) every thruster is back to neutral
        good = RCOut(channels=PWM)

        def state():
            return diag_values(diags[-1], 'input mavros/rc/out') if diags else {}
        assert probe.spin_until(lambda: state().get('servo3 thruster3_joint pwm') == '1620',
                                timeout=10.0, proc=proc, log=log,
                                action=lambda: rc.publish(good), period=0.05)
        assert state()['servo3 thruster3_joint'] == 'ok'
        assert probe.spin_until(lambda: state().get('servo3 thruster3_joint') == 'neutral',
                                timeout=10.0, proc=proc, log=log)
        assert state()['servo3 thruster3_joint pwm'] == '1500'
    finally:
        probe.close()
        stop_node(proc, timeout=5)
    text = log.read_text()
    assert 'dropped a message on mavros/rc/out: bad_channel_count' in text
    assert 'dropped a message on /robot_joint_commands: non_finite' in text
