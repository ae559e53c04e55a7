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
One step of a bank of table or uuv_simulator thrusters in scalar arithmetic.

A vehicle steps its thrusters once per integration step; for six or eight thrusters
numpy's per-call cost is most of that step (an ArduSub SITL frame runs one 1 200 times
a second, uuv_simulator's RexROV one per 1 ms step at 1 kHz).  :class:`ScalarStep`
computes exactly what :meth:`uwv_hydro.physics.actuators.thruster_bank.ThrusterBank.advance` and
``evaluate`` compute for a bank whose thrusters are all lookup tables (uuv_simulator's
LinearInterp, ArduSub vehicles' T200 PWM curves) or uuv_simulator's Basic and Bessa
conversions, thruster by thruster on Python floats, in the numpy path's order of
operations: the clamp, the first-order lag x+ = x + (1 - exp(-dt/tau)) (u - x), the
rate limit |x+ - x| <= r dt, uuv_simulator's rotor dynamics (Yoerger, Bessa: RK4 in the
bank's common number of sub-steps, backward Euler where stiff), the thrust (the table
by numpy's ``interp`` rule: held at its ends, exact at its points; Basic, Bessa), the
reaction torque Q = -s k T, gz-sim's deadband, and tau = A (1 - t) T + A_Q Q.
test/unit/physics/test_scalar_thrusters.py holds it to the numpy path.
"""
from bisect import bisect_right
import math
from typing import List

import numpy as np

#: The thruster models stepped here (ThrusterSpec.model): none of them sees the inflow.
SCALAR_MODELS = ('table', 'uuv_basic', 'uuv_bessa')


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


def odd_root(r: float, q: float, p: float) -> float:
    """Return x solving r x|x| + q x = p (thruster_bank.odd_quadratic_root on floats)."""
    a = abs(p)
    if math.isinf(a):
        return math.copysign(math.inf, p)
    if not a > 0.0:
        return 0.0
    # |x| = m >= 0 with r m^2 + q m = |p|, in the form without cancellation
    return math.copysign(2.0 * a / (q + math.sqrt(q * q + 4.0 * r * a)), p)


class ScalarStep:
    """The step of a ThrusterBank whose thrusters are all SCALAR_MODELS, on floats."""

    def __init__(self, bank):
        self.bank = bank
        specs = bank.specs
        self.neutral = bank.neutral.tolist()
        self.cmd_min, self.cmd_max = bank.cmd_min.tolist(), bank.cmd_max.tolist()
        self.time_constant = bank.time_constant.tolist()
        self.max_rate = bank.max_rate.tolist()
        self.models = [s.model for s in specs]
        self.tables = [([float(v) for v in s.lookup_command], [float(v) for v in s.lookup_thrust])
                       if s.model == 'table' else None for s in specs]
        self.conversion = [tuple(float(v) for v in s.conversion_terms)
                           if s.model != 'table' else None for s in specs]
        # Q = -s k T with s k of each (the bank's _table_k, per thruster)
        self.torque_per_thrust = [s.torque_per_thrust * s.spin_direction for s in specs]
        self.deadband = bank.deadband.tolist()
        self.force_columns = (bank.allocation * bank.deduction).T.tolist()  # A (1 - t)
        self.torque_columns = bank.torque_allocation.T.tolist()
        # uuv_simulator rotor dynamics: (index, J, k_u, k_1, k_2), in the bank's order
        self.rotors = [(int(k), float(j), float(ku), float(k1), float(k2)) for k, j, ku, k1, k2
                       in zip(bank._rotor, bank._j, bank._ku, bank._k1, bank._k2)]
        self._dt = None

    def _terms(self, dt: float) -> None:
        """Keep the lag gains and rate bounds of a step of dt."""
        self._dt = dt
        self.gains = [-math.expm1(-dt / tau) if tau > 0.0 else None for tau in self.time_constant]
        self.bounds = [r * dt if math.isfinite(r) else math.inf for r in self.max_rate]

    def _rotor_states(self, old, u, dt: float) -> List[float]:
        """Integrate J w' = k_u u - k_1 w - k_2 w|w| over dt for every rotor (bank's rule)."""
        # |df/dw| = (k_1 + 2 k_2 |w|)/J, bounded over the step by its ends: the common
        # sub-step count of ThrusterBank._integrate_rotor
        rates = []
        for k, j, ku, k1, k2 in self.rotors:
            p = ku * u[k]
            ends = max(abs(old[k]), abs(odd_root(k2, k1, p)))
            rates.append((k1 + 2.0 * k2 * ends) / j)
        n = int(min(max(math.ceil(dt * max(rates) / 0.05), 1), 200))
        h = dt / n
        out = []
        for (k, j, ku, k1, k2), rate in zip(self.rotors, rates):
            p = ku * u[k]
            x = old[k]
            if h * rate > 1.0:
                for _ in range(n):
                    # Backward Euler (stiff rotor): (J + h k_1) w + h k_2 w|w| = J x + h p
                    x = odd_root(h * k2, j + h * k1, j * x + h * p)
            else:
                for _ in range(n):
                    # uuv_simulator Dynamics.cc (Yoerger 1990, Bessa 2006), classical RK4
                    a = (p - k1 * x - k2 * x * abs(x)) / j
                    y = x + 0.5 * h * a
                    b = (p - k1 * y - k2 * y * abs(y)) / j
                    y = x + 0.5 * h * b
                    c = (p - k1 * y - k2 * y * abs(y)) / j
                    y = x + h * c
                    d = (p - k1 * y - k2 * y * abs(y)) / j
                    x = x + h / 6.0 * (a + 2.0 * b + 2.0 * c + d)
            out.append(x)
        return out

    def step(self, commands, dt: float) -> np.ndarray:
        """Advance the rotors by dt under ``commands``; return the base wrench (6)."""
        if dt != self._dt:
            self._terms(dt)
        bank = self.bank
        old = bank.state.tolist()
        enabled = bank.deadband_enabled.tolist()
        u = np.asarray(commands, dtype=float).tolist()
        states = list(old)
        for k, value in enumerate(u):
            if not math.isfinite(value):
                value = self.neutral[k]
            # gz-sim: clamp(command, min_thrust_cmd, max_thrust_cmd)
            value = u[k] = min(max(value, self.cmd_min[k]), self.cmd_max[k])
            x = old[k]
            gain = self.gains[k]
            # exact first-order hold, then the rate limit (ThrusterBank.advance)
            target = value if gain is None else x + gain * (value - x)
            step, bound = target - x, self.bounds[k]
            states[k] = target if abs(step) <= bound else x + min(max(step, -bound), bound)
        if self.rotors:
            for (k, *_), x in zip(self.rotors, self._rotor_states(old, u, dt)):
                states[k] = x
        thrusts, torques, omegas = [], [], []
        wrench = [0.0] * 6
        for k, x in enumerate(states):
            model = self.models[k]
            omega = math.nan
            if model == 'table':
                command, table = self.tables[k]
                thrust = interp(x, command, table)
            elif model == 'uuv_basic':
                # uuv_simulator ConversionFunctionBasic: T = rotorConstant w|w|
                thrust, omega = self.conversion[k][0] * x * abs(x), x
            else:
                # uuv_simulator ConversionFunctionBessa (Bessa 2006): dead zone
                # deltaL < w|w| < deltaR
                gain_l, gain_r, delta_l, delta_r = self.conversion[k]
                b = x * abs(x)
                thrust = (gain_l * (b - delta_l) if b <= delta_l
                          else gain_r * (b - delta_r) if b >= delta_r else 0.0)
                omega = x
            torque = -self.torque_per_thrust[k] * thrust
            if abs(thrust) < self.deadband[k] and enabled[k]:
                # gz-sim deadband: no thrust and no spin below it
                thrust = torque = 0.0
                omega = 0.0 if math.isfinite(omega) else omega
            thrusts.append(thrust)
            torques.append(torque)
            omegas.append(omega)
            force, moment = self.force_columns[k], self.torque_columns[k]
            for i in range(6):
                wrench[i] += force[i] * thrust + moment[i] * torque
        bank.state = np.array(states)
        bank.thrust[:] = thrusts
        bank.torque[:] = torques
        bank.omega[:] = omegas
        return np.array(wrench)
