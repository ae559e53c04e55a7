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
gz-sim's current grid: EnvironmentPreload's CSV as the Hydrodynamics system looks it up.

Semantics reproduced from gz-sim (src/systems/environment_preload/EnvironmentPreload.cc,
src/systems/hydrodynamics/Hydrodynamics.cc ``GetWaterCurrentFromEnvironment``) and
gz-math (TimeVaryingVolumetricGridLookupField.hh, VolumetricGridLookupField.hh,
detail/AxisIndex.hh):

* the rows of one time value form one time slice; each slice's points span a grid
  of its unique x, y, z values (a missing grid point, a hole, reads as 0);
* per axis, a coordinate up to 1e-6 below a grid value is that value (AxisIndex:
  lower_bound and its tolerance); further below the first value, or above the last
  by any amount, the point is out of the field;
* inside, trilinear interpolation in the cell (VolumetricGridLookupField);
* in time, linear interpolation between the slices around t (EstimateQuadrilinear);
  when the point is out of one of the two slices, the other alone;
* out of the field, before the first time or after the last, the component is 0
  (gz-sim warns and leaves it at zero); ``static_time`` (``ignore_time``) uses the
  first slice at every time.

The gradient is the derivative of the trilinear form in the cell (at a grid value,
the cell above it, the last cell at the last value); dv/dt the slope between slices.
Coordinates are world ENU metres (EnvironmentPreload ``reference="global"``).
"""
import bisect
from typing import List, Optional, Sequence, Tuple

import numpy as np

from uwv_hydro.physics.environment.current_field import CurrentField, CurrentSample, still_sample

#: gz-math AxisIndex::GetInterpolators default tolerance (per axis).
AXIS_TOLERANCE = 1e-6


def _slope(width: float) -> float:
    """Return d(weight)/d(value) of a cell: 1 / width, 0 below the lookup tolerance."""
    # two grid values closer than AXIS_TOLERANCE are one point to gz-math's lookup: no
    # gradient is resolved between them (and 1 / 1e-320 would overflow)
    return 1.0 / width if width >= AXIS_TOLERANCE else 0.0


def close_pairs(keys: Sequence[float]) -> List[Tuple[float, float]]:
    """Return the neighbouring values of sorted ``keys`` closer than AXIS_TOLERANCE."""
    return [(a, b) for a, b in zip(keys[:-1], keys[1:]) if b - a < AXIS_TOLERANCE]


def _axis(keys: List[float], value: float) -> Optional[Tuple[int, int, float, float]]:
    """
    Return (i0, i1, w, dw/dvalue) of one axis, or None when ``value`` is out of range.

    The value along the axis is (1 - w) f[i0] + w f[i1] (gz-math AxisIndex: lower_bound,
    exact within AXIS_TOLERANCE, else the two neighbours).
    """
    n = len(keys)
    j = bisect.bisect_left(keys, value)  # std::map::lower_bound
    if j == n:
        return None
    if abs(keys[j] - value) < AXIS_TOLERANCE:
        # exact: the grid value itself; the slope of the cell above (last: below)
        if n == 1:
            return 0, 0, 0.0, 0.0
        if j < n - 1:
            return j, j + 1, 0.0, _slope(keys[j + 1] - keys[j])
        return j - 1, j, 1.0, _slope(keys[j] - keys[j - 1])
    if j == 0:
        return None
    width = keys[j] - keys[j - 1]
    return j - 1, j, (value - keys[j - 1]) / width, 1.0 / width


class GridSlice:
    """One time slice: axes (sorted unique x, y, z) and values (nz, ny, nx, 3)."""

    def __init__(self, points: np.ndarray, values: np.ndarray):
        self.axes = [np.unique(points[:, k]) for k in range(3)]
        nx, ny, nz = (len(a) for a in self.axes)
        grid = np.zeros((nz, ny, nx, 3))   # a hole reads as 0 (gz-math _default)
        filled = np.zeros((nz, ny, nx), dtype=bool)
        ix = np.searchsorted(self.axes[0], points[:, 0])
        iy = np.searchsorted(self.axes[1], points[:, 1])
        iz = np.searchsorted(self.axes[2], points[:, 2])
        grid[iz, iy, ix] = values
        filled[iz, iy, ix] = True
        self.values = grid
        self._keys = [a.tolist() for a in self.axes]
        #: number of grid points no row gives (gz-math reads 0 there)
        self.holes = int(filled.size - filled.sum())

    def lookup(self, position) -> Optional[Tuple[np.ndarray, np.ndarray]]:
        """Return (v (3,), G (3, 3)) at ``position``, None when it is out of the slice."""
        cells = []
        for k in range(3):
            c = _axis(self._keys[k], float(position[k]))
            if c is None:
                return None
            cells.append(c)
        (x0, x1, wx, dx), (y0, y1, wy, dy), (z0, z1, wz, dz) = cells
        # the 8 corners (z, y, x, component)
        g = self.values[np.ix_((z0, z1), (y0, y1), (x0, x1))]
        ax, ay, az = np.array([1 - wx, wx]), np.array([1 - wy, wy]), np.array([1 - wz, wz])
        # trilinear interpolation (VolumetricGridLookupField::TrilinearInterpolate)
        v = np.einsum('k,j,i,kjid->d', az, ay, ax, g)
        # its derivatives in the cell: d/dx, d/dy, d/dz of the trilinear form
        ddx = np.einsum('k,j,kjd->d', az, ay, g[:, :, 1] - g[:, :, 0]) * dx
        ddy = np.einsum('k,i,kid->d', az, ax, g[:, 1] - g[:, 0]) * dy
        ddz = np.einsum('j,i,jid->d', ay, ax, g[1] - g[0]) * dz
        return v, np.column_stack([ddx, ddy, ddz])


class GridCurrent(CurrentField):
    """
    gz-sim's EnvironmentPreload current: time slices of scattered grid points.

    ``times`` (N,), ``points`` (N, 3) world ENU, ``values`` (N, 3) (a component gz-sim
    has no ``lookup_current_*`` column for is 0); ``static_time``: EnvironmentPreload
    ``<ignore_time>``.
    """

    kind = 'csv'
    spatial = True

    def __init__(self, times, points, values, static_time: bool = False,
                 time_origin: str = 'start'):
        super().__init__(time_origin)
        times = np.asarray(times, dtype=float).reshape(-1)
        points = np.asarray(points, dtype=float).reshape(len(times), 3)
        values = np.asarray(values, dtype=float).reshape(len(times), 3)
        if len(times) == 0:
            raise ValueError('no data rows')
        self.static_time = bool(static_time)
        self.times = np.unique(times)
        self.slices: List[GridSlice] = [GridSlice(points[times == t], values[times == t])
                                        for t in self.times]
        #: counts of look-ups that found no data (gz-sim warns each time)
        self.misses = {'out_of_field': 0, 'out_of_time': 0}

    def _slice_pair(self, t: float):
        """Return (k, w, inside): slices k, k + 1 with weight w, or None when out of time."""
        times = self.times
        if self.static_time or len(times) == 1:
            return 0, 0.0, False
        if t < times[0] or t > times[-1]:
            return None
        if t == times[-1]:
            return len(times) - 1, 0.0, False
        k = int(np.searchsorted(times, t, side='right')) - 1
        return k, (t - times[k]) / (times[k + 1] - times[k]), True

    def sample(self, position, t) -> CurrentSample:
        """Return the current at ``position`` and ``t`` (zero out of the field or time)."""
        pair = self._slice_pair(float(t))
        if pair is None:
            self.misses['out_of_time'] += 1
            return still_sample()
        k, w, between = pair
        first = self.slices[k].lookup(position)
        second = self.slices[k + 1].lookup(position) if between else None
        if first is None and second is None:
            self.misses['out_of_field'] += 1
            return still_sample()
        if not between or second is None:
            # one slice only (gz-math: the slice that has the point)
            v, g = first
            return CurrentSample(v, np.zeros(3), g)
        if first is None:
            v, g = second
            return CurrentSample(v, np.zeros(3), g)
        (v0, g0), (v1, g1) = first, second
        span = self.times[k + 1] - self.times[k]
        # linear interpolation in time between the two slices, and its slope
        rate = (v1 - v0) / span if span >= AXIS_TOLERANCE else np.zeros(3)  # as _slope
        return CurrentSample((1 - w) * v0 + w * v1, rate, (1 - w) * g0 + w * g1)

    def holes(self) -> int:
        """Return the number of grid points no row gives, over all slices."""
        return sum(s.holes for s in self.slices)

    def close_values(self) -> List[Tuple[str, float, float]]:
        """Return (axis 'x' 'y' 'z' or 't', a, b) of values closer than AXIS_TOLERANCE."""
        out = [('t', a, b) for a, b in close_pairs(self.times.tolist())]
        for k, axis in enumerate('xyz'):
            pairs = {pair for s in self.slices for pair in close_pairs(s.axes[k].tolist())}
            out.extend((axis, a, b) for a, b in sorted(pairs))
        return out


def grid_from_columns(columns: Sequence[np.ndarray], static_time: bool = False,
                      time_origin: str = 'start') -> GridCurrent:
    """Return a GridCurrent from the columns t, x, y, z, vx, vy, vz (each (N,))."""
    t, x, y, z, vx, vy, vz = (np.asarray(c, dtype=float) for c in columns)
    return GridCurrent(t, np.column_stack([x, y, z]), np.column_stack([vx, vy, vz]),
                       static_time=static_time, time_origin=time_origin)
