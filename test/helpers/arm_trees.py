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
Kinematic trees of the per-link tests, built in Python from numbers of their own.

* :func:`three_joint_tree`: a base and three moving joints (a revolute joint with an
  SDF-style child pose, a prismatic joint, a continuous joint about -z), bodies with
  offset centres of mass and extra links: the kinematics against DART.
* :func:`arm_vehicle`: a vehicle whose base body carries three hydro parts (a hull and a
  fairing turned 90 degrees about z, both at the origin with quadratic drag, and a
  camera housing at an offset, turned) and whose arm, on one revolute joint about z at
  ``SHOULDER``, carries one part with buoyancy, drag (at a point of its own) and
  added mass.  :func:`lumped` gives the same numbers as one rigid vehicle at q = 0,
  built here (mass and centres by their weighted sums, drag and added mass through
  ``link_hydrodynamics.combine``).
"""
import numpy as np
from transforms3d.euler import euler2mat
from uwv_hydro.description.link_hydrodynamics import combine, LinkHydro
from uwv_hydro.physics.articulated.model.link_tree import (
    KinematicTree, LinkHydroPart, TreeBody, TreeJoint)
from uwv_hydro.physics.body.vehicle_params import VehicleParams

GRAVITY = 9.81


def rpy(roll, pitch, yaw):
    """Return Rz(yaw) Ry(pitch) Rx(roll) (transforms3d, static xyz)."""
    return euler2mat(roll, pitch, yaw, 'sxyz')


def three_joint_tree() -> KinematicTree:
    """Return the three-joint tree of the kinematics tests (module docstring)."""
    def body(name, mass, com, inertia, links):
        return TreeBody(name, mass=mass, com=np.array(com, float),
                        inertia=np.diag(inertia).astype(float), links=links)

    bodies = {
        'base_link': body('base_link', 40.0, [0.05, -0.02, 0.03], [1.5, 4.0, 4.2], {
            'base_link': (np.zeros(3), np.eye(3)),
            'dvl_link': (np.array([-0.3, 0.0, -0.2]), rpy(np.pi, 0.0, 0.0))}),
        'upper_arm': body('upper_arm', 3.0, [0.15, 0.0, 0.01], [0.01, 0.05, 0.05], {
            'upper_arm': (np.zeros(3), np.eye(3)),
            'elbow_cover': (np.array([0.3, 0.02, 0.0]), rpy(0.1, -0.4, 0.7))}),
        'slider': body('slider', 1.0, [0.0, 0.0, 0.05], [0.002, 0.002, 0.001], {
            'slider': (np.zeros(3), np.eye(3))}),
        'wrist': body('wrist', 0.5, [0.02, 0.0, 0.0], [0.001, 0.001, 0.001], {
            'wrist': (np.zeros(3), np.eye(3)),
            'jaw': (np.array([0.08, -0.01, 0.02]), rpy(-0.3, 0.2, 1.1))}),
    }
    joints = [
        TreeJoint('shoulder', 'revolute', 'base_link', 'upper_arm',
                  origin_position=np.array([0.6, 0.1, -0.25]), origin_rotation=rpy(0.1, 0.2, 0.3),
                  axis=np.array([0.0, 0.6, 0.8]), child_position=np.array([0.05, 0.0, 0.1]),
                  child_rotation=rpy(0.2, 0.0, -0.1), lower=-2.0, upper=2.0),
        TreeJoint('extend', 'prismatic', 'upper_arm', 'slider',
                  origin_position=np.array([0.35, 0.0, 0.0]), origin_rotation=rpy(0.0, 0.5, 0.0),
                  axis=np.array([1.0, 0.0, 0.0]), child_position=np.array([0.0, 0.03, 0.0]),
                  child_rotation=rpy(0.0, 0.0, 0.4), lower=0.0, upper=0.2),
        TreeJoint('wrist_roll', 'continuous', 'slider', 'wrist',
                  origin_position=np.array([0.1, 0.0, 0.0]), origin_rotation=rpy(0.0, 0.0, -0.2),
                  axis=np.array([0.0, 0.0, -1.0])),
    ]
    return KinematicTree('base_link', bodies, joints)


#: The arm's joint frame in the base frame at q = 0 (axes of the base, axis z).
SHOULDER = np.array([0.5, 0.0, -0.1])
ARM_MASS, ARM_COM = 4.0, np.array([0.25, 0.0, 0.0])
BASE_MASS, BASE_COM = 60.0, np.array([0.02, 0.0, -0.05])
#: The arm part: displaced mass, CoB, diagonal linear drag and its point (arm frame).
ARM_BUOYANCY, ARM_COB = 3.0, np.array([0.2, 0.0, 0.05])
ARM_LINEAR = np.array([2.0, 30.0, 30.0, 0.05, 1.5, 1.5])
ARM_DRAG_POINT = np.array([0.3, 0.0, 0.0])

# A full symmetric M_A of the hull about its origin (every coupling term present)
HULL_ADDED_MASS = np.array([[25.0, 1.5, -2.0, 0.3, -0.8, 0.6],
                            [1.5, 30.0, 1.2, -0.5, 0.4, 1.5],
                            [-2.0, 1.2, 35.0, 0.7, -1.2, -0.4],
                            [0.3, -0.5, 0.7, 0.8, 0.05, -0.1],
                            [-0.8, 0.4, -1.2, 0.05, 3.0, 0.2],
                            [0.6, 1.5, -0.4, -0.1, 0.2, 3.0]])


def _quadratic(entries):
    q = np.zeros((6, 6, 6))
    for (a, b, c), value in entries.items():
        q[a, b, c] = value
    return q


def _arm_added_mass():
    m = np.diag([0.5, 4.0, 4.0, 0.01, 0.3, 0.3])
    m[1, 5] = m[5, 1] = 0.6
    return m


def _hull_linear():
    m = np.diag([20.0, 40.0, 50.0, 5.0, 8.0, 8.0])
    m[0, 5] = 1.0
    return m


def base_parts():
    """Return the base body's parts: hull, fairing (turned 90 deg about z), camera."""
    return [
        LinkHydroPart('base_link', buoyancy_mass=59.0, cob=np.array([0.01, 0.0, 0.04]),
                      added_mass=HULL_ADDED_MASS, linear_drag=_hull_linear(),
                      quadratic_drag=_quadratic({(0, 0, 0): 60.0, (1, 1, 1): 120.0,
                                                 (2, 2, 2): 150.0, (5, 5, 5): 10.0,
                                                 (0, 1, 1): 3.0})),
        LinkHydroPart('fairing', rotation=rpy(0.0, 0.0, np.pi / 2), buoyancy_mass=1.0,
                      cob=np.array([0.1, 0.0, 0.0]),
                      added_mass=np.diag([2.0, 6.0, 8.0, 0.1, 0.3, 0.3]),
                      linear_drag=np.diag([3.0, 1.0, 2.0, 0.1, 0.2, 0.3]),
                      quadratic_drag=_quadratic({(0, 0, 0): 15.0, (1, 1, 1): 5.0,
                                                 (3, 3, 3): 0.4})),
        LinkHydroPart('camera', position=np.array([0.4, 0.1, -0.15]),
                      rotation=rpy(0.3, -0.2, 0.5), buoyancy_mass=0.5,
                      cob=np.array([0.02, 0.0, 0.0]),
                      added_mass=np.diag([0.2, 0.4, 0.4, 0.001, 0.002, 0.002]),
                      linear_drag=np.diag([1.0, 2.0, 2.0, 0.01, 0.02, 0.02])),
    ]


def arm_part():
    """Return the arm's part (on its root link, the body frame)."""
    return LinkHydroPart('arm_link', buoyancy_mass=ARM_BUOYANCY, cob=ARM_COB.copy(),
                         added_mass=_arm_added_mass(), linear_drag=np.diag(ARM_LINEAR),
                         drag_velocity_point=ARM_DRAG_POINT.copy(),
                         drag_center=ARM_DRAG_POINT.copy())


def arm_tree() -> KinematicTree:
    """Return the arm vehicle's tree (module docstring)."""
    parts = base_parts()
    base = TreeBody('base_link', mass=BASE_MASS, com=BASE_COM.copy(),
                    inertia=np.diag([3.0, 8.0, 8.0]),
                    links={p.link: (p.position, p.rotation) for p in parts}, parts=parts)
    arm = TreeBody('arm_link', mass=ARM_MASS, com=ARM_COM.copy(),
                   inertia=np.diag([0.01, 0.1, 0.1]),
                   links={'arm_link': (np.zeros(3), np.eye(3))}, parts=[arm_part()])
    shoulder = TreeJoint('shoulder', 'revolute', 'base_link', 'arm_link',
                         origin_position=SHOULDER.copy(), axis=np.array([0.0, 0.0, 1.0]),
                         lower=-np.pi, upper=np.pi)
    return KinematicTree('base_link', {'base_link': base, 'arm_link': arm}, [shoulder])


def arm_vehicle(**extra) -> VehicleParams:
    """Return the arm vehicle (its lumped fields only what WrenchMode needs to start)."""
    return VehicleParams(mass=BASE_MASS + ARM_MASS, inertia=np.eye(3), name='arm_vehicle',
                         gravity=GRAVITY, tree=arm_tree(), **extra)


def _h(r):
    """Return the twist transfer [[I, -S(r)], [0, I]] (v_p = v + w x r), written out."""
    x, y, z = r
    h = np.eye(6)
    h[:3, 3:] = -np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])
    return h


def lumped(**extra) -> VehicleParams:
    """Return the arm vehicle at q = 0 as one rigid VehicleParams (module docstring)."""
    parts = base_parts()
    arm = arm_part()
    # the arm link sits at SHOULDER with the base's axes when q = 0
    poses = [(p.position, p.rotation) for p in parts] + [(SHOULDER, np.eye(3))]
    buoyancy = [p.buoyancy_mass for p in parts] + [arm.buoyancy_mass]
    cobs = [pos + rot @ part.cob for (pos, rot), part in zip(poses, parts + [arm])]
    # the arm's drag at its own point, re-expressed about its origin: H^T L H
    arm_linear = _h(ARM_DRAG_POINT).T @ np.diag(ARM_LINEAR) @ _h(ARM_DRAG_POINT)
    hydro = [LinkHydro(p.link, pos, rot, linear_drag=p.linear_drag,
                       quadratic_drag=p.quadratic_drag, added_mass=p.added_mass)
             for p, (pos, rot) in zip(parts, poses)]
    hydro.append(LinkHydro('arm_link', SHOULDER, np.eye(3), linear_drag=arm_linear,
                           added_mass=arm.added_mass))
    linear, quadratic, added, point, _, _ = combine(hydro, 'arm_trees.lumped')
    mass = BASE_MASS + ARM_MASS
    return VehicleParams(
        mass=mass, inertia=np.eye(3), name='arm_lumped', gravity=GRAVITY,
        com=(BASE_MASS * BASE_COM + ARM_MASS * (SHOULDER + ARM_COM)) / mass,
        buoyancy_mass=sum(buoyancy),
        cob=sum(b * c for b, c in zip(buoyancy, cobs)) / sum(buoyancy),
        linear_drag=linear, quadratic_drag=quadratic, added_mass=added,
        drag_center=point, drag_velocity_point=point, **extra)
