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
Equations of motion of a floating base with moving joints and per-link hydro (Pinocchio).

The kinematic tree (:class:`~uwv_hydro.physics.link_tree.KinematicTree`) becomes a
Pinocchio model: a free-flyer joint carrying the base body, one revolute or prismatic
joint per tree joint (axis in its joint frame) carrying its child body (placed at
``T_child`` in the joint frame).  The state is the base pose and body twist (as
:class:`~uwv_hydro.physics.dynamics.State`) and the joint positions and speeds; the
free-flyer's velocity is the body twist of the base origin in base axes, so the base
part of the acceleration is nu_dot exactly as the rigid vehicle's.

Forces, per joint in its local frame (Pinocchio's ``fext``): each body's weight at its
CoM (Pinocchio's own gravity is off, see added mass), each hydro part's wrench
(:class:`~uwv_hydro.physics.link_part_wrench.PartWrench`) moved from the part, the base
wrench (thrusters) on the base.  Accelerations: ``pinocchio.aba``.

Added mass.  ABA carries a per-body 6x6 only in the rigid-body form
[[a I, -a S(c)], [a S(c), I_o]] (a Pinocchio Inertia).  Each body's added mass
(its parts' M_A moved to the joint frame, X^T M_A X) is split into that form (a the
least eigenvalue of the translational block, c from the coupling block, I_o the
rotational block) and a remainder:

* ``inertia`` (default): the rigid-body part is added to the body's spatial inertia
  (implicit: exact, Pinocchio also forms its Kirchhoff term nu x* (M nu), which the
  explicit force replaces by the relative-velocity one); the base's remainder is
  solved exactly (the base acceleration of the linear system (I + G_bb M_r) a_b = a0_b
  with G = M^-1 from ``computeMinverse``); another body's remainder is lagged (its
  acceleration at the end of the previous step).  Exact when every moving body's
  added mass is of rigid-body form (isotropic translational block, coupling -a S(c)),
  e.g. a sphere, or a cylinder given one translational value.
* ``lagged``: nothing in the inertia, every body's whole M_A times its acceleration of
  the previous step (the dsros scheme): first-order in dt, unstable when M_A exceeds
  the body's articulated inertia.

Locked joints (a joint command ``locked``): the joint acceleration is held at zero
exactly by the joint torque that the same linear system solves for (a brake).
"""
from typing import Dict, List, Sequence

import numpy as np
import pinocchio as pin

from uwv_hydro.physics.link_part_wrench import (
    force_from_part, motion_matrix, motion_to_part, PartWrench, spatial_force_cross)
from uwv_hydro.physics.rotation import cross, quat_derivative, quat_to_matrix, skew

#: How each body's added mass enters the equations of motion (module docstring).
ADDED_MASS_METHODS = ('inertia', 'lagged')
#: A remainder below this fraction of the added mass is rounding (of X^T M_A X).
EXACT_TOLERANCE = 1e-12


def _se3(rotation, position) -> pin.SE3:
    return pin.SE3(np.array(rotation, dtype=float).reshape(3, 3),
                   np.array(position, dtype=float).reshape(3))


def _joint_model(joint):
    axis = np.array(joint.axis, dtype=float).reshape(3)
    axis = axis / np.linalg.norm(axis)
    if joint.kind == 'prismatic':
        return pin.JointModelPrismaticUnaligned(axis)
    # 'continuous' is a revolute joint without limits
    return pin.JointModelRevoluteUnaligned(axis)


def _psd(matrix: np.ndarray) -> np.ndarray:
    """Return a symmetric matrix with its negative eigenvalues set to zero."""
    values, vectors = np.linalg.eigh(matrix)
    return (vectors * np.maximum(values, 0.0)) @ vectors.T


def rigid_part(m_a: np.ndarray) -> pin.Inertia:
    """
    Return the rigid-body part of one link part's added mass, in the part frame.

    Mass a = the least eigenvalue of sym(M11); CoM c from the coupling block when it is
    -a S(c); rotational inertia sym(M22) about the part origin (Pinocchio's form needs
    I_c = I_o + a S(c)^2 >= 0, else c = 0).  Equal to ``m_a`` when it has that form.
    """
    sym = 0.5 * (m_a + m_a.T)
    a = max(0.0, float(np.linalg.eigvalsh(sym[:3, :3])[0]))
    rotational = _psd(sym[3:, 3:])
    if a > 0.0:
        s = -0.5 * (sym[:3, 3:] - sym[:3, 3:].T) / a
        c = np.array([s[2, 1], s[0, 2], s[1, 0]])
        sc = skew(c)
        # Parallel axes (Fossen 2011 eq. 3.37): I_c = I_o + a S(c)^2
        i_c = rotational + a * (sc @ sc)
        if np.linalg.eigvalsh(i_c)[0] >= -1e-12 * max(1.0, float(np.max(rotational))):
            return pin.Inertia(a, c, 0.5 * (i_c + i_c.T))
    return pin.Inertia(a, np.zeros(3), rotational)


class TreeDynamics:
    """The Pinocchio model of a vehicle's tree and its equations of motion."""

    def __init__(self, tree, gravity: float, added_mass: str = 'inertia'):
        if added_mass not in ADDED_MASS_METHODS:
            raise ValueError('added_mass must be one of %s, got %r'
                             % (', '.join(ADDED_MASS_METHODS), added_mass))
        self.tree = tree
        self.gravity = float(gravity)
        self.added_mass = added_mass
        model = pin.Model()
        model.gravity = pin.Motion.Zero()  # weight is applied per body (module docstring)
        root = model.addJoint(0, pin.JointModelFreeFlyer(), pin.SE3.Identity(), 'root_joint')
        #: body name -> (Pinocchio joint id, body frame in the joint frame)
        self.body_joint: Dict[str, tuple] = {tree.base: (root, pin.SE3.Identity())}
        self.joint_ids: List[int] = []
        for joint in tree.joints:
            parent_id, parent_in_joint = self.body_joint[joint.parent]
            placement = parent_in_joint * _se3(joint.origin_rotation, joint.origin_position)
            jid = model.addJoint(parent_id, _joint_model(joint), placement, joint.name)
            self.joint_ids.append(jid)
            self.body_joint[joint.child] = (jid, _se3(joint.child_rotation,
                                                      joint.child_position))
        self.nj = len(tree.joints)
        #: per Pinocchio joint: weight (mass, CoM in the joint frame), hydro parts
        #: (PartWrench, R, p in the joint frame), added mass split (rigid, remainder)
        self.weights = [(0.0, np.zeros(3))] * model.njoints
        self.parts: List[list] = [[] for _ in range(model.njoints)]
        self.rigid = [np.zeros((6, 6)) for _ in range(model.njoints)]
        self.remainder = [np.zeros((6, 6)) for _ in range(model.njoints)]
        for name, body in tree.bodies.items():
            jid, in_joint = self.body_joint[name]
            com = in_joint.act(np.array(body.com, dtype=float).reshape(3))
            self.weights[jid] = (float(body.mass), com)
            model.appendBodyToJoint(jid, pin.Inertia(
                float(body.mass), np.array(body.com, dtype=float).reshape(3),
                np.array(body.inertia, dtype=float).reshape(3, 3)), in_joint)
            m_a = np.zeros((6, 6))
            rigid = pin.Inertia.Zero()
            for part in body.parts:
                pose = in_joint * _se3(part.rotation, part.position)
                wrench = PartWrench(part, gravity)
                self.parts[jid].append((wrench, pose.rotation.copy(), pose.translation.copy()))
                x = motion_matrix(pose.rotation, pose.translation)
                # Added mass moved to the joint frame: X^T M_A X (Featherstone 2008 eq. 2.66)
                m_a += x.T @ wrench.added_mass @ x
                if np.any(wrench.added_mass):
                    # its rigid-body part, moved to the joint frame (Inertia.act)
                    rigid += pose.act(rigid_part(wrench.added_mass))
            if added_mass == 'inertia' and np.any(m_a):
                model.appendBodyToJoint(jid, rigid, pin.SE3.Identity())
                matrix = np.array(rigid.matrix())
                self.rigid[jid] = matrix
                rest = m_a - matrix
                # rounding of the moves to the joint frame is no remainder
                exact = np.max(np.abs(rest)) <= EXACT_TOLERANCE * np.max(np.abs(m_a))
                self.remainder[jid] = np.zeros((6, 6)) if exact else rest
            else:
                self.remainder[jid] = m_a
        self.model = model
        self.data = model.createData()
        #: the base's remainder is solved exactly (inertia) or lagged with the others
        self.root_remainder = self.remainder[root] if (
            added_mass == 'inertia' and np.max(np.abs(self.remainder[root])) > 0.0) else None
        self.lagged = [jid for jid in range(2, model.njoints)
                       if np.max(np.abs(self.remainder[jid])) > 0.0]
        if added_mass == 'lagged' and np.any(self.remainder[root]):
            self.lagged.insert(0, root)
        #: largest remainder per body relative to its rigid part (0: exact)
        self.inexact = {n: float(np.max(np.abs(self.remainder[j]))) for n, (j, _)
                        in self.body_joint.items() if j in self.lagged}

    # ------------------------------------------------------------------ configuration
    @staticmethod
    def configuration(x, q) -> np.ndarray:
        """Return Pinocchio's q: base position, quaternion [x, y, z, w] (unit), joints."""
        quat = np.asarray(x[3:7], dtype=float)
        quat = quat / np.linalg.norm(quat)
        return np.concatenate((x[0:3], quat[1:], quat[:1], q))

    def minverse(self, config) -> np.ndarray:
        """Return M(q)^-1 (Pinocchio fills its upper triangle)."""
        upper = np.triu(pin.computeMinverse(self.model, self.data, config))
        return upper + np.triu(upper, 1).T

    # ------------------------------------------------------------------ forces
    def external_forces(self, base_wrench, current, lag) -> list:
        """
        Return Pinocchio's fext (local frames) at the kinematics in ``self.data``.

        ``lag``: Pinocchio joint id -> acceleration (local) of the previous step.
        """
        data = self.data
        fext = pin.StdVec_Force()
        fext.append(pin.Force.Zero())
        for jid in range(1, self.model.njoints):
            placement = data.oMi[jid]
            rotation = placement.rotation
            nu = data.v[jid].vector
            f = np.zeros(6)
            mass, com = self.weights[jid]
            if mass:
                # weight m g along world down, in the joint axes, at the body's CoM
                down = (-mass * self.gravity) * rotation[2, :]
                f[:3] = down
                f[3:] = cross(com, down)
            for wrench, r_part, p_part in self.parts[jid]:
                world_rotation = rotation @ r_part
                depth = -float(placement.translation[2] + rotation[2, :] @ p_part)
                rows = wrench.components(motion_to_part(r_part, p_part, nu), world_rotation,
                                         depth, current)
                f += force_from_part(r_part, p_part, rows.sum(axis=0))
            if self.added_mass == 'inertia' and np.any(self.rigid[jid]):
                # Pinocchio's Kirchhoff term of the rigid part, replaced by the parts' own
                f += spatial_force_cross(nu, self.rigid[jid] @ nu)
            if jid in lag:
                # lagged added mass: -M_rest a (previous step)
                f -= self.remainder[jid] @ lag[jid]
            if jid == 1 and base_wrench is not None:
                f += base_wrench
            fext.append(pin.Force(f))
        return fext

    # ------------------------------------------------------------------ accelerations
    def accelerations(self, config, v, torques, fext, locked: Sequence[int]):
        """
        Return (generalised acceleration, joint torques) by ABA (+ the exact corrections).

        ``torques``: the joints' torques (the locked ones are solved for);
        ``locked``: indices of the locked joints.
        """
        tau = np.zeros(self.model.nv)
        tau[6:] = torques
        # a copy: Pinocchio returns its data.ddq, which the next call overwrites
        a0 = np.array(pin.aba(self.model, self.data, config, v, tau, fext))
        if self.root_remainder is None and not locked:
            return a0, tau[6:]
        g = self.minverse(config)
        held = [6 + k for k in locked]
        m_r = self.root_remainder if self.root_remainder is not None else np.zeros((6, 6))
        n = len(held)
        # unknowns [a_b, delta]: a = a0 + G [-M_r a_b, delta] with a_held = 0
        lhs = np.zeros((6 + n, 6 + n))
        lhs[:6, :6] = np.eye(6) + g[:6, :6] @ m_r
        lhs[:6, 6:] = -g[:6, held]
        lhs[6:, :6] = g[np.ix_(held, range(6))] @ m_r
        lhs[6:, 6:] = -g[np.ix_(held, held)]
        z = np.linalg.solve(lhs, np.concatenate((a0[:6], a0[held])))
        u = np.zeros(self.model.nv)
        u[:6] = -m_r @ z[:6]
        u[held] = z[6:]
        a = a0 + g @ u
        a[held] = 0.0
        tau[held] = z[6:]
        return a, tau[6:]

    def derivative(self, x, q, qd, base_wrench, current, torques_of, lag, locked):
        """
        Return (d/dt [p, quat, nu], qdd, joint torques) at one state.

        ``x``: base position, quaternion [w, x, y, z], twist (13 floats); ``q``, ``qd``:
        joints; ``torques_of(q, qd)``: the commanded joint torques.
        """
        x = np.asarray(x, dtype=float)
        config = self.configuration(x, q)
        v = np.concatenate((x[7:13], qd))
        pin.forwardKinematics(self.model, self.data, config, v)
        fext = self.external_forces(base_wrench, current, lag)
        a, torques = self.accelerations(config, v, torques_of(q, qd), fext, locked)
        quat = x[3:7]
        rotation = quat_to_matrix(quat / np.linalg.norm(quat))
        out = np.empty(13)
        # Fossen 2011 eq. 2.83: p_dot = R(q) v
        out[:3] = rotation @ x[7:10]
        # Fossen 2011 eq. 2.86: q_dot = 1/2 q (x) [0, w]
        out[3:7] = quat_derivative(quat, x[10:13])
        out[7:13] = a[:6]
        return out, a[6:], torques

    def link_accelerations(self, x, q, qd, nu_dot, qdd) -> Dict[int, np.ndarray]:
        """Return Pinocchio joint id -> local spatial acceleration of the lagged bodies."""
        x = np.asarray(x, dtype=float)
        config = self.configuration(x, q)
        pin.forwardKinematics(self.model, self.data, config,
                              np.concatenate((x[7:13], qd)), np.concatenate((nu_dot, qdd)))
        return {jid: self.data.a[jid].vector.copy() for jid in self.lagged}
