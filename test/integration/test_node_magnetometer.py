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
A magnetometer in simulate mode over real DDS: sensor_msgs/MagneticField on its topic.

uuv_simulator's magnetometer plugin on a link turned in the base: each message is
matched with the odometry of its stamp and compared with uuv's field (intensity,
heading, declination, inclination) seen in <link>_ned, recomputed from that odometry.
"""
import math

from nodes.harness import analytic_vehicle_urdf, Probe, start_node
import numpy as np
import pytest

pytestmark = pytest.mark.ros

SENSOR = """
  <link name="mag_link"/>
  <joint name="mag_joint" type="fixed"><parent link="base_link"/><child link="mag_link"/>
    <origin xyz="0.2 0.1 0.0" rpy="0 0 0.6"/></joint>
  <gazebo><plugin filename="libuuv_gazebo_ros_magnetometer_plugin.so" name="mag">
    <link_name>mag_link</link_name><sensor_topic>magnetometer</sensor_topic>
    <update_rate>20</update_rate><intensity>50.0</intensity>
    <reference_heading>0.4</reference_heading><inclination>0.9</inclination>
  </plugin></gazebo>
</robot>"""


def _stamp(msg) -> int:
    return msg.header.stamp.sec * 1_000_000_000 + msg.header.stamp.nanosec


def test_magnetometer_publishes_uuvs_field_in_its_frame(rclpy_context, spawn, tmp_path):
    from geometry_msgs.msg import WrenchStamped
    from nav_msgs.msg import Odometry
    from sensor_msgs.msg import MagneticField
    from uwv_hydro.physics.spatial.rotation import quat_from_rpy, quat_to_matrix
    urdf = analytic_vehicle_urdf().replace('</robot>', SENSOR)
    params = {'robot_description': urdf, 'mode': 'simulate', 'rate_hz': 100.0,
              'initial_position': [0.0, 0.0, -10.0], 'publish_markers': False}
    proc, log = start_node(spawn, tmp_path, params)
    probe = Probe(rclpy_context)
    odom = probe.collect(Odometry, 'odometry', qos=200, keep=5000)
    mags = probe.collect(MagneticField, 'magnetometer')
    pub = probe.publisher(WrenchStamped, 'thrust')
    thrust = WrenchStamped()
    thrust.header.frame_id = 'thruster_stern'
    thrust.wrench.force.x = 0.8  # sideways 1 m aft: the vehicle turns
    assert probe.spin_until(lambda: len(mags) >= 15, timeout=60.0, proc=proc, log=log,
                            action=lambda: pub.publish(thrust)), 'no MagneticField'
    probe.spin_for(0.3)
    by_stamp = {_stamp(m): m for m in odom}
    matched = [m for m in mags if _stamp(m) in by_stamp]
    assert len(matched) >= 0.9 * len(mags)
    # MagnetometerROSPlugin::Load, defaults declination 0
    field = 50.0 * np.array([math.cos(0.9) * math.cos(0.4), math.cos(0.9) * math.sin(0.4),
                             -math.sin(0.9)])
    r_link = quat_to_matrix(quat_from_rpy(0.0, 0.0, 0.6))
    yaws = []
    for msg in matched:
        o = by_stamp[_stamp(msg)].pose.pose.orientation
        rot = quat_to_matrix([o.w, o.x, o.y, o.z])
        # RotateVectorReverse in the link, then the local NED frame (roll pi)
        want = np.array([1.0, -1.0, -1.0]) * ((rot @ r_link).T @ field)
        got = [msg.magnetic_field.x, msg.magnetic_field.y, msg.magnetic_field.z]
        assert np.allclose(got, want, rtol=0, atol=1e-9), (got, want)
        assert msg.header.frame_id == 'mag_link_ned'
        assert list(msg.magnetic_field_covariance[::4]) == [1.0, 1.0, 1.4 ** 2]
        yaws.append(math.atan2(rot[1, 0], rot[0, 0]))
    assert max(yaws) - min(yaws) > 1e-3  # the field turned in the sensor frame
    probe.close()
