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
The equipped LRAUV look-alike: fins on revolute joints whose LiftDrag names no control joint.

gz-sim's LiftDrag (``src/systems/lift_drag/LiftDrag.cc``) takes the angle of attack from
the fin link's own world pose, so the fin joint's angle is the deflection; the
JointPositionController (``JointPositionController.cc``) listens on
``/model/<model>/joint/<joint>/0/cmd_pos``.  Expected signs and forces come from
LiftDrag's formula re-derived here and the file's own geometry.
"""

import math
import pathlib
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from uwv_hydro.description.loader import load_vehicle
from uwv_hydro.description.sdf.joint_controller import ros_fin_topic
from uwv_hydro.modes.fin_servos import FinServos
from uwv_hydro.modes.manoeuvres.manoeuvre import Manoeuvre
from uwv_hydro.modes.simulate_mode import SimulateMode
from uwv_hydro.physics.actuators.fins import FinSet
from uwv_hydro.physics.body.dynamics import State

FILE = (pathlib.Path(__file__).resolve().parents[1] / 'corpus' / 'lrauv'
        / 'tethys_equipped_like.sdf')
ROOT = ET.parse(FILE).getroot()
MODEL = ROOT.find('model')
#: The look-alike's cruise: 1 m/s nose first (the nose is at -x, as the LRAUV's).
CRUISE = 1.0


@pytest.fixture(scope='module')
def tethys():
    return load_vehicle(str(FILE))


def _plugins(word):
    return [p for p in MODEL.findall('plugin') if word in p.get('filename', '')]


def _vec(elem, tag):
    return np.array([float(v) for v in elem.find(tag).text.split()])


def _rodrigues(axis, angle):
    """Return the rotation by ``angle`` about unit ``axis`` (Rodrigues' formula)."""
    k = np.asarray(axis, float) / np.linalg.norm(axis)
    kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + math.sin(angle) * kx + (1 - math.cos(angle)) * kx @ kx


def _joint_axis_in_model(joint_name):
    """Return the joint's axis in the model frame: its pose's roll (the only turn) on <xyz>."""
    joint = MODEL.find("joint[@name='%s']" % joint_name)
    roll = 0.0
    pose = joint.find('pose')
    if pose is not None:
        roll = math.radians(float(pose.text.split()[3]))  # degrees="true"
    return _rodrigues([1, 0, 0], roll) @ _vec(joint, 'axis/xyz')


def _liftdrag_block(link):
    return [p for p in _plugins('lift-drag') if p.find('link_name').text == link][0]


def gz_liftdrag_force(block, link_rotation, vel):
    """
    Return gz-sim LiftDrag's force (world frame) for a link's rotation and velocity.

    Re-derived from LiftDrag.cc Update (below the stall, no control joint): alpha from
    acos(lift . upward), its sign from lift . forward; L = cla alpha q area along
    spanwise x vel_in_plane, D = |cda alpha| q area against it, both times cos^2(sweep).
    """
    rho = float(block.find('air_density').text)
    cla, cda = float(block.find('cla').text), float(block.find('cda').text)
    area = float(block.find('area').text)
    forward = link_rotation @ (_vec(block, 'forward') / np.linalg.norm(_vec(block, 'forward')))
    upward = link_rotation @ (_vec(block, 'upward') / np.linalg.norm(_vec(block, 'upward')))
    span = np.cross(forward, upward)
    span /= np.linalg.norm(span)
    vel_in_plane = vel - (vel @ span) * span
    lift_dir = np.cross(span, vel_in_plane)
    lift_dir /= np.linalg.norm(lift_dir)
    alpha = math.acos(np.clip(lift_dir @ upward, -1.0, 1.0))
    alpha = alpha if lift_dir @ forward >= 0.0 else -alpha
    q = 0.5 * rho * (vel_in_plane @ vel_in_plane)
    # sweep: the spanwise share of the flow scales C_L and C_D by cos^2(sweep)
    cos2_sweep = 1.0 - (span @ vel / np.linalg.norm(vel)) ** 2
    assert abs(alpha) < float(block.find('alpha_stall').text)
    return cos2_sweep * (cla * alpha * q * area * lift_dir - abs(cda * alpha) * q * area
                         * vel_in_plane / np.linalg.norm(vel_in_plane))


def test_counts_match_the_file(tethys):
    assert len(tethys.thrusters) == len(_plugins('thruster'))
    assert len(tethys.fins) == len(_plugins('lift-drag'))
    assert len(tethys.buoyancy_engines) == len(_plugins('buoyancy-engine'))


def test_fins_are_their_carrying_joints(tethys):
    joints = {j.find('child').text: j for j in MODEL.findall('joint')}
    for block in _plugins('lift-drag'):
        assert block.find('control_joint_name') is None  # the pattern under test
        joint = joints[block.find('link_name').text]
        fin = [f for f in tethys.fins if f.name == joint.get('name')][0]
        limit = joint.find('axis/limit')
        assert fin.lower == pytest.approx(float(limit.find('lower').text), abs=1e-12)
        assert fin.upper == pytest.approx(float(limit.find('upper').text), abs=1e-12)
        assert fin.velocity == math.inf  # <velocity>-1: no limit
        assert fin.control_joint_rad_to_cl == 0.0  # gz adds it only with a control joint
        assert np.allclose(fin.axis, _joint_axis_in_model(joint.get('name')), atol=1e-12)
    assert any('PID' in w and 'not simulated' in w for w in tethys.warnings)


def test_fin_command_topics_are_the_controllers(tethys):
    name = MODEL.get('name')
    by_name = {f.name: f for f in tethys.fins}
    for plugin in _plugins('joint-position-controller'):
        joint = plugin.find('joint_name').text
        # JointPositionController.cc: /model/<model>/joint/<joint>/<joint_index=0>/cmd_pos
        assert by_name[joint].command_topic == '/model/%s/joint/%s/0/cmd_pos' % (name, joint)
        ros = ros_fin_topic(by_name[joint].command_topic)
        assert ros == '/model/%s/joint/%s/cmd_pos' % (name, joint)
        # ROS 2 name tokens: a letter or underscore first
        assert all(re.fullmatch(r'[A-Za-z_][A-Za-z0-9_]*', t) for t in ros.split('/')[1:])


@pytest.mark.parametrize('link', ['vertical_fins', 'horizontal_fins'])
def test_deflection_is_the_joint_angle_in_liftdrag(tethys, link):
    """The fin at joint angle d gives gz's LiftDrag force on the link turned by d."""
    joint = [j for j in MODEL.findall('joint') if j.find('child').text == link][0]
    name = joint.get('name')
    k = [f.name for f in tethys.fins].index(name)
    delta = 0.08
    nu = np.array([-1.3, 0.04, -0.03, 0.0, 0.01, 0.02])
    angles = np.zeros(len(tethys.fins))
    angles[k] = delta
    _, forces, _ = FinSet(tethys.fins, tethys.fluid_density).forces(nu, angles)
    origin = _vec(MODEL.find("link[@name='%s']" % link), 'pose')[:3]
    vel = nu[:3] + np.cross(nu[3:], origin)  # the link origin's velocity (cp = 0)
    expected = gz_liftdrag_force(
        _liftdrag_block(link), _rodrigues(_joint_axis_in_model(name), delta), vel)
    # the same formula in two codes: agreement to rounding of O(1) N sums
    assert np.allclose(forces[0, k], expected, atol=1e-9)


def _fly(tethys, rudder, elevator, seconds, dt=0.02):
    """Fly nose first at CRUISE with a constant push; return the states (n, 13)."""
    mode = SimulateMode(tethys, dt=dt, initial=State(
        np.array([0.0, 0.0, -10.0]), np.array([1.0, 0.0, 0.0, 0.0]),
        np.array([-CRUISE, 0.0, 0.0, 0.0, 0.0, 0.0])))
    mode.servos = FinServos(tethys.fins)
    names = [f.name for f in tethys.fins]
    mode.servos.command(names.index('vertical_fins_joint'), rudder, 0.0)
    mode.servos.command(names.index('horizontal_fins_joint'), elevator, 0.0)
    # xU and xUU of the file's HydrodynamicsPlugin: the straight-line drag at CRUISE
    block = [p for p in MODEL.findall('plugin') if p.get('filename') == 'HydrodynamicsPlugin']
    drag = (-float(block[0].find('xU').text) * CRUISE
            - float(block[0].find('xUU').text) * CRUISE ** 2)
    tau = [-drag, 0.0, 0.0, 0.0, 0.0, 0.0]  # along -x: ahead
    now = 0
    mode.advance(now)
    rows = []
    for _ in range(int(round(seconds / dt))):
        now += mode.period_ns
        mode.advance(now, tau)
        rows.append(np.array(mode.x))
    return np.array(rows)


def _expected_moment(link, delta):
    """Return the body moment of gz's LiftDrag on fin ``link`` at joint angle delta, at cruise."""
    joint = [j for j in MODEL.findall('joint') if j.find('child').text == link][0]
    origin = _vec(MODEL.find("link[@name='%s']" % link), 'pose')[:3]
    force = gz_liftdrag_force(
        _liftdrag_block(link), _rodrigues(_joint_axis_in_model(joint.get('name')), delta),
        np.array([-CRUISE, 0.0, 0.0]))
    return np.cross(origin, force)


def test_rudder_turns_the_way_liftdrag_says(tethys):
    rudder = 0.15
    expected = np.sign(_expected_moment('vertical_fins', rudder)[2])
    assert expected != 0.0
    rows = _fly(tethys, rudder, 0.0, 20.0)
    r = rows[-250:, 12]  # the last 5 s: the turn settled
    # a 0.15 rad rudder on a 1 m/s LRAUV-sized vehicle turns by degrees per second
    assert np.all(np.sign(r) == expected)
    assert np.mean(np.abs(r)) > math.radians(0.5)


def test_elevator_pitches_the_way_liftdrag_says(tethys):
    elevator = 0.1
    expected = np.sign(_expected_moment('horizontal_fins', elevator)[1])
    assert expected != 0.0
    rows = _fly(tethys, 0.0, elevator, 2.0)
    q = rows[:, 11]
    # in the first 2 s the fin's moment dominates the small restoring moment (BG 1 cm)
    assert np.sign(np.mean(q)) == expected
    assert np.max(np.abs(q)) > math.radians(0.5)


def test_sixty_seconds_finite_and_bounded(tethys):
    rows = _fly(tethys, 0.2, -0.1, 60.0)
    assert np.all(np.isfinite(rows))
    # bounded: at most the cruise speed plus a margin, and within 60 s of travel
    assert np.max(np.linalg.norm(rows[:, 7:10], axis=1)) < 1.5 * CRUISE
    assert np.max(np.linalg.norm(rows[:, :3] - [0.0, 0.0, -10.0], axis=1)) < 60.0 * CRUISE
    q = rows[:, 3:7]
    assert np.allclose(np.linalg.norm(q, axis=1), 1.0, atol=1e-6)


def test_manoeuvre_flies_the_nose_first(tethys):
    """The fins sit at +x (the file's link poses): the nose is at -x; the turn is the nose's."""
    fin_x = [_vec(MODEL.find("link[@name='%s']" % link), 'pose')[0]
             for link in ('vertical_fins', 'horizontal_fins')]
    assert min(fin_x) > 0.0
    manoeuvre = Manoeuvre(tethys, speed=CRUISE, depth=10.0)
    assert manoeuvre.ahead == -1.0
    figures = manoeuvre.turn(0.2, max_time=200.0)
    # a positive rudder command turns to port: the nose's heading grows
    assert figures.flight.yaw[-1] - figures.flight.yaw[0] > math.radians(400.0)
    # ahead of the approach track: advance positive; surge in the nose's frame positive
    assert figures.values['advance_m'] > 0.0
    assert np.all(figures.flight.twist[:, 0] > 0.5 * CRUISE)


@pytest.mark.ros
def test_node_takes_rudder_commands_on_the_controllers_topic(rclpy_context, spawn, tmp_path):
    """The node listens on the JointPositionController's topic (ROS 2 form, /0 dropped)."""
    from nodes.harness import Probe, start_node
    from sensor_msgs.msg import JointState
    from std_msgs.msg import Float64
    ns = '/lrauv_fins_%d' % id(tmp_path)
    params = {'vehicle_file': str(FILE), 'mode': 'simulate', 'rate_hz': 50.0,
              'initial_position': [0.0, 0.0, -10.0], 'publish_markers': False}
    proc, log = start_node(spawn, tmp_path, params, ns=ns)
    probe = Probe(rclpy_context)
    states = probe.collect(JointState, ns + '/joint_states', keep=5)
    command = probe.publisher(Float64, '/model/tethys/joint/vertical_fins_joint/cmd_pos')

    def angle():
        if not states:
            return math.nan
        return states[-1].position[list(states[-1].name).index('vertical_fins_joint')]
    try:
        assert probe.spin_until(lambda: len(states) > 2, 30.0, proc, log)
        assert angle() == 0.0
        # no velocity limit: the servo reaches the command within an update
        assert probe.spin_until(lambda: abs(angle() - 0.1) < 1e-12, 20.0, proc, log,
                                action=lambda: command.publish(Float64(data=0.1)))
    finally:
        probe.close()
