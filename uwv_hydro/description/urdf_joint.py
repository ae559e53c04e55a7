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
from uwv_hydro.description.name_checks import check_attributes, URDF_ATTRIBUTES
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
    body, origin, rotation, axis = joint_on_body(joint, params, source, what)
    if body:
        raise element_error('%s joint %r hangs from link %r, which moves with joint-tree '
                            'body %r: a %s must sit on the base link %r or a link fixed to '
                            'it' % (what, joint.get('name'), _parent_link(joint), body, what,
                                    params.base_frame), source, joint)
    return origin, rotation, axis


def _parent_link(joint: ET.Element) -> str:
    parent_elem = joint.find('parent')
    return parent_elem.get('link', '') if parent_elem is not None else ''


def joint_on_body(joint: ET.Element, params, source: str, what: str
                  ) -> Tuple[str, np.ndarray, np.ndarray, np.ndarray]:
    """
    Return (body, origin, R base <- joint frame, axis in the joint frame) of a <joint>.

    ``body`` is '' when the parent link is the base link or fixed to it, else the body of
    the kinematic tree (``params.tree``) that carries the parent link; the pose is in the
    base frame at zero joint positions (the lumped vehicle's).  A parent link that is on
    neither is an error naming the ``what`` joint ('thruster', 'fin') and the link.
    """
    parent = _parent_link(joint)
    body = ''
    try:
        t, q = params.frame_transform(parent)
        r_par = quat_to_matrix(q)
    except KeyError:
        tree = getattr(params, 'tree', None)
        carrier = tree.body_of(parent) if tree is not None else None
        if carrier is None:
            raise element_error('%s joint %r hangs from link %r, which is not the base link '
                                '%r nor fixed to it%s' % (
                                    what, joint.get('name'), parent, params.base_frame,
                                    '' if tree is None else ' nor a link of the joint tree'),
                                source, joint) from None
        body = '' if carrier == tree.base else carrier
        p_b, r_b = tree.zero_pose(carrier)
        p_l, r_l = tree.link_in_body(carrier, parent)
        # the parent link in the base at q = 0: T_base_body(0) T_body_link
        t, r_par = p_b + r_b @ p_l, r_b @ r_l
    xyz, rot, axis = joint_frame(joint, source)
    # pose composition T_base_joint = T_base_parent T_parent_joint
    return body, np.asarray(t, float) + r_par @ xyz, r_par @ rot, axis
