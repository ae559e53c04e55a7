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
A work-class ROV with a 5-joint arm in ArticulatedSimulateMode, against engines and invariants.

The vehicle is test/corpus/uuv_simulator/rexrov_oberon7_like.urdf.xacro (a RexROV +
Oberon7 look-alike, our own numbers) through the project's loader: a 1.8 t base with a
coupled 6x6 added mass, linear and quadratic drag, CoB above CoM, slightly buoyant; an
arm (azimuth, shoulder, elbow, wrist roll, wrist pitch) at its front-bottom, each link
with its volume and a uuv ``cylinder`` hydrodynamic model (added mass and quadratic drag
from its radius and length) plus linear drag.

* Arm moving (sine efforts about the weight-holding torques on azimuth, shoulder and
  elbow, the wrist free) while a base wrench drives the vehicle: MuJoCo and DART, each
  with the same per-link hydro applied body by body at each of its steps
  (test/helpers/articulated_reference.py), converge to the mode's trajectory (base pose and
  joint angles) as their step is halved: first order (MuJoCo holds the forces over its
  step, DART's step is semi-implicit Euler).  DART is compared from 1.25 ms: the free
  wrist is whipped about (wrist roll up to 32 rad/s and 600 rad/s^2 in the mode), and
  DART's Euler of the whole dynamics (not only of the held forces, as MuJoCo's RK4)
  only halves its error with its step from there (from the mode at 10 ms, its largest
  difference at 10, 5, 2.5, 1.25, 0.625, 0.3125 ms was 1.74, 3.09, 0.75, 0.28, 0.14,
  0.068 rad, all of it the scheme's: test_articulated_dart.py).  The engines hold only
  an added mass of rigid-body form folded into a body's inertia: there, each part's is
  replaced by its rigid-body-form part (mean translational term, rotational block) in
  both; the full cylinder and coupled added masses are in the other two tests.
* No gravity, no drag, the arm swung by internal joint torques: momentum conserved to
  RK4's error (the drift falls by 8x or more when the step is halved): linear and
  angular about the system CoM without added mass; with it, the Kirchhoff impulse of
  bodies and fluid (linear, angular about a world point).
* Every joint locked: the base follows the rigid SimulateMode of the vehicle lumped by
  hand to 1e-9 (lumping exact: the arm's drag linear, at its part origins).
"""
import dataclasses
from pathlib import Path

from articulated_reference import (engine_run, ENGINES, lumped, momentum, rigid_form,
                                   unlimited, with_parts)
import numpy as np
import pytest
from required_modules import require

require('pinocchio')

VEHICLE = Path(__file__).parents[1] / 'corpus' / 'uuv_simulator' / 'rexrov_oberon7_like.urdf.xacro'
DT = 0.01
POSITION = np.array([0.0, 0.0, -20.0])
QUATERNION = np.array([0.97, 0.05, -0.1, 0.2]) / np.linalg.norm([0.97, 0.05, -0.1, 0.2])
TWIST = np.array([0.4, 0.1, -0.05, 0.02, -0.03, 0.05])
TAU = np.array([900.0, 150.0, -250.0, 40.0, 80.0, -60.0])
Q0 = np.array([0.3, -0.4, 0.8, 0.2, -0.3])
#: effort amplitudes (N m) and periods (s) on azimuth, shoulder, elbow; the wrist free
AMPLITUDE = np.array([60.0, 90.0, 50.0, 0.0, 0.0])
PERIOD = np.array([1.5, 1.1, 0.9, 1.0, 1.0])
#: how long the arm moves in the engine comparison (s)
ARM_MOVING = 2.0
#: each engine's largest step in that comparison (s), halved twice (module docstring)
ENGINE_DT = {'mujoco': DT, 'dart': DT / 8}


@pytest.fixture(scope='module')
def vehicle():
    from uwv_hydro.description.loader import load_vehicle
    params = load_vehicle(str(VEHICLE))
    assert [j.name for j in params.tree.joints] == [
        'oberon7/' + n for n in ('azimuth', 'shoulder', 'elbow', 'wrist_roll', 'wrist_pitch')]
    return params


def _start():
    from uwv_hydro.physics.body.dynamics import State
    return State(position=POSITION, quaternion=QUATERNION, twist=TWIST)


def _efforts_of(mode):
    """Return efforts(t): the torques holding Q0 at the start plus the sines."""
    hold = mode.dynamics.static_torques(np.array(mode.x), Q0)
    return lambda t: hold + AMPLITUDE * np.sin(2.0 * np.pi * t / PERIOD)


def _mode_run(params, dt, duration):
    from uwv_hydro.modes.articulated_simulate_mode import ArticulatedSimulateMode
    mode = ArticulatedSimulateMode(params, dt, joint_positions=Q0, initial=_start())
    efforts = _efforts_of(mode)
    per_command = int(round(DT / dt))
    swing = np.zeros(len(Q0))
    for k in range(int(round(duration / dt))):
        for j, value in enumerate(efforts((k // per_command) * DT)):
            mode.command(j, 'effort', value)
        assert mode.step(TAU)
        swing = np.maximum(swing, np.abs(mode.q - Q0))
    x = np.array(mode.x)
    return (x[:3], x[3:7], mode.q.copy()), swing, efforts


def _difference(a, b):
    """Return the largest of the position (m), attitude (rad) and joint (rad) differences."""
    angle = 2.0 * np.arccos(min(1.0, abs(float(np.dot(a[1], b[1])))))
    return max(float(np.linalg.norm(a[0] - b[0])), angle, float(np.max(np.abs(a[2] - b[2]))))


@pytest.fixture(scope='module')
def arm_moving(vehicle):
    """Return (params, the mode at 10 ms, its swing, efforts, the mode at 5 and 2.5 ms)."""
    tree = with_parts(vehicle.tree, lambda name, part: dataclasses.replace(
        part, added_mass=rigid_form(part.added_mass)))
    params = unlimited(dataclasses.replace(vehicle, tree=tree))
    ours, swing, efforts = _mode_run(params, DT, ARM_MOVING)
    return (params, ours, swing, efforts, _mode_run(params, DT / 2, ARM_MOVING)[0],
            _mode_run(params, DT / 4, ARM_MOVING)[0])


@pytest.mark.parametrize('engine', ENGINES)
def test_arm_moving_follows_the_engine_within_its_step_error(arm_moving, engine):
    label, run = engine_run(engine)
    params, ours, swing, efforts, ours_half, ours_fine = arm_moving
    start = (POSITION, QUATERNION, TWIST, Q0)
    steps = [ENGINE_DT[engine] / 2 ** k for k in range(3)]
    runs = [run(params, h, ARM_MOVING, start, efforts, TAU, DT) for h in steps]
    errors = [_difference(e, ours) for e in runs]
    step_error = _difference(runs[0], runs[1])
    own = (_difference(ours, ours_fine), _difference(ours_half, ours_fine))
    print('%s at %s ms vs the mode at 10 ms: %s (ratios %s); %s step error at %g ms %.3g; '
          'the mode at 10 and 5 ms vs 2.5 ms: %.3g, %.3g; travelled %.2f m, joints moved %s '
          'rad' % (label, ', '.join('%g' % (h * 1e3) for h in steps),
                   ', '.join('%.3g' % e for e in errors),
                   ', '.join('%.2f' % (a / b) for a, b in zip(errors, errors[1:])), label,
                   steps[0] * 1e3, step_error, own[0], own[1],
                   float(np.linalg.norm(ours[0] - POSITION)), np.round(swing, 2)))
    assert float(np.linalg.norm(ours[0] - POSITION)) > 0.5 and np.all(swing[:3] > 0.1)
    assert own[0] < 0.01 * errors[0]  # the mode is converged at the engine's scale
    assert own[1] <= own[0] / 8.0  # and its own error is RK4's: fourth order
    assert errors[0] <= 3.0 * step_error
    # the engine's error is first order: it halves with its step
    assert errors[1] <= 0.7 * errors[0] and errors[2] <= 0.7 * errors[1]


def _no_drag(name, part):
    return dataclasses.replace(part, linear_drag=np.zeros((6, 6)),
                               quadratic_drag=np.zeros((6, 6, 6)))


def _drift(params, dt, duration=2.0):
    """Return the largest relative drifts (linear, about the CoM, about 0) and the swing."""
    from uwv_hydro.modes.articulated_simulate_mode import ArticulatedSimulateMode
    mode = ArticulatedSimulateMode(params, dt, joint_positions=Q0, initial=_start())
    start = momentum(mode)
    drift = np.zeros(3)
    swing = np.zeros(len(Q0))
    for k in range(int(round(duration / dt))):
        # internal torques only: the joint motors between the links
        for j, value in enumerate(AMPLITUDE * np.sin(2.0 * np.pi * k * dt / PERIOD)):
            mode.command(j, 'effort', value)
        assert mode.step()
        drift = np.maximum(drift, [np.linalg.norm(a - b) / np.linalg.norm(b)
                                   for a, b in zip(momentum(mode), start)])
        swing = np.maximum(swing, np.abs(mode.q - Q0))
    return drift, swing


def _arm_rigid_form(tree):
    """Return the tree with the moving links' added mass cut to its rigid-body form."""
    return with_parts(tree, lambda name, part: part if name == tree.base else
                      dataclasses.replace(part, added_mass=rigid_form(part.added_mass)))


@pytest.mark.parametrize('added_mass', ['none', 'rigid-form', 'cylinder'])
def test_momentum_is_conserved_while_the_arm_moves(vehicle, added_mass):
    tree = with_parts(vehicle.tree, _no_drag)
    if added_mass == 'none':
        tree = with_parts(tree, lambda name, part: dataclasses.replace(
            part, added_mass=np.zeros((6, 6))))
    elif added_mass == 'rigid-form':
        tree = _arm_rigid_form(tree)
    params = dataclasses.replace(vehicle, gravity=0.0, tree=tree)
    # without added mass: about the CoM; with it, the impulse's moment about a world point
    angular = 1 if added_mass == 'none' else 2
    (exact, swing), (half, _) = _drift(params, DT), _drift(params, DT / 2)
    print('added mass %s: largest relative drift of linear / angular momentum at 10 ms '
          '%.3g / %.3g, at 5 ms %.3g / %.3g; joints moved %s rad' % (
              added_mass, exact[0], exact[angular], half[0], half[angular],
              np.round(swing, 2)))
    assert np.all(swing[:3] > 0.2)
    # the cylinders' non-rigid-form remainder too: solved with the accelerations, exact;
    # the wrist and elbow reach their stops (inelastic, internal: the momentum is kept)
    assert exact[0] <= 1e-3 and exact[angular] <= 1e-3
    # what is left is RK4's error: fourth order in the step
    assert half[0] <= exact[0] / 8.0 and half[angular] <= exact[angular] / 8.0


@pytest.mark.parametrize('current', [None, (0.3, -0.2, 0.05)], ids=['still', 'current'])
def test_locked_arm_follows_the_lumped_rigid_vehicle(vehicle, current):
    from uwv_hydro.modes.articulated_simulate_mode import ArticulatedSimulateMode
    from uwv_hydro.modes.simulate_mode import SimulateMode

    def change(name, part):
        if part.link == vehicle.tree.base:
            return part
        # linear drag at the part origin: lumps exactly (the quadratic would not)
        return dataclasses.replace(part, quadratic_drag=np.zeros((6, 6, 6)),
                                   drag_center=np.zeros(3))
    tree = _arm_rigid_form(with_parts(vehicle.tree, change))
    params = lumped(tree, vehicle.gravity, 'rexrov_oberon7')
    rigid = SimulateMode(params, DT, initial=_start())
    locked = ArticulatedSimulateMode(params, DT, initial=_start())
    for j in range(len(Q0)):
        locked.command(j, 'locked')
    assert locked.substeps == rigid.substeps
    worst = 0.0
    for _ in range(300):
        assert rigid.step(TAU, current) and locked.step(TAU, current)
        worst = max(worst, float(np.max(np.abs(np.array(locked.x) - np.array(rigid.x)))))
    x = np.array(rigid.x)
    print('locked vs rigid over 3 s: largest state difference %.3g' % worst)
    assert worst <= 1e-9
    assert np.all(np.abs(locked.q) <= 1e-15)
    assert np.linalg.norm(x[:3] - POSITION) > 0.5
    assert 2.0 * np.arccos(min(1.0, abs(float(np.dot(x[3:7], QUATERNION))))) > 0.05
