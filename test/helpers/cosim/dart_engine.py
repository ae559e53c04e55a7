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
DART as the rigid-body engine beside the hydro node, carrying a full 6x6 added mass.

:class:`DartBody` is one free body (FreeJoint) in a DART world, driven by
:class:`cosim.lock_step.LockStep` against the live node, like
:class:`cosim.mujoco_engine.MujocoBody`.  With ``added_mass: implicit`` it carries
M_A as gz-physics' dartsim plugin does for SDF ``<fluid_added_mass>``
(gz-physics dartsim/src/SDFFeatures.cc): the body's spatial tensor is the rigid-body
spatial inertia plus M_A about the link origin, and since DART then reads the mass as
m + M_A[0, 0], the body's gravity mode is off and the weight m g is applied at the CoM
(here by the node: ``apply_weight``).

DART conventions (dartpy 6.20; checked by experiment in test_cosim_dart.py):

* spatial vectors and tensors are ordered [angular, linear] (the project's are
  [linear, angular]); the spatial tensor is about the body frame's origin;
* ``BodyNode.getSpatialVelocity()`` is the body-frame twist [w, v] of the origin.  The
  FreeJoint's generalised velocities are that twist up to dartpy 6.16 and the world
  twist from 6.17, so they are never read here;
* ``Inertia.getSpatialTensor()`` returns a view of the inertia: copy it;
* ``World.step()`` clears the external forces: they are set before every step;
* the step is semi-implicit Euler: v+ = v + dt a(q, v), then the pose moves by the
  SE(3) exponential of the new body twist times dt.
"""
import dartpy as dart
import numpy as np

from uwv_hydro.physics.hydro.hydro_model import HydroModel
from uwv_hydro.physics.spatial.rotation import matrix_to_quat, quat_to_matrix

#: Body name (the link the node's odometry describes).
BODY = 'base_link'

#: Permutation between the project's [linear, angular] and DART's [angular, linear] order.
SWAP = np.r_[3:6, 0:3]


def to_dart(matrix):
    """Return a 6x6 [linear, angular] matrix in DART's [angular, linear] order."""
    return np.asarray(matrix, float)[np.ix_(SWAP, SWAP)]


def spatial_inertia(params, carry_added_mass):
    """
    Return the 6x6 spatial inertia DART carries, about the link origin, project order.

    M_RB about the origin (Fossen 2011 eq. 3.44, the project's rigid-body matrix), plus
    M_A referred to the origin (H^T M_A H) when the engine carries the added mass.
    """
    model = HydroModel(params)
    return model.mass_matrix() if carry_added_mass else model.rigid_body_mass_matrix()


class DartBody:
    """One free body in DART: the link state as odometry carries it, wrenches in."""

    def __init__(self, params, dt, carry_added_mass=False, position=(0, 0, 0),
                 quaternion=(1, 0, 0, 0), twist=(0, 0, 0, 0, 0, 0)):
        self.world = dart.simulation.World()
        self.world.setGravity([0.0, 0.0, 0.0])
        self.world.setTimeStep(float(dt))
        self.skeleton = dart.dynamics.Skeleton(params.name or 'vehicle')
        self.joint, self.body = self.skeleton.createFreeJointAndBodyNodePair()
        self.body.setName(BODY)
        # gravity is applied by the node (apply_weight); DART's own would use m + M_A[0, 0]
        self.body.setGravityMode(False)
        self.mass_matrix = spatial_inertia(params, carry_added_mass)
        inertia = dart.dynamics.Inertia()
        inertia.setSpatialTensor(to_dart(self.mass_matrix))
        self.body.setInertia(inertia)
        self.world.addSkeleton(self.skeleton)
        q = np.asarray(quaternion, float) / np.linalg.norm(quaternion)
        self.joint.setTransform(dart.math.Isometry3(quat_to_matrix(q), np.asarray(
            position, float)))
        twist = np.asarray(twist, float)
        # the body twist [w, v] of the origin, relative to the world, in body coordinates
        self.joint.setSpatialVelocity(np.concatenate([twist[3:], twist[:3]]),
                                      dart.dynamics.Frame.World(), self.body)

    def pose(self):
        """Return (position, R world <- body) of the link origin."""
        transform = self.body.getWorldTransform()
        return transform.translation().copy(), transform.rotation().copy()

    def odometry(self):
        """Return (position, quaternion [w, x, y, z], body twist) of the link origin."""
        position, rotation = self.pose()
        spatial = np.array(self.body.getSpatialVelocity(), float)
        return position, matrix_to_quat(rotation), np.concatenate([spatial[3:], spatial[:3]])

    def apply(self, body_wrench):
        """Set a body-frame wrench about the link origin as DART's external force."""
        w = np.asarray(body_wrench, float)
        self.body.setExtForce(w[:3], [0.0, 0.0, 0.0], True, True)
        self.body.setExtTorque(w[3:], True)

    def step(self, body_wrench):
        """Apply a body-frame wrench about the link origin during one step; step."""
        self.apply(body_wrench)
        self.world.step()
