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
A thruster and sensors on an arm link over DDS (test/helpers/nodes/arm_equipment.urdf).

The shoulder takes a zero effort command (a free joint) and the arm's thruster 20 N
sideways, 0.4 m out: the arm turns positive about its axis (the thruster's r x F on
the arm).  Lumped on the base, as it was before, the thrust would yaw the base
positive and the free arm would lag behind: negative.  The arm's DVL and pressure
sensor read the arm sensor frame: every sample, matched with the odometry and
joint_states of its stamp, equals the rigid-body transport from them (written by hand
in test/helpers/arm_equipment.py), to float rounding.
"""
import os

from arm_equipment import arm_sensor_frame, URDF
from nodes.harness import Probe, start_node
import numpy as np
import pytest
from required_modules import require

pytestmark = pytest.mark.ros
require('pinocchio')

THRUSTER = '/model/arm_rov/joint/arm_thruster_joint/'


def _ns(stamp):
    return stamp.sec * 10 ** 9 + stamp.nanosec


def _x(odom):
    p, o, t = odom.pose.pose.position, odom.pose.pose.orientation, odom.twist.twist
    return np.array([p.x, p.y, p.z, o.w, o.x, o.y, o.z, t.linear.x, t.linear.y, t.linear.z,
                     t.angular.x, t.angular.y, t.angular.z])


def test_arm_thruster_turns_the_free_arm_and_arm_sensors_read_its_frame(
        rclpy_context, spawn, tmp_path):
    from geometry_msgs.msg import TwistWithCovarianceStamped
    from nav_msgs.msg import Odometry
    from sensor_msgs.msg import FluidPressure, JointState
    from std_msgs.msg import Float64
    from uwv_hydro.description.loader import load_vehicle
    from uwv_hydro.physics.sensing.sensor_params import STANDARD_ATMOSPHERE
    vehicle = load_vehicle(str(URDF))
    ns = '/arm_equipment_%d' % os.getpid()
    proc, log = start_node(spawn, tmp_path, {
        'vehicle_file': str(URDF), 'mode': 'simulate', 'rate_hz': 50.0,
        'initial_position': [0.0, 0.0, -5.0], 'publish_markers': False}, ns)
    probe = Probe(rclpy_context)
    states = probe.collect(JointState, ns + '/joint_states', keep=2000)
    odom = probe.collect(Odometry, ns + '/odometry', qos=200, keep=5000)
    dvl = probe.collect(TwistWithCovarianceStamped, ns + '/arm/dvl', qos=200, keep=5000)
    depth = probe.collect(FluidPressure, ns + '/arm/depth', qos=200, keep=5000)
    force = probe.collect(Float64, THRUSTER + 'force', keep=50)
    effort = probe.publisher(Float64, ns + '/joints/shoulder/cmd_force')
    thrust = probe.publisher(Float64, THRUSTER + 'cmd_thrust')

    def push():
        effort.publish(Float64(data=0.0))
        thrust.publish(Float64(data=20.0))

    turned = probe.spin_until(lambda: bool(states) and states[-1].position[0] > 0.3,
                              timeout=90.0, proc=proc, log=log, action=push, period=0.05)
    assert turned, 'the arm did not turn positive: %s' % (states[-1:],)
    assert force and force[-1].data == pytest.approx(20.0, abs=1e-12)
    moving = [m for m in states if abs(m.velocity[0]) > 0.02]
    assert moving and moving[0].velocity[0] > 0.0  # pushed by the thruster from the start
    probe.spin_for(0.5)  # the sensor samples of the last states
    by_stamp = {_ns(m.header.stamp): m for m in odom}
    joints = {_ns(m.header.stamp): m for m in states}
    g, rho = vehicle.gravity, vehicle.fluid_density
    checked = 0
    for series in (dvl, depth):
        for msg in series:
            stamp = _ns(msg.header.stamp)
            if stamp not in by_stamp or stamp not in joints:
                continue
            x = _x(by_stamp[stamp])
            q, qd = joints[stamp].position[0], joints[stamp].velocity[0]
            velocity, z, _, _ = arm_sensor_frame(x, np.zeros(6), q, qd, 0.0, g)
            if series is dvl:
                assert msg.header.frame_id == 'arm_sensors'
                v = msg.twist.twist.linear
                np.testing.assert_allclose([v.x, v.y, v.z], velocity, atol=1e-12)
            else:
                # p = p_atm + rho g depth
                assert msg.fluid_pressure == pytest.approx(STANDARD_ATMOSPHERE + rho * g * z,
                                                           abs=1e-6)
            checked += 1
    assert checked >= 10, checked
    probe.close()
