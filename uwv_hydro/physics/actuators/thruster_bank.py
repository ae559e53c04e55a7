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
The thrusters of one vehicle run together: rotor dynamics, thrust, reaction torque, base wrench.

Each thruster is a :class:`~uwv_hydro.physics.actuators.thruster_spec.ThrusterSpec`, whose module
docstring gives the models and their equations; :class:`ThrusterBank` steps them all
vectorised (numpy) and :func:`dsros_thrust` is ds_sim's polynomial.
"""
import math
from typing import Sequence, Tuple

import numpy as np

from uwv_hydro.physics.actuators.scalar_thrusters import SCALAR_MODELS, ScalarStep
from uwv_hydro.physics.actuators.thruster_spec import ThrusterSpec, UUV_CONVERSIONS

#: Largest RK4 step against the rotor's time scale (h |df/domega|).
_RK4_STEP = 0.05
#: Most sub-steps per update; beyond, backward Euler sub-steps (stiff rotor).
_MAX_SUBSTEPS = 200


def dsros_thrust(spec: ThrusterSpec, command: float, inflow: float) -> float:
    """Return ds_sim's thrust for ``command`` at the axial apparent speed ``inflow``."""
    forward, reverse = spec.dsros_terms()
    # dsros_thruster (posIsFwd): propdir <= 0 flips the direction a command's sign selects
    ahead = (command >= 0.0) == (spec.propdir > 0)
    quad, gain, offset, speed_gain, speed_offset, max_cmd = forward if ahead else reverse
    # ds_sim: moving against the command counts as no apparent speed
    speed = 0.0 if inflow * command < 0.0 else abs(inflow)
    c = min(abs(command), max_cmd)
    # dsros_thruster: T = quad c^2 + gain c + offset + speed_gain c s + speed_offset s, >= 0
    value = quad * c * c + gain * c + offset + speed_gain * c * speed + speed_offset * speed
    return max(value, 0.0) if ahead else -max(value, 0.0)


def propeller_thrust(spec: ThrusterSpec, state: float, inflow: float,
                     fluid_density: float) -> Tuple[float, float, float]:
    """
    Return (thrust, reaction torque on the hull, rotor speed) of a propeller.

    ``state``: the rotor speed omega (rad/s) with ``use_angvel_cmd``, else the thrust (N),
    whose rotor speed is then solved from the open-water curve at the inflow.
    """
    rho = fluid_density if spec.fluid_density is None else spec.fluid_density
    d = spec.propeller_diameter
    # Open-water thrust over rho D^4 at n rev/s: K_T(J) n|n|, J = Va / (n D) (Fossen 2021)
    va = (1.0 - spec.wake_fraction) * inflow

    def kt_nn(n):
        j = va / (n * d) if n > 0.0 else 0.0  # astern: the bollard coefficients (PVS)
        return float(np.polynomial.polynomial.polyval(j, spec.kt_polynomial)) * n * abs(n)
    if spec.use_angvel_cmd:
        n = state / (2.0 * math.pi)
    else:
        n = _rotor_speed_for(kt_nn, state / (rho * d ** 4), spec.kt_polynomial[0])
    j = va / (n * d) if n > 0.0 else 0.0
    kq = float(np.polynomial.polynomial.polyval(j, spec.kq_polynomial or (0.0,)))
    thrust = rho * d ** 4 * kt_nn(n)
    # Reaction on the hull, against the rotor: Q = -s K_Q(J) rho D^5 n|n|
    torque = -spec.spin_direction * kq * rho * d ** 5 * n * abs(n)
    return thrust, torque, 2.0 * math.pi * n


def _rotor_speed_for(kt_nn, target: float, kt0: float) -> float:
    """Return n (rev/s) with kt_nn(n) = target: astern in closed form, ahead by bisection."""
    if target <= 0.0:
        # astern: K_T(0) n|n| = target
        return -math.sqrt(-target / kt0)
    low, high = 0.0, math.sqrt(target / kt0)
    while kt_nn(high) < target:  # the inflow lowers K_T: a faster rotor
        low, high = high, 2.0 * high
    for _ in range(80):
        mid = 0.5 * (low + high)
        low, high = (mid, high) if kt_nn(mid) < target else (low, mid)
    return 0.5 * (low + high)


def odd_quadratic_root(r, q, p) -> np.ndarray:
    """Return x solving r x|x| + q x = p (r, q >= 0, not both zero): odd, increasing in p."""
    a = np.abs(np.asarray(p, dtype=float))
    with np.errstate(invalid='ignore', divide='ignore'):
        # |x| = m >= 0 with r m^2 + q m = |p|, in the form without cancellation
        m = np.where(a > 0.0, 2.0 * a / (q + np.sqrt(q * q + 4.0 * r * a)), 0.0)
    return np.sign(p) * np.where(np.isinf(a), np.inf, m)


class ThrusterBank:
    """
    The thrusters of one vehicle, vectorised: rotor states, thrust, torque, base wrench.

    ``step(commands, dt, nu_r)`` advances every rotor by dt under the given
    commands (NaN = no command: neutral) and returns the base-frame wrench to hold
    over the next integration step; ``nu_r`` (body twist relative to the water) feeds
    the advance ratio.  Not thread-safe: one caller at a time.
    """

    def __init__(self, specs: Sequence[ThrusterSpec], fluid_density: float):
        self.specs = tuple(specs)
        self.fluid_density = float(fluid_density)
        for spec in self.specs:
            bad = spec.problems()
            if bad:
                raise ValueError('thruster %r: %s: %s' % (spec.joint_name, bad[0][0], bad[0][1]))
        n = len(self.specs)
        self.names = tuple(s.joint_name for s in self.specs)
        self.points = np.array([s.point() for s in self.specs]).reshape(n, 3)
        self.directions = np.array([s.direction() for s in self.specs]).reshape(n, 3)
        # Allocation matrix A = [d; r x d]: base wrench of unit thrust on each thruster
        self.allocation = np.vstack((self.directions.T,
                                     np.cross(self.points, self.directions).T))
        # Reaction torque directions A_Q = [0; d]
        self.torque_allocation = np.vstack((np.zeros((3, n)), self.directions.T))
        limits = np.array([s.command_limits() for s in self.specs]).reshape(n, 2)
        self.cmd_min, self.cmd_max = limits[:, 0], limits[:, 1]
        self.neutral = np.array([s.neutral_command() for s in self.specs], dtype=float)
        self.deadband = np.array([s.deadband for s in self.specs], dtype=float)
        #: gz-sim's enable_deadband switch, per thruster (on at start)
        self.deadband_enabled = np.ones(len(self.specs), dtype=bool)
        self.time_constant = np.array([s.time_constant for s in self.specs], dtype=float)
        self.max_rate = np.array([s.max_cmd_rate for s in self.specs], dtype=float)
        self._table = [k for k, s in enumerate(self.specs) if s.model == 'table']
        self._dsros = [k for k, s in enumerate(self.specs) if s.model == 'dsros']
        self._no_speed = self._table + self._dsros
        self._basic = self._group('Basic')
        self._bessa = self._group('Bessa')
        self._per_thrust = self._no_speed + [k for k, s in enumerate(self.specs)
                                             if s.model.startswith('uuv_')]
        self._rotor = np.array([k for k, s in enumerate(self.specs) if s.dynamics_type],
                               dtype=int)
        rotor = np.array([self.specs[k].rotor_terms() for k in self._rotor],
                         dtype=float).reshape(-1, 4)
        self._j, self._ku, self._k1, self._k2 = rotor.T
        coeff = [k for k, s in enumerate(self.specs) if s.model == 'coefficient']
        self._coeff = np.array(coeff, dtype=int)
        self._angvel = np.array([self.specs[k].use_angvel_cmd for k in coeff], dtype=bool)
        rho = np.array([fluid_density if self.specs[k].fluid_density is None
                        else self.specs[k].fluid_density for k in coeff], dtype=float)
        diameter = np.array([self.specs[k].propeller_diameter for k in coeff], dtype=float)
        self._rho_d4 = rho * diameter ** 4
        self._rho_d5 = rho * diameter ** 5
        self._diameter = diameter
        self._ct = np.array([np.nan if self.specs[k].thrust_coefficient is None
                             else self.specs[k].thrust_coefficient for k in coeff], dtype=float)
        self._alpha1 = np.array([self.specs[k].alpha_1 for k in coeff], dtype=float)
        self._alpha2 = np.array([self.specs[k].alpha_2 for k in coeff], dtype=float)
        self._wake = np.array([self.specs[k].wake_fraction for k in coeff], dtype=float)
        self._kq = np.array([self.specs[k].torque_coefficient for k in coeff], dtype=float)
        self._prop = [k for k, s in enumerate(self.specs) if s.model == 'propeller']
        #: Share of each thrust the hull takes: 1 - t (thrust deduction, propellers)
        self.deduction = np.array([1.0 - s.thrust_deduction for s in self.specs], dtype=float)
        self._table_k = np.array([self.specs[k].torque_per_thrust * self.specs[k].spin_direction
                                  for k in self._per_thrust], dtype=float)
        self._per_thrust_index = np.array(self._per_thrust, dtype=int)
        #: the lookup-table thrusters grouped by table: one interpolation per distinct table
        #: (a BlueROV2's six T200 share one)
        groups = {}
        for k in self._table:
            spec = self.specs[k]
            key = (tuple(spec.lookup_command), tuple(spec.lookup_thrust))
            groups.setdefault(key, []).append(k)
        self._table_groups = [(np.array(index, dtype=int), np.array(command, dtype=float),
                               np.array(thrust, dtype=float))
                              for (command, thrust), index in groups.items()]
        self._lag = self.time_constant > 0.0
        self._any_lag = bool(np.any(self._lag))
        self._step_terms = None  # (dt, lag gains, rate bounds) of the last dt
        #: all thrusters lookup tables or uuv_simulator conversions: the step on floats
        self._scalar_step = ScalarStep(self) if all(
            s.model in SCALAR_MODELS for s in self.specs) else None
        #: whether the thrust depends on the inflow (the body twist relative to the water)
        self.sees_inflow = bool(self._coeff.size or self._prop or self._dsros)
        self.reset()

    def _group(self, conversion: str) -> Tuple[np.ndarray, np.ndarray]:
        """Return (indices, terms as rows) of the thrusters with a uuv_simulator conversion."""
        index = [k for k, s in enumerate(self.specs) if s.model.startswith('uuv_')
                 and s.conversion_type == conversion]
        size = len(UUV_CONVERSIONS[conversion])
        terms = np.array([self.specs[k].conversion_terms for k in index],
                         dtype=float).reshape(-1, size)
        return np.array(index, dtype=int), terms.T

    def __len__(self) -> int:
        return len(self.specs)

    def reset(self) -> None:
        """Stop every rotor (state at the neutral command, zero thrust)."""
        n = len(self.specs)
        self.state = self.neutral.copy()
        self.thrust = np.zeros(n)
        self.omega = np.zeros(n)
        self.omega[self._no_speed] = np.nan
        self.torque = np.zeros(n)

    def clamp(self, commands) -> np.ndarray:
        """Return the commands clamped to the limits, non-finite ones neutral."""
        u = np.array(commands, dtype=float).reshape(len(self.specs))
        bad = ~np.isfinite(u)
        u[bad] = self.neutral[bad]
        # gz-sim: clamp(command, min_thrust_cmd, max_thrust_cmd)
        return np.minimum(np.maximum(u, self.cmd_min), self.cmd_max)

    def advance(self, commands, dt: float) -> np.ndarray:
        """Advance the rotor states by dt towards the clamped commands; return the states."""
        u = self.clamp(commands)
        x = self.state
        lag = self._lag
        target = u.copy()
        terms = self._step_terms
        if terms is None or terms[0] != dt:
            # Exact first-order hold gain 1 - exp(-dt/tau); rate limit |x+ - x| <= r dt (no
            # limit where r is infinite, also for dt = 0): both fixed for one dt
            terms = self._step_terms = (
                dt, -np.expm1(-dt / self.time_constant[lag]),
                np.where(np.isfinite(self.max_rate), self.max_rate * dt, np.inf))
        gain, bound = terms[1], terms[2]
        if self._any_lag:
            # Exact first-order hold: x+ = x + (1 - exp(-dt/tau)) (u - x)
            target[lag] = x[lag] + gain * (u[lag] - x[lag])
        step = target - x
        # not rate limited: the target itself (x + (u - x) may differ from u in the last bit)
        state = np.where(np.abs(step) <= bound, target, x + np.clip(step, -bound, bound))
        if self._rotor.size:
            state[self._rotor] = self._integrate_rotor(x[self._rotor], u[self._rotor], dt)
        self.state = state
        return self.state

    def steady_state(self, commands) -> np.ndarray:
        """Return the states the rotors settle at under the commands held (clamped; +-inf ok)."""
        u = np.array(commands, dtype=float).reshape(len(self.specs))
        x = np.minimum(np.maximum(u, self.cmd_min), self.cmd_max)
        if self._rotor.size:
            # J omega' = 0: k_2 omega|omega| + k_1 omega = k_u u
            x[self._rotor] = odd_quadratic_root(self._k2, self._k1, self._ku * x[self._rotor])
        return x

    def _integrate_rotor(self, x: np.ndarray, u: np.ndarray, dt: float) -> np.ndarray:
        """Integrate J omega' = k_u u - k_1 omega - k_2 omega|omega| over dt (u held)."""
        j, k1, k2 = self._j, self._k1, self._k2
        p = self._ku * u
        # |omega| moves monotonically towards the steady state (1-D autonomous ODE), so
        # |df/domega| = (k_1 + 2 k_2 |omega|)/J is bounded over the step by its ends
        ends = np.maximum(np.abs(x), np.abs(odd_quadratic_root(k2, k1, p)))
        rate = (k1 + 2.0 * k2 * ends) / j
        n = int(min(max(math.ceil(dt * float(np.max(rate)) / _RK4_STEP), 1), _MAX_SUBSTEPS))
        h = dt / n
        stiff = h * rate > 1.0

        def f(w):
            # uuv_simulator Dynamics.cc (Yoerger 1990, Bessa 2006): J w' = k_u u - k_1 w - k_2 w|w|
            return (p - k1 * w - k2 * w * np.abs(w)) / j

        for _ in range(n):
            # Classical RK4 step
            a = f(x)
            b = f(x + 0.5 * h * a)
            c = f(x + 0.5 * h * b)
            d = f(x + h * c)
            explicit = x + h / 6.0 * (a + 2.0 * b + 2.0 * c + d)
            # Backward Euler (stiff rotor): (J + h k_1) w + h k_2 w|w| = J x + h p
            implicit = odd_quadratic_root(h * k2, j + h * k1, j * x + h * p)
            x = np.where(stiff, implicit, explicit)
        return x

    def inflow(self, nu_r) -> np.ndarray:
        """Return u_a: water-relative velocity of each thruster point along its axis."""
        if nu_r is None:
            return np.zeros(len(self.specs))
        nu_r = np.asarray(nu_r, dtype=float)
        # Velocity of a point: v_p = v + omega x r
        v = nu_r[:3] + np.cross(nu_r[3:], self.points)
        return np.einsum('ij,ij->i', v, self.directions)

    def evaluate(self, nu_r=None, inflow=None) -> np.ndarray:
        """
        Compute thrust, rotor speed and reaction torque from the states; return the wrench.

        ``inflow``: each thruster's axial water-relative speed u_a, when given (thrusters on
        moving links: their own bodies' twists); else :meth:`inflow` of ``nu_r``.
        """
        x = self.state
        thrust, omega, torque = self.thrust, self.omega, self.torque
        u_a = None
        if self.sees_inflow:
            u_a = self.inflow(nu_r) if inflow is None else np.asarray(inflow, dtype=float)
        if self._coeff.size:
            k = self._coeff
            xs = x[k]
            # Advance-ratio term of T/(rho D^4): alpha_2 Va |omega| / D, Va = (1 - w) u_a
            b = self._alpha2 * (1.0 - self._wake) * u_a[k] / self._diameter
            fixed = np.isfinite(self._ct)
            ct = np.where(fixed, self._ct, self._alpha1)
            b = np.where(fixed, 0.0, b)
            w = np.where(self._angvel, xs, 0.0)
            # T = Ct rho D^4 w|w| (gz-sim, Fossen p. 246) with Ct = alpha_1 + alpha_2 J
            t = np.where(self._angvel, self._rho_d4 * (ct * w * np.abs(w) + b * np.abs(w)), xs)
            force = ~self._angvel
            if np.any(force):
                # Rotor speed from thrust: ct s m^2 + b m = T/(rho D^4), s = sign(T ct), m >= 0
                tt = t[force] / self._rho_d4[force]
                c, bb = ct[force], b[force]
                s = np.sign(tt * c)
                m = (-s * np.sign(c) * bb + np.sqrt(bb * bb + 4.0 * np.abs(c * tt))) / (
                    2.0 * np.abs(c))
                w[force] = s * np.maximum(m, 0.0)
            thrust[k], omega[k] = t, w
            # Propeller reaction torque on the hull: Q = -K_Q rho D^5 w|w| (Fossen)
            torque[k] = -self._kq * self._rho_d5 * w * np.abs(w)
        if self._prop:
            for k in self._prop:
                thrust[k], torque[k], omega[k] = propeller_thrust(
                    self.specs[k], x[k], u_a[k], self.fluid_density)
        for k, command, table in self._table_groups:
            # Piecewise-linear lookup, held at the end values (uuv LinearInterp)
            thrust[k] = np.interp(x[k], command, table)
        if self._dsros:
            for k in self._dsros:
                thrust[k] = dsros_thrust(self.specs[k], x[k], u_a[k])
        k, (gain,) = self._basic
        if k.size:
            # uuv_simulator ConversionFunctionBasic: T = rotorConstant w|w|
            thrust[k], omega[k] = gain * x[k] * np.abs(x[k]), x[k]
        k, (gain_l, gain_r, delta_l, delta_r) = self._bessa
        if k.size:
            b = x[k] * np.abs(x[k])
            # uuv_simulator ConversionFunctionBessa (Bessa 2006): dead zone deltaL < w|w| <
            # deltaR
            thrust[k] = np.where(b <= delta_l, gain_l * (b - delta_l),
                                 np.where(b >= delta_r, gain_r * (b - delta_r), 0.0))
            omega[k] = x[k]
        if self._per_thrust:
            # Reaction torque: Q = -s k T
            k = self._per_thrust_index
            torque[k] = -self._table_k * thrust[k]
        dead = (np.abs(thrust) < self.deadband) & self.deadband_enabled
        if np.any(dead):
            # gz-sim deadband: no thrust and no spin below it
            thrust[dead] = 0.0
            torque[dead] = 0.0
            omega[dead & np.isfinite(omega)] = 0.0
        return self.wrench()

    def step(self, commands, dt: float, nu_r=None, inflow=None) -> np.ndarray:
        """Advance the rotors by dt, evaluate, return the base wrench to hold over the step."""
        if self._scalar_step is not None:  # nu_r: none of these thrusts sees the inflow
            return self._scalar_step.step(commands, dt)
        self.advance(commands, dt)
        return self.evaluate(nu_r, inflow)

    def wrench(self) -> np.ndarray:
        """Return the base-frame wrench of the current thrusts and torques."""
        # tau = A (1 - t) T + A_Q Q (t: thrust deduction of a propeller, else 0)
        return (self.allocation @ (self.deduction * self.thrust)
                + self.torque_allocation @ self.torque)
