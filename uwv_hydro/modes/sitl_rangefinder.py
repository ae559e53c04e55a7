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
The rangefinder ArduPilot SITL reads from the JSON reply (``rng_1``): one beam to the seabed.

ArduPilot's SIM_JSON.cpp reads ``rng_1`` with ``atof`` into the SITL rangefinder 1
(metres), which ``AP_RangeFinder_SITL`` (``RNGFND1_TYPE`` 100) reports: NaN or inf as
*no data* (which fails ArduSub's pre-arm check), a negative value as 0, and then by
``RNGFND1_MIN`` / ``RNGFND1_MAX`` (metres) out of range low, good or out of range high.

The beam starts at ``position`` (m, body FLU) and runs along ``direction`` (body FLU;
[0, 0, -1] is straight down, ArduPilot's ``RNGFNDn_ORIENT`` 25).  Its reading is the
distance along the beam to the first point of the seabed (0 when the start is in it),
like ArduPilot's own SITL rangefinder, which reads the slant range without a tilt
correction.  A beam that meets no seabed within ``max_range`` (looking up, beyond the
grid, over a hole) reads ``max_range`` + :data:`NO_RETURN_MARGIN_M`: with
``RNGFND1_MAX`` <= ``max_range`` ArduPilot sees it out of range high, as a real sonar
beyond its range, and can arm; a finite value, so the reply stays valid JSON.
"""
import math
from typing import Sequence

import numpy as np

#: How far beyond the maximum range a beam without a return reads (m).
NO_RETURN_MARGIN_M = 1.0
#: The largest maximum range (m): ArduPilot sends distances as uint16 centimetres
#: (MAVLink DISTANCE_SENSOR), 655.35 m, and the no-return reading must stay below it.
MAX_RANGE_LIMIT_M = 600.0


class BeamRangefinder:
    """One rangefinder on the vehicle: a beam from a body point to a seabed."""

    def __init__(self, seabed, position: Sequence[float], direction: Sequence[float],
                 max_range: float):
        d = np.asarray(direction, dtype=float).reshape(3)
        norm = float(np.linalg.norm(d))
        if not (math.isfinite(norm) and norm > 0.0):
            raise ValueError('rangefinder direction %s: not a direction (zero or not '
                             'finite)' % list(direction))
        if not 0.0 < max_range <= MAX_RANGE_LIMIT_M:
            raise ValueError('rangefinder maximum range %r m: must be in (0, %g]'
                             % (max_range, MAX_RANGE_LIMIT_M))
        self.seabed = seabed
        self.position = np.asarray(position, dtype=float).reshape(3)
        self.direction = d / norm  # the cast takes a unit vector
        self.max_range = float(max_range)
        self.no_return = self.max_range + NO_RETURN_MARGIN_M

    def beam(self, x):
        """Return (start, unit direction) of the beam in the world (ENU) at state ``x``."""
        w, a, b, c = (float(v) for v in x[3:7])
        n = 1.0 / math.sqrt(w * w + a * a + b * b + c * c)
        w, a, b, c = w * n, a * n, b * n, c * n
        # rotation matrix of the unit quaternion [w, a, b, c] (body FLU -> world ENU)
        r = np.array([[1 - 2 * (b * b + c * c), 2 * (a * b - w * c), 2 * (a * c + w * b)],
                      [2 * (a * b + w * c), 1 - 2 * (a * a + c * c), 2 * (b * c - w * a)],
                      [2 * (a * c - w * b), 2 * (b * c + w * a), 1 - 2 * (a * a + b * b)]])
        # point on the body: p_world = p + R r_body; direction d_world = R d_body
        return np.asarray(x[0:3], dtype=float) + r @ self.position, r @ self.direction

    def reading(self, x) -> float:
        """Return the distance (m) along the beam to the seabed, or the no-return reading."""
        start, direction = self.beam(x)
        rng = float(self.seabed.cast(start[None, :], direction[None, :], self.max_range)[0])
        return rng if math.isfinite(rng) else self.no_return
