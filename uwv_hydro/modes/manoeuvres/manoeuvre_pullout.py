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
The pull-out (ITTC Recommended Procedure 7.5-04-02-01): a steady turn, rudder centred.

Figures: the yaw rate of the steady turn and the one left ``settle`` seconds after the
rudder is centred (zero for a directionally stable vehicle), and their ratio.
"""
import numpy as np

from uwv_hydro.modes.manoeuvres.manoeuvre_track import Figures


def fly_pullout(manoeuvre, rudder: float, turn_time: float = 120.0, settle: float = 60.0,
                approach: float = 5.0) -> Figures:
    """
    Steady turn for ``turn_time`` s, then the rudder centred for ``settle`` s.

    ``manoeuvre``: the :class:`~uwv_hydro.modes.manoeuvres.manoeuvre.Manoeuvre` that flies it.
    """
    release = approach + turn_time
    flight = manoeuvre.fly(lambda t, change, r: rudder if approach <= t < release else 0.0,
                           release + settle)
    t, r = flight.t, np.degrees(flight.twist[:, 5])
    before = (t > release - 10.0) & (t <= release)
    after = t > release + settle - 10.0
    values = {'turn_yaw_rate_deg_s': float(np.abs(r[before]).mean()),
              'residual_yaw_rate_deg_s': float(np.abs(r[after]).mean())}
    values['residual_ratio'] = values['residual_yaw_rate_deg_s'] / max(
        values['turn_yaw_rate_deg_s'], 1e-12)
    return Figures('pullout', values, flight)
