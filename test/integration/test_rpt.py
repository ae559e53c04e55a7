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
uuv_simulator's RPT (acoustic positioning): position in the reference frame, with noise.

RPTROSPlugin::OnUpdate: p = link world position - reference position, rotated by the
reference's inverse (RotateVectorReverse), plus amp * N(0, noise_sigma) per axis
(ROSBasePlugin::GetGaussianNoise); the message (PositionWithCovarianceStamped) carries
noise_sigma^2 on the covariance diagonal and frame_id the reference frame.  Re-derived
below on a look-alike (our own numbers): the model, simulate's bags and the node's
output over real DDS.
"""
import math

import numpy as np
import pytest

from uwv_hydro.description.loader import load_vehicle_string
from uwv_hydro.physics.sensing.sensors import build_sensor
from uwv_hydro.physics.spatial.rotation import quat_from_rpy, quat_to_matrix

XYZ = np.array([0.4, -0.2, 0.3])  # the rpt link in the base


def uuv_robot(extra=''):
    """Return a base link and uuv's RPT on a zero-range revolute link."""
    return """<?xml version="1.0"?>
<robot name="rpt">
  <link name="base_link"><inertial><mass value="100"/>
    <inertia ixx="10" ixy="0" ixz="0" iyy="10" iyz="0" izz="10"/></inertial></link>
  <link name="rpt_link"><inertial><mass value="0.001"/>
    <inertia ixx="1e-8" ixy="0" ixz="0" iyy="1e-8" iyz="0" izz="1e-8"/></inertial></link>
  <joint name="rpt_joint" type="revolute"><parent link="base_link"/><child link="rpt_link"/>
    <origin xyz="%s" rpy="0 0 0"/><axis xyz="1 0 0"/>
    <limit upper="0" lower="0" effort="0" velocity="0"/></joint>
  <gazebo><plugin filename="libuuv_gazebo_ros_rpt_plugin.so" name="rpt_plugin">
    <robot_namespace>rpt</robot_namespace><link_name>rpt_link</link_name>
    <sensor_topic>rpt</sensor_topic><update_rate>0.5</update_rate>%s
  </plugin></gazebo>
</robot>
""" % (' '.join(map(str, XYZ)), extra)


STATES = [([1.0, -2.0, -30.0], quat_from_rpy(0.1, -0.2, 1.3)),
          ([-4.0, 7.0, -12.5], quat_from_rpy(-0.4, 0.3, -2.0))]


def test_uuv_rpt_in_the_world_frame():
    params = load_vehicle_string(uuv_robot(), 'rpt.urdf')
    (spec,) = [s for s in params.sensors if s.kind == 'rpt']
    assert (spec.topic, spec.update_rate, spec.model.reference_frame) == ('rpt', 0.5, '')
    model = build_sensor(spec, params)
    for p, q in STATES:
        got = model.measure(0.0, p, q, np.zeros(6), None).position
        # link world position (p + R r), reference the world: as is
        assert np.allclose(got, np.array(p) + quat_to_matrix(q) @ XYZ, rtol=0, atol=1e-12)


def test_uuv_rpt_reference_frame_noise_and_covariance():
    extra = ('<static_reference_frame>ssbl</static_reference_frame>'
             '<noise_sigma>0.5</noise_sigma><noise_amplitude>2.0</noise_amplitude>')
    params = load_vehicle_string(uuv_robot(extra), 'rpt.urdf')
    spec = params.sensors[0]
    assert spec.model.reference_frame == 'ssbl'
    assert any('static_reference_frame' in w and 'ssbl' in w for w in params.warnings)
    # a YAML gives the reference pose uuv reads from /tf_static
    spec.model.reference_position, spec.model.reference_rpy = (10.0, -5.0, -2.0), (0, 0, 0.7)
    model = build_sensor(spec, params)
    p, q = STATES[0]
    truth = quat_to_matrix(quat_from_rpy(0, 0, 0.7)).T @ (
        np.array(p) + quat_to_matrix(q) @ XYZ - [10.0, -5.0, -2.0])
    n = 4000
    samples = np.array([model.measure(2.0 * k, p, q, np.zeros(6), None).position
                        for k in range(n)]) - truth
    # amp * N(0, sigma): stddev 1.0 per axis (relative standard error 1.1 %, 5 % allowed)
    assert np.allclose(samples.std(axis=0), [1.0] * 3, rtol=0.05)
    assert np.all(np.abs(samples.mean(axis=0)) < 5.0 / math.sqrt(n))  # no bias
    reading = model.measure(0.0, p, q, np.zeros(6), None)
    assert np.array(reading.covariance)[[0, 4, 8]].tolist() == [0.25] * 3  # uuv: sigma^2


RPT_BODY = """
uwv_hydro:
  ros__parameters:
    vehicle:
      name: rpt_body
      mass: 50.0
      inertia: {ixx: 2.0, iyy: 5.0, izz: 5.0}
      buoyancy_mass: 50.0
      linear_drag: {xx: 3.0, yy: 30.0, zz: 30.0, rr: 5.0, pp: 5.0, hh: 5.0}
      sensors:
        usbl:
          type: rpt
          update_rate: 5.0
          topic: rpt
          pose: [0.3, 0.0, -0.1, 0.0, 0.0, 0.0]
          rpt: {reference_position: [1.0, 2.0, 0.0], reference_frame: ssbl}
"""


def test_offline_simulate_bag_has_uuvs_message(tmp_path):
    from test_offline_tools import run_cli
    from test_simulate_outputs import read_bag
    body = tmp_path / 'rpt.yaml'
    body.write_text(RPT_BODY)
    run_cli('simulate', body, '--duration', 1, '--thrust', 20, 0, 0, 0, 0, 3,
            '--initial-position', 0, 0, -10, '--out', tmp_path / 'r.mcap')
    bag = read_bag(tmp_path / 'r.mcap')
    kind, stamps, messages = bag['/rpt']
    assert kind == 'uuv_sensor_ros_plugins_msgs/msg/PositionWithCovarianceStamped'
    assert stamps == [k * 200_000_000 for k in range(6)]
    odom = dict(zip(bag['/odometry'][1], bag['/odometry'][2]))
    for stamp, msg in zip(stamps, messages):
        pose = odom[stamp].pose.pose
        rot = quat_to_matrix([pose.orientation.w, pose.orientation.x, pose.orientation.y,
                              pose.orientation.z])
        p = np.array([pose.position.x, pose.position.y, pose.position.z])
        want = p + rot @ [0.3, 0.0, -0.1] - [1.0, 2.0, 0.0]
        got = [msg.pos.pos.x, msg.pos.pos.y, msg.pos.pos.z]
        assert np.allclose(got, want, rtol=0, atol=1e-12)
        assert msg.header.frame_id == 'ssbl'
    assert abs(messages[-1].pos.pos.x - messages[0].pos.pos.x) > 0.01  # it moved


@pytest.mark.ros
def test_node_publishes_uuvs_rpt_message(rclpy_context, spawn, tmp_path):
    from nodes.harness import analytic_vehicle_urdf, Probe, start_node
    from nav_msgs.msg import Odometry
    from uuv_sensor_ros_plugins_msgs.msg import PositionWithCovarianceStamped
    sensor = """
  <link name="rpt_link"/>
  <joint name="rpt_joint" type="fixed"><parent link="base_link"/><child link="rpt_link"/>
    <origin xyz="0.4 -0.2 0.3"/></joint>
  <gazebo><plugin filename="libuuv_gazebo_ros_rpt_plugin.so" name="rpt">
    <link_name>rpt_link</link_name><sensor_topic>rpt</sensor_topic>
    <update_rate>10</update_rate><noise_sigma>0.3</noise_sigma></plugin></gazebo>
</robot>"""
    urdf = analytic_vehicle_urdf().replace('</robot>', sensor)
    params = {'robot_description': urdf, 'mode': 'simulate', 'rate_hz': 100.0,
              'initial_position': [1.0, -2.0, -10.0], 'publish_markers': False}
    proc, log = start_node(spawn, tmp_path, params)
    probe = Probe(rclpy_context)
    odom = probe.collect(Odometry, 'odometry', qos=200, keep=5000)
    got = probe.collect(PositionWithCovarianceStamped, 'rpt')
    assert probe.spin_until(lambda: len(got) >= 5, timeout=60.0, proc=proc, log=log)
    probe.spin_for(0.3)
    by_stamp = {m.header.stamp.sec * 10**9 + m.header.stamp.nanosec: m for m in odom}
    matched = 0
    for msg in got:
        o = by_stamp.get(msg.header.stamp.sec * 10**9 + msg.header.stamp.nanosec)
        if o is None:
            continue
        matched += 1
        q = o.pose.pose.orientation
        p = o.pose.pose.position
        want = np.array([p.x, p.y, p.z]) + quat_to_matrix([q.w, q.x, q.y, q.z]) @ XYZ
        # noise_amplitude defaults to 0 (ROSBasePlugin): the exact position
        assert np.allclose([msg.pos.pos.x, msg.pos.pos.y, msg.pos.pos.z], want, atol=1e-9)
        assert msg.header.frame_id == 'odom'  # the world: the node's odom frame
        assert list(msg.pos.covariance[::4]) == pytest.approx([0.09] * 3)
    assert matched >= 0.9 * len(got)
    probe.close()
