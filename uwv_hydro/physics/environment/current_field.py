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
Ocean current fields: the world-frame (ENU) water velocity v_c(p, t) and its rates.

One interface for every source (:class:`CurrentField`): :meth:`CurrentField.sample`
returns a :class:`CurrentSample` with the velocity, its partial time derivative
dv_c/dt at a fixed point and its gradient G[i, j] = d v_c,i / d p_j (world frame).  A body
moving with p_dot sees the total rate dv_c/dt + G p_dot (:meth:`CurrentSample.total_rate`),
the part of nu_dot_c (Fossen 2021 ch. 10) that a changing current adds.

Here: :class:`ConstantCurrent` (the node's ``current`` parameter), :class:`DepthProfileCurrent`
(table of depth -> vector, linear), :class:`TidalCurrent` (table of time -> vector, linear,
and/or harmonic constituents).  gz-sim's EnvironmentPreload grid is
:class:`uwv_hydro.physics.environment.current_grid.GridCurrent`, uuv_simulator's Gauss-Markov
current
:class:`uwv_hydro.physics.environment.gauss_markov_current.GaussMarkovCurrent`.

``t`` is the field's time in seconds (the modes choose its origin, see ``time_origin``).
"""
from dataclasses import dataclass
import math
from typing import Optional, Sequence

import numpy as np

from uwv_hydro.physics.spatial.rotation import quat_to_matrix

#: Where a field's time starts: 'start' (0 at the first sample of a run) or 'clock' (the
#: clock's seconds as they are: sim time under use_sim_time, like gz-sim's simTime).
TIME_ORIGINS = ('start', 'clock')
#: Largest |component| of a current velocity (m/s) a parameter or file may give: far
#: above any ocean current (tidal races reach about 5 m/s), below what breaks the numbers.
MAX_CURRENT_COMPONENT = 100.0


@dataclass
class CurrentSample:
    """The current at one point and time: velocity (3,), dv/dt (3,), gradient (3, 3)."""

    velocity: np.ndarray
    rate: np.ndarray
    gradient: np.ndarray

    def total_rate(self, p_dot: Sequence[float]) -> np.ndarray:
        """Return dv_c/dt along a path with world velocity ``p_dot``: dv/dt + G p_dot."""
        # material derivative along the body's path (chain rule)
        return self.rate + self.gradient @ np.asarray(p_dot, dtype=float).reshape(3)

    def linearised(self) -> list:
        """Return the 15 floats [v (3), G (9, row-major), dv/dt (3)] of the sample."""
        return (self.velocity.tolist() + self.gradient.reshape(9).tolist()
                + self.rate.tolist())


def linearise(field: 'CurrentField', x: Sequence[float], t: float, span: float) -> list:
    """
    Return the 34 floats the compiled core steps a field with over ``span`` seconds.

    [v0, G0, dv/dt_0] at the state ``x`` (13 floats: p, q [w, x, y, z], nu) and time ``t``,
    then [G1, dv/dt_1] at the end of the span (t + span, at the position p1 the body's
    present velocity reaches), the span, and [v, dv/dt] at p0 at the end time.  The core
    takes the current as the cubic Hermite curve in time at p0 through the values and
    rates at both ends, plus G0 (p - p0); the rate along the path adds the change of
    dv/dt from p0 to p1 and G p_dot, both linear in s: fourth order in time, exact for a
    field affine in p and t.
    """
    start = field.sample(x[:3], t)
    head = start.linearised()
    if not span > 0.0:
        return head + head[3:15] + [0.0] + head[:3] + head[12:15]
    # Fossen 2021 ch. 2: p_dot = R(q) v, the end position p + p_dot span
    p_dot = quat_to_matrix(np.asarray(x[3:7], dtype=float)) @ np.asarray(x[7:10], dtype=float)
    end = field.sample(np.asarray(x[:3], dtype=float) + span * p_dot, t + span)
    # a uniform field (no gradient at either sample) is the same at p0 and p1
    uniform = not (field.spatial or np.any(start.gradient) or np.any(end.gradient))
    here = end if uniform else field.sample(x[:3], t + span)
    return (head + end.gradient.reshape(9).tolist() + end.rate.tolist() + [float(span)]
            + here.velocity.tolist() + here.rate.tolist())


def still_sample(velocity=(0.0, 0.0, 0.0)) -> CurrentSample:
    """Return a sample of a uniform, steady current ``velocity``."""
    return CurrentSample(np.array(velocity, dtype=float).reshape(3), np.zeros(3),
                         np.zeros((3, 3)))


class CurrentField:
    """
    A world-frame current v_c(p, t) (base class).

    ``time_origin`` (:data:`TIME_ORIGINS`) tells the modes which clock ``t`` is on;
    ``kind`` names the source; :meth:`reset` restarts a stateful field (stochastic).
    """

    kind = 'field'
    #: True when the field depends on the position
    spatial = False

    def __init__(self, time_origin: str = 'start'):
        if time_origin not in TIME_ORIGINS:
            raise ValueError('time_origin must be one of %s, got %r'
                             % (', '.join(TIME_ORIGINS), time_origin))
        self.time_origin = time_origin

    def sample(self, position: Sequence[float], t: float) -> CurrentSample:
        """Return the current at world position ``position`` (ENU, m) and time ``t`` (s)."""
        raise NotImplementedError

    def velocity(self, position: Sequence[float], t: float) -> np.ndarray:
        """Return v_c at ``position`` and ``t`` (world ENU, m/s)."""
        return self.sample(position, t).velocity

    def reset(self) -> None:
        """Restart the field's own state (nothing for a deterministic field)."""


class ConstantCurrent(CurrentField):
    """A uniform, steady current (today's ``current`` parameter and ``--current``)."""

    kind = 'constant'

    def __init__(self, velocity: Sequence[float], time_origin: str = 'start'):
        super().__init__(time_origin)
        self._sample = still_sample(velocity)

    def sample(self, position, t) -> CurrentSample:
        """Return the constant velocity (zero rate and gradient)."""
        s = self._sample
        return CurrentSample(s.velocity.copy(), s.rate.copy(), s.gradient.copy())


def _segment(keys: np.ndarray, value: float):
    """
    Return (i, w, inside) for linear interpolation at ``value`` in ascending ``keys``.

    f(value) = (1 - w) f[i] + w f[i + 1]; outside the table the end value holds
    (w 0 or 1) and ``inside`` is False (zero slope).
    """
    n = len(keys)
    if n == 1 or value <= keys[0]:
        return 0, 0.0, False
    if value >= keys[-1]:
        return n - 2, 1.0, False
    i = int(np.searchsorted(keys, value, side='right')) - 1
    return i, (value - keys[i]) / (keys[i + 1] - keys[i]), True


def _table(keys, vectors, what: str):
    keys = np.asarray(keys, dtype=float).reshape(-1)
    vectors = np.asarray(vectors, dtype=float).reshape(len(keys), 3)
    if len(keys) == 0:
        raise ValueError('%s: the table is empty' % what)
    if not (np.all(np.isfinite(keys)) and np.all(np.isfinite(vectors))):
        raise ValueError('%s: values must be finite' % what)
    if np.any(np.diff(keys) <= 0.0):
        raise ValueError('%s: must be strictly increasing' % what)
    return keys, vectors


class DepthProfileCurrent(CurrentField):
    """
    A current that varies with depth d = -z only: a table d -> v_c, linear in between.

    Above the shallowest and below the deepest row the end value holds (zero shear).
    """

    kind = 'profile'
    spatial = True

    def __init__(self, depths, velocities, time_origin: str = 'start'):
        super().__init__(time_origin)
        self.depths, self.velocities = _table(depths, velocities, 'depths')
        n = len(self.depths)
        # slope dv/dd of every segment
        self._slopes = (np.diff(self.velocities, axis=0) / np.diff(self.depths)[:, None]
                        if n > 1 else np.zeros((0, 3)))

    def sample(self, position, t) -> CurrentSample:
        """Return v_c(d) by linear interpolation and its gradient dv/dz = -dv/dd."""
        depth = -float(position[2])
        i, w, inside = _segment(self.depths, depth)
        v = self.velocities
        if len(v) == 1:
            return still_sample(v[0])
        # linear interpolation between rows i and i + 1
        velocity = (1.0 - w) * v[i] + w * v[i + 1]
        gradient = np.zeros((3, 3))
        if inside:
            # d = -z: dv/dz = -dv/dd
            gradient[:, 2] = -self._slopes[i]
        return CurrentSample(velocity, np.zeros(3), gradient)


class TidalCurrent(CurrentField):
    """
    A uniform current varying in time: a table and/or harmonic constituents.

    v_c = table(t) + mean + sum_k A_k cos(2 pi t / T_k - phi_k); the table t -> v_c is
    linear in between its rows, its end values hold outside it.
    """

    kind = 'tide'

    def __init__(self, times=None, velocities=None, mean: Optional[Sequence[float]] = None,
                 constituents: Sequence = (), time_origin: str = 'start'):
        super().__init__(time_origin)
        self.times = self.table = None
        if times is not None:
            self.times, self.table = _table(times, velocities, 'times')
        self.mean = np.zeros(3) if mean is None else np.array(mean, dtype=float).reshape(3)
        #: (amplitude (3,), period (s), phase (rad)) of every constituent
        self.constituents = []
        for amplitude, period, phase in constituents:
            period = float(period)
            if not (period > 0.0 and math.isfinite(period)):
                raise ValueError('a constituent period must be positive, got %r' % period)
            self.constituents.append((np.array(amplitude, dtype=float).reshape(3), period,
                                      float(phase)))

    def sample(self, position, t) -> CurrentSample:
        """Return v_c(t) and dv_c/dt (uniform in space: zero gradient)."""
        t = float(t)
        velocity = self.mean.copy()
        rate = np.zeros(3)
        if self.times is not None:
            i, w, inside = _segment(self.times, t)
            v = self.table
            if len(v) == 1:
                velocity += v[0]
            else:
                # linear interpolation in time; its slope inside the table
                velocity += (1.0 - w) * v[i] + w * v[i + 1]
                if inside:
                    rate += (v[i + 1] - v[i]) / (self.times[i + 1] - self.times[i])
        for amplitude, period, phase in self.constituents:
            omega = 2.0 * math.pi / period
            # harmonic constituent A cos(omega t - phi) and its derivative
            velocity += amplitude * math.cos(omega * t - phase)
            rate -= amplitude * omega * math.sin(omega * t - phase)
        return CurrentSample(velocity, rate, np.zeros((3, 3)))
