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
The kinematic tree of a vehicle whose links move: joints, bodies, per-link hydro.

Every peer computes hydrodynamics per link (gz-sim's Hydrodynamics and Buoyancy
systems, uuv_simulator's underwater-object ``<link>`` blocks, one dsros_hydro plugin
per link).  A description whose moving joints carry links with mass or hydro keeps
them here, beside the vehicle lumped at zero joint positions (``VehicleParams``): a
vehicle whose moving links carry nothing has no tree and stays one rigid body.

* A :class:`TreeBody` is one rigid group: the child link of a moving joint (or the
  base link) with every link fixed to it.  Its frame is that root link's frame; its
  inertial is the group's lumped by Steiner's theorem, about its centre of mass.
* Each link that carries hydrostatics or hydrodynamics keeps them as a
  :class:`LinkHydroPart` at its own pose in its body, in its own axes, as its
  simulator evaluates them (twist of the link, wrench applied at the link): the
  per-link wrench is computed part by part and published per link.
* A :class:`TreeJoint` moves its child body relative to its parent body:
  ``T_parent_child(q) = T_origin * Motion(axis, q) * T_child`` with ``T_origin`` the
  joint frame in the parent body at q = 0, ``axis`` a unit vector in the joint frame
  and ``T_child`` the child body frame in the joint frame (identity for URDF, where the
  child link frame is the joint frame; SDF's joint pose lives in the child frame).

Frames are FLU/REP-103 as everywhere in the project; SI units.
"""
from dataclasses import dataclass, field
from typing import Dict, List, Optional

import numpy as np

from uwv_hydro.physics.body.vehicle_params import SurfaceTransition

#: Joint types that move (URDF / SDF names); ``continuous`` is a revolute without limits.
MOVING_JOINT_TYPES = ('revolute', 'continuous', 'prismatic')


def _zeros(*shape):
    return field(default_factory=lambda: np.zeros(shape))


def _eye3():
    return field(default_factory=lambda: np.eye(3))


@dataclass
class LinkHydroPart:
    """Hydrostatics and hydrodynamics of one link, in its own frame."""

    link: str
    #: Pose of the link frame in its body frame.
    position: np.ndarray = _zeros(3)
    rotation: np.ndarray = _eye3()
    #: Displaced fluid mass (kg) and centre of buoyancy (link frame).
    buoyancy_mass: float = 0.0
    cob: np.ndarray = _zeros(3)
    #: Near-surface scaling of this link's buoyancy; None: always fully submerged.
    surface: Optional[SurfaceTransition] = None
    #: 6x6 added mass about the link origin, link axes (uwv_hydro signs: positive).
    added_mass: np.ndarray = _zeros(6, 6)
    #: 6x6 linear drag and 6x6x6 quadratic drag (F_a = -Q_abc |nu_b| nu_c), evaluated
    #: with the twist of ``drag_velocity_point`` and applied at ``drag_center``.
    linear_drag: np.ndarray = _zeros(6, 6)
    quadratic_drag: np.ndarray = _zeros(6, 6, 6)
    drag_velocity_point: np.ndarray = _zeros(3)
    drag_center: np.ndarray = _zeros(3)
    #: Where it was read (file, element, line), for messages and ``check``.
    where: str = ''

    def carries_hydro(self) -> bool:
        """Return whether the part has any buoyancy, added mass or drag."""
        return bool(self.buoyancy_mass or np.any(self.added_mass)
                    or np.any(self.linear_drag) or np.any(self.quadratic_drag))


@dataclass
class TreeBody:
    """One rigid group of links: a moving joint's child (or the base) and its fixed links."""

    name: str
    mass: float = 0.0
    #: Centre of mass (body frame) and 3x3 inertia about it (body axes).
    com: np.ndarray = _zeros(3)
    inertia: np.ndarray = _zeros(3, 3)
    #: Every link of the group: name -> (position, rotation) in the body frame.
    links: Dict[str, tuple] = field(default_factory=dict)
    #: The group's links that carry hydro, each at its own pose.
    parts: List[LinkHydroPart] = field(default_factory=list)
    #: Each link but the root -> the link it hangs from in the description (its URDF/SDF
    #: joint's parent, in this body); a link not listed hangs from the body root.
    parents: Dict[str, str] = field(default_factory=dict)


@dataclass
class TreeJoint:
    """A moving joint between two bodies of the tree."""

    name: str
    #: 'revolute', 'continuous' or 'prismatic'.
    kind: str
    parent: str
    child: str
    #: The joint's parent link in the description (a link of the parent body, e.g. an
    #: arm's base fixed to the vehicle's base link); '' = the parent body's root.
    parent_link: str = ''
    #: Joint frame in the parent body frame at q = 0.
    origin_position: np.ndarray = _zeros(3)
    origin_rotation: np.ndarray = _eye3()
    #: Unit axis in the joint frame.
    axis: np.ndarray = field(default_factory=lambda: np.array([1.0, 0.0, 0.0]))
    #: Child body frame in the joint frame (identity for URDF).
    child_position: np.ndarray = _zeros(3)
    child_rotation: np.ndarray = _eye3()
    #: Limits: position (rad or m), speed (rad/s or m/s), effort (N m or N); inf: none.
    lower: float = -np.inf
    upper: float = np.inf
    velocity: float = np.inf
    effort: float = np.inf
    where: str = ''


@dataclass
class KinematicTree:
    """Bodies joined by moving joints; ``joints`` lists every parent before its child."""

    base: str
    bodies: Dict[str, TreeBody] = field(default_factory=dict)
    joints: List[TreeJoint] = field(default_factory=list)

    def joint_names(self) -> List[str]:
        """Return the moving joints' names in tree order (the joint-state order)."""
        return [j.name for j in self.joints]

    def link_names(self) -> List[str]:
        """Return every link of every body (base body first)."""
        return [link for body in self.bodies.values() for link in body.links]

    def parent_link(self, joint: TreeJoint) -> str:
        """Return the link a tree joint hangs from (its parent body's root if unnamed)."""
        return joint.parent_link or joint.parent

    def link_in_body(self, body: str, link: str) -> tuple:
        """Return (position, 3x3 rotation) of ``link`` in the frame of ``body``."""
        if link == body:
            return np.zeros(3), np.eye(3)
        position, rotation = self.bodies[body].links[link]
        return (np.asarray(position, dtype=float).reshape(3),
                np.asarray(rotation, dtype=float).reshape(3, 3))

    def body_of(self, link: str) -> Optional[str]:
        """Return the body that carries ``link`` (None if no body has it)."""
        if link in self.bodies:
            return link
        return next((name for name, body in self.bodies.items() if link in body.links), None)

    def zero_pose(self, body: str) -> tuple:
        """
        Return (position, 3x3 rotation) of ``body``'s frame in the base frame at q = 0.

        The chain of T_parent_child(0) = T_origin T_child of the joints above it.
        """
        chain = []
        while body != self.base:
            joint = next((j for j in self.joints if j.child == body), None)
            if joint is None:
                raise KeyError('body %r hangs from no joint of the tree' % body)
            chain.append(joint)
            body = joint.parent
        position, rotation = np.zeros(3), np.eye(3)
        for joint in reversed(chain):
            for p, r in ((joint.origin_position, joint.origin_rotation),
                         (joint.child_position, joint.child_rotation)):
                # pose composition: p = p + R p_j, R = R R_j
                position = position + rotation @ np.asarray(p, dtype=float).reshape(3)
                rotation = rotation @ np.asarray(r, dtype=float).reshape(3, 3)
        return position, rotation

    def in_body(self, body: str, position, rotation) -> tuple:
        """Return (position, rotation) in ``body``'s frame of a pose in the base at q = 0."""
        p_b, r_b = self.zero_pose(body)
        # T_base_body(0)^-1 T: R = R_b^T R, p = R_b^T (p - p_b)
        return (r_b.T @ (np.asarray(position, dtype=float).reshape(3) - p_b),
                r_b.T @ np.asarray(rotation, dtype=float).reshape(3, 3))

    def fixed_link_frames(self) -> List[tuple]:
        """
        Return (parent link, link, position, rotation) of every link fixed in a body.

        Each link but a body's root in the link it hangs from in the description, as
        robot_state_publisher sends a fixed joint (/tf_static).
        """
        out = []
        for name, body in self.bodies.items():
            for link in body.links:
                if link == name:
                    continue
                parent = body.parents.get(link, name)
                p_p, r_p = self.link_in_body(name, parent)
                p_l, r_l = self.link_in_body(name, link)
                # T_parent^-1 T_link: R = R_p^T R_l, p = R_p^T (p_l - p_p)
                out.append((parent, link, r_p.T @ (p_l - p_p), r_p.T @ r_l))
        return out
