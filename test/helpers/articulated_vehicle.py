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
A two-link vehicle for the articulated simulate tests: a base and one arm link.

The base (40 kg, its hydro part at its origin: buoyancy, a full coupled 6x6 added mass,
linear and quadratic drag) carries an arm link on a revolute joint (axis y, its origin
0.4 m ahead and 0.1 m below, turned 0.3 rad about z); the arm (5 kg) has one hydro part
0.2 m along it (buoyancy, an added mass of rigid-body form, linear drag).  Numbers of
our own.  :func:`lumped` is the same vehicle with the joint at zero as one rigid body,
summed here by hand (parallel axes, twist transforms): what the rigid SimulateMode
integrates.
"""
from articulated_reference import twist_transform
import numpy as np

from uwv_hydro.physics.articulated.model.link_tree import (
    KinematicTree, LinkHydroPart, TreeBody, TreeJoint)
from uwv_hydro.physics.body.vehicle_params import VehicleParams

JOINT_POSITION = np.array([0.4, 0.0, -0.1])
JOINT_YAW = 0.3
PART_POSITION = np.array([0.2, 0.0, 0.0])


def rot_z(angle: float) -> np.ndarray:
    """Return the rotation about z by ``angle``."""
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def base_added_mass(scale: float = 1.0, rigid_form: bool = False) -> np.ndarray:
    """Return the base's added mass: coupled 6x6 (SPD), or of rigid-body form at its origin."""
    if rigid_form:  # what an engine can fold into the body's inertia
        return scale * np.diag([25.0, 25.0, 25.0, 1.0, 3.0, 3.5])
    m = np.diag([20.0, 30.0, 36.0, 1.0, 3.0, 3.5])
    m[0, 4] = m[4, 0] = 0.8
    m[1, 5] = m[5, 1] = -1.1
    m[2, 4] = m[4, 2] = 0.5
    return scale * m


def arm_added_mass(scale: float = 1.0, anisotropic: bool = False) -> np.ndarray:
    """Return the arm part's added mass: rigid-body form unless ``anisotropic``."""
    m = np.diag([3.0, 3.0, 3.0, 0.01, 0.05, 0.05])
    if anisotropic:
        m[:3, :3] = np.diag([0.5, 4.0, 6.0])  # a slender link: little along its axis
    return scale * m


def two_link(gravity: float = 9.81, drag: bool = True, added_mass: float = 1.0,
             anisotropic_arm: bool = False, axis=(0.0, 1.0, 0.0),
             rigid_form_base: bool = False) -> VehicleParams:
    """Return the lumped VehicleParams with its ``tree`` (see the module docstring)."""
    base = TreeBody(name='base_link', mass=40.0, com=np.array([0.05, 0.0, -0.02]),
                    inertia=np.array([[2.0, 0.1, 0.0], [0.1, 4.0, 0.0], [0.0, 0.0, 4.5]]),
                    links={'base_link': (np.zeros(3), np.eye(3)),
                           'camera_link': (np.array([0.3, 0.0, 0.1]), np.eye(3))})
    linear0 = np.diag([10.0, 30.0, 30.0, 2.0, 4.0, 4.0]) if drag else np.zeros((6, 6))
    quadratic0 = np.zeros((6, 6, 6))
    if drag:
        for k, value in enumerate((40.0, 80.0, 80.0, 3.0, 6.0, 6.0)):
            quadratic0[k, k, k] = value
    base.parts.append(LinkHydroPart(
        link='base_link', buoyancy_mass=40.6, cob=np.array([0.0, 0.0, 0.05]),
        added_mass=base_added_mass(added_mass, rigid_form_base), linear_drag=linear0,
        quadratic_drag=quadratic0))
    arm = TreeBody(name='arm_link', mass=5.0, com=np.array([0.2, 0.0, 0.01]),
                   inertia=np.diag([0.01, 0.08, 0.08]),
                   links={'arm_link': (np.zeros(3), np.eye(3))})
    linear1 = np.diag([1.0, 6.0, 6.0, 0.05, 0.2, 0.2]) if drag else np.zeros((6, 6))
    arm.parts.append(LinkHydroPart(
        link='arm_link', position=PART_POSITION.copy(), buoyancy_mass=4.4,
        cob=np.array([0.0, 0.0, 0.02]),
        added_mass=arm_added_mass(added_mass, anisotropic_arm), linear_drag=linear1))
    joint = TreeJoint(name='shoulder', kind='revolute', parent='base_link', child='arm_link',
                      origin_position=JOINT_POSITION.copy(), origin_rotation=rot_z(JOINT_YAW),
                      axis=np.array(axis, dtype=float), lower=-2.0, upper=2.0, velocity=1.5,
                      effort=40.0)
    tree = KinematicTree(base='base_link', bodies={'base_link': base, 'arm_link': arm},
                         joints=[joint])
    return lumped(tree, gravity)


def lumped(tree, gravity: float) -> VehicleParams:
    """Return the tree with its joint at zero as one rigid VehicleParams (by hand)."""
    base, arm = tree.bodies['base_link'], tree.bodies['arm_link']
    joint = tree.joints[0]
    r_j, p_j = joint.origin_rotation, joint.origin_position
    # mass, CoM and inertia about it (parallel axes)
    mass = base.mass + arm.mass
    c_arm = p_j + r_j @ arm.com
    com = (base.mass * base.com + arm.mass * c_arm) / mass
    inertia = np.zeros((3, 3))
    for m, c, i_c in ((base.mass, base.com, base.inertia),
                      (arm.mass, c_arm, r_j @ arm.inertia @ r_j.T)):
        d = c - com
        inertia += i_c + m * (d @ d * np.eye(3) - np.outer(d, d))
    part0, part1 = base.parts[0], arm.parts[0]
    r_p, p_p = r_j @ part1.rotation, p_j + r_j @ part1.position
    buoyancy = part0.buoyancy_mass + part1.buoyancy_mass
    cob = (part0.buoyancy_mass * part0.cob + part1.buoyancy_mass * (p_p + r_p @ part1.cob)
           ) / buoyancy
    x = twist_transform(r_p, p_p)
    return VehicleParams(
        name='two_link', mass=mass, inertia=inertia, com=com, buoyancy_mass=buoyancy,
        cob=cob, linear_drag=part0.linear_drag + x.T @ part1.linear_drag @ x,
        quadratic_drag=part0.quadratic_drag.copy(),
        added_mass=part0.added_mass + x.T @ part1.added_mass @ x,
        drag_center=np.zeros(3), drag_velocity_point=np.zeros(3),
        added_mass_point=np.zeros(3), gravity=gravity, tree=tree)
