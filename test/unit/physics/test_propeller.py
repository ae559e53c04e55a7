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
The propeller thruster model: open-water curves K_T(J), K_Q(J) at fixed rotor speed.

Reference values: PythonVehicleSimulator's remus100 (Fossen; after Allen, Vorus & Prestero
2000) quotes the Wageningen B-series regression (Oosterveld & van Oossanen 1975, as MSS's
wageningen(J, P/D 1, A_E/A_0 0.718, 3 blades)) at J = 0: K_T 0.4566, K_Q 0.0700 and at
J = 0.6632: K_T 0.1798, K_Q 0.0312, and flies the straight line between them.
"""
import dataclasses
import math
import pathlib

import numpy as np
import pytest

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.loader import load_vehicle
from uwv_hydro.description.vehicle_from_urdf import load_urdf_string
from uwv_hydro.description.yaml.params import load_yaml_string
from uwv_hydro.modes.manoeuvres.manoeuvre import Manoeuvre, ManoeuvreError, rotor_speed_commanded
from uwv_hydro.physics.actuators.thruster_bank import ThrusterBank
from uwv_hydro.physics.actuators.thruster_spec import ThrusterSpec
from uwv_hydro.physics.hydro.hydro_model import HydroModel

REMUS = pathlib.Path(__file__).resolve().parents[3] / 'config' / 'remus100.yaml'
#: PVS remus100's open-water table: J -> (K_T, K_Q); the middle row on its straight line.
PVS_TABLE = {0.0: (0.4566, 0.0700), 0.3316: (0.4566 + 0.5 * (0.1798 - 0.4566),
                                             0.0700 + 0.5 * (0.0312 - 0.0700)),
             0.6632: (0.1798, 0.0312)}


def _remus_propeller():
    """Return the REMUS and its propeller commanded by rotor speed (as the manoeuvres fly it)."""
    params = load_vehicle(str(REMUS))
    (spec,) = params.thrusters
    return params, rotor_speed_commanded(spec, params.fluid_density)


@pytest.mark.parametrize('j', sorted(PVS_TABLE))
def test_remus_open_water_curves_are_pvs_table(j):
    """K_T and K_Q measured from the bank's thrust and torque at J equal the table's (4 d.p.)."""
    params, spec = _remus_propeller()
    bank = ThrusterBank([spec], params.fluid_density)
    omega = 2 * math.pi * 20.0  # 20 rev/s
    n, d, rho = 20.0, spec.propeller_diameter, params.fluid_density
    # the body speed giving J: Va = J n D = (1 - w) u
    u = j * n * d / (1.0 - spec.wake_fraction)
    bank.state[:] = [omega]
    bank.evaluate([u, 0, 0, 0, 0, 0])
    kt = bank.thrust[0] / (rho * d ** 4 * n * n)
    kq = -bank.torque[0] / (rho * d ** 5 * n * n)  # the hull takes the opposite torque
    print('J %.4f: K_T %.5f, K_Q %.5f (PVS %.4f, %.4f)' % ((j, kt, kq) + PVS_TABLE[j]))
    assert kt == pytest.approx(PVS_TABLE[j][0], abs=5e-5)
    assert kq == pytest.approx(PVS_TABLE[j][1], abs=5e-5)


@pytest.mark.parametrize('omega', [30.0, -45.0, 159.7])
def test_bollard_pull_is_the_fixed_coefficient_model(omega):
    """At rest (J = 0) the propeller is gz-sim's Ct = K_T(0) / (2 pi)^2, torque likewise."""
    kt, kq, d = (0.4566, -0.4174), (0.07, -0.0585), 0.14
    propeller = ThrusterSpec('p', use_angvel_cmd=True, kt_polynomial=kt, kq_polynomial=kq,
                             propeller_diameter=d, time_constant=0.2)
    # omega in rad/s: n = omega / (2 pi), so K_T n|n| = K_T / (2 pi)^2 omega|omega|
    fixed = ThrusterSpec('f', use_angvel_cmd=True, thrust_coefficient=kt[0] / (2 * math.pi) ** 2,
                         torque_coefficient=kq[0] / (2 * math.pi) ** 2, propeller_diameter=d,
                         time_constant=0.2)
    bank = ThrusterBank([propeller, fixed], 1025.0)
    for _ in range(50):  # through the rotor lag: the same states
        wrench = bank.step([omega, omega], 0.02, np.zeros(6))
    assert bank.thrust[0] == pytest.approx(bank.thrust[1], rel=1e-12)
    assert bank.torque[0] == pytest.approx(bank.torque[1], rel=1e-12)
    assert bank.omega[0] == pytest.approx(bank.omega[1], rel=1e-12)
    # the wrench is twice the fixed one (no thrust deduction)
    single = ThrusterBank([fixed], 1025.0)
    single.state[:] = bank.state[1:]
    np.testing.assert_allclose(wrench, 2 * single.evaluate(np.zeros(6)), rtol=1e-12)


def test_thrust_grows_as_the_vehicle_slows_at_fixed_rpm():
    """T(u) = rho D^4 (a0 n^2 + a1 (1 - w) u n / D) (1 - t) on the hull: falls with speed."""
    params, spec = _remus_propeller()
    bank = ThrusterBank([spec], params.fluid_density)
    omega = 2 * math.pi * 700 / 60  # 700 rpm
    n, d, rho = omega / (2 * math.pi), spec.propeller_diameter, params.fluid_density
    a0, a1 = spec.kt_polynomial
    pushes = []
    for u in (0.0, 1.0, 1.3, 1.5):
        bank.state[:] = [omega]
        pushes.append(bank.evaluate([u, 0, 0, 0, 0, 0])[0])
        # the closed form, linear in the advance speed
        expected = rho * d ** 4 * (a0 * n * n + a1 * (1 - spec.wake_fraction) * u * n / d)
        assert bank.thrust[0] == pytest.approx(expected, rel=1e-12)
        assert pushes[-1] == pytest.approx((1 - spec.thrust_deduction) * expected, rel=1e-12)
    assert all(np.diff(pushes) < 0.0)
    # sway and yaw at the propeller on the axis do not change the axial inflow
    bank.state[:] = [omega]
    bank.evaluate([1.5, 0.3, 0.0, 0.0, 0.0, 0.2])
    assert bank.thrust[0] == pytest.approx(pushes[-1] / (1 - spec.thrust_deduction), rel=1e-12)


def test_cruise_rpm_is_the_closed_form_and_holds_the_speed():
    """The manoeuvre's cruise rpm solves (1 - t) T(n, U) = drag(U) and flies U straight."""
    params, spec = _remus_propeller()
    speed = 1.5
    manoeuvre = Manoeuvre(params, speed=speed)
    drag = -HydroModel(params).wrench([speed, 0, 0, 0, 0, 0],
                                      fin_angles=np.zeros(len(params.fins))).total[0]
    a0, a1 = spec.kt_polynomial
    d, rho, va = spec.propeller_diameter, params.fluid_density, (1 - spec.wake_fraction) * speed
    # (1 - t) rho D^4 (a0 n^2 + a1 Va n / D) = drag: the positive root in n
    qa, qb, qc = a0, a1 * va / d, -drag / ((1 - spec.thrust_deduction) * rho * d ** 4)
    n = (-qb + math.sqrt(qb * qb - 4 * qa * qc)) / (2 * qa)
    figures = manoeuvre.turn(math.radians(10), max_time=60.0).values
    assert figures['cruise_rpm'] == pytest.approx(60 * n, rel=1e-9)
    flight = manoeuvre.fly(lambda t, change, r: 0.0, 30.0)
    # straight and level with the fins centred: no surge acceleration at the start
    assert abs(flight.twist[1, 0] - flight.twist[0, 0]) / manoeuvre.dt < 1e-3
    # the depth hold trims the buoyant REMUS (B - W = 7 N) nose down, which costs drag:
    # at fixed rpm the propeller makes up most of it, at fixed thrust it does not
    manoeuvre.propellers = None
    pushed = manoeuvre.fly(lambda t, change, r: 0.0, 30.0)
    loss = [1 - np.linalg.norm(f.twist[-1, :3]) / speed for f in (flight, pushed)]
    print('cruise %.2f rpm; straight speed loss at fixed rpm %.4f, at fixed thrust %.4f'
          % (60 * n, loss[0], loss[1]))
    assert 0.0 < loss[0] < loss[1] / 3
    # at fixed rpm the turn costs the REMUS a few per cent of its speed (at fixed thrust 15 %)
    assert 0.0 < figures['speed_loss'] < 0.08
    # 1525 rpm does not hold 4 m/s: refused, saying so
    with pytest.raises(ManoeuvreError, match='largest rotor speed .* do not hold 4 m/s'):
        Manoeuvre(params, speed=4.0)


def test_thrust_commands_solve_the_rotor_speed_from_the_curve():
    """
    The REMUS file commands thrust: n solves K_T(J) rho D^4 n^2 = T, the torque follows.

    Its rotor-speed limits for the manoeuvres are the bollard rotor speeds of its thrust
    limits: PVS's 1525 rpm.
    """
    params = load_vehicle(str(REMUS))
    (spec,) = params.thrusters
    assert not spec.use_angvel_cmd
    bank = ThrusterBank([spec], params.fluid_density)
    d, rho, (a0, a1), (q0, q1) = (spec.propeller_diameter, params.fluid_density,
                                  spec.kt_polynomial, spec.kq_polynomial)
    for thrust, u in ((4.05, 1.5), (20.0, 1.0), (3.0, 0.0), (-5.0, 0.5)):
        bank.state[:] = [thrust]
        bank.evaluate([u, 0, 0, 0, 0, 0])
        c = (1 - spec.wake_fraction) * u / d
        if thrust > 0:
            # a0 n^2 + a1 c n = T / (rho D^4): the positive root
            n = (-a1 * c + math.sqrt((a1 * c) ** 2 + 4 * a0 * thrust / (rho * d ** 4))) / (
                2 * a0)
            j = c / n
        else:  # astern: K_T(0)
            n, j = -math.sqrt(-thrust / (a0 * rho * d ** 4)), 0.0
        assert bank.thrust[0] == pytest.approx(thrust, rel=1e-12)
        assert bank.omega[0] == pytest.approx(2 * math.pi * n, rel=1e-9)
        assert bank.torque[0] == pytest.approx(-(q0 + q1 * j) * rho * d ** 5 * n * abs(n),
                                               rel=1e-9)
    limits = rotor_speed_commanded(spec, params.fluid_density).command_limits()
    np.testing.assert_allclose(np.array(limits) * 30 / math.pi, [-1525.0, 1525.0], rtol=1e-3)


def _yaml(item):
    return """vehicle:
  mass: 10.0
  inertia: {ixx: 1, iyy: 1, izz: 1}
  thrusters:
    - %s
""" % item


def test_yaml_propeller_keys_and_errors():
    """The propeller keys load; a mix of models or bad terms are refused, naming the key."""
    params = load_yaml_string(_yaml(
        '{joint_name: p, use_angvel_cmd: true, kt_polynomial: [0.4, -0.3, -0.05], '
        'kq_polynomial: [0.05, -0.03], thrust_deduction: 0.1, wake_fraction: 0.1}'))
    (spec,) = params.thrusters
    assert spec.model == 'propeller'
    assert spec.kt_polynomial == (0.4, -0.3, -0.05)
    for item, key, words in (
            ('{joint_name: p, use_angvel_cmd: true, kt_polynomial: [0.4], '
             'thrust_coefficient: 0.01}', 'thrust_coefficient', 'one thrust model'),
            ('{joint_name: p, use_angvel_cmd: true, kt_polynomial: [-0.1]}',
             'kt_polynomial', 'must be positive'),
            ('{joint_name: p, use_angvel_cmd: true, kt_polynomial: [0.4], '
             'thrust_deduction: 1.0}', 'thrust_deduction', '[0, 1)'),
            ('{joint_name: p, thrust_coefficient: 0.01, kq_polynomial: [0.05]}',
             'kq_polynomial', 'only for the propeller model'),
            ('{joint_name: p, use_angvel_cmd: true, kt_polynomial: 0.4}',
             'kt_polynomial', 'expected a list')):
        with pytest.raises(DescriptionError, match=key) as info:
            load_yaml_string(_yaml(item))
        assert words in str(info.value)


URDF = """<robot name="auv">
  <link name="base_link">
    <inertial><mass value="20"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/>
    </inertial>
  </link>
  <link name="propeller"/>
  <joint name="propeller_joint" type="continuous">
    <parent link="base_link"/><child link="propeller"/>
    <origin xyz="-0.9 0 0"/><axis xyz="1 0 0"/>
  </joint>
  <gazebo>
    <plugin filename="gz-sim-thruster-system" name="gz::sim::systems::Thruster">
      <joint_name>propeller_joint</joint_name>
      <use_angvel_cmd>true</use_angvel_cmd>
      <propeller_diameter>0.2</propeller_diameter>
      <wake_fraction>0.1</wake_fraction>
      <kt_polynomial>0.45 -0.35 -0.02</kt_polynomial>
      <kq_polynomial>0.06 -0.04</kq_polynomial>
      <thrust_deduction>0.12</thrust_deduction>
      %s
    </plugin>
  </gazebo>
</robot>"""


def test_urdf_gz_block_carries_the_propeller_extension():
    """The gz-sim Thruster block with the extension's elements (text lists) loads as in YAML."""
    (spec,) = load_urdf_string(URDF % '').thrusters
    assert spec.model == 'propeller' and spec.use_angvel_cmd
    assert spec.kt_polynomial == (0.45, -0.35, -0.02) and spec.kq_polynomial == (0.06, -0.04)
    # a quadratic K_T: T = rho D^4 (a0 n^2 + a1 c n + a2 c^2), c = Va / D, at 15 rev/s
    bank = ThrusterBank([spec], 1000.0)
    bank.state[:] = [2 * math.pi * 15.0]
    wrench = bank.evaluate([2.0, 0, 0, 0, 0, 0])
    c = 0.9 * 2.0 / 0.2
    expected = 1000.0 * 0.2 ** 4 * (0.45 * 225 - 0.35 * c * 15 - 0.02 * c * c)
    assert bank.thrust[0] == pytest.approx(expected, rel=1e-12)
    assert wrench[0] == pytest.approx(0.88 * expected, rel=1e-12)
    with pytest.raises(DescriptionError, match='thrust_coefficient') as info:
        load_urdf_string(URDF % '<thrust_coefficient>0.01</thrust_coefficient>')
    assert 'one thrust model' in str(info.value)


def test_an_idle_extra_thruster_leaves_the_cruise_rpm_alone():
    """A table thruster beside the propeller idles at neutral: the cruise rpm is unchanged."""
    params = load_vehicle(str(REMUS))
    alone = Manoeuvre(params, speed=1.5).cruise
    table = ThrusterSpec(joint_name='aux', translation=(-0.5, 0.0, 0.0), axis=(0.0, 1.0, 0.0),
                         lookup_command=(-1.0, 0.0, 1.0), lookup_thrust=(-10.0, 0.0, 10.0))
    params.thrusters = list(params.thrusters) + [table]
    both = Manoeuvre(params, speed=1.5).cruise
    # the idle thruster makes no force, so the same rotor speed holds the same drag
    assert np.isfinite(both[0])
    assert both[0] == pytest.approx(alone[0], rel=1e-9)


def test_a_propeller_pushing_along_minus_x_cruises_at_the_same_rpm():
    """The REMUS propeller turned to push along -x, flown along -x, needs the same rpm."""
    params = load_vehicle(str(REMUS))
    manoeuvre = Manoeuvre(params, speed=1.5)
    alone = manoeuvre.cruise_speed(manoeuvre.thrust)
    (spec,) = manoeuvre.propellers.specs
    x, y, z = spec.translation
    # the vehicle turned 180 deg about z: x and y change sign, the thrust axis with them
    mirrored = dataclasses.replace(spec, translation=(-x, -y, z),
                                   axis=tuple(-a if i < 2 else a for i, a in
                                              enumerate(spec.axis)))
    manoeuvre.propellers = ThrusterBank([mirrored], params.fluid_density)
    manoeuvre.ahead = -1.0
    assert manoeuvre.cruise_speed(manoeuvre.thrust)[0] == pytest.approx(alone[0], rel=1e-9)
