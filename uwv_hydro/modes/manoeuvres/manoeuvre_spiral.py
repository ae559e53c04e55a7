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
The spiral (ITTC Recommended Procedure 7.5-04-02-01): a steady turn per rudder angle.

Figures: the steady yaw rate and speed for each rudder angle, each a separate run from
straight flight.
"""
import math
from typing import Sequence

import numpy as np

from uwv_hydro.modes.manoeuvres.manoeuvre_track import Figures


def fly_spiral(manoeuvre, rudders: Sequence[float], time: float = 150.0,
               approach: float = 5.0) -> Figures:
    """
    Steady yaw rate and speed for every rudder angle in ``rudders`` (rad).

    ``manoeuvre``: the :class:`~uwv_hydro.modes.manoeuvres.manoeuvre.Manoeuvre` that flies it.
    """
    table = []
    for delta in rudders:
        flight = manoeuvre.fly(lambda t, change, r, d=delta: d if t >= approach else 0.0,
                               time)
        last = flight.t > flight.t[-1] - 20.0
        table.append([math.degrees(delta),
                      float(np.degrees(flight.twist[last, 5]).mean()),
                      float(np.linalg.norm(flight.twist[last, :2], axis=1).mean())])
    return Figures('spiral', {'points': float(len(table))}, None, table)
