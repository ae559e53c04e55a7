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
An ROV flown open loop under a constant stick (thruster-command mix) held, no ROS.

The pilot's sticks are six fractions in [-1, 1] on the FLU axes (surge ahead, sway to
port, heave up, roll, pitch, yaw to port).  :func:`stick_commands` mixes them as an
ArduSub-like mixer does (AP_Motors6DOF: each motor's output is neutral plus the sum of
stick times motor factor, clipped to the output range): a thruster's factor on an axis
is its share of the least-squares allocation of a unit wrench on that axis, scaled so
that the largest share is 1 -- for the vectored BlueROV2 frames these are ArduSub's own
+-1 and 0 factors (``test/unit/modes/test_bluerov2_open_loop.py`` checks it).  A share of
1 is the full command range: from the thruster's neutral command (the table's zero, 1500 us for a
T200 table) to its maximum (1900 us) or minimum (1100 us).

:func:`hold` flies the vehicle from rest with per-thruster commands held (a fixed
vector, or a function of time, e.g. :class:`~uwv_hydro.modes.ardusub_rc.ArduSubChannels`
outputs): every step the thruster models advance under the commands with the inflow
of the body's relative velocity and push over the step, as in the node's simulate
mode (:class:`~uwv_hydro.modes.simulate_mode.SimulateMode` steps).  Figures: the steady
means over the last ``steady`` seconds (body velocities, horizontal speed, rates) and
the attitude: the largest roll and pitch over the run and their final values.
"""
from dataclasses import dataclass, field
import math
from typing import Callable, Dict, Sequence, Union

import numpy as np

from uwv_hydro.description.overflow_bounds import too_many_steps
from uwv_hydro.modes.manoeuvres.manoeuvre_control import euler_zyx
from uwv_hydro.modes.simulate_mode import SimulateMode
from uwv_hydro.physics.actuators.thruster_bank import ThrusterBank
from uwv_hydro.physics.body.dynamics import State
from uwv_hydro.physics.body.vehicle_params import VehicleParams

#: Stick axes, FLU: surge ahead, sway to port, heave up, roll, pitch, yaw to port.
AXES = ('surge', 'sway', 'heave', 'roll', 'pitch', 'yaw')
#: Relative singular value below which the thrusters do not push on an axis combination.
AXIS_CUTOFF = 1e-3


class HoldError(ValueError):
    """The vehicle cannot be flown so (no thrusters, no finite command range...)."""


def motor_factors(params: VehicleParams) -> np.ndarray:
    """
    Return the (thrusters, 6) stick factors: each axis' allocation shares, largest 1.

    The least-squares allocation (pseudo-inverse of the allocation matrix) of a unit
    wrench on each axis, divided by its largest share; an axis the thrusters cannot
    push on gets zero factors.
    """
    if not params.thrusters:
        raise HoldError('%s has no thrusters' % params.name)
    a = ThrusterBank(params.thrusters, params.fluid_density).allocation
    # column j: the thrusts of a unit wrench on axis j.  Directions below 1e-3 of the
    # strongest are no directions: angles rounded in a file (1.571 for pi/2) leave an
    # axis the thrusters cannot push on with a 1e-4 share that a plain pseudo-inverse
    # would blow up into every other axis' mix
    shares = np.linalg.pinv(a, rcond=AXIS_CUTOFF)
    out = np.zeros_like(shares)
    for j in range(6):
        # the axis is reachable when the shares give it back alone (A A+ e_j = e_j)
        if not np.allclose(a @ shares[:, j], np.eye(6)[j], atol=AXIS_CUTOFF):
            continue
        column = shares[:, j] / np.max(np.abs(shares[:, j]))
        out[:, j] = np.where(np.abs(column) < 1e-9, 0.0, column)
    return out


def stick_commands(params: VehicleParams, sticks: Dict[str, float]) -> np.ndarray:
    """
    Return each thruster's command for the sticks held ({axis: fraction in [-1, 1]}).

    command = neutral + clip(sum of stick x factor, -1, 1) x (max - neutral), or x
    (neutral - min) below neutral (AP_Motors6DOF: 1500 + 400 x mix, clipped).
    """
    unknown = sorted(set(sticks) - set(AXES))
    if unknown:
        raise HoldError('unknown stick axis %s: the axes are %s'
                        % (', '.join(unknown), ', '.join(AXES)))
    for axis, value in sticks.items():
        if not abs(value) <= 1.0:
            raise HoldError('stick %s = %g is outside [-1, 1]' % (axis, value))
    factors = motor_factors(params)
    stick = np.array([float(sticks.get(axis, 0.0)) for axis in AXES])
    mix = np.clip(factors @ stick, -1.0, 1.0)
    out = np.empty(len(params.thrusters))
    for k, spec in enumerate(params.thrusters):
        low, high = spec.command_limits()
        neutral = spec.neutral_command()
        if not (math.isfinite(low) and math.isfinite(high)):
            raise HoldError('thruster %s has no finite command range: no full stick'
                            % spec.joint_name)
        out[k] = neutral + mix[k] * ((high - neutral) if mix[k] >= 0 else (neutral - low))
    return out


@dataclass
class Hold:
    """The flight: time, world position, attitude (rad) and body twist; the figures."""

    t: np.ndarray
    position: np.ndarray        # (n, 3) world ENU
    attitude: np.ndarray        # (n, 3) roll, pitch, yaw (rad, ZYX)
    twist: np.ndarray           # (n, 6) body FLU
    values: Dict[str, float] = field(default_factory=dict)


Commands = Union[Sequence[float], Callable[[float], Sequence[float]]]


def hold(params: VehicleParams, commands: Commands, duration: float = 10.0,
         dt: float = 0.01, steady: float = 2.0, depth: float = 5.0) -> Hold:
    """
    Fly ``duration`` s from rest with the thruster commands held; return the Hold.

    ``commands``: one command per thruster (``params.thrusters`` order), or a function
    of time giving them (read at the start of each step).  ``depth``: the start depth
    (m, positive down), below any surface transition.
    """
    if not dt > 0 or not duration > 0 or not 0 < steady <= duration:
        raise HoldError('need dt > 0, duration > 0 and 0 < steady <= duration')
    if not params.thrusters:
        raise HoldError('%s has no thrusters' % params.name)
    source = commands if callable(commands) else (lambda t, u=list(commands): u)
    bank = ThrusterBank(params.thrusters, params.fluid_density)
    # at rest at ``depth`` (world z up), out of the free-surface zone
    mode = SimulateMode(params, dt=dt, initial=State(position=[0.0, 0.0, -depth]))
    why = too_many_steps(duration, dt, 'duration (--duration, s)', 'dt (--dt, s)')
    if why is not None:
        raise HoldError(why)
    n = int(round(duration / dt))
    if n < 2:
        raise HoldError('duration %g s at dt %g s is %.3g steps: need 2 at least'
                        % (duration, dt, duration / dt))
    rows = np.empty((n + 1, 13))
    rows[0] = mode.x
    for k in range(n):
        # the rotors advance with the inflow of the state's velocity, then push over the
        # step (the node's thruster drive before each simulate step; still water)
        wrench = bank.step(np.asarray(source(k * dt), float), dt, np.asarray(rows[k, 7:]))
        mode.step(wrench)
        rows[k + 1] = mode.x
    t = np.arange(n + 1) * dt
    attitude = np.array([euler_zyx(q) for q in rows[:, 3:7]])
    flight = Hold(t, rows[:, :3].copy(), attitude, rows[:, 7:].copy())
    last = t >= t[-1] - steady - 1e-9
    mean = rows[last, 7:].mean(axis=0)
    world_v = np.gradient(rows[:, :3], dt, axis=0)[last]
    roll, pitch = np.degrees(attitude[:, 0]), np.degrees(attitude[:, 1])
    flight.values = {
        'surge_m_s': mean[0], 'sway_m_s': mean[1], 'heave_m_s': mean[2],
        'horizontal_speed_m_s': float(np.hypot(world_v[:, 0], world_v[:, 1]).mean()),
        'roll_rate_deg_s': math.degrees(mean[3]), 'pitch_rate_deg_s': math.degrees(mean[4]),
        'yaw_rate_deg_s': math.degrees(mean[5]),
        'max_abs_roll_deg': float(np.max(np.abs(roll))),
        'max_abs_pitch_deg': float(np.max(np.abs(pitch))),
        'final_roll_deg': float(roll[-1]), 'final_pitch_deg': float(pitch[-1]),
    }
    flight.values = {key: float(value) for key, value in flight.values.items()}
    return flight
