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
Thruster models: command -> rotor state -> thrust and reaction torque -> base wrench.

A thruster is a joint (gz-sim's Thruster system uses ``joint_name``): the joint
origin is the point of application, the joint axis the thrust direction.  Per
update of length dt (the wrench is then held over the integration step):

1. command u, clamped to [min_thrust_cmd, max_thrust_cmd] (gz-sim); a missing or
   non-finite command is the neutral command (zero thrust);
2. rotor dynamics on the commanded quantity x (thrust in N, rotor speed in rad/s
   with ``use_angvel_cmd``, or the table's command such as a PWM width): none,
   first order with ``time_constant`` (exact zero-order-hold discretisation, as
   uuv_simulator's FirstOrder) and/or a rate limit ``max_cmd_rate`` (units/s);
3. thrust T and rotor speed omega from x:

   * ``coefficient`` model (gz-sim, Fossen 1994 p. 246): T = Ct rho D^4 omega |omega|.
     Without ``thrust_coefficient`` the coefficient follows the advance ratio as
     gz-sim computes it: Ct = alpha_1 + alpha_2 J, J = Va / (omega D),
     Va = (1 - wake_fraction) u_a, with u_a the water-relative velocity of the
     thruster point along the thrust axis (gz-sim uses the link's speed; the two
     agree in straight motion along the axis).  With a thrust command the rotor
     speed solves the same equation exactly (gz-sim lags the coefficient by one
     step).  A negative Ct is a counter-rotating propeller (gz-sim: the sign of
     Ct gives the spin direction for positive thrust);
   * ``table`` model (uuv_simulator's LinearInterp, a T200 PWM/thrust curve):
     T = piecewise-linear interpolation of (lookup_command, lookup_thrust), held
     at the end values outside; the table must be monotone and cross zero thrust
     (its zero is the neutral command); no rotor speed (reported as NaN);
   * ``dsros`` model (ds_sim's dsros_thruster): for c = |u| limited to max_cmd and
     the apparent speed s = |u_a| (0 when the vehicle moves against the command),
     T = +-max(0, quad_gain c^2 + gain c + offset + speed_gain c s + speed_offset s)
     with the ``dsros_forward`` coefficients for u >= 0 and ``dsros_reverse`` (default
     the forward ones) for u < 0; no rotor speed;

4. deadband (gz-sim): |T| < deadband gives T = 0 and omega = 0;
5. reaction torque on the vehicle about the axis, opposite to the rotor's spin:
   Q = -K_Q rho D^5 omega |omega| (Fossen's propeller torque, K_Q =
   ``torque_coefficient``) for the coefficient model, Q = -s k T for the table
   and dsros models (k = ``torque_per_thrust`` in m, s = ``spin_direction``: +1 when
   the rotor turns positively about the axis under positive thrust);
6. base wrench: F = T d, torque = r x F + Q d with d the axis and r the joint
   origin in the base frame, i.e. tau = A T + A_Q Q with the allocation matrix
   A = [d; r x d] (Fossen 2011 eq. 12.x) and A_Q = [0; d].
"""
from dataclasses import dataclass
import math
from typing import List, Optional, Sequence, Tuple

import numpy as np

from uwv_hydro.physics.rotation import quat_to_matrix

#: Terms of a ds_sim thrust polynomial (dsros_thruster's DsrosThrusterModel).
DSROS_TERMS = ('quad_gain', 'gain', 'offset', 'speed_gain', 'speed_offset', 'max_cmd')

#: gz-sim's defaults for the Thruster system parameters.
GZ_DEFAULT_MAX_THRUST_CMD = 1000.0
GZ_DEFAULT_MIN_THRUST_CMD = -1000.0
GZ_DEFAULT_PROPELLER_DIAMETER = 0.02
GZ_DEFAULT_WAKE_FRACTION = 0.2
GZ_DEFAULT_ALPHA_1 = 1.0
GZ_DEFAULT_ALPHA_2 = 0.0


@dataclass(frozen=True)
class ThrusterSpec:
    """One thruster: where it pushes, how command becomes thrust (SI units)."""

    #: Name of the thruster joint (gz-sim ``joint_name``); also names the thruster.
    joint_name: str
    #: Joint origin in the base frame (m): the point of application.
    translation: Tuple[float, float, float] = (0.0, 0.0, 0.0)
    #: Rotation base <- joint frame, unit quaternion [w, x, y, z].
    rotation: Tuple[float, float, float, float] = (1.0, 0.0, 0.0, 0.0)
    #: Thrust direction in the joint frame (unit vector).
    axis: Tuple[float, float, float] = (1.0, 0.0, 0.0)
    #: Commands are rotor angular velocities (rad/s) instead of thrust (N).
    use_angvel_cmd: bool = False
    #: Ct of T = Ct rho D^4 omega|omega|; None: alpha_1 + alpha_2 J (gz-sim).
    thrust_coefficient: Optional[float] = None
    propeller_diameter: float = GZ_DEFAULT_PROPELLER_DIAMETER
    #: Fluid density (kg/m^3); None: the vehicle's.
    fluid_density: Optional[float] = None
    wake_fraction: float = GZ_DEFAULT_WAKE_FRACTION
    alpha_1: float = GZ_DEFAULT_ALPHA_1
    alpha_2: float = GZ_DEFAULT_ALPHA_2
    #: Lookup table command -> thrust (the table model when non-empty).
    lookup_command: Tuple[float, ...] = ()
    lookup_thrust: Tuple[float, ...] = ()
    #: Command limits; None: gz-sim's +-1000 (coefficient) or the table's ends.
    max_thrust_cmd: Optional[float] = None
    min_thrust_cmd: Optional[float] = None
    #: |thrust| below this (N) gives zero thrust and rotor speed (gz-sim).
    deadband: float = 0.0
    #: First-order lag of the commanded quantity (s); 0: none.
    time_constant: float = 0.0
    #: Largest rate of change of the commanded quantity (units/s); inf: none.
    max_cmd_rate: float = math.inf
    #: K_Q of Q = K_Q rho D^5 omega|omega| (coefficient model).
    torque_coefficient: float = 0.0
    #: Reaction torque per thrust (m) and spin direction (+1/-1) (table, dsros models).
    torque_per_thrust: float = 0.0
    spin_direction: int = 1
    #: ds_sim thrust polynomials (DSROS_TERMS order); the dsros model when non-empty.
    dsros_forward: Tuple[float, ...] = ()
    dsros_reverse: Tuple[float, ...] = ()
    #: Command topic relative to ``namespace`` (gz-sim ``topic``); '' -> gz pattern.
    topic: str = ''
    #: gz-sim ``namespace`` (default: the vehicle's name).
    namespace: str = ''

    @property
    def model(self) -> str:
        """Return 'table', 'dsros' or 'coefficient'."""
        if self.lookup_command:
            return 'table'
        return 'dsros' if self.dsros_forward else 'coefficient'

    def dsros_terms(self) -> Tuple[Tuple[float, ...], Tuple[float, ...]]:
        """Return the (forward, reverse) ds_sim polynomials, reverse defaulted."""
        return self.dsros_forward, self.dsros_reverse or self.dsros_forward

    def point(self) -> np.ndarray:
        """Return the point of application in the base frame."""
        return np.asarray(self.translation, dtype=float)

    def direction(self) -> np.ndarray:
        """Return the unit thrust direction in the base frame (d = R a)."""
        return quat_to_matrix(self.rotation) @ np.asarray(self.axis, dtype=float)

    def command_limits(self) -> Tuple[float, float]:
        """Return (min, max) command with the defaults resolved."""
        if self.model == 'table':
            low, high = self.lookup_command[0], self.lookup_command[-1]
        elif self.model == 'dsros':
            forward, reverse = self.dsros_terms()
            low, high = -reverse[DSROS_TERMS.index('max_cmd')], forward[
                DSROS_TERMS.index('max_cmd')]
        else:
            low, high = GZ_DEFAULT_MIN_THRUST_CMD, GZ_DEFAULT_MAX_THRUST_CMD
        low = low if self.min_thrust_cmd is None else self.min_thrust_cmd
        high = high if self.max_thrust_cmd is None else self.max_thrust_cmd
        return float(low), float(high)

    def neutral_command(self) -> float:
        """Return the command giving zero thrust (0, or the table's zero)."""
        if self.model != 'table':
            return 0.0
        return table_zero(self.lookup_command, self.lookup_thrust)

    def problems(self) -> List[Tuple[str, str]]:
        """Return (parameter, reason) for every inconsistency (empty when valid)."""
        out: List[Tuple[str, str]] = []
        for key, terms in (('dsros_forward', self.dsros_forward),
                           ('dsros_reverse', self.dsros_reverse)):
            if terms and len(terms) != len(DSROS_TERMS):
                return [(key, 'expected the %d terms %s' % (len(DSROS_TERMS),
                                                            ', '.join(DSROS_TERMS)))]
        norm = float(np.linalg.norm(self.axis))
        if not abs(norm - 1.0) < 1e-9:
            out.append(('axis', 'expected a unit vector, norm %g' % norm))
        low, high = self.command_limits()
        if not low <= high:
            out.append(('max_thrust_cmd', 'max_thrust_cmd %g is below min_thrust_cmd %g'
                        % (high, low)))
        positive = [('propeller_diameter', self.propeller_diameter)]
        if self.fluid_density is not None:
            positive.append(('fluid_density', self.fluid_density))
        if self.max_cmd_rate != math.inf:
            positive.append(('max_cmd_rate', self.max_cmd_rate))
        for key, value in positive:
            if not value > 0.0:
                out.append((key, 'must be positive, got %g' % value))
        if not abs(self.propeller_diameter) < 1e30:
            out.append(('propeller_diameter',
                        'implausible diameter %g m' % self.propeller_diameter))
        for key in ('deadband', 'time_constant', 'torque_coefficient', 'torque_per_thrust'):
            if not getattr(self, key) >= 0.0:
                out.append((key, 'must be >= 0, got %g' % getattr(self, key)))
        if not 0.0 <= self.wake_fraction < 1.0:
            out.append(('wake_fraction', 'must be in [0, 1), got %g' % self.wake_fraction))
        if self.spin_direction not in (1, -1):
            out.append(('spin_direction', 'must be 1 or -1, got %r' % (self.spin_direction,)))
        if self.model == 'dsros':
            for key, terms in (('dsros_forward', self.dsros_forward),
                               ('dsros_reverse', self.dsros_reverse)):
                if terms and not terms[DSROS_TERMS.index('max_cmd')] >= 0.0:
                    out.append((key, 'max_cmd must be >= 0'))
            if self.lookup_thrust:
                out.append(('lookup_thrust', 'given without lookup_command'))
        if self.model in ('table', 'dsros'):
            if self.model == 'table':
                out.extend(table_problems(self.lookup_command, self.lookup_thrust))
            if self.dsros_forward and self.model == 'table':
                out.append(('dsros_forward', 'give a lookup table or the ds_sim polynomials, '
                            'not both'))
            if self.use_angvel_cmd:
                out.append(('use_angvel_cmd', 'the %s model maps its own command to thrust; '
                            'use_angvel_cmd needs the thrust_coefficient model' % self.model))
            if self.torque_coefficient:
                out.append(('torque_coefficient', 'the %s model has no rotor speed; give '
                            'torque_per_thrust and spin_direction instead' % self.model))
        else:
            if self.dsros_reverse:
                out.append(('dsros_reverse', 'given without dsros_forward'))
            if self.lookup_thrust:
                out.append(('lookup_thrust', 'given without lookup_command'))
            if self.torque_per_thrust:
                out.append(('torque_per_thrust', 'only for the table and dsros models; give '
                            'torque_coefficient (K_Q) for the thrust_coefficient model'))
            if self.thrust_coefficient is None and not self.alpha_1 > 0.0:
                out.append(('alpha_1', 'must be positive without a thrust_coefficient, '
                            'got %g' % self.alpha_1))
            if self.thrust_coefficient == 0.0:
                out.append(('thrust_coefficient', 'must not be zero'))
        return out


def table_problems(command: Sequence[float], thrust: Sequence[float]) -> List[Tuple[str, str]]:
    """Return the reasons a lookup table is unusable (monotone, zero crossing)."""
    if len(command) != len(thrust):
        return [('lookup_thrust', '%d thrust values for %d commands'
                 % (len(thrust), len(command)))]
    if len(command) < 2:
        return [('lookup_command', 'need at least two points, got %d' % len(command))]
    c, t = np.asarray(command, float), np.asarray(thrust, float)
    out = []
    steps = np.diff(c)
    if not np.all(steps > 0.0):
        k = int(np.argmax(~(steps > 0.0)))
        out.append(('lookup_command', 'commands must increase strictly: %g then %g (points '
                    '%d, %d)' % (c[k], c[k + 1], k, k + 1)))
    rises = np.diff(t)
    if np.any(rises > 0.0) and np.any(rises < 0.0):
        k = int(np.argmax(rises * np.sign(t[-1] - t[0]) < 0.0))
        out.append(('lookup_thrust', 'thrust must be monotone in the command: %g, %g, %g at '
                    'points %d..%d' % (t[max(k - 1, 0)], t[k], t[k + 1], max(k - 1, 0),
                                       k + 1)))
    if not (t.min() <= 0.0 <= t.max()):
        out.append(('lookup_thrust', 'the table never gives zero thrust (range %g..%g N), so '
                    'the thruster cannot stop' % (t.min(), t.max())))
    return out


def table_zero(command: Sequence[float], thrust: Sequence[float]) -> float:
    """Return the command of zero thrust: the middle of a flat zero band, else the crossing."""
    c, t = np.asarray(command, float), np.asarray(thrust, float)
    zeros = np.flatnonzero(t == 0.0)
    if zeros.size:
        return float(0.5 * (c[zeros[0]] + c[zeros[-1]]))
    k = int(np.flatnonzero(np.sign(t[:-1]) != np.sign(t[1:]))[0])
    # Linear interpolation between the two points around the sign change
    return float(c[k] - t[k] * (c[k + 1] - c[k]) / (t[k + 1] - t[k]))


def dsros_thrust(spec: ThrusterSpec, command: float, inflow: float) -> float:
    """Return ds_sim's thrust for ``command`` at the axial apparent speed ``inflow``."""
    forward, reverse = spec.dsros_terms()
    quad, gain, offset, speed_gain, speed_offset, max_cmd = forward if command >= 0.0 \
        else reverse
    # ds_sim: moving against the command counts as no apparent speed
    speed = 0.0 if inflow * command < 0.0 else abs(inflow)
    c = min(abs(command), max_cmd)
    # dsros_thruster: T = quad c^2 + gain c + offset + speed_gain c s + speed_offset s, >= 0
    value = quad * c * c + gain * c + offset + speed_gain * c * speed + speed_offset * speed
    return max(value, 0.0) if command >= 0.0 else -max(value, 0.0)


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
        self._table_k = np.array([self.specs[k].torque_per_thrust * self.specs[k].spin_direction
                                  for k in self._no_speed], dtype=float)
        self.reset()

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
        lag = self.time_constant > 0.0
        target = u.copy()
        if np.any(lag):
            # Exact first-order hold: x+ = x + (1 - exp(-dt/tau)) (u - x)
            gain = -np.expm1(-dt / self.time_constant[lag])
            target[lag] = x[lag] + gain * (u[lag] - x[lag])
        # Rate limit: |x+ - x| <= r dt (no limit where r is infinite, also for dt = 0)
        bound = np.where(np.isfinite(self.max_rate), self.max_rate * dt, np.inf)
        step = np.clip(target - x, -bound, bound)
        self.state = x + step
        return self.state

    def inflow(self, nu_r) -> np.ndarray:
        """Return u_a: water-relative velocity of each thruster point along its axis."""
        if nu_r is None:
            return np.zeros(len(self.specs))
        nu_r = np.asarray(nu_r, dtype=float)
        # Velocity of a point: v_p = v + omega x r
        v = nu_r[:3] + np.cross(nu_r[3:], self.points)
        return np.einsum('ij,ij->i', v, self.directions)

    def evaluate(self, nu_r=None) -> np.ndarray:
        """Compute thrust, rotor speed and reaction torque from the states; return the wrench."""
        x = self.state
        thrust, omega, torque = self.thrust, self.omega, self.torque
        if self._coeff.size:
            k = self._coeff
            xs = x[k]
            # Advance-ratio term of T/(rho D^4): alpha_2 Va |omega| / D, Va = (1 - w) u_a
            b = self._alpha2 * (1.0 - self._wake) * self.inflow(nu_r)[k] / self._diameter
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
        for k in self._table:
            spec = self.specs[k]
            # Piecewise-linear lookup, held at the end values (uuv LinearInterp)
            thrust[k] = np.interp(x[k], spec.lookup_command, spec.lookup_thrust)
        if self._dsros:
            u_a = self.inflow(nu_r)
            for k in self._dsros:
                thrust[k] = dsros_thrust(self.specs[k], x[k], u_a[k])
        for j, k in enumerate(self._no_speed):
            # Reaction torque: Q = -s k T
            torque[k] = -self._table_k[j] * thrust[k]
        dead = (np.abs(thrust) < self.deadband) & self.deadband_enabled
        if np.any(dead):
            # gz-sim deadband: no thrust and no spin below it
            thrust[dead] = 0.0
            torque[dead] = 0.0
            omega[dead & np.isfinite(omega)] = 0.0
        return self.wrench()

    def step(self, commands, dt: float, nu_r=None) -> np.ndarray:
        """Advance the rotors by dt, evaluate, return the base wrench to hold over the step."""
        self.advance(commands, dt)
        return self.evaluate(nu_r)

    def wrench(self) -> np.ndarray:
        """Return the base-frame wrench of the current thrusts and torques."""
        # tau = A T + A_Q Q
        return self.allocation @ self.thrust + self.torque_allocation @ self.torque
