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
uuv_simulator's stochastic current: three Gauss-Markov processes (speed and two angles).

Reproduced from uuv_world_plugins (src/GaussMarkovProcess.cc,
src/UnderwaterCurrentPlugin.cc):

* a process (mean, min, max, mu, noiseAmp) starts at ``mean``; every update at time t
  (step = t - previous update) does
  ``var = (1 - step mu) var + noiseAmp (U - 0.5)``, U uniform in [0, 1]
  (``rand() / RAND_MAX``), then clamps var to [min, max].  Note that it decays towards
  0, not towards ``mean`` (``mean`` is the start value);
* defaults mean 0, min -1, max 1, mu 0, noiseAmp 0; the plugin asserts min < max,
  min <= mean <= max, 0 <= mu < 1 and 0 <= noiseAmp < 1;
* the current (ENU) from speed V, horizontal angle h and vertical angle a is
  V [cos h cos a, sin h cos a, sin a], the three processes updated in that order.

uuv updates at every world update (Gazebo's physics step, 0.001 s by default) from the
time the plugin loads; here the processes update every ``update_period`` seconds of the
field's time from its first sample (after a reset), from a seeded
generator (numpy PCG64) so that a run is reproducible.  The current is piecewise
constant: zero rate and gradient between updates.
"""
import math
from typing import Optional

import numpy as np

from uwv_hydro.physics.environment.current_field import CurrentField, CurrentSample

#: Gazebo classic's default physics step (the rate of uuv's world update).
DEFAULT_UPDATE_PERIOD = 0.001


class GaussMarkovProcess:
    """One uuv_simulator GaussMarkovProcess (mean, min = low, max = high, mu, noiseAmp)."""

    def __init__(self, mean: float = 0.0, low: float = -1.0, high: float = 1.0,
                 mu: float = 0.0, noise_amp: float = 0.0):
        values = (mean, low, high, mu, noise_amp)
        if not all(math.isfinite(float(v)) for v in values):
            raise ValueError('mean, min, max, mu and noiseAmp must be finite')
        # UnderwaterCurrentPlugin::Load's assertions
        if not low < high:
            raise ValueError('min (%g) must be smaller than max (%g)' % (low, high))
        if not low <= mean <= high:
            raise ValueError('mean (%g) must lie in [min, max] = [%g, %g]' % (mean, low, high))
        if not 0.0 <= mu < 1.0:
            raise ValueError('mu (%g) must be in [0, 1)' % mu)
        if not 0.0 <= noise_amp < 1.0:
            raise ValueError('noiseAmp (%g) must be in [0, 1)' % noise_amp)
        #: uuv's mean, min, max, mu and noiseAmp
        self.mean, self.min, self.max = float(mean), float(low), float(high)
        self.mu, self.noise_amp = float(mu), float(noise_amp)
        self.reset()

    def reset(self) -> None:
        """Return to the start value (GaussMarkovProcess::Reset: var = mean)."""
        self.var = self.mean

    def update(self, step: float, u: float) -> float:
        """Advance by ``step`` seconds with the uniform draw ``u`` in [0, 1]; return var."""
        # GaussMarkovProcess::Update: first-order process plus uniform noise, clamped
        var = (1.0 - step * self.mu) * self.var + self.noise_amp * (u - 0.5)
        self.var = min(max(var, self.min), self.max)
        return self.var


class GaussMarkovCurrent(CurrentField):
    """uuv_simulator's UnderwaterCurrentPlugin current (see the module docstring)."""

    kind = 'gauss_markov'

    def __init__(self, speed: GaussMarkovProcess,
                 horizontal_angle: Optional[GaussMarkovProcess] = None,
                 vertical_angle: Optional[GaussMarkovProcess] = None,
                 update_period: float = DEFAULT_UPDATE_PERIOD, seed: int = 0,
                 time_origin: str = 'start'):
        super().__init__(time_origin)
        if not (update_period > 0.0 and math.isfinite(update_period)):
            raise ValueError('update_period must be positive, got %r' % (update_period,))
        self.speed = speed
        self.horizontal_angle = horizontal_angle or GaussMarkovProcess()
        self.vertical_angle = vertical_angle or GaussMarkovProcess()
        self.update_period = float(update_period)
        self.seed = int(seed)
        self.reset()

    def reset(self) -> None:
        """Restart the processes at their means and the generator at its seed."""
        self._rng = np.random.Generator(np.random.PCG64(self.seed))
        for p in (self.speed, self.horizontal_angle, self.vertical_angle):
            p.reset()
        #: number of updates done (update k happens at t0 + k update_period)
        self.updates = 0
        #: the time of the first sample after a reset (uuv: the sim time at Load)
        self.t0 = None

    def advance(self, t: float) -> None:
        """
        Run every update due at or before ``t``.

        The first call after a reset sets t0 (update k is due at t0 + k update_period); a
        time before the last replays the series from t0, one before t0 restarts at it.
        """
        if self.t0 is None or t < self.t0:
            self.reset()
            self.t0 = t
        # (1e-6 of a period: the rounding of t - t0 at large clock times)
        due = int(math.floor((t - self.t0) / self.update_period + 1e-6))
        if due < self.updates:
            # back in time (a replay): the same series again from t0
            t0 = self.t0
            self.reset()
            self.t0 = t0
        n = due - self.updates
        if n <= 0:
            return
        draws = self._rng.random((n, 3)).tolist()
        step = self.update_period
        processes = (self.speed, self.horizontal_angle, self.vertical_angle)
        for row in draws:
            for process, u in zip(processes, row):
                process.update(step, u)
        self.updates = due

    def current(self) -> np.ndarray:
        """Return the current of the processes' present values (ENU)."""
        v, h, a = self.speed.var, self.horizontal_angle.var, self.vertical_angle.var
        # UnderwaterCurrentPlugin::Update: speed along the two angles
        return np.array([v * math.cos(h) * math.cos(a), v * math.sin(h) * math.cos(a),
                         v * math.sin(a)])

    def sample(self, position, t) -> CurrentSample:
        """Return the current at ``t`` (uniform; piecewise constant in time)."""
        self.advance(float(t))
        return CurrentSample(self.current(), np.zeros(3), np.zeros((3, 3)))
