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
The compiled core's current-field step against the naive reference's exact-stage RK4.

``benchmarks/naive_reference.py`` samples the field exactly at every RK4 stage; the core
steps a linearisation (:func:`uwv_hydro.physics.environment.current_field.linearise`).  For a field
affine in position and time the two are the same scheme (1e-10 over every model
variant); for a curved field the per-step difference shrinks as h^3.
"""
import math
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3] / 'benchmarks'))

from naive_reference import dynamics_variants, naive_field_rk4_step  # noqa: E402, I100
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from uwv_hydro.physics.body.dynamics import Simulator  # noqa: E402
from uwv_hydro.physics.body.stability import EnergyGuard  # noqa: E402
from uwv_hydro.physics.environment.current_field import (  # noqa: E402
    CurrentField, CurrentSample, linearise, TidalCurrent)


class Affine(CurrentField):
    """v_c = v0 + G p + a t: exact for the core's linearisation."""

    def __init__(self):
        super().__init__()
        self.v0 = np.array([0.3, -0.2, 0.05])
        self.g = np.array([[0.02, -0.05, 0.01], [0.04, 0.0, -0.03], [0.0, 0.01, 0.02]])
        self.a = np.array([0.01, 0.02, -0.005])

    def sample(self, position, t):
        """Return v0 + G p + a t and its constant rates."""
        v = self.v0 + self.g @ np.asarray(position, float) + self.a * t
        return CurrentSample(v, self.a.copy(), self.g.copy())


class Curved(CurrentField):
    """A tide times a depth shape plus a horizontal swirl: curved in p and t."""

    def __init__(self):
        super().__init__()
        self.tide = TidalCurrent(constituents=[([0.4, 0.2, 0.0], 20.0, 0.3)])

    def sample(self, position, t):
        """Return the velocity and its exact derivatives."""
        x, y, z = (float(v) for v in position)
        tide = self.tide.sample(position, t)
        shape = math.exp(z / 30.0)   # decays with depth
        swirl = np.array([-0.1 * math.sin(y / 5.0), 0.1 * math.sin(x / 5.0), 0.0])
        v = tide.velocity * shape + swirl
        g = np.zeros((3, 3))
        g[:, 2] = tide.velocity * shape / 30.0
        g[0, 1] = -0.1 * math.cos(y / 5.0) / 5.0
        g[1, 0] = 0.1 * math.cos(x / 5.0) / 5.0
        return CurrentSample(v, tide.rate * shape, g)


X0 = [2.0, -3.0, -12.0, 0.9, 0.1, -0.2, 0.3, 0.8, -0.3, 0.2, 0.1, -0.05, 0.15]


@pytest.mark.parametrize('name, params', list(dynamics_variants()))
def test_affine_field_step_equals_the_exact_stage_reference(name, params):
    dt, substeps, t = 0.05, 3, 4.0
    sim = Simulator(params, dt=dt, substeps=substeps)
    x0 = np.array(X0)
    x0[3:7] /= np.linalg.norm(x0[3:7])
    field = Affine()
    guard = EnergyGuard(sim)
    lin = linearise(field, x0.tolist(), t, dt)
    tau = [5.0, -3.0, 2.0, 0.5, -0.2, 0.1]
    got, steps, verdict, _, _ = sim.checked_steps(x0.tolist(), guard, tau, 1, field=lin)
    assert steps == 1 and verdict == 'ok'
    ref = naive_field_rk4_step(params, x0, dt, field, t, substeps, tau=tau)
    scale = max(1.0, float(np.max(np.abs(ref))))
    assert np.max(np.abs(np.array(got) - ref)) < 1e-10 * scale, (name, np.array(got) - ref)
    # and the state derivative with the field (what an IMU in the field senses)
    acc = sim.state_acceleration(x0.tolist(), None, None, linearise(field, x0.tolist(), t, 0))
    h = 1e-6
    fd = (naive_field_rk4_step(params, x0, h, field, t)[7:] - x0[7:]) / h
    assert np.max(np.abs(np.array(acc) - fd)) < 1e-4 * max(1.0, float(np.max(np.abs(fd))))


def test_curved_field_step_error_is_third_order():
    """One step of h: |core - exact-stage RK4| ~ h^3 (ratio 8 when h halves)."""
    params = dict(dynamics_variants())['full']
    field = Curved()
    x0 = np.array(X0)
    x0[3:7] /= np.linalg.norm(x0[3:7])
    errors = []
    for h in (0.2, 0.1, 0.05):
        sim = Simulator(params, dt=h, substeps=1)
        got, _, verdict, _, _ = sim.checked_steps(x0.tolist(), EnergyGuard(sim), None, 1,
                                                  field=linearise(field, x0.tolist(), 3.0, h))
        assert verdict == 'ok'
        ref = naive_field_rk4_step(params, x0, h, field, 3.0)
        errors.append(float(np.max(np.abs(np.array(got)[7:] - ref[7:]))))
    ratios = [errors[0] / errors[1], errors[1] / errors[2]]
    assert all(6.0 < r < 10.0 for r in ratios), (errors, ratios)
