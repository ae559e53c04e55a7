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
HydroModel and the compiled core against an independently written numpy reference.

Random states over every model variant (surface band, current, fins, dsros reference
points, quadratic-only damping, Coriolis off, offset centre of mass): the wrench
components, the state derivative, the RK4 step, the batch step and the checked
multi-step run of simulate mode.
"""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3] / 'benchmarks'))

from naive_reference import (dynamics_variants, finned_vehicle,  # noqa: E402, I100
                             hulled_vehicle, naive_derivative, naive_fin_wrench,
                             naive_rk4_step, naive_wrench, rotation_matrix,
                             uuv_finned_vehicle, vehicle_variants)
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from uwv_hydro.modes.simulate_mode import SimulateMode  # noqa: E402
from uwv_hydro.physics.body.batch import BatchSimulator  # noqa: E402
from uwv_hydro.physics.body.dynamics import Simulator  # noqa: E402
from uwv_hydro.physics.body.vehicle_params import COMPONENT_NAMES  # noqa: E402
from uwv_hydro.physics.hydro.hydro_model import HydroModel  # noqa: E402
from uwv_hydro.physics.kernel import core  # noqa: E402


def _variants():
    yield from vehicle_variants(dsros_seed=7)
    yield 'fins_uuv_two_lines', uuv_finned_vehicle()
    yield 'hull_prestero', hulled_vehicle()
    yield 'hull_jorgensen', hulled_vehicle(seed=17, model='jorgensen')


@pytest.mark.parametrize('name,params', list(_variants()), ids=lambda v: v
                         if isinstance(v, str) else '')
def test_core_matches_independent_reference(name, params):
    model = HydroModel(params)
    rng = np.random.default_rng(11)
    for _ in range(200):
        nu = rng.normal(scale=[1, 0.5, 0.5, 0.3, 0.3, 0.3])
        q = rng.normal(size=4)
        pos = np.array([rng.normal(), rng.normal(), rng.uniform(-0.5, 0.2)])  # near surface
        nu_dot = rng.normal(size=6)
        cur = rng.normal(scale=0.3, size=3)
        got = model.wrench(nu, position=pos, quaternion=q, nu_dot=nu_dot, current_world=cur)
        want = naive_wrench(params, nu, pos, q, nu_dot, cur)
        # fins at zero deflection (the reference's fin model), no hull: zero components
        want['fins'] = naive_fin_wrench(params, nu - np.concatenate(
            [rotation_matrix(q).T @ cur, np.zeros(3)])) if params.fins else np.zeros(6)
        want.setdefault('hull_lift', np.zeros(6))
        want.setdefault('crossflow_drag', np.zeros(6))
        for comp in COMPONENT_NAMES:
            np.testing.assert_allclose(got.components[comp], want[comp], rtol=1e-10,
                                       atol=1e-9, err_msg='%s: %s' % (name, comp))
        np.testing.assert_allclose(got.total, sum(want.values()), rtol=1e-10, atol=1e-9)


def _random_inputs(rng, params, k):
    """Return (x, tau, current, fin angles): deep, in the surface band or out of the water."""
    depth = (rng.uniform(-0.1, 0.5), 5.0, -0.3)[k % 3]
    x = np.concatenate([rng.normal(size=2), [-depth], rng.normal(size=4) * 1.3,
                        rng.normal(scale=[1.5, 0.5, 0.5, 0.4, 0.4, 0.4])])
    tau = None if k % 4 == 0 else rng.normal(scale=20.0, size=6)
    current = None if k % 2 == 0 else rng.normal(scale=0.4, size=3)
    angles = rng.uniform(-0.6, 0.6, size=len(params.fins)) if params.fins else None
    return x, tau, current, angles


def _assert_close(got, want, what):
    """Agreement to 1e-10 relative to the size of the vector."""
    got, want = np.asarray(got), np.asarray(want)
    scale = max(1.0, float(np.max(np.abs(want))))
    assert np.max(np.abs(got - want)) <= 1e-10 * scale, '%s: %s != %s' % (what, got, want)


@pytest.mark.parametrize('name,params', list(dynamics_variants()), ids=lambda v: v
                         if isinstance(v, str) else '')
def test_compiled_derivative_matches_independent_reference(name, params):
    sim = Simulator(params, dt=0.01)
    rng = np.random.default_rng(23)
    in_band = 0
    for k in range(300):
        x, tau, current, angles = _random_inputs(rng, params, k)
        depth = -x[2]
        in_band += (params.surface.out_of_water_depth < depth
                    < params.surface.fully_submerged_depth)
        got = core.derivative(sim.core, x.tolist(), tau, current, angles)
        want = naive_derivative(params, x, tau, current, angles)
        _assert_close(got, want, '%s state %d' % (name, k))
    assert in_band > 50  # the surface band is covered


@pytest.mark.parametrize('name,params', list(dynamics_variants()), ids=lambda v: v
                         if isinstance(v, str) else '')
@pytest.mark.parametrize('substeps', [1, 3])
def test_compiled_rk4_step_matches_independent_reference(name, params, substeps):
    sim = Simulator(params, dt=0.02, substeps=substeps)
    rng = np.random.default_rng(29)
    for k in range(40):
        x, tau, current, angles = _random_inputs(rng, params, k)
        if angles is not None:
            sim.set_fin_angles(angles)
        got = sim.step_flat(x.tolist(), tau, current)
        want = naive_rk4_step(params, x, 0.02, substeps, tau, current, angles)
        _assert_close(got, want, '%s state %d' % (name, k))


@pytest.mark.parametrize('current', ['none', 'per_vehicle'])
def test_compiled_batch_step_matches_independent_reference(current):
    variants = [p for _, p in dynamics_variants()]
    finned = [p for p in variants if p.fins]
    # vehicles with fins share one angle array: the fleet is the finned vehicle and the
    # others (whose angles are ignored), interleaved
    fleet = [variants[i % len(variants)] for i in range(15)]
    sim = BatchSimulator(fleet, dt=0.02, substeps=2)
    rng = np.random.default_rng(31)
    xs = [_random_inputs(rng, p, k)[0] for k, p in enumerate(fleet)]
    state = sim.initial_state(position=[x[:3] for x in xs], quaternion=[x[3:7] for x in xs],
                              twist=[x[7:] for x in xs])
    tau = rng.normal(scale=20.0, size=(len(fleet), 6))
    cur = None if current == 'none' else rng.normal(scale=0.4, size=(len(fleet), 3))
    angles = rng.uniform(-0.5, 0.5, size=(len(fleet), len(finned[0].fins)))
    new = sim.step(state, tau, cur, fin_angles=angles)
    for i, p in enumerate(fleet):
        want = naive_rk4_step(p, xs[i], 0.02, 2, tau[i], None if cur is None else cur[i],
                              angles[i] if p.fins else None)
        got = np.concatenate([new.position[i], new.quaternion[i], new.twist[i]])
        _assert_close(got, want, 'vehicle %d' % i)


@pytest.mark.parametrize('name,params', [
    ('continuous_surface', dict(dynamics_variants())['continuous_surface']),
    ('hull', hulled_vehicle()), ('fins', finned_vehicle())],
    ids=lambda v: v if isinstance(v, str) else '')
def test_checked_run_matches_the_reference_and_single_steps(name, params):
    """SimulateMode.run (many steps in the core) = step by step = RK4 of the reference."""
    dt = 0.01
    rng = np.random.default_rng(37)
    x0, _, _, angles = _random_inputs(rng, params, 1)
    taus = np.ascontiguousarray(rng.normal(scale=20.0, size=(50, 6)))
    current = [0.2, -0.1, 0.05]
    many, single = SimulateMode(params, dt), SimulateMode(params, dt)
    for mode in (many, single):
        if angles is not None:
            mode.sim.set_fin_angles(angles)
        mode.reset(mode.initial.__class__(x0[:3], x0[3:7], x0[7:]))
    rows = np.empty((50, 13))
    assert many.run(taus, 50, current, rows=rows) == 50
    x = x0.copy()
    for k in range(50):
        assert single.step(taus[k], current)
        assert single.x == rows[k].tolist()  # bit for bit
        assert many.substeps == 1
        x = naive_rk4_step(params, x, dt, 1, taus[k], current, angles)
        _assert_close(rows[k], x, '%s step %d' % (name, k))
    assert many.events == single.events == {'divergences': 0, 'state_restores': 0,
                                            'lagged_steps': 0, 'recovered_steps': 0}
