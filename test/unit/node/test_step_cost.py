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
The start-up step cost (node/step_cost.py): what it times and what it leaves behind.

measure_step_cost runs steps as an update does (SimulateMode.advance, one step each):
the mode's state must have moved by exactly those steps (the same as stepping it by
hand), its event counts and log must show nothing of them (a vehicle that diverges at
once, 2000 m/s, is restored every step: no divergence counted, no line logged), the
timing must stop early when the steps are expensive, and the figure must be a CPU time
of the right order (positive, below the wall time the call took).
"""
import time

import numpy as np

from uwv_hydro.description.loader import load_vehicle_string
from uwv_hydro.modes.simulate_mode import SimulateMode
from uwv_hydro.node.step_cost import measure_step_cost, TIMED_STEPS
from uwv_hydro.physics.body.dynamics import State


def _mode(u, **kwargs):
    from nodes.harness import TEST_VEHICLE
    params = load_vehicle_string(TEST_VEHICLE.format(mass=1.0, izz=0.1, q_xxx=4.0, n_r=1.0))
    logged = []
    start = State(position=np.array([0.0, 0.0, -10.0]), quaternion=np.array([1.0, 0, 0, 0]),
                  twist=np.array([u, 0, 0, 0, 0, 0]))
    mode = SimulateMode(params, dt=0.01, initial=start,
                        log=lambda *line: logged.append(line), **kwargs)
    return mode, params, start, logged


def test_the_timed_steps_are_the_modes_steps_and_leave_no_events():
    mode, params, start, logged = _mode(1.0)
    wall = time.perf_counter()
    cost = measure_step_cost(mode)
    wall = time.perf_counter() - wall
    assert 0.0 < cost < wall
    ref = SimulateMode(params, dt=0.01, initial=start)
    for _ in range(TIMED_STEPS):
        assert ref.step()
    assert mode.x == ref.x  # exactly TIMED_STEPS steps of the mode
    assert mode.state_ns == TIMED_STEPS * mode.period_ns
    assert mode.events == {'divergences': 0, 'state_restores': 0, 'lagged_steps': 0,
                           'recovered_steps': 0}
    assert logged == []


def test_a_diverging_vehicle_is_timed_without_counting_or_logging():
    mode, _, start, logged = _mode(2000.0)
    mode.events['divergences'] = 3  # counts from before stay as they were
    assert measure_step_cost(mode) > 0.0
    assert mode.events == {'divergences': 3, 'state_restores': 0, 'lagged_steps': 0,
                           'recovered_steps': 0}
    assert logged == []
    # the steps did diverge (each restored): the mode logs it outside the measurement
    assert not mode.step()
    assert logged and logged[-1][1] == 'state_restored'


def test_expensive_steps_are_timed_fewer_times():
    mode, _, _, _ = _mode(1.0)
    measure_step_cost(mode, budget_s=0.0)  # one step, then over the budget
    assert mode.state_ns == mode.period_ns
