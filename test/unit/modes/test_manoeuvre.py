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
Manoeuvre figures on tracks of known geometry, and the manoeuvre command end to end.

The figure functions are checked on a synthetic track (a straight approach, then a
circle of radius R at speed U: advance = transfer = R, tactical diameter 2 R, steady
diameter 2 R) and a synthetic zig-zag heading; the command on config/remus100.yaml and
the BlueROV2s (differential thrust, sticks held).
"""
import json
import math
import pathlib

import numpy as np
import pytest

from uwv_hydro.cli.main import main
from uwv_hydro.description.loader import load_vehicle
from uwv_hydro.modes.manoeuvres.manoeuvre import Flight, Manoeuvre, turn_figures, zigzag_figures
from uwv_hydro.modes.rov_hold import hold, stick_commands

REPO = pathlib.Path(__file__).resolve().parents[3]
REMUS = REPO / 'config' / 'remus100.yaml'


def _circle_flight(radius=20.0, speed=1.5, t0=5.0, drift=0.05, dt=0.01, turns=1.3):
    """Straight along +x until t0, then a port circle of ``radius`` (centre (x0, R))."""
    rate = speed / radius
    t = np.arange(0.0, t0 + turns * 2 * math.pi / rate, dt)
    s = np.clip(t - t0, 0.0, None)
    psi = rate * s
    x = np.where(t < t0, speed * t, speed * t0 + radius * np.sin(psi))
    y = np.where(t < t0, 0.0, radius * (1.0 - np.cos(psi)))
    # body twist: speed split by the drift angle (sideslip outward), yaw rate
    twist = np.zeros((len(t), 6))
    twist[:, 0] = speed * math.cos(drift)
    twist[:, 1] = np.where(t < t0, 0.0, -speed * math.sin(drift))
    twist[:, 5] = np.where(t < t0, 0.0, rate)
    twist[t < t0, 0] = speed
    return Flight(t, np.column_stack([x, y, np.full(len(t), -5.0)]), psi,
                  np.zeros(len(t)), twist, np.zeros(len(t)))


def test_turn_figures_of_a_circle():
    """Advance and transfer R, tactical and steady diameter 2 R, drift and rate as flown."""
    radius, speed = 20.0, 1.5
    fig = turn_figures(_circle_flight(radius, speed), 5.0)
    step = speed * 0.01  # the track is sampled every 1.5 cm
    assert fig['advance_m'] == pytest.approx(radius, abs=step)
    assert fig['transfer_m'] == pytest.approx(radius, abs=step)
    assert fig['tactical_diameter_m'] == pytest.approx(2 * radius, abs=step)
    assert fig['steady_diameter_m'] == pytest.approx(2 * radius, rel=1e-9)
    assert fig['drift_angle_deg'] == pytest.approx(math.degrees(0.05), rel=1e-9)
    assert fig['yaw_rate_deg_s'] == pytest.approx(math.degrees(speed / radius), rel=1e-9)
    assert fig['speed_loss'] == pytest.approx(0.0, abs=1e-12)


def test_zigzag_figures_of_a_known_heading():
    """Heading runs 1.5 deg past +-10 after each reversal: overshoots 1.5, period as set."""
    t = np.arange(0.0, 60.0, 0.01)
    # a heading that reaches +10 deg at t = 5, peaks at 11.5, reaches -10 at 15, ...
    heading = np.radians(11.5 * np.sin(2 * math.pi * (t - 2.0) / 20.0 + 0.0))
    reversals = []
    sign = 1.0
    for k in range(1, len(t)):
        if sign * math.degrees(heading[k]) >= 10.0 and sign * math.degrees(
                heading[k - 1]) < 10.0:
            reversals.append(t[k])
            sign = -sign
    flight = Flight(t, np.zeros((len(t), 3)), heading, np.zeros(len(t)),
                    np.zeros((len(t), 6)), np.zeros(len(t)))
    fig = zigzag_figures(flight, 2.0, 10.0, reversals[:4])
    for k in range(1, 4):
        assert fig['overshoot_%d_deg' % k] == pytest.approx(1.5, abs=1e-3)
    assert fig['period_s'] == pytest.approx(20.0, abs=0.02)


def test_manoeuvre_command_turn_json_is_a_steady_circle(capsys):
    """The REMUS turns to port at 15 deg: the fitted diameter is 2 U / r (to 3 %)."""
    assert main(['manoeuvre', str(REMUS), 'turn', '--rudder', '15', '--json']) == 0
    out = json.loads(capsys.readouterr().out)
    # every warning of the load is in the JSON (a list, possibly empty)
    assert isinstance(out['warnings'], list)
    fig = out['figures']
    assert fig['steady_diameter_m'] == pytest.approx(
        2 * fig['steady_speed_m_s'] / math.radians(fig['yaw_rate_deg_s']), rel=0.03)
    assert 0.0 < fig['speed_loss'] < 0.5 and fig['tactical_diameter_m'] > fig['transfer_m']


def test_pullout_dies_out_and_spiral_is_odd(tmp_path, capsys):
    """Pull-out: the yaw rate dies out (stable hull); spiral: r is odd in the rudder angle."""
    manoeuvre = Manoeuvre(load_vehicle(str(REMUS)))
    fig = manoeuvre.pullout(math.radians(10), turn_time=30.0, settle=30.0).values
    # what is left is the straight flight's own yaw rate: the propeller's roll reaction
    # heels the REMUS a little and it drifts round slowly, rudder centred
    calm = manoeuvre.fly(lambda t, change, r: 0.0, 65.0)
    bias = float(np.degrees(np.abs(calm.twist[calm.t > 55.0, 5])).mean())
    print('pull-out: residual %.5f deg/s, straight flight %.5f deg/s'
          % (fig['residual_yaw_rate_deg_s'], bias))
    assert fig['turn_yaw_rate_deg_s'] > 1.0
    assert abs(fig['residual_yaw_rate_deg_s'] - bias) < 1e-3 * fig['turn_yaw_rate_deg_s']
    rows = manoeuvre.spiral([math.radians(-10), math.radians(10)], time=40.0).table
    assert rows[0][1] < 0 < rows[1][1]
    # the hull is symmetric port/starboard; the centre of gravity below the centre of
    # buoyancy lets it heel a little into the turn, the same both ways
    assert rows[0][1] == pytest.approx(-rows[1][1], rel=0.05)
    png = tmp_path / 'zigzag.png'
    assert main(['manoeuvre', str(REMUS), 'zigzag', '--plot', str(png)]) == 0
    assert 'overshoot_1_deg' in capsys.readouterr().out and png.stat().st_size > 1000


def test_a_finless_rov_turns_by_differential_thrust(capsys):
    """BlueROV2 (vectored thrusters, no fins): a steady circle at the held depth, both ways."""
    rov = str(REPO / 'config' / 'bluerov2.yaml')
    assert main(['manoeuvre', rov, 'turn', '--speed', '0.5', '--depth', '2', '--json']) == 0
    out = json.loads(capsys.readouterr().out)
    fig = out['figures']
    assert fig['heading_change_deg'] >= 450.0
    assert fig['steady_diameter_m'] == pytest.approx(
        2 * fig['steady_speed_m_s'] / math.radians(fig['yaw_rate_deg_s']), rel=0.03)
    assert main(['manoeuvre', rov, 'turn', '--speed', '0.5', '--depth', '2', '--json',
                 '--differential', '-0.5']) == 0
    mirror = json.loads(capsys.readouterr().out)['figures']
    # the mirror turn (to starboard): the same circle
    assert mirror['steady_diameter_m'] == pytest.approx(fig['steady_diameter_m'], rel=1e-3)


def test_manoeuvre_command_refuses_what_it_cannot_fly(capsys):
    """No rudder fins nor thrusters: exit 2 with the reason; a rudder beyond the limit: 2."""
    assert main(['manoeuvre', str(REPO / 'config' / 'small_rov.yaml'), 'turn']) == 2
    assert 'has no rudder' in capsys.readouterr().err
    assert main(['manoeuvre', str(REMUS), 'turn', '--rudder', '25']) == 2
    assert 'limit' in capsys.readouterr().err


def test_an_rov_holds_its_sticks(capsys):
    """``hold``: an ArduSub BlueROV2 at three-quarter forward stick, and what is refused."""
    rov = str(REPO / 'config' / 'ardusub_bluerov2.yaml')
    assert main(['manoeuvre', rov, 'hold', '--stick', 'surge=0.75', '--json']) == 0
    fig = json.loads(capsys.readouterr().out)['figures']
    assert fig['max_abs_pitch_deg'] < 15.0 and fig['max_abs_roll_deg'] < 15.0
    # the steady speed does not depend on the step: the CLI's 0.02 s against 0.005 s
    params = load_vehicle(rov)
    fine = hold(params, stick_commands(params, {'surge': 0.75}), dt=0.005).values
    assert fig['surge_m_s'] == pytest.approx(fine['surge_m_s'], rel=0.01)
    assert abs(fig['sway_m_s']) < 1e-6 and abs(fig['yaw_rate_deg_s']) < 1e-6
    assert main(['manoeuvre', rov, 'hold', '--stick', 'forward=1']) == 2
    assert 'unknown stick axis forward' in capsys.readouterr().err
    assert main(['manoeuvre', rov, 'hold', '--stick', 'surge=2']) == 2
    assert main(['manoeuvre', rov, 'hold', '--stick', 'surge=1', 'surge=-1']) == 2
    assert main(['manoeuvre', rov, 'hold', '--plot', 'hold.png']) == 2
    assert 'outside [-1, 1]' in capsys.readouterr().err


def test_a_vectored_rov_without_munk_moment_is_directionally_stable(capsys):
    """Equal translational added masses: no Munk yaw moment, the pull-out dies out."""
    rov = str(REPO / 'config' / 'bluerov2.yaml')
    assert main(['manoeuvre', rov, 'pullout', '--speed', '0.5', '--differential', '0.3',
                 '--settle', '20', '--json']) == 0
    fig = json.loads(capsys.readouterr().out)['figures']
    assert fig['turn_yaw_rate_deg_s'] > 5.0 and fig['residual_ratio'] < 0.01


def test_hold_starts_at_depth_below_the_surface_zone():
    """Held level (no stick) at 5 m the neutral ROV stays fully submerged near 5 m."""
    params = load_vehicle(str(REPO / 'config' / 'ardusub_bluerov2.yaml'))
    flight = hold(params, stick_commands(params, {'surge': 1.0}), duration=5.0, depth=5.0)
    # the surface zone is the top 0.25 m; the ROV is near-neutral, so it moves little
    assert np.all(flight.position[:, 2] < -4.0)
    assert abs(flight.position[0, 2] + 5.0) < 1e-9
