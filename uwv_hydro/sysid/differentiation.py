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
Savitzky-Golay smoothing and differentiation of uniformly sampled signals.

A window of ``2 h + 1`` samples is fitted, in the least-squares sense, with a
polynomial of degree ``order`` in the sample offset k = -h..h; the smoothed value and
its derivatives are the polynomial's value and derivatives at k = 0 (Savitzky and
Golay 1964).  Because the fit is linear in the data, this is a convolution with a
fixed kernel: c_d = d! [(A^T A)^-1 A^T]_d / dt^d with A_kj = k^j.  The first and last
``h`` samples use the polynomial of the first/last full window evaluated off-centre.

:func:`noise_std` estimates white measurement noise robustly from third differences.
"""

import math

import numpy as np


def _design(half: int, order: int) -> np.ndarray:
    k = np.arange(-half, half + 1, dtype=float)
    return np.vander(k, order + 1, increasing=True)


def _check(window: int, order: int, n: int) -> int:
    if window < 3 or window % 2 == 0:
        raise ValueError('window must be odd and >= 3, got %d' % window)
    if not 0 <= order < window:
        raise ValueError('polynomial order must be in [0, window), got %d' % order)
    if n < window:
        raise ValueError('need at least %d samples for a window of %d, got %d'
                         % (window, window, n))
    return window // 2


def savgol_kernel(window: int, order: int, deriv: int = 0, dt: float = 1.0) -> np.ndarray:
    """Return the centre weights c (len ``window``): y[i] = sum_k c[k] x[i - h + k]."""
    half = _check(window, order, window)
    if deriv > order:
        return np.zeros(window)
    pinv = np.linalg.pinv(_design(half, order))
    # Savitzky-Golay: d-th derivative at the centre = d! * (polynomial coefficient d)
    return pinv[deriv] * math.factorial(deriv) / dt ** deriv


def savgol(x, window: int, order: int, deriv: int = 0, dt: float = 1.0) -> np.ndarray:
    """
    Return the Savitzky-Golay smoothed signal (deriv 0) or its ``deriv``-th derivative.

    ``x`` is (n,) or (n, m) sampled every ``dt``; the result has the same shape.
    """
    x = np.asarray(x, dtype=float)
    flat = x.reshape(x.shape[0], -1)
    n = flat.shape[0]
    half = _check(window, order, n)
    out = np.empty_like(flat)
    if deriv > order:
        out[:] = 0.0
        return out.reshape(x.shape)
    c = savgol_kernel(window, order, deriv, dt)
    # Interior: correlation with the centre kernel, one column at a time
    for j in range(flat.shape[1]):
        out[half:n - half, j] = np.correlate(flat[:, j], c, mode='valid')
    # Edges: derivative of the polynomial fitted to the first / last full window
    design = _design(half, order)
    pinv = np.linalg.pinv(design)
    k = np.arange(-half, half + 1, dtype=float)
    powers = np.arange(order + 1)
    scale = np.array([math.factorial(p) / math.factorial(p - deriv) if p >= deriv else 0.0
                      for p in powers])
    exps = np.maximum(powers - deriv, 0)
    basis = np.where(powers >= deriv, scale * k[:, None] ** exps, 0.0) / dt ** deriv
    for rows, segment in ((slice(0, half), flat[:window]), (slice(n - half, n),
                                                            flat[n - window:])):
        coeffs = pinv @ segment
        values = basis @ coeffs
        out[rows] = values[:half] if rows.start == 0 else values[half + 1:]
    return out.reshape(x.shape)


def noise_std(x) -> np.ndarray:
    """
    Return the white-noise standard deviation of each column of ``x`` (robust).

    From the third differences d3 = x[k+3] - 3 x[k+2] + 3 x[k+1] - x[k], which cancel
    any locally quadratic signal and have variance 20 s^2 for white noise s; the
    median absolute deviation (times 1.4826) ignores the few samples where the signal
    has a kink (a thrust step), so the estimate is not inflated by the manoeuvre.
    """
    x = np.asarray(x, dtype=float)
    flat = x.reshape(x.shape[0], -1)
    if flat.shape[0] < 8:
        raise ValueError('need at least 8 samples to estimate noise')
    d3 = flat[3:] - 3.0 * flat[2:-1] + 3.0 * flat[1:-2] - flat[:-3]
    mad = np.median(np.abs(d3 - np.median(d3, axis=0)), axis=0)
    # Normal distribution: sigma = 1.4826 MAD; var(d3) = (1 + 9 + 9 + 1) s^2
    std = 1.482602218505602 * mad / np.sqrt(20.0)
    return std.reshape(x.shape[1:])


def derivative_noise_gain(window: int, order: int, deriv: int, dt: float) -> float:
    """Return ||c_d||: white noise s on x becomes noise s * gain on the derivative."""
    return float(np.linalg.norm(savgol_kernel(window, order, deriv, dt)))
