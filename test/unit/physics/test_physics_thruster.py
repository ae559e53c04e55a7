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

"""Thruster models: steady state, dynamics, limits, deadband, reaction torque, base wrench."""
import math

import numpy as np
import pytest

from uwv_hydro.physics.actuators.thruster_bank import ThrusterBank
from uwv_hydro.physics.actuators.thruster_spec import table_zero, ThrusterSpec

RHO = 1025.0
#: A T200-like curve: PWM width (us) -> thrust (N), with a flat band around 1500 us.
PWM = (1100.0, 1200.0, 1300.0, 1400.0, 1460.0, 1540.0, 1600.0, 1700.0, 1800.0, 1900.0)
T200 = (-40.0, -29.0, -17.0, -6.5, 0.0, 0.0, 7.5, 21.0, 36.0, 51.0)


def _bank(**kw):
    return ThrusterBank([ThrusterSpec(joint_name='t', **kw)], RHO)


def test_steady_state_thrust_is_ct_rho_d4_omega_abs_omega():
    ct, d = 0.0045, 0.11
    bank = _bank(thrust_coefficient=ct, propeller_diameter=d, use_angvel_cmd=True)
    for omega in (-310.0, -20.0, 0.0, 3.0, 157.0, 400.0):
        bank.step([omega], 0.01)
        assert bank.thrust[0] == pytest.approx(ct * RHO * d ** 4 * omega * abs(omega),
                                               rel=1e-14, abs=1e-300)
        assert bank.omega[0] == omega


def test_thrust_command_reports_the_rotor_speed_of_that_thrust():
    ct, d = -0.003, 0.2  # negative Ct: counter-rotating propeller (gz-sim's sign convention)
    bank = _bank(thrust_coefficient=ct, propeller_diameter=d, fluid_density=998.0)
    for thrust in (-35.0, 0.0, 12.5, 80.0):
        bank.step([thrust], 0.01)
        assert bank.thrust[0] == thrust
        w = bank.omega[0]
        assert ct * 998.0 * d ** 4 * w * abs(w) == pytest.approx(thrust, rel=1e-12, abs=1e-12)
        assert np.sign(w) == -np.sign(thrust)


def test_advance_ratio_coefficient_as_gz_sim_computes_it():
    d, a1, a2, wake = 0.15, 0.9, -0.4, 0.25
    bank = _bank(propeller_diameter=d, alpha_1=a1, alpha_2=a2, wake_fraction=wake,
                 use_angvel_cmd=True, translation=(-0.7, 0.1, 0.0))
    inverse = _bank(propeller_diameter=d, alpha_1=a1, alpha_2=a2, wake_fraction=wake,
                    translation=(-0.7, 0.1, 0.0), max_thrust_cmd=1e4)
    nu_r = np.array([1.2, 0.3, -0.1, 0.0, 0.0, 0.5])
    # axial inflow at the thruster: (v + omega x r) . x = 1.2 - 0.5 * 0.1
    u_a = 1.2 - 0.5 * 0.1
    for omega in (40.0, 90.0, -60.0):
        bank.step([omega], 0.01, nu_r)
        j = (1.0 - wake) * u_a / (omega * d)  # gz-sim: J = Va / (omega D)
        expected = (a1 + a2 * j) * RHO * d ** 4 * omega * abs(omega)
        assert bank.thrust[0] == pytest.approx(expected, rel=1e-13)
        if omega > 0:  # the thrust-command inverse recovers the rotor speed exactly
            inverse.step([bank.thrust[0]], 0.01, nu_r)
            assert inverse.omega[0] == pytest.approx(omega, rel=1e-12)


def test_lookup_table_interpolates_and_holds_the_ends():
    bank = _bank(lookup_command=PWM, lookup_thrust=T200)
    for c, t in zip(PWM, T200):
        bank.step([c], 0.01)
        assert bank.thrust[0] == t
    for k in range(len(PWM) - 1):
        mid = 0.5 * (PWM[k] + PWM[k + 1])
        bank.step([mid], 0.01)
        assert bank.thrust[0] == pytest.approx(0.5 * (T200[k] + T200[k + 1]), rel=1e-14)
    assert math.isnan(bank.omega[0])
    # limits default to the table's ends; no command means neutral (1500 us): no thrust
    bank.step([2500.0], 0.01)
    assert bank.thrust[0] == T200[-1] and bank.state[0] == PWM[-1]
    bank.step([float('nan')], 0.01)
    assert bank.state[0] == 1500.0 and bank.thrust[0] == 0.0


def test_table_zero_and_load_checks():
    assert table_zero(PWM, T200) == 1500.0
    assert table_zero((0.0, 1.0, 3.0), (-2.0, -1.0, 3.0)) == pytest.approx(1.5)
    for command, thrust, words in (
            ((1.0, 2.0, 2.0), (-1.0, 0.0, 1.0), 'increase strictly'),
            ((1.0, 2.0, 3.0, 4.0), (-1.0, 2.0, 1.0, 3.0), 'monotone'),
            ((1.0, 2.0), (1.0, 2.0), 'never gives zero'),
            ((1.0, 2.0), (0.0,), '1 thrust values for 2')):
        spec = ThrusterSpec(joint_name='t', lookup_command=command, lookup_thrust=thrust)
        assert any(words in reason for _, reason in spec.problems()), spec.problems()
        with pytest.raises(ValueError, match=words):
            ThrusterBank([spec], RHO)
    # a reversed-wired thruster (monotone decreasing) is valid
    assert not ThrusterSpec(joint_name='t', lookup_command=(1.0, 2.0, 3.0),
                            lookup_thrust=(5.0, 0.0, -5.0)).problems()


def _crossing_time(times, values, level):
    k = int(np.argmax(values >= level))
    # linear interpolation between the samples around the crossing
    return times[k - 1] + (level - values[k - 1]) / (values[k] - values[k - 1]) * (
        times[k] - times[k - 1])


@pytest.mark.parametrize('dt', [1e-3, 0.01, 0.03])
def test_first_order_step_reaches_63_percent_at_the_time_constant(dt):
    tau, omega_cmd = 0.3, 200.0
    bank = _bank(thrust_coefficient=0.004, propeller_diameter=0.1, use_angvel_cmd=True,
                 time_constant=tau)
    times, values = [0.0], [0.0]
    for k in range(1, int(round(3 * tau / dt))):
        bank.step([omega_cmd], dt)
        times.append(k * dt)
        values.append(bank.omega[0])
    t63 = _crossing_time(np.array(times), np.array(values) / omega_cmd, 1.0 - math.exp(-1.0))
    assert abs(t63 - tau) / tau < 0.02, t63
    # the thrust follows the rotor speed: T = Ct rho D^4 w|w| at every step
    assert bank.thrust[0] == pytest.approx(0.004 * RHO * 1e-4 * values[-1] ** 2, rel=1e-13)


def test_rate_limit_ramps_at_the_limit_then_holds():
    bank = _bank(max_cmd_rate=50.0)  # N/s on a thrust command
    out = [bank.step([20.0], 0.1)[0] for _ in range(6)]
    np.testing.assert_allclose(out, [5.0, 10.0, 15.0, 20.0, 20.0, 20.0], rtol=1e-14)
    out = [bank.step([-5.0], 0.1)[0] for _ in range(6)]
    np.testing.assert_allclose(out, [15.0, 10.0, 5.0, 0.0, -5.0, -5.0], atol=1e-12)


def test_command_limits_and_deadband():
    bank = _bank(min_thrust_cmd=-30.0, max_thrust_cmd=45.0, deadband=2.0)
    for command, thrust in ((100.0, 45.0), (-100.0, -30.0), (1.99, 0.0), (-1.99, 0.0),
                            (2.0, 2.0), (-2.5, -2.5), (10.0, 10.0)):
        bank.step([command], 0.01)
        assert bank.thrust[0] == thrust, command
    bank.step([1.0], 0.01)
    assert bank.omega[0] == 0.0  # gz-sim: no spin in the deadband either
    bank.deadband_enabled[0] = False  # gz-sim's enable_deadband topic
    bank.step([1.0], 0.01)
    assert bank.thrust[0] == 1.0
    bank = _bank()  # gz-sim's defaults: +-1000
    bank.step([5000.0], 0.01)
    assert bank.thrust[0] == 1000.0
    with pytest.raises(ValueError, match='below min_thrust_cmd'):
        _bank(min_thrust_cmd=1.0, max_thrust_cmd=0.0)


def test_reaction_torque_opposes_the_rotor_spin():
    kq, d, ct = 0.0005, 0.14, 0.0004
    for sign in (1.0, -1.0):  # Ct's sign is the spin direction under positive thrust
        bank = _bank(thrust_coefficient=sign * ct, propeller_diameter=d,
                     torque_coefficient=kq)
        bank.step([3.86], 0.01)
        w = bank.omega[0]
        assert np.sign(w) == sign
        assert bank.torque[0] == pytest.approx(-kq * RHO * d ** 5 * w * abs(w), rel=1e-13)
        assert np.sign(bank.torque[0]) == -sign  # the hull turns against the rotor
        bank.step([-3.86], 0.01)
        assert np.sign(bank.torque[0]) == sign
    for spin in (1, -1):
        bank = _bank(lookup_command=PWM, lookup_thrust=T200, torque_per_thrust=0.02,
                     spin_direction=spin)
        bank.step([1900.0], 0.01)
        assert bank.torque[0] == pytest.approx(-spin * 0.02 * 51.0, rel=1e-14)


def test_wrench_is_the_allocation_of_thrust_and_torque():
    rng = np.random.default_rng(5)
    specs = []
    for k in range(4):
        q = rng.normal(size=4)
        specs.append(ThrusterSpec(joint_name='t%d' % k, translation=tuple(rng.normal(size=3)),
                                  rotation=tuple(q / np.linalg.norm(q)), axis=(0.0, 0.0, 1.0),
                                  thrust_coefficient=0.01, propeller_diameter=0.1,
                                  torque_coefficient=0.002))
    bank = ThrusterBank(specs, RHO)
    w = bank.step([10.0, -3.0, 0.0, 7.0], 0.01)
    expected = np.zeros(6)
    for k, spec in enumerate(specs):
        d = spec.direction()
        f = bank.thrust[k] * d
        expected += np.concatenate((f, np.cross(spec.point(), f) + bank.torque[k] * d))
    np.testing.assert_allclose(w, expected, atol=1e-12)
    bank.reset()
    assert not bank.wrench().any()
