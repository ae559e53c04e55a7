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

"""uuv_simulator's thruster models: Yoerger and Bessa rotors, Basic/Bessa/LinearInterp thrust."""
import dataclasses
import math
import pathlib
import re

import numpy as np
import pytest

from uwv_hydro.cli.main import main
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.loader import load_vehicle
from uwv_hydro.description.vehicle_from_urdf import load_urdf_string
from uwv_hydro.description.yaml.export import write_yaml
from uwv_hydro.description.yaml.params import load_yaml_string
from uwv_hydro.physics.actuators.thruster_bank import ThrusterBank
from uwv_hydro.physics.actuators.thruster_spec import ThrusterSpec

CONFIG = pathlib.Path(__file__).resolve().parents[3] / 'config'
RHO = 1025.0


def _bank(**kw):
    return ThrusterBank([ThrusterSpec(joint_name='t', **kw)], RHO)


def _yoerger(alpha, beta, **kw):
    return _bank(dynamics_type='Yoerger', dynamics_terms=(alpha, beta), conversion_type='Basic',
                 conversion_terms=(0.01,), **kw)


def _bessa(jmsp, kv1, kv2, kt, rm):
    return _bank(dynamics_type='Bessa', dynamics_terms=(jmsp, kv1, kv2, kt, rm),
                 conversion_type='Basic', conversion_terms=(0.01,))


@pytest.mark.parametrize('dt', [0.001, 0.01, 0.1])
def test_yoerger_step_response_is_the_tanh_solution(dt):
    alpha, beta, c = 0.8, 3.0, 12.0
    bank = _yoerger(alpha, beta)
    s, rate = math.sqrt(beta * c / alpha), math.sqrt(alpha * beta * c)
    errors = []
    for k in range(1, int(round(3.0 / dt)) + 1):
        bank.step([c], dt)
        # omega' = beta c - alpha omega|omega| from 0: omega = sqrt(beta c/alpha) tanh(...)
        errors.append(bank.state[0] - s * math.tanh(rate * k * dt))
    assert np.max(np.abs(errors)) < 1e-6 * s, np.max(np.abs(errors))
    # the rotor speed is the state and the thrust Basic's rotorConstant w|w|
    assert bank.omega[0] == bank.state[0]
    assert bank.thrust[0] == pytest.approx(0.01 * beta * c / alpha, rel=1e-6)


def test_yoerger_steady_state_is_odd_and_decay_is_algebraic():
    alpha, beta = 0.5, 2.0
    bank = _yoerger(alpha, beta)
    for c in (-7.0, 2.0, 40.0):
        for _ in range(400):
            bank.step([c], 0.05)
        # |omega| = sqrt(beta |c| / alpha), the sign of the command
        assert bank.state[0] == pytest.approx(math.copysign(math.sqrt(beta * abs(c) / alpha), c),
                                              rel=1e-9)
    # no command: omega' = -alpha omega^2, omega = omega_0 / (1 + alpha omega_0 t)
    w0 = bank.state[0]
    for k in range(1, 201):
        bank.step([0.0], 0.01)
        assert bank.state[0] == pytest.approx(w0 / (1.0 + alpha * w0 * k * 0.01), rel=1e-7)


def test_stiff_yoerger_rotor_stays_bounded_and_settles():
    # time scale 1/sqrt(alpha beta c) = 1e-4 s, far below the 0.05 s step
    alpha, beta, c = 1e3, 1e5, 1e3
    bank = _yoerger(alpha, beta)
    states = []
    for _ in range(5):
        bank.step([c], 0.05)
        states.append(bank.state[0])
    assert all(np.isfinite(states))
    assert states[-1] == pytest.approx(math.sqrt(beta * c / alpha), rel=1e-9)
    assert np.all(np.diff(states) >= 0.0)  # no overshoot


def test_bessa_rotor_reduces_to_its_closed_forms():
    jmsp, kt, rm, v = 0.02, 0.6, 1.5, 24.0
    # Kv2 = 0: Jmsp w' = Kt/Rm v - Kv1 w, w = Kt v/(Rm Kv1) (1 - exp(-Kv1 t/Jmsp))
    kv1 = 0.05
    bank = _bessa(jmsp, kv1, 0.0, kt, rm)
    for k in range(1, 101):
        bank.step([v], 0.01)
        w = kt * v / (rm * kv1) * -math.expm1(-kv1 * k * 0.01 / jmsp)
        assert bank.state[0] == pytest.approx(w, rel=1e-7)
    # Kv1 = 0: Yoerger with alpha = Kv2/Jmsp, beta = Kt/(Rm Jmsp)
    kv2 = 0.004
    bank = _bessa(jmsp, 0.0, kv2, kt, rm)
    alpha, beta = kv2 / jmsp, kt / (rm * jmsp)
    for k in range(1, 101):
        bank.step([v], 0.01)
        w = math.sqrt(beta * v / alpha) * math.tanh(math.sqrt(alpha * beta * v) * k * 0.01)
        assert bank.state[0] == pytest.approx(w, rel=1e-7)


def test_bessa_rotor_steady_state_solves_its_equation():
    jmsp, kv1, kv2, kt, rm = 0.03, 0.02, 0.003, 0.5, 0.8
    bank = _bessa(jmsp, kv1, kv2, kt, rm)
    for v in (48.0, -10.0, 0.5):
        for _ in range(300):
            bank.step([v], 0.05)
        w = bank.state[0]
        # at rest: Kt/Rm v - Kv1 w - Kv2 w|w| = 0, with w of the sign of v
        assert kt / rm * v - kv1 * w - kv2 * w * abs(w) == pytest.approx(0.0, abs=1e-9 * abs(v))
        assert np.sign(w) == np.sign(v)
        assert bank.steady_state([v])[0] == pytest.approx(w, rel=1e-12)


def test_basic_conversion_is_rotor_constant_w_abs_w():
    bank = _bank(conversion_type='Basic', conversion_terms=(0.0049,))
    assert bank.specs[0].command_limits() == (-math.inf, math.inf)  # uuv: no clamp by default
    for w in (-50.0, -3.0, 0.0, 2.5, 50.0, 310.0):
        bank.step([w], 0.01)
        assert bank.thrust[0] == pytest.approx(0.0049 * w * abs(w), rel=1e-15)
        assert bank.omega[0] == w


def test_bessa_conversion_dead_zone_and_both_sides():
    cl, cr, dl, dr = 0.001, 0.002, -49.0, 25.0
    bank = _bank(conversion_type='Bessa', conversion_terms=(cl, cr, dl, dr))

    def thrust(w):
        bank.step([w], 0.01)
        return bank.thrust[0]

    # dead zone: deltaL < w|w| < deltaR, its edges included (zero thrust there)
    for w in (0.0, 4.999, -6.999, math.sqrt(dr), -math.sqrt(-dl)):
        assert thrust(w) == 0.0
    for w in (5.001, 30.0, 200.0):
        assert thrust(w) == pytest.approx(cr * (w * w - dr), rel=1e-12)
    for w in (-7.001, -30.0, -200.0):
        assert thrust(w) == pytest.approx(cl * (-w * w - dl), rel=1e-12)
    # continuous and increasing in w through the dead zone
    ws = np.linspace(-100.0, 100.0, 20001)
    ts = [thrust(w) for w in ws]
    assert np.all(np.diff(ts) >= 0.0) and np.max(np.abs(np.diff(ts))) < 2 * cr * 200 * 0.01


def _vehicle(thrusters):
    return """vehicle:
  mass: 10.0
  inertia: {ixx: 1, iyy: 1, izz: 1}
  thrusters:
%s""" % thrusters


UUV_THRUSTERS = """    yoerger:
      xyz: [-0.5, 0.2, 0.0]
      dynamics: {type: Yoerger, alpha: 0.8, beta: 3.0}
      conversion: {type: Basic, rotorConstant: 0.0049}
      max_thrust_cmd: 20
      min_thrust_cmd: -20
      torque_per_thrust: 0.02
    bessa:
      xyz: [-0.5, -0.2, 0.0]
      rpy: [0.0, 0.0, 0.3]
      dynamics: {type: Bessa, Jmsp: 0.02, Kv1: 0.05, Kv2: 0.004, Kt: 0.6, Rm: 1.5}
      conversion: {type: Bessa, rotorConstantL: 0.001, rotorConstantR: 0.002, deltaL: -50,
                   deltaR: 25}
    interp:
      xyz: [0.0, 0.0, 0.1]
      dynamics: {type: FirstOrder, timeConstant: 0.05}
      conversion: {type: LinearInterp, inputValues: [5, -5, 0, 2],
                   outputValues: [120, -100, -10, 20]}
    omega:
      dynamics: {type: Yoerger, alpha: 0.8, beta: 3.0}
      thrust_coefficient: 0.004
      use_angvel_cmd: true
"""


def test_yaml_uuv_blocks_and_export_round_trip(tmp_path):
    params = load_yaml_string(_vehicle(UUV_THRUSTERS))
    yoerger, bessa, interp, omega = params.thrusters
    assert (yoerger.model, bessa.model, interp.model, omega.model) == (
        'uuv_basic', 'uuv_bessa', 'table', 'coefficient')
    assert yoerger.dynamics_terms == (0.8, 3.0) and bessa.conversion_terms == (
        0.001, 0.002, -50.0, 25.0)
    # LinearInterp is the lookup table, pairs sorted by input as uuv_simulator's std::map
    assert interp.lookup_command == (-5.0, 0.0, 2.0, 5.0)
    assert interp.lookup_thrust == (-100.0, -10.0, 20.0, 120.0)
    assert interp.time_constant == 0.05
    path = tmp_path / 'uuv.yaml'
    write_yaml(params, path)
    again = load_vehicle(str(path))
    for a, b in zip(params.thrusters, again.thrusters):
        np.testing.assert_allclose(b.point(), a.point(), atol=1e-15)
        np.testing.assert_allclose(b.direction(), a.direction(), atol=1e-15)
        assert dataclasses.replace(b, rotation=a.rotation) == a
    # the same blocks in a gz-sim Thruster plugin of a URDF (uuv_simulator's element names)
    urdf = load_urdf_string("""<robot name="auv">
  <link name="base_link"><inertial><mass value="20"/>
    <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="prop"/>
  <joint name="yoerger" type="continuous"><parent link="base_link"/><child link="prop"/>
    <origin xyz="-0.5 0.2 0"/><axis xyz="1 0 0"/></joint>
  <gazebo><plugin filename="gz-sim-thruster-system" name="gz::sim::systems::Thruster">
    <joint_name>yoerger</joint_name>
    <dynamics><type>Yoerger</type><alpha>0.8</alpha><beta>3.0</beta></dynamics>
    <conversion><type>Basic</type><rotorConstant>0.0049</rotorConstant></conversion>
    <max_thrust_cmd>20</max_thrust_cmd><min_thrust_cmd>-20</min_thrust_cmd>
    <torque_per_thrust>0.02</torque_per_thrust>
  </plugin></gazebo>
</robot>""")
    assert urdf.thrusters[0] == yoerger


def test_uuv_block_errors_name_the_key():
    for item, where, words in (
            ('{type: Yoerger, alpha: 1}', 'dynamics', 'Yoerger needs alpha, beta'),
            ('{type: Yoerger, alpha: 1, beta: 2, gamma: 3}', 'dynamics.gamma',
             "unknown parameter 'gamma' of Yoerger"),
            ('{type: Yoerger, alpha: -1, beta: 2}', 'dynamics.alpha', 'must be positive'),
            ('{type: Bessa, Jmsp: 1, Kv1: 0, Kv2: 0, Kt: 1, Rm: 1}', 'dynamics.Kv2',
             'grows without bound'),
            ('{type: SecondOrder}', 'dynamics.type', 'expected one of Yoerger, Bessa'),
            ('{type: FirstOrder, timeConstant: x}', 'dynamics.timeConstant',
             'expected a number')):
        with pytest.raises(DescriptionError, match=re.escape(words)) as info:
            load_yaml_string(_vehicle('    a:\n      conversion: {type: Basic, rotorConstant: '
                                      '1}\n      dynamics: %s\n' % item))
        assert info.value.element == 'thrusters.a.' + where
    basic = 'conversion: {type: Basic, rotorConstant: 1}'
    yoerger = 'dynamics: {type: Yoerger, alpha: 1, beta: 1}'
    for lines, where, words in (
            (['conversion: {type: Quadratic}'], 'conversion.type', 'expected one of Basic'),
            (['conversion: {type: Bessa, rotorConstantL: 1, rotorConstantR: 1, deltaL: 3, '
              'deltaR: 1}'], 'conversion.deltaL', 'must be <= 0'),
            (['conversion: {type: Basic, rotorConstant: 0}'], 'conversion.rotorConstant',
             'must not be zero'),
            (['conversion: {type: LinearInterp, inputValues: [0, 1, 2], '
              'outputValues: [0, 2, 1]}'], 'conversion.outputValues', 'monotone'),
            (['conversion: {type: LinearInterp, inputValues: [0, 1], outputValues: [0]}'],
             'conversion.outputValues', '1 output values for 2 input values'),
            ([basic, 'thrust_coefficient: 1'], 'thrust_coefficient',
             'not with a uuv_simulator conversion'),
            ([basic, 'lookup_command: [0, 1]', 'lookup_thrust: [0, 1]'], 'conversion',
             'give one thrust model'),
            (['dynamics: {type: FirstOrder, timeConstant: 1}', 'time_constant: 2'], 'dynamics',
             'dynamics sets time_constant, which is given too'),
            ([yoerger, 'thrust_coefficient: 1'], 'dynamics', 'state is the rotor speed'),
            ([yoerger, basic, 'max_cmd_rate: 5'], 'dynamics', 'give one rotor dynamics')):
        text = ''.join('      %s\n' % line for line in lines)
        with pytest.raises(DescriptionError, match=re.escape(words)) as info:
            load_yaml_string(_vehicle('    a:\n' + text))
        assert info.value.element == 'thrusters.a.' + where


def test_urdf_uuv_block_errors_point_at_the_block():
    with pytest.raises(DescriptionError, match='must be positive') as info:
        load_urdf_string("""<robot name="auv">
  <link name="base_link"><inertial><mass value="20"/>
    <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="prop"/>
  <joint name="p" type="continuous"><parent link="base_link"/><child link="prop"/></joint>
  <gazebo><plugin filename="gz-sim-thruster-system" name="gz::sim::systems::Thruster">
    <joint_name>p</joint_name>
    <conversion><type>Basic</type><rotorConstant>0.0049</rotorConstant></conversion>

    <dynamics><type>Yoerger</type><alpha>0</alpha><beta>3.0</beta></dynamics>
  </plugin></gazebo>
</robot>""")
    assert info.value.line == 10


def test_check_lists_the_uuv_models(tmp_path, capsys):
    path = tmp_path / 'uuv.yaml'
    path.write_text(_vehicle(UUV_THRUSTERS))
    assert main(['check', str(path)]) == 0
    out = capsys.readouterr().out
    # +-20 input: omega = sqrt(3 * 20 / 0.8), thrust 0.0049 omega^2
    assert ('  - yoerger: uuv_basic model, Yoerger input in [-20, 20], thrust [-0.3675, 0.3675] '
            'N, at [-0.5, 0.2, 0] m along [1, 0, 0], dynamics Yoerger (alpha 0.8, beta 3)') in out
    # uuv_simulator's clamp defaults: none
    assert '  - bessa: uuv_bessa model, motor voltage V in [-inf, inf], thrust [-inf, inf]' in out
    assert '  - interp: table model, table command in [-5, 5], thrust [-100, 120] N' in out


def test_yoerger_basic_thruster_drives_the_sphere_to_its_terminal_speed():
    from uwv_hydro.physics.body.dynamics import Simulator, State
    params = load_vehicle(str(CONFIG / 'sphere.yaml'))
    alpha, beta, rotor_constant, c = 0.1, 5.0, 0.01, 20.0
    bank = ThrusterBank([ThrusterSpec(joint_name='t', dynamics_type='Yoerger',
                                      dynamics_terms=(alpha, beta), conversion_type='Basic',
                                      conversion_terms=(rotor_constant,))],
                        params.fluid_density)
    sim, state = Simulator(params, dt=0.01), State()
    for _ in range(3000):
        state = sim.step(state, bank.step([c], 0.01, state.twist))
    # steady rotor omega^2 = beta c / alpha; thrust = quadratic drag 1/2 rho Cd A u^2
    thrust = rotor_constant * beta * c / alpha
    drag = 7.567  # sphere.yaml: 1/2 rho Cd A
    assert state.twist[0] == pytest.approx(math.sqrt(thrust / drag), rel=1e-9)
    np.testing.assert_allclose(state.twist[1:], 0.0, atol=1e-9)


def test_stale_command_lets_a_yoerger_rotor_coast_down():
    from uwv_hydro.modes.thruster_drive import ThrusterDrive
    alpha, beta, c = 0.5, 2.0, 30.0
    spec = ThrusterSpec(joint_name='t', dynamics_type='Yoerger', dynamics_terms=(alpha, beta),
                        conversion_type='Basic', conversion_terms=(0.01,))
    drive = ThrusterDrive([spec], RHO, timeout_s=0.5)
    drive.command('t', c, 0)
    dt_ns, w0, since = 10_000_000, None, 0
    for k in range(1, 301):
        before = drive.bank.state[0]
        _, went_stale, _ = drive.step(0.01, k * dt_ns)
        if went_stale:
            w0 = before  # the watchdog's neutral command (0) holds from this step on
        if w0 is not None:
            since += 1
            # omega' = -alpha omega^2 from w0: omega = w0 / (1 + alpha w0 t)
            assert drive.bank.state[0] == pytest.approx(w0 / (1.0 + alpha * w0 * since * 0.01),
                                                        rel=1e-7)
    assert w0 is not None and since > 200
    assert drive.bank.thrust[0] == pytest.approx(0.01 * drive.bank.omega[0] ** 2, rel=1e-12)
