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
Can the data identify a coefficient?  Two checks, both naming the axis concerned.

1. Excitation (before fitting).  A drag coefficient needs motion in its velocity axis,
   an added-mass coefficient acceleration in its axis.  The RMS of that signal over the
   fitted samples is compared with the odometry noise (estimated from the residual of
   the Savitzky-Golay smoothing, :func:`uwv_hydro.sysid.differentiation.noise_std`;
   for accelerations propagated through the differentiating filter).  Below
   ``min_excitation`` times the noise the axis is "not excited".
2. Uncertainty (after fitting).  The 95 % confidence half-width of the coefficient,
   times the RMS of its regressor column, is the force (or moment) the data leave
   undetermined; above ``max_uncertainty`` times the RMS of the measured hydrodynamic
   force on that axis the coefficient is not identified (typically: two terms the
   manoeuvre cannot separate, e.g. linear and quadratic drag at one speed).  The most
   correlated other regressor is named.
"""

from dataclasses import dataclass
from typing import List, Optional, Sequence

import numpy as np

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.sysid.regressors import (AXIS_NAMES, AXIS_SYMBOLS, AXIS_VELOCITY_UNITS,
                                        Coefficient)


@dataclass
class Unidentified:
    """A coefficient the data cannot identify, and why."""

    coefficient: Coefficient
    reason: str

    def message(self) -> str:
        """Return 'cannot identify <what>: <reason>'."""
        return 'cannot identify %s: %s' % (self.coefficient.describe(), self.reason)


class IdentificationError(DescriptionError):
    """The bag cannot identify the requested coefficients (CLI exit code 2)."""

    def __init__(self, problems: Sequence[Unidentified], source: str = '', hint: str = ''):
        self.problems = list(problems)
        lines = [p.message() for p in self.problems]
        text = lines[0] if len(lines) == 1 else '\n  ' + '\n  '.join(lines)
        if hint:
            text += '\n  ' + hint
        super().__init__(text, source)


def excitation_problems(coefficients: Sequence[Coefficient], velocity, acceleration,
                        velocity_noise, acceleration_noise,
                        min_excitation: float) -> List[Unidentified]:
    """Return the coefficients whose motion axis is not excited above the noise."""
    velocity = np.asarray(velocity, float)
    acceleration = np.asarray(acceleration, float)
    rms_v = np.sqrt(np.mean(velocity ** 2, axis=0))
    rms_a = np.sqrt(np.mean(acceleration ** 2, axis=0))
    max_v = np.max(np.abs(velocity), axis=0)
    max_a = np.max(np.abs(acceleration), axis=0)
    out = []
    for c in coefficients:
        axes = c.motion_axes
        if c.term == 'added_mass':
            # A symmetric coupled pair is seen through either axis' acceleration
            ok = any(rms_a[i] > min_excitation * acceleration_noise[i] for i in axes)
            if not ok:
                i = axes[0]
                out.append(Unidentified(c, 'the bag has no %s acceleration (max |d%s/dt| = '
                                        '%.2g %s/s, noise %.2g %s/s)'
                                        % (AXIS_NAMES[i], AXIS_SYMBOLS[i], max_a[i],
                                           AXIS_VELOCITY_UNITS[i], acceleration_noise[i],
                                           AXIS_VELOCITY_UNITS[i])))
            continue
        i = axes[0]
        if not rms_v[i] > min_excitation * velocity_noise[i]:
            out.append(Unidentified(c, 'the bag has no %s motion (max |%s| = %.2g %s, '
                                    'odometry noise %.2g %s)'
                                    % (AXIS_NAMES[i], AXIS_SYMBOLS[i], max_v[i],
                                       AXIS_VELOCITY_UNITS[i], velocity_noise[i],
                                       AXIS_VELOCITY_UNITS[i])))
    return out


def uncertainty_problems(coefficients: Sequence[Coefficient], phi, measured, half_width,
                         max_uncertainty: float,
                         skip: Optional[Sequence[bool]] = None) -> List[Unidentified]:
    """
    Return the coefficients whose confidence interval leaves too much force undetermined.

    ``phi`` (n, 6, p) regressor columns, ``measured`` (n, 6) hydrodynamic wrench,
    ``half_width`` (p,) 95 % confidence half-widths.
    """
    phi = np.asarray(phi, float)
    flat = phi.reshape(-1, phi.shape[2])
    norms = np.linalg.norm(flat, axis=0)
    norms[norms == 0.0] = 1.0
    corr = (flat / norms).T @ (flat / norms)
    rms_y = np.sqrt(np.mean(np.asarray(measured, float) ** 2, axis=0))
    out = []
    for j, c in enumerate(coefficients):
        if skip is not None and skip[j]:
            continue
        a = c.output_axis
        rms_col = float(np.sqrt(np.mean(phi[:, a, j] ** 2)))
        undetermined = half_width[j] * rms_col
        if rms_y[a] > 0.0 and undetermined <= max_uncertainty * rms_y[a]:
            continue
        others = [k for k in range(len(coefficients)) if k != j]
        reason = ('its 95%% confidence interval (+-%.3g %s) leaves %.0f%% of the %s '
                  'hydrodynamic force undetermined (limit %.0f%%)'
                  % (half_width[j], c.units(), 100.0 * undetermined / max(rms_y[a], 1e-300),
                     AXIS_NAMES[a], 100.0 * max_uncertainty))
        if others:
            k = max(others, key=lambda k: abs(corr[j, k]))
            if abs(corr[j, k]) > 0.9:
                reason += ('; the bag does not separate it from %s (regressor correlation '
                           '%.3f)' % (coefficients[k].describe(), corr[j, k]))
        out.append(Unidentified(c, reason))
    return out


def integrated_autocorrelation(residual, max_lag: Optional[int] = None) -> float:
    """
    Return 1 + 2 sum_k rho_k of a residual series (>= 1), summed until rho_k < 0.05.

    n / this is the effective number of independent samples (smoothing and model error
    correlate neighbouring residuals; ignoring it would make the intervals too narrow).
    """
    r = np.asarray(residual, float)
    r = r - r.mean()
    n = r.size
    var = float(r @ r)
    if n < 4 or var == 0.0:
        return 1.0
    max_lag = max_lag or n // 4
    spec = np.fft.rfft(r, 2 * n)
    acf = np.fft.irfft(spec * np.conj(spec))[:max_lag + 1] / var
    total = 1.0
    for k in range(1, max_lag + 1):
        if acf[k] < 0.05:
            break
        total += 2.0 * acf[k]
    return total
