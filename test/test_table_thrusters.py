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
The scalar step of lookup-table thrusters equals ThrusterBank's numpy step.

Two banks of the same thrusters: one steps on floats (physics/table_thrusters.py, what
the bank uses when every thruster is a table), the other is forced through the
vectorised advance / evaluate.  Over random command sequences -- inside and outside the
tables, non-finite (neutral), with and without lag, rate limits, deadband and reaction
torque -- states, thrusts, torques and wrenches agree to 1e-12 of their scale (the two
sum the allocation in different orders), and the scalar interpolation equals numpy's.
"""
import dataclasses
import math

import numpy as np
import pytest

from uwv_hydro.description.loader import load_vehicle
from uwv_hydro.physics.table_thrusters import interp
from uwv_hydro.physics.thruster_bank import ThrusterBank

CONFIG = 'config/ardusub_bluerov2_heavy.yaml'


def _banks(**changes):
    specs = [dataclasses.replace(s, **changes) for s in load_vehicle(CONFIG).thrusters]
    fast, slow = ThrusterBank(specs, 1000.0), ThrusterBank(specs, 1000.0)
    assert fast._table_step is not None
    slow._table_step = None  # the numpy path
    return fast, slow


@pytest.mark.parametrize('changes', [
    {},                                                   # the T200 with its 0.1 s lag
    {'time_constant': 0.0},                               # the table alone
    {'time_constant': 0.05, 'max_cmd_rate': 2000.0},      # lag and a rate limit
    {'time_constant': 0.0, 'deadband': 10.0, 'torque_per_thrust': 0.02,
     'spin_direction': -1},                               # deadband, reaction torque
])
def test_scalar_step_equals_the_numpy_step(changes):
    fast, slow = _banks(**changes)
    rng = np.random.default_rng(7)
    n = len(fast)
    for k in range(400):
        u = rng.uniform(900.0, 2100.0, n)   # beyond the table at both ends too
        if k % 7 == 0:
            u[rng.integers(n)] = math.nan      # no command: neutral
        if k % 11 == 0:
            u[:] = 1500.0                      # back to neutral (deadband of the table)
        if k == 200:
            fast.deadband_enabled[2] = slow.deadband_enabled[2] = False
        dt = 1 / 1200 if k < 300 else 0.01
        w_fast, w_slow = fast.step(u, dt), slow.step(u, dt)
        scale = max(1.0, float(np.max(np.abs(w_slow))))
        assert np.allclose(w_fast, w_slow, rtol=0, atol=1e-12 * scale), (k, w_fast - w_slow)
        assert np.allclose(fast.state, slow.state, rtol=1e-15, atol=1e-9)
        assert np.allclose(fast.thrust, slow.thrust, rtol=1e-13, atol=1e-12)
        assert np.allclose(fast.torque, slow.torque, rtol=1e-13, atol=1e-12)
    assert np.all(np.isnan(fast.omega)) and np.all(np.isnan(slow.omega))


def test_interp_is_numpys():
    xp = [1100.0, 1200.0, 1300.0, 1460.0, 1540.0, 1700.0, 1900.0]
    fp = [-40.0, -29.0, -17.0, 0.0, 0.0, 21.0, 51.0]
    xs = np.concatenate([np.linspace(900.0, 2100.0, 2001), xp, np.nextafter(xp, 0.0)])
    for x in xs:
        assert interp(float(x), xp, fp) == pytest.approx(float(np.interp(x, xp, fp)),
                                                         rel=1e-15, abs=1e-13)
