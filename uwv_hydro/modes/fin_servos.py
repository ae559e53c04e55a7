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
Fin servos without ROS: angle commands in, the fins' actual deflections out.

The node (Float64 command per fin, JointState out) and offline flights run this class,
so they agree by construction.  Commands are joint positions in radians (ds_sim servo /
gz-sim JointPositionController semantics), clamped to the joint limits.  Per step of
dt, each servo moves its angle a toward the command c as a first-order lag with time
constant T, limited to the rate ``velocity``, and stays inside [lower, upper]::

    a += clamp((c - a)(1 - exp(-dt / T)), -velocity dt, velocity dt)

(the exact discrete step of a' = (c - a) / T, so a step command reaches 63.2 % of its
size after T; T = 0 moves at the rate limit only).  Watchdog: a fin whose last command
is older than ``timeout`` (> 0) is stale; ``on_timeout`` ``hold`` keeps its last command,
``centre`` commands zero until a new command arrives.
"""
import math
from typing import List, Optional, Sequence

import numpy as np

from uwv_hydro.physics.body.vehicle_params import Fin

#: What a stale fin does.
TIMEOUT_ACTIONS = ('hold', 'centre')


class FinServos:
    """The servos of a vehicle's fins (``params.fins`` order)."""

    def __init__(self, fins: Sequence[Fin], timeout: float = 0.0, on_timeout: str = 'hold'):
        if on_timeout not in TIMEOUT_ACTIONS:
            raise ValueError("on_timeout must be one of %s, got '%s'"
                             % (', '.join(TIMEOUT_ACTIONS), on_timeout))
        if not float(timeout) >= 0.0:
            raise ValueError('timeout must be >= 0, got %r' % (timeout,))
        self.names: List[str] = [f.name for f in fins]
        self._index = {name: k for k, name in enumerate(self.names)}
        self.lower = np.array([f.lower for f in fins], dtype=float)
        self.upper = np.array([f.upper for f in fins], dtype=float)
        self.velocity = np.array([f.velocity for f in fins], dtype=float)
        self.time_constant = np.array([f.time_constant for f in fins], dtype=float)
        self.timeout = float(timeout)
        self.on_timeout = on_timeout
        self.reset()

    def reset(self) -> None:
        """Centre the fins, forget the commands and zero the counters."""
        #: Actual deflections (rad) and their rates (rad/s) over the last step.
        self.angles = np.zeros(len(self.names))
        self.rates = np.zeros(len(self.names))
        #: Commanded deflections after clamping (rad).
        self.commands = np.zeros(len(self.names))
        self._stamps: List[Optional[float]] = [None] * len(self.names)
        #: Rejected (non-finite) and clamped command counts.
        self.rejected = 0
        self.clamped = 0

    def index(self, name: str) -> int:
        """Return the index of fin ``name`` (KeyError naming the fins if unknown)."""
        try:
            return self._index[name]
        except KeyError:
            raise KeyError('no fin %r; fins: %s' % (name, ', '.join(self.names))) from None

    def command(self, index: int, angle: float, t: float) -> bool:
        """Set fin ``index``'s command at time t; False (and ignored) if not finite."""
        angle = float(angle)
        if not math.isfinite(angle):
            self.rejected += 1
            return False
        clamped = min(max(angle, self.lower[index]), self.upper[index])
        if clamped != angle:
            self.clamped += 1
        self.commands[index] = clamped
        self._stamps[index] = float(t)
        return True

    def stale(self, t: float) -> np.ndarray:
        """Return which fins' last command is older than the timeout (never commanded: no)."""
        if self.timeout <= 0.0:
            return np.zeros(len(self.names), dtype=bool)
        return np.array([s is not None and t - s > self.timeout for s in self._stamps],
                        dtype=bool)

    def targets(self, t: float) -> np.ndarray:
        """Return the angles the servos drive toward at time t (watchdog applied)."""
        if self.on_timeout == 'centre':
            return np.where(self.stale(t), 0.0, self.commands)
        return self.commands.copy()

    def step(self, dt: float, t: float) -> np.ndarray:
        """Advance the servos by dt (commands as at time t); return the new angles."""
        if not dt > 0.0:
            return self.angles
        error = self.targets(t) - self.angles
        with np.errstate(divide='ignore', over='ignore'):
            # Exact step of the first-order lag a' = (c - a) / T (T = 0: no lag)
            gain = np.where(self.time_constant > 0.0,
                            -np.expm1(-dt / np.maximum(self.time_constant, 1e-300)), 1.0)
        limit = self.velocity * dt
        # Rate limit |a'| <= velocity
        change = np.clip(error * gain, -limit, limit)
        new = np.clip(self.angles + change, self.lower, self.upper)
        self.rates = (new - self.angles) / dt
        self.angles = new
        return self.angles
