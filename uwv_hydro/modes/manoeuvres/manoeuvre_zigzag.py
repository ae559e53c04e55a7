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
The zig-zag a/b (ITTC Recommended Procedure 7.5-04-02-01): rudder reversed at +-b.

Rudder +a until the heading has changed by +b, then -a until -b, ...  Figures: the
overshoot angles (how far the heading runs past +-b after each reversal), the period
(between the first and the third reversal) and the time to the first one.
"""
import math
from typing import Dict, Optional, Sequence

import numpy as np

from uwv_hydro.modes.manoeuvres.manoeuvre_track import Figures, Flight


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


def fly_zigzag(manoeuvre, rudder: float, check: Optional[float] = None, reversals: int = 4,
               approach: float = 5.0, max_time: float = 600.0) -> Figures:
    """
    Zig-zag rudder/check (rad; check defaults to the rudder angle).

    ``manoeuvre``: the :class:`~uwv_hydro.modes.manoeuvres.manoeuvre.Manoeuvre` that flies it.
    """
    check = rudder if check is None else check
    state = {'sign': 1.0, 'times': []}

    def law(t, change, r):
        if t < approach:
            return 0.0
        if state['sign'] * change >= check:
            state['sign'] = -state['sign']
            state['times'].append(t)
        return state['sign'] * rudder

    flight = manoeuvre.fly(law, max_time,
                           stop=lambda t, change: len(state['times']) > reversals)
    figures = zigzag_figures(flight, approach, math.degrees(check),
                             state['times'][:reversals])
    return Figures('zigzag', manoeuvre.cruise_figures(figures), flight)
