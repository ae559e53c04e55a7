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
Standard manoeuvres of a vehicle without ROS: turning circle, zig-zag, pull-out, spiral.

A pure class (:class:`Manoeuvre`) that flies the vehicle offline with SimulateMode and
its fin servos, as the node does, and returns the ITTC figures (ITTC Recommended
Procedure 7.5-04-02-01, "Full scale manoeuvring trials"; Fossen 2021 sec. 16.x) so that
the CLI (``uwv-hydro manoeuvre``), tests and sweeps (a Dask map over vehicles or
rudder angles) call the same code.

Flight: the vehicle starts level at ``depth`` with the approach ``speed``, pushed by a
constant surge force equal to its straight-line drag at that speed (the hull's
``HydroModel`` wrench, fins centred), so it keeps the speed going straight and loses
some in a turn as a vehicle at fixed propeller thrust does.  A vehicle whose thrusters
include propellers with open-water curves (the ``propeller`` thruster model, K_T(J)) is
flown at fixed rotor speed instead, as a real AUV is: the cruise rpm that holds ``speed``
straight (:meth:`Manoeuvre.cruise_speed`, reported as ``cruise_rpm``) drives every
propeller, whose thrust grows as the vehicle slows in a turn (other thrusters idle).
Rudder fins (deflection axis along body z) steer, stern planes (axis along body y) hold
the depth through :class:`DepthHold` (PI on depth -> pitch reference -> PD on pitch).
Each fin's sign is found from its own moment: a positive rudder command turns to port
(positive yaw rate r, FLU), a positive stern command pitches the nose down.  Angles in
radians inside, figures in degrees and metres.

A vehicle whose fins sit ahead of the body origin (mean fin x > 0: an LRAUV model,
which faces -x) flies along -x; its figures are in the nose's frame.

Figures (heading change psi - psi_0 after the rudder is put over at t_0, track in the
approach frame: x along the approach heading, y toward the turn):

* turn: advance (x at 90 deg of heading change), transfer (y at 90 deg), tactical
  diameter (y at 180 deg), steady diameter (least-squares circle through the track
  between 270 and 450 deg, Kasa's algebraic fit), steady speed and speed loss
  (1 - U / U_0), drift angle (sideslip atan2(v, u) in the steady turn), steady r;
* zig-zag a/b: rudder +a until the heading has changed by +b, then -a until -b, ...;
  overshoot angles (how far the heading runs past +-b after each reversal), the
  period (between the first and the third reversal) and the time to the first one;
* pull-out: after a steady turn the rudder is centred; the yaw rate left after
  ``settle`` seconds (zero for a directionally stable vehicle);
* spiral: the steady yaw rate for each rudder angle (separate runs from straight flight).

A vehicle without rudder fins whose thrusters can push ahead and turn (its allocation
matrix realises a pure surge force and a pure yaw moment: two side-by-side propellers,
a vectored ROV) is steered by differential thrust: the "rudder" is then the fraction
d in [-1, 1] of the yaw moment d X r_y (X the cruise thrust, r_y the thrusters' mean
lateral lever arm; positive to port), and the body wrench [X, 0, Z, 0, 0, N] is realised
by the thrusters' least-squares allocation (ideal thrusters: no rotor lag, no
saturation).  The depth is held with the heave force Z (PD on depth over the static
weight - buoyancy).  Without fins nor such thrusters the manoeuvre is refused
(:class:`ManoeuvreError`).
"""
import dataclasses
from dataclasses import dataclass, field
import math
from typing import Callable, Dict, List, Optional, Sequence

import numpy as np

from uwv_hydro.modes.fin_servos import FinServos
from uwv_hydro.modes.simulate_mode import SimulateMode
from uwv_hydro.physics.dynamics import State
from uwv_hydro.physics.hydro_model import HydroModel
from uwv_hydro.physics.thruster_bank import ThrusterBank
from uwv_hydro.physics.thruster_spec import ThrusterSpec
from uwv_hydro.physics.vehicle_params import VehicleParams

#: Manoeuvres :class:`Manoeuvre` flies (the CLI's choices).
MANOEUVRES = ('turn', 'zigzag', 'pullout', 'spiral')


class ManoeuvreError(ValueError):
    """The vehicle cannot fly the manoeuvre (no rudder, ...): the message says why."""


def rotor_speed_commanded(spec: ThrusterSpec, fluid_density: float) -> ThrusterSpec:
    """
    Return a propeller commanded by rotor speed (rad/s): the manoeuvres hold the rpm.

    A propeller commanded by thrust gets the rotor-speed limits at which it gives its
    thrust limits at rest (bollard pull); other thrusters are returned unchanged.
    """
    if spec.model != 'propeller' or spec.use_angvel_cmd:
        return spec
    rho = fluid_density if spec.fluid_density is None else spec.fluid_density
    scale = spec.kt_polynomial[0] * rho * spec.propeller_diameter ** 4
    # bollard pull T = K_T(0) rho D^4 n|n|, omega = 2 pi n
    low, high = (math.copysign(2.0 * math.pi * math.sqrt(abs(t) / scale), t)
                 for t in spec.command_limits())
    return dataclasses.replace(spec, use_angvel_cmd=True, min_thrust_cmd=low,
                               max_thrust_cmd=high, max_cmd_rate=math.inf)


def euler_zyx(q) -> tuple:
    """Return (roll, pitch, yaw) of a world <- body quaternion [w, x, y, z] (ZYX)."""
    w, x, y, z = q
    roll = math.atan2(2.0 * (w * x + y * z), 1.0 - 2.0 * (x * x + y * y))
    pitch = math.asin(max(-1.0, min(1.0, 2.0 * (w * y - z * x))))
    yaw = math.atan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z))
    return roll, pitch, yaw


class DepthHold:
    """
    Stern-plane depth autopilot: PI on depth -> pitch reference -> PD on pitch.

    Returns the stern command (rad, positive pitches the nose down: positive pitch in
    FLU) from the depth (m, positive down), the pitch (rad, FLU: positive nose down)
    and the pitch rate q (rad/s, FLU).  The pitch reference is bounded to +-0.1 rad.
    """

    def __init__(self, depth: float, dt: float, kp: float = 0.2, ki: float = 0.02,
                 k_pitch: float = 3.0, k_rate: float = 3.0, max_pitch: float = 0.1):
        self.depth, self.dt = float(depth), float(dt)
        self.kp, self.ki, self.k_pitch, self.k_rate = kp, ki, k_pitch, k_rate
        self.max_pitch = max_pitch
        self.integral = 0.0

    def __call__(self, depth: float, pitch: float, q: float) -> float:
        """Return the stern command for this step (and advance the integral)."""
        error = self.depth - depth  # too shallow: positive -> nose down
        self.integral = min(max(self.integral + error * self.dt, -5.0), 5.0)
        pitch_ref = min(max(self.kp * error + self.ki * self.integral, -self.max_pitch),
                        self.max_pitch)
        return self.k_pitch * (pitch_ref - pitch) - self.k_rate * q


@dataclass
class Flight:
    """
    A flown track.

    Times (n,), ENU positions (n, 3), unwrapped yaw and pitch (n,), body twists (n, 6)
    and the actual rudder angle (n,, positive to port), angles in radians.
    """

    t: np.ndarray
    position: np.ndarray
    yaw: np.ndarray
    pitch: np.ndarray
    twist: np.ndarray
    rudder: np.ndarray


@dataclass
class Figures:
    """The figures of one manoeuvre (name -> value, units in the names) and its flight."""

    kind: str
    values: Dict[str, float] = field(default_factory=dict)
    flight: Optional[Flight] = None
    #: Spiral: rows (rudder deg, steady r deg/s, steady speed m/s).
    table: List[List[float]] = field(default_factory=list)


def _crossing(t, signal, level):
    """Return the first time ``signal`` reaches ``level`` (linear interpolation), or nan."""
    above = np.nonzero(signal >= level)[0]
    if len(above) == 0 or above[0] == 0:
        return math.nan
    k = above[0]
    frac = (level - signal[k - 1]) / (signal[k] - signal[k - 1])
    return t[k - 1] + frac * (t[k] - t[k - 1])


def circle_fit(xy: np.ndarray):
    """Return (centre (2,), radius) of the least-squares circle through points (Kasa)."""
    # x^2 + y^2 = 2 a x + 2 b y + c, radius^2 = c + a^2 + b^2 (Kasa 1976)
    design = np.column_stack([2.0 * xy[:, 0], 2.0 * xy[:, 1], np.ones(len(xy))])
    (a, b, c), *_ = np.linalg.lstsq(design, (xy ** 2).sum(axis=1), rcond=None)
    return np.array([a, b]), math.sqrt(max(c + a * a + b * b, 0.0))


def turn_figures(flight: Flight, t0: float) -> Dict[str, float]:
    """
    Return the turning-circle figures of a flight whose rudder went over at ``t0``.

    NaN for a figure the flight did not reach (e.g. the tactical diameter of a turn
    shorter than 180 deg).
    """
    t, pos, yaw, nu = flight.t, flight.position[:, :2], flight.yaw, flight.twist
    k0 = int(np.searchsorted(t, t0))
    psi0 = yaw[k0]
    change = yaw - psi0
    sign = 1.0 if change[-1] >= 0.0 else -1.0
    turned = sign * change
    ahead = np.array([math.cos(psi0), math.sin(psi0)])
    side = sign * np.array([-math.sin(psi0), math.cos(psi0)])
    rel = pos - pos[k0]
    x_along, y_side = rel @ ahead, rel @ side
    speed0 = float(np.linalg.norm(nu[k0, :2]))

    def at(angle, values):
        when = _crossing(t[k0:], turned[k0:], math.radians(angle))
        return float(np.interp(when, t, values)) if math.isfinite(when) else math.nan
    out = {'advance_m': at(90.0, x_along), 'transfer_m': at(90.0, y_side),
           'tactical_diameter_m': at(180.0, y_side)}
    steady = (turned >= math.radians(270.0)) & (turned <= math.radians(450.0))
    if steady.sum() < 10:  # a short turn: the last quarter of what was flown
        steady = np.arange(len(t)) >= k0 + 3 * (len(t) - k0) // 4
    _, radius = circle_fit(pos[steady])
    speed = np.linalg.norm(nu[steady, :2], axis=1)
    out['steady_diameter_m'] = 2.0 * radius
    out['steady_speed_m_s'] = float(speed.mean())
    out['speed_loss'] = 1.0 - out['steady_speed_m_s'] / speed0 if speed0 > 0 else math.nan
    out['drift_angle_deg'] = float(np.degrees(
        np.abs(np.arctan2(nu[steady, 1], nu[steady, 0]))).mean())
    out['yaw_rate_deg_s'] = float(np.degrees(np.abs(nu[steady, 5])).mean())
    out['heading_change_deg'] = float(np.degrees(turned[-1]))
    return out


def zigzag_figures(flight: Flight, t0: float, check_deg: float,
                   reversals: Sequence[float]) -> Dict[str, float]:
    """
    Return the zig-zag figures: overshoots (deg) after each reversal, period, first time.

    ``reversals``: the times the rudder command was reversed.  After reversal k the
    heading runs on past the check angle before it turns back: the overshoot is its
    extreme beyond +-check before reversal k + 1 (or the end).
    """
    t, yaw = flight.t, flight.yaw
    change = np.degrees(yaw - yaw[int(np.searchsorted(t, t0))])
    out = {}
    ends = list(reversals[1:]) + [t[-1]]
    for k, (start, end) in enumerate(zip(reversals, ends)):
        window = (t >= start) & (t <= end)
        if not window.any():
            break
        # reversals 1, 3, ... follow the turn to +check, 2, 4, ... the turn to -check
        extreme = change[window].max() if k % 2 == 0 else -change[window].min()
        out['overshoot_%d_deg' % (k + 1)] = float(extreme) - check_deg
    out['time_to_first_reversal_s'] = float(reversals[0] - t0) if reversals else math.nan
    out['period_s'] = float(reversals[2] - reversals[0]) if len(reversals) > 2 else math.nan
    return out


class Manoeuvre:
    """
    Fly standard manoeuvres with one vehicle (see the module docstring).

    ``speed`` (m/s) approach speed, ``depth`` (m) the depth held by the stern planes
    (``depth_hold`` False: stern planes centred), ``dt`` (s) the simulate step.
    """

    def __init__(self, params: VehicleParams, speed: float = 1.5, depth: float = 5.0,
                 dt: float = 0.02, depth_hold: bool = True):
        if not speed > 0.0:
            raise ValueError('speed must be positive, got %r' % (speed,))
        self.params, self.speed, self.depth, self.dt = params, float(speed), depth, dt
        self.depth_hold = depth_hold
        #: +1 when the nose is at +x; -1 when the fins sit ahead of the origin (an LRAUV
        #: model faces -x): it flies along -x, figures in the nose's frame
        self.ahead = -1.0 if params.fins and np.mean(
            [f.position[0] for f in params.fins]) > 0.0 else 1.0
        self.rudders, self.sterns = self._steering(params, self.ahead)
        # straight-line drag at the approach speed (fins centred): the constant thrust
        model = HydroModel(params)
        drag = model.wrench([self.ahead * self.speed, 0, 0, 0, 0, 0], fin_angles=np.zeros(
            len(params.fins))).total[0]
        self.thrust = max(0.0, -self.ahead * float(drag))
        #: Propellers flown at fixed rotor speed (rudder vehicles): their bank and the
        #: cruise rotor speed (rad/s) of each thruster (NaN: idle); None otherwise.
        self.propellers = None
        if self.rudders and any(t.model == 'propeller' for t in params.thrusters):
            self.propellers = ThrusterBank([rotor_speed_commanded(s, params.fluid_density)
                                            for s in params.thrusters], params.fluid_density)
            self.cruise = self.cruise_speed(self.thrust)
        #: Thruster steering (no rudder): allocation pseudo-inverse, yaw moment per unit
        #: differential, heave gains; None with rudder fins.
        self.differential = None
        if self.rudders:
            #: The largest rudder command (rad; a fraction 1 for differential thrust).
            self.max_rudder = min(min(params.fins[k].upper, -params.fins[k].lower)
                                  for k, _ in self.rudders)
        else:
            self.differential = self._differential(params, model)
            self.max_rudder = 1.0

    def cruise_speed(self, drag: float) -> np.ndarray:
        """
        Return the rotor speeds (rad/s; NaN idle) whose propellers hold ``speed`` straight.

        ``drag``: the straight-line drag at the approach speed (N, positive astern).  One
        rotor speed drives every propeller; bisection on the surge force (the thrust
        falls monotonically to it as J grows).  Refused when the largest command does not
        reach the drag.
        """
        bank = self.propellers
        prop = np.array([s.model == 'propeller' for s in bank.specs])
        # flown nose first along ``ahead`` x; the surge force counted along it
        nu = [self.ahead * self.speed, 0.0, 0.0, 0.0, 0.0, 0.0]

        def surge(omega):
            # idle thrusters at their neutral command (a NaN state would make the wrench NaN)
            bank.state[:] = bank.steady_state(np.where(prop, omega, bank.neutral))
            return self.ahead * float(bank.evaluate(nu)[0]) - drag
        high = float(np.min(bank.cmd_max[prop]))
        if surge(high) < 0.0:
            raise ManoeuvreError('%s: its propellers at their largest rotor speed (%g rad/s) '
                                 'do not hold %g m/s' % (self.params.name, high, self.speed))
        low = 0.0
        for _ in range(60):
            mid = 0.5 * (low + high)
            low, high = (low, mid) if surge(mid) > 0.0 else (mid, high)
        bank.reset()
        return np.where(prop, 0.5 * (low + high), np.nan)

    def _cruise_figures(self, values: Dict[str, float]) -> Dict[str, float]:
        """Return ``values`` with the cruise rpm of a vehicle flown at fixed rotor speed."""
        if self.propellers is not None:
            # rpm = omega 60 / (2 pi)
            values['cruise_rpm'] = float(np.nanmax(self.cruise)) * 30.0 / math.pi
        return values

    def _differential(self, params, model):
        """Return the differential-thrust steering of a finless vehicle (or refuse it)."""
        why = ('%s has no rudder (a fin whose deflection axis is along body z)'
               % params.name)
        if not params.thrusters:
            raise ManoeuvreError(why + ' and no thrusters to turn it by differential thrust')
        alloc = ThrusterBank(params.thrusters, params.fluid_density).allocation
        pinv = np.linalg.pinv(alloc)
        for axis, name in ((0, 'a pure surge force'), (5, 'a pure yaw moment')):
            want = np.eye(6)[axis]
            if np.abs(alloc @ (pinv @ want) - want).max() > 1e-6:
                raise ManoeuvreError(why + ' and its thrusters cannot make %s: no '
                                     'differential-thrust turn' % name)
        lever = float(np.mean([abs(t.translation[1]) for t in params.thrusters]))
        mass = params.mass + float(model.added_mass_matrix()[2, 2])
        # PD on depth: stiffness 0.1 W per metre, critically damped (mass + added mass)
        kp = 0.1 * params.weight()
        return {'pinv': pinv, 'alloc': alloc, 'yaw': self.thrust * max(lever, 0.05),
                'kp': kp, 'kd': 2.0 * float(np.sqrt(kp * mass)),
                'static': params.weight() - params.buoyancy()}

    def _thrust_wrench(self, command, depth, w_world):
        """Return the realised body wrench of differential thrust (level flight)."""
        d = self.differential
        heave = 0.0
        if self.depth_hold:
            # too shallow: push down; weight - buoyancy held by an upward force
            heave = d['static'] - d['kp'] * (self.depth - depth) - d['kd'] * w_world
        want = np.array([self.ahead * self.thrust, 0.0, heave, 0.0, 0.0, command * d['yaw']])
        return (d['alloc'] @ (d['pinv'] @ want)).tolist()

    @staticmethod
    def _steering(params, ahead=1.0):
        """Return ([(fin index, sign)] rudders, sterns): signs make r > 0 / nose down."""
        rudders, sterns = [], []
        if not params.fins:
            return rudders, sterns
        model = HydroModel(params)
        nu = [ahead, 0, 0, 0, 0, 0]
        base = model.wrench(nu, fin_angles=np.zeros(len(params.fins))).components['fins']
        for k, fin in enumerate(params.fins):
            axis = np.asarray(fin.axis, float) / np.linalg.norm(fin.axis)
            angles = np.zeros(len(params.fins))
            angles[k] = 0.05
            moment = model.wrench(nu, fin_angles=angles).components['fins'] - base
            if abs(axis[2]) > 0.9 and moment[5] != 0.0:
                rudders.append((k, 1.0 if moment[5] > 0 else -1.0))
            elif abs(axis[1]) > 0.9 and moment[4] != 0.0:
                sterns.append((k, ahead if moment[4] > 0 else -ahead))
        return rudders, sterns

    def fly(self, rudder: Callable[[float, float, float], float], duration: float,
            stop: Optional[Callable[[float, float], bool]] = None,
            kick: Optional[Sequence[float]] = None) -> Flight:
        """
        Fly ``duration`` s; ``rudder(t, heading change, r)`` gives the rudder command (rad).

        ``stop(t, heading change)`` ends the flight early when it returns True; ``kick``
        (6 floats) is added to the approach twist at the start.
        """
        p = self.params
        twist = np.array([self.ahead * self.speed, 0.0, 0.0, 0.0, 0.0, 0.0])
        if kick is not None:
            twist = twist + np.asarray(kick, dtype=float).reshape(6)
        mode = SimulateMode(p, dt=self.dt, initial=State(
            np.array([0.0, 0.0, -self.depth]), np.array([1.0, 0.0, 0.0, 0.0]), twist))
        mode.servos = FinServos(p.fins) if p.fins else None
        hold = DepthHold(self.depth, self.dt)
        tau = [self.ahead * self.thrust, 0.0, 0.0, 0.0, 0.0, 0.0]
        thrust = None
        if self.propellers is not None and self.differential is None:
            bank, tau = self.propellers, None
            bank.reset()
            bank.state[:] = bank.steady_state(self.cruise)
            # the propellers at the cruise rotor speed, J from the body twist (still water)
            thrust = lambda x: bank.step(self.cruise, self.dt, x[7:13])  # noqa: E731
        n = int(round(duration / self.dt))
        rows = np.empty((n + 1, 13))
        rudder_actual = np.empty(n + 1)
        times = np.arange(n + 1) * self.dt
        now = 0
        mode.advance(now)
        yaw_prev, turns = 0.0, 0.0
        command = 0.0
        last = n
        for k in range(n + 1):
            x = mode.x
            rows[k] = x
            rudder_actual[k] = (mode.servos.angles[self.rudders[0][0]] * self.rudders[0][1]
                                if self.rudders else command)
            _, pitch, yaw = euler_zyx(x[3:7])
            # unwrap the heading as it goes
            turns += round((yaw_prev - yaw) / (2 * math.pi))
            yaw_prev = yaw
            change = yaw + 2 * math.pi * turns
            t = k * self.dt
            if k == n or (stop is not None and stop(t, change)):
                last = k
                break
            command = min(max(rudder(t, change, x[12]), -self.max_rudder), self.max_rudder)
            for index, sign in self.rudders:
                mode.servos.command(index, sign * command, t)
            # the nose's pitch and pitch rate (the body x is the tail when ahead < 0)
            stern = hold(-x[2], self.ahead * pitch, self.ahead * x[11]) \
                if self.depth_hold else 0.0
            for index, sign in self.sterns:
                mode.servos.command(index, sign * stern, t)
            if self.differential is not None:
                # world vertical velocity: R[2, :] v (Fossen 2011 eq. 2.83)
                qw, qx, qy, qz = x[3:7]
                w_world = (2 * (qx * qz - qw * qy) * x[7] + 2 * (qy * qz + qw * qx) * x[8]
                           + (1 - 2 * (qx * qx + qy * qy)) * x[9])
                tau = self._thrust_wrench(command, -x[2], w_world)
            now += mode.period_ns
            mode.advance(now, tau, thrust=thrust)
        rows, times, rudder_actual = rows[:last + 1], times[:last + 1], rudder_actual[:last + 1]
        yaw = np.unwrap([euler_zyx(q)[2] for q in rows[:, 3:7]])
        pitch = np.array([euler_zyx(q)[1] for q in rows[:, 3:7]])
        twist = rows[:, 7:].copy()
        if self.ahead < 0:
            # the nose's frame: the body frame turned 180 deg about z
            yaw, pitch = yaw + math.pi, -pitch
            twist[:, [0, 1, 3, 4]] *= -1.0
        return Flight(times, rows[:, :3].copy(), yaw, pitch, twist, rudder_actual)

    def turn(self, rudder: float, approach: float = 5.0, max_time: float = 600.0) -> Figures:
        """Fly the turning circle: ``rudder`` (rad) held until 450 deg of heading change."""
        flight = self.fly(lambda t, change, r: rudder if t >= approach else 0.0, max_time,
                          stop=lambda t, change: abs(change) >= math.radians(450.0))
        return Figures('turn', self._cruise_figures(turn_figures(flight, approach)), flight)

    def zigzag(self, rudder: float, check: Optional[float] = None, reversals: int = 4,
               approach: float = 5.0, max_time: float = 600.0) -> Figures:
        """Zig-zag rudder/check (rad; check defaults to the rudder angle)."""
        check = rudder if check is None else check
        state = {'sign': 1.0, 'times': []}

        def law(t, change, r):
            if t < approach:
                return 0.0
            if state['sign'] * change >= check:
                state['sign'] = -state['sign']
                state['times'].append(t)
            return state['sign'] * rudder

        flight = self.fly(law, max_time,
                          stop=lambda t, change: len(state['times']) > reversals)
        figures = zigzag_figures(flight, approach, math.degrees(check),
                                 state['times'][:reversals])
        return Figures('zigzag', self._cruise_figures(figures), flight)

    def pullout(self, rudder: float, turn_time: float = 120.0, settle: float = 60.0,
                approach: float = 5.0) -> Figures:
        """Steady turn for ``turn_time`` s, then the rudder centred for ``settle`` s."""
        release = approach + turn_time
        flight = self.fly(lambda t, change, r: rudder if approach <= t < release else 0.0,
                          release + settle)
        t, r = flight.t, np.degrees(flight.twist[:, 5])
        before = (t > release - 10.0) & (t <= release)
        after = t > release + settle - 10.0
        values = {'turn_yaw_rate_deg_s': float(np.abs(r[before]).mean()),
                  'residual_yaw_rate_deg_s': float(np.abs(r[after]).mean())}
        values['residual_ratio'] = values['residual_yaw_rate_deg_s'] / max(
            values['turn_yaw_rate_deg_s'], 1e-12)
        return Figures('pullout', values, flight)

    def spiral(self, rudders: Sequence[float], time: float = 150.0,
               approach: float = 5.0) -> Figures:
        """Steady yaw rate and speed for every rudder angle in ``rudders`` (rad)."""
        table = []
        for delta in rudders:
            flight = self.fly(lambda t, change, r, d=delta: d if t >= approach else 0.0,
                              time)
            last = flight.t > flight.t[-1] - 20.0
            table.append([math.degrees(delta),
                          float(np.degrees(flight.twist[last, 5]).mean()),
                          float(np.linalg.norm(flight.twist[last, :2], axis=1).mean())])
        return Figures('spiral', {'points': float(len(table))}, None, table)
