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
ArduSub channels to thrusters (modes/ardusub_rc.py) and the shipped BlueROV2 frames.

The frame configs are checked against ArduSub's own motor factors, re-typed here from
AP_Motors6DOF::setup_motors (ArduPilot libraries/AP_Motors/AP_Motors6DOF.cpp; FRD:
forward, lateral = right, throttle = up, roll = right side down, pitch = nose up,
yaw = clockwise seen from above): every nonzero factor must have the sign of the
thruster's wrench on that axis, every zero factor a zero wrench.
"""
import pathlib

import numpy as np
import pytest

from uwv_hydro.description.loader import load_vehicle
from uwv_hydro.modes.ardusub_rc import (ArduSubChannels, check_pwm_thrusters, NEUTRAL_PWM,
                                        pwm_thruster_problems, servo_map)
from uwv_hydro.physics.actuators.thruster_bank import ThrusterBank
from uwv_hydro.physics.actuators.thruster_spec import ThrusterSpec

#: (roll, pitch, yaw, throttle, forward, lateral) per motor, AP_Motors6DOF.cpp
VECTORED = [(0, 0, 1, 0, -1, 1), (0, 0, -1, 0, -1, -1), (0, 0, -1, 0, 1, 1),
            (0, 0, 1, 0, 1, -1), (1, 0, 0, -1, 0, 0), (-1, 0, 0, -1, 0, 0)]
VECTORED_6DOF = [(0, 0, 1, 0, -1, 1), (0, 0, -1, 0, -1, -1), (0, 0, -1, 0, 1, 1),
                 (0, 0, 1, 0, 1, -1), (1, -1, 0, -1, 0, 0), (-1, -1, 0, -1, 0, 0),
                 (1, 1, 0, -1, 0, 0), (-1, 1, 0, -1, 0, 0)]
REPO = pathlib.Path(__file__).resolve().parents[3]
JOINTS = ['t%d' % k for k in range(1, 7)]
T0 = 10 ** 9


@pytest.mark.parametrize('name, factors', [('ardusub_bluerov2.yaml', VECTORED),
                                           ('ardusub_bluerov2_heavy.yaml', VECTORED_6DOF)])
def test_frame_config_pushes_as_the_ardusub_motor_factors(name, factors):
    params = load_vehicle(str(REPO / 'config' / name))
    assert [s.joint_name for s in params.thrusters] == [
        'thruster%d_joint' % k for k in range(1, len(factors) + 1)]
    a = ThrusterBank(params.thrusters, params.fluid_density).allocation  # FLU, 1 N each
    # FLU -> ArduSub's axes: roll = Mx, pitch = -My, yaw = -Mz, throttle = Fz (up),
    # forward = Fx, lateral = -Fy
    ardusub = np.vstack((a[3], -a[4], -a[5], a[2], a[0], -a[1]))
    for k, motor in enumerate(factors):
        for axis, factor in enumerate(motor):
            value = ardusub[axis, k]
            if factor == 0:
                assert abs(value) < 1e-12, (name, k + 1, axis, value)
            else:
                assert np.sign(value) == np.sign(factor), (name, k + 1, axis, value)
    # the T200 table: neutral 1500 us gives no thrust, full command about 51 N / -40 N
    bank = ThrusterBank(params.thrusters, params.fluid_density)
    bank.step(np.full(len(factors), NEUTRAL_PWM), 10.0)
    assert np.all(bank.thrust == 0.0)


def test_servo_functions_put_motors_on_servos():
    # SERVO1..6 = Motor1..6 on a standard vehicle; here two swapped and a light on servo 7
    assert servo_map([33, 35, 34, 36, 37, 38, 181], JOINTS) == {
        1: 't1', 2: 't3', 3: 't2', 4: 't4', 5: 't5', 6: 't6'}
    with pytest.raises(ValueError, match='Motor7'):
        servo_map([33, 39], JOINTS)
    with pytest.raises(ValueError, match='already'):
        servo_map([33, 33], JOINTS)
    with pytest.raises(ValueError, match='no SERVOn_FUNCTION'):
        servo_map([0, 1], JOINTS)


def test_override_release_ignore_and_timeout():
    rc = ArduSubChannels('override', [33, 34, 35, 36, 37, 38], JOINTS, timeout_s=3.0)
    assert rc.commands(T0) == {j: NEUTRAL_PWM for j in JOINTS}  # nothing yet: neutral
    channels = [1600, 1400, 1700, 1300, 1550, 1450] + [65535] * 12
    assert rc.receive(channels, T0) is None
    assert rc.commands(T0) == dict(zip(JOINTS, [1600.0, 1400.0, 1700.0, 1300.0, 1550.0,
                                                1450.0]))
    # 65535 = no change (value and age kept), 0 = release to the (absent) radio: neutral
    later = T0 + 2 * 10 ** 9
    assert rc.receive([65535, 0, 1800, 65535, 65535, 65535] + [0] * 12, later) is None
    got = rc.commands(later)
    assert got['t1'] == 1600.0 and got['t2'] == NEUTRAL_PWM and got['t3'] == 1800.0
    # RC_OVERRIDE_TIME per channel: t1 was last set at T0, t3 at T0 + 2 s
    at = T0 + int(3.5e9)
    got = rc.commands(at)
    assert got['t1'] == NEUTRAL_PWM and got['t3'] == 1800.0
    assert not rc.fresh('t1', at) and rc.fresh('t3', at)
    # ArduPilot RC_Channel.cpp holds an override while age < RC_OVERRIDE_TIME: at exactly
    # 3 s (integer nanoseconds) t1 is neutral, one nanosecond before it holds
    edge = T0 + 3 * 10 ** 9
    assert rc.commands(edge - 1)['t1'] == 1600.0 and rc.fresh('t1', edge - 1)
    assert rc.commands(edge)['t1'] == NEUTRAL_PWM and not rc.fresh('t1', edge)
    rc.reset()
    assert rc.commands(at)['t3'] == NEUTRAL_PWM


def test_override_high_channels_follow_mavlink():
    # servos 9 and 10 (e.g. an 8-thruster vehicle wired to the AUX outputs)
    rc = ArduSubChannels('override', [0] * 8 + [33, 34], ['a', 'b'])
    assert rc.receive([0] * 8 + [1700, 1300] + [65535] * 8, T0) is None
    # channels 9-18: 0 and 65535 are "ignore", 65534 is "release"
    assert rc.receive([0] * 8 + [0, 65534] + [65535] * 8, T0 + 1) is None
    assert rc.commands(T0 + 1) == {'a': 1700.0, 'b': NEUTRAL_PWM}


def test_bad_messages_are_counted_and_change_nothing():
    rc = ArduSubChannels('rc_out', [33, 34, 35, 36, 37, 38], JOINTS, timeout_s=1.0)
    good = [1600, 1400, 1700, 1300, 1550, 1450, 1100, 1900]
    assert rc.receive(good, T0) is None
    assert rc.receive(good[:5], T0 + 1) == 'bad_channel_count'
    assert rc.receive([1600, 1400, 3000, 1300, 1550, 1450], T0 + 2) == 'pwm_out_of_range'
    # RCOut carries no special values: 0 is a pulse out of range, not a release
    assert rc.receive([0] * 6, T0 + 3) == 'pwm_out_of_range'
    assert rc.rejected == {'bad_channel_count': 1, 'pwm_out_of_range': 2}
    assert rc.accepted == 1
    assert rc.commands(T0 + 3)['t3'] == 1700.0
    # the autopilot stops: after the timeout every thruster is neutral
    assert rc.commands(T0 + 2 * 10 ** 9) == {j: NEUTRAL_PWM for j in JOINTS}
    with pytest.raises(ValueError):
        ArduSubChannels('pwm', [33], ['a'])


def _thrust_at_neutral(spec, seconds=2.0, dt=0.01):
    """Return the thrust (N) after ``seconds`` of ArduSub's neutral 1500 us as command."""
    bank = ThrusterBank([spec], 1028.0)
    for _ in range(int(round(seconds / dt))):
        bank.step(np.array([NEUTRAL_PWM]), dt, np.zeros(6))
    return float(bank.thrust[0])


def test_only_pwm_tables_may_take_ardusub_pwm():
    """
    A thruster on an ArduSub servo must read 1500 us as no thrust: only a PWM table does.

    The check's verdict is compared with what each thruster does under 1500 us held
    for 2 s (the rotors settled): the BlueROV2's T200 table gives 0 N, the REMUS 100
    propeller (rpm) and a uuv rad/s rotor clamp to full power.
    """
    table = load_vehicle(str(REPO / 'config' / 'ardusub_bluerov2.yaml')).thrusters[0]
    propeller = load_vehicle(str(REPO / 'config' / 'remus100.yaml')).thrusters[0]
    uuv = ThrusterSpec('uuv_joint', dynamics_type='Yoerger', dynamics_terms=(0.01, 0.5),
                       conversion_type='Basic', conversion_terms=(0.0049,))
    unit_table = ThrusterSpec('unit_joint', lookup_command=(-1.0, 0.0, 1.0),
                              lookup_thrust=(-40.0, 0.0, 50.0))
    # a PWM table whose zero is not at 1500 us (a one-way ESC's curve)
    shifted = ThrusterSpec('shifted_joint', lookup_command=(1000.0, 1200.0, 2000.0),
                           lookup_thrust=(-40.0, 0.0, 50.0))
    assert abs(_thrust_at_neutral(table)) < 1e-9
    assert abs(_thrust_at_neutral(propeller)) > 50.0  # 105 N: its bollard pull clamp
    assert abs(_thrust_at_neutral(uuv)) > 50.0
    assert abs(_thrust_at_neutral(unit_table)) == pytest.approx(50.0, rel=1e-9)  # clamped
    assert _thrust_at_neutral(shifted) == pytest.approx(50.0 * 300 / 800, rel=1e-9)
    specs = {s.joint_name: s for s in (table, propeller, uuv, unit_table, shifted)}
    assert pwm_thruster_problems({1: table.joint_name}, specs) == []
    check_pwm_thrusters({1: table.joint_name}, specs)  # no error
    for n, spec, model in ((1, propeller, 'propeller'), (2, uuv, 'uuv_basic'),
                           (3, unit_table, 'table'), (4, shifted, 'table')):
        problems = pwm_thruster_problems({n: spec.joint_name}, specs)
        assert len(problems) == 1
        assert ('servo %d -> thruster %s (%s model)' % (n, spec.joint_name, model)
                in problems[0]), problems
    with pytest.raises(ValueError) as exc:
        check_pwm_thrusters({1: table.joint_name, 2: propeller.joint_name, 3: uuv.joint_name},
                            specs)
    text = str(exc.value)
    assert 'propeller_joint (propeller model)' in text and 'uuv_joint (uuv_basic model)' in text
    assert table.joint_name not in text
