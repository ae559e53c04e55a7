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
Build a vehicle's kinematic tree (:class:`~.link_tree.KinematicTree`) from its links.

Every format reader (URDF/xacro, SDF, YAML) hands over the same three things: its
joints as :class:`JointSpec` (parent and child link, the joint frame, axis, limits,
and the rest transform of a rigid joint), each link's inertial in its own frame and
each hydro-carrying link's :class:`~uwv_hydro.physics.articulated.model.link_tree.LinkHydroPart` in
its
own frame (position zero).  The rule is the same for all formats:

* A joint becomes a tree joint when it moves (``revolute``, ``continuous``,
  ``prismatic`` and not of zero range), is no mimic joint and its child subtree carries
  hydro (a part with buoyancy, added mass or drag).  Its child link roots a new
  :class:`TreeBody`.
* Every other joint keeps its child in the parent's body: rigid joints at their rest
  transform, moving ones at q = 0 as the lumped vehicle has them -- with a warning
  when their subtree carries hydro (mimic; ball, universal, planar, floating joints; a
  moving joint walked from child to parent).  Moving joints whose subtree carries no
  hydro (propellers, a gripper) stay lumped: their motion changes no hydro.
* So do revolute and continuous joints whose subtree carries buoyancy only with every
  centre of buoyancy on the joint axis (within :data:`AXIS_TOLERANCE`): that wrench
  does not depend on q (a propeller whose collision is centred on its axis).  A moving
  joint below such a joint with hydro below it must be one too.
* No tree joint: no tree (None), the vehicle stays rigid.
* A body's inertial is its links' lumped by Steiner's theorem
  (:mod:`uwv_hydro.description.rigid_lumping`) in the body frame; each part is put
  at its link's pose in its body.
* Each tree joint remembers its parent link (``TreeJoint.parent_link``) and each body
  its links' parents (``TreeBody.parents``), for TF as robot_state_publisher lays it
  out; a link reached upwards from the base hangs from its body root.
"""
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

import numpy as np

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.rigid_lumping import lump, LumpOverflow, part_in_base
from uwv_hydro.physics.articulated.model.link_tree import (
    KinematicTree, LinkHydroPart, MOVING_JOINT_TYPES, TreeBody, TreeJoint)
from uwv_hydro.physics.spatial.unit_vector import unit_vector

Pose = Tuple[np.ndarray, np.ndarray]

#: Largest distance (m) of a centre of buoyancy from a joint's axis line for its
#: rotation to leave the buoyancy wrench unchanged (float rounding of poses, not a
#: size: a millimetre off the axis is off it).
AXIS_TOLERANCE = 1e-9

#: Element-report note of a moving joint lumped because its motion changes no hydro.
ON_AXIS_NOTE = ('%s joint lumped at its zero position: its links carry buoyancy only, '
                'centred on its axis (within %g m), so its motion changes no hydro; its '
                'motion and inertial coupling are left out')


def _zeros3():
    return field(default_factory=lambda: np.zeros(3))


def _eye3():
    return field(default_factory=lambda: np.eye(3))


@dataclass
class JointSpec:
    """One joint of a description, as its format reader gives it."""

    name: str
    kind: str
    parent: str
    child: str
    #: Joint frame in the parent link frame at q = 0.
    origin_position: np.ndarray = _zeros3()
    origin_rotation: np.ndarray = _eye3()
    #: Axis in the joint frame (normalised here).
    axis: np.ndarray = field(default_factory=lambda: np.array([1.0, 0.0, 0.0]))
    #: Child link frame in the joint frame (identity for URDF).
    child_position: np.ndarray = _zeros3()
    child_rotation: np.ndarray = _eye3()
    lower: float = -np.inf
    upper: float = np.inf
    velocity: float = np.inf
    effort: float = np.inf
    #: T_parent_child of a rigid joint (fixed, or zero range at its only q); None: moves.
    rigid: Optional[Pose] = None
    #: Name of the joint it mimics ('' if none).
    mimic: str = ''
    where: str = ''

    def rest(self) -> Pose:
        """Return T_parent_child where the lumped vehicle has it (rigid, else q = 0)."""
        if self.rigid is not None:
            return self.rigid
        # T_parent_child(0) = T_origin T_child
        return compose((self.origin_position, self.origin_rotation),
                       (self.child_position, self.child_rotation))


def compose(a: Pose, b: Pose) -> Pose:
    """Return the pose a * b (b expressed in a's frame)."""
    return (np.asarray(a[0], float) + np.asarray(a[1], float) @ np.asarray(b[0], float),
            np.asarray(a[1], float) @ np.asarray(b[1], float))


def invert(a: Pose) -> Pose:
    """Return the inverse of a rigid pose: (-R^T p, R^T)."""
    rot_t = np.asarray(a[1], float).T
    return -rot_t @ np.asarray(a[0], float), rot_t


@dataclass
class TreeResult:
    """The tree (None for a rigid vehicle) and what the reader reports about joints."""

    tree: Optional[KinematicTree]
    #: Tree joint name -> child body.
    tree_joints: Dict[str, str] = field(default_factory=dict)
    #: Moving joints that stay lumped though their subtree carries hydro (or that are
    #: walked upwards): name -> why.
    lumped_with_hydro: Dict[str, str] = field(default_factory=dict)
    #: Every link reached from the base: its pose in the base frame at q = 0.
    zero_poses: Dict[str, Pose] = field(default_factory=dict)
    #: Moving joints whose subtree's hydro does not depend on their q (buoyancy only,
    #: centred on the axis), lumped: name -> element-report note.
    on_axis: Dict[str, str] = field(default_factory=dict)


def _hydro_below(link: str, children: Dict[str, List[JointSpec]], hydro: set) -> bool:
    """Return whether ``link`` or a link below it (parent -> child) carries hydro."""
    stack, seen = [link], set()
    while stack:
        here = stack.pop()
        if here in hydro:
            return True
        seen.add(here)
        stack += [j.child for j in children.get(here, ()) if j.child not in seen]
    return False


def _off_axis(point: np.ndarray, axis: np.ndarray) -> float:
    """Return the distance of ``point`` from the line through the origin along ``axis``."""
    # |p - (p . a) a| for a unit axis a
    return float(np.linalg.norm(point - np.dot(point, axis) * axis))


def _hydro_fixed_in_q(joint: JointSpec, children: Dict[str, List[JointSpec]],
                      parts: Dict[str, LinkHydroPart], hydro: set) -> bool:
    """
    Return whether the hydro of ``joint``'s subtree is independent of its q.

    True for a revolute or continuous joint whose subtree carries buoyancy only, every
    centre of buoyancy (and the origin of a link with a surface transition) on the
    axis, and whose moving joints below with hydro below them are such joints too.
    """
    if joint.kind not in ('revolute', 'continuous'):
        return False
    axis = unit_vector(joint.axis)
    if axis is None:
        return False
    # links in the joint frame at q = 0
    stack = [(joint.child, (np.asarray(joint.child_position, float),
                            np.asarray(joint.child_rotation, float)))]
    seen = set()
    while stack:
        link, (position, rotation) = stack.pop()
        seen.add(link)
        part = parts.get(link)
        if link in hydro:
            if (np.any(part.added_mass) or np.any(part.linear_drag)
                    or np.any(part.quadratic_drag)):
                return False
            points = [position + rotation @ np.asarray(part.cob, float)]
            if part.surface is not None:  # its fraction follows the link origin's depth
                points.append(position)
            if any(_off_axis(p, axis) > AXIS_TOLERANCE for p in points):
                return False
        for below in children.get(link, ()):
            if below.child in seen:
                continue
            if (below.rigid is None and _hydro_below(below.child, children, hydro)
                    and not _hydro_fixed_in_q(below, children, parts, hydro)):
                return False
            stack.append((below.child, compose((position, rotation), below.rest())))
    return True


def _why_lumped(joint: JointSpec) -> Optional[str]:
    """Return why a moving joint cannot be a tree joint, or None if it can."""
    if joint.mimic:
        return 'mimic joint of %r' % joint.mimic
    if joint.kind not in MOVING_JOINT_TYPES:
        return '%s joint (the tree holds revolute, continuous and prismatic joints)' % (
            joint.kind or 'untyped')
    return None


def build_tree(base: str, joints: List[JointSpec],
               inertials: Dict[str, Tuple[float, np.ndarray, np.ndarray]],
               parts: Dict[str, LinkHydroPart]) -> TreeResult:
    """Return the tree of a description (module docstring); ``tree`` None if rigid."""
    children: Dict[str, List[JointSpec]] = {}
    parents: Dict[str, List[JointSpec]] = {}
    for joint in joints:
        children.setdefault(joint.parent, []).append(joint)
        parents.setdefault(joint.child, []).append(joint)
    hydro = {name for name, part in parts.items() if part.carries_hydro()}
    result = TreeResult(tree=None)
    tree = KinematicTree(base=base, bodies={base: TreeBody(base)})
    body_of = {base: base}
    pose: Dict[str, Pose] = {base: (np.zeros(3), np.eye(3))}
    zero = result.zero_poses
    zero[base] = pose[base]
    hangs_from: Dict[str, str] = {}  # link fixed in a body -> its joint's parent link
    stack = [base]
    while stack:
        link = stack.pop()
        for joint in children.get(link, []):
            if joint.child in body_of:
                continue
            zero[joint.child] = compose(zero[link], joint.rest())
            why = _why_lumped(joint) if joint.rigid is None else None
            carries = joint.rigid is None and _hydro_below(joint.child, children, hydro)
            if carries and _hydro_fixed_in_q(joint, children, parts, hydro):
                carries = False
                result.on_axis[joint.name] = ON_AXIS_NOTE % (joint.kind, AXIS_TOLERANCE)
            if carries and why is None:
                origin = compose(pose[link], (joint.origin_position, joint.origin_rotation))
                axis = unit_vector(joint.axis)
                if axis is None:
                    raise DescriptionError('the axis of joint %r has no direction (zero or '
                                           'not finite)' % joint.name, joint.where)
                tree.joints.append(TreeJoint(
                    name=joint.name, kind=joint.kind, parent=body_of[link], child=joint.child,
                    parent_link=link,
                    origin_position=origin[0], origin_rotation=origin[1],
                    axis=axis,
                    child_position=np.asarray(joint.child_position, float),
                    child_rotation=np.asarray(joint.child_rotation, float),
                    lower=joint.lower, upper=joint.upper, velocity=joint.velocity,
                    effort=joint.effort, where=joint.where))
                tree.bodies[joint.child] = TreeBody(joint.child)
                body_of[joint.child] = joint.child
                pose[joint.child] = (np.zeros(3), np.eye(3))
                result.tree_joints[joint.name] = joint.child
            else:
                if carries:
                    result.lumped_with_hydro[joint.name] = why
                body_of[joint.child] = body_of[link]
                hangs_from[joint.child] = link
                pose[joint.child] = compose(pose[link], joint.rest())
            stack.append(joint.child)
        for joint in parents.get(link, []):  # walked upwards: the base is not the root
            if joint.parent in body_of:
                continue
            zero[joint.parent] = compose(zero[link], invert(joint.rest()))
            if joint.rigid is None:
                result.lumped_with_hydro[joint.name] = (
                    'walked from its child to its parent (the base link %r is below it)'
                    % base)
            body_of[joint.parent] = body_of[link]
            pose[joint.parent] = compose(pose[link], invert(joint.rest()))
            stack.append(joint.parent)
    if not tree.joints:
        result.lumped_with_hydro = {}
        return result
    for link, body in body_of.items():
        tree.bodies[body].links[link] = pose[link]
        if link in hangs_from:
            tree.bodies[body].parents[link] = hangs_from[link]
    for name, body in tree.bodies.items():
        links = [link for link in body.links if link in inertials]
        try:
            body.mass, body.com, body.inertia = lump(
                part_in_base(*inertials[link], *pose[link]) for link in links)
        except LumpOverflow as exc:
            where = next((j.where for j in joints if j.child == name), '')
            raise DescriptionError('link %r lumped into body %r: %s'
                                   % (links[exc.index], name, exc), where) from None
    for name, part in parts.items():
        if name not in body_of:
            continue
        part.position, part.rotation = pose[name]
        tree.bodies[body_of[name]].parts.append(part)
    result.tree = tree
    return result


def tree_warning(result: TreeResult) -> List[str]:
    """Return the warnings of a description whose tree is kept (none if it has none)."""
    if result.tree is None:
        return []
    tree = result.tree
    out = ['joints that move are kept in the kinematic tree (vehicle.tree: %d bodies, '
           "joints %s): the node's wrench mode and replay give each link's wrench from "
           'joint_states and simulate (node and offline) integrates the joints; the lumped '
           "vehicle fields, which the wrench command, replay --simulate and simulate's "
           '--components use, are the vehicle at zero joint positions'
           % (len(tree.bodies), ', '.join(
               '%r (%s, body %r)' % (j.name, j.kind, j.child) for j in tree.joints))]
    for name, why in result.lumped_with_hydro.items():
        out.append('joint %r moves but stays lumped at its zero position in the tree: %s'
                   % (name, why))
    return out
