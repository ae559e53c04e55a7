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
A flown manoeuvre: its track (:class:`Flight`) and its figures (:class:`Figures`).

:class:`~uwv_hydro.modes.manoeuvres.manoeuvre.Manoeuvre` flies the track; each manoeuvre's module
(:mod:`.manoeuvre_turn`, :mod:`.manoeuvre_zigzag`, :mod:`.manoeuvre_pullout`,
:mod:`.manoeuvre_spiral`) reads its figures off it.
"""
from dataclasses import dataclass, field
from typing import Dict, List, Optional

import numpy as np


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
