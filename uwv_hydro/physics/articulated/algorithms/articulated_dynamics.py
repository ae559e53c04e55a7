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

The model is :class:`~uwv_hydro.physics.articulated.model.multibody.MultibodyModel` (a free-flyer
base, one
revolute or prismatic joint per moving joint), with gravity off and each body's added
mass in the rigid-body form appended (below).  The state is the base pose and body twist
(as :class:`~uwv_hydro.physics.body.dynamics.State`) and the joint positions and speeds; the
free-flyer's velocity is the body twist of the base origin in base axes, so the base
part of the acceleration is nu_dot exactly as the rigid vehicle's.

Forces, per joint in its local frame (Pinocchio's ``fext``): each body's weight at its
CoM, each hydro part's wrench
(:class:`~uwv_hydro.physics.articulated.algorithms.link_wrench.PartWrenches`, on
the part's twist, its inertial added-mass term handled below) moved from the part, the
base wrench (thrusters) on the base.  Accelerations: ``pinocchio.aba``.

Added mass.  ABA carries a per-body 6x6 only in the rigid-body form
[[a I, -a S(c)], [a S(c), I_o]] (a Pinocchio Inertia), so each body's added mass (its
parts' M_A moved to the joint frame, X^T M_A X) is split into that form and a remainder:

* ``inertia`` (default): the rigid-body part joins the body's spatial inertia, and every
  body's remainder R_k is solved with the accelerations: with a_k = J_k a + c_k (LOCAL
  Jacobian, bias c_k) and G = M^-1 (``computeMinverse``),
  (I + G K) a = a0 - G b, K = sum J_k^T R_k J_k, b = sum J_k^T R_k c_k, a0 the ABA
  acceleration without them.  Exact for any added mass (uuv's cylinder model gives arm
  links a remainder several times their mass).
* ``lagged``: every body's M_A times its previous acceleration (the dsros scheme):
  first-order in dt, unstable when M_A exceeds the body's articulated inertia.

Locked joints (a joint command ``locked``): the joint acceleration is held at zero
exactly by the joint torque that the same linear system solves for (a brake).
"""
from typing import Dict, Sequence

import numpy as np
import pinocchio as pin

from uwv_hydro.physics.articulated.algorithms.link_wrench import PartWrenches, wrench_in_parent
from uwv_hydro.physics.articulated.model.multibody import (
    AttachedFrames, FrameKinematics, MultibodyModel)
from uwv_hydro.physics.body.vehicle_params import COMPONENT_NAMES
from uwv_hydro.physics.spatial.point_transform import motion_transforms
from uwv_hydro.physics.spatial.rotation import cross_rows, quat_derivative, quat_to_matrix, skew

#: How each body's added mass enters the equations of motion (module docstring).
ADDED_MASS_METHODS = ('inertia', 'lagged')
#: A remainder below this fraction of the added mass is rounding (of X^T M_A X).
EXACT_TOLERANCE = 1e-12


def _se3(rotation, position) -> pin.SE3:
    return pin.SE3(np.array(rotation, dtype=float).reshape(3, 3),
                   np.array(position, dtype=float).reshape(3))


def motion_matrix(rotation, position) -> np.ndarray:
    """Return X with nu_frame = X nu for a frame posed (R, p) (a wrench maps back by X^T)."""
    rt = np.asarray(rotation, float).T
    out = np.zeros((6, 6))
    # Featherstone 2008 eq. 2.24: [[R^T, -R^T S(p)], [0, R^T]]
    out[:3, :3] = rt
    out[:3, 3:] = -rt @ skew(np.asarray(position, float))
    out[3:, 3:] = rt
    return out


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
        # Parallel axes (Fossen 2021 ch. 3): I_c = I_o + a S(c)^2
        i_c = rotational + a * (sc @ sc)
        if np.linalg.eigvalsh(i_c)[0] >= -1e-12 * max(1.0, float(np.max(rotational))):
            return pin.Inertia(a, c, 0.5 * (i_c + i_c.T))
    return pin.Inertia(a, np.zeros(3), rotational)


class TreeDynamics:
    """The equations of motion of a vehicle's tree on its Pinocchio model (its multibody)."""

    def __init__(self, tree, gravity: float, added_mass: str = 'inertia'):
        if added_mass not in ADDED_MASS_METHODS:
            raise ValueError('added_mass must be one of %s, got %r'
                             % (', '.join(ADDED_MASS_METHODS), added_mass))
        self.tree = tree
        self.gravity = float(gravity)
        self.added_mass = added_mass
        self.multibody = mb = MultibodyModel(tree)
        model = mb.model
        model.gravity = pin.Motion.Zero()  # weight is applied per body (module docstring)
        #: Pinocchio joint id of each body (``multibody.body_names`` order)
        self.joint_ids = list(mb.joint_ids)
        nb = len(self.joint_ids)
        #: per body, in its joint frame: the added mass split (weight: _weight, _com)
        masses, coms = [], []
        self.rigid = [np.zeros((6, 6)) for _ in range(nb)]
        self.remainder = [np.zeros((6, 6)) for _ in range(nb)]
        parts, part_body, part_rot, part_pos = [], [], [], []
        for k, name in enumerate(mb.body_names):
            body, c = tree.bodies[name], mb.body_placements[k]
            masses.append(float(body.mass))
            coms.append(c.act(np.asarray(body.com, float).reshape(3)))
            m_a = np.zeros((6, 6))
            rigid = pin.Inertia.Zero()
            for part in body.parts:
                pose = c * _se3(part.rotation, part.position)
                parts.append(part)
                part_body.append(k)
                part_rot.append(pose.rotation.copy())
                part_pos.append(pose.translation.copy())
                matrix = np.asarray(part.added_mass, dtype=float).reshape(6, 6)
                if np.any(matrix):
                    x = motion_matrix(pose.rotation, pose.translation)
                    # added mass moved to the joint frame: X^T M_A X (Featherstone eq. 2.66)
                    m_a += x.T @ matrix @ x
                    # its rigid-body part, moved to the joint frame (Inertia.act)
                    rigid += pose.act(rigid_part(matrix))
            if added_mass == 'inertia' and np.any(m_a):
                model.appendBodyToJoint(self.joint_ids[k], rigid, pin.SE3.Identity())
                self.rigid[k] = np.array(rigid.matrix())
                rest = m_a - self.rigid[k]
                # rounding of the moves to the joint frame is no remainder
                exact = np.max(np.abs(rest)) <= EXACT_TOLERANCE * np.max(np.abs(m_a))
                self.remainder[k] = np.zeros((6, 6)) if exact else rest
            else:
                self.remainder[k] = m_a
        mb.data = model.createData()
        self.model, self.data = model, mb.data
        self.parts = PartWrenches(parts, gravity)
        self._part_body = np.array(part_body, dtype=int)
        self._part_rot = np.array(part_rot).reshape(-1, 3, 3)
        self._part_pos = np.array(part_pos).reshape(-1, 3)
        # each part in its body: the frames and their motion transforms, computed once
        self._part_frames = AttachedFrames(self._part_body, self._part_rot, self._part_pos)
        self._part_x = motion_transforms(self._part_rot, self._part_pos)
        #: the rigid parts' spatial inertias stacked (None: no body has one), each body's
        #: m g and CoM, for the vectorised external forces
        self._rigid_stack = (np.array(self.rigid) if any(np.any(m) for m in self.rigid)
                             else None)
        self._weight = np.array(masses) * self.gravity
        self._com = np.array(coms, dtype=float).reshape(-1, 3)
        #: bodies (indices) whose remainder is solved with the accelerations (inertia)
        self.exact = [k for k in range(nb) if np.any(self.remainder[k])
                      and added_mass == 'inertia']
        #: bodies (indices) whose added mass is lagged by one step (lagged)
        self.lagged = [k for k in range(nb) if np.any(self.remainder[k])
                       and added_mass == 'lagged']

    # ------------------------------------------------------------------ configuration
    @staticmethod
    def configuration(x, q) -> np.ndarray:
        """Return Pinocchio's q: base position, quaternion [x, y, z, w] (unit), joints."""
        quat = np.asarray(x[3:7], dtype=float)
        return MultibodyModel.configuration(x[0:3], quat / np.linalg.norm(quat), q)

    def minverse(self, config) -> np.ndarray:
        """Return M(q)^-1 (Pinocchio fills its upper triangle)."""
        upper = np.triu(pin.computeMinverse(self.model, self.data, config))
        return upper + np.triu(upper, 1).T

    def joint_space_inverse(self, x, q) -> np.ndarray:
        """Return (M + K)^-1 at the pose (x, q): M^-1 with the exact remainders K."""
        config = self.configuration(x, q)
        g = self.minverse(config)
        k_mat, _ = self.remainder_terms(config, np.zeros(self.model.nv))  # K alone
        # (M + K)^-1 = (I + M^-1 K)^-1 M^-1
        return np.linalg.solve(np.eye(self.model.nv) + g @ k_mat, g)

    # ------------------------------------------------------------------ forces
    def _joint_frames(self) -> FrameKinematics:
        """Return the bodies' joint frames (pose, twist) of the kinematics in ``self.data``."""
        data = self.data
        placements = [data.oMi[i] for i in self.joint_ids]
        return FrameKinematics(
            [], np.array([m.translation for m in placements]),
            np.array([m.rotation for m in placements]),
            np.array([data.v[i].vector for i in self.joint_ids]))

    def part_components(self, frames: FrameKinematics, current) -> np.ndarray:
        """Return every part's components (N, len(COMPONENT_NAMES), 6) in its joint frame."""
        if not self.parts.count:
            return np.zeros((0, len(COMPONENT_NAMES), 6))
        kin = self._part_frames(frames)
        # the current's M_A nu_dot_c: the inertial term with a zero own acceleration
        rows = self.parts.wrenches(kin.rotation, kin.position, kin.twist,
                                   None if current is None else np.zeros((self.parts.count, 6)),
                                   current)
        return wrench_in_parent(rows, self._part_x)

    def external_forces(self, base_wrench, current, lag):
        """
        Return Pinocchio's fext (local joint frames) at the kinematics in ``self.data``.

        ``lag``: body index -> its joint frame's acceleration of the previous step.
        """
        frames = self._joint_frames()
        forces = np.zeros((len(self.joint_ids), 6))
        if self.parts.count:
            np.add.at(forces, self._part_body, self.part_components(frames, current).sum(axis=1))
        # weight m g along world down, in each joint's axes, at the body's CoM
        down = -self._weight[:, None] * frames.rotation[:, 2, :]
        forces[:, :3] += down
        forces[:, 3:] += cross_rows(self._com, down)
        if self._rigid_stack is not None:
            # Pinocchio's Kirchhoff term of the rigid parts, replaced by the parts' own:
            # Featherstone 2008 eq. 2.32, nu x* (I nu) = [w x h1, v x h1 + w x h2]
            nu = frames.twist
            h = np.einsum('kij,kj->ki', self._rigid_stack, nu)
            forces[:, :3] += cross_rows(nu[:, 3:], h[:, :3])
            forces[:, 3:] += cross_rows(nu[:, :3], h[:, :3]) + cross_rows(nu[:, 3:], h[:, 3:])
        for k, acc in lag.items():
            # lagged added mass: -M_rest a (previous step)
            forces[k] -= self.remainder[k] @ acc
        if base_wrench is not None:
            wrench = np.asarray(base_wrench, dtype=float)
            if wrench.ndim == 1:
                forces[0] += wrench
            else:
                # one wrench per body, in its body frame: moved to its joint frame (C f)
                for k, placement in enumerate(self.multibody.body_placements):
                    forces[k] += placement.act(pin.Force(wrench[k])).vector
        fext = pin.StdVec_Force()
        fext.append(pin.Force.Zero())
        for f in forces:
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
        if not self.exact and not locked:
            return a0, tau[6:]
        nv = self.model.nv
        g = self.minverse(config)
        k_mat, b = self.remainder_terms(config, v)
        held = [6 + k for k in locked]
        n = len(held)
        # unknowns [a, delta]: (I + G K) a - G E delta = a0 - G b, E^T a = 0 (the brakes)
        lhs = np.zeros((nv + n, nv + n))
        lhs[:nv, :nv] = np.eye(nv) + g @ k_mat
        lhs[:nv, nv:] = -g[:, held]
        lhs[nv + np.arange(n), held] = 1.0
        z = np.linalg.solve(lhs, np.concatenate((a0 - g @ b, np.zeros(n))))
        a = z[:nv]
        a[held] = 0.0
        tau[held] += z[nv:]
        return a, tau[6:]

    def remainder_terms(self, config, v):
        """Return (K, b) of the exact remainders (module docstring) at (config, v)."""
        model, data = self.model, self.data
        nv = model.nv
        k_mat, b = np.zeros((nv, nv)), np.zeros(nv)
        if not self.exact:
            return k_mat, b
        pin.computeJointJacobians(model, data, config)
        # the bias accelerations c_k = J_k_dot v: the accelerations with no ddq
        pin.forwardKinematics(model, data, config, v, np.zeros(nv))
        for k in self.exact:
            joint = self.joint_ids[k]
            jac = pin.getJointJacobian(model, data, joint, pin.ReferenceFrame.LOCAL)
            rest = self.remainder[k]
            k_mat += jac.T @ rest @ jac
            b += jac.T @ (rest @ data.a[joint].vector)
        return k_mat, b

    def derivative(self, x, q, qd, base_wrench, current, torques_of, lag, locked,
                   fin_angles=None):
        """
        Return (d/dt [p, quat, nu], qdd, joint torques) at one state.

        ``x``: base position, quaternion [w, x, y, z], twist (13 floats); ``q``, ``qd``:
        joints; ``base_wrench``: None, the base body's wrench (6,), or one wrench per body
        (nb, 6) in its body frame (``multibody.body_names`` order), held over the step;
        ``torques_of(q, qd)``: the commanded joint torques; ``fin_angles`` unused (this
        path has no fins: the articulated mode says so).
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
        # Fossen 2021 ch. 2: p_dot = R(q) v
        out[:3] = rotation @ x[7:10]
        # Fossen 2021 ch. 2: q_dot = 1/2 q (x) [0, w]
        out[3:7] = quat_derivative(quat, x[10:13])
        out[7:13] = a[:6]
        return out, a[6:], torques

    def link_accelerations(self, x, q, qd, nu_dot, qdd) -> Dict[int, np.ndarray]:
        """Return body index -> its joint frame's acceleration, for the lagged bodies."""
        x = np.asarray(x, dtype=float)
        config = self.configuration(x, q)
        pin.forwardKinematics(self.model, self.data, config,
                              np.concatenate((x[7:13], qd)), np.concatenate((nu_dot, qdd)))
        return {k: self.data.a[self.joint_ids[k]].vector.copy() for k in self.lagged}

    def static_torques(self, x, q) -> np.ndarray:
        """
        Return the joint torques that hold the joints still against weight and buoyancy.

        Inverse dynamics (``pinocchio.rnea``) at rest: the torques that keep q with no
        velocity and no acceleration anywhere, the base held (a servo's compensation).
        """
        config = self.configuration(np.asarray(x, dtype=float), q)
        zero = np.zeros(self.model.nv)
        pin.forwardKinematics(self.model, self.data, config, zero)
        fext = self.external_forces(None, None, {})
        return np.array(pin.rnea(self.model, self.data, config, zero, zero, fext))[6:]

    # ------------------------------------------------------------------ outputs
    def body_states(self, x, q, qd):
        """Return the bodies' FrameKinematics (body frames, ``multibody.body_names``)."""
        x = np.asarray(x, dtype=float)
        quat = x[3:7] / np.linalg.norm(x[3:7])
        return self.multibody.kinematics(x[0:3], quat, x[7:13], q, qd, links=False).bodies

    def base_components(self, x, q, qd, current) -> np.ndarray:
        """Return the hydro components and weight (len(COMPONENT_NAMES), 6) about the base."""
        x = np.asarray(x, dtype=float)
        pin.forwardKinematics(self.model, self.data, self.configuration(x, q),
                              np.concatenate((x[7:13], qd)))
        frames = self._joint_frames()
        # each joint frame in the base frame: R = R_0^T R_k, p = R_0^T (p_k - p_0)
        r0, p0 = frames.rotation[0], frames.position[0]
        rot = np.einsum('ji,njk->nik', r0, frames.rotation)
        pos = (frames.position - p0) @ r0
        per_body = np.zeros((len(self.joint_ids), len(COMPONENT_NAMES), 6))
        if self.parts.count:
            np.add.at(per_body, self._part_body, self.part_components(frames, current))
        # weight m g along world down at each body's CoM
        down = -self._weight[:, None] * frames.rotation[:, 2, :]
        per_body[:, COMPONENT_NAMES.index('weight')] = np.concatenate(
            (down, cross_rows(self._com, down)), axis=1)
        return wrench_in_parent(per_body, motion_transforms(rot, pos)).sum(axis=0)
