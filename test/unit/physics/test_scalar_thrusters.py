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
The scalar step of table and uuv_simulator thrusters equals ThrusterBank's numpy step.

Two banks of the same thrusters: one steps on floats (physics/actuators/scalar_thrusters.py, what
the bank uses when every thruster is a table or a uuv_simulator conversion), the other
is forced through the vectorised advance / evaluate.  Over random command sequences --
inside and outside the tables and limits, non-finite (neutral), with and without lag,
rate limits, deadband and reaction torque; for uuv_simulator's thrusters ZeroOrder,
FirstOrder, Yoerger and Bessa rotor dynamics (stiff too: backward Euler) with the Basic,
Bessa and LinearInterp conversions (test/corpus's RexROV mixes them all) -- states,
thrusts, torques and wrenches agree to 1e-12 of their scale (the two sum the allocation
in different orders), and the scalar interpolation equals numpy's.
"""
import dataclasses
import math

import numpy as np
import pytest

from uwv_hydro.description.loader import load_vehicle
from uwv_hydro.physics.actuators.scalar_thrusters import interp, odd_root
from uwv_hydro.physics.actuators.thruster_bank import odd_quadratic_root, ThrusterBank

CONFIG = 'config/ardusub_bluerov2_heavy.yaml'


def _banks(**changes):
    specs = [dataclasses.replace(s, **changes) for s in load_vehicle(CONFIG).thrusters]
    fast, slow = ThrusterBank(specs, 1000.0), ThrusterBank(specs, 1000.0)
    assert fast._scalar_step is not None
    slow._scalar_step = None  # the numpy path
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


REXROV = 'test/corpus/uuv_simulator/rexrov_like.urdf.xacro'


def _uuv_banks(stiff=False, **changes):
    # a rate limit is a rotor model of its own: not on the thrusters with rotor dynamics
    specs = [dataclasses.replace(s, **{k: v for k, v in changes.items()
                                       if k != 'max_cmd_rate' or not s.dynamics_type})
             for s in load_vehicle(REXROV).thrusters]
    if stiff:  # Yoerger alpha 500: |df/dw| = 2 alpha |w| ~ 4e3 1/s, stiff at h = 0.5 s / 200
        specs = [dataclasses.replace(s, dynamics_terms=(500.0, 8.0))
                 if s.dynamics_type == 'Yoerger' else s for s in specs]
    fast, slow = ThrusterBank(specs, 1028.0), ThrusterBank(specs, 1028.0)
    assert fast._scalar_step is not None and not fast.sees_inflow
    slow._scalar_step = None  # the numpy path
    return fast, slow


@pytest.mark.parametrize('changes', [
    {},                                               # the corpus RexROV as written
    {'deadband': 5.0, 'torque_per_thrust': 0.03},    # deadband, reaction torque
    {'max_cmd_rate': 500.0},                          # rate limits on the lagged ones
    {'stiff': True},                                  # a stiff rotor: backward Euler
])
def test_uuv_scalar_step_equals_the_numpy_step(changes):
    fast, slow = _uuv_banks(**changes)
    models = {s.model for s in fast.specs}
    dynamics = {s.dynamics_type for s in fast.specs}
    assert models == {'uuv_basic', 'uuv_bessa', 'table'}, models
    assert {'Yoerger', 'Bessa'} <= dynamics and fast.time_constant.max() > 0.0, dynamics
    rng = np.random.default_rng(11)
    n = len(fast)
    for k in range(400):
        u = rng.uniform(-1500.0, 1500.0, n)   # beyond the limits at both ends too
        if k % 7 == 0:
            u[rng.integers(n)] = math.nan      # no command: neutral
        if k % 13 == 0:
            u[:] = 0.0                         # back to neutral (the dead zones)
        if k == 200:
            fast.deadband_enabled[1] = slow.deadband_enabled[1] = False
        # 1 kHz, then 10 ms (more rotor sub-steps), then 0.5 s (stiff: backward Euler)
        dt = 1e-3 if k < 250 else 0.01 if k < 350 else 0.5
        w_fast, w_slow = fast.step(u, dt), slow.step(u, dt)
        scale = max(1.0, float(np.max(np.abs(w_slow))))
        assert np.allclose(w_fast, w_slow, rtol=0, atol=1e-12 * scale), (k, w_fast - w_slow)
        assert np.allclose(fast.state, slow.state, rtol=1e-13, atol=1e-12), k
        assert np.allclose(fast.thrust, slow.thrust, rtol=1e-13, atol=1e-12), k
        assert np.allclose(fast.torque, slow.torque, rtol=1e-13, atol=1e-12), k
        assert np.allclose(fast.omega, slow.omega, rtol=1e-13, atol=1e-12, equal_nan=True), k


def test_odd_root_is_the_banks():
    rng = np.random.default_rng(3)
    for _ in range(2000):
        r, q = rng.uniform(0.0, 5.0, 2) * rng.integers(0, 2, 2)
        if r == q == 0.0:
            continue
        p = rng.normal() * 10.0 ** rng.integers(-6, 6)
        x = odd_root(float(r), float(q), float(p))
        assert x == pytest.approx(float(odd_quadratic_root(r, q, p)), rel=1e-15, abs=0.0)
        # the root solves r x|x| + q x = p
        assert r * x * abs(x) + q * x == pytest.approx(p, rel=1e-12, abs=1e-300)
    assert odd_root(1.0, 0.0, math.inf) == math.inf and odd_root(1.0, 0.0, 0.0) == 0.0
