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
Procedure 7.5-04-02-01, "Full scale manoeuvring trials"; Fossen 2021) so that
the CLI (``uwv-hydro manoeuvre``), tests and sweeps (a Dask map over vehicles or
rudder angles) call the same code.

Flight: the vehicle starts level at ``depth`` with the approach ``speed``, pushed by a
constant surge force equal to its straight-line drag at that speed, or, with
open-water propeller curves, driven at the cruise rpm that holds ``speed``
(:meth:`Manoeuvre.cruise_speed`).  Rudder fins (axis along body z) steer, stern planes
(axis along body y) hold the depth through :class:`DepthHold`; each fin's sign is found
from its own moment (a positive rudder turns to port, FLU).  A vehicle without rudder
fins whose thrusters realise a pure surge force and yaw moment is steered by
differential thrust (least-squares allocation, ideal thrusters); without either the
manoeuvre is refused (:class:`ManoeuvreError`).  A vehicle whose fins sit ahead of
the body origin (an LRAUV model, facing -x) flies along -x.  Angles in radians
inside, figures in degrees and metres.

Figures, each manoeuvre in its own module: turn (:mod:`.manoeuvre_turn`), zig-zag
(:mod:`.manoeuvre_zigzag`), pull-out (:mod:`.manoeuvre_pullout`), spiral
(:mod:`.manoeuvre_spiral`).  The track and figures are :class:`Flight` and
:class:`Figures` (:mod:`.manoeuvre_track`), the depth autopilot :class:`DepthHold`
(:mod:`.manoeuvre_control`); this module re-exports them and the figure functions.
What each figure means and how a flight is set up: doc/guide/manoeuvres.md.
"""
import math
from typing import Callable, Dict, Optional, Sequence

import numpy as np

from uwv_hydro.description.overflow_bounds import too_many_steps
from uwv_hydro.modes.fin_servos import FinServos
from uwv_hydro.modes.manoeuvres.manoeuvre_control import (
    DepthHold, euler_zyx, rotor_speed_commanded)
from uwv_hydro.modes.manoeuvres.manoeuvre_pullout import fly_pullout
from uwv_hydro.modes.manoeuvres.manoeuvre_spiral import fly_spiral
from uwv_hydro.modes.manoeuvres.manoeuvre_track import Figures, Flight
from uwv_hydro.modes.manoeuvres.manoeuvre_turn import circle_fit, fly_turn, turn_figures
from uwv_hydro.modes.manoeuvres.manoeuvre_zigzag import fly_zigzag, zigzag_figures
from uwv_hydro.modes.simulate_mode import SimulateMode
from uwv_hydro.physics.actuators.thruster_bank import ThrusterBank
from uwv_hydro.physics.body.dynamics import State
from uwv_hydro.physics.body.vehicle_params import VehicleParams
from uwv_hydro.physics.hydro.hydro_model import HydroModel

#: The public names, also those of the manoeuvre modules re-exported here.
__all__ = ['MANOEUVRES', 'ManoeuvreError', 'Manoeuvre', 'DepthHold', 'euler_zyx',
           'rotor_speed_commanded', 'Figures', 'Flight', 'circle_fit', 'turn_figures',
           'zigzag_figures']

#: Manoeuvres :class:`Manoeuvre` flies (the CLI's choices).
MANOEUVRES = ('turn', 'zigzag', 'pullout', 'spiral')


class ManoeuvreError(ValueError):
    """The vehicle cannot fly the manoeuvre (no rudder, ...): the message says why."""


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

    def cruise_figures(self, values: Dict[str, float]) -> Dict[str, float]:
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
        why = too_many_steps(duration, self.dt, 'the flight (s)', 'dt (--dt, s)')
        if why is not None:
            raise ManoeuvreError(why)
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
                # world vertical velocity: R[2, :] v (Fossen 2021 ch. 2)
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
        return fly_turn(self, rudder, approach, max_time)

    def zigzag(self, rudder: float, check: Optional[float] = None, reversals: int = 4,
               approach: float = 5.0, max_time: float = 600.0) -> Figures:
        """Zig-zag rudder/check (rad; check defaults to the rudder angle)."""
        return fly_zigzag(self, rudder, check, reversals, approach, max_time)

    def pullout(self, rudder: float, turn_time: float = 120.0, settle: float = 60.0,
                approach: float = 5.0) -> Figures:
        """Steady turn for ``turn_time`` s, then the rudder centred for ``settle`` s."""
        return fly_pullout(self, rudder, turn_time, settle, approach)

    def spiral(self, rudders: Sequence[float], time: float = 150.0,
               approach: float = 5.0) -> Figures:
        """Steady yaw rate and speed for every rudder angle in ``rudders`` (rad)."""
        return fly_spiral(self, rudders, time, approach)
