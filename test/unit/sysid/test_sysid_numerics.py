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

"""Building blocks of the fit: smoothing, bounded least squares, regressor columns."""

import copy
import itertools

from conftest import REPO
import numpy as np
import pytest
from uwv_hydro.description.loader import load_vehicle
from uwv_hydro.physics.hydro.hydro_model import HydroModel
from uwv_hydro.sysid import regressors
from uwv_hydro.sysid.bounded_least_squares import bounded_lstsq
from uwv_hydro.sysid.differentiation import noise_std, savgol


def test_savgol_is_exact_on_cubics_including_the_edges():
    t = np.arange(0.0, 3.0, 0.01)
    x = 1.0 - 2.0 * t + 0.5 * t ** 2 - 0.3 * t ** 3
    for deriv, want in ((0, x), (1, -2.0 + t - 0.9 * t ** 2), (2, 1.0 - 1.8 * t)):
        np.testing.assert_allclose(savgol(x, 21, 3, deriv, 0.01), want, atol=1e-8)
    two = np.column_stack([x, 2 * x])
    np.testing.assert_allclose(savgol(two, 11, 3)[:, 1], 2 * x, atol=1e-9)
    with pytest.raises(ValueError):
        savgol(x, 20, 3)


def test_noise_std_ignores_smooth_signal_and_kinks():
    rng = np.random.default_rng(0)
    t = np.arange(0.0, 20.0, 0.02)
    signal = np.sin(t) + np.abs(np.sin(0.5 * t))   # kinks every 2 pi
    x = signal + 0.004 * rng.standard_normal(t.size)
    assert noise_std(x) == pytest.approx(0.004, rel=0.1)
    assert noise_std(signal) < 1e-4


def test_bounded_lstsq_matches_brute_force_active_sets():
    rng = np.random.default_rng(1)
    for trial in range(20):
        a = rng.standard_normal((60, 5))
        b = a @ rng.uniform(-1, 1, 5) + 0.1 * rng.standard_normal(60)
        nonneg = np.array([True, False, True, True, False])
        sol = bounded_lstsq(a, b, nonneg)
        best = None
        for mask in itertools.product([False, True], repeat=3):
            cols = [1, 4] + [j for j, m in zip((0, 2, 3), mask) if m]
            x = np.zeros(5)
            x[cols] = np.linalg.lstsq(a[:, cols], b, rcond=None)[0]
            if np.all(x[nonneg] >= 0):
                r = np.linalg.norm(a @ x - b)
                if best is None or r < best[0]:
                    best = (r, x)
        np.testing.assert_allclose(sol.x, best[1], atol=1e-9)
        assert np.all(sol.x[nonneg] >= 0.0)
        np.testing.assert_array_equal(sol.at_bound, nonneg & (sol.x == 0.0))


def test_columns_reproduce_the_physics_with_offset_reference_points():
    """sum_j theta_j phi_j equals the HydroModel's drag + added-mass wrench."""
    p = load_vehicle(str(REPO / 'config' / 'small_rov.yaml'))
    p.drag_center = np.array([0.1, -0.05, 0.02])
    p.drag_velocity_point = np.array([-0.03, 0.0, 0.04])
    p.added_mass_point = np.array([0.05, 0.02, -0.01])
    coefficients = regressors.select(regressors.TERMS, coupled=True)
    assert len(coefficients) == 3 * 6 + 30 + 30 + 15
    rng = np.random.default_rng(2)
    truth = rng.uniform(0.5, 2.0, len(coefficients))
    fitted = copy.deepcopy(p)
    for term in regressors.TERMS:
        setattr(fitted, regressors.TERM_FIELDS[term],
                np.zeros_like(getattr(p, regressors.TERM_FIELDS[term])))
    regressors.apply(fitted, coefficients, truth)
    np.testing.assert_array_equal(regressors.read(fitted, coefficients), truth)
    nu = rng.uniform(-1, 1, (7, 6))
    nu_dot = rng.uniform(-1, 1, (7, 6))
    phi = regressors.columns(coefficients, fitted, nu, nu_dot)
    model = HydroModel(fitted)
    for k in range(7):
        c = model.wrench(nu[k], None, None, nu_dot[k]).components
        want = sum(c[n] for n in ('linear_drag', 'quadratic_drag', 'added_mass',
                                  'added_mass_coriolis'))
        np.testing.assert_allclose(phi[k] @ truth, want, rtol=1e-12, atol=1e-12)
