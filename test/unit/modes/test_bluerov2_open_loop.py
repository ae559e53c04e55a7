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
The shipped BlueROV2s flown open loop through ArduSub's own mix (issue 32).

ArduSub's single-axis mix is re-derived here from the motor factors of
AP_Motors6DOF::setup_motors (``VECTORED`` / ``VECTORED_6DOF`` of test_ardusub_rc.py) and
AP_Motors6DOF::output_armed_stabilizing: each motor puts out 1500 + 400 x (sum of the
pilot's inputs in [-1, 1] times the motor's factors) us, constrained to 1100..1900
(ArduPilot libraries/AP_Motors/AP_Motors6DOF.cpp).  The PWM goes to the node's path: RC
channels of an OverrideRCIn through modes/ardusub_rc.ArduSubChannels (the vehicle's
SERVOn_FUNCTION), the thruster models (T200 table, rotor lag, inflow) and the simulate
mode's steps (modes/rov_hold.hold), 10 s from rest.

Sources the figures are held against:

* Blue Robotics, BlueROV2 technical specifications: maximum forward speed 1.5 m/s
  (3 knots) -- within 15 %;
* ArduSub's full-stick yaw rate in its stabilised modes: Sub::get_pilot_desired_yaw_rate
  (ArduSub/Attitude.cpp) = stick angle (4500 cdeg at full stick) x ACRO_YAW_P, which is
  3.375 in ArduPilot's BlueROV2 frame parameters (Tools/Frame_params/Sub/
  bluerov2-4_0_2.params): 151.9 deg/s, the rate the autopilot's makers expect the
  vehicle to turn at -- within 15 %;
* a BlueROV2 in MANUAL at full stick pitches a little and stays upright: |roll| and
  |pitch| within 15 deg over the 10 s, at full and three-quarter stick.
"""
import copy
import math
import pathlib

import numpy as np
import pytest

from test_ardusub_rc import VECTORED, VECTORED_6DOF
from uwv_hydro.description.loader import load_vehicle
from uwv_hydro.modes.ardusub_rc import ArduSubChannels
from uwv_hydro.modes.rov_hold import hold, stick_commands
from uwv_hydro.physics.actuators.thruster_bank import ThrusterBank
from uwv_hydro.physics.hydro.hydro_model import HydroModel

REPO = pathlib.Path(__file__).resolve().parents[3]
CONFIG = REPO / 'config'
#: Blue Robotics' maximum forward speed of the BlueROV2 (m/s).
SPEC_FORWARD_SPEED = 1.5
#: ArduSub's full-stick yaw rate: 4500 cdeg x ACRO_YAW_P 3.375, in deg/s.
ARDUSUB_YAW_RATE = 4500 * 3.375 / 100.0
#: ArduSub pilot inputs: (roll, pitch, yaw, throttle, forward, lateral), FRD, the factors'
#: column order; FRD yaw is clockwise seen from above, lateral is to starboard.
AXIS = {'yaw': 2, 'forward': 4, 'lateral': 5}
FRAMES = [('ardusub_bluerov2.yaml', VECTORED), ('ardusub_bluerov2_heavy.yaml', VECTORED_6DOF)]


def ardusub_pwm(factors, axis, stick):
    """Return each motor's PWM for one pilot input held (AP_Motors6DOF output mix)."""
    column = np.array([motor[AXIS[axis]] for motor in factors], dtype=float)
    return np.clip(1500.0 + 400.0 * stick * column, 1100.0, 1900.0)


def fly_override(name, factors, axis, stick, duration=10.0):
    """Fly the config with the motors' PWM as OverrideRCIn channels, re-sent every step."""
    params = load_vehicle(str(CONFIG / name))
    functions = [33 + k for k in range(len(factors))]  # the configs' SERVOn_FUNCTION
    joints = ['thruster%d_joint' % (k + 1) for k in range(len(factors))]
    rc = ArduSubChannels('override', functions, joints)
    pwm = ardusub_pwm(factors, axis, stick)
    channels = [0] * 18
    for servo, function in enumerate(functions):
        channels[servo] = int(pwm[function - 33])
    order = [s.joint_name for s in params.thrusters]

    def commands(t):
        now = 10 ** 9 + int(round(t * 1e9))
        assert rc.receive(channels, now) is None
        out = rc.commands(now)
        return [out[j] for j in order]
    return params, hold(params, commands, duration=duration, dt=0.01)


def _thrust(params, commands):
    """Return the steady body wrench of the thrusters under the commands (no inflow)."""
    bank = ThrusterBank(params.thrusters, params.fluid_density)
    for _ in range(200):
        wrench = bank.step(commands, 0.01)
    return wrench


@pytest.mark.parametrize('name, factors', FRAMES)
@pytest.mark.parametrize('axis', ['forward', 'lateral'])
@pytest.mark.parametrize('stick', [1.0, 0.75])
def test_full_and_three_quarter_stick_stay_upright(name, factors, axis, stick):
    _, flight = fly_override(name, factors, axis, stick)
    fig = flight.values
    assert fig['max_abs_roll_deg'] < 15.0 and fig['max_abs_pitch_deg'] < 15.0, fig
    # it goes where the stick says: ahead, or to starboard (FLU -y)
    if axis == 'forward':
        assert fig['surge_m_s'] > 0.5 and abs(fig['sway_m_s']) < 0.05 * fig['surge_m_s']
    else:
        assert -fig['sway_m_s'] > 0.5 and abs(fig['surge_m_s']) < 0.05 * -fig['sway_m_s']


@pytest.mark.parametrize('name, factors', FRAMES)
def test_top_speed_is_blue_robotics_figure_and_balances_the_drag(name, factors):
    params, flight = fly_override(name, factors, 'forward', 1.0)
    u = flight.values['surge_m_s']
    # Blue Robotics: 1.5 m/s flat out
    assert u == pytest.approx(SPEC_FORWARD_SPEED, rel=0.15)
    # steady: the thrusters' surge force (the T200 table, ~zero inflow loss in the
    # table model) equals the drag X_u u + X_u|u| u^2 of the file
    x = _thrust(params, ardusub_pwm(factors, 'forward', 1.0))[0]
    drag = params.linear_drag[0, 0] * u + params.quadratic_drag[0, 0, 0] * u * abs(u)
    assert drag == pytest.approx(x, rel=0.01)
    # three-quarter stick: slower, by the square root of the thrust ratio or so
    _, slower = fly_override(name, factors, 'forward', 0.75)
    x34 = _thrust(params, ardusub_pwm(factors, 'forward', 0.75))[0]
    assert slower.values['surge_m_s'] == pytest.approx(u * math.sqrt(x34 / x), rel=0.05)


@pytest.mark.parametrize('name, factors', FRAMES)
def test_full_yaw_stick_turns_at_ardusubs_rate(name, factors):
    params, flight = fly_override(name, factors, 'yaw', 1.0)
    fig = flight.values
    # FRD yaw +1 is clockwise: FLU r < 0
    assert -fig['yaw_rate_deg_s'] == pytest.approx(ARDUSUB_YAW_RATE, rel=0.15)
    # steady: the thrusters' yaw moment equals N_r r + N_r|r| r^2
    n = _thrust(params, ardusub_pwm(factors, 'yaw', 1.0))[5]
    r = math.radians(fig['yaw_rate_deg_s'])
    damping = params.linear_drag[5, 5] * r + params.quadratic_drag[5, 5, 5] * r * abs(r)
    assert damping == pytest.approx(n, rel=0.02)
    # it spins on the spot
    assert fig['horizontal_speed_m_s'] < 0.05


@pytest.mark.parametrize('name', ['bluerov2.yaml', 'ardusub_bluerov2.yaml',
                                  'ardusub_bluerov2_heavy.yaml'])
def test_munk_moment_is_switched_off_and_the_rigid_body_coriolis_kept(name):
    """
    Wu's unequal M_A would pitch the frame over at 1.5 m/s; the files drop that term only.

    At angle of attack alpha (u = U cos alpha, w = U sin alpha) the Munk moment is
    (Z_A - X_A) u w ~ (Z_A - X_A) U^2 alpha (Fossen 2011 eq. 6.51), against the
    righting moment B BG alpha: with ``added_mass_coriolis`` on it would win; off, the
    added-mass Coriolis component is zero while ``coriolis`` (C_RB) stays on.
    """
    params = load_vehicle(str(CONFIG / name))
    assert params.coriolis and not params.added_mass_coriolis
    bg = params.cob[2] - params.com[2]
    righting = params.buoyancy_mass * params.gravity * bg  # B BG per radian
    alpha = 0.05
    on = copy.deepcopy(params)
    on.added_mass_coriolis = True
    for a, b, axis in ((0, 2, 4), (1, 2, 3)):  # surge-heave (pitch), sway-heave (roll)
        nu = np.zeros(6)
        nu[a], nu[b] = SPEC_FORWARD_SPEED * math.cos(alpha), SPEC_FORWARD_SPEED * math.sin(alpha)
        munk = HydroModel(on).wrench(nu).components['added_mass_coriolis'][axis]
        # Fossen 2011 eq. 6.51, diagonal M_A: (M_A,bb - M_A,aa) nu_a nu_b, sign by axis
        expected = (params.added_mass[b, b] - params.added_mass[a, a]) * nu[a] * nu[b]
        assert abs(munk) == pytest.approx(abs(expected), rel=1e-9)
        if (a, b) == (0, 2):
            assert abs(munk) > righting * alpha  # why the term is dropped
        assert np.all(HydroModel(params).wrench(nu).components['added_mass_coriolis'] == 0.0)


def test_stick_mix_is_ardusubs_and_the_plain_bluerov2_flies_too():
    """rov_hold's least-squares mix gives ArduSub's PWM; bluerov2.yaml at full stick."""
    for name, factors in FRAMES:
        params = load_vehicle(str(CONFIG / name))
        # FLU sticks: forward = surge, lateral (starboard) = -sway, FRD yaw = -yaw
        for axis, flu, sign in (('forward', 'surge', 1), ('lateral', 'sway', -1),
                                ('yaw', 'yaw', -1)):
            for stick in (1.0, 0.75):
                np.testing.assert_allclose(
                    stick_commands(params, {flu: sign * stick}),
                    ardusub_pwm(factors, axis, stick), atol=1e-9)
    params = load_vehicle(str(CONFIG / 'bluerov2.yaml'))
    ahead = hold(params, stick_commands(params, {'surge': 1.0})).values
    assert ahead['surge_m_s'] == pytest.approx(SPEC_FORWARD_SPEED, rel=0.15)
    assert ahead['max_abs_pitch_deg'] < 15.0 and ahead['max_abs_roll_deg'] < 15.0
    side = hold(params, stick_commands(params, {'sway': 1.0})).values
    assert side['max_abs_pitch_deg'] < 15.0 and side['max_abs_roll_deg'] < 15.0
    turn = hold(params, stick_commands(params, {'yaw': 1.0})).values
    assert turn['yaw_rate_deg_s'] == pytest.approx(ARDUSUB_YAW_RATE, rel=0.15)


def test_rounded_angles_do_not_leak_into_the_stick_mix(tmp_path):
    """
    Thrusters at rounded angles (1.571 for pi/2, as gz-sim files write them).

    The horizontal ones then lean 2e-4 rad out of the plane: a pitch moment the frame
    cannot really make, 1e-4 of the others.  The mix must stay ArduSub's and not blow
    that sliver up (bluerov2_ignition's model, mixed by a plain pseudo-inverse, got
    nearly equal PWM on its front and rear pairs: 4.7 N ahead instead of 141 N).
    """
    text = (CONFIG / 'ardusub_bluerov2.yaml').read_text()
    text = text.replace('rpy: [0.0, 0.0, ', 'rpy: [0.0, %r, ' % (1.571 - math.pi / 2))
    text = text.replace('1.5707963267948966', '1.571')
    path = tmp_path / 'rounded.yaml'
    path.write_text(text)
    params = load_vehicle(str(path))
    for axis, flu, sign in (('forward', 'surge', 1), ('lateral', 'sway', -1),
                            ('yaw', 'yaw', -1)):
        np.testing.assert_allclose(stick_commands(params, {flu: sign * 1.0}),
                                   ardusub_pwm(VECTORED, axis, 1.0), atol=0.5)
