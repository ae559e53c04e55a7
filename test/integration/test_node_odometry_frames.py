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
Odometry frame ids in wrench mode (issue 17, item 4), over DDS.

Before, ``child_frame_id`` was never looked at (a twist in a DVL frame was used as the
base link's) and ``header.frame_id: map`` was copied into hydro/wrench_world although
``odom_frame`` is odom.  Now: a header frame other than ``odom_frame`` or a child frame
that is not a vehicle frame is dropped and counted as ``frame_mismatch``; odometry of a
fixed child frame (the DVL, two fixed joints below the base) gives the wrench of the
base state it describes; ``accept_any_odometry_frames`` restores the old behaviour.
"""
from nodes.harness import diag_values, odometry_msg, Probe, REPO, start_node
import numpy as np
import pytest

pytestmark = pytest.mark.ros

VEHICLE = str(REPO / 'urdf' / 'dsros_vehicle.urdf.xacro')
POSITION = np.array([1.0, 2.0, -20.0])
RPY = (0.1, -0.2, 0.3)
NU = np.array([0.7, -0.2, 0.1, 0.05, -0.03, 0.2])


def _odometry(header_frame, child_frame, position, quaternion, nu):
    return odometry_msg(position, quaternion, nu, frame_id=header_frame,
                        child_frame_id=child_frame)


def _array(w):
    return np.array([w.force.x, w.force.y, w.force.z, w.torque.x, w.torque.y, w.torque.z])


def _expected():
    """Return the vehicle and the hydro wrench (no weight) at the base state."""
    from uwv_hydro.description.loader import load_vehicle
    from uwv_hydro.physics.hydro.hydro_model import HydroModel
    from uwv_hydro.physics.spatial.rotation import quat_from_rpy
    vehicle = load_vehicle(VEHICLE)
    wc = HydroModel(vehicle).wrench(NU, POSITION, quat_from_rpy(*RPY), None, None,
                                    engine_added_mass=True)
    return vehicle, wc.total - wc.components['weight']


def _dvl_odometry(vehicle):
    """Return the base state as DVL odometry: pose of the DVL, twist in the DVL frame."""
    from uwv_hydro.physics.spatial.rotation import matrix_to_quat, quat_from_rpy, quat_to_matrix
    t, q_bc = vehicle.frame_transform('dvl_link')
    r_bc = quat_to_matrix(q_bc)
    r_ob = quat_to_matrix(quat_from_rpy(*RPY))
    # the DVL origin rides on the body: v_c = R_bc^T (v_b + w_b x t), w_c = R_bc^T w_b
    v_c = r_bc.T @ (NU[:3] + np.cross(NU[3:], t))
    w_c = r_bc.T @ NU[3:]
    return _odometry('odom', 'dvl_link', POSITION + r_ob @ t, matrix_to_quat(r_ob @ r_bc),
                     np.concatenate((v_c, w_c)))


def test_frame_mismatch_dropped_counted_and_a_dvl_frame_transformed(
        rclpy_context, spawn, tmp_path):
    from diagnostic_msgs.msg import DiagnosticArray
    from geometry_msgs.msg import WrenchStamped
    from nav_msgs.msg import Odometry
    from uwv_hydro.physics.spatial.rotation import quat_from_rpy
    vehicle, expected = _expected()
    proc, log = start_node(spawn, tmp_path, {'vehicle_file': VEHICLE, 'mode': 'wrench',
                                             'rate_hz': 50.0, 'diagnostics_period': 0.2})
    probe = Probe(rclpy_context)
    body = probe.collect(WrenchStamped, 'hydro/wrench', keep=5)
    world = probe.collect(WrenchStamped, 'hydro/wrench_world', keep=5)
    diags = probe.collect(DiagnosticArray, '/diagnostics', keep=3)
    pub = probe.publisher(Odometry, 'odometry')
    q = quat_from_rpy(*RPY)
    in_map = _odometry('map', 'base_link', POSITION, q, NU)
    from_ins = _odometry('odom', 'ins_link', POSITION, q, NU)

    def mismatches():
        return int(diag_values(diags[-1], 'dropped messages').get('frame_mismatch', 0)) \
            if diags else 0

    def publish_bad():
        pub.publish(in_map)
        pub.publish(from_ins)

    assert probe.spin_until(lambda: mismatches() >= 10, timeout=60.0, proc=proc, log=log,
                            action=publish_bad), 'frame_mismatch not counted'
    assert not body and not world, 'a wrench from odometry in the wrong frames'
    text = open(log).read()
    # the warning (throttled per reason) names the offending frame
    assert 'frame_mismatch' in text and ("'map'" in text or "'ins_link'" in text)

    dvl = _dvl_odometry(vehicle)
    assert probe.spin_until(
        lambda: body and world and np.allclose(_array(body[-1].wrench), expected, rtol=0,
                                               atol=1e-9),
        timeout=60.0, proc=proc, log=log, action=lambda: pub.publish(dvl)), (
        'wrench %s, expected %s' % (_array(body[-1].wrench) if body else None, expected))
    assert world[-1].header.frame_id == 'odom'
    # the same state given as the base link's: the same wrench
    del body[:]
    base = _odometry('odom', 'base_link', POSITION, q, NU)
    assert probe.spin_until(lambda: len(body) > 3, timeout=30.0, proc=proc, log=log,
                            action=lambda: pub.publish(base))
    np.testing.assert_allclose(_array(body[-1].wrench), expected, rtol=0, atol=1e-9)
    assert np.any(np.abs(expected[3:]) > 1e-2), 'the state exercises no torque'
    probe.close()


def test_accept_any_odometry_frames_uses_the_header_frame(rclpy_context, spawn, tmp_path):
    from geometry_msgs.msg import WrenchStamped
    from nav_msgs.msg import Odometry
    from uwv_hydro.physics.spatial.rotation import quat_from_rpy
    _, expected = _expected()
    proc, log = start_node(spawn, tmp_path, {'vehicle_file': VEHICLE, 'mode': 'wrench',
                                             'rate_hz': 50.0,
                                             'accept_any_odometry_frames': True})
    probe = Probe(rclpy_context)
    body = probe.collect(WrenchStamped, 'hydro/wrench', keep=5)
    world = probe.collect(WrenchStamped, 'hydro/wrench_world', keep=5)
    pub = probe.publisher(Odometry, 'odometry')
    msg = _odometry('map', 'ins_link', POSITION, quat_from_rpy(*RPY), NU)
    assert probe.spin_until(lambda: body and world, timeout=60.0, proc=proc, log=log,
                            action=lambda: pub.publish(msg))
    np.testing.assert_allclose(_array(body[-1].wrench), expected, rtol=0, atol=1e-9)
    assert world[-1].header.frame_id == 'map'
    probe.close()
