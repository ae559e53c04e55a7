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
Outputs of N runs accumulated step by step (element-wise over the runs).

Every quantity is updated with element-wise operations on arrays of one value per run,
step after step, so a run's outputs are the same float64 values whichever other runs
share its chunk (no reduction across runs, no summation order that depends on N).

* final position: the last state's world ENU position.
* max depth: the largest depth d = -z over all samples (ENU, z up).
* depth overshoot: max depth minus the scenario's ``target_depth`` when given, else
  minus the final depth (how far the run went past where it settled).
* turning diameter: 2 R of the least-squares circle x^2 + y^2 + D x + E y + F = 0
  (Kasa 1976, "A circle fitting procedure and its error analysis") through the
  horizontal track of the second half of the run (after the transient), R =
  sqrt(D^2/4 + E^2/4 - F); NaN when that arc spans less than 90 degrees (L / R < pi/2,
  L the path length): no turn to measure.
* energy: the integral of |tau . nu| (mechanical power of the applied body wrench on
  the body twist), trapezoidal over each step with tau held (J).
* broach: the depth was < 0 (z > 0, above the surface) at some sample.
"""

import math

import numpy as np


class Reducer:
    """Accumulate the outputs of ``n`` runs over ``steps`` steps of ``dt``."""

    def __init__(self, n: int, steps: int, dt: float, target_depth=None):
        """Start empty; ``target_depth`` (m) is the depth overshoot's reference."""
        self.n, self.steps, self.dt = n, steps, dt
        self.target_depth = target_depth
        self.window_start = steps // 2
        self.max_depth = np.full(n, -np.inf)
        self.broach = np.zeros(n, dtype=bool)
        self.energy = np.zeros(n)
        # sums of the circle fit, track relative to its first window point
        self._origin = None
        self._sums = np.zeros((9, n))   # x y xx xy yy xr yr r count
        self._length = np.zeros(n)
        self._last_xy = None
        self.final = None

    def start(self, position) -> None:
        """Take the initial positions (N, 3)."""
        self._sample(0, position)

    def _sample(self, k, position):
        z = position[:, 2]
        self.max_depth = np.maximum(self.max_depth, -z)
        self.broach |= z > 0.0
        if k >= self.window_start:
            xy = position[:, :2]
            if self._origin is None:
                self._origin = xy.copy()
            else:
                d = xy - self._last_xy
                self._length += np.sqrt(d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1])
            self._last_xy = xy.copy()
            x = xy[:, 0] - self._origin[:, 0]
            y = xy[:, 1] - self._origin[:, 1]
            r = x * x + y * y
            for row, term in enumerate((x, y, x * x, x * y, y * y, x * r, y * r, r)):
                self._sums[row] += term
            self._sums[8] += 1.0
        self.final = position

    def step(self, k, nu0, nu1, tau, position) -> None:
        """Take step k (from sample k - 1 to k): twists before/after, (N, 6) wrench, positions."""
        # P = tau . nu, trapezoid over the step with tau held; the dot products are
        # summed term by term (a BLAS product may round rows differently by position)
        p0 = tau[:, 0] * nu0[:, 0]
        p1 = tau[:, 0] * nu1[:, 0]
        for j in range(1, 6):
            p0 = p0 + tau[:, j] * nu0[:, j]
            p1 = p1 + tau[:, j] * nu1[:, j]
        self.energy += np.abs(0.5 * (p0 + p1)) * self.dt
        self._sample(k, position)

    def turning_diameter(self) -> np.ndarray:
        """Return 2 R of the Kasa circle fit of the window (NaN where no turn)."""
        sx, sy, sxx, sxy, syy, sxr, syr, sr, cnt = self._sums
        # normal equations of [x y 1] [D E F]^T = -(x^2 + y^2)
        a = np.stack([np.stack([sxx, sxy, sx], -1), np.stack([sxy, syy, sy], -1),
                      np.stack([sx, sy, cnt], -1)], -2)
        b = -np.stack([sxr, syr, sr], -1)
        out = np.full(self.n, np.nan)
        det = np.linalg.det(a)
        ok = np.isfinite(det) & (np.abs(det) > 0.0)
        if np.any(ok):
            sol = np.linalg.solve(a[ok], b[ok][..., None])[..., 0]
            r2 = 0.25 * sol[:, 0] ** 2 + 0.25 * sol[:, 1] ** 2 - sol[:, 2]
            radius = np.sqrt(np.where(r2 > 0.0, r2, np.nan))
            arc = self._length[ok] / radius
            out[ok] = np.where(arc >= 0.5 * math.pi, 2.0 * radius, np.nan)
        return out

    def outputs(self):
        """Return a dict column -> (N,) array of every output."""
        depth_ref = (-self.final[:, 2] if self.target_depth is None
                     else np.full(self.n, float(self.target_depth)))
        return {
            'final_x': self.final[:, 0].copy(), 'final_y': self.final[:, 1].copy(),
            'final_z': self.final[:, 2].copy(),
            'max_depth': self.max_depth.copy(),
            'depth_overshoot': self.max_depth - depth_ref,
            'turning_diameter': self.turning_diameter(),
            'energy': self.energy.copy(),
            'broach': self.broach.copy(),
        }
