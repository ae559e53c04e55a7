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

"""Current fields in the simulate mode: drift in a linear shear, a tide, fourth order."""
import math

import numpy as np

from uwv_hydro.modes.simulate_mode import SimulateMode
from uwv_hydro.physics.body.dynamics import State
from uwv_hydro.physics.body.vehicle_params import VehicleParams
from uwv_hydro.physics.environment.current_field import DepthProfileCurrent, TidalCurrent
from uwv_hydro.physics.environment.current_grid import GridCurrent

M, A = 40.0, 60.0          # rigid-body mass, isotropic added mass (kg)
BETA = A / (M + A)          # share of the water's acceleration the body follows
DEEP = [0.0, 0.0, -50.0]


def _neutral():
    """Return a neutral body without drag: com = cob = origin, isotropic added mass."""
    return VehicleParams(mass=M, inertia=np.diag([2.0, 2.0, 2.0]), gravity=0.0,
                         added_mass=np.diag([A, A, A, 1.0, 1.0, 1.0]))


class _Shear(GridCurrent):
    """v_c = [gamma (y - y0), 0, 0] everywhere (a two-point grid, exact and affine)."""

    def __init__(self, gamma):
        big = 1e4
        pts = [(x, y, z) for x in (-big, big) for y in (-big, big) for z in (-big, big)]
        vals = [(gamma * y, 0.0, 0.0) for x, y, z in pts]
        super().__init__(np.zeros(len(pts)), pts, vals, static_time=True)


def test_shear_drift_is_the_exact_polynomial():
    """
    (m + a) dv/dt = a Dv_c/Dt = a G v with G = gamma e_x e_y^T (nilpotent, G^2 = 0).

    Exact: v(t) = (I + beta G t) v0, so v_x = u0 + beta gamma v0 t, v_y = v0 and
    x(t) = x0 + u0 t + beta gamma v0 t^2 / 2; RK4 is exact on it (to rounding).
    """
    gamma, u0, v0, dt, n = 0.05, 0.3, 0.4, 0.05, 400
    mode = SimulateMode(_neutral(), dt=dt, initial=State(DEEP, twist=[u0, v0, 0, 0, 0, 0]))
    mode.field = _Shear(gamma)
    rows = np.empty((n, 13))
    assert mode.run(None, n, rows=rows) == n
    t = dt * np.arange(1, n + 1)
    x = u0 * t + BETA * gamma * v0 * t * t / 2.0
    err_x = np.max(np.abs(rows[:, 0] - x))
    err_u = np.max(np.abs(rows[:, 7] - (u0 + BETA * gamma * v0 * t)))
    # rounding over 400 steps of a 20 m path
    assert err_x < 1e-10 and err_u < 1e-12, (err_x, err_u)
    assert np.max(np.abs(rows[:, 1] - v0 * t)) < 1e-10
    # no torque: an isotropic body does not turn
    assert np.max(np.abs(rows[:, 10:13])) < 1e-12


def test_sinking_through_a_depth_shear_is_the_exact_polynomial():
    """
    v_c,x = c0 + s d = c0 - s z (a depth profile); sinking at w0: Dv_c/Dt = -s w0 (G p_dot).

    u(t) = u0 - beta s w0 t, x(t) = u0 t - beta s w0 t^2 / 2, z(t) = z0 + w0 t.
    """
    s_, c0, u0, w0, dt, n = 0.004, 0.6, 0.2, -0.3, 0.05, 400
    field = DepthProfileCurrent([0.0, 1000.0], [[c0, 0.0, 0.0], [c0 + s_ * 1000.0, 0, 0]])
    mode = SimulateMode(_neutral(), dt=dt, initial=State(DEEP, twist=[u0, 0, w0, 0, 0, 0]))
    mode.field = field
    rows = np.empty((n, 13))
    assert mode.run(None, n, rows=rows) == n
    t = dt * np.arange(1, n + 1)
    assert np.max(np.abs(rows[:, 2] - (DEEP[2] + w0 * t))) < 1e-10
    assert np.max(np.abs(rows[:, 7] - (u0 - BETA * s_ * w0 * t))) < 1e-12
    assert np.max(np.abs(rows[:, 0] - (u0 * t - BETA * s_ * w0 * t * t / 2.0))) < 1e-10


def test_body_moving_with_the_shear_drifts_with_the_water():
    """At rest relative to a depth shear v_c(z): p_dot = v_c(z0), no force, x = v_c(z0) t."""
    field = DepthProfileCurrent([0.0, 100.0], [[0.5, 0.0, 0.0], [0.1, 0.0, 0.0]])
    water = 0.5 + (0.1 - 0.5) * 50.0 / 100.0
    mode = SimulateMode(_neutral(), dt=0.1, initial=State(DEEP, twist=[water, 0, 0, 0, 0, 0]))
    mode.field = field
    mode.run(None, 600)
    assert abs(mode.x[0] - water * 60.0) < 1e-9
    assert abs(mode.x[7] - water) < 1e-12


def _tide_run(dt, duration=120.0, period=75.0):
    """
    Fly a neutral body without drag from rest in the tide v_c = A cos(omega t) e_x.

    Fossen 2011 sec. 10.3, relative velocity nu_r = nu - v_c: (M_RB + M_A) nu_r_dot =
    -M_RB v_c_dot with no other force, i.e. (m + a) dv/dt = a dv_c/dt.  From rest:
    v(t) = beta (v_c(t) - v_c(0)) = beta A (cos(omega t) - 1) and
    x(t) = beta A (sin(omega t) / omega - t).  Return the largest errors on v and x.
    """
    amp = 0.3
    omega = 2.0 * math.pi / period
    tide = TidalCurrent(constituents=[([amp, 0.0, 0.0], period, 0.0)])
    mode = SimulateMode(_neutral(), dt=dt, initial=State(DEEP))
    mode.field = tide
    n = int(round(duration / dt))
    rows = np.empty((n, 13))
    mode.run(None, n, rows=rows)
    t = dt * np.arange(1, n + 1)
    v = BETA * amp * (np.cos(omega * t) - 1.0)
    x = BETA * amp * (np.sin(omega * t) / omega - t)
    return np.max(np.abs(rows[:, 7] - v)), np.max(np.abs(rows[:, 0] - x))


def test_tide_drives_the_body_through_added_mass_fourth_order():
    """
    Follow the closed form; halving dt divides the error by 16 (RK4's fourth order).

    The stage current is the cubic Hermite curve through the values and rates at both
    ends of the step (physics.environment.current_field.linearise): its error is O(h^4) per stage.
    """
    v_err, x_err = _tide_run(0.05)
    # period 75 s, 120 s on a 36 m path: within 1e-8 m at dt 0.05 (was 1.3e-5 m with the
    # first-order stage current v0 + a0 s); v follows the rate the stages integrate
    assert x_err < 1e-8 and v_err < 1e-11, (x_err, v_err)
    # the order, where the truncation error stands above rounding: a 10 s period
    _, coarse = _tide_run(0.2, period=10.0)
    _, fine = _tide_run(0.1, period=10.0)
    assert 12.0 < coarse / fine < 20.0, (coarse, fine)


def test_tide_added_mass_force_is_m_a_times_the_tide_rate():
    """Body at rest beside an engine: added_mass = M_A,O [dv_c/dt, 0] (Fossen sec. 10.3)."""
    from uwv_hydro.modes.wrench_mode import WrenchMode
    amp, period, phase = np.array([0.3, -0.2, 0.05]), 40.0, 0.7
    added = np.diag([A, 1.3 * A, 2.0 * A, 1.0, 2.0, 3.0])
    params = VehicleParams(mass=M, inertia=np.diag([2.0, 2.0, 2.0]), gravity=0.0,
                           added_mass=added)
    mode = WrenchMode(params)
    mode.field = TidalCurrent(constituents=[(amp, period, phase)])
    omega = 2.0 * math.pi / period
    times = np.linspace(0.0, 80.0, 33)
    q = np.array([1.0, 0.0, 0.0, 0.0])
    for t in times:
        wc = mode.evaluate(t, DEEP, q, np.zeros(6))
        # d/dt A cos(omega t - phi) = -A omega sin(omega t - phi)
        rate = -amp * omega * math.sin(omega * t - phase)
        expected = added[:, :3] @ rate
        err = np.max(np.abs(wc.components['added_mass'] - expected))
        assert err < 1e-12 * A, (t, err)
    # the batch path gives the same per-sample currents
    mode.reset()
    comps = mode.evaluate_many(times, np.tile(DEEP, (len(times), 1)),
                               np.tile(q, (len(times), 1)), np.zeros((len(times), 6)))
    for k, t in enumerate(times):
        rate = -amp * omega * math.sin(omega * t - phase)
        assert np.max(np.abs(comps[k, 4] - added[:, :3] @ rate)) < 1e-12 * A


def test_field_time_origins():
    """start: 0 at the first sample / clock start; clock: the clock's seconds as they are."""
    from uwv_hydro.modes.wrench_mode import WrenchMode
    amp, period = np.array([0.3, 0.0, 0.0]), 40.0
    omega = 2.0 * math.pi / period
    q = [1.0, 0.0, 0.0, 0.0]
    for origin, field_t in (('start', 0.0), ('clock', 7.0)):
        mode = WrenchMode(_neutral())
        mode.field = TidalCurrent(constituents=[(amp, period, 0.0)], time_origin=origin)
        mode.evaluate(7.0, DEEP, q, np.zeros(6))
        velocity, rate = mode.last_current
        assert abs(velocity[0] - amp[0] * math.cos(omega * field_t)) < 1e-15
        assert abs(rate[0] + amp[0] * omega * math.sin(omega * field_t)) < 1e-15
        sim = SimulateMode(_neutral(), dt=0.01, initial=State(DEEP))
        sim.field = mode.field
        sim.advance(7 * 10 ** 9)              # starts the clock
        sim.advance(7 * 10 ** 9 + 3 * 10 ** 7)  # three steps
        assert abs(sim.t - (field_t + 0.03)) < 1e-12, (origin, sim.t)
