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
The turning circle (ITTC Recommended Procedure 7.5-04-02-01): the rudder held over.

Figures (heading change psi - psi_0 after the rudder is put over at t_0, track in the
approach frame: x along the approach heading, y toward the turn): advance (x at 90 deg
of heading change), transfer (y at 90 deg), tactical diameter (y at 180 deg), steady
diameter (least-squares circle through the track between 270 and 450 deg, Kasa's
algebraic fit), steady speed and speed loss (1 - U / U_0), drift angle (sideslip
atan2(v, u) in the steady turn), steady r.
"""
import math
from typing import Dict

import numpy as np

from uwv_hydro.modes.manoeuvres.manoeuvre_track import Figures, Flight


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


def fly_turn(manoeuvre, rudder: float, approach: float = 5.0,
             max_time: float = 600.0) -> Figures:
    """
    Fly the turning circle: ``rudder`` (rad) held until 450 deg of heading change.

    ``manoeuvre``: the :class:`~uwv_hydro.modes.manoeuvres.manoeuvre.Manoeuvre` that flies it.
    """
    flight = manoeuvre.fly(lambda t, change, r: rudder if t >= approach else 0.0, max_time,
                           stop=lambda t, change: abs(change) >= math.radians(450.0))
    return Figures('turn', manoeuvre.cruise_figures(turn_figures(flight, approach)), flight)
