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
Numerical faults with extreme but legal parameters (issue 9, item 4).

* added mass 100x the body mass: the implicit scheme stays stable and follows the
  closed-form first-order response u(t) = F/L (1 - exp(-L t / (m + A)));
* stiff linear drag with a large step (L/(m + A) dt = 9, explicit RK4 is unstable
  beyond 2.785): one sub-step blows up, :func:`stable_substeps` picks enough sub-steps
  to stay stable, and :class:`EnergyGuard` flags the divergence while the state is
  still finite (so the node can restore instead of publishing garbage);
* the energy bound never fires on bundled vehicles under random thrust and current.

The node side (sub-step choice in /diagnostics, divergence restored and reported) is
checked once against a running node at the end.
"""
import math

from nodes.harness import diag_values, Probe, REPO, start_node
import numpy as np
import pytest

from uwv_hydro.physics.body.dynamics import Simulator, State
from uwv_hydro.physics.body.stability import (
    EnergyGuard, RK4_STABLE_LAMBDA_H, stable_substeps, stiffness)
from uwv_hydro.physics.body.vehicle_params import VehicleParams

DEEP = np.array([0.0, 0.0, -50.0])


def _box(mass=1.0, added=0.0, linear=(0.0,) * 6, quadratic_xxx=0.0):
    """Return a neutrally buoyant box, all points at the origin, diagonal terms."""
    q = np.zeros((6, 6, 6))
    q[0, 0, 0] = quadratic_xxx
    return VehicleParams(mass=mass, inertia=np.diag([0.1, 0.1, 0.1]), buoyancy_mass=mass,
                         linear_drag=np.diag(linear), quadratic_drag=q,
                         added_mass=np.diag([added] * 3 + [0.1 * added] * 3))


def test_stable_substeps_keeps_lambda_h_in_the_rk4_region():
    assert stable_substeps(0.0, 0.01) == 1
    assert stable_substeps(float('nan'), 0.01, minimum=3) == 3
    assert stable_substeps(100.0, 0.01) == 1  # lambda h = 1
    assert stable_substeps(1000.0, 0.01) == 4  # 10 / 2.5
    assert stable_substeps(1001.0, 0.01) == 5
    assert stable_substeps(1000.0, 0.01, minimum=7) == 7
    assert stable_substeps(1e9, 0.01, maximum=1000) == 1000
    for lam in (3.0, 77.0, 1234.5):
        for dt in (0.001, 0.01, 0.1):
            n = stable_substeps(lam, dt)
            assert lam * dt / n <= RK4_STABLE_LAMBDA_H + 1e-12
            assert n == 1 or lam * dt / (n - 1) > RK4_STABLE_LAMBDA_H


def test_stiffness_is_the_linear_drag_eigenvalue():
    """Without quadratic drag the stiffest mode is max_i L_i / (M_RB + M_A)_ii."""
    params = _box(mass=2.0, added=3.0, linear=(500.0, 10.0, 10.0, 1.0, 1.0, 1.0))
    lam = stiffness(Simulator(params, dt=0.01))
    expected = 500.0 / 5.0
    # Coriolis terms at the plausible twist add a few 1/s at most (1e-8: difference noise)
    assert (1.0 - 1e-8) * expected <= lam <= 1.05 * expected
    # quadratic drag: local stiffness 2 Q |u| / (m + A) at the plausible 2 m/s
    params = _box(mass=1.0, linear=(1.0,) * 6, quadratic_xxx=100.0)
    lam = stiffness(Simulator(params, dt=0.01))
    assert (1.0 - 1e-8) * 2 * 100.0 * 2.0 / 1.0 <= lam <= 1.05 * 400.0


def test_added_mass_100_times_body_mass_stays_stable_and_physical():
    m, a, lin, force = 1.0, 100.0, 2.0, 10.0
    params = _box(mass=m, added=a, linear=(lin, 1.0, 1.0, 1.0, 1.0, 1.0))
    dt = 0.01
    sim = Simulator(params, dt=dt)
    state = State(DEEP)
    tau = np.array([force, 0, 0, 0, 0, 0])
    speeds = []
    for _ in range(20000):  # 200 s = 4 time constants (m + A) / L = 50.5 s
        state = sim.step(state, tau)
        speeds.append(state.twist[0])
    u = np.array(speeds)
    t = dt * np.arange(1, len(u) + 1)
    exact = force / lin * (1.0 - np.exp(-lin * t / (m + a)))
    assert np.all(np.isfinite(u))
    np.testing.assert_allclose(u, exact, rtol=1e-9, atol=1e-12)
    assert np.all(np.diff(u) > 0.0) and u.max() < force / lin, 'no overshoot'
    # the added mass slows the response: 1 - 1/e of terminal speed at t = (m + A) / L
    k = int(round((m + a) / lin / dt)) - 1
    assert abs(u[k] / (force / lin) - (1.0 - math.exp(-1.0))) < 1e-3
    np.testing.assert_allclose(state.twist[1:], 0.0, atol=1e-12)


def test_a_force_jump_on_the_twist_is_no_stiffness():
    """
    A uuv quadratic fin in pure sway sees alpha = 90 deg exactly, where its lift jumps.

    The jump is no stiffness: the estimate equals the linear-drag eigenvalue with or
    without the fin (a central difference across the jump read ~1e5 /s).
    """
    from uwv_hydro.physics.body.vehicle_params import Fin
    params = _box(mass=2.0, added=3.0, linear=(50.0, 10.0, 10.0, 1.0, 1.0, 1.0))
    bare = stiffness(Simulator(params, dt=0.01))
    params.fins = [Fin('rudder', position=np.array([-0.5, 0.0, 0.0]),
                       axis=np.array([0.0, 0.0, 1.0]), forward=np.array([1.0, 0.0, 0.0]),
                       upward=np.array([0.0, 1.0, 0.0]), model='quadratic',
                       lift_constant=1e-3, drag_constant=1e-3)]
    assert stiffness(Simulator(params, dt=0.01)) == pytest.approx(bare, rel=1e-2)


def test_stiff_drag_large_dt_diverges_explicitly_and_is_fixed_by_substeps():
    m, lin, force, dt = 1.0, 90.0, 45.0, 0.1  # lambda dt = L / m dt = 9
    params = _box(mass=m, linear=(lin, 1.0, 1.0, 1.0, 1.0, 1.0))
    tau = np.array([force, 0, 0, 0, 0, 0])
    one = Simulator(params, dt=dt, substeps=1)
    guard = EnergyGuard(one)
    # explicit RK4 with lambda h = 9: |R(-9)| = 184 per step
    state, flagged_at, finite_when_flagged = State(DEEP), None, None
    for k in range(40):
        new = one.step(state, tau)
        if flagged_at is None and not guard.plausible(state.twist, new.twist, tau, dt):
            flagged_at = k
            finite_when_flagged = bool(np.all(np.isfinite(new.twist)))
        state = new
    assert not (np.all(np.isfinite(state.twist)) and abs(state.twist[0]) < 1e6), \
        'explicit RK4 at lambda h = 10 should have diverged'
    assert flagged_at is not None and flagged_at <= 2 and finite_when_flagged, \
        'divergence flagged at step %s' % flagged_at
    # the automatic sub-step count: lambda h <= 2.5 -> 4 sub-steps, stable and exact
    # (9 / 2.5 = 3.6; the Coriolis terms at the plausible twist shift lambda by < 1 %)
    n = stable_substeps(stiffness(one), dt)
    assert n == 4
    sim = Simulator(params, dt=dt, substeps=n)
    guard = EnergyGuard(sim)
    state = State(DEEP)
    for _ in range(50):
        new = sim.step(state, tau)
        assert guard.plausible(state.twist, new.twist, tau, dt)
        assert 0.0 <= new.twist[0] <= force / lin + 1e-12
        state = new
    assert abs(state.twist[0] - force / lin) < 1e-9


def test_retry_with_more_substeps_recovers_a_quadratic_drag_divergence():
    """
    At 100 m/s the quadratic drag's 2 Q |u| / m dt = 8 > 2.785.

    One RK4 step gives a finite 8e4 m/s (what the node used to publish); the energy
    guard flags it and the 16x sub-step retry the node uses is stable.
    """
    params = _box(mass=1.0, linear=(1.0,) * 6, quadratic_xxx=4.0)
    sim = Simulator(params, dt=0.01)
    assert sim.substeps == stable_substeps(stiffness(sim), 0.01)  # 16 / s: 1 sub-step
    guard = EnergyGuard(sim)
    fast = State(DEEP, twist=[100.0, 0, 0, 0, 0, 0])
    new = sim.step(fast, None)
    assert np.all(np.isfinite(new.twist)) and abs(new.twist[0]) > 1e3, new.twist
    assert not guard.plausible(fast.twist, new.twist, None, 0.01)
    retried = sim.step(fast, None, substeps=16)
    assert guard.plausible(fast.twist, retried.twist, None, 0.01)
    # u' = -(u + 4 u^2): over 10 ms from 100 m/s the exact solution is 19.9 m/s
    c = 1.0 / 4.0
    exact = c * 100.0 * math.exp(-0.01) / (c + 100.0 * (1.0 - math.exp(-0.01)))
    assert abs(retried.twist[0] - exact) < 0.05 * exact, (retried.twist[0], exact)


@pytest.mark.parametrize('path', ['config/small_rov.yaml', 'config/remus100.yaml',
                                  'urdf/dsros_vehicle.urdf.xacro'])
def test_energy_bound_never_fires_on_physical_runs(path):
    from uwv_hydro.description.loader import load_vehicle
    params = load_vehicle(str(REPO / path))
    rng = np.random.default_rng(9)
    dt = 0.01
    sim = Simulator(params, dt=dt)
    guard = EnergyGuard(sim)
    worst = 0.0
    for trial in range(4):
        current = None if trial % 2 == 0 else rng.normal(0.0, 0.5, 3)
        depth = 0.0 if trial == 3 else -20.0  # at the surface the hydrostatics switch
        state = State([0.0, 0.0, depth], twist=rng.normal(0.0, 0.5, 6))
        for k in range(600):
            if k % 100 == 0:
                tau = rng.normal(0.0, 1.0, 6) * [60, 60, 60, 3, 3, 3]
            new = sim.step(state, tau, current)
            s0 = guard.norm(state.twist)
            grown = guard.norm(new.twist) - s0
            allowed = guard.max_norm(s0, tau, dt, current) - s0
            worst = max(worst, grown / allowed)
            state = new
    # physical growth uses a few per cent of the (safety-factored) bound
    assert worst < 0.25, worst


@pytest.mark.ros
def test_node_chooses_substeps_and_restores_a_divergent_state(rclpy_context, spawn, tmp_path):
    """
    Against the node: stiff drag at 10 Hz, then a state no sub-step count can save.

    Vehicle A (L/m dt = 9): 4 sub-steps reported, odometry converges to F / L.
    Vehicle B starts at 100 m/s with quadratic drag (2 Q |u| / m dt = 8): the first
    step diverges, is counted and recomputed with 16x sub-steps; odometry decays
    monotonically.  Vehicle C starts at 2000 m/s (lambda h = 160, the retry is unstable
    too): every update is counted as a divergence and restored; odometry stays finite
    and never faster than the start.
    """
    from diagnostic_msgs.msg import DiagnosticArray
    from geometry_msgs.msg import WrenchStamped
    from nav_msgs.msg import Odometry
    from nodes.harness import TEST_VEHICLE
    stiff = TEST_VEHICLE.format(mass=1.0, izz=0.1, q_xxx=0.0, n_r=1.0).replace(
        '<linear><yy>', '<linear><xx>90.0</xx><yy>')
    proc, log = start_node(spawn, tmp_path, {
        'robot_description': stiff, 'mode': 'simulate', 'rate_hz': 10.0,
        'initial_position': [0.0, 0.0, -10.0], 'diagnostics_period': 0.2,
        'publish_markers': False}, name='stiff')
    probe = Probe(rclpy_context)
    odom = probe.collect(Odometry, 'odometry', keep=5)
    diags = probe.collect(DiagnosticArray, '/diagnostics', keep=5)
    pub = probe.publisher(WrenchStamped, 'thrust')
    thrust = WrenchStamped()
    thrust.wrench.force.x = 45.0
    assert probe.spin_until(
        lambda: odom and abs(odom[-1].twist.twist.linear.x - 0.5) < 1e-9 and diags,
        timeout=60.0, proc=proc, log=log, action=lambda: pub.publish(thrust)), \
        'surge %s, expected F/L = 0.5' % (odom[-1].twist.twist.linear.x if odom else None)
    loop = diag_values(diags[-1], 'update loop')
    assert loop['rk4_substeps'] == '4' and int(loop['divergences']) == 0, loop
    assert '4 RK4 sub-steps' in open(log).read()
    proc.send_signal(2)
    proc.wait(timeout=10)

    quadratic = TEST_VEHICLE.format(mass=1.0, izz=0.1, q_xxx=4.0, n_r=1.0)

    def events():
        return diag_values(diags[-1], 'update loop') if diags else {}

    # B: 100 m/s, one step diverges (finite 8e4 m/s), the 16x retry is stable
    proc, log = start_node(spawn, tmp_path, {
        'robot_description': quadratic, 'mode': 'simulate', 'rate_hz': 100.0,
        'initial_position': [0.0, 0.0, -10.0], 'diagnostics_period': 0.2,
        'initial_velocity': [100.0, 0.0, 0.0, 0.0, 0.0, 0.0], 'publish_markers': False},
        name='retried')
    del odom[:], diags[:]
    all_odom = probe.collect(Odometry, 'odometry')
    assert probe.spin_until(
        lambda: int(events().get('divergences', 0)) >= 1 and odom
        and odom[-1].twist.twist.linear.x < 1.0, timeout=60.0, proc=proc, log=log), \
        'no divergence reported: %s' % events()
    assert int(events()['state_restores']) == 0
    speeds = [o.twist.twist.linear.x for o in all_odom]
    assert max(speeds) <= 100.0 and min(speeds) >= 0.0, 'garbage published'
    assert all(b <= a for a, b in zip(speeds, speeds[1:])), 'not a monotone decay'
    assert 'sub-steps' in open(log).read()
    proc.send_signal(2)
    proc.wait(timeout=10)

    # C: 2000 m/s, even the retry is unstable: restored every update, reported
    proc, log = start_node(spawn, tmp_path, {
        'robot_description': quadratic, 'mode': 'simulate', 'rate_hz': 100.0,
        'initial_position': [0.0, 0.0, -10.0],
        'initial_velocity': [2000.0, 0.0, 0.0, 0.0, 0.0, 0.0], 'diagnostics_period': 0.2,
        'publish_markers': False}, name='divergent')
    del odom[:], diags[:], all_odom[:]
    assert probe.spin_until(
        lambda: int(events().get('state_restores', 0)) >= 5 and len(odom) >= 5,
        timeout=60.0, proc=proc, log=log), 'no restore reported: %s' % events()
    e = events()
    assert int(e['divergences']) >= int(e['state_restores']) >= 5
    for o in all_odom:
        u = o.twist.twist.linear.x
        assert math.isfinite(u) and abs(u) <= 2000.0, u
    assert 'last good state restored' in open(log).read()
    assert proc.poll() is None
    probe.close()
