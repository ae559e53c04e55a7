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

"""BatchSimulator against Simulator.step, vehicle by vehicle."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3] / 'benchmarks'))

from naive_reference import full_vehicle  # noqa: E402, I100
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from uwv_hydro.physics.body.batch import BatchSimulator  # noqa: E402
from uwv_hydro.physics.body.dynamics import Simulator, State  # noqa: E402


def _fleet():
    """Return 12 vehicles, 4 parameter sets, interleaved (dense, dsros, continuous, ...)."""
    dsros = full_vehicle(seed=2)
    dsros.drag_velocity_point = dsros.com.copy()
    dsros.added_mass_point = dsros.com.copy()
    quad_only = full_vehicle(seed=3)
    quad_only.damping = 'quadratic_only'
    quad_only.coriolis = False
    cont = full_vehicle(seed=5)
    cont.surface.model = 'continuous'
    kinds = [full_vehicle(), dsros, quad_only, cont]
    return [kinds[i % 4] for i in range(12)]


def _random_state(sim, rng):
    n = sim.n
    q = rng.normal(size=(n, 4))
    return sim.initial_state(
        position=np.column_stack([rng.normal(size=(n, 2)), rng.uniform(-0.5, 0.2, n)]),
        quaternion=q, twist=rng.normal(scale=[1, 0.5, 0.5, 0.3, 0.3, 0.3], size=(n, 6)))


@pytest.mark.parametrize('substeps', [1, 2])
@pytest.mark.parametrize('current', ['none', 'shared', 'per_vehicle'])
def test_batch_matches_simulator_per_vehicle(substeps, current):
    params = _fleet()
    sim = BatchSimulator(params, dt=0.02, substeps=substeps)
    rng = np.random.default_rng(3)
    state = _random_state(sim, rng)
    tau = rng.normal(scale=20.0, size=(sim.n, 6))
    cur = {'none': None, 'shared': np.array([0.2, -0.1, 0.05]),
           'per_vehicle': rng.normal(scale=0.3, size=(sim.n, 3))}[current]
    singles = [Simulator(p, dt=0.02, substeps=substeps) for p in params]
    for _ in range(3):
        new = sim.step(state, tau, cur)
        for i, single in enumerate(singles):
            c = cur if cur is None or cur.ndim == 1 else cur[i]
            want = single.step(State(state.position[i], state.quaternion[i],
                                     state.twist[i]), tau[i], c)
            np.testing.assert_allclose(new.position[i], want.position, rtol=0, atol=1e-12)
            np.testing.assert_allclose(new.quaternion[i], want.quaternion, rtol=0, atol=1e-12)
            np.testing.assert_allclose(new.twist[i], want.twist, rtol=1e-12, atol=1e-12)
        state = new


def test_batch_one_params_many_vehicles_and_interface():
    params = full_vehicle()
    sim = BatchSimulator(params, dt=0.01, n=5)
    state = sim.initial_state(position=np.array([0.0, 0.0, -5.0]))
    assert state.position.shape == (5, 3) and state.quaternion.shape == (5, 4)
    assert state.twist.shape == (5, 6) and len(state) == 5
    state = sim.step(state, np.array([50.0, 0, 0, 0, 0, 2.0]))
    assert np.allclose(state.twist, state.twist[0])  # same vehicle, same input
    single = Simulator(params, dt=0.01).step(State([0, 0, -5.0]), [50.0, 0, 0, 0, 0, 2.0])
    np.testing.assert_allclose(state.twist[3], single.twist, rtol=1e-12, atol=1e-12)
    with pytest.raises(ValueError):
        BatchSimulator(params)
    with pytest.raises(ValueError):
        sim.step(state, None, np.zeros((4, 3)))
    bad = sim.initial_state(quaternion=np.zeros(4))
    with pytest.raises(ValueError):
        sim.step(bad)


@pytest.mark.parametrize('current', [None, np.array([0.3, 0.1, -0.05])])
def test_parameter_sweep_matches_simulator(current):
    """Every vehicle different (a sweep): one parameter set per vehicle, same results."""
    params = _fleet()[:4] + [full_vehicle(seed=10 + k) for k in range(16)]
    sim = BatchSimulator(params, dt=0.02)
    assert len(sim.simulators) == len(params)  # one set per vehicle
    rng = np.random.default_rng(8)
    state = _random_state(sim, rng)
    tau = rng.normal(scale=20.0, size=(sim.n, 6))
    new = sim.step(sim.step(state, tau, current), tau, current)
    for i, p in enumerate(params):
        single = Simulator(p, dt=0.02)
        want = single.step(single.step(State(state.position[i], state.quaternion[i],
                                             state.twist[i]), tau[i], current), tau[i], current)
        np.testing.assert_allclose(new.position[i], want.position, rtol=0, atol=1e-12)
        np.testing.assert_allclose(new.quaternion[i], want.quaternion, rtol=0, atol=1e-12)
        np.testing.assert_allclose(new.twist[i], want.twist, rtol=1e-12, atol=1e-12)
