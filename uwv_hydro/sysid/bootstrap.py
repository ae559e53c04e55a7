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
Bootstrap confidence intervals of a fit: the regression refitted on resampled rows.

Moving-block bootstrap (Kuensch 1989, "The jackknife and the bootstrap for general
stationary observations"): the smoothed samples are correlated, so resample n rows as
consecutive blocks of L = ceil(tau_int) samples (tau_int the residual's integrated
autocorrelation time), block starts uniform; each resample is solved exactly as the fit
(two-pass axis-weighted bounded least squares).  Resample k draws from
``Generator(PCG64(SeedSequence([seed, k])))`` only, so the estimates do not depend on
how the resamples are split over processes.  The interval is the 2.5 / 97.5
percentiles of the resampled estimates (percentile bootstrap, Efron & Tibshirani 1993
ch. 13).
"""

import math

import numpy as np

from uwv_hydro.sysid.fit import _solve


def block_length(regression) -> int:
    """Return the block length L (samples) for ``regression``."""
    n = regression.y.shape[0]
    return int(max(1, min(n // 4, math.ceil(regression.autocorrelation_time))))


def resample_rows(n: int, length: int, seed: int, index: int) -> np.ndarray:
    """Return the row indices of resample ``index``: ceil(n / L) blocks, cut to n."""
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, index])))
    starts = rng.integers(0, n - length + 1, size=-(-n // length))
    return (starts[:, None] + np.arange(length)[None, :]).ravel()[:n]


def resample_estimates(regression, seed: int, start: int, stop: int) -> np.ndarray:
    """Return the (stop - start, p) estimates of resamples [start, stop)."""
    n = regression.y.shape[0]
    length = block_length(regression)
    out = np.empty((stop - start, regression.phi.shape[2]))
    for row, k in enumerate(range(start, stop)):
        rows = resample_rows(n, length, seed, k)
        sol, _ = _solve(regression.phi[rows], regression.y[rows], regression.nonneg,
                        regression.ridge)
        out[row] = sol.x
    return out


def percentile_intervals(estimates: np.ndarray, level: float = 0.95) -> np.ndarray:
    """Return (p, 2) lower and upper percentiles of the resampled estimates."""
    tail = 50.0 * (1.0 - level)
    return np.percentile(estimates, [tail, 100.0 - tail], axis=0).T
