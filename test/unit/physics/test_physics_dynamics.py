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
Tests of the Simulator against analytic solutions and invariants.

Every reference value is derived from physics (closed-form solutions,
conservation laws, frame invariance), never copied from the code.
"""
import math

import numpy as np
import pytest

from uwv_hydro.physics.body.dynamics import Simulator, State
from uwv_hydro.physics.body.rigid_body import (
    coriolis_wrench, kinetic_energy, rigid_body_mass_matrix)
from uwv_hydro.physics.body.vehicle_params import VehicleParams
from uwv_hydro.physics.hydro.added_mass import LaggedAcceleration
from uwv_hydro.physics.hydro.hydro_model import HydroModel
from uwv_hydro.physics.spatial.point_transform import (
    transfer_matrix, transfer_twist, transfer_wrench)
from uwv_hydro.physics.spatial.rotation import quat_from_rpy, quat_to_matrix, quat_to_rpy

DEEP = np.array([0.0, 0.0, -50.0])


def _surge_params(mass, added, **kwargs):
    """Return a decoupled body with surge added mass ``added`` and no hydrostatics."""
    base = {'mass': mass, 'inertia': np.diag([1.0, 2.0, 2.0]), 'gravity': 0.0,
            'added_mass': np.diag([added, 1.0, 1.0, 0.1, 0.2, 0.2])}
    base.update(kwargs)
    return VehicleParams(**base)


def _run(sim, state, steps, tau=None, current=None):
    states = [state]
    for _ in range(steps):
        states.append(sim.step(states[-1], tau, current))
    return states


def test_linear_drag_decay():
    """Surge decays as exp(-L/(m + A) t)."""
    m, a, lin = 10.0, 5.0, 15.0
    params = _surge_params(m, a, linear_drag=np.diag([lin, 1, 1, 1, 1, 1]))
    sim = Simulator(params, dt=0.01)
    states = _run(sim, State(DEEP, twist=[2.0, 0, 0, 0, 0, 0]), 500)
    t = 0.01 * np.arange(len(states))
    u = np.array([s.twist[0] for s in states])
    exact = 2.0 * np.exp(-lin / (m + a) * t)
    err = np.max(np.abs(u / exact - 1.0))
    assert err <= 1e-6, 'max relative error %.3g' % err


def test_quadratic_drag_terminal_velocity():
    """Constant thrust F against quadratic drag Q reaches sqrt(F/Q)."""
    q = np.zeros((6, 6, 6))
    q[0, 0, 0] = 25.0
    params = _surge_params(10.0, 5.0, quadratic_drag=q)
    sim = Simulator(params, dt=0.01)
    states = _run(sim, State(DEEP), 500, tau=[100.0, 0, 0, 0, 0, 0])
    err = abs(states[-1].twist[0] / math.sqrt(100.0 / 25.0) - 1.0)
    assert err <= 1e-9, 'relative error %.3g' % err


def _coupled_params():
    """Return a body with a CoM offset, full inertia and coupled SPD added mass, g = 0."""
    rng = np.random.default_rng(11)
    b = rng.normal(size=(6, 6))
    added = 0.5 * b @ b.T + np.diag([5.0, 10.0, 12.0, 1.0, 2.0, 2.5])
    return VehicleParams(
        mass=40.0, inertia=np.array([[2.0, 0.1, -0.05], [0.1, 3.0, 0.2], [-0.05, 0.2, 3.5]]),
        com=np.array([0.15, -0.08, 0.1]), gravity=0.0, added_mass=added,
        added_mass_point=np.array([0.05, 0.02, -0.03]))


@pytest.mark.parametrize('added_mass_coriolis', [True, False])
def test_kinetic_energy_conserved_without_dissipation(added_mass_coriolis):
    """0.5 nu^T (M_RB + M_A) nu is constant over 100 s (C_RB and C_A do no work)."""
    params = _coupled_params()
    params.added_mass_coriolis = added_mass_coriolis
    sim = Simulator(params, dt=0.01, dynamics_only=True)
    mass = HydroModel(params).mass_matrix()
    state = State(DEEP, twist=[1.0, 0.5, -0.3, 0.4, -0.2, 0.6])
    e0 = kinetic_energy(mass, state.twist)
    worst = 0.0
    for _ in range(10000):
        state = sim.step(state)
        worst = max(worst, abs(kinetic_energy(mass, state.twist) / e0 - 1.0))
    assert worst <= 1e-8, 'max relative energy drift %.3g' % worst
    assert np.max(np.abs(state.twist[3:])) > 0.05


def test_munk_moment_turns_body_broadside():
    """A11 < A22 and oblique motion: yaw acceleration (A11 - A22) u v/(Izz + A66) < 0."""
    a11, a22, izz, a66 = 10.0, 60.0, 50.0, 20.0
    params = VehicleParams(mass=100.0, inertia=np.diag([10.0, 50.0, izz]), gravity=0.0,
                           added_mass=np.diag([a11, a22, a22, 1.0, a66, a66]))
    sim = Simulator(params, dt=0.01)
    u, v = 1.0, 0.2
    state = State(DEEP, twist=[u, v, 0, 0, 0, 0])
    expected = (a11 - a22) * u * v / (izz + a66)
    got = sim.derivative(state).twist[5]
    assert abs(got - expected) < 1e-12 * abs(expected), (got, expected)
    for _ in range(20):
        state = sim.step(state)
    assert state.twist[5] < 0.0
    assert abs(state.twist[5] / (expected * 0.2) - 1.0) < 0.05


def _skew(a):
    """Return S(a), S(a) b = a x b (Fossen 2011 eq. 2.10)."""
    return np.array([[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]])


@pytest.mark.parametrize('added_mass_coriolis', [True, False])
def test_munk_pitch_moment_follows_the_added_mass_coriolis_switch(added_mass_coriolis):
    """
    Surge + heave with Z_A != X_A: pitch moment -C_A(nu) nu = (Z_A - X_A) u w, or none.

    Fossen 2011 eq. 6.51 (C_A of a diagonal M_A, X_udot = -X_A): the pitch row of
    -C_A nu is (X_udot - Z_wdot) u w = (Z_A - X_A) u w, the Munk moment; the rigid body's C_RB
    of pure translation with the CoM at the origin is zero, so q_dot is the Munk
    moment over (Iyy + M_A,55) with the switch on, exactly zero with it off.
    """
    x_a, z_a, iyy, m_a55 = 5.5, 14.57, 0.3, 0.12
    params = VehicleParams(mass=11.5, inertia=np.diag([0.2, iyy, 0.25]), gravity=0.0,
                           added_mass=np.diag([x_a, 12.7, z_a, 0.1, m_a55, 0.15]),
                           added_mass_coriolis=added_mass_coriolis)
    sim = Simulator(params, dt=0.01)
    u, w = 1.0, 0.3
    state = State(DEEP, twist=[u, 0, w, 0, 0, 0])
    munk = (z_a - x_a) * u * w
    expected = np.zeros(6)
    expected[4] = munk / (iyy + m_a55) if added_mass_coriolis else 0.0
    got = sim.derivative(state).twist
    compiled = np.array(sim.state_acceleration(Simulator._pack(state).tolist()))
    # exact arithmetic up to rounding of O(1) terms
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(compiled, expected, rtol=1e-12, atol=1e-12)
    component = HydroModel(params).wrench(
        np.array([u, 0, w, 0, 0, 0]), position=DEEP).components['added_mass_coriolis']
    np.testing.assert_allclose(component[4], munk if added_mass_coriolis else 0.0,
                               rtol=1e-12, atol=1e-12)


def test_rigid_body_coriolis_stays_without_added_mass_coriolis():
    """
    Spinning body with an offset CoM: nu_dot = (M_RB + M_A)^-1 (-C_RB(nu) nu) exactly.

    C_RB from Fossen 2011 eq. 3.60 (the velocity-independent-of-linear-velocity form)
    with the inertia about the origin I_o = I_g - m S(r_g)^2 (eq. 3.36), M_RB from
    eq. 3.44, all written here; with ``added_mass_coriolis`` false no -C_A nu enters.
    """
    m, r_g, i_g = 20.0, np.array([0.1, -0.05, 0.08]), np.diag([0.8, 1.5, 1.7])
    m_a = np.diag([4.0, 9.0, 11.0, 0.3, 0.6, 0.5])
    params = VehicleParams(mass=m, inertia=i_g, com=r_g, gravity=0.0, added_mass=m_a,
                           added_mass_coriolis=False)
    s_g = _skew(r_g)
    i_o = i_g - m * s_g @ s_g
    m_rb = np.block([[m * np.eye(3), -m * s_g], [m * s_g, i_o]])
    nu = np.array([0.4, -0.2, 0.3, 0.9, -0.6, 1.2])
    s_w = _skew(nu[3:])
    c_rb = np.block([[m * s_w, -m * s_w @ s_g], [m * s_g @ s_w, -_skew(i_o @ nu[3:])]])
    expected = np.linalg.solve(m_rb + m_a, -c_rb @ nu)
    sim = Simulator(params, dt=0.01)
    state = State(DEEP, twist=nu)
    got = sim.derivative(state).twist
    compiled = np.array(sim.state_acceleration(Simulator._pack(state).tolist()))
    # relative to the size of the O(1) accelerations: rounding only
    np.testing.assert_allclose(got, expected, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(compiled, expected, rtol=1e-10, atol=1e-12)
    assert np.linalg.norm(expected) > 0.1  # the rigid-body Coriolis is there
    # and the added-mass one would change it (the switch has something to drop)
    params.added_mass_coriolis = True
    with_munk = Simulator(params, dt=0.01).derivative(state).twist
    assert np.linalg.norm(with_munk - expected) > 0.05


def test_heavy_added_mass_is_stable_when_implicit():
    """M_A = 10 M_RB, constant force: v = F/(m + A) t exactly (RK4 is exact here)."""
    m, force = 1.0, 2.0
    params = VehicleParams(mass=m, inertia=np.diag([0.1, 0.1, 0.1]), gravity=0.0,
                           added_mass=10.0 * np.diag([m, m, m, 0.1, 0.1, 0.1]))
    sim = Simulator(params, dt=0.01)
    states = _run(sim, State(DEEP), 1000, tau=[force, 0, 0, 0, 0, 0])
    t = 0.01 * np.arange(len(states))
    u = np.array([s.twist[0] for s in states])
    err = np.max(np.abs(u - force / (11.0 * m) * t))
    assert err < 1e-12, 'max abs error %.3g' % err


def _lagged_explicit(mass, added, alpha, force, dt, steps):
    """Integrate m u_dot = F - A a_hat explicitly, a_hat from LaggedAcceleration (dsros)."""
    est = LaggedAcceleration(alpha)
    u = 0.0
    history = []
    for k in range(steps):
        a_hat = est.update([u, 0, 0, 0, 0, 0], k * dt)[0]
        u += dt * (force - added * a_hat) / mass
        history.append(u)
    return np.array(history)


def test_lagged_added_mass_diverges_on_light_body():
    """
    Contrast: the explicit lagged scheme diverges for A = 10 m (alpha = 0.3).

    Its acceleration estimate obeys a_k = alpha F/m + (1 - alpha (1 + A/m)) a_{k-1};
    |1 - 0.3 * 11| = 2.3 > 1, so it grows as 2.3^k; with A = 0.5 m it converges.
    """
    dt, steps, force = 0.01, 60, 2.0
    t = dt * np.arange(1, steps + 1)
    heavy = _lagged_explicit(1.0, 10.0, 0.3, force, dt, steps)
    assert np.max(np.abs(heavy)) > 1e6 * np.max(force / 11.0 * t)
    ratio = abs(heavy[-1] - heavy[-2]) / abs(heavy[-2] - heavy[-3])
    assert ratio == pytest.approx(2.3, rel=1e-3)
    light = _lagged_explicit(1.0, 0.5, 0.3, force, dt, 2000)
    assert abs((light[-1] - light[-2]) / dt - force / 1.5) < 1e-6


def _frame_vehicle():
    """Return the reference vehicle (origin at the CoM) with every effect switched on."""
    rng = np.random.default_rng(4)
    b = rng.normal(size=(6, 6))
    q = np.zeros((6, 6, 6))
    q[0, 0, 0], q[1, 1, 1], q[2, 2, 2], q[3, 3, 3], q[4, 4, 4], q[5, 5, 5] = (
        20.0, 50.0, 55.0, 2.0, 5.0, 6.0)
    q[1, 0, 1], q[5, 0, 1] = 3.0, 1.5
    lin = np.diag([8.0, 15.0, 16.0, 2.0, 3.0, 4.0])
    lin[1, 5], lin[5, 1] = 1.0, 0.5
    return {
        'mass': 80.0,
        'inertia': np.array([[4.0, 0.2, -0.1], [0.2, 9.0, 0.3], [-0.1, 0.3, 10.0]]),
        'com': np.zeros(3), 'buoyancy_mass': 81.0, 'cob': np.array([0.02, -0.01, 0.15]),
        'linear_drag': lin, 'quadratic_drag': q, 'drag_center': np.array([0.3, 0.05, -0.02]),
        'added_mass': 0.5 * b @ b.T + np.diag([10.0, 40.0, 45.0, 2.0, 6.0, 7.0]),
        'added_mass_point': np.array([0.1, 0.0, 0.05])}


def test_frame_invariance_of_com_trajectory():
    """Origin at the CoM or offset by o (all points moved): same CoM trajectory."""
    ref = _frame_vehicle()
    offset = np.array([-0.4, 0.2, 0.1])
    moved = dict(ref, com=ref['com'] - offset, cob=ref['cob'] - offset,
                 drag_center=ref['drag_center'] - offset,
                 added_mass_point=ref['added_mass_point'] - offset)
    # the same added mass written about the new origin instead of its own point
    at_origin = dict(moved, added_mass=transfer_matrix(ref['added_mass'],
                                                       moved['added_mass_point']),
                     added_mass_point=np.zeros(3))
    quat = quat_from_rpy(0.1, -0.2, 0.3)
    rot = quat_to_matrix(quat)
    nu = np.array([0.5, 0.1, -0.05, 0.3, -0.2, 0.4])
    tau_com = np.array([20.0, 5.0, -3.0, 1.0, 2.0, -1.5])
    current = [0.2, -0.1, 0.05]
    dt, steps = 0.01, 300
    sim_ref = Simulator(VehicleParams(**ref), dt=dt)
    s_ref = State([1.0, 2.0, -20.0], quat, nu)
    for variant in (moved, at_origin):
        sim = Simulator(VehicleParams(**variant), dt=dt)
        com = variant['com']
        s = State(s_ref.position + rot @ offset, quat, transfer_twist(nu, offset))
        tau = transfer_wrench(tau_com, com)
        a = s_ref
        worst = 0.0
        for _ in range(steps):
            a = sim_ref.step(a, tau_com, current)
            s = sim.step(s, tau, current)
            com_world = s.position + quat_to_matrix(s.quaternion) @ com
            worst = max(worst, np.max(np.abs(com_world - a.position)))
        assert worst <= 1e-9, 'max CoM position difference %.3g m' % worst
        assert np.allclose(s.twist[3:], a.twist[3:], atol=1e-10)
    assert np.linalg.norm(a.position - s_ref.position) > 0.5


def test_hydrostatic_roll_period():
    """Small roll oscillation period is 2 pi sqrt((Ixx + A_pp)/(W BG))."""
    ixx, app, bg, mass, g = 5.0, 3.0, 0.05, 100.0, 9.81
    params = VehicleParams(mass=mass, inertia=np.diag([ixx, 8.0, 8.0]), buoyancy_mass=mass,
                           cob=[0.0, 0.0, bg], gravity=g,
                           added_mass=np.diag([20.0, 30.0, 30.0, app, 4.0, 4.0]))
    period = 2.0 * math.pi * math.sqrt((ixx + app) / (mass * g * bg))
    dt = 0.005
    sim = Simulator(params, dt=dt)
    state = State([0.0, 0.0, -10.0], quat_from_rpy(0.02, 0.0, 0.0), np.zeros(6))
    rolls = [0.02]
    for _ in range(int(3.2 * period / dt)):
        state = sim.step(state)
        rolls.append(quat_to_rpy(state.quaternion)[0])
    rolls = np.array(rolls)
    idx = np.nonzero(np.sign(rolls[:-1]) != np.sign(rolls[1:]))[0]
    crossings = dt * (idx + rolls[idx] / (rolls[idx] - rolls[idx + 1]))
    measured = 2.0 * np.mean(np.diff(crossings))
    err = abs(measured / period - 1.0)
    assert len(crossings) >= 5
    assert err <= 0.005, 'relative period error %.3g' % err


def test_body_drifts_with_current_without_drag_forces():
    """
    Galilean invariance: moving with a uniform current while spinning stays with it.

    Without the M_A nu_dot_c term (Fossen 2011 sec. 10.3) the world velocity would drift.
    """
    params = VehicleParams(mass=20.0, inertia=np.diag([1.0, 2.0, 3.0]), gravity=0.0,
                           added_mass=np.diag([5.0, 15.0, 20.0, 0.5, 1.0, 1.5]),
                           linear_drag=np.diag([10.0, 20.0, 30.0, 0.0, 0.0, 0.0]))
    current = np.array([0.3, -0.2, 0.1])
    sim = Simulator(params, dt=0.01)
    state = State(DEEP, twist=np.r_[current, 0.0, 0.0, 0.8])
    for _ in range(300):
        state = sim.step(state, current_world=current)
    world_velocity = quat_to_matrix(state.quaternion) @ state.twist[:3]
    err = np.max(np.abs(world_velocity - current))
    assert err < 1e-9, 'world velocity error %.3g m/s' % err
    assert abs(state.twist[5] - 0.8) < 1e-9


def test_body_accelerates_to_current():
    """A neutral body with drag at rest in a current ends up moving with it."""
    params = VehicleParams(mass=20.0, inertia=np.diag([1.0, 2.0, 3.0]), gravity=0.0,
                           added_mass=np.diag([5.0, 15.0, 20.0, 0.5, 1.0, 1.5]),
                           linear_drag=np.diag([40.0, 60.0, 60.0, 5.0, 5.0, 5.0]))
    current = np.array([0.5, 0.25, 0.0])
    sim = Simulator(params, dt=0.02)
    state = State(DEEP, quat_from_rpy(0.0, 0.0, 0.7), np.zeros(6))
    for _ in range(1000):
        state = sim.step(state, current_world=current)
    world_velocity = quat_to_matrix(state.quaternion) @ state.twist[:3]
    assert np.max(np.abs(world_velocity - current)) < 1e-9


def test_derivative_satisfies_equations_of_motion():
    """M_RB nu_dot + C_RB(nu) nu = tau + HydroModel.wrench(..., nu_dot).total."""
    params = VehicleParams(**dict(_frame_vehicle(), com=np.array([0.05, -0.02, -0.04])))
    sim = Simulator(params, dt=0.01)
    model = HydroModel(params)
    quat = quat_from_rpy(0.3, -0.1, 1.0)
    state = State([0, 0, -3.0], quat, [0.4, -0.2, 0.1, 0.2, 0.3, -0.4])
    tau = np.array([10.0, -3.0, 2.0, 0.5, -0.4, 0.3])
    current = [0.3, 0.1, -0.05]
    nu_dot = sim.derivative(state, tau, current).twist
    wc = model.wrench(state.twist, state.position, state.quaternion, nu_dot, current)
    m_rb = rigid_body_mass_matrix(params.mass, params.inertia, params.com)
    lhs = m_rb @ nu_dot - coriolis_wrench(m_rb, state.twist)
    assert np.allclose(lhs, tau + wc.total, atol=1e-10)


def test_kinematics_straight_line():
    """Without forces and rotation the origin moves along R(q) v at constant speed."""
    params = VehicleParams(mass=5.0, inertia=np.eye(3), com=[0.1, 0.2, 0.0], gravity=0.0)
    quat = quat_from_rpy(0.2, 0.3, -0.5)
    v = np.array([1.0, -0.5, 0.25])
    sim = Simulator(params, dt=0.1, substeps=3)
    state = State([1.0, 1.0, -1.0], quat, np.r_[v, 0, 0, 0])
    for _ in range(50):
        state = sim.step(state)
    expected = np.array([1.0, 1.0, -1.0]) + 5.0 * quat_to_matrix(quat) @ v
    assert np.allclose(state.position, expected, atol=1e-12)
    assert abs(np.linalg.norm(state.quaternion) - 1.0) < 1e-15


def test_dynamics_only_freezes_pose_and_matches_full_twist():
    """dynamics_only integrates nu only; with g = 0 the twist equals the full simulation."""
    params = _coupled_params()
    full = Simulator(params, dt=0.01)
    dyn = Simulator(params, dt=0.01, dynamics_only=True)
    s_full = s_dyn = State([1.0, 2.0, -3.0], quat_from_rpy(0.1, 0.2, 0.3),
                           [0.3, 0.2, 0.1, 0.4, -0.3, 0.2])
    for _ in range(100):
        s_full = full.step(s_full, [1.0, 0, 0, 0, 0, 0.2])
        s_dyn = dyn.step(s_dyn, [1.0, 0, 0, 0, 0, 0.2])
    assert np.array_equal(s_dyn.position, [1.0, 2.0, -3.0])
    assert np.allclose(s_dyn.quaternion, quat_from_rpy(0.1, 0.2, 0.3), atol=1e-15)
    assert np.allclose(s_dyn.twist, s_full.twist, atol=1e-12)
    assert np.max(np.abs(s_full.position - [1.0, 2.0, -3.0])) > 0.1
    assert np.array_equal(dyn.derivative(s_dyn).position, np.zeros(3))


def test_substeps_equal_smaller_steps():
    """One step with n sub-steps equals n steps of dt/n."""
    params = VehicleParams(**_frame_vehicle())
    coarse = Simulator(params, dt=0.04, substeps=4)
    fine = Simulator(params, dt=0.01)
    a = b = State([0, 0, -5.0], quat_from_rpy(0.1, 0.0, 0.2), [0.5, 0, 0, 0.1, 0, 0.2])
    for _ in range(10):
        a = coarse.step(a, [5.0, 0, 0, 0, 0, 0])
        for _ in range(4):
            b = fine.step(b, [5.0, 0, 0, 0, 0, 0])
    assert np.allclose(a.position, b.position, atol=1e-13)
    assert np.allclose(a.twist, b.twist, atol=1e-13)


def test_invalid_arguments():
    """Non-positive dt, bad substeps and a singular mass matrix are rejected."""
    params = VehicleParams(mass=1.0, inertia=np.eye(3))
    with pytest.raises(ValueError):
        Simulator(params, dt=0.0)
    with pytest.raises(ValueError):
        Simulator(params, substeps=0)
    with pytest.raises(ValueError):
        Simulator(VehicleParams(mass=1.0, inertia=np.zeros((3, 3))))


def test_quaternion_stays_unit_while_spinning():
    """A fast tumble with a coarse step keeps |q| = 1 (renormalised every sub-step)."""
    params = VehicleParams(mass=5.0, inertia=np.diag([1.0, 2.0, 3.0]), gravity=0.0)
    sim = Simulator(params, dt=0.1, substeps=2)
    state = State(DEEP, twist=[0, 0, 0, 6.0, 4.0, 2.0])
    worst = 0.0
    for _ in range(200):
        state = sim.step(state)
        worst = max(worst, abs(np.linalg.norm(state.quaternion) - 1.0))
    assert worst < 1e-14, 'max |q| - 1 = %.3g' % worst
