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
The current terms of the energy bound cost nothing per new current value (issue 17, 3).

A new current value used to cost ~80 evaluations of the dynamics (5-12 ms) inside the
node's locked update.  :class:`EnergyGuard` now finds the polynomial coefficients once;
the terms for any current must equal the direct evaluation at that current (the
wrench of the flow on a vehicle at rest, and the change of the Jacobian at rest, over
the six body directions), and a new current value must not evaluate the dynamics.
"""
from nodes.harness import REPO
import numpy as np
import pytest

from uwv_hydro.physics.actuators.fins import MIN_SPEED as FIN_MIN_SPEED
from uwv_hydro.physics.body.dynamics import Simulator
from uwv_hydro.physics.body.stability import EnergyGuard, jacobian

VEHICLES = ['config/small_rov.yaml', 'config/remus100.yaml', 'urdf/dsros_vehicle.urdf.xacro']


def _load(path):
    from uwv_hydro.description.loader import load_vehicle
    return load_vehicle(str(REPO / path))


def _direct_terms(sim, speed):
    """Return the bound's current terms evaluated at ``speed`` itself (no polynomial)."""
    mass = sim.model.mass_matrix()
    mass = 0.5 * (mass + mass.T)
    chol = np.linalg.cholesky(mass)
    rest = np.zeros(6)
    j0 = jacobian(sim, rest)
    force = rate = 0.0
    for axis in range(3):
        for sign in (1.0, -1.0):
            cw = np.zeros(3)
            cw[axis] = sign * speed
            acc = (sim.acceleration(rest, np.eye(3), 1.0, np.zeros(6), cw)
                   - sim.acceleration(rest, np.eye(3), 1.0, np.zeros(6)))
            force = max(force, float(np.linalg.norm(mass @ acc)))
            delta = jacobian(sim, rest, cw) - j0
            rate = max(rate, float(np.linalg.norm(
                chol.T @ delta @ np.linalg.inv(chol.T), 2)))
    return force, rate


@pytest.mark.parametrize('path', VEHICLES)
def test_current_terms_equal_the_direct_evaluation(path):
    params = _load(path)
    sim = Simulator(params, dt=0.01)
    guard = EnergyGuard(sim)
    rng = np.random.default_rng(17)
    for speed in (1e-3, 0.05, 0.3, 1.0, 2.5, 7.0):
        direction = rng.normal(size=3)
        current = speed * direction / np.linalg.norm(direction)
        force, rate = guard.current_terms(current)
        ref_force, ref_rate = _direct_terms(sim, speed)
        assert ref_force > 0.0
        if params.fins and speed <= FIN_MIN_SPEED:
            # fins carry no load below their speed threshold (gz-sim LiftDrag): the
            # polynomial, quadratic in the speed, still counts them: an upper bound
            assert force >= ref_force
            continue
        assert force == pytest.approx(ref_force, rel=1e-6, abs=1e-9)
        # both from central-difference Jacobians: a few 1e-6 (1/s) of rounding noise
        assert rate == pytest.approx(ref_rate, rel=1e-5, abs=2e-5)
    assert guard.current_terms(None) == (0.0, 0.0)
    assert guard.current_terms([0.0, 0.0, 0.0]) == (0.0, 0.0)


class CountingSimulator(Simulator):
    """The real Simulator, counting its acceleration evaluations."""

    calls = 0

    def acceleration(self, *args, **kwargs):
        CountingSimulator.calls += 1
        return super().acceleration(*args, **kwargs)


def test_a_new_current_value_does_not_evaluate_the_dynamics():
    sim = CountingSimulator(_load('config/remus100.yaml'), dt=0.001)
    guard = EnergyGuard(sim)
    before = CountingSimulator.calls
    twist = np.array([1.0, 0.1, 0.0, 0.0, 0.0, 0.1])
    for k in range(20):  # a current that changes every update
        current = [0.1 + 0.01 * k, -0.2, 0.05 * k]
        guard.plausible(twist, twist * 0.999, np.zeros(6), 0.001, current)
    assert CountingSimulator.calls == before, (
        '%d dynamics evaluations for 20 new current values'
        % (CountingSimulator.calls - before))
