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
What seabed contact adds to simulate mode's step: the vehicle resting on the seabed.

config/bluerov2.yaml and config/remus100.yaml with the 8 corners of a box around the
hull as contact points (4 of them touching), on a flat seabed and on a 1001 x 1001 grid;
the same RK4 sub-steps with and without contact (the contact's own cost), then the
sub-steps the contact's stiffness asks for.  Prints one JSON line per case: the median
step cost (us) of five runs of 2000 steps and the ratio to the vehicle without contact.
Run: ``PYTHONPATH=. python benchmarks/seabed_contact.py``.
"""
import json
import time

import numpy as np

from uwv_hydro.description.loader import load_vehicle
from uwv_hydro.modes.simulate_mode import SimulateMode
from uwv_hydro.physics.body.dynamics import State
from uwv_hydro.physics.environment.seabed import FlatSeabed, GridSeabed
from uwv_hydro.physics.environment.seabed_contact import ContactSpec

DEPTH = 30.0
HALF = {'bluerov2': (0.23, 0.17, 0.13), 'remus100': (0.8, 0.1, 0.1)}


def _cost(mode, x0, steps=2000, repeats=5):
    costs = []
    for _ in range(repeats):
        mode.reset(x0)
        start = time.perf_counter()
        mode.run(None, steps)
        costs.append((time.perf_counter() - start) / steps * 1e6)
    return float(np.median(costs))


def main():
    n = 1001
    x = np.arange(n) - (n - 1) / 2.0
    grid = GridSeabed(np.full((n, n), -DEPTH), x[0], x[0], 1.0, 1.0)
    for name, half in HALF.items():
        params = load_vehicle('config/%s.yaml' % name)
        hx, hy, hz = half
        corners = np.array([[sx * hx, sy * hy, sz * hz] for sx in (1, -1) for sy in (1, -1)
                            for sz in (1, -1)])
        # resting on the seabed (the vehicle may float: the rest is then a light touch)
        x0 = State(np.array([0.0, 0.0, -DEPTH + hz]), np.array([1.0, 0.0, 0.0, 0.0]),
                   np.zeros(6))
        bare = SimulateMode(params, dt=0.01)
        base = _cost(bare, x0)
        print(json.dumps({'vehicle': name, 'case': 'no contact', 'substeps': bare.substeps,
                          'step_us': round(base, 2), 'ratio': 1.0}))
        for label, seabed in (('flat', FlatSeabed(DEPTH)), ('grid 1001x1001', grid)):
            mode = SimulateMode(params, dt=0.01)
            mode.set_contact(ContactSpec(points=corners), seabed)
            auto = mode.substeps
            cost_auto = _cost(mode, x0)
            # the contact's own cost: the sub-steps of the vehicle without it
            mode.sim.set_step(mode.dt, bare.substeps)
            cost_same = _cost(mode, x0) * 1.0
            print(json.dumps({'vehicle': name, 'case': label, 'substeps': bare.substeps,
                              'step_us': round(cost_same, 2),
                              'ratio': round(cost_same / base, 3)}))
            print(json.dumps({'vehicle': name, 'case': label + ', its sub-steps',
                              'substeps': auto, 'step_us': round(cost_auto, 2),
                              'ratio': round(cost_auto / base, 3)}))


if __name__ == '__main__':
    main()
