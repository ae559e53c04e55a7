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
The compiled articulated-body algorithm (articulated.algorithms.tree_dynamics) against Pinocchio.

Reference: :class:`~uwv_hydro.physics.articulated.algorithms.articulated_dynamics.TreeDynamics`,
Pinocchio's
ABA with each body's added mass split into a rigid-body part and a remainder solved
with the accelerations, the brakes solved in the same linear system.  The two are
different algorithms for the same equations; on random states of several trees (SDF
child poses, prismatic and continuous joints, full and non-symmetric added masses, a
current, per-body wrenches, braked joints) they agree to 1e-12 of the largest term.
The fins and the hull on the base are held to the rigid vehicle's models through M^-1,
and the compiled RK4 sub-steps to the classic RK4 written here on the derivative.
"""
import dataclasses
from pathlib import Path

from arm_trees import arm_tree, three_joint_tree
from articulated_vehicle import two_link
import numpy as np
import pytest
from required_modules import require

pin = require('pinocchio')

from uwv_hydro.description.loader import load_vehicle  # noqa: E402
from uwv_hydro.physics.actuators.fins import FinSet  # noqa: E402
from uwv_hydro.physics.articulated.algorithms.articulated_dynamics import (  # noqa: E402
    TreeDynamics)
from uwv_hydro.physics.articulated.algorithms.tree_dynamics import (  # noqa: E402
    CompiledTreeDynamics, SERVO_KINDS)
from uwv_hydro.physics.articulated.model.link_tree import LinkHydroPart  # noqa: E402
from uwv_hydro.physics.hydro.crossflow_drag import CrossflowDrag  # noqa: E402
from uwv_hydro.physics.hydro.hull_lift import HullLift  # noqa: E402
from uwv_hydro.physics.spatial.rotation import quat_to_matrix  # noqa: E402

CORPUS = Path(__file__).parents[2] / 'corpus'
GRAVITY = 9.81
#: Two algorithms for the same equations: rounding only, of the largest term; a
#: joint-space inertia of condition number c gives both solutions errors of c eps (a
#: 100 kg hull with a 1 kg wrist: c = 3.5e5), hence max(1e-12, 4 c eps).
TOLERANCE = 1e-12


def _random_part(rng, link, asymmetric=False):
    """Return a hydro part at a random pose with random (positive) coefficients."""
    b = rng.normal(size=(6, 6))
    m_a = b @ b.T + np.diag([20.0, 20.0, 20.0, 2.0, 2.0, 2.0])
    if asymmetric:  # uuv_simulator's matrices need not be symmetric
        m_a += 0.3 * rng.normal(size=(6, 6))
    quadratic = np.zeros((6, 6, 6))
    for k in range(6):
        quadratic[k, k, k] = rng.uniform(1.0, 20.0)
    quadratic[0, 1, 1] = 3.0
    axes = quat_to_matrix(rng.normal(size=4) / 2.0 + np.array([1.0, 0, 0, 0]))
    axes = np.linalg.qr(axes)[0]
    return LinkHydroPart(link, position=rng.normal(size=3) * 0.2, rotation=axes,
                         buoyancy_mass=rng.uniform(1.0, 30.0), cob=rng.normal(size=3) * 0.05,
                         added_mass=m_a, linear_drag=np.diag(rng.uniform(1.0, 10.0, 6)),
                         quadratic_drag=quadratic, drag_velocity_point=rng.normal(size=3) * 0.1,
                         drag_center=rng.normal(size=3) * 0.1)


def _three_joint(asymmetric):
    rng = np.random.default_rng(7)
    tree = three_joint_tree()
    bodies = {name: dataclasses.replace(body, parts=[
        _random_part(rng, name, asymmetric), _random_part(rng, name)])
        for name, body in tree.bodies.items()}
    return dataclasses.replace(tree, bodies=bodies)


def _rexrov_oberon7():
    vehicle = load_vehicle(str(CORPUS / 'uuv_simulator' / 'rexrov_oberon7_like.urdf.xacro'))
    return getattr(vehicle, 'params', vehicle).tree


TREES = {
    'arm_vehicle': arm_tree,
    'two_link': lambda: two_link(anisotropic_arm=True).tree,
    'three_joint_sdf_poses': lambda: _three_joint(False),
    'three_joint_non_symmetric_added_mass': lambda: _three_joint(True),
    'rexrov_oberon7_like': _rexrov_oberon7,
}


def _state(rng, n):
    quat = rng.normal(size=4)
    x = np.concatenate(([1.0, -2.0, -5.0], quat / np.linalg.norm(quat), rng.normal(size=6)))
    return x, rng.uniform(-1.0, 1.0, n) * 0.15, rng.normal(size=n)


def _close(actual, expected, what, condition=1.0):
    scale = max(1.0, float(np.max(np.abs(expected))))
    err = float(np.max(np.abs(np.asarray(actual) - expected)))
    tolerance = max(TOLERANCE, 4.0 * condition * np.finfo(float).eps)
    assert err <= tolerance * scale, '%s: |difference| %.3g, largest term %.3g' % (
        what, err, scale)


def _condition(dyn, x, q):
    return float(np.linalg.cond(np.linalg.inv(dyn.joint_space_inverse(x, q))))


@pytest.mark.parametrize('name', sorted(TREES))
def test_the_compiled_aba_equals_pinocchio_on_random_states(name):
    tree = TREES[name]()
    ref = TreeDynamics(tree, GRAVITY)
    dyn = CompiledTreeDynamics(tree, GRAVITY)
    n = dyn.n
    rng = np.random.default_rng(11)
    for trial in range(12):
        x, q, qd = _state(rng, n)
        tau = rng.normal(size=n) * 10.0
        # a base wrench, one wrench per body, or none
        wrench = [rng.normal(size=6) * 40.0, rng.normal(size=(dyn.nb, 6)) * 20.0, None][trial % 3]
        current = rng.normal(size=3) * 0.4 if trial % 2 else None
        locked = sorted(set(rng.integers(0, n, size=trial % 3).tolist()))
        expected = ref.derivative(x, q, qd, wrench, current, lambda *_: tau, {}, locked)
        actual = dyn.derivative(x, q, qd, wrench, current, lambda *_: tau, {}, locked)
        condition = _condition(dyn, x, q)
        for a, e, what in zip(actual, expected, ('d/dt [p, quat, nu]', 'qdd', 'torques')):
            _close(a, e, '%s, trial %d: %s' % (name, trial, what), condition)
        assert np.all(actual[1][locked] == 0.0)  # a brake holds exactly
    _close(dyn.joint_space_inverse(x, q), ref.joint_space_inverse(x, q), name + ': M^-1',
           _condition(dyn, x, q))
    _close(dyn.static_torques(x, q), ref.static_torques(x, q), name + ': static torques')
    # the bodies' poses, twists and accelerations (the sensors on moving links)
    nu_dot, qdd = rng.normal(size=6), rng.normal(size=n)
    quat = x[3:7] / np.linalg.norm(x[3:7])
    expected = ref.multibody.kinematics(x[:3], quat, x[7:13], q, qd, base_acceleration=nu_dot,
                                        qddot=qdd, links=False).bodies
    actual = dyn.body_states(x, q, qd, nu_dot, qdd)
    for what in ('position', 'rotation', 'twist', 'acceleration'):
        _close(getattr(actual, what), getattr(expected, what), name + ': body ' + what)


def test_m_inverse_inverts_the_joint_space_inertia():
    """M^-1 by unit forces through ABA times M by Pinocchio's CRBA (with the added mass)."""
    tree = _three_joint(False)
    ref = TreeDynamics(tree, GRAVITY)
    dyn = CompiledTreeDynamics(tree, GRAVITY)
    x, q, _ = _state(np.random.default_rng(3), dyn.n)
    config = ref.configuration(x, q)
    mass = pin.crba(ref.model, ref.data, config)
    mass = np.triu(mass) + np.triu(mass, 1).T
    k_mat, _ = ref.remainder_terms(config, np.zeros(6 + dyn.n))
    product = dyn.joint_space_inverse(x, q) @ (mass + k_mat)
    assert np.max(np.abs(product - np.eye(6 + dyn.n))) < 1e-10


def _remus_fins_and_hull():
    vehicle = load_vehicle(str(Path(__file__).parents[3] / 'config' / 'remus100.yaml'))
    vehicle = getattr(vehicle, 'params', vehicle)
    return vehicle.fins, vehicle.hull, vehicle.fluid_density


def test_fins_and_hull_act_on_the_base_as_on_the_rigid_vehicle():
    """The base's fins and hull: their wrench (the rigid vehicle's models) through M^-1."""
    fins, hull, rho = _remus_fins_and_hull()
    assert fins and hull is not None
    tree = arm_tree()
    bare = CompiledTreeDynamics(tree, GRAVITY)
    full = CompiledTreeDynamics(tree, GRAVITY, fins=fins, hull=hull, fluid_density=rho)
    rng = np.random.default_rng(5)
    fin_set, lift, cross = FinSet(fins, rho), HullLift(hull, rho), CrossflowDrag(hull, rho)
    for trial in range(6):
        x, q, qd = _state(rng, bare.n)
        x[7] = 1.5  # forward speed: the fins and the hull lift
        angles = rng.uniform(-0.3, 0.3, len(fins))
        current = rng.normal(size=3) * 0.3
        torques = np.zeros(bare.n)
        base = bare.derivative(x, q, qd, None, current, lambda *_: torques, {}, [])
        with_parts = full.derivative(x, q, qd, None, current, lambda *_: torques, {}, [],
                                     fin_angles=angles)
        # the base's relative twist (Fossen 2011 sec. 10.3)
        nu_r = x[7:13].copy()
        nu_r[:3] -= quat_to_matrix(x[3:7]).T @ current
        wrench = fin_set.wrench(nu_r, angles) + lift.wrench(nu_r) + cross.wrench(nu_r)
        m_inv = bare.joint_space_inverse(x, q)
        expected = np.concatenate((base[0][7:13], base[1])) + m_inv[:, :6] @ wrench
        _close(np.concatenate((with_parts[0][7:13], with_parts[1])), expected,
               'trial %d: accelerations with fins and hull' % trial)


def _servo_torques(servo, q, qd, w=20.0):
    """Return the joint servo law's torques (articulated_simulate_mode's), written out."""
    kind, value, apparent, static, vmax, emax = servo
    ref = np.where(kind == SERVO_KINDS['position'], 0.25 * w * (value - q), value)
    ref = np.clip(ref, -vmax, vmax)
    out = np.clip(static + apparent * w * (ref - qd), -emax, emax)
    return np.where(kind == SERVO_KINDS['effort'], np.clip(value, -emax, emax), out)


def _rk4_reference(dyn, state, h, servo, wrench):
    """One classic RK4 sub-step on dyn.derivative."""
    n = dyn.n

    def torques(q, qd):
        return _servo_torques(servo, q, qd)

    def f(s):
        dx, qdd, _ = dyn.derivative(s[:13], s[13:13 + n], s[13 + n:], wrench, None, torques,
                                    {}, [])
        return np.concatenate((dx, s[13 + n:], qdd))
    k1 = f(state)
    k2 = f(state + 0.5 * h * k1)
    k3 = f(state + 0.5 * h * k2)
    k4 = f(state + h * k3)
    out = state + h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
    out[3:7] /= np.linalg.norm(out[3:7])
    return out


def test_the_compiled_sub_steps_are_classic_rk4_and_stop_before_a_limit():
    tree = _three_joint(False)
    dyn = CompiledTreeDynamics(tree, GRAVITY)
    n = dyn.n
    rng = np.random.default_rng(9)
    x, q, qd = _state(rng, n)
    q[1] = 0.1  # the prismatic joint inside its range [0, 0.2]
    servo = np.array([[SERVO_KINDS['position'], SERVO_KINDS['velocity'], SERVO_KINDS['effort']],
                      [0.3, -0.1, 2.0], [0.5, 2.0, 0.1], [1.0, -2.0, 0.0],
                      [1.0, 0.5, 2.0], [50.0, 50.0, 1.5]])
    lower, upper = np.array([-2.0, 0.0, -np.inf]), np.array([2.0, 0.2, np.inf])
    wrench = rng.normal(size=6) * 30.0
    h = 1e-3
    state = np.concatenate((x, q, qd))
    expected = state.copy()
    for _ in range(3):
        expected = _rk4_reference(dyn, expected, h, servo, wrench)
    end = np.zeros_like(state)
    assert dyn.rk4(state, h, 3, servo, 20.0, lower, upper, wrench, end=end) == (3, True)
    _close(state, expected, 'three compiled RK4 sub-steps')
    n_ = dyn.n
    dx, qdd, _ = dyn.derivative(state[:13], state[13:13 + n_], state[13 + n_:], wrench, None,
                                lambda q, qd: _servo_torques(servo, q, qd), {}, [])
    _close(end[:13 + n_], np.concatenate((dx, qdd)), 'the derivative at the end')
    # the slider 1e-7 m from its stop, moving out at 0.1 m/s: the first sub-step crosses
    state = np.concatenate((x, q, qd))
    state[13 + 1], state[13 + n + 1] = 0.2 - 1e-7, 0.1
    before = state.copy()
    assert dyn.rk4(state, h, 3, servo, 20.0, lower, upper, wrench) == (0, False)
    assert np.array_equal(state, before)  # left to the Python sub-step, untouched


def test_the_compiled_mode_steps_as_the_pinocchio_mode_through_servos_and_stops():
    """
    The articulated mode compiled against its Pinocchio path, step by step.

    The three-joint tree under a base wrench and per-body wrenches with a current: a
    position servo, a velocity servo driven into the slider's stop (the stops' Python
    sub-steps between compiled calls) and an effort command, then a brake.  Both
    integrate the same equations with the same sub-steps: the states stay within
    rounding (6.7e-16 seen; 1e-10 allowed: the stops cut the sub-step where a search
    to LIMIT_HIT 1e-9 lands, which rounding may move).
    """
    from uwv_hydro.modes.articulated_simulate_mode import ArticulatedSimulateMode
    from uwv_hydro.physics.body.vehicle_params import VehicleParams
    tree = _three_joint(False)
    vehicle = VehicleParams(mass=50.0, inertia=np.eye(3) * 5.0, name='three_joint',
                            gravity=GRAVITY, tree=tree)
    modes = [ArticulatedSimulateMode(vehicle, 0.01, compiled=flag) for flag in (True, False)]
    assert modes[0].compiled and not modes[1].compiled
    rng = np.random.default_rng(4)
    wrenches = rng.normal(size=(len(tree.bodies), 6)) * 5.0
    worst = 0.0
    for k in range(150):
        for mode in modes:
            mode.command(0, 'position', 0.5)
            mode.command(1, 'velocity', 0.4 if k < 100 else -0.4)
            if k < 120:
                mode.command(2, 'effort', 0.2)
            elif k == 120:
                mode.command(2, 'locked')
            assert mode.step(wrenches if k % 2 else wrenches[0], current=[0.2, -0.1, 0.05])
        a, b = modes
        worst = max(worst, float(np.max(np.abs(np.asarray(a.q) - b.q))),
                    float(np.max(np.abs(np.asarray(a.x) - b.x))))
        for u, v, what in ((a.x, b.x, 'base'), (a.q, b.q, 'q'), (a.qd, b.qd, 'qd'),
                           (a.efforts, b.efforts, 'efforts')):
            assert np.max(np.abs(np.asarray(u) - v)) <= 1e-10 * max(1.0, np.max(np.abs(v))), (
                'step %d: %s %r != %r' % (k, what, u, v))
    print('largest difference %.3g, stops %d' % (worst, modes[0].events['limit_stops']))
    assert modes[0].events['limit_stops'] == modes[1].events['limit_stops'] >= 1
