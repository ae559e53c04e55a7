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
Wrench mode beside an engine: engine dynamics + the node's wrench == simulate mode.

An engine integrates the rigid body it carries with Newton-Euler about the link
origin, its bias force being Kirchhoff's -nu x* (M nu) on the ABSOLUTE twist (DART,
MuJoCo).  Written out here without the project's Coriolis code::

    M nu_dot = tau - [w x p, w x h + v x p],   [p, h] = M nu

* ``added_mass: implicit``: M = M_RB + M_A (the engine carries the added mass);
* ``added_mass: lagged``: M = M_RB, and the node's acceleration estimate is exact.

Either way the engine's nu_dot with the node's published wrench must equal the
simulate mode's derivative (``Simulator.derivative``), to 1e-10, over random
vehicles (full 36-term M_A, CoM and added-mass point off the origin, dsros and origin
semantics) and random states, with and without a water current.
"""
import numpy as np
import pytest

from uwv_hydro.modes.wrench_mode import WrenchMode
from uwv_hydro.physics.body.dynamics import Simulator, State
from uwv_hydro.physics.body.vehicle_params import COMPONENT_NAMES, SurfaceTransition, VehicleParams
from uwv_hydro.physics.hydro.hydro_model import HydroModel
from uwv_hydro.physics.spatial.rotation import quat_to_matrix

N_STATES = 40


def _kirchhoff(mass_matrix, nu):
    """Return the engine's bias wrench -nu x* (M nu) (Featherstone; Kirchhoff's equations)."""
    p_h = mass_matrix @ nu
    p, h = p_h[:3], p_h[3:]
    v, w = nu[:3], nu[3:]
    return -np.concatenate([np.cross(w, p), np.cross(w, h) + np.cross(v, p)])


def _skew(r):
    return np.array([[0.0, -r[2], r[1]], [r[2], 0.0, -r[0]], [-r[1], r[0], 0.0]])


def _spatial_inertia(mass, inertia_com, com):
    """Return the rigid-body spatial inertia about the origin (Steiner), written out."""
    s = _skew(com)
    out = np.zeros((6, 6))
    out[:3, :3] = mass * np.eye(3)
    out[:3, 3:] = -mass * s
    out[3:, :3] = mass * s
    out[3:, 3:] = inertia_com - mass * s @ s
    return out


def _about_origin(matrix, point):
    """Return H^T M H: a 6x6 matrix about ``point`` referred to the origin."""
    h = np.eye(6)
    h[:3, 3:] = -_skew(point)
    return h.T @ matrix @ h


def _vehicle(rng, semantics, symmetric=True):
    b = rng.normal(size=(6, 6))
    added = b @ b.T + 2.0 * np.eye(6)
    if not symmetric:
        added += 0.3 * rng.normal(size=(6, 6))  # 36 independent terms (dsros allows it)
    a = rng.normal(size=(3, 3))
    inertia = a @ a.T + np.eye(3)
    com = 0.1 * rng.normal(size=3)
    quadratic = np.abs(rng.normal(size=(6, 6, 6)))
    params = VehicleParams(
        mass=20.0 + 10.0 * rng.random(), inertia=inertia, com=com,
        buoyancy_mass=25.0, cob=com + [0.0, 0.0, 0.05],
        surface=SurfaceTransition(out_of_water_depth=-0.2, fully_submerged_depth=0.3),
        linear_drag=np.diag(1.0 + rng.random(6)) + 0.2 * rng.normal(size=(6, 6)),
        quadratic_drag=quadratic, added_mass=added,
        drag_center=0.1 * rng.normal(size=3), semantics=semantics)
    if semantics == 'dsros':
        # dsros_hydro: added mass about the CoM, drag with the CoM velocity
        params.added_mass_point = com.copy()
        params.drag_velocity_point = com.copy()
    else:
        params.added_mass_point = 0.1 * rng.normal(size=3)
    return params


def _states(rng, n):
    for _ in range(n):
        q = rng.normal(size=4)
        # depths around the surface band too (partial buoyancy)
        position = np.array([rng.normal(), rng.normal(), rng.uniform(-2.0, 0.3)])
        yield position, q / np.linalg.norm(q), rng.normal(size=6), 20.0 * rng.normal(size=6)


CASES = [(seed, semantics, symmetric, current)
         for seed, semantics, symmetric in ((1, 'origin', True), (2, 'dsros', True),
                                            (3, 'dsros', False), (4, 'origin', False))
         for current in (None, (0.3, -0.2, 0.1))]


@pytest.mark.parametrize('seed,semantics,symmetric,current', CASES)
def test_implicit_engine_plus_node_equals_simulate(seed, semantics, symmetric, current):
    rng = np.random.default_rng(seed)
    params = _vehicle(rng, semantics, symmetric)
    sim = Simulator(params, dt=0.01)
    node = WrenchMode(params, added_mass='implicit', apply_weight=True)
    m_rb = _spatial_inertia(params.mass, params.inertia, params.com)
    m_a = _about_origin(params.added_mass, params.added_mass_point)
    engine_mass = m_rb + m_a
    worst = 0.0
    for k, (position, q, nu, tau) in enumerate(_states(rng, N_STATES)):
        wc = node.evaluate(0.01 * k, position, q, nu, current)
        # The engine: (M_RB + M_A) nu_dot = tau + node wrench - C_{RB+A}(nu) nu
        engine = np.linalg.solve(engine_mass, tau + wc.total + _kirchhoff(engine_mass, nu))
        expected = sim.derivative(State(position, q, nu), tau, current).twist
        worst = max(worst, np.max(np.abs(engine - expected)) / max(1.0, np.max(np.abs(expected))))
        comps = wc.components
        np.testing.assert_allclose(sum(comps.values()), wc.total, rtol=0, atol=1e-12)
        if current is None:
            # nothing left for the node: the engine carries all of the added mass
            assert not np.any(comps['added_mass']) and not np.any(comps['added_mass_coriolis'])
            continue
        # what is emitted: C_A(nu) nu - C_A(nu_r) nu_r and M_A nu_dot_c (Fossen 2011 10.3)
        v_cb = quat_to_matrix(q).T @ np.asarray(current)
        nu_r = nu - np.concatenate([v_cb, np.zeros(3)])
        np.testing.assert_allclose(comps['added_mass_coriolis'],
                                   _kirchhoff(m_a, nu_r) - _kirchhoff(m_a, nu),
                                   rtol=1e-12, atol=1e-12)
        nu_dot_c = np.concatenate([-np.cross(nu[3:], v_cb), np.zeros(3)])
        np.testing.assert_allclose(comps['added_mass'], m_a @ nu_dot_c, rtol=1e-12, atol=1e-12)
    assert worst < 1e-10, 'engine + node differs from simulate by %.3g' % worst


@pytest.mark.parametrize('seed,semantics,symmetric,current', CASES)
def test_lagged_bare_engine_plus_node_equals_simulate(seed, semantics, symmetric, current):
    """With an exact acceleration estimate, lagged mode + a bare rigid body is simulate."""
    rng = np.random.default_rng(seed)
    params = _vehicle(rng, semantics, symmetric)
    sim = Simulator(params, dt=0.01)
    m_rb = _spatial_inertia(params.mass, params.inertia, params.com)
    worst = 0.0
    for position, q, nu, tau in _states(rng, N_STATES):
        expected = sim.derivative(State(position, q, nu), tau, current).twist
        # alpha 1 over 1 s: the estimate (nu_1 - nu_0) / 1 s is the simulate nu_dot
        node = WrenchMode(params, added_mass='lagged', apply_weight=True,
                          acceleration_alpha=1.0)
        node.evaluate(0.0, position, q, nu - expected, current)
        wc = node.evaluate(1.0, position, q, nu, current)
        engine = np.linalg.solve(m_rb, tau + wc.total + _kirchhoff(m_rb, nu))
        worst = max(worst, np.max(np.abs(engine - expected)) / max(1.0, np.max(np.abs(expected))))
    assert worst < 1e-10, 'engine + node differs from simulate by %.3g' % worst


@pytest.mark.parametrize('added_mass', ['implicit', 'lagged'])
def test_changing_current_adds_its_rate(added_mass):
    """dv_c/dt != 0 adds M_A [R^T dv_c/dt, 0] to ``added_mass`` (nu_dot_c of Fossen 10.3)."""
    rng = np.random.default_rng(5)
    params = _vehicle(rng, 'dsros', symmetric=False)
    m_a = _about_origin(params.added_mass, params.added_mass_point)
    current, rate = np.array([0.3, -0.2, 0.1]), np.array([0.05, 0.2, -0.1])
    for position, q, nu, _ in _states(rng, 10):
        steady = WrenchMode(params, added_mass=added_mass, apply_weight=True)
        changing = WrenchMode(params, added_mass=added_mass, apply_weight=True)
        for t, twist in ((0.0, nu - 0.01), (0.1, nu)):
            a = steady.evaluate(t, position, q, twist, current)
            b = changing.evaluate(t, position, q, twist, current, rate)
        expected = m_a @ np.concatenate([quat_to_matrix(q).T @ rate, np.zeros(3)])
        np.testing.assert_allclose(b.components['added_mass'] - a.components['added_mass'],
                                   expected, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(b.total - a.total, expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize('added_mass', ['implicit', 'lagged'])
def test_replay_path_equals_one_sample_at_a_time(added_mass):
    """evaluate_many (offline replay) gives evaluate's components to 1e-12, current or not."""
    rng = np.random.default_rng(6)
    params = _vehicle(rng, 'origin', symmetric=True)
    states = list(_states(rng, 30))
    t = 0.01 * np.arange(len(states))
    position, q, nu = (np.array([s[i] for s in states]) for i in range(3))
    for current, rate in ((None, None), ((0.3, -0.2, 0.1), None), ((0.3, 0.0, 0.0), (0, 0.1, 0))):
        one = WrenchMode(params, added_mass=added_mass, apply_weight=True)
        many = WrenchMode(params, added_mass=added_mass, apply_weight=True)
        expected = np.array([[one.evaluate(t[k], position[k], q[k], nu[k], current,
                                           rate).components[name]
                              for name in COMPONENT_NAMES] for k in range(len(t))])
        got = many.evaluate_many(t, position, q, nu, current, current_rate_world=rate)
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


def test_contradictory_inputs_are_refused():
    model = HydroModel(_vehicle(np.random.default_rng(7), 'origin'))
    with pytest.raises(ValueError, match='engine carries'):
        model.wrench(np.zeros(6), nu_dot=np.zeros(6), engine_added_mass=True)
    with pytest.raises(ValueError, match='current_rate_world needs'):
        model.wrench(np.zeros(6), current_world=(1, 0, 0), current_rate_world=(0, 1, 0))
