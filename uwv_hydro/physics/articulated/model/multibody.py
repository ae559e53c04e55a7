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
The rigid multibody model of a vehicle whose links move, and its forward kinematics.

A :class:`~uwv_hydro.physics.articulated.model.link_tree.KinematicTree` becomes a Pinocchio model:
a
free-flyer joint carries the base body, each moving joint of the tree one more body.
Pinocchio (``pin`` on PyPI) is the reference implementation of the rigid multibody
algorithms of robotics (Featherstone's forward kinematics, RNEA, ABA, CRBA, with
their analytic derivatives), in C++; the simulate mode integrates the same model with
its ABA, so both modes share one kinematics.

The mapping (``T_parent_child(q) = T_origin Motion(axis, q) T_child``, link_tree): a
moving joint's Pinocchio frame is the tree's joint frame after the motion, placed in
the parent's joint frame at ``C_parent T_origin`` (``C`` = a body's ``T_child``,
identity for URDF and the base); the body frame is the joint frame times ``C``.
Revolute and continuous joints are ``JointModelRevoluteUnaligned`` (nq = 1), prismatic
ones ``JointModelPrismaticUnaligned``; each body's inertia is appended at ``C``.

State: the base pose (world ENU position, quaternion [w, x, y, z] world <- base), the
base twist [v, w] of the base origin in base axes (the REP-105 child-frame twist of
odometry; Pinocchio's free-flyer velocity is exactly that), joint positions ``q`` and
velocities ``qdot`` in :attr:`MultibodyModel.joint_names` order.  Accelerations (when
asked) are the base's d(nu)/dt in base axes and ``qddot``.

Every twist returned is a frame's absolute twist (relative to the world) [v, w] of its
origin in its own axes; every acceleration the time derivative of those components
(Pinocchio's LOCAL spatial acceleration, Fossen's nu_dot of that frame).  A frame
rigidly attached to a body at (p, R) in it has (Featherstone 2008 sec. 2.8, X constant)::

    w_f = R^T w,  v_f = R^T (v + w x p),  and the same map for the acceleration.
"""
from dataclasses import dataclass
from typing import List, Optional, Sequence

import numpy as np
import pinocchio as pin

from uwv_hydro.physics.articulated.model.link_tree import KinematicTree, MOVING_JOINT_TYPES
from uwv_hydro.physics.spatial.point_transform import motion_transforms
from uwv_hydro.physics.spatial.unit_vector import unit_vector


@dataclass
class FrameKinematics:
    """Poses, twists and (optionally) accelerations of N frames, world ENU."""

    names: List[str]
    #: Origin positions (N, 3) and rotations world <- frame (N, 3, 3).
    position: np.ndarray
    rotation: np.ndarray
    #: Twist [v, w] of each origin, in its own axes (N, 6), relative to the world.
    twist: np.ndarray
    #: d/dt of the twist components (N, 6); None when not asked for.
    acceleration: Optional[np.ndarray] = None


@dataclass
class TreeKinematics:
    """The bodies' kinematics (``MultibodyModel.body_names`` order) and the links'."""

    bodies: FrameKinematics
    #: Every link of every body (``MultibodyModel.link_names``); None when not asked for.
    links: Optional[FrameKinematics] = None


class AttachedFrames:
    """
    Frames rigidly attached to bodies, their motion transforms precomputed.

    Frame k is on body ``index[k]`` at ``position[k]`` (3,) with ``rotation[k]`` (3, 3)
    (frame -> body), both in body axes.
    """

    def __init__(self, index, rotation, position, names: Sequence[str] = ()):
        self.index = np.asarray(index, dtype=int)
        self.rotation = np.asarray(rotation, dtype=float).reshape(-1, 3, 3)
        self.position = np.asarray(position, dtype=float).reshape(-1, 3)
        self.names = list(names)
        #: X of each frame in its body (point_transform.motion_transforms)
        self.transform = motion_transforms(self.rotation, self.position)

    def __call__(self, bodies: FrameKinematics) -> FrameKinematics:
        """Return the frames' kinematics given their bodies'."""
        r_b = bodies.rotation[self.index]
        # pose composition: R = R_b R_f, p = p_b + R_b p_f
        rot = np.matmul(r_b, self.rotation)
        pos = bodies.position[self.index] + np.einsum('nij,nj->ni', r_b, self.position)
        # Featherstone 2008 eq. 2.24 (constant X): twist and acceleration both move by X
        twist = np.einsum('nij,nj->ni', self.transform, bodies.twist[self.index])
        acc = None if bodies.acceleration is None else np.einsum(
            'nij,nj->ni', self.transform, bodies.acceleration[self.index])
        return FrameKinematics(self.names, pos, rot, twist, acc)


def attached_frames(bodies: FrameKinematics, index, rotation, position,
                    names: Sequence[str] = ()) -> FrameKinematics:
    """Return the kinematics of frames rigidly attached to bodies (:class:`AttachedFrames`)."""
    return AttachedFrames(index, rotation, position, names)(bodies)


def _se3(rotation, position):
    return pin.SE3(np.asarray(rotation, dtype=float).reshape(3, 3),
                   np.asarray(position, dtype=float).reshape(3))


def unit_axis(joint) -> np.ndarray:
    """Return a joint's axis as a unit vector (ValueError naming the joint if it has none)."""
    axis = np.asarray(joint.axis, dtype=float).reshape(3)
    unit = unit_vector(axis)
    if unit is None:
        raise ValueError('joint %r%s: axis %s is not a direction' % (
            joint.name, ' (%s)' % joint.where if joint.where else '', axis.tolist()))
    return unit


class MultibodyModel:
    """
    The Pinocchio model of a kinematic tree, and its forward kinematics.

    Pinocchio joint ``joint_ids[i]`` carries body ``body_names[i]`` (the base: the
    free-flyer, id 1); ``body_placements[i]`` is that body's frame in the joint frame.
    The configuration is ``[position, quaternion x y z w, q]`` (nq = 7 + n) and the
    velocity ``[nu, qdot]`` (nv = 6 + n): :meth:`configuration`, :meth:`velocity`.
    """

    def __init__(self, tree: KinematicTree):
        self.tree = tree
        if tree.base not in tree.bodies:
            raise ValueError('kinematic tree: the base body %r is not among its bodies %s'
                             % (tree.base, sorted(tree.bodies)))
        self.model = pin.Model()
        self.model.name = tree.base
        self.joint_names = tree.joint_names()
        self.body_names = [tree.base]
        self.body_placements = [pin.SE3.Identity()]
        base_id = self.model.addJoint(0, pin.JointModelFreeFlyer(), pin.SE3.Identity(),
                                      tree.base)
        self.joint_ids = [base_id]
        self._append_body(base_id, tree.bodies[tree.base], pin.SE3.Identity())
        placed = {tree.base: 0}
        for joint in tree.joints:
            self._add_joint(joint, placed)
        unreached = sorted(set(tree.bodies) - set(placed))
        if unreached:
            raise ValueError('kinematic tree: bodies %s are joined to nothing (no moving '
                             'joint has them as its child)' % unreached)
        self.data = self.model.createData()
        #: Every link of every body, base body first, and where it sits in its body.
        self.link_names = []
        link_body, link_rot, link_pos = [], [], []
        for k, name in enumerate(self.body_names):
            for link, (position, rotation) in tree.bodies[name].links.items():
                self.link_names.append(link)
                link_body.append(k)
                link_rot.append(np.asarray(rotation, dtype=float).reshape(3, 3))
                link_pos.append(np.asarray(position, dtype=float).reshape(3))
        self._links = AttachedFrames(link_body, np.array(link_rot).reshape(-1, 3, 3),
                                     np.array(link_pos).reshape(-1, 3), self.link_names)
        #: each body frame on its joint frame (None: all identity, URDF)
        self._bodies = None if all(c.isIdentity() for c in self.body_placements) else (
            AttachedFrames(range(len(self.body_names)),
                           np.array([c.rotation for c in self.body_placements]),
                           np.array([c.translation for c in self.body_placements]),
                           self.body_names))

    def _append_body(self, joint_id, body, placement) -> None:
        inertia = pin.Inertia(float(body.mass), np.asarray(body.com, dtype=float).reshape(3),
                              np.asarray(body.inertia, dtype=float).reshape(3, 3))
        # the body's spatial inertia moved into its joint frame (body frame at C)
        self.model.appendBodyToJoint(joint_id, inertia, placement)

    def _add_joint(self, joint, placed) -> None:
        where = ' (%s)' % joint.where if joint.where else ''
        if joint.kind not in MOVING_JOINT_TYPES:
            raise ValueError('joint %r%s: type %r is not one of %s' % (
                joint.name, where, joint.kind, ', '.join(MOVING_JOINT_TYPES)))
        if joint.parent not in placed:
            raise ValueError('joint %r%s: its parent body %r is not placed before it (the '
                             'joints must list every parent before its child)'
                             % (joint.name, where, joint.parent))
        if joint.child in placed or joint.child not in self.tree.bodies:
            raise ValueError('joint %r%s: child body %r is %s' % (
                joint.name, where, joint.child,
                'already placed' if joint.child in placed else 'not among the bodies'))
        axis = unit_axis(joint)
        if joint.kind == 'prismatic':
            model = pin.JointModelPrismaticUnaligned(axis)
        else:
            model = pin.JointModelRevoluteUnaligned(axis)
        parent = placed[joint.parent]
        # the joint frame at q = 0 in the parent's joint frame: C_parent T_origin
        placement = self.body_placements[parent] * _se3(joint.origin_rotation,
                                                        joint.origin_position)
        lower = joint.lower if joint.kind != 'continuous' else -np.inf
        upper = joint.upper if joint.kind != 'continuous' else np.inf
        joint_id = self.model.addJoint(self.joint_ids[parent], model, placement, joint.name,
                                       np.array([float(joint.effort)]),
                                       np.array([float(joint.velocity)]),
                                       np.array([float(lower)]), np.array([float(upper)]))
        child_placement = _se3(joint.child_rotation, joint.child_position)
        placed[joint.child] = len(self.body_names)
        self.body_names.append(joint.child)
        self.body_placements.append(child_placement)
        self.joint_ids.append(joint_id)
        self._append_body(joint_id, self.tree.bodies[joint.child], child_placement)

    @property
    def n_joints(self) -> int:
        """Return the number of moving joints (q[7:], v[6:] of the configuration)."""
        return len(self.joint_names)

    @staticmethod
    def configuration(position, quaternion, q) -> np.ndarray:
        """Return Pinocchio's configuration [p, x, y, z, w, q] of a base pose and joints."""
        w, x, y, z = np.asarray(quaternion, dtype=float).reshape(4)
        return np.concatenate((np.asarray(position, dtype=float).reshape(3), (x, y, z, w),
                               np.asarray(q, dtype=float).reshape(-1)))

    @staticmethod
    def velocity(twist, qdot) -> np.ndarray:
        """Return Pinocchio's velocity [nu, qdot] (nu: the base twist in base axes)."""
        return np.concatenate((np.asarray(twist, dtype=float).reshape(6),
                               np.asarray(qdot, dtype=float).reshape(-1)))

    def kinematics(self, position, quaternion, twist, q, qdot, base_acceleration=None,
                   qddot=None, links: bool = True) -> TreeKinematics:
        """
        Return the bodies' (and with ``links`` every link's) kinematics at one state.

        ``quaternion`` [w, x, y, z] must be a unit quaternion.  With
        ``base_acceleration`` (d(nu)/dt, base axes) and ``qddot`` the accelerations
        are computed too (either may be None for zeros, both None for none).
        """
        model, data = self.model, self.data
        x = self.configuration(position, quaternion, q)
        v = self.velocity(twist, qdot)
        with_acc = base_acceleration is not None or qddot is not None
        if with_acc:
            a = np.concatenate((np.zeros(6) if base_acceleration is None else np.asarray(
                base_acceleration, dtype=float).reshape(6), np.zeros(self.n_joints)
                if qddot is None else np.asarray(qddot, dtype=float).reshape(-1)))
            # Featherstone's first/second-order forward kinematics (LOCAL frames)
            pin.forwardKinematics(model, data, x, v, a)
        else:
            pin.forwardKinematics(model, data, x, v)
        ids = self.joint_ids
        # one Python access per joint and quantity (the joints' frames, LOCAL twists)
        placement = np.array([data.oMi[i].homogeneous for i in ids])
        vel = np.array([data.v[i].vector for i in ids])
        acc = np.array([data.a[i].vector for i in ids]) if with_acc else None
        bodies = FrameKinematics(self.body_names, placement[:, :3, 3],
                                 placement[:, :3, :3], vel, acc)
        if self._bodies is not None:
            # body frame = joint frame C
            bodies = self._bodies(bodies)
        out = TreeKinematics(bodies)
        if links:
            out.links = self._links(bodies)
        return out
