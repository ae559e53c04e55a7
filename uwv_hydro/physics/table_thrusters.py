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
One step of a bank of lookup-table thrusters in scalar arithmetic.

A vehicle whose thrusters are all lookup tables (uuv_simulator's LinearInterp, ArduSub
vehicles' T200 PWM curves) steps them once per integration step; for six or eight
thrusters numpy's per-call cost is most of that step (an ArduSub SITL frame runs one,
1 200 times a second).  :class:`TableStep` computes exactly what
:meth:`uwv_hydro.physics.thruster_bank.ThrusterBank.advance` and ``evaluate`` compute
for such a bank, thruster by thruster on Python floats: the clamp, the first-order lag
x+ = x + (1 - exp(-dt/tau)) (u - x), the rate limit |x+ - x| <= r dt, the table
(numpy's ``interp`` rule: held at its ends, exact at its points), the reaction torque
Q = -s k T, gz-sim's deadband, and tau = A (1 - t) T + A_Q Q.  test/test_table_thrusters.py
holds it to the numpy path.
"""
from bisect import bisect_right
import math
from typing import List

import numpy as np


def interp(x: float, xp: List[float], fp: List[float]) -> float:
    """Return what numpy.interp gives for one x (xp increasing): held at the ends."""
    if x < xp[0]:
        return fp[0]
    if x >= xp[-1]:
        return fp[-1]
    j = bisect_right(xp, x) - 1
    if x == xp[j]:
        return fp[j]
    # numpy's arr_interp: slope (fp[j+1] - fp[j]) / (xp[j+1] - xp[j]) from the left point
    return (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j]) * (x - xp[j]) + fp[j]


class TableStep:
    """The step of a ThrusterBank whose thrusters are all lookup tables, on floats."""

    def __init__(self, bank):
        self.bank = bank
        self.neutral = bank.neutral.tolist()
        self.cmd_min, self.cmd_max = bank.cmd_min.tolist(), bank.cmd_max.tolist()
        self.time_constant = bank.time_constant.tolist()
        self.max_rate = bank.max_rate.tolist()
        self.tables = [([float(v) for v in s.lookup_command], [float(v) for v in s.lookup_thrust])
                       for s in bank.specs]
        # the table thrusters are bank._per_thrust in order: Q = -s k T with s k of each
        self.torque_per_thrust = bank._table_k.tolist()
        self.deadband = bank.deadband.tolist()
        self.force_columns = (bank.allocation * bank.deduction).T.tolist()  # A (1 - t)
        self.torque_columns = bank.torque_allocation.T.tolist()
        self._dt = None

    def _terms(self, dt: float) -> None:
        """Keep the lag gains and rate bounds of a step of dt."""
        self._dt = dt
        self.gains = [-math.expm1(-dt / tau) if tau > 0.0 else None for tau in self.time_constant]
        self.bounds = [r * dt if math.isfinite(r) else math.inf for r in self.max_rate]

    def step(self, commands, dt: float) -> np.ndarray:
        """Advance the rotors by dt under ``commands``; return the base wrench (6)."""
        if dt != self._dt:
            self._terms(dt)
        bank = self.bank
        states = bank.state.tolist()
        enabled = bank.deadband_enabled.tolist()
        thrusts, torques = [], []
        wrench = [0.0] * 6
        for k, u in enumerate(np.asarray(commands, dtype=float).tolist()):
            if not math.isfinite(u):
                u = self.neutral[k]
            # gz-sim: clamp(command, min_thrust_cmd, max_thrust_cmd)
            u = min(max(u, self.cmd_min[k]), self.cmd_max[k])
            x = states[k]
            gain = self.gains[k]
            # exact first-order hold, then the rate limit (ThrusterBank.advance)
            target = u if gain is None else x + gain * (u - x)
            step, bound = target - x, self.bounds[k]
            x = target if abs(step) <= bound else x + min(max(step, -bound), bound)
            states[k] = x
            command, table = self.tables[k]
            thrust = interp(x, command, table)
            torque = -self.torque_per_thrust[k] * thrust
            if abs(thrust) < self.deadband[k] and enabled[k]:
                thrust = torque = 0.0  # gz-sim deadband
            thrusts.append(thrust)
            torques.append(torque)
            force, moment = self.force_columns[k], self.torque_columns[k]
            for i in range(6):
                wrench[i] += force[i] * thrust + moment[i] * torque
        bank.state = np.array(states)
        bank.thrust[:] = thrusts
        bank.torque[:] = torques
        return np.array(wrench)
