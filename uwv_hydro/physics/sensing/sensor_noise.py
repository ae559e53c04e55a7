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
Sensor noise: gz-sensors' Gaussian noise model with a dynamic bias, vectorised over axes.

Per axis, every sample is ``y = x + mean + b0 + b(t) + n`` with

* ``n ~ N(0, stddev^2)``: white noise, independent per sample;
* ``b0 ~ N(bias_mean, bias_stddev^2)`` with a random sign: the turn-on bias, drawn once
  (gz-sensors draws it so, "by convention bias_mean should be positive");
* ``b(t)``: the dynamic bias, a first-order Gauss-Markov process
  ``db = -b/tau dt + sigma_b dW`` (``sigma_b`` = ``dynamic_bias_stddev``, ``tau`` =
  ``dynamic_bias_correlation_time``), sampled exactly over the step dt:
  ``b_k+1 = exp(-dt/tau) b_k + w_k``, ``Var(w_k) = sigma_b^2 tau/2 (1 - exp(-2 dt/tau))``
  (the discretisation gz-sensors and the rotors IMU plugin use).  ``tau`` = infinity
  (the default here) is the bias random walk: ``b_k+1 = b_k + sigma_b sqrt(dt) w``, so
  ``Var(b(t)) = sigma_b^2 t``.  gz-sensors leaves the dynamic bias off when the
  correlation time is not given; here an absent one means a random walk.

Each sensor owns a seeded ``numpy.random.Generator``: the same seed gives the same
noise sequence, and all parameters zero gives the exact value.
"""
import math
from typing import Optional, Sequence

import numpy as np

from uwv_hydro.physics.sensing.sensor_params import NoiseParams


class NoiseModel:
    """Noise of ``len(axes)`` measured axes drawn from one generator."""

    def __init__(self, axes: Sequence[NoiseParams], rng: np.random.Generator):
        self.axes = tuple(axes)
        self._rng = rng
        self.mean = np.array([a.mean for a in self.axes], float)
        self.stddev = np.array([a.stddev for a in self.axes], float)
        self._sigma_b = np.array([a.dynamic_bias_stddev for a in self.axes], float)
        self._tau = np.array([a.dynamic_bias_correlation_time for a in self.axes], float)
        self._finite_tau = np.isfinite(self._tau)
        self._transition = (None, None, None)  # (dt, phi, scale) of the last dt
        self.zero = all(a.is_zero() for a in self.axes)
        self.turn_on_bias = np.zeros(len(self.axes))
        self.dynamic_bias = np.zeros(len(self.axes))
        self._dynamic = bool(np.any(self._sigma_b > 0.0))
        self.reset()

    def reset(self, rng: Optional[np.random.Generator] = None) -> None:
        """Draw a new turn-on bias (from ``rng`` if given) and restart the dynamic bias."""
        if rng is not None:
            self._rng = rng
        n = len(self.axes)
        self.dynamic_bias = np.zeros(n)
        if self.zero:
            return
        bias_mean = np.array([a.bias_mean for a in self.axes], float)
        bias_stddev = np.array([a.bias_stddev for a in self.axes], float)
        # gz-sensors GaussianNoiseModel: b0 ~ N(bias_mean, bias_stddev^2), sign flipped w.p. 1/2
        bias = self._rng.normal(bias_mean, bias_stddev)
        self.turn_on_bias = np.where(self._rng.uniform(size=n) < 0.5, -bias, bias)

    def variance(self) -> np.ndarray:
        """Return the white-noise variance of each axis (what a covariance field reports)."""
        return self.stddev ** 2

    def _step_bias(self, dt: float, normals: np.ndarray) -> None:
        """Advance the dynamic bias by dt (exact Gauss-Markov / random-walk transition)."""
        last_dt, phi, scale = self._transition
        if dt != last_dt:
            finite = self._finite_tau
            safe_tau = np.where(finite, self._tau, 1.0)
            # Gauss-Markov: phi = exp(-dt/tau); random walk (tau = inf): phi = 1
            phi = np.where(finite, np.exp(-dt / safe_tau), 1.0)
            # Var(w) = sigma_b^2 tau/2 (1 - exp(-2 dt/tau)) = -sigma_b^2 tau/2 expm1(-2dt/tau)
            var = np.where(finite, -0.5 * safe_tau * np.expm1(-2.0 * dt / safe_tau), dt)
            scale = self._sigma_b * np.sqrt(var)
            self._transition = (dt, phi, scale)
        self.dynamic_bias = phi * self.dynamic_bias + scale * normals

    def apply(self, values, dt: float) -> np.ndarray:
        """Return ``values`` + noise of one sample taken ``dt`` seconds after the last one."""
        values = np.asarray(values, dtype=float)
        if self.zero:
            return values.copy()
        n = len(self.axes)
        step_bias = self._dynamic and dt > 0.0 and math.isfinite(dt)
        normals = self._rng.standard_normal(2 * n if step_bias else n)
        if step_bias:
            self._step_bias(dt, normals[n:])
        # gz-sensors: y = x + bias + N(mean, stddev^2), plus the dynamic bias
        white = self.mean + self.stddev * normals[:n]
        return values + self.turn_on_bias + self.dynamic_bias + white
