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

"""Simulator.step (feature fast path) against the term-by-term equations of motion."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3] / 'benchmarks'))

from naive_reference import full_vehicle, vehicle_variants  # noqa: E402, I100
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from uwv_hydro.physics.body.dynamics import Simulator, State  # noqa: E402
from uwv_hydro.physics.body.vehicle_params import VehicleParams  # noqa: E402
from uwv_hydro.physics.spatial.rotation import quat_normalize  # noqa: E402


def _variants():
    yield from vehicle_variants(dsros_seed=2)
    yield 'diagonal', VehicleParams(
        mass=30.0, inertia=np.diag([1.0, 2.0, 2.5]), buoyancy_mass=30.5,
        cob=np.array([0.0, 0.0, 0.05]), linear_drag=np.diag([5.0, 8, 8, 1, 1, 1]),
        added_mass=np.diag([3.0, 20, 20, 0.1, 1, 1]))


def _reference_step(sim, state, tau, current):
    """RK4 of the term-by-term derivative (Simulator._flat_derivative)."""
    x = np.concatenate((state.position, quat_normalize(state.quaternion), state.twist))
    tau = np.zeros(6) if tau is None else np.asarray(tau, float)
    cur = None if current is None else np.asarray(current, float)
    h = sim.dt / sim.substeps
    f = sim._flat_derivative
    for _ in range(sim.substeps):
        k1 = f(x, tau, cur)
        k2 = f(x + 0.5 * h * k1, tau, cur)
        k3 = f(x + 0.5 * h * k2, tau, cur)
        k4 = f(x + h * k3, tau, cur)
        x = x + h / 6.0 * (k1 + 2.0 * (k2 + k3) + k4)
        x[3:7] = quat_normalize(x[3:7])
    return x


@pytest.mark.parametrize('name,params', list(_variants()), ids=lambda v: v
                         if isinstance(v, str) else '')
@pytest.mark.parametrize('substeps', [1, 3])
def test_fast_step_matches_term_by_term_rk4(name, params, substeps):
    sim = Simulator(params, dt=0.02, substeps=substeps)
    rng = np.random.default_rng(5)
    for k in range(60):
        state = State(position=[rng.normal(), rng.normal(), rng.uniform(-0.5, 0.2)],
                      quaternion=rng.normal(size=4) * 1.7,
                      twist=rng.normal(scale=[1, 0.5, 0.5, 0.3, 0.3, 0.3]))
        tau = None if k % 3 == 0 else rng.normal(scale=20.0, size=6)
        cur = None if k % 2 == 0 else rng.normal(scale=0.3, size=3)
        got = sim.step(state, tau, cur)
        want = _reference_step(sim, state, tau, cur)
        np.testing.assert_allclose(got.position, want[:3], rtol=0, atol=1e-12)
        np.testing.assert_allclose(got.quaternion, want[3:7], rtol=0, atol=1e-12)
        np.testing.assert_allclose(got.twist, want[7:], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize('name,params', list(_variants())[:2], ids=lambda v: v
                         if isinstance(v, str) else '')
def test_fast_dynamics_only_matches_term_by_term(name, params):
    sim = Simulator(params, dt=0.02, substeps=2, dynamics_only=True)
    state = State([0.3, 0.1, -0.12], quat_normalize([0.9, 0.1, -0.2, 0.3]),
                  [0.8, -0.2, 0.1, 0.2, -0.1, 0.3])
    tau, cur = np.array([30.0, 1, -2, 0.5, 0, 1]), np.array([0.2, -0.1, 0.05])
    rot_state = state.copy()
    got = sim.step(state, tau, cur)
    nu = state.twist.copy()
    from uwv_hydro.physics.spatial.rotation import quat_to_matrix
    rot = quat_to_matrix(state.quaternion)
    frac = sim.model.hydrostatics.fraction(0.12)
    h = sim.dt / sim.substeps
    a = sim.acceleration
    for _ in range(sim.substeps):
        k1 = a(nu, rot, frac, tau, cur)
        k2 = a(nu + 0.5 * h * k1, rot, frac, tau, cur)
        k3 = a(nu + 0.5 * h * k2, rot, frac, tau, cur)
        k4 = a(nu + h * k3, rot, frac, tau, cur)
        nu = nu + h / 6.0 * (k1 + 2.0 * (k2 + k3) + k4)
    np.testing.assert_allclose(got.twist, nu, rtol=1e-12, atol=1e-12)
    assert np.array_equal(got.position, rot_state.position)
    assert np.array_equal(got.quaternion, rot_state.quaternion)


def test_step_rejects_bad_inputs_and_returns_independent_states():
    sim = Simulator(full_vehicle(), dt=0.01)
    state = State([0, 0, -5.0])
    with pytest.raises(ValueError):
        sim.step(State(quaternion=[0.0, 0, 0, 0]))
    with pytest.raises(ValueError):
        sim.step(state, np.ones(5))
    with pytest.raises(ValueError):
        sim.step(state, None, [0.1, 0.2])
    a = sim.step(state, np.ones(6))
    b = sim.step(a, np.ones(6))
    assert not np.shares_memory(a.twist, b.twist)
    assert a.position.shape == (3,) and a.quaternion.shape == (4,) and a.twist.shape == (6,)
