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
A revolute or prismatic joint whose range is zero (lower == upper) is rigid.

uuv_simulator's sensor macros (IMU, DVL, pressure, GPS, magnetometer, cameras, sonars)
and its battery macro attach their link with ``type="revolute"`` and
``<limit lower="0" upper="0" .../>``: a joint that never moves.  Gazebo holds it at
its only position; the loaders lump it like a fixed joint, at that position (the
child frame is T_origin Rot(axis, q) for a revolute joint, T_origin Trans(q axis) for
a prismatic one, q = lower = upper: URDF spec, sdformat joint.sdf), and record it
with :data:`NOTE`.  A joint with a real range still moves.
"""
from typing import Optional, Tuple
import xml.etree.ElementTree as ET

import numpy as np

from uwv_hydro.description.xml_safe import element_numbers
from uwv_hydro.physics.spatial.unit_vector import unit_vector

#: Joint types a zero range makes rigid.
RANGED_TYPES = ('revolute', 'prismatic')
#: The element-report note of such a joint ('%s' is its type).
NOTE = "zero-range %s joint: rigid, as uuv_simulator's sensor macros mean it"


def _number(elem: Optional[ET.Element], source: str, attr: Optional[str] = None):
    if elem is None or (attr is not None and elem.get(attr) is None):
        return None
    return float(element_numbers(elem, (1,), source, attr)[0])


def urdf_zero_range(joint: ET.Element, source: str) -> Optional[float]:
    """Return q of a URDF joint with ``<limit lower == upper>``; None if it can move."""
    if joint.get('type', '') not in RANGED_TYPES:
        return None
    limit = joint.find('limit')
    lower, upper = _number(limit, source, 'lower'), _number(limit, source, 'upper')
    return lower if lower is not None and lower == upper else None


def sdf_zero_range(joint: ET.Element, source: str) -> Optional[float]:
    """Return q of an SDF joint with ``<axis><limit>`` lower == upper; None if it moves."""
    if joint.get('type', '') not in RANGED_TYPES:
        return None
    lower = _number(joint.find('axis/limit/lower'), source)
    upper = _number(joint.find('axis/limit/upper'), source)
    return lower if lower is not None and lower == upper else None


def rigid_motion(kind: str, axis: np.ndarray, q: float) -> Tuple[np.ndarray, np.ndarray]:
    """Return (translation, rotation) of a joint of type ``kind`` at position ``q``."""
    unit = unit_vector(axis)
    if unit is None:  # no direction: the zero vector moves nothing
        unit = np.zeros(3)
    if kind == 'prismatic':
        return q * unit, np.eye(3)
    k = np.array([[0.0, -unit[2], unit[1]], [unit[2], 0.0, -unit[0]],
                  [-unit[1], unit[0], 0.0]])
    # Rodrigues' rotation formula: R = I + sin(q) K + (1 - cos(q)) K^2
    return np.zeros(3), np.eye(3) + np.sin(q) * k + (1.0 - np.cos(q)) * k @ k
