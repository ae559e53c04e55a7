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
Offline like online for a vehicle with moving links: simulate's joint commands and bag, replay.

* ``simulate`` with joint commands gives the joint states of
  :class:`ArticulatedSimulateMode` stepped here by hand with the same commands at the same
  steps (the offline tool adds nothing of its own), and its bag carries them on
  /joint_states; the arm link's /tf is the revolute joint's rotation about its axis at
  the joint angle of the same stamp, written out (Rodrigues), at the joint's origin;
  the fixed camera link is on /tf_static.
* ``replay`` of that bag: each link's wrench equals LinkWrenchMode fed the bag's joint
  states and odometry independently here, and the per-link wrenches moved to the base
  through the bag's own /tf sum to the total on /hydro/wrench (no fins or hull).
* Errors: initial joint positions and profiles name the joint, the file and the line;
  nothing is written.
"""
import pathlib

import numpy as np
import pytest
from required_modules import require

require('pinocchio')

from uwv_hydro.cli.main import main  # noqa: E402
from uwv_hydro.description.loader import load_vehicle  # noqa: E402

URDF = pathlib.Path(__file__).resolve().parents[2] / 'corpus' / 'uuv_simulator' / \
    'arm_vehicle_like.urdf'
ARM_YAML = pathlib.Path(__file__).resolve().parents[2] / 'corpus' / 'arm_links.yaml'
#: The shoulder's origin in base_link and axis (the URDF's <origin> and <axis>).
SHOULDER_ORIGIN = np.array([0.4, 0.0, -0.1])
#: Angles of order one and poses of metres composed in a few products: rounding only.
TOL = 1e-12


def _read(path, topics):
    from rosbags.highlevel import AnyReader
    out = {t: [] for t in topics}
    with AnyReader([pathlib.Path(path)]) as bag:
        conns = [c for c in bag.connections if c.topic in topics]
        for conn, stamp, raw in bag.messages(connections=conns):
            out[conn.topic].append((stamp, bag.deserialize(raw, conn.msgtype)))
    return out


def _ns(stamp):
    return stamp.sec * 10 ** 9 + stamp.nanosec


def _simulate(tmp_path, *extra, name='arm.mcap', vehicle=URDF):
    out = tmp_path / name
    assert main(['simulate', str(vehicle), '--duration', '1.0', '--initial-position', '0', '0',
                 '-5', '--no-sensors', '--out', str(out)] + [str(e) for e in extra]) == 0
    return out


def test_joint_commands_give_the_modes_joint_states(tmp_path):
    from uwv_hydro.modes.articulated_simulate_mode import ArticulatedSimulateMode
    from uwv_hydro.physics.body.dynamics import State
    shoulder = tmp_path / 'shoulder.csv'
    shoulder.write_text('t,position\n0,0.5\n0.5,-0.3\n')
    bag = _simulate(tmp_path, '--joint-command', 'shoulder', shoulder,
                    '--initial-joint-positions', '0.2')
    # the mode stepped by hand: 0.5 from the first step, -0.3 from the step at 0.5 s
    params = load_vehicle(str(URDF))
    mode = ArticulatedSimulateMode(params, dt=0.01, initial=State(
        position=np.array([0.0, 0.0, -5.0]), quaternion=np.array([1.0, 0, 0, 0]),
        twist=np.zeros(6)), joint_positions=[0.2])
    expected = [(mode.q.copy(), mode.qd.copy(), mode.efforts.copy())]
    for k in range(100):
        if k in (0, 50):
            mode.command(0, 'position', 0.5 if k == 0 else -0.3)
        mode.step()
        expected.append((mode.q.copy(), mode.qd.copy(), mode.efforts.copy()))
    got = _read(bag, ['/joint_states', '/tf', '/tf_static', '/odometry'])
    states = got['/joint_states']
    assert len(states) == 101
    for k, (stamp, msg) in enumerate(states):
        assert stamp == _ns(msg.header.stamp) == k * 10 ** 7
        assert list(msg.name) == ['shoulder'] and msg.header.frame_id == ''
        for value, want in zip((msg.position, msg.velocity, msg.effort), expected[k]):
            np.testing.assert_allclose(value, want, rtol=0, atol=TOL)
    assert states[0][1].position[0] == pytest.approx(0.2, abs=TOL)
    # the arm moved towards each command in turn
    assert states[50][1].position[0] > 0.4 and states[100][1].position[0] < 0.2
    # /tf: one odom -> base_link and one base_link -> arm_link per stamp
    angle = {stamp: msg.position[0] for stamp, msg in states}
    arm = [(stamp, t) for stamp, m in got['/tf'] for t in m.transforms
           if t.child_frame_id == 'arm_link']
    base = [t for _, m in got['/tf'] for t in m.transforms if t.child_frame_id == 'base_link']
    assert len(arm) == len(base) == 101
    for stamp, t in arm:
        q = angle[stamp]
        assert _ns(t.header.stamp) == stamp and t.header.frame_id == 'base_link'
        r, v = t.transform.rotation, t.transform.translation
        # a rotation by q about the axis y: [cos q/2, sin q/2 * (0, 1, 0)]
        np.testing.assert_allclose([r.w, r.x, r.y, r.z], [np.cos(q / 2), 0, np.sin(q / 2), 0],
                                   atol=TOL)
        np.testing.assert_allclose([v.x, v.y, v.z], SHOULDER_ORIGIN, atol=TOL)
    (_, static), = got['/tf_static']
    camera = [t for t in static.transforms if t.child_frame_id == 'camera_link']
    assert len(camera) == 1 and camera[0].header.frame_id == 'base_link'
    np.testing.assert_allclose([camera[0].transform.translation.x,
                                camera[0].transform.translation.z], [0.3, 0.1], atol=TOL)


def test_joint_state_profile_is_the_per_joint_commands(tmp_path):
    # the two-joint arm: one JointState profile equals a CSV per joint, velocity and effort
    profile = tmp_path / 'profile.csv'
    profile.write_text('t,shoulder,elbow\n0,0.2,-0.1\n0.3,-0.1,0.2\n')
    shoulder, elbow = tmp_path / 'shoulder.csv', tmp_path / 'elbow.csv'
    shoulder.write_text('t,velocity\n0,0.2\n0.3,-0.1\n')
    elbow.write_text('t,velocity\n0,-0.1\n0.3,0.2\n')
    one = _simulate(tmp_path, '--joint-profile', profile, '--joint-interface', 'velocity',
                    name='one.mcap', vehicle=ARM_YAML)
    each = _simulate(tmp_path, '--joint-command', 'shoulder', shoulder, '--joint-command',
                     'elbow', elbow, name='each.mcap', vehicle=ARM_YAML)
    a = _read(one, ['/joint_states'])['/joint_states']
    b = _read(each, ['/joint_states'])['/joint_states']
    assert len(a) == len(b) == 101
    for (_, x), (_, y) in zip(a, b):
        assert list(x.name) == ['shoulder', 'elbow']
        np.testing.assert_array_equal(x.position, y.position)
        np.testing.assert_array_equal(x.velocity, y.velocity)
    # the elbow's second row (-0.1 -> +0.2 rad/s at 0.3 s) turned its velocity around
    assert a[100][1].velocity[1] > a[30][1].velocity[1] + 0.2


def test_replay_gives_each_links_wrench_and_their_sum(tmp_path):
    from uwv_hydro.modes.link_wrench_mode import LinkWrenchMode
    from uwv_hydro.physics.spatial.rotation import quat_to_matrix
    command = tmp_path / 'shoulder.csv'
    command.write_text('t,position\n0,1.0\n')
    bag = _simulate(tmp_path, '--joint-command', 'shoulder', command,
                    '--initial-velocity', '0.4', '0.1', '0', '0', '0', '0.2')
    out = tmp_path / 'wrenches.mcap'
    assert main(['replay', str(bag), '--vehicle', str(URDF), '--out', str(out)]) == 0
    inputs = _read(bag, ['/odometry', '/joint_states', '/tf'])
    outputs = _read(out, ['/hydro/wrench', '/hydro/links/base_link/wrench',
                          '/hydro/links/arm_link/wrench'])
    mode = LinkWrenchMode(load_vehicle(str(URDF)))
    assert mode.link_names == ['base_link', 'arm_link']
    arm_tf = {stamp: t for stamp, m in inputs['/tf'] for t in m.transforms
              if t.child_frame_id == 'arm_link'}

    def wrench(msg):
        f, t = msg.wrench.force, msg.wrench.torque
        return np.array([f.x, f.y, f.z, t.x, t.y, t.z])

    assert len(outputs['/hydro/wrench']) == 101
    scale = 0.0
    for k, ((stamp, odom), (_, joints)) in enumerate(zip(inputs['/odometry'],
                                                         inputs['/joint_states'])):
        mode.joint_state(joints.name, joints.position, joints.velocity)
        p, o, v = odom.pose.pose.position, odom.pose.pose.orientation, odom.twist.twist
        wc = mode.evaluate(stamp * 1e-9, [p.x, p.y, p.z], [o.w, o.x, o.y, o.z],
                           [v.linear.x, v.linear.y, v.linear.z, v.angular.x, v.angular.y,
                            v.angular.z])
        total = wrench(outputs['/hydro/wrench'][k][1])
        links = [wrench(outputs['/hydro/links/%s/wrench' % name][k][1])
                 for name in ('base_link', 'arm_link')]
        scale = max(scale, np.abs(total).max())
        np.testing.assert_allclose(total, wc.total, rtol=0, atol=1e-12 * (1 + abs(total).max()))
        for got, want in zip(links, wc.link_wrenches):
            np.testing.assert_allclose(got, want, rtol=0, atol=1e-12 * (1 + abs(want).max()))
        # the sum: the arm's wrench moved to base_link through the bag's /tf (dual map)
        t = arm_tf[stamp].transform
        r = quat_to_matrix([t.rotation.w, t.rotation.x, t.rotation.y, t.rotation.z])
        p_arm = np.array([t.translation.x, t.translation.y, t.translation.z])
        force, torque = r @ links[1][:3], r @ links[1][3:]
        moved = np.r_[force, torque + np.cross(p_arm, force)]
        np.testing.assert_allclose(links[0] + moved, total, rtol=0,
                                   atol=1e-9 * (1 + abs(total).max()))
    assert scale > 1.0  # the buoyancy and drag were there to compare


def test_joint_errors_name_the_joint_and_file(tmp_path, capsys):
    def error(*extra, vehicle=URDF):
        out = tmp_path / 'bad.mcap'
        code = main(['simulate', str(vehicle), '--duration', '0.1', '--out', str(out)]
                    + [str(e) for e in extra])
        assert code == 2 and not out.exists()
        return capsys.readouterr().err.splitlines()[-1]

    assert error('--initial-joint-positions', '2.0') == (
        'error: --initial-joint-positions[0] = 2.0: outside the position limits [-1.5, 1.5] '
        'of joint shoulder')
    assert error('--initial-joint-positions', '0.1', '0.2').endswith(
        '2 values given; the vehicle has 1 moving joints, one value each in this order: '
        'shoulder')
    bad = tmp_path / 'bad.csv'
    bad.write_text('t,wrist\n0,0.1\n')
    assert error('--joint-profile', bad) == (
        "error: %s:1: no moving joint 'wrist' (column 2); the moving joints: shoulder" % bad)
    bad.write_text('t,position\n0,0.1\n0,0.2\n')
    assert error('--joint-command', 'shoulder', bad) == (
        'error: %s:3: times must increase (0 after 0)' % bad)
    bad.write_text('t,torque\n0,0.1\n')
    assert error('--joint-command', 'shoulder', bad).startswith(
        'error: %s:1: header must be t,<kind> with <kind> one of position, velocity, effort'
        % bad)
    rigid = pathlib.Path(__file__).resolve().parents[3] / 'config' / 'bluerov2.yaml'
    assert error('--initial-joint-positions', '0.1', vehicle=rigid).endswith(
        '--initial-joint-positions: vehicle bluerov2 has no moving joints')
