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
Navigation sensors of the simulate mode over real DDS: rate, frame and values.

The analytic test vehicle (nodes/harness.py) carries noise-free sensors on rotated,
offset links.  A sideways thruster 1 m aft makes it sway and turn at steady rates;
every sensor message is matched with the odometry message of the same stamp, and its
value recomputed from that odometry by the rigid-body formulas (lever arm, sensor
axes), so the check is independent of the node's timing on this loaded machine.
"""
import math

from nodes.harness import analytic_vehicle_urdf, diag_values, Probe, start_node
import numpy as np
import pytest

pytestmark = pytest.mark.ros

SENSORS = """
  <link name="imu_link"/>
  <joint name="imu_joint" type="fixed"><parent link="base_link"/><child link="imu_link"/>
    <origin xyz="0.4 -0.2 0.1" rpy="3.141592653589793 0 0.7"/></joint>
  <link name="dvl_link"/>
  <joint name="dvl_joint" type="fixed"><parent link="base_link"/><child link="dvl_link"/>
    <origin xyz="0.6 0.3 -0.25" rpy="3.141592653589793 0 0.7853981633974483"/></joint>
  <gazebo reference="imu_link">
    <sensor name="imu" type="imu"><update_rate>100</update_rate><topic>imu/data</topic>
    </sensor>
  </gazebo>
  <gazebo reference="base_link">
    <sensor name="depth" type="fluid_pressure"><update_rate>10</update_rate>
      <pose>-0.3 0 0.45 0 0 0</pose></sensor>
  </gazebo>
  <gazebo reference="dvl_link">
    <sensor name="dvl" type="dvl"><update_rate>20</update_rate><topic>dvl/twist</topic>
      <dvl><seabed_depth>30</seabed_depth><max_altitude>50</max_altitude></dvl>
    </sensor>
    <sensor name="dvl_far" type="dvl"><update_rate>20</update_rate>
      <dvl><seabed_depth>30</seabed_depth><max_altitude>5</max_altitude></dvl>
    </sensor>
  </gazebo>
  <gazebo reference="base_link">
    <sensor name="gps" type="navsat"><update_rate>2</update_rate><topic>gps/fix</topic>
      <navsat><latitude_deg>41.5</latitude_deg><longitude_deg>-70.7</longitude_deg>
        <surfaced_depth>20</surfaced_depth></navsat>
    </sensor>
  </gazebo>
</robot>"""


def _urdf() -> str:
    return analytic_vehicle_urdf().replace('</robot>', SENSORS)


def _stamp(msg) -> int:
    return msg.header.stamp.sec * 1_000_000_000 + msg.header.stamp.nanosec


def _state(odom):
    from uwv_hydro.modes.messages import msg_conversions as conv
    p = conv.vector3_to_array(odom.pose.pose.position)
    q = conv.quaternion_msg_to_wxyz(odom.pose.pose.orientation)
    nu = conv.twist_to_array(odom.twist.twist)
    return p, q, nu


def test_each_sensor_at_its_rate_in_its_frame_matches_odometry(
        rclpy_context, spawn, tmp_path):
    """IMU, pressure, DVL, NavSat over DDS during a steady turn with sway, vs odometry."""
    from diagnostic_msgs.msg import DiagnosticArray
    from geometry_msgs.msg import TwistWithCovarianceStamped, WrenchStamped
    from nav_msgs.msg import Odometry
    from sensor_msgs.msg import FluidPressure, Imu, NavSatFix
    from uwv_hydro.description.loader import load_vehicle_string
    from uwv_hydro.physics.environment.geodesy import WGS84_A, WGS84_E2
    from tf2_msgs.msg import TFMessage
    from uwv_hydro.node.node_setup import TF_STATIC_QOS
    from uwv_hydro.physics.spatial.rotation import quat_to_matrix
    from uwv_hydro.physics.sensing.sensors import sensor_mount
    vehicle = load_vehicle_string(_urdf())
    params = {'robot_description': _urdf(), 'mode': 'simulate', 'rate_hz': 200.0,
              'initial_position': [0.0, 0.0, -10.0], 'publish_markers': False}
    proc, log = start_node(spawn, tmp_path, params)
    probe = Probe(rclpy_context)
    odom = probe.collect(Odometry, 'odometry', qos=200, keep=5000)
    got = {'imu': probe.collect(Imu, 'imu/data'),
           'depth': probe.collect(FluidPressure, 'depth'),
           'dvl': probe.collect(TwistWithCovarianceStamped, 'dvl/twist'),
           'dvl_far': probe.collect(TwistWithCovarianceStamped, 'dvl_far'),
           'gps': probe.collect(NavSatFix, 'gps/fix')}
    diags = probe.collect(DiagnosticArray, '/diagnostics', keep=5)
    static = probe.collect(TFMessage, '/tf_static', qos=TF_STATIC_QOS)
    pub = probe.publisher(WrenchStamped, 'thrust')
    thrust = WrenchStamped()
    thrust.header.frame_id = 'thruster_stern'
    thrust.wrench.force.x = 0.8  # sideways (+y body) 1 m aft: sway, surge (Coriolis), yaw

    def steady():
        # Twist change below 1e-9 per 5 ms step: nu_dot < 2e-7
        return len(odom) > 1 and odom[-1].twist.twist.angular.z < -0.5 and max(
            abs(a - b) for a, b in zip(_state(odom[-1])[2], _state(odom[-2])[2])) < 1e-9

    converged = probe.spin_until(steady, timeout=90.0, proc=proc, log=log,
                                 action=lambda: pub.publish(thrust))
    assert converged, 'no steady turn: %s' % (odom[-1].twist.twist if odom else 'no odometry')
    for messages in got.values():
        messages.clear()
    probe.spin_until(lambda: len(got['gps']) >= 3 and len(got['depth']) >= 10, timeout=60.0,
                     proc=proc, log=log, action=lambda: pub.publish(thrust))
    probe.spin_until(lambda: diags and diag_values(diags[-1], 'update loop'), timeout=10.0,
                     proc=proc, log=log)
    probe.spin_for(0.5)  # let the odometry of the last samples arrive
    by_stamp = {_stamp(m): m for m in odom}
    for name, messages in got.items():
        # Every sample has the odometry message of its stamp (one state, both outputs)
        matched = [m for m in messages if _stamp(m) in by_stamp]
        assert len(matched) >= 0.9 * len(messages), (name, len(matched), len(messages))
        messages[:] = matched
    g, rho = vehicle.gravity, vehicle.fluid_density

    def mount(name):
        t, q = sensor_mount(next(s for s in vehicle.sensors if s.name == name), vehicle)
        return np.asarray(t), quat_to_matrix(q)

    # Each sensor at its own rate: stamps exactly one period apart, in its own frame.  A
    # loaded machine never makes the node skip a step (its simulated time falls behind
    # instead, lagged_steps), so only a state restore can shift a sample: then 95 %.
    loop = diag_values(diags[-1], 'update loop')
    strict = loop.get('state_restores') == '0'
    for name, period_ms, frame in (('imu', 10, 'imu_link'), ('depth', 100, 'depth'),
                                   ('dvl', 50, 'dvl_link'), ('gps', 500, 'base_link')):
        stamps = [_stamp(m) for m in got[name]]
        assert len(stamps) >= 3, '%s: %d messages' % (name, len(stamps))
        gaps = np.diff(stamps)
        on_period = np.mean(gaps == period_ms * 1_000_000)
        assert on_period == 1.0 if strict else on_period >= 0.95, (name, loop, gaps)
        assert np.all(gaps % 5_000_000 == 0), name  # on the node's 200 Hz state lattice
        assert {m.header.frame_id for m in got[name]} == {frame}
    assert got['dvl_far'] == [], 'a DVL 20 m above the seabed with max_altitude 5 published'

    r, r_bs = mount('imu')
    worst_rate = worst_force = 0.0
    for msg in got['imu']:
        p, q, nu = _state(by_stamp[_stamp(msg)])
        v, w = nu[:3], nu[3:]
        rate = [msg.angular_velocity.x, msg.angular_velocity.y, msg.angular_velocity.z]
        force = [msg.linear_acceleration.x, msg.linear_acceleration.y,
                 msg.linear_acceleration.z]
        # Steady turn (nu_dot ~ 0): f = R_bs^T (w x v + w x (w x r) + g R^T z)
        expected = r_bs.T @ (np.cross(w, v) + np.cross(w, np.cross(w, r))
                             + g * quat_to_matrix(q).T @ [0.0, 0.0, 1.0])
        worst_rate = max(worst_rate, np.max(np.abs(rate - r_bs.T @ w)))
        worst_force = max(worst_force, np.max(np.abs(force - expected)))
        assert msg.orientation_covariance[0] == 0.0
    assert worst_rate < 1e-12 and worst_force < 1e-5, (worst_rate, worst_force)

    r, r_bs = mount('dvl')
    for msg in got['dvl']:
        p, q, nu = _state(by_stamp[_stamp(msg)])
        expected = r_bs.T @ (nu[:3] + np.cross(nu[3:], r))
        linear = msg.twist.twist.linear
        assert np.max(np.abs([linear.x, linear.y, linear.z] - expected)) < 1e-12
        assert msg.twist.covariance[0] == 0.0 and msg.twist.covariance[21] == -1.0
    assert np.linalg.norm(np.cross(nu[3:], r)) > 0.5  # the lever arm matters in this turn

    r, _ = mount('depth')
    for msg in got['depth']:
        p, q, nu = _state(by_stamp[_stamp(msg)])
        depth = -(p + quat_to_matrix(q) @ r)[2]
        assert abs(depth - 9.55) < 1e-6  # 0.45 m above the origin at 10 m
        assert msg.fluid_pressure == pytest.approx(101325.0 + rho * g * depth, abs=1e-6)

    s = math.sin(math.radians(41.5))
    m_radius = WGS84_A * (1 - WGS84_E2) / (1 - WGS84_E2 * s * s) ** 1.5
    n_radius = WGS84_A / math.sqrt(1 - WGS84_E2 * s * s)
    for msg in got['gps']:
        p, q, nu = _state(by_stamp[_stamp(msg)])
        assert msg.status.status == 0 and msg.position_covariance_type == 2
        assert msg.latitude == pytest.approx(41.5 + math.degrees(p[1] / m_radius), abs=1e-8)
        assert msg.longitude == pytest.approx(
            -70.7 + math.degrees(p[0] / (n_radius * math.cos(math.radians(41.5)))), abs=1e-8)

    # The depth sensor's frame (a pose in base_link) is on /tf_static
    frames = {(t.header.frame_id, t.child_frame_id): t for m in static for t in m.transforms}
    depth_tf = frames[('base_link', 'depth')].transform
    assert (depth_tf.translation.x, depth_tf.translation.z, depth_tf.rotation.w) == (
        -0.3, 0.45, 1.0)
    probe.spin_until(lambda: diags and diag_values(diags[-1], 'sensor dvl_far'),
                     timeout=10.0, proc=proc, log=log)
    far = diag_values(diags[-1], 'sensor dvl_far')
    assert far['state'] == 'no_lock' and float(far['altitude']) == pytest.approx(19.75)
    assert diag_values(diags[-1], 'sensor imu')['state'] == 'ok'
    probe.close()
