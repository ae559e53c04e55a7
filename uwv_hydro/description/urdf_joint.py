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

"""The pose and axis of URDF origins and joints (read by the URDF, fin and thruster readers)."""
from typing import Tuple
import xml.etree.ElementTree as ET

import numpy as np

from uwv_hydro.description.conventions import quat_to_matrix, rpy_to_matrix
from uwv_hydro.description.known_names import check_attributes, URDF_ATTRIBUTES
from uwv_hydro.description.xml_safe import element_error, element_numbers


def parse_vector(elem: ET.Element, attr: str, source: str, count: int = 3,
                 default: float = 0.0) -> np.ndarray:
    """Return ``count`` floats from a space-separated attribute (defaults when absent)."""
    if elem.get(attr) is None:
        return np.full(count, default)
    return element_numbers(elem, (count,), source, attr)


def origin_of(elem: ET.Element, source: str) -> Tuple[np.ndarray, np.ndarray]:
    """Return (xyz, R) of an element's <origin> child (identity when absent)."""
    origin = elem.find('origin')
    if origin is None:
        return np.zeros(3), np.eye(3)
    check_attributes(origin, URDF_ATTRIBUTES['origin'], source)
    rpy = parse_vector(origin, 'rpy', source)
    return parse_vector(origin, 'xyz', source), rpy_to_matrix(rpy)


def joint_frame(joint: ET.Element, source: str) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return (xyz, R, axis) of a <joint>: origin, orientation, axis (URDF default x)."""
    axis = joint.find('axis')
    xyz, rot = origin_of(joint, source)
    return xyz, rot, np.eye(3)[0] if axis is None else parse_vector(axis, 'xyz', source)


def joint_in_base(joint: ET.Element, params, source: str, what: str
                  ) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """
    Return (origin, R base <- joint frame, axis in the joint frame) of a <joint>.

    Its parent link must be the base link or fixed to it (a frame of ``params``); else
    an error names the ``what`` joint ('thruster', 'fin') and the link it hangs from.
    """
    parent_elem = joint.find('parent')
    parent = parent_elem.get('link', '') if parent_elem is not None else ''
    try:
        t, q = params.frame_transform(parent)
    except KeyError:
        raise element_error('%s joint %r hangs from link %r, which is not the base link %r '
                            'nor fixed to it' % (what, joint.get('name'), parent,
                                                 params.base_frame), source, joint) from None
    xyz, rot, axis = joint_frame(joint, source)
    r_par = quat_to_matrix(q)
    # pose composition T_base_joint = T_base_parent T_parent_joint
    return np.asarray(t, float) + r_par @ xyz, r_par @ rot, axis
