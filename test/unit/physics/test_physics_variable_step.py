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
One Simulator steps intervals of any length (``dt=`` of step / step_flat).

A step of dt no longer than the instance's is exactly what a Simulator built for that
dt computes; a longer one is split into sub-steps no longer than the instance's, so a
gap is integrated stably (checked against the analytic linear-drag solution where one
RK4 step of the whole gap diverges).
"""

import math
import pathlib
import sys

import numpy as np
import pytest

from uwv_hydro.physics.body.dynamics import Simulator, State
from uwv_hydro.physics.body.vehicle_params import VehicleParams

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3] / 'benchmarks'))
from naive_reference import full_vehicle  # noqa: E402, I100

X0 = [0.3, -0.2, -0.1, 0.95, 0.05, -0.1, 0.2, 0.6, -0.1, 0.05, 0.02, -0.03, 0.1]
TAU = [40.0, -5.0, 3.0, 0.5, -0.2, 1.0]
CURRENT = [0.2, -0.1, 0.0]


@pytest.mark.parametrize('substeps', [1, 3])
def test_a_step_of_given_dt_is_that_of_a_simulator_built_for_it(substeps):
    params = full_vehicle()
    sim = Simulator(params, dt=0.012, substeps=substeps)
    for dt in (0.0098, 0.01, 0.0102, 0.012, 0.001):
        reference = Simulator(params, dt=dt, substeps=substeps)
        assert sim.step_flat(list(X0), TAU, CURRENT, dt=dt) == reference.step_flat(
            list(X0), TAU, CURRENT)
        state = State(X0[:3], X0[3:7], X0[7:])
        got, want = sim.step(state, TAU, CURRENT, dt=dt), reference.step(state, TAU, CURRENT)
        assert np.array_equal(got.twist, want.twist)
        assert np.array_equal(got.position, want.position)
    # without dt: the instance's step, as before
    assert sim.step_flat(list(X0), TAU) == Simulator(
        params, dt=0.012, substeps=substeps).step_flat(list(X0), TAU)


def test_a_longer_step_is_split_into_sub_steps_no_longer_than_the_instance_s():
    params = full_vehicle()
    sim = Simulator(params, dt=0.02, substeps=2)  # sub-steps of at most 0.01 s
    for dt, n in ((0.021, 3), (0.05, 5), (0.0501, 6), (1.0, 100)):
        assert sim.substeps_for(dt) == (dt / n, n)
        reference = Simulator(params, dt=dt, substeps=n)
        assert sim.step_flat(list(X0), TAU, CURRENT, dt=dt) == reference.step_flat(
            list(X0), TAU, CURRENT)
    # an explicit sub-step count is a minimum
    assert sim.substeps_for(0.05, substeps=8) == (0.05 / 8, 8)
    assert sim.substeps_for(0.05, substeps=2) == (0.01, 5)
    # dynamics_only (twist only) follows the same rule
    frozen = Simulator(params, dt=0.02, substeps=2, dynamics_only=True)
    state = State(X0[:3], X0[3:7], X0[7:])
    got = frozen.step(state, TAU, CURRENT, dt=0.05)
    want = Simulator(params, dt=0.05, substeps=5, dynamics_only=True).step(state, TAU,
                                                                           CURRENT)
    assert np.array_equal(got.twist, want.twist)
    assert np.array_equal(got.position, state.position)


def test_a_gap_is_integrated_stably_against_the_analytic_solution():
    """Surge under thrust F and linear drag d: u(t) = F/d (1 - exp(-d t / (m + A)))."""
    m, a, d, force = 8.0, 2.0, 100.0, 50.0
    params = VehicleParams(mass=m, inertia=np.diag([1.0, 2.0, 2.0]), gravity=0.0,
                           added_mass=np.diag([a, 1.0, 1.0, 0.1, 0.2, 0.2]),
                           linear_drag=np.diag([d, 1.0, 1.0, 1.0, 1.0, 1.0]))
    x0 = [0.0, 0.0, -50.0, 1.0, 0.0, 0.0, 0.0] + [0.0] * 6
    tau = [force, 0, 0, 0, 0, 0]
    gap = 2.0
    for t in (0.05, 0.3, gap):
        u = Simulator(params, dt=0.1, substeps=2).step_flat(list(x0), tau, dt=t)[7]
        exact = force / d * (1.0 - math.exp(-d / (m + a) * t))
        # sub-steps of 0.05 s: |lambda| h = 0.5, RK4 error ~ (lambda h)^5 / 120 per step
        assert abs(u - exact) <= 2e-4 * force / d, (t, u, exact)
    # the reason: one RK4 step of the whole gap (|lambda| h = 20) is far outside the
    # stability region
    one_step = Simulator(params, dt=gap).step_flat(list(x0), tau)[7]
    assert abs(one_step) > 1000 * force / d


def test_bad_step_lengths_are_rejected():
    sim = Simulator(full_vehicle(), dt=0.01)
    for dt in (0.0, -0.01, math.inf, math.nan):
        with pytest.raises(ValueError, match='dt must be positive and finite'):
            sim.step_flat(list(X0), dt=dt)
    with pytest.raises(ValueError, match='substeps must be >= 1'):
        sim.step_flat(list(X0), substeps=0, dt=0.01)
