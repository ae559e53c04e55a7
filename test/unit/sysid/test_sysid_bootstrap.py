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
``fit --bootstrap``: moving-block bootstrap of the fit, serial and on Dask.

On a synthetic regression with independent rows the resampled spread must match the
least-squares standard error (sigma^2 (A^T A)^-1); the resamples depend on (seed,
index) only, so 2 Dask workers give the serial estimates; the CLI prints the intervals
and they contain the true coefficients of a simulated bag.
"""

import numpy as np
import pytest
from required_modules import require

from uwv_hydro.sweep.bootstrap_runner import run_bootstrap
from uwv_hydro.sysid.bootstrap import (block_length, percentile_intervals,
                                       resample_estimates, resample_rows)
from uwv_hydro.sysid.fit import Regression


@pytest.fixture(scope='module')
def synthetic():
    """Return y = phi x + iid noise (sigma 0.5) on 6 axes, 3 unknowns, 400 rows."""
    rng = np.random.default_rng(4)
    n, p = 400, 3
    phi = rng.normal(size=(n, 6, p))
    x = np.array([2.0, 0.5, 1.5])
    y = np.einsum('nap,p->na', phi, x) + 0.5 * rng.normal(size=(n, 6))
    return Regression(phi, y, np.array([True, True, True]), 0.0, 1.0), x


def test_resample_rows_are_blocks_of_the_series():
    """Rows come in runs of L consecutive indices, n of them, all valid."""
    rows = resample_rows(103, 5, seed=3, index=7)
    assert rows.shape == (103,) and rows.min() >= 0 and rows.max() < 103
    blocks = rows[:100].reshape(20, 5)
    np.testing.assert_array_equal(np.diff(blocks, axis=1), 1)
    np.testing.assert_array_equal(rows, resample_rows(103, 5, seed=3, index=7))
    assert not np.array_equal(rows, resample_rows(103, 5, seed=3, index=8))


def test_bootstrap_spread_matches_the_least_squares_error(synthetic):
    """Independent rows (L = 1): bootstrap std = sigma sqrt(diag((A^T A)^-1)) to 20 %."""
    reg, x = synthetic
    assert block_length(reg) == 1
    est = run_bootstrap(reg, 300, seed=1)
    a = reg.phi.reshape(-1, 3)
    resid = reg.y.reshape(-1) - a @ np.linalg.lstsq(a, reg.y.reshape(-1), rcond=None)[0]
    sigma2 = resid @ resid / (a.shape[0] - 3)
    analytic = np.sqrt(sigma2 * np.diag(np.linalg.inv(a.T @ a)))
    # std of a 300-sample standard deviation: ~ 1 / sqrt(2 * 300) = 4 %; 20 % is 5 of those
    np.testing.assert_allclose(est.std(axis=0, ddof=1), analytic, rtol=0.2)
    ci = percentile_intervals(est)
    assert np.all((ci[:, 0] < x) & (x < ci[:, 1])), (ci, x)


def test_bootstrap_on_two_workers_gives_the_serial_estimates(synthetic):
    """
    Resample k depends on (seed, k) only: 2 Dask workers, other chunks, same numbers.

    Each resample runs the same solve on the same rows; the solve calls LAPACK/BLAS,
    whose threading could in principle round differently, hence 1e-12 relative.
    """
    require('distributed')
    from distributed import Client, LocalCluster
    reg, _ = synthetic
    serial = run_bootstrap(reg, 24, seed=5, chunk=24)
    np.testing.assert_allclose(resample_estimates(reg, 5, 9, 13), serial[9:13], rtol=1e-12)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        done = []
        dist = run_bootstrap(reg, 24, seed=5, chunk=5, client=client,
                             on_chunk=done.append)
    assert sorted(done) == [4, 5, 5, 5, 5]
    np.testing.assert_allclose(dist, serial, rtol=1e-12, atol=0.0)


def test_fit_cli_bootstrap_intervals(tmp_path):
    """``fit --bootstrap 40 --workers 0``: a line per coefficient; the truth inside most."""
    from test_sysid_fit import record, run_cli, VEHICLE
    from uwv_hydro.description.loader import load_vehicle
    from uwv_hydro.sysid import regressors
    truth = load_vehicle(str(VEHICLE))
    bag = tmp_path / 'bag'
    record(truth, bag, duration=30.0)
    proc = run_cli('fit', bag, '--vehicle', VEHICLE, '--terms', 'quadratic,added_mass',
                   '--bootstrap', '40', '--workers', '0', '--validation-fraction', '0',
                   '--keep-unidentified', '--out', tmp_path / 'fitted.yaml')
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.split('bootstrap: 40 resamples')[1].splitlines()[2:]
    inside = 0
    for c in regressors.select(('quadratic', 'added_mass')):
        row = [ln.split() for ln in lines if ln.split() and ln.split()[0] == c.tag]
        assert row, (c.tag, proc.stdout)
        value, low, high = float(row[0][1]), float(row[0][3]), float(row[0][4])
        assert low <= value <= high
        inside += low <= float(regressors.read(truth, [c])[0]) <= high
    # 12 coefficients, 95 % intervals each (40 resamples): most contain the truth
    assert inside >= 9, proc.stdout
