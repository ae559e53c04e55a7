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
Thruster descriptions: the models a thruster may have and their parameters (ThrusterSpec).

The bank that runs them (rotor states, thrust, torque, base wrench) is
:mod:`uwv_hydro.physics.actuators.thruster_bank`.

A thruster is a joint (gz-sim's Thruster system uses ``joint_name``): the joint
origin is the point of application, the joint axis the thrust direction.  Per
update of length dt (the wrench is then held over the integration step):

1. command u, clamped to [min_thrust_cmd, max_thrust_cmd] (gz-sim); a missing or
   non-finite command is the neutral command (zero thrust);
2. rotor dynamics on the commanded quantity: none, first order (``time_constant``,
   exact zero-order hold), a rate limit, or uuv_simulator's rotor models of the form
   J omega' = k_u u - k_1 omega - k_2 omega |omega| (:data:`UUV_DYNAMICS`: Yoerger et
   al. 1990, Bessa et al. 2006), integrated with RK4 sub-steps;
3. thrust T and rotor speed omega: ``coefficient`` (gz-sim, Fossen 1994 p. 246:
   T = Ct rho D^4 omega |omega|, Ct fixed or alpha_1 + alpha_2 J), ``propeller``
   (K_T(J), K_Q(J) polynomials), ``table`` (uuv_simulator's LinearInterp),
   ``uuv_basic`` / ``uuv_bessa`` (uuv_simulator's conversions) or ``dsros``
   (ds_sim's dsros_thruster polynomials);
4. deadband (gz-sim): |T| < deadband gives T = 0 and omega = 0;
5. reaction torque about the axis, opposite to the rotor's spin
   (Q = -K_Q rho D^5 omega |omega|, Fossen's propeller torque, or Q = -s k T);
6. base wrench tau = A T + A_Q Q with A = [d; r x d] (the thrust configuration
   matrix T of tau = T K u, Fossen 2021 sec. 11.2; MSS ucalloc) and A_Q = [0; d].

Each model's keys, formulas and sign rules: doc/guide/hil.md ("Thrusters:
per-thruster commands (simulate mode)"), doc/reference/thrusters.md and, for
uuv_simulator's rotor models, doc/guide/uuv_dave_dssim.md.
"""
from dataclasses import dataclass
import math
from typing import List, Optional, Sequence, Tuple

import numpy as np

from uwv_hydro.physics.spatial.rotation import quat_to_matrix

#: Terms of a ds_sim thrust polynomial (dsros_thruster's DsrosThrusterModel).
DSROS_TERMS = ('quad_gain', 'gain', 'offset', 'speed_gain', 'speed_offset', 'max_cmd')

#: uuv_simulator's rotor dynamics (Dynamics.cc): type -> its parameters, stored in this order.
UUV_DYNAMICS = {'Yoerger': ('alpha', 'beta'), 'Bessa': ('Jmsp', 'Kv1', 'Kv2', 'Kt', 'Rm')}
#: uuv_simulator's conversion functions (ThrusterConversionFcn.cc) of rotor speed to thrust
#: (its LinearInterp is the lookup table).
UUV_CONVERSIONS = {'Basic': ('rotorConstant',),
                   'Bessa': ('rotorConstantL', 'rotorConstantR', 'deltaL', 'deltaR')}

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
    #: The body of the kinematic tree the thruster pushes ('': the base body); the pose
    #: above is then where it sits at zero joint positions (the lumped vehicle's).
    body: str = ''
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
    #: Command limits; None: gz-sim's +-1000 (coefficient), the table's ends, none (uuv).
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
    #: ds_sim ``propdir``: <= 0 flips which polynomial (and thrust sign) a command selects.
    propdir: int = 1
    #: Open-water curves K_T(J), K_Q(J) as polynomial coefficients in J (constant term
    #: first): the propeller model when kt_polynomial is non-empty.
    kt_polynomial: Tuple[float, ...] = ()
    kq_polynomial: Tuple[float, ...] = ()
    #: Thrust deduction t (propeller model): the hull takes (1 - t) T.
    thrust_deduction: float = 0.0
    #: uuv_simulator rotor dynamics ('' none, 'Yoerger', 'Bessa') and its UUV_DYNAMICS terms.
    dynamics_type: str = ''
    dynamics_terms: Tuple[float, ...] = ()
    #: uuv_simulator conversion ('' none, 'Basic', 'Bessa') and its UUV_CONVERSIONS terms.
    conversion_type: str = ''
    conversion_terms: Tuple[float, ...] = ()
    #: Command topic relative to ``namespace`` (gz-sim ``topic``); '' -> gz pattern.
    topic: str = ''
    #: gz-sim ``namespace`` (default: the vehicle's name).
    namespace: str = ''

    @property
    def model(self) -> str:
        """Return 'table', 'dsros', 'propeller', 'uuv_basic', 'uuv_bessa' or 'coefficient'."""
        if self.kt_polynomial:
            return 'propeller'
        if self.lookup_command:
            return 'table'
        if self.dsros_forward:
            return 'dsros'
        if self.conversion_type in UUV_CONVERSIONS:
            return 'uuv_' + self.conversion_type.lower()
        return 'coefficient'

    def rotor_terms(self) -> Tuple[float, float, float, float]:
        """Return (J, k_u, k_1, k_2) of J omega' = k_u u - k_1 omega - k_2 omega|omega|."""
        if self.dynamics_type == 'Yoerger':
            alpha, beta = self.dynamics_terms
            # Yoerger et al. 1990 (uuv_simulator Dynamics.cc): omega' = beta u - alpha omega|omega|
            return 1.0, beta, 0.0, alpha
        jmsp, kv1, kv2, kt, rm = self.dynamics_terms
        # Bessa et al. 2006 (uuv_simulator Dynamics.cc): Jmsp omega' = Kt/Rm u - Kv1 omega
        # - Kv2 omega|omega|
        return jmsp, kt / rm, kv1, kv2

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
        elif self.model.startswith('uuv_'):
            low, high = -math.inf, math.inf  # uuv_simulator's clampMin/clampMax defaults
        elif self.model == 'dsros':
            forward, reverse = self.dsros_terms()
            if self.propdir <= 0:  # positive commands run the reverse polynomial
                forward, reverse = reverse, forward
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
        for key, kind, names in (('dynamics', self.dynamics_type, UUV_DYNAMICS),
                                 ('conversion', self.conversion_type, UUV_CONVERSIONS)):
            if kind and kind not in names:
                return [(key, 'unknown type %r; expected %s%s' % (
                    kind, ', '.join(names),
                    ' (LinearInterp is the lookup table)' if key == 'conversion' else ''))]
            terms = getattr(self, key + '_terms')
            if kind and len(terms) != len(names[kind]):
                return [(key, '%s expects the %d terms %s' % (kind, len(names[kind]),
                                                              ', '.join(names[kind])))]
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
            if self.conversion_type:
                out.append(('conversion', 'give one thrust model: the %s model or a '
                            'uuv_simulator conversion, not both' % self.model))
        else:
            if self.dsros_reverse:
                out.append(('dsros_reverse', 'given without dsros_forward'))
            if self.lookup_thrust:
                out.append(('lookup_thrust', 'given without lookup_command'))
        if self.model == 'coefficient':
            if self.torque_per_thrust:
                out.append(('torque_per_thrust', 'only for the table, dsros and uuv models; '
                            'give torque_coefficient (K_Q) for the thrust_coefficient model'))
            if self.thrust_coefficient is None and not self.alpha_1 > 0.0:
                out.append(('alpha_1', 'must be positive without a thrust_coefficient, '
                            'got %g' % self.alpha_1))
            if self.thrust_coefficient == 0.0:
                out.append(('thrust_coefficient', 'must not be zero'))
        elif self.model.startswith('uuv_'):
            out.extend(self._conversion_problems())
        out.extend(self._propeller_problems())
        return out + self._dynamics_problems()

    def _propeller_problems(self) -> List[Tuple[str, str]]:
        if self.model != 'propeller':
            if self.kq_polynomial or self.thrust_deduction:
                key = 'kq_polynomial' if self.kq_polynomial else 'thrust_deduction'
                return [(key, 'only for the propeller model (give kt_polynomial)')]
            return []
        out = []
        for key, given in (('thrust_coefficient', self.thrust_coefficient is not None),
                           ('lookup_command', bool(self.lookup_command)),
                           ('dsros_forward', bool(self.dsros_forward)),
                           ('conversion', bool(self.conversion_type)),
                           ('torque_coefficient', bool(self.torque_coefficient)),
                           ('torque_per_thrust', bool(self.torque_per_thrust))):
            if given:
                out.append((key, 'not with kt_polynomial: give one thrust model (the '
                            'propeller takes its torque from kq_polynomial)'))
        if not self.kt_polynomial[0] > 0.0:
            out.append(('kt_polynomial', 'K_T(0) (the first term) must be positive, got %g'
                        % self.kt_polynomial[0]))
        if self.kq_polynomial and not self.kq_polynomial[0] >= 0.0:
            out.append(('kq_polynomial', 'K_Q(0) (the first term) must be >= 0, got %g'
                        % self.kq_polynomial[0]))
        if not 0.0 <= self.thrust_deduction < 1.0:
            out.append(('thrust_deduction', 'must be in [0, 1), got %g'
                        % self.thrust_deduction))
        return out

    def _conversion_problems(self) -> List[Tuple[str, str]]:
        out = []
        for key, hint in (('thrust_coefficient', 'give one thrust model'),
                          ('use_angvel_cmd', 'its input is the rotor speed already'),
                          ('torque_coefficient', 'give torque_per_thrust and spin_direction')):
            if getattr(self, key):
                out.append((key, 'not with a uuv_simulator conversion: %s' % hint))
        terms = dict(zip(UUV_CONVERSIONS[self.conversion_type], self.conversion_terms))
        if self.conversion_type == 'Basic' and terms['rotorConstant'] == 0.0:
            out.append(('conversion.rotorConstant', 'must not be zero'))
        # uuv_simulator's ConversionFunctionBessa asserts these signs
        for key, sign in (('rotorConstantL', 1), ('rotorConstantR', 1), ('deltaL', -1),
                          ('deltaR', 1)):
            if key in terms and not sign * terms[key] >= 0.0:
                out.append(('conversion.' + key, 'must be %s 0, got %g'
                            % ('>=' if sign > 0 else '<=', terms[key])))
        return out

    def _dynamics_problems(self) -> List[Tuple[str, str]]:
        if not self.dynamics_type:
            return [('dynamics', 'terms given without a type')] if self.dynamics_terms else []
        out = []
        terms = dict(zip(UUV_DYNAMICS[self.dynamics_type], self.dynamics_terms))
        positive = ('alpha', 'beta', 'Jmsp', 'Kt', 'Rm')
        for key, value in terms.items():
            if key in positive and not value > 0.0:
                out.append(('dynamics.' + key, 'must be positive, got %g' % value))
            elif key not in positive and not value >= 0.0:
                out.append(('dynamics.' + key, 'must be >= 0, got %g' % value))
        if self.dynamics_type == 'Bessa' and not terms['Kv1'] + terms['Kv2'] > 0.0:
            out.append(('dynamics.Kv2', 'Kv1 or Kv2 must be positive (else the rotor speed '
                        'grows without bound)'))
        if self.time_constant > 0.0 or math.isfinite(self.max_cmd_rate):
            out.append(('dynamics', 'give one rotor dynamics: the %s model or time_constant/'
                        'max_cmd_rate' % self.dynamics_type))
        speed_input = self.model == 'coefficient' and self.use_angvel_cmd
        if not (self.model.startswith('uuv_') or speed_input):
            out.append(('dynamics', "the %s model's state is the rotor speed: use it with a "
                        'uuv_simulator conversion (Basic, Bessa) or thrust_coefficient with '
                        'use_angvel_cmd, not the %s model%s'
                        % (self.dynamics_type, self.model,
                           ' with thrust commands' if self.model == 'coefficient' else '')))
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
