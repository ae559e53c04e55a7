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
Simulate mode with moving links (ArticulatedSimulateMode) against invariants and the rigid mode.

* Every joint locked (a brake: zero joint acceleration exactly): the base follows the
  rigid SimulateMode of the same vehicle lumped by hand (test/helpers/articulated_vehicle.py)
  to 1e-9, with and without a current; lumping is exact there (drag of the arm at its
  part origin, linear; added mass of any form: X^T M_A X sums; Kirchhoff terms are
  equivariant).  Released, the arm moves and the base leaves the rigid trajectory.
* No gravity, no drag, the arm swung by an internal joint torque: linear momentum and
  angular momentum about the system CoM conserved (no added mass); with added mass the
  Kirchhoff impulse of bodies and fluid (linear, and angular about a world point).
* Added mass: the ``inertia`` and ``lagged`` methods against a small-step reference.
"""
import time

from articulated_reference import momentum
from articulated_vehicle import rot_z, two_link
import numpy as np
import pytest
from required_modules import require

require('pinocchio')

DT = 0.01
QUATERNION = np.array([0.96, 0.1, -0.2, 0.15]) / np.linalg.norm([0.96, 0.1, -0.2, 0.15])
TWIST = np.array([0.5, 0.1, -0.2, 0.1, -0.2, 0.3])
TAU = np.array([20.0, 5.0, -3.0, 1.0, 2.0, -1.0])


def _start():
    from uwv_hydro.physics.body.dynamics import State
    return State(position=np.array([0.0, 0.0, -10.0]), quaternion=QUATERNION, twist=TWIST)


def _angle(q, q_ref):
    return 2.0 * np.arccos(min(1.0, abs(float(np.dot(q, q_ref)))))


@pytest.mark.parametrize('current', [None, (0.3, -0.2, 0.05)], ids=['still', 'current'])
def test_locked_joints_follow_the_lumped_rigid_vehicle(current):
    from uwv_hydro.modes.articulated_simulate_mode import ArticulatedSimulateMode
    from uwv_hydro.modes.simulate_mode import SimulateMode
    params = two_link()
    rigid = SimulateMode(params, DT, initial=_start())
    locked = ArticulatedSimulateMode(params, DT, initial=_start())
    free = ArticulatedSimulateMode(params, DT, initial=_start())
    locked.command(0, 'locked')
    free.command(0, 'effort', 5.0)
    assert locked.substeps == rigid.substeps
    worst = 0.0
    for _ in range(300):
        assert rigid.step(TAU, current) and locked.step(TAU, current)
        assert free.step(TAU, current)
        worst = max(worst, float(np.max(np.abs(np.array(locked.x) - np.array(rigid.x)))))
    x = np.array(rigid.x)
    print('locked vs rigid over 3 s: largest state difference %.3g' % worst)
    assert worst <= 1e-9
    assert abs(float(locked.q[0])) <= 1e-15  # the brake holds the joint where it was
    # the run is not trivial: the vehicle moved and turned, and a free arm changes it
    assert np.linalg.norm(x[:3] - [0.0, 0.0, -10.0]) > 0.5
    assert _angle(x[3:7], QUATERNION) > 0.2
    assert abs(float(free.q[0])) > 0.1
    assert np.max(np.abs(np.array(free.x) - x)) > 1e-3


def _drift(params, method, dt, duration=3.0):
    """Return the largest relative drifts (linear, about the CoM, about 0) and the swing."""
    from uwv_hydro.modes.articulated_simulate_mode import ArticulatedSimulateMode
    mode = ArticulatedSimulateMode(params, dt, initial=_start(), added_mass=method)
    start = momentum(mode)
    drift = np.zeros(3)
    swing = 0.0
    for k in range(int(round(duration / dt))):
        # an internal torque only: the joint motor between base and arm
        mode.command(0, 'effort', 1.5 * np.sin(2.0 * np.pi * k * dt / 1.5))
        assert mode.step()
        drift = np.maximum(drift, [np.linalg.norm(a - b) / np.linalg.norm(b)
                                   for a, b in zip(momentum(mode), start)])
        swing = max(swing, abs(float(mode.q[0])))
    return drift, swing


@pytest.mark.parametrize('added_mass', [0.0, 1.0], ids=['rigid', 'added-mass'])
def test_momentum_is_conserved_while_the_arm_swings(added_mass):
    params = two_link(gravity=0.0, drag=False, added_mass=added_mass)
    # without added mass: about the CoM; with it, the impulse's moment about a world point
    angular = 1 if added_mass == 0.0 else 2
    runs = {(method, dt): _drift(params, method, dt) for method, dt in (
        ('inertia', DT), ('inertia', DT / 2), ('lagged', DT))}
    for (method, dt), (drift, swing) in runs.items():
        print('added mass x%g, %s at %g s: largest relative drift of linear momentum %.3g, '
              'angular momentum %.3g; arm swing %.2f rad'
              % (added_mass, method, dt, drift[0], drift[angular], swing))
        assert swing > 1.0
    exact, half = runs[('inertia', DT)][0], runs[('inertia', DT / 2)][0]
    assert exact[0] <= 1e-8 and exact[angular] <= 1e-8
    # what is left is RK4's error: fourth order in the step
    assert half[0] <= exact[0] / 8.0 and half[angular] <= exact[angular] / 8.0
    if added_mass:  # the lagged added mass is not conservative: the test can tell
        lagged = runs[('lagged', DT)][0]
        assert max(lagged[0], lagged[angular]) > 100.0 * max(exact[0], exact[angular])


def _run(params, method, dt, duration=3.0):
    """Return (base state, joint position) after an arm swing, and the s per step."""
    from uwv_hydro.modes.articulated_simulate_mode import ArticulatedSimulateMode
    mode = ArticulatedSimulateMode(params, dt, initial=_start(), added_mass=method)
    steps = int(round(duration / dt))
    started = time.perf_counter()
    per_command = int(round(DT / dt))
    for k in range(steps):
        # the same effort, held over each 10 ms, at every step size
        mode.command(0, 'effort', 4.0 * np.sin(2.0 * np.pi * (k // per_command) * DT / 1.5))
        assert mode.step(TAU)
    elapsed = (time.perf_counter() - started) / steps
    return np.array(mode.x), float(mode.q[0]), elapsed


@pytest.mark.parametrize('anisotropic', [False, True], ids=['rigid-form-arm', 'slender-arm'])
def test_added_mass_methods_against_a_small_step_reference(anisotropic):
    params = two_link(anisotropic_arm=anisotropic)
    x_ref, q_ref, _ = _run(params, 'inertia', DT / 32)
    errors = {}
    for method in ('inertia', 'lagged'):
        x, q, per_step = _run(params, method, DT)
        errors[method] = (float(np.linalg.norm(x[:3] - x_ref[:3])), abs(q - q_ref),
                          float(np.linalg.norm(x[7:] - x_ref[7:])))
        print('%s arm, %s at %g s: base position error %.3g m, joint %.3g rad, twist %.3g; '
              '%.0f us per step' % ('slender' if anisotropic else 'rigid-form', method, DT,
                                    *errors[method], per_step * 1e6))
    # exact equations (a slender arm's remainder solved with the accelerations too):
    # RK4's error at 10 ms remains
    assert max(errors['inertia']) <= 1e-6
    assert errors['lagged'][0] > 10.0 * errors['inertia'][0]


def test_joint_transforms_follow_the_joint():
    from uwv_hydro.modes.articulated_simulate_mode import ArticulatedSimulateMode
    params = two_link(axis=(0.0, 0.0, 1.0))
    mode = ArticulatedSimulateMode(params, DT, joint_positions=[0.5])
    ((parent, child, position, wxyz),) = mode.joint_transforms()
    assert (parent, child) == ('base_link', 'arm_link')
    np.testing.assert_allclose(position, [0.4, 0.0, -0.1], atol=1e-15)
    # about z: the joint frame's yaw plus the joint angle
    angle = 0.3 + 0.5
    np.testing.assert_allclose(wxyz, [np.cos(angle / 2), 0.0, 0.0, np.sin(angle / 2)],
                               atol=1e-12)
    states = mode.body_states()
    np.testing.assert_allclose(states['arm_link'][1], rot_z(angle), atol=1e-12)


def test_position_servo_reaches_the_command_within_its_limits():
    from uwv_hydro.modes.articulated_simulate_mode import ArticulatedSimulateMode
    params = two_link(drag=True)
    mode = ArticulatedSimulateMode(params, DT, initial=_start())
    mode.command(0, 'position', 5.0)  # beyond the upper limit 2.0: clamped
    fastest = 0.0
    for _ in range(600):
        assert mode.step()
        fastest = max(fastest, abs(float(mode.qd[0])))
        assert abs(float(mode.efforts[0])) <= 40.0 + 1e-9
    print('servo to the 2 rad limit: at %.4f rad after 6 s, fastest %.3f rad/s'
          % (mode.q[0], fastest))
    assert abs(float(mode.q[0]) - 2.0) < 0.05
    assert fastest <= 1.5 * 1.01  # the velocity limit (RK4 overshoot of the servo inside 1 %)


def test_a_diverging_step_restores_the_last_good_state():
    """Lagged added mass ten times the bodies' mass diverges: counted, never non-finite."""
    from uwv_hydro.modes.articulated_simulate_mode import ArticulatedSimulateMode
    params = two_link(added_mass=10.0)
    mode = ArticulatedSimulateMode(params, DT, initial=_start(), added_mass='lagged')
    results = [mode.step(TAU) for _ in range(200)]
    assert not all(results)
    assert mode.events['state_restores'] == results.count(False)
    assert mode.events['divergences'] >= mode.events['state_restores']
    assert np.all(np.isfinite(mode.x)) and np.all(np.isfinite(mode.q))
    # the default method carries the same added mass in the inertia: no divergence
    exact = ArticulatedSimulateMode(params, DT, initial=_start())
    assert all(exact.step(TAU) for _ in range(200))


def _stops(added_mass, dt, duration=2.5):
    """Run the stop scenario (the test below); return (drift, first held step, held, mode)."""
    from uwv_hydro.modes.articulated_simulate_mode import ArticulatedSimulateMode
    params = two_link(gravity=0.0, drag=False, added_mass=added_mass)
    mode = ArticulatedSimulateMode(params, dt, initial=_start())
    # as the swing test: about the CoM, with added mass the impulse's moment about 0
    angular = 1 if added_mass == 0.0 else 2
    start = momentum(mode)
    drift, held, first = 0.0, 0, None
    reverse = int(round(1.5 / dt))
    for k in range(int(round(duration / dt))):
        mode.command(0, 'effort', 8.0 if k < reverse else -8.0)
        assert mode.step()
        q, qd = float(mode.q[0]), float(mode.qd[0])
        assert -2.0 <= q <= 2.0, 'past a stop at step %d: %r' % (k, q)
        if q == 2.0 and k < reverse:
            assert qd == 0.0  # at the stop, pushed outward: held there, not moving
            held += 1
            first = k if first is None else first
        # no gravity, no drag: the linear and angular momentum
        drift = max(drift, max(np.linalg.norm(momentum(mode)[i] - start[i])
                               / np.linalg.norm(start[i]) for i in (0, angular)))
    return drift, first, held, mode


@pytest.mark.parametrize('added_mass', [0.0, 1.0], ids=['rigid', 'added-mass'])
def test_a_joint_stops_at_its_limits_and_the_vehicle_keeps_its_momentum(added_mass):
    """
    An effort drives the arm into its +2 rad stop and holds it there, then into -2 rad.

    Only internal torques act (the motor, the stops): the momentum is the arm swing
    test's invariant through the inelastic stops, to RK4's error (fourth order).
    """
    runs = {dt: _stops(added_mass, dt) for dt in (DT / 2, DT / 4)}
    for dt, (drift, first, held, mode) in runs.items():
        print('added mass x%g at %g s: at the +2 rad stop from %.3f s, held %d steps, %d stops; '
              'largest relative momentum drift %.3g; at the end %.3f rad'
              % (added_mass, dt, first * dt, held, mode.events['limit_stops'], drift,
                 mode.q[0]))
        assert first is not None and held == int(round(1.5 / dt)) - first
        assert mode.events['limit_stops'] == 2 and float(mode.q[0]) == -2.0
    half, quarter = runs[DT / 2][0], runs[DT / 4][0]
    assert quarter <= 1e-8 and quarter <= half / 8.0


def test_a_servo_reaches_its_command_at_the_limit_without_chattering():
    """The position servo asked for the limit itself settles on it with no stop events."""
    from uwv_hydro.modes.articulated_simulate_mode import ArticulatedSimulateMode
    mode = ArticulatedSimulateMode(two_link(drag=True), DT, initial=_start())
    mode.command(0, 'position', -2.0)
    for _ in range(800):
        assert mode.step()
        assert float(mode.q[0]) >= -2.0
    assert abs(float(mode.q[0]) + 2.0) < 0.01


def test_the_fins_and_hull_of_an_articulated_vehicle_act_as_on_the_rigid_one():
    """
    The REMUS 100's fins (deflected) and hull on the two-link vehicle, its joint locked.

    The rigid vehicle's compiled core (features A phi, physics/hydro/wrench_forms.py) and the
    articulated mode's ABA are independent paths to the same motion.
    """
    import dataclasses
    from pathlib import Path
    from uwv_hydro.description.loader import load_vehicle
    from uwv_hydro.modes.articulated_simulate_mode import ArticulatedSimulateMode
    from uwv_hydro.modes.simulate_mode import SimulateMode
    remus = load_vehicle(str(Path(__file__).parents[3] / 'config' / 'remus100.yaml'))
    remus = getattr(remus, 'params', remus)
    params = dataclasses.replace(two_link(), fins=remus.fins, hull=remus.hull)
    warnings = []
    rigid = SimulateMode(params, DT, initial=_start())
    locked = ArticulatedSimulateMode(params, DT, initial=_start(),
                                     log=lambda *a: warnings.append(a))
    bare = ArticulatedSimulateMode(two_link(), DT, initial=_start())
    assert not [w for w in warnings if w[1] == 'articulated_lumped']  # simulated, not warned
    angles = np.linspace(-0.2, 0.25, len(remus.fins))
    for mode in (rigid, locked):
        mode.sim.set_fin_angles(angles)
    locked.command(0, 'locked')
    bare.command(0, 'locked')
    worst = 0.0
    for _ in range(200):
        assert rigid.step(TAU) and locked.step(TAU) and bare.step(TAU)
        worst = max(worst, float(np.max(np.abs(np.array(locked.x) - np.array(rigid.x)))))
    print('fins and hull, locked vs rigid over 2 s: largest state difference %.3g' % worst)
    assert worst <= 1e-9
    # the fins and the hull change the motion (the test is not trivial)
    assert np.max(np.abs(np.array(bare.x) - np.array(locked.x))) > 1e-2
    rows = locked.components().components
    assert np.any(rows['fins']) and np.any(rows['hull_lift']) and np.any(rows['crossflow_drag'])
