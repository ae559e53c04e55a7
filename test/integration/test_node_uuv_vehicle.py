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
A uuv_simulator vehicle from a ROS 1 package, in the running node (issue 21, items 1, 3).

The lauv-like xacro sits in a catkin package found only through the node's
``package_path`` parameter; its uuv thruster takes std_msgs/Float64 on uuv's own topic
/lauv/thrusters/id_0/input and pushes the vehicle forward.
"""
import pathlib
import shutil

from nodes.harness import Probe, start_node
import pytest

pytestmark = pytest.mark.ros

CORPUS = pathlib.Path(__file__).resolve().parents[1] / 'corpus'
TOP = """<?xml version="1.0"?>
<robot name="lauv" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:include filename="$(find lauv_description)/urdf/lauv.urdf.xacro"/>
</robot>
"""


def test_node_finds_the_ros1_package_and_drives_the_uuv_thruster(
        spawn, rclpy_context, tmp_path):
    from nav_msgs.msg import Odometry
    from std_msgs.msg import Float64
    from uwv_hydro.node.launch_commands.launch_command import stop_node
    package = tmp_path / 'catkin_ws' / 'src' / 'lauv_description'
    (package / 'urdf').mkdir(parents=True)
    (package / 'package.xml').write_text(
        '<package format="2"><name>lauv_description</name><version>1.0.0</version></package>')
    shutil.copy(CORPUS / 'uuv_simulator' / 'lauv_like.urdf.xacro',
                package / 'urdf' / 'lauv.urdf.xacro')
    top = tmp_path / 'lauv_top.urdf.xacro'
    top.write_text(TOP)
    proc, log = start_node(spawn, tmp_path, {
        'vehicle_file': str(top), 'mode': 'simulate', 'rate_hz': 50.0,
        'package_path': [str(tmp_path / 'catkin_ws')], 'initial_position': [0.0, 0.0, -50.0],
        'publish_markers': False})
    probe = Probe(rclpy_context)
    odom = probe.collect(Odometry, 'odometry')
    command = probe.publisher(Float64, '/lauv/thrusters/id_0/input')
    assert probe.spin_until(lambda: probe.node.count_subscribers(
        '/lauv/thrusters/id_0/input') > 0, timeout=60.0, proc=proc, log=log), \
        'the node did not subscribe to the uuv thruster topic'
    # 300 rad/s on a Basic rotor of 4e-4: T = 4e-4 * 300^2 = 36 N forward
    assert probe.spin_until(lambda: odom and odom[-1].twist.twist.linear.x > 0.05,
                            timeout=30.0, proc=proc, log=log,
                            action=lambda: command.publish(Float64(data=300.0)), period=0.05)
    probe.close()
    stop_node(proc, timeout=5)
