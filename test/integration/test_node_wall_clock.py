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
A system-clock step in wall-clock mode changes nothing but the stamps (issue 17, 3).

Before, the wall-clock (hardware in the loop) update counted its steps on the node's
ROS clock, i.e. the system clock: a backward step longer than a period reset the
vehicle to its initial state, a forward step dropped steps.  Pacing now runs on the
monotonic clock and ROS time only stamps the outputs.

The system clock of a test process cannot be stepped, so the node runs in this process
and its ROS clock (the one a system-clock step moves) is driven by the test: ROS time
is switched on with an override that follows the system clock plus an offset, and the
offset jumps by -100 s, then by +200 s.  The monotonic clock is untouched, as in a real
step.  The vehicle coasts at 1 m/s: its position must keep increasing (no reset), no
step may be dropped, no clock reset counted, and the stamps must follow the stepped
ROS time.
"""
import threading
import time

from nodes.harness import analytic_vehicle_urdf, diag_values, Probe
import pytest

pytestmark = pytest.mark.ros

STEP_S = 100


def _stamp_s(msg):
    return msg.header.stamp.sec + msg.header.stamp.nanosec * 1e-9


@pytest.mark.parametrize('loop', ['thread', 'timer'])
def test_system_clock_step_in_wall_mode_changes_nothing(rclpy_context, loop):
    from diagnostic_msgs.msg import DiagnosticArray
    from nav_msgs.msg import Odometry
    from rclpy.clock import ClockType  # (rclpy.clock_type: not in Humble)
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.parameter import Parameter
    from rclpy.time import Time
    from uwv_hydro.node.hydro_node import HydroNode
    params = {'robot_description': analytic_vehicle_urdf(), 'mode': 'simulate',
              'rate_hz': 100.0, 'loop': loop, 'initial_position': [0.0, 0.0, -10.0],
              'initial_velocity': [1.0, 0.0, 0.0, 0.0, 0.0, 0.0], 'publish_markers': False,
              'diagnostics_period': 0.2}
    node = HydroNode(context=rclpy_context,
                     parameter_overrides=[Parameter(k, value=v) for k, v in params.items()])
    executor = SingleThreadedExecutor(context=rclpy_context)
    executor.add_node(node)
    spinner = threading.Thread(target=executor.spin, daemon=True)
    spinner.start()
    offset = {'ns': 0}
    stop = threading.Event()
    clock = node.get_clock()

    def system_clock():  # the node's ROS clock: system time + offset
        while not stop.is_set():
            clock.set_ros_time_override(Time(nanoseconds=time.time_ns() + offset['ns'],
                                             clock_type=ClockType.ROS_TIME))
            time.sleep(2e-4)

    probe = Probe(rclpy_context)
    odom = []
    probe.node.create_subscription(Odometry, 'odometry',
                                   lambda m: odom.append((offset['ns'], m)), 100)
    diags = probe.collect(DiagnosticArray, '/diagnostics', keep=3)
    driver = threading.Thread(target=system_clock, daemon=True)
    try:
        clock.set_ros_time_override(Time(nanoseconds=time.time_ns(),
                                         clock_type=ClockType.ROS_TIME))
        clock._set_ros_time_is_active(True)
        driver.start()
        assert probe.spin_until(lambda: len(odom) > 50, timeout=30.0)
        offset['ns'] = -STEP_S * 10 ** 9   # the system clock steps back 100 s
        probe.spin_for(1.5)
        offset['ns'] = STEP_S * 10 ** 9    # ... and forward 200 s
        probe.spin_for(1.5)
        assert probe.spin_until(lambda: diags, timeout=10.0)
        probe.spin_for(0.5)
    finally:
        stop.set()
        driver.join()
        executor.shutdown(timeout_sec=2.0)
        node.destroy_node()
    x = [m.pose.pose.position.x for _, m in odom]
    steps = [b - a for a, b in zip(x, x[1:])]
    assert min(steps) > 0.0, 'the vehicle went back (reset) at message %d' % steps.index(
        min(steps))
    loop_values = diag_values(diags[-1], 'update loop')
    assert int(loop_values['clock_resets']) == 0, loop_values
    assert int(loop_values['lagged_steps']) < 20, loop_values
    # ROS time stamps the outputs: after each step they follow it
    for shift in (-STEP_S, STEP_S):
        late = [(_stamp_s(m), seen) for seen, m in odom if seen == shift * 10 ** 9]
        assert len(late) > 50, 'no odometry after the %+d s step' % shift
        wall = time.time()
        assert all(abs(stamp - (wall + shift)) < 10.0 for stamp, _ in late[10:]), shift
