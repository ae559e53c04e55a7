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
The joints of an SDF model as the tree builder takes them (sdformat joint.sdf).

* The joint frame is the joint's ``<pose>`` (relative to the child link by default,
  resolved by :class:`~uwv_hydro.description.sdf.frames.FlatModel`); with every pose
  in the model frame at q = 0, the joint frame in the parent link is
  T_parent^-1 T_joint and the child link in the joint frame T_joint^-1 T_child.
* ``<axis><xyz>`` in the joint frame (:func:`~uwv_hydro.description.sdf.frames.joint_axis`).
* ``<axis><limit>``: ``lower``/``upper`` (sdformat defaults -1e16 / 1e16: none),
  ``velocity`` and ``effort`` (default -1: none; zero or negative: none); a
  ``continuous`` joint has no position limits.  ``<axis><mimic joint=..>`` (SDF 1.11).
* Rigid: ``fixed``, or a revolute/prismatic joint of zero range
  (:mod:`uwv_hydro.description.zero_range_joint`), at its declared pose (the SDF link
  poses are where gz-sim holds it).  Joints to ``world`` are left out.
"""
from typing import List, Optional
import xml.etree.ElementTree as ET

import numpy as np

from uwv_hydro.description.element_report import where
from uwv_hydro.description.sdf.frames import compose, FlatModel, inverse, joint_axis
from uwv_hydro.description.sdf.rigid_body import _link_of
from uwv_hydro.description.tree_builder import JointSpec
from uwv_hydro.description.xml_values import float_text
from uwv_hydro.description.zero_range_joint import sdf_zero_range

#: sdformat's "no limit" magnitude for <lower>/<upper> (joint.sdf defaults +-1e16).
SDF_NO_POSITION_LIMIT = 1e16


def _value(limit: Optional[ET.Element], tag: str, source: str) -> Optional[float]:
    elem = limit.find(tag) if limit is not None else None
    return float_text(elem, source) if elem is not None else None


def _end(flat: FlatModel, name: str, joint: ET.Element, tag: str) -> str:
    elem = joint.find(tag)
    text = (elem.text or '').strip() if elem is not None else ''
    if text == 'world' or not text:
        return text
    return _link_of(flat, flat.lookup(text, flat.scope_of(name), elem))


def sdf_joint_specs(flat: FlatModel, source: str) -> List[JointSpec]:
    """Return a :class:`JointSpec` per joint between two links of the model."""
    specs = []
    for name, joint in flat.joints.items():
        parent, child = _end(flat, name, joint, 'parent'), _end(flat, name, joint, 'child')
        if parent in ('world', '') or child in ('world', ''):
            continue
        kind = joint.get('type', '')
        t_parent, t_joint, t_child = flat.pose(parent), flat.pose(name), flat.pose(child)
        origin = compose(inverse(t_parent), t_joint)
        in_joint = compose(inverse(t_joint), t_child)
        rigid = kind == 'fixed' or sdf_zero_range(joint, source) is not None
        limit = joint.find('axis/limit')
        lower, upper = _value(limit, 'lower', source), _value(limit, 'upper', source)
        lower = -np.inf if lower is None or lower <= -SDF_NO_POSITION_LIMIT else lower
        upper = np.inf if upper is None or upper >= SDF_NO_POSITION_LIMIT else upper
        if kind == 'continuous':
            lower, upper = -np.inf, np.inf
        speeds = [_value(limit, tag, source) for tag in ('velocity', 'effort')]
        # sdformat: -1 (the default) is no limit; zero taken as none too, as for URDF
        velocity, effort = (v if v is not None and v > 0.0 else np.inf for v in speeds)
        mimic = joint.find('axis/mimic')
        specs.append(JointSpec(
            name=name, kind=kind, parent=parent, child=child,
            origin_position=origin[0], origin_rotation=origin[1],
            axis=joint_axis(flat, name) if kind != 'fixed' else np.array([0.0, 0.0, 1.0]),
            child_position=in_joint[0], child_rotation=in_joint[1],
            lower=lower, upper=upper, velocity=velocity, effort=effort,
            rigid=compose(inverse(t_parent), t_child) if rigid else None,
            mimic=(mimic.get('joint', '?') if mimic is not None else ''),
            where=where(source, joint)))
    return specs
