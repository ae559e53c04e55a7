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
Where the links and joints of an SDF <model> are, in its base (canonical) link's frame.

SDFormat pose semantics (sdformat ``link.sdf``, ``joint.sdf``, SDF 1.7+ frame
semantics): a link's ``<pose>`` is in the model frame unless ``relative_to`` names
another link (or ``__model__``); a joint's ``<pose>`` is in its child link's frame by
default; a joint ``<axis><xyz>`` is in the joint frame unless ``expressed_in`` names a
link or ``__model__`` (SDF <= 1.6: ``<use_parent_model_frame>true``: the model frame).
Poses are those at zero joint positions.  A pose relative to something this module
does not resolve (a ``<frame>``, a nested model) leaves the link out: equipment on it
is then an error naming it.
"""
from typing import Dict, Optional, Set, Tuple
import xml.etree.ElementTree as ET

import numpy as np

from uwv_hydro.description.conventions import quat_to_matrix, rpy_to_matrix
from uwv_hydro.description.xml_safe import element_error, element_numbers

#: (position, rotation 3x3) of a frame in the base frame.
Pose = Tuple[np.ndarray, np.ndarray]


def read_pose(elem: Optional[ET.Element], source: str, relative_ok: bool = False):
    """
    Return (xyz, R) of an SDF <pose> (``x y z roll pitch yaw`` or quat_xyzw).

    ``relative_ok``: the caller resolves ``relative_to`` itself.
    """
    if elem is None:
        return np.zeros(3), np.eye(3)
    rel = elem.get('relative_to', '')
    parent = getattr(elem, 'parent', None)
    owner = parent.parent.get('name', '') if parent is not None and \
        parent.tag == 'inertial' and parent.parent is not None else ''
    if rel and rel != owner and not relative_ok:
        raise element_error('pose relative_to=%r is not supported here' % rel, source, elem)
    if elem.get('rotation_format', 'euler_rpy') == 'quat_xyzw':
        v = element_numbers(elem, (7,), source)
        return v[:3], quat_to_matrix([v[6], v[3], v[4], v[5]])
    v = element_numbers(elem, (6,), source)
    rpy = np.radians(v[3:]) if elem.get('degrees', 'false').lower() == 'true' else v[3:]
    return v[:3], rpy_to_matrix(rpy)


def _compose(a: Pose, b: Pose) -> Pose:
    # Pose composition: T_a T_b = (p_a + R_a p_b, R_a R_b)
    return a[0] + a[1] @ b[0], a[1] @ b[1]


def _inverse(a: Pose) -> Pose:
    # Inverse pose: T^-1 = (-R^T p, R^T)
    return -a[1].T @ a[0], a[1].T


def link_poses_in_model(model: ET.Element, source: str) -> Dict[str, Pose]:
    """Return the pose of every link in the model frame that this module can resolve."""
    links = {lk.get('name', ''): lk for lk in model.findall('link')}
    out: Dict[str, Pose] = {}

    def resolve(name: str, seen: Tuple[str, ...]) -> Optional[Pose]:
        if name in out:
            return out[name]
        if name in seen or name not in links:
            return None
        elem = links[name].find('pose')
        pose = read_pose(elem, source, relative_ok=True)
        rel = elem.get('relative_to', '') if elem is not None else ''
        if rel and rel != '__model__':
            parent = resolve(rel, seen + (name,))
            if parent is None:
                return None
            pose = _compose(parent, pose)
        out[name] = pose
        return pose

    for name in links:
        resolve(name, ())
    return out


def link_poses_in_base(model: ET.Element, base: str, source: str) -> Dict[str, Pose]:
    """Return every resolvable link pose (and ``__model__``'s) in link ``base``'s frame."""
    in_model = link_poses_in_model(model, source)
    if base not in in_model:
        return {base: (np.zeros(3), np.eye(3))}
    to_base = _inverse(in_model[base])
    out = {name: _compose(to_base, pose) for name, pose in in_model.items()}
    out['__model__'] = to_base
    return out


def fixed_links(model: ET.Element, base: str) -> Set[str]:
    """Return the links rigidly attached to ``base`` through fixed joints (and itself)."""
    edges = [((j.findtext('parent') or '').strip(), (j.findtext('child') or '').strip())
             for j in model.findall('joint') if j.get('type') == 'fixed']
    found = {base}
    grown = True
    while grown:
        grown = False
        for a, b in edges:
            if (a in found) != (b in found):
                found.update((a, b))
                grown = True
    return found


def joint_pose_in_base(joint: ET.Element, poses: Dict[str, Pose], source: str
                       ) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """
    Return (origin, rotation base <- joint, axis in the joint frame) of an SDF joint.

    ``poses`` holds the link poses in the base frame (:func:`link_poses_in_base`).
    """
    child = (joint.findtext('child') or '').strip()
    elem = joint.find('pose')
    rel = (elem.get('relative_to', '') if elem is not None else '') or child
    frame = _frame(rel, poses, joint, source)
    origin, rotation = _compose(frame, read_pose(elem, source, relative_ok=True))
    axis_elem = joint.find('axis')
    axis = np.array([0.0, 0.0, 1.0])  # SDF default axis
    if axis_elem is not None and axis_elem.find('xyz') is not None:
        xyz = axis_elem.find('xyz')
        axis = element_numbers(xyz, (3,), source)
        expressed = xyz.get('expressed_in', '')
        if (axis_elem.findtext('use_parent_model_frame') or '').strip().lower() in (
                'true', '1'):
            expressed = '__model__'
        if expressed and expressed != joint.get('name'):
            # axis given in another frame: into the joint frame, R_joint^T R_frame a
            axis = rotation.T @ _frame(expressed, poses, xyz, source)[1] @ axis
    return origin, rotation, axis


def _frame(name: str, poses: Dict[str, Pose], elem: ET.Element, source: str) -> Pose:
    if name not in poses:
        raise element_error('frame %r is not a link (or __model__) whose pose is known'
                            % name, source, elem)
    return poses[name]
