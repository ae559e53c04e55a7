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
Thrust profiles for offline simulation: constant, or read from a CSV file.

A profile CSV has a header ``t,fx,fy,fz,tx,ty,tz`` (body-frame wrench about the body
origin, N and N m) and rows in increasing t.  The wrench is held from each row's time
until the next row's (zero-order hold, like a thruster driver publishing set-points);
before the first row it is zero.
"""

import bisect
import csv
import math
import pathlib
from typing import Sequence

import numpy as np

from uwv_hydro.description import overflow_bounds as bounds
from uwv_hydro.description.errors import DescriptionError

COLUMNS = ('t', 'fx', 'fy', 'fz', 'tx', 'ty', 'tz')


class ThrustProfile:
    """Piecewise-constant body wrench as a function of time."""

    def __init__(self, times: Sequence[float], wrenches: np.ndarray):
        self.times = [float(t) for t in times]
        self.wrenches = np.asarray(wrenches, float).reshape(len(self.times), 6)
        self._zero = np.zeros(6)

    @classmethod
    def constant(cls, wrench: Sequence[float]) -> 'ThrustProfile':
        """Return a profile holding ``wrench`` from t = -inf."""
        return cls([-math.inf], np.asarray(wrench, float).reshape(1, 6))

    @classmethod
    def from_csv(cls, path) -> 'ThrustProfile':
        """Read a profile CSV; errors name the file, line and the problem."""
        path = pathlib.Path(path)
        try:
            text = path.read_text()
        except OSError as exc:
            raise DescriptionError('cannot read thrust profile: %s' % exc.strerror,
                                   source=str(path)) from exc
        rows = list(csv.reader(text.splitlines()))
        if not rows or tuple(c.strip() for c in rows[0]) != COLUMNS:
            raise DescriptionError('header must be %s' % ','.join(COLUMNS),
                                   source=str(path), line=1)
        times, wrenches = [], []
        for lineno, row in enumerate(rows[1:], start=2):
            if not row or not ''.join(row).strip():
                continue
            if len(row) != len(COLUMNS):
                raise DescriptionError('expected %d values, got %d' % (len(COLUMNS), len(row)),
                                       source=str(path), line=lineno)
            try:
                values = [float(c) for c in row]
            except ValueError as exc:
                raise DescriptionError('not a number: %s' % exc, source=str(path),
                                       line=lineno) from exc
            if not all(math.isfinite(v) for v in values):
                raise DescriptionError('non-finite value', source=str(path), line=lineno)
            big = [(name, v, bound) for name, v, bound in zip(
                COLUMNS, values, (bounds.MAX_TIME,) + (bounds.MAX_WRENCH,) * 6)
                if abs(v) > bound]
            if big:
                raise DescriptionError(
                    '%s = %g is beyond %g in magnitude (the arithmetic on it would overflow)'
                    % big[0], source=str(path), line=lineno)
            if times and values[0] <= times[-1]:
                raise DescriptionError('times must increase (%g after %g)'
                                       % (values[0], times[-1]), source=str(path),
                                       line=lineno)
            times.append(values[0])
            wrenches.append(values[1:])
        if not times:
            raise DescriptionError('no rows', source=str(path))
        return cls(times, np.array(wrenches))

    def sample(self, times) -> np.ndarray:
        """Return the wrenches held at every time of ``times``, (n, 6) (vectorised __call__)."""
        i = np.searchsorted(np.asarray(self.times), np.asarray(times, float), side='right') - 1
        held = np.vstack((self.wrenches, self._zero))
        return held[np.where(i < 0, len(self.times), i)]

    def __call__(self, t: float) -> np.ndarray:
        """Return the wrench held at time ``t``."""
        i = bisect.bisect_right(self.times, t) - 1
        return self._zero if i < 0 else self.wrenches[i]
