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
Wrench mode of a vehicle whose links move, over real DDS: odometry + joint_states in.

The node loads ``nodes/arm_vehicle_like.urdf`` (a one-joint arm whose
link has its own underwater-object block) in wrench mode; the test publishes odometry
and sensor_msgs/JointState and receives each link's WrenchStamped (its own frame) and,
for gz-sim's ApplyLinkWrench, one EntityWrench per body.  The expected numbers come
from LinkWrenchMode run here on the same file (the mode's physics is tested in
test_link_wrench_mode.py; this checks the plumbing: names, frames, the joint order by
name, the gz entities), and the links' wrenches moved to the base sum to hydro/wrench.
Bad joint states are dropped and counted in /diagnostics, an unknown joint is warned
about once, and the node runs on.
"""
from nodes.harness import diag_values, odometry_msg, Probe, read_log, REPO, start_node
import numpy as np
import pytest

pytestmark = pytest.mark.ros

# beside the node helpers (the corpus has its own arm look-alikes)
VEHICLE = str(REPO / 'test' / 'helpers' / 'nodes' / 'arm_vehicle_like.urdf')
NU = np.array([0.6, -0.1, 0.05, 0.02, -0.03, 0.15])
POSITION = np.array([1.0, 2.0, -20.0])
QUATERNION = np.array([0.98, 0.05, -0.1, 0.15]) / np.linalg.norm([0.98, 0.05, -0.1, 0.15])
SHOULDER = (1.2, -0.4)  # position (rad), velocity (rad/s)


def _vehicle():
    from uwv_hydro.description.loader import load_vehicle
    params = load_vehicle(VEHICLE)
    assert params.tree is not None, 'the arm of %s must be kept in the kinematic tree' % VEHICLE
    return params


def _array(w):
    return np.array([w.force.x, w.force.y, w.force.z, w.torque.x, w.torque.y, w.torque.z])


def _joint_state(names, position, velocity=()):
    from sensor_msgs.msg import JointState
    msg = JointState()
    msg.name = list(names)
    msg.position = [float(v) for v in position]
    msg.velocity = [float(v) for v in velocity]
    return msg


def _expected():
    from uwv_hydro.modes.link_wrench_mode import LinkWrenchMode
    mode = LinkWrenchMode(_vehicle(), 'implicit', apply_weight=True)
    assert mode.joint_state(['shoulder'], [SHOULDER[0]], [SHOULDER[1]]) is None
    return mode.evaluate(1.0, POSITION, QUATERNION, NU)


def test_each_link_gets_its_own_wrench(rclpy_context, spawn, tmp_path):
    from geometry_msgs.msg import WrenchStamped
    from nav_msgs.msg import Odometry
    from ros_gz_interfaces.msg import EntityWrench
    from sensor_msgs.msg import JointState
    from transforms3d.quaternions import quat2mat
    want = _expected()
    assert want.link_names[0] == 'base_link' and 'arm_link' in want.link_names
    assert want.body_names == ['base_link', 'arm_link']
    arm = want.link_names.index('arm_link')
    proc, log = start_node(spawn, tmp_path, {
        'vehicle_file': VEHICLE, 'mode': 'wrench', 'rate_hz': 50.0, 'apply_weight': True,
        'odometry_timeout': 600.0, 'gz_entity_wrench': True, 'gz_model_name': 'arm_rov'})
    probe = Probe(rclpy_context)
    links = {name: probe.collect(WrenchStamped, 'hydro/links/%s/wrench' % name, keep=5)
             for name in want.link_names}
    base = probe.collect(WrenchStamped, 'hydro/wrench', keep=5)
    entities = probe.collect(EntityWrench, 'hydro/entity_wrench', keep=10)
    odometry = probe.publisher(Odometry, 'odometry')
    joints = probe.publisher(JointState, 'joint_states')
    # an unknown joint first (ignored), then the arm's, in one message
    state = _joint_state(['gripper', 'shoulder'], [0.3, SHOULDER[0]], [0.0, SHOULDER[1]])
    odom = odometry_msg(POSITION, QUATERNION, NU, 10 ** 9)

    def arrived():
        # every link's latest and the base's from the state sent (messages of a cycle
        # before it reached the node come first and are passed over)
        if not (all(links.values()) and base):
            return False
        return all(np.allclose(_array(links[name][-1].wrench), want.link_wrenches[k],
                               rtol=0, atol=1e-9)
                   for k, name in enumerate(want.link_names)) and np.allclose(
            _array(base[-1].wrench), want.total, rtol=0, atol=1e-9)

    assert probe.spin_until(arrived, timeout=60.0, proc=proc, log=log, action=lambda: (
        joints.publish(state), odometry.publish(odom))), read_log(log)
    for k, name in enumerate(want.link_names):
        msg = links[name][-1]
        assert msg.header.frame_id == name
        np.testing.assert_allclose(_array(msg.wrench), want.link_wrenches[k], rtol=0,
                                   atol=1e-9, err_msg=name)
    np.testing.assert_allclose(_array(base[-1].wrench), want.total, rtol=0, atol=1e-9)
    # per body, world axes, about each body's origin: the entities gz-sim knows
    expected = {'arm_rov::' + body: np.r_[rot @ w[:3], rot @ w[3:]] for body, rot, w in zip(
        want.body_names, want.body_rotations, want.body_wrenches)}

    def latest():
        return {e.entity.name: _array(e.wrench) for e in entities}

    # each entity's latest from the state sent (its topic's messages of an earlier cycle
    # may come after the links' of this one)
    assert probe.spin_until(lambda: latest().keys() >= expected.keys() and all(
        np.allclose(latest()[name], value, rtol=0, atol=1e-9)
        for name, value in expected.items()), timeout=30.0, proc=proc, log=log), (
        latest(), expected)
    # the arm's frame is the base's turned by the joint angle about z
    np.testing.assert_allclose(quat2mat(QUATERNION).T @ want.link_rotations[arm] @ [1, 0, 0],
                               [np.cos(SHOULDER[0]), np.sin(SHOULDER[0]), 0.0], atol=1e-12)
    assert read_log(log).count("joint 'gripper'") == 1
    probe.close()


def test_bad_joint_states_are_dropped_and_counted(rclpy_context, spawn, tmp_path):
    from diagnostic_msgs.msg import DiagnosticArray
    from geometry_msgs.msg import WrenchStamped
    from nav_msgs.msg import Odometry
    from sensor_msgs.msg import JointState
    want = _expected()
    arm_row = want.link_names.index('arm_link')
    proc, log = start_node(spawn, tmp_path, {
        'vehicle_file': VEHICLE, 'mode': 'wrench', 'rate_hz': 50.0, 'apply_weight': True,
        'odometry_timeout': 600.0, 'diagnostics_period': 0.2})
    probe = Probe(rclpy_context)
    arm = probe.collect(WrenchStamped, 'hydro/links/arm_link/wrench', keep=5)
    diags = probe.collect(DiagnosticArray, '/diagnostics', keep=5)
    odometry = probe.publisher(Odometry, 'odometry')
    joints = probe.publisher(JointState, 'joint_states')
    good = _joint_state(['shoulder'], [SHOULDER[0]], [SHOULDER[1]])
    bad = [_joint_state(['shoulder'], []), _joint_state(['shoulder'], [float('nan')], [0.0]),
           _joint_state(['shoulder'], [0.1], [0.0, 0.0])]
    odom = odometry_msg(POSITION, QUATERNION, NU, 10 ** 9)

    def counted():
        values = diag_values(diags[-1], 'input joint_states') if diags else {}
        return int(values.get('bad_length', 0)) >= 2 and int(values.get('non_finite', 0)) >= 1

    # the good state, then the bad ones: the wrench stays the good state's
    assert probe.spin_until(lambda: arm and np.allclose(
        _array(arm[-1].wrench), want.link_wrenches[arm_row], rtol=0, atol=1e-9), timeout=60.0,
        proc=proc, log=log, action=lambda: (joints.publish(good), odometry.publish(odom)))
    assert probe.spin_until(counted, timeout=30.0, proc=proc, log=log, action=lambda: (
        [joints.publish(m) for m in bad], odometry.publish(odom))), read_log(log)
    probe.spin_for(0.3, action=lambda: odometry.publish(odom))
    np.testing.assert_allclose(_array(arm[-1].wrench), want.link_wrenches[arm_row], rtol=0,
                               atol=1e-9)
    assert proc.poll() is None
    assert 'dropped a message on joint_states: bad_length' in read_log(log)
    probe.close()


def test_joint_states_of_changing_layouts_and_malformed_bytes(rclpy_context, spawn, tmp_path):
    """
    The node reads joint_states as bytes, one layout at a time (names, array lengths).

    A second layout on the topic (other names, order and lengths, no velocity) is
    read as it is, the first again after it; bytes that are no JointState are dropped
    as ``malformed`` and the node runs on.
    """
    from diagnostic_msgs.msg import DiagnosticArray
    from geometry_msgs.msg import WrenchStamped
    from nav_msgs.msg import Odometry
    from sensor_msgs.msg import JointState
    from uwv_hydro.modes.link_wrench_mode import LinkWrenchMode
    proc, log = start_node(spawn, tmp_path, {
        'vehicle_file': VEHICLE, 'mode': 'wrench', 'rate_hz': 50.0, 'apply_weight': True,
        'odometry_timeout': 600.0, 'diagnostics_period': 0.2})
    probe = Probe(rclpy_context)
    arm = probe.collect(WrenchStamped, 'hydro/links/arm_link/wrench', keep=5)
    diags = probe.collect(DiagnosticArray, '/diagnostics', keep=5)
    odometry = probe.publisher(Odometry, 'odometry')
    joints = probe.publisher(JointState, 'joint_states')
    odom = odometry_msg(POSITION, QUATERNION, NU, 10 ** 9)
    first = _joint_state(['shoulder'], [SHOULDER[0]], [SHOULDER[1]])
    # the velocity of the first layout is kept: this one has none
    second = _joint_state(['gripper', 'x/y', 'shoulder'], [0.2, 0.0, -0.7])
    first_again = _joint_state(['shoulder'], [0.25], [0.5])

    def wrench_of(position, velocity):
        mode = LinkWrenchMode(_vehicle(), 'implicit', apply_weight=True)
        assert mode.joint_state(['shoulder'], [position], [velocity]) is None
        out = mode.evaluate(1.0, POSITION, QUATERNION, NU)
        return out.link_wrenches[out.link_names.index('arm_link')]

    for msg, want in ((first, wrench_of(*SHOULDER)), (second, wrench_of(-0.7, SHOULDER[1])),
                      (first_again, wrench_of(0.25, 0.5))):
        assert probe.spin_until(lambda: arm and np.allclose(
            _array(arm[-1].wrench), want, rtol=0, atol=1e-9), timeout=60.0, proc=proc,
            log=log, action=lambda: (joints.publish(msg), odometry.publish(odom))), \
            (list(msg.name), read_log(log))
    garbage = b'\x00\x01\x00\x00' + b'\x07' * 13  # a frame id longer than the message

    def counted():
        values = diag_values(diags[-1], 'input joint_states') if diags else {}
        return int(values.get('malformed', 0)) >= 1

    assert probe.spin_until(counted, timeout=30.0, proc=proc, log=log, action=lambda: (
        joints.publish(garbage), odometry.publish(odom))), read_log(log)
    assert 'dropped a message on joint_states: malformed' in read_log(log)
    assert proc.poll() is None
    probe.close()
