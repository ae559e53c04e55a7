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
A direction (joint, thrust or fin axis, fin forward/upward, DVL beam) as a unit vector.

Only the direction of such a vector counts (sdformat, urdfdom and gz-sim's LiftDrag
normalise it), so any finite non-zero vector gives one.  It is scaled by its largest
component before it is normalised: a vector whose length leaves the float range
(``xyz="1e300 0 0"``, where the plain normalisation gives the zero vector) keeps its
direction, with no overflow.  The description readers and the multibody model use it.
"""
from typing import Optional, Sequence

import numpy as np


def unit_vector(vector: Sequence[float]) -> Optional[np.ndarray]:
    """Return ``vector`` / |vector|, or None for a zero or non-finite vector."""
    v = np.asarray(vector, float)
    if v.size == 0 or not np.all(np.isfinite(v)):
        return None
    scale = float(np.max(np.abs(v)))
    if not scale > 0.0:
        return None
    v = v / scale  # largest component +-1: the norm below cannot overflow
    return v / float(np.sqrt(v @ v))
