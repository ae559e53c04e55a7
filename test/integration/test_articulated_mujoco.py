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
A base and an arm link: ArticulatedSimulateMode against MuJoCo and DART, same per-link hydro.

Each engine integrates the two bodies (free joint + hinge, gravity off); before every
engine step each link's hydro is evaluated from the engine's own state and applied
(test/helpers/articulated_reference.py: buoyancy, linear and quadratic drag of each part, each
body's weight); the added mass, of rigid-body form here, is folded into the engine's
body inertia (exact, its Kirchhoff term included).  The arm swings under an effort
command (a sine, held over each 10 ms step in all) while a constant base wrench drives
the vehicle.

MuJoCo (RK4) holds the applied forces over its step, DART's step is semi-implicit
Euler: the error of each is first order in its step.  The mode's trajectory (RK4 with
the forces at every stage, 10 ms) lies within the engine's step error at 10 ms
(estimated as the change when the engine's step is halved), and the engine's
trajectory converges to it as its step is halved twice.
"""
from articulated_reference import engine_run, ENGINES, unlimited
from articulated_vehicle import two_link
import numpy as np
import pytest
from required_modules import require

require('pinocchio')

DT = 0.01
DURATION = 3.0
POSITION = np.array([0.0, 0.0, -10.0])
QUATERNION = np.array([0.96, 0.1, -0.2, 0.15]) / np.linalg.norm([0.96, 0.1, -0.2, 0.15])
TWIST = np.array([0.3, 0.1, -0.1, 0.1, -0.2, 0.2])
TAU = np.array([30.0, 8.0, -5.0, 1.0, 2.0, -1.5])
Q0 = 0.3


def effort(t: float) -> float:
    """Return the arm's effort command (N m) at time t."""
    return 12.0 * np.sin(2.0 * np.pi * t / 1.2)


def _engine_run(run, params, dt):
    """Return (base position, quaternion, joint angle) after DURATION with an engine at dt."""
    position, quaternion, angles = run(
        params, dt, DURATION, (POSITION, QUATERNION, TWIST, [Q0]),
        lambda t: np.array([effort(t)]), TAU, DT)
    return position, quaternion, float(angles[0])


def _mode_run(params, dt):
    from uwv_hydro.modes.articulated_simulate_mode import ArticulatedSimulateMode
    from uwv_hydro.physics.body.dynamics import State
    mode = ArticulatedSimulateMode(params, dt, joint_positions=[Q0], initial=State(
        position=POSITION, quaternion=QUATERNION, twist=TWIST))
    per_command = int(round(DT / dt))
    swing = 0.0
    for k in range(int(round(DURATION / dt))):
        mode.command(0, 'effort', effort((k // per_command) * DT))
        assert mode.step(TAU)
        swing = max(swing, abs(float(mode.q[0]) - Q0))
    x = np.array(mode.x)
    return x[:3], x[3:7], float(mode.q[0]), swing


def _difference(a, b):
    """Return the largest of the position (m), attitude (rad) and joint (rad) differences."""
    angle = 2.0 * np.arccos(min(1.0, abs(float(np.dot(a[1], b[1])))))
    return max(float(np.linalg.norm(a[0] - b[0])), angle, abs(a[2] - b[2]))


@pytest.fixture(scope='module')
def mode_runs():
    """Return (params, the mode at 10 ms, at 2.5 ms): shared by the engines."""
    params = unlimited(two_link(rigid_form_base=True))
    return params, _mode_run(params, DT), _mode_run(params, DT / 4)


@pytest.mark.parametrize('engine', ENGINES)
def test_two_links_follow_the_engine_within_its_step_error(mode_runs, engine):
    label, run = engine_run(engine)
    params, ours, ours_fine = mode_runs
    runs = [_engine_run(run, params, DT / 2 ** k) for k in range(3)]
    errors = [_difference(e, ours) for e in runs]
    step_error = _difference(runs[0], runs[1])
    swing = ours[3]
    print("%s at 10, 5, 2.5 ms vs the mode at 10 ms: %s (ratios %s); %s's own step error "
          'at 10 ms %.3g; the mode at 10 vs 2.5 ms %.3g; travelled %.2f m, arm moved %.2f '
          'rad' % (label, ', '.join('%.3g' % e for e in errors),
                   ', '.join('%.2f' % (a / b) for a, b in zip(errors, errors[1:])), label,
                   step_error, _difference(ours, ours_fine),
                   float(np.linalg.norm(ours[0] - POSITION)), swing))
    assert float(np.linalg.norm(ours[0] - POSITION)) > 1.0 and swing > 0.2
    assert _difference(ours, ours_fine) < 0.01 * errors[0]
    assert errors[0] <= 3.0 * step_error
    assert errors[1] <= 0.7 * errors[0] and errors[2] <= 0.7 * errors[1]
