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
The initial joint positions of a vehicle with moving links, checked against its joints.

One value per moving joint in the tree's order (``VehicleParams.tree.joint_names()``,
the order of ``joint_states``), as the node's ``initial_joint_positions`` parameter and
``simulate --initial-joint-positions`` give them.  Each value must be finite and within
its joint's position limits (URDF ``<limit lower upper>``; none for a continuous
joint): a value outside is an error naming the joint, its limits and the value (it is
not clamped, so a typo does not start the arm somewhere else).  Nothing given: zero,
clamped to the limits (the mode's default).
"""
import math
from typing import Optional, Sequence

import numpy as np


def initial_joint_positions(values: Optional[Sequence[float]], tree,
                            where: str = 'initial_joint_positions') -> np.ndarray:
    """
    Return the checked initial positions (tree order) of ``tree``'s moving joints.

    ``values`` None: zero clamped to each joint's limits.  ``where`` names the
    setting in the errors (ValueError).
    """
    joints = tree.joints
    names = [j.name for j in joints]
    lower = np.array([j.lower for j in joints], dtype=float)
    upper = np.array([j.upper for j in joints], dtype=float)
    if values is None:
        return np.clip(np.zeros(len(joints)), lower, upper)
    values = [float(v) for v in values]
    if len(values) != len(names):
        raise ValueError('%s: %d values given; the vehicle has %d moving joints, one value '
                         'each in this order: %s' % (where, len(values), len(names),
                                                     ', '.join(names) or 'none'))
    for k, (name, value) in enumerate(zip(names, values)):
        if not math.isfinite(value):
            raise ValueError('%s[%d] (joint %s) must be finite, got %r'
                             % (where, k, name, value))
        if not lower[k] <= value <= upper[k]:
            raise ValueError('%s[%d] = %r: outside the position limits [%g, %g] of joint %s'
                             % (where, k, value, lower[k], upper[k], name))
    return np.array(values)
