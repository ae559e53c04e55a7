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
The links, joints and plugins of an SDF model, and each link's pose in the model frame.

sdformat's pose-frame semantics (sdformat.org "Pose frame semantics", SDF 1.7+; the
spec files link.sdf, joint.sdf, frame.sdf, model.sdf): a ``<pose>`` is X_RF, the pose
of the element's frame F in the frame R named by its ``relative_to`` attribute.
Without ``relative_to``, R is the enclosing model frame (``__model__``) for a link, a
nested model and a ``<frame>`` without ``attached_to``; the ``attached_to`` frame for a
``<frame>``; the child link for a joint.  SDF 1.4-1.6 files use the same defaults.
Names in ``relative_to``, ``attached_to`` and a joint's ``<parent>``/``<child>`` are
looked up in the element's own model scope first (sdformat scoping), then in the
top model.

Nested models (sdformat 1.8, and what an ``<include>`` inside a model becomes) are
flattened: their links, joints, frames and plugins keep scoped names
``nested::link``, their poses composed with the nested model's pose.  A cycle of
``relative_to`` references is an error naming it.
"""
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple
import xml.etree.ElementTree as ET

import numpy as np

from uwv_hydro.description.conventions import quat_to_matrix, rpy_to_matrix
from uwv_hydro.description.xml_safe import element_error, element_numbers
from uwv_hydro.physics.spatial.unit_vector import unit_vector

#: A rigid transform (translation, rotation matrix): x_parent = p + R x_child.
Pose = Tuple[np.ndarray, np.ndarray]
IDENTITY: Pose = (np.zeros(3), np.eye(3))
MODEL_FRAME = '__model__'


def compose(a: Pose, b: Pose) -> Pose:
    """Return a * b (the pose b, given in frame a, expressed in a's parent)."""
    # X_AC = X_AB X_BC: p = p_ab + R_ab p_bc, R = R_ab R_bc
    return a[0] + a[1] @ b[0], a[1] @ b[1]


def inverse(a: Pose) -> Pose:
    """Return the inverse transform of ``a``."""
    # X_BA = X_AB^-1: p = -R^T p, R = R^T
    return -a[1].T @ a[0], a[1].T


def read_pose(elem: Optional[ET.Element], source: str) -> Pose:
    """Return (xyz, R) of an SDF <pose> (``x y z roll pitch yaw`` or quat_xyzw), raw."""
    if elem is None:
        return np.zeros(3), np.eye(3)
    if elem.get('rotation_format', 'euler_rpy') == 'quat_xyzw':
        v = element_numbers(elem, (7,), source)
        q = unit_vector([v[6], v[3], v[4], v[5]])
        if q is None:
            raise element_error('the quaternion of a quat_xyzw pose is zero', source, elem)
        return v[:3], quat_to_matrix(q)
    v = element_numbers(elem, (6,), source)
    rpy = np.radians(v[3:]) if elem.get('degrees', 'false').lower() == 'true' else v[3:]
    return v[:3], rpy_to_matrix(rpy)


@dataclass
class _Entry:
    """One frame of the model's pose graph."""

    element: ET.Element
    pose: Optional[ET.Element]
    default_parent: str
    scope: str


@dataclass
class FlatModel:
    """A model with its nested models flattened (scoped names ``nested::name``)."""

    name: str
    element: ET.Element
    source: str
    #: scoped link name -> <link>, in document order.
    links: Dict[str, ET.Element] = field(default_factory=dict)
    #: scoped joint name -> <joint>, in document order.
    joints: Dict[str, ET.Element] = field(default_factory=dict)
    #: (plugin element, scope prefix ``nested::`` or '') of the model and nested models.
    plugins: List[Tuple[ET.Element, str]] = field(default_factory=list)
    #: scoped name of each link and joint, by element id.
    scoped: Dict[int, str] = field(default_factory=dict)
    _frames: Dict[str, _Entry] = field(default_factory=dict)
    _resolved: Dict[str, Pose] = field(default_factory=dict)

    def lookup(self, name: str, scope: str, elem: ET.Element) -> str:
        """Return the scoped frame name ``name`` refers to from ``scope``."""
        if name == MODEL_FRAME and scope:
            return scope[:-2]  # a nested model's own frame
        for candidate in (scope + name, name):
            if candidate in self._frames or candidate == MODEL_FRAME:
                return candidate
        raise element_error('frame %r is not a link, joint, frame or model of model %r'
                            % (name, self.name), self.source, elem)

    def pose(self, name: str) -> Pose:
        """Return the pose of the scoped frame ``name`` in the top model frame."""
        return self._pose(name, ())

    def _pose(self, name: str, visiting: Tuple[str, ...]) -> Pose:
        if name == MODEL_FRAME:
            return IDENTITY
        if name in self._resolved:
            return self._resolved[name]
        entry = self._frames[name]
        if name in visiting:
            raise element_error('cycle of pose relative_to / attached_to references: %s'
                                % ' -> '.join(visiting + (name,)), self.source, entry.element)
        result = compose(self._pose(self._parent(entry), visiting + (name,)),
                         read_pose(entry.pose, self.source))
        self._resolved[name] = result
        return result

    def pose_elements(self, name: str) -> List[ET.Element]:
        """Return the <pose> elements composed into the pose of frame ``name``, own first."""
        chain = []
        for _ in range(len(self._frames)):  # a chain visits each frame once (no cycle)
            if name == MODEL_FRAME or name not in self._frames:
                break
            entry = self._frames[name]
            if entry.pose is not None:
                chain.append(entry.pose)
            name = self._parent(entry)
        return chain

    def _parent(self, entry: _Entry) -> str:
        """Return the frame ``entry``'s pose is relative to (relative_to, else its default)."""
        relative = entry.pose.get('relative_to', '') if entry.pose is not None else ''
        if relative:
            return self.lookup(relative, entry.scope, entry.pose)
        return entry.default_parent

    def pose_in_link(self, elem: Optional[ET.Element], link: str) -> Pose:
        """Return the pose of a link child's <pose> ``elem`` in the link frame."""
        if elem is None:
            return IDENTITY
        relative = elem.get('relative_to', '')
        raw = read_pose(elem, self.source)
        if not relative or self.lookup(relative, self.scope_of(link), elem) == link:
            return raw
        frame = self.lookup(relative, self.scope_of(link), elem)
        return compose(inverse(self.pose(link)), compose(self.pose(frame), raw))

    @staticmethod
    def scope_of(name: str) -> str:
        """Return the scope prefix of a scoped name ('a::b::link' -> 'a::b::')."""
        head, sep, _ = name.rpartition('::')
        return head + sep


def flatten_model(model: ET.Element, source: str) -> FlatModel:
    """Return the FlatModel of a <model> element (nested models flattened)."""
    flat = FlatModel(name=model.get('name', ''), element=model, source=source)
    _collect(flat, model, '', MODEL_FRAME)
    # defaults that name other frames are looked up once every name is known
    for scoped, entry in flat._frames.items():
        if entry.default_parent == '@child':
            child_elem = entry.element.find('child')
            target = (child_elem.text or '').strip() if child_elem is not None else ''
            if not target:
                raise element_error('joint without <child>', flat.source, entry.element)
            entry.default_parent = flat.lookup(target, entry.scope, child_elem)
        elif entry.default_parent.startswith('@'):
            entry.default_parent = flat.lookup(entry.default_parent[1:], entry.scope,
                                               entry.element)
    return flat


def _collect(flat: FlatModel, model: ET.Element, scope: str, model_frame: str) -> None:
    """Add the frames, links, joints and plugins of ``model`` under ``scope``."""
    for child in model:
        tag = child.tag
        name = child.get('name', '')
        if tag in ('link', 'joint', 'frame', 'model') and not name:
            raise element_error('<%s> without a name' % tag, flat.source, child)
        scoped = scope + name
        if tag in ('link', 'joint', 'frame', 'model') and scoped in flat._frames:
            raise element_error('duplicate name %r in model %r' % (name, flat.name),
                                flat.source, child)
        if tag == 'link':
            flat.links[scoped] = child
            flat.scoped[id(child)] = scoped
            flat._frames[scoped] = _Entry(child, child.find('pose'), model_frame, scope)
        elif tag == 'frame':
            attached = child.get('attached_to', '')
            flat._frames[scoped] = _Entry(child, child.find('pose'), model_frame, scope)
            if attached:
                flat._frames[scoped].default_parent = ('@' + attached)
        elif tag == 'joint':
            flat.joints[scoped] = child
            flat.scoped[id(child)] = scoped
            flat._frames[scoped] = _Entry(child, child.find('pose'), '@child', scope)
        elif tag == 'model':
            flat._frames[scoped] = _Entry(child, child.find('pose'), model_frame, scope)
            _collect(flat, child, scoped + '::', scoped)
        elif tag == 'plugin':
            flat.plugins.append((child, scope))


def joint_axis(flat: FlatModel, joint: str) -> np.ndarray:
    """
    Return the ``<axis><xyz>`` of the scoped ``joint`` in the joint's own frame.

    sdformat joint.sdf: default ``0 0 1``; ``expressed_in`` names the frame it is
    given in (default the joint frame); SDF <= 1.6 ``<use_parent_model_frame>true``:
    the (enclosing) model frame.
    """
    elem = flat.joints[joint]
    xyz = elem.find('axis/xyz')
    if xyz is None:
        return np.array([0.0, 0.0, 1.0])
    axis = element_numbers(xyz, (3,), flat.source)
    expressed = xyz.get('expressed_in', '')
    if (elem.findtext('axis/use_parent_model_frame') or '').strip().lower() in ('true', '1'):
        expressed = MODEL_FRAME
    if not expressed:
        return axis
    frame = flat.lookup(expressed, flat.scope_of(joint), xyz)
    if frame == joint:
        return axis
    # a_joint = R_joint^T R_frame a_frame (both rotations in the top model frame)
    return flat.pose(joint)[1].T @ flat.pose(frame)[1] @ axis
