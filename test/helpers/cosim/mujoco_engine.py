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
MuJoCo as the rigid-body engine beside the hydro node.

:class:`MujocoBody` is one free body in MuJoCo with the vehicle's mass and inertia (and,
for ``added_mass: implicit``, the added mass folded in), driven by
:class:`cosim.lock_step.LockStep` against the live node.

MuJoCo conventions (MuJoCo docs "floating objects" and its maintainers' answer in
google-deepmind/mujoco issue 691; checked by experiment in test_cosim_mujoco.py):
free-joint qpos = [origin position (world), quaternion w x y z (world <- body)],
qvel = [world-frame linear velocity of the body origin, body-frame angular velocity];
``xfrc_applied[b]`` = [world-frame force, world-frame torque about the body CoM xipos[b]].
"""
import mujoco
import numpy as np

from uwv_hydro.physics.hydro.hydro_model import HydroModel

#: Body name in the generated MJCF (the link the node's odometry describes).
BODY = 'base_link'


def folded_inertia(params):
    """
    Return (mass, 3x3 inertia about the CoM) of the body with M_A folded in.

    Folding is exact only when M_A about the link origin is a rigid-body inertia about
    that origin: isotropic translational block a I, no coupling, diagonal rotational
    block, and the CoM at the origin.  Anything else raises ValueError.
    """
    m_a = HydroModel(params).added_mass_matrix()
    a = m_a[0, 0]
    if np.any(params.com) or not np.array_equal(m_a[:3, :3], a * np.eye(3)) \
            or np.any(m_a[:3, 3:]) or np.any(m_a[3:, :3]) \
            or np.any(m_a[3:, 3:] - np.diag(np.diag(m_a[3:, 3:]))):
        raise ValueError('M_A cannot be folded into a rigid body exactly')
    # Augmented spatial inertia M_RB + M_A (Fossen 2011 eq. 6.x) as mass and inertia
    return params.mass + a, np.asarray(params.inertia, float) + m_a[3:, 3:]


def mjcf(params, dt, fold_added_mass=False):
    """Return the MJCF of one free body with the vehicle's inertial, gravity off."""
    if fold_added_mass:
        mass, inertia = folded_inertia(params)
    else:
        mass, inertia = params.mass, np.asarray(params.inertia, float)
    # MJCF fullinertia order: ixx iyy izz ixy ixz iyz
    full = ' '.join(repr(float(inertia[i, j]))
                    for i, j in ((0, 0), (1, 1), (2, 2), (0, 1), (0, 2), (1, 2)))
    com = ' '.join(repr(float(v)) for v in params.com)
    return ('<mujoco model="%s"><option timestep="%r" gravity="0 0 0" integrator="RK4"/>'
            '<worldbody><body name="%s"><freejoint/>'
            '<inertial pos="%s" mass="%r" fullinertia="%s"/></body></worldbody></mujoco>'
            % (params.name, float(dt), BODY, com, float(mass), full))


class MujocoBody:
    """One free body in MuJoCo: the link state as odometry carries it, wrenches in."""

    def __init__(self, params, dt, fold_added_mass=False, position=(0, 0, 0),
                 quaternion=(1, 0, 0, 0), twist=(0, 0, 0, 0, 0, 0)):
        self.model = mujoco.MjModel.from_xml_string(mjcf(params, dt, fold_added_mass))
        self.data = mujoco.MjData(self.model)
        self.body = self.model.body(BODY).id
        d = self.data
        d.qpos[:3] = position
        d.qpos[3:7] = np.asarray(quaternion, float) / np.linalg.norm(quaternion)
        mujoco.mj_kinematics(self.model, d)
        twist = np.asarray(twist, float)
        # free-joint qvel: world-frame velocity of the origin, body-frame angular velocity
        d.qvel[:3] = self.rotation() @ twist[:3]
        d.qvel[3:6] = twist[3:]

    def rotation(self):
        """Return R (world <- body) of the current qpos."""
        return self.data.xmat[self.body].reshape(3, 3)

    def odometry(self):
        """Return (position, quaternion [w, x, y, z], body twist) of the link origin."""
        d = self.data
        # body-frame linear velocity v_b = R^T v_world; the angular part is body-frame already
        twist = np.concatenate([self.rotation().T @ d.qvel[:3], d.qvel[3:6]])
        return d.qpos[:3].copy(), d.qpos[3:7].copy(), twist

    def apply(self, body_wrench):
        """Set a body-frame wrench about the link origin as MuJoCo's applied force."""
        d, b = self.data, self.body
        w = np.asarray(body_wrench, float)
        rot = self.rotation()
        force = rot @ w[:3]
        # xfrc_applied torque is about the CoM: T_c = T_o + (x_o - x_c) x F
        torque = rot @ w[3:] + np.cross(d.xpos[b] - d.xipos[b], force)
        d.xfrc_applied[b, :3] = force
        d.xfrc_applied[b, 3:] = torque

    def step(self, body_wrench):
        """Apply a body-frame wrench about the link origin during one step; step."""
        self.apply(body_wrench)
        mujoco.mj_step(self.model, self.data)
        # derived quantities (xpos, xmat, xipos) of the new qpos
        mujoco.mj_kinematics(self.model, self.data)
