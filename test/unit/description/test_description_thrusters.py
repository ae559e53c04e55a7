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

"""Thrusters from gz-sim Thruster blocks in a URDF and from YAML; to the base as the mux does."""
import copy
import json
import pathlib
import re

import numpy as np
import pytest

from uwv_hydro.cli.main import main
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.loader import load_vehicle
from uwv_hydro.description.vehicle_from_urdf import load_urdf_string
from uwv_hydro.description.yaml.params import load_yaml_string
from uwv_hydro.modes.thrust_mux import FrameResolver
from uwv_hydro.physics.actuators.thruster_bank import ThrusterBank
from uwv_hydro.physics.body.vehicle_params import FixedFrame
from uwv_hydro.physics.spatial.rotation import quat_from_rpy, quat_to_matrix

CONFIG = pathlib.Path(__file__).resolve().parents[3] / 'config'

MOUNT_XYZ, MOUNT_RPY = np.array([-0.4, 0.2, 0.1]), np.array([0.1, -0.2, 0.7])
JOINT_XYZ, JOINT_RPY = np.array([0.05, -0.03, 0.02]), np.array([-0.3, 0.4, 0.25])
AXIS = np.array([0.3, -0.5, 0.8])


def _urdf(block='', extra=''):
    return """<robot name="auv">
  <link name="base_link">
    <inertial><mass value="20"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/>
    </inertial>
  </link>
  <link name="mount"/>
  <link name="propeller"/>
  <joint name="mount_joint" type="fixed">
    <parent link="base_link"/><child link="mount"/>
    <origin xyz="%s" rpy="%s"/>
  </joint>
  <joint name="propeller_joint" type="continuous">
    <parent link="mount"/><child link="propeller"/>
    <origin xyz="%s" rpy="%s"/><axis xyz="%s"/>
  </joint>
  %s
  <gazebo>
    <plugin filename="gz-sim-thruster-system" name="gz::sim::systems::Thruster">
      <namespace>auv</namespace>
      <joint_name>propeller_joint</joint_name>
      <thrust_coefficient>0.004</thrust_coefficient>
      <fluid_density>1000</fluid_density>
      <propeller_diameter>0.2</propeller_diameter>
      <velocity_control>true</velocity_control>
      <max_thrust_cmd>300</max_thrust_cmd>
      <time_constant>0.1</time_constant>
      <torque_coefficient>0.0008</torque_coefficient>
      %s
    </plugin>
  </gazebo>
</robot>""" % (' '.join(map(str, MOUNT_XYZ)), ' '.join(map(str, MOUNT_RPY)),
               ' '.join(map(str, JOINT_XYZ)), ' '.join(map(str, JOINT_RPY)),
               ' '.join(map(str, AXIS)), extra, block)


def test_gz_thruster_block_and_joint_pose():
    params = load_urdf_string(_urdf())
    (spec,) = params.thrusters
    assert spec.joint_name == 'propeller_joint' and spec.namespace == 'auv'
    assert (spec.thrust_coefficient, spec.fluid_density, spec.propeller_diameter) == (
        0.004, 1000.0, 0.2)
    assert (spec.max_thrust_cmd, spec.time_constant, spec.torque_coefficient) == (
        300.0, 0.1, 0.0008)
    assert spec.command_limits() == (-1000.0, 300.0) and not spec.use_angvel_cmd
    r_mount, r_joint = quat_to_matrix(quat_from_rpy(*MOUNT_RPY)), quat_to_matrix(
        quat_from_rpy(*JOINT_RPY))
    # T_base_joint = T_base_mount T_mount_joint; thrust direction d = R a / |a|
    np.testing.assert_allclose(spec.point(), MOUNT_XYZ + r_mount @ JOINT_XYZ, atol=1e-15)
    np.testing.assert_allclose(spec.direction(), r_mount @ r_joint @ AXIS / np.linalg.norm(AXIS),
                               atol=1e-15)


@pytest.mark.parametrize('use_table', [False, True])
def test_thrust_moves_to_the_base_exactly_as_a_wrench_stamped_in_the_joint_frame(use_table):
    block = ('<lookup_command>-1 0 1</lookup_command><lookup_thrust>-20 0 30</lookup_thrust>'
             '<torque_per_thrust>0.03</torque_per_thrust>' if use_table else '')
    text = _urdf(block)
    if use_table:
        text = text.replace('<thrust_coefficient>0.004</thrust_coefficient>', '').replace(
            '<torque_coefficient>0.0008</torque_coefficient>', '')
    params = load_urdf_string(text)
    (spec,) = params.thrusters
    bank = ThrusterBank(params.thrusters, params.fluid_density)
    # the existing WrenchStamped path: a wrench in a frame fixed to the base, via the mux
    with_frame = copy.deepcopy(params)
    with_frame.frames['propeller_frame'] = FixedFrame(np.array(spec.translation),
                                                      np.array(spec.rotation))
    resolver = FrameResolver(with_frame)
    axis = np.asarray(spec.axis)
    worst = 0.0
    for command in (0.7, -0.4, 250.0, -120.0):
        wrench = bank.step([command], 1.0)  # 10 time constants: settled
        assert bank.thrust[0] != 0.0 and bank.torque[0] != 0.0
        stamped = np.concatenate((bank.thrust[0] * axis, bank.torque[0] * axis))
        via_mux = resolver.to_base('propeller_frame', stamped)
        worst = max(worst, float(np.max(np.abs(wrench - via_mux))))
    assert worst < 1e-12, worst


def test_urdf_errors_name_the_element_and_line():
    for block, words in (('<thrust_coefficent>1</thrust_coefficent>', 'unknown thruster '
                          'element <thrust_coefficent>'),
                         ('<deadband>-1</deadband>', 'deadband: thruster .* must be >= 0'),
                         ('<use_angvel_cmd>maybe</use_angvel_cmd>', 'expected true or false'),
                         ('<lookup_command>1 2</lookup_command><lookup_thrust>3 4'
                          '</lookup_thrust>', 'never gives zero')):
        with pytest.raises(DescriptionError, match=words) as info:
            load_urdf_string(_urdf(block))
        assert info.value.line is not None
    with pytest.raises(DescriptionError, match='not a joint of the robot'):
        load_urdf_string(_urdf().replace('<joint_name>propeller_joint', '<joint_name>nope'))
    loose = _urdf().replace('<parent link="mount"/><child link="propeller"/>',
                            '<parent link="elsewhere"/><child link="propeller"/>')
    with pytest.raises(DescriptionError, match="hangs from link 'elsewhere'"):
        load_urdf_string(loose)
    with pytest.raises(DescriptionError, match='drives two thrusters'):
        twice = _urdf().replace('</gazebo>', '<plugin filename="gz-sim-thruster-system" '
                                'name="t2"><joint_name>propeller_joint</joint_name></plugin>'
                                '</gazebo>')
        load_urdf_string(twice)


def test_alphas_with_a_thrust_coefficient_warn_as_gz_sim_does():
    params = load_urdf_string(_urdf('<alpha_2>-0.3</alpha_2>'))
    assert any('alpha_1/alpha_2 are ignored' in w for w in params.warnings)


def _yaml(thrusters, convention='flu'):
    return """vehicle:
  mass: 10.0
  inertia: {ixx: 1, iyy: 1, izz: 1}
  convention: %s
  thrusters:
%s""" % (convention, thrusters)


def test_yaml_thrusters_same_keys_and_frd():
    text = _yaml("""    - joint_name: stern
      xyz: [-0.8, 0.1, 0.05]
      axis: [1, 0, 0]
      thrust_coefficient: 0.0004
      propeller_diameter: 0.14
      torque_coefficient: 0.0004
      use_angvel_cmd: true
    - joint_name: vert
      xyz: [0.0, 0.0, 0.1]
      rpy: [0.0, 1.5707963267948966, 0.0]
      lookup_command: [1100, 1500, 1900]
      lookup_thrust: [-40, 0, 51]
      spin_direction: -1
      torque_per_thrust: 0.01
""")
    flu = load_yaml_string(text)
    stern, vert = flu.thrusters
    assert stern.use_angvel_cmd and vert.model == 'table' and vert.neutral_command() == 1500.0
    np.testing.assert_allclose(vert.direction(), [0.0, 0.0, -1.0], atol=1e-15)
    frd = load_yaml_string(text.replace('convention: flu', 'convention: frd'))
    # FRD -> FLU: points and axes flip y and z
    np.testing.assert_allclose(frd.thrusters[0].point(), [-0.8, -0.1, -0.05], atol=1e-15)
    np.testing.assert_allclose(frd.thrusters[1].direction(), [0.0, 0.0, 1.0], atol=1e-15)


def test_yaml_mapping_form_equals_the_list_form():
    listed = load_yaml_string(_yaml("""    - joint_name: p
      xyz: [-0.5, 0.0, 0.1]
      rpy: [0.1, 0.2, 0.3]
      thrust_coefficient: 0.002
    - {joint_name: q, lookup_command: [-1, 1], lookup_thrust: [-2, 3]}
"""))
    mapped = load_yaml_string(_yaml("""    p:
      {xyz: [-0.5, 0.0, 0.1], rpy: [0.1, 0.2, 0.3], thrust_coefficient: 0.002}
    q: {lookup_command: [-1, 1], lookup_thrust: [-2, 3]}
"""))
    assert listed.thrusters == mapped.thrusters
    with pytest.raises(DescriptionError, match="joint_name 'r' differs from its key 'p'"):
        load_yaml_string(_yaml('    p: {joint_name: r}\n'))
    with pytest.raises(DescriptionError, match='thrusters.p.deadband') as info:
        load_yaml_string(_yaml('    p: {deadband: -1.0}\n'))
    assert 'must be >= 0' in info.value.reason


def test_yaml_thruster_errors_name_the_key():
    for item, where, words in (
            ('    - {joint_name: a, thrust_coeficient: 1}', 'thrusters[0].thrust_coeficient',
             'unknown key'),
            ('    - {joint_name: a, xyz: [1, 2]}', 'thrusters[0].xyz', 'expected [x, y, z]'),
            ('    - {xyz: [1, 2, 3]}', 'thrusters[0].joint_name', 'needs a <joint_name>'),
            ('    - {joint_name: a, parent: fin}', 'thrusters[0].parent', "unknown frame 'fin'"),
            ('    - {joint_name: a, axis: [0, 0, 0]}', 'thrusters[0].axis', 'zero vector'),
            ('    - {joint_name: a, deadband: .nan}', 'thrusters[0].deadband', 'non-finite'),
            ('    - {joint_name: a, min_thrust_cmd: 5, max_thrust_cmd: 1}',
             'thrusters[0].max_thrust_cmd', 'below min_thrust_cmd')):
        with pytest.raises(DescriptionError, match=re.escape(words)) as info:
            load_yaml_string(_yaml(item + '\n'))
        assert info.value.element == where


def test_example_vehicles_have_their_thrusters():
    rov = load_vehicle(str(CONFIG / 'bluerov2.yaml'))
    assert len(rov.thrusters) == 6
    horizontal = [s for s in rov.thrusters if abs(s.direction()[2]) < 1e-12]
    vertical = [s for s in rov.thrusters if abs(abs(s.direction()[2]) - 1.0) < 1e-12]
    assert len(horizontal) == 4 and len(vertical) == 2
    assert all(s.model == 'table' and s.neutral_command() == 1500.0 for s in rov.thrusters)
    bank = ThrusterBank(rov.thrusters, rov.fluid_density)
    # vectored layout: the horizontal four span surge, sway and yaw; the verticals heave
    horiz = [rov.thrusters.index(s) for s in horizontal]
    assert np.linalg.matrix_rank(bank.allocation[np.ix_([0, 1, 5], horiz)]) == 3
    # full forward on the four: pure surge, the alternating spins cancel the reaction torques
    for _ in range(100):
        wrench = bank.step([1900.0] * 4 + [1500.0] * 2, 0.01)
    assert wrench[0] == pytest.approx(4 * 51.0 * np.sqrt(0.5), rel=1e-4)
    np.testing.assert_allclose(wrench[1:], 0.0, atol=1e-12)
    remus = load_vehicle(str(CONFIG / 'remus100.yaml'))
    (prop,) = remus.thrusters
    np.testing.assert_allclose(prop.direction(), [1.0, 0.0, 0.0], atol=1e-15)
    bank = ThrusterBank(remus.thrusters, remus.fluid_density)
    for _ in range(100):  # 50 N, through the rotor lag, at rest: the bollard pull
        wrench = bank.step([50.0], 0.02, np.zeros(6))
    # PVS remus100 (Wageningen B-3 0.718, P/D 1): K_T(0) 0.4566, K_Q(0) 0.0700 at J = 0,
    # so the hull's roll reaction per thrust is -D K_Q / K_T, the thrust (1 - t) T
    assert wrench[3] / bank.thrust[0] == pytest.approx(-0.14 * 0.0700 / 0.4566, rel=1e-4)
    assert wrench[0] == pytest.approx(0.9 * bank.thrust[0], rel=1e-12)


def test_check_lists_the_thrusters(capsys):
    assert main(['check', str(CONFIG / 'remus100.yaml')]) == 0
    out = capsys.readouterr().out
    # thrust commands, +-116.7 N (the bollard pull at 1525 rpm): the command range
    assert ('thrusters:      1\n  - propeller_joint: propeller model, thrust N '
            'in [-116.7, 116.7], thrust [-116.7, 116.7] N, at [-0.72, 0, 0] m along '
            '[1, 0, 0], dynamics first order 0.2 s') in out
    assert main(['check', str(CONFIG / 'bluerov2.yaml'), '--json']) == 0
    summary = json.loads(capsys.readouterr().out)
    assert [t['joint_name'] for t in summary['thrusters']] == [
        'thruster%d_joint' % k for k in range(1, 7)]
    assert summary['thrusters'][4]['direction'] == [0.0, 0.0, 1.0]
    assert summary['thrusters'][0]['thrust_range'] == [-40.0, 51.0]


def test_yaml_export_round_trip_keeps_the_thrusters(tmp_path):
    from uwv_hydro.description.yaml.export import write_yaml
    for name in ('bluerov2.yaml', 'remus100.yaml'):
        params = load_vehicle(str(CONFIG / name))
        path = tmp_path / name
        write_yaml(params, path)
        again = load_vehicle(str(path))
        assert [s.joint_name for s in again.thrusters] == [s.joint_name for s in params.thrusters]
        for a, b in zip(params.thrusters, again.thrusters):
            np.testing.assert_allclose(b.point(), a.point(), atol=1e-15)
            np.testing.assert_allclose(b.direction(), a.direction(), atol=1e-15)
            fields = ('lookup_command', 'lookup_thrust', 'thrust_coefficient', 'time_constant',
                      'torque_coefficient', 'torque_per_thrust', 'spin_direction',
                      'max_thrust_cmd', 'min_thrust_cmd', 'use_angvel_cmd', 'max_cmd_rate')
            assert [getattr(b, f) for f in fields] == [getattr(a, f) for f in fields]


def _pwm_for(thrust, command, table):
    """Invert the T200-like table (outside its flat zero band) for a desired thrust."""
    c, t = np.asarray(command), np.asarray(table)
    if thrust > 0.0:
        keep = t > 0.0
        return float(np.interp(thrust, np.r_[0.0, t[keep]], np.r_[c[~keep][-1], c[keep]]))
    if thrust < 0.0:
        keep = t < 0.0
        return float(np.interp(thrust, np.r_[t[keep], 0.0], np.r_[c[keep], c[~keep][0]]))
    return 1500.0


def test_bluerov2_depth_hold_in_the_loop_through_pwm_commands():
    from uwv_hydro.physics.body.dynamics import Simulator, State
    params = load_vehicle(str(CONFIG / 'bluerov2.yaml'))
    bank = ThrusterBank(params.thrusters, params.fluid_density)
    spec = params.thrusters[4]
    sim = Simulator(params, dt=0.01)
    state = State(position=np.array([0.0, 0.0, -2.0]))
    target, integral, depths = -5.0, 0.0, []
    for k in range(6000):  # 60 s: PID on depth -> vertical force -> PWM per thruster
        error = target - state.position[2]
        if abs(error) < 0.3:  # conditional integration (anti-windup)
            integral += error * 0.01
        w_world = (quat_to_matrix(state.quaternion) @ state.twist[:3])[2]
        force = 20.0 * error - 25.0 * w_world + 2.0 * integral
        pwm = _pwm_for(float(np.clip(force / 2.0, -40.0, 51.0)), spec.lookup_command,
                       spec.lookup_thrust)
        tau = bank.step([1500.0] * 4 + [pwm, pwm], 0.01, state.twist)
        state = sim.step(state, tau)
        depths.append(state.position[2])
    # settles at the target: the integral holds the net buoyancy (+1.96 N) down
    assert abs(depths[-1] - target) < 0.005, depths[-1]
    assert np.ptp(depths[-500:]) < 0.002
    assert min(depths) > target - 0.1  # little overshoot
    # the verticals push down by the net buoyancy, split between the two
    net = params.buoyancy() - params.weight()
    assert bank.thrust[4] + bank.thrust[5] == pytest.approx(-net, rel=0.02)


DSROS_BLOCK = """<plugin name="stbd" filename="libdsros_thruster.so">
      <thruster_link>thruster_stbd</thruster_link>
      <pose>-0.5 -0.4 0.1 0 0 0.2</pose>
      <forward><gain>2.0</gain><offset>-1.0</offset><max_cmd>10</max_cmd>
        <quad_gain>0.5</quad_gain><speed_gain>-0.3</speed_gain></forward>
      <reverse><gain>1.5</gain><offset>-1.0</offset><max_cmd>8</max_cmd></reverse>
      <cmd_topic>/sentry/thrusters/stbd/cmd</cmd_topic>
      <propdir>1</propdir>
    </plugin>"""


def test_dsros_thruster_block_and_its_polynomials():
    params = load_urdf_string(_urdf(extra='<gazebo>%s</gazebo>' % DSROS_BLOCK))
    stbd = params.thrusters[1]
    assert stbd.joint_name == 'thruster_stbd' and stbd.model == 'dsros'
    assert stbd.command_limits() == (-8.0, 10.0)
    np.testing.assert_allclose(stbd.point(), [-0.5, -0.4, 0.1])
    np.testing.assert_allclose(stbd.direction(), [np.cos(0.2), np.sin(0.2), 0.0], atol=1e-15)
    bank = ThrusterBank([stbd], params.fluid_density)
    d = stbd.direction()
    for command, v, expected in (
            (4.0, 0.0, 0.5 * 16 + 2.0 * 4 - 1.0),             # quad c^2 + gain c + offset
            (4.0, 1.0, 0.5 * 16 + 2.0 * 4 - 1.0 - 0.3 * 4),   # + speed_gain c s
            (4.0, -1.0, 0.5 * 16 + 2.0 * 4 - 1.0),            # moving against it: s = 0
            (30.0, 0.0, 0.5 * 100 + 2.0 * 10 - 1.0),          # |c| limited to max_cmd
            (0.3, 0.0, 0.0),                                   # negative value -> 0
            (-4.0, 0.0, -(1.5 * 4 - 1.0))):                    # reverse polynomial
        bank.step([command], 0.01, np.concatenate((v * d, np.zeros(3))))
        assert bank.thrust[0] == pytest.approx(expected, rel=1e-14), command
    with pytest.raises(DescriptionError, match="missing 'max_cmd'"):
        load_urdf_string(_urdf(extra='<gazebo>%s</gazebo>' % DSROS_BLOCK.replace(
            '<max_cmd>8</max_cmd>', '')))
    text = _yaml("""    p: {dsros_forward: {gain: 2.0, offset: 0.0, max_cmd: 5.0}, xyz: [0, 0, 0]}
""")
    (p,) = load_yaml_string(text).thrusters
    assert p.dsros_terms() == ((0.0, 2.0, 0.0, 0.0, 0.0, 5.0),) * 2
    from uwv_hydro.description.yaml.export import export_yaml
    again = load_yaml_string(export_yaml(params)).thrusters[1]
    assert again.dsros_terms() == stbd.dsros_terms()


def test_dsros_propdir_flips_the_direction_of_a_command():
    """ds_sim's propdir <= 0 (posIsFwd): a positive command runs the reverse polynomial."""
    block = DSROS_BLOCK.replace('<propdir>1</propdir>', '<propdir>-1</propdir>')
    params = load_urdf_string(_urdf(extra='<gazebo>%s</gazebo>' % block))
    flipped = params.thrusters[1]
    assert flipped.propdir == -1 and flipped.command_limits() == (-10.0, 8.0)
    bank = ThrusterBank([flipped], params.fluid_density)
    d = flipped.direction()
    for command, v, expected in (
            (4.0, 0.0, -(1.5 * 4 - 1.0)),                     # reverse polynomial, negative
            (-4.0, 0.0, 0.5 * 16 + 2.0 * 4 - 1.0),            # forward polynomial, positive
            (-4.0, -1.0, 0.5 * 16 + 2.0 * 4 - 1.0 - 0.3 * 4),  # moving with the command
            (-4.0, 1.0, 0.5 * 16 + 2.0 * 4 - 1.0)):           # against it: s = 0
        bank.step([command], 0.01, np.concatenate((v * d, np.zeros(3))))
        assert bank.thrust[0] == pytest.approx(expected, rel=1e-14), (command, v)
    from uwv_hydro.description.yaml.export import export_yaml
    assert load_yaml_string(export_yaml(params)).thrusters[1].propdir == -1
    with pytest.raises(DescriptionError, match='expected an integer'):
        load_urdf_string(_urdf(extra='<gazebo>%s</gazebo>' % block.replace(
            '<propdir>-1</propdir>', '<propdir>-0.5</propdir>')))
