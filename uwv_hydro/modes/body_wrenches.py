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
The step's wrench input of a vehicle with moving links: one wrench per body.

:class:`~uwv_hydro.physics.articulated.algorithms.articulated_dynamics.TreeDynamics` takes for the
step's
input either the base body's wrench (6,) or one wrench per body (nb, 6), each in its
body frame (axes and origin of the body frame, ``MultibodyModel.body_names`` order:
the base, then each tree joint's child in ``tree.joints`` order), held over the step.
Equipment that pushes a moving body (a thruster on an arm link, a bladder on one)
gives its body's row; the base's equipment and the thrust inputs of the node stay the
base's row 0.

* :func:`add_wrenches` sums step inputs of either form (a (6,) wrench is row 0);
* :func:`step_input` checks one (None, (6,) or (nb, 6)) for a tree of nb bodies;
* :class:`BodyThrusters` allocates thrusters on their bodies: a thruster at r with unit
  axis d in its body frame gives that body [d T', r x (d T') + d Q] (T' = (1 - t) T,
  Q the reaction torque; the base's allocation, tau = T K u of Fossen 2021 sec. 11.2 and MSS
  ucalloc, in the body frame).
  Its pose in the body is the description's pose at zero joint positions (base frame)
  moved into the body's frame at zero joint positions: T_body = T_base_body(0)^-1 T.
* :class:`BodyEngines` does the same for buoyancy engines (gz-sim's BuoyancyEngine: a
  world-vertical force at the link origin, its depth the link origin's): each bladder
  pushes the body that carries its link.
"""
from typing import List, Optional, Sequence

import numpy as np

from uwv_hydro.physics.actuators.buoyancy_engine import engine_force_up
from uwv_hydro.physics.spatial.rotation import quat_to_matrix


def body_names(tree) -> List[str]:
    """Return the bodies of a tree in the order of the per-body wrench rows."""
    return [tree.base] + [joint.child for joint in tree.joints]


def body_index(tree) -> dict:
    """Return body name -> its row in the per-body wrenches."""
    return {name: k for k, name in enumerate(body_names(tree))}


def add_wrenches(a, b):
    """Return a + b for step inputs of either form (None: none; a (6,) wrench is row 0)."""
    if a is None:
        return b
    if b is None:
        return a
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.ndim == b.ndim:
        return a + b
    rows, base = (a.copy(), b) if a.ndim == 2 else (b.copy(), a)
    rows[0] += base
    return rows


def step_input(tau, n_bodies: int) -> Optional[np.ndarray]:
    """Return the step input as (6,) or (n_bodies, 6) floats (ValueError naming the shape)."""
    if tau is None:
        return None
    tau = np.asarray(tau, dtype=float)
    if tau.size == 6:
        return tau.reshape(6)
    if tau.shape == (n_bodies, 6):
        return tau
    raise ValueError('step wrench: expected 6 floats (the base body) or one wrench per body '
                     '(%d, 6), got shape %s' % (n_bodies, tau.shape))


def relative_body_twists(bodies, current_world=None) -> np.ndarray:
    """
    Return each body's twist relative to the water (n_bodies, 6), its own axes.

    ``bodies``: the bodies' FrameKinematics (world rotations, body twists);
    ``current_world``: the water's velocity (world ENU; None: still water).
    """
    twists = np.array(bodies.twist, dtype=float)
    if current_world is not None:
        # nu_r = nu - [R^T v_c, 0] of each body (Fossen 2021 ch. 10)
        twists[:, :3] -= np.einsum('nji,j->ni', bodies.rotation,
                                   np.asarray(current_world, dtype=float))
    return twists


class BodyThrusters:
    """Thrusters on the bodies of a tree: their wrench per body (module docstring)."""

    def __init__(self, tree, specs: Sequence):
        index = body_index(tree)
        self.n_bodies = len(index)
        n = len(specs)
        #: body index of each thruster, its point and axis in its body frame
        self.body = np.zeros(n, dtype=int)
        self.points = np.zeros((n, 3))
        self.directions = np.zeros((n, 3))
        for k, spec in enumerate(specs):
            body = spec.body or tree.base
            if body not in index:
                raise ValueError('thruster %r pushes body %r, which is not a body of the tree '
                                 '(%s)' % (spec.joint_name, body, ', '.join(index)))
            rotation = quat_to_matrix(np.asarray(spec.rotation, float))
            point, rotation = tree.in_body(body, spec.point(), rotation)
            self.body[k] = index[body]
            self.points[k] = point
            # the thrust axis in the joint frame, turned into the body's axes
            self.directions[k] = rotation @ np.asarray(spec.axis, float)
        self.moment_arms = np.cross(self.points, self.directions)

    def inflow(self, twists) -> np.ndarray:
        """
        Return each thruster's axial water-relative speed u_a from its body's twist.

        ``twists``: (n_bodies, 6) each body's twist relative to the water, its own axes.
        """
        twists = np.asarray(twists, dtype=float)[self.body]
        # velocity of the thruster's point: v_p = v + omega x r, along its axis
        v = twists[:, :3] + np.cross(twists[:, 3:], self.points)
        return np.einsum('ij,ij->i', v, self.directions)

    def wrenches(self, thrust, torque) -> np.ndarray:
        """Return the (n_bodies, 6) wrenches of effective thrusts T' and reaction torques Q."""
        thrust = np.asarray(thrust, dtype=float)
        torque = np.asarray(torque, dtype=float)
        per = np.empty((len(thrust), 6))
        # [d T', r x d T' + d Q] per thruster, in its body frame
        per[:, :3] = self.directions * thrust[:, None]
        per[:, 3:] = self.moment_arms * thrust[:, None] + self.directions * torque[:, None]
        out = np.zeros((self.n_bodies, 6))
        np.add.at(out, self.body, per)
        return out


class BodyEngines:
    """Buoyancy engines on the bodies of a tree: their wrench per body (module docstring)."""

    def __init__(self, tree, specs: Sequence):
        index = body_index(tree)
        self.n_bodies = len(index)
        self.specs = list(specs)
        self.body = np.zeros(len(self.specs), dtype=int)
        self.points = np.zeros((len(self.specs), 3))
        for k, spec in enumerate(self.specs):
            body = tree.body_of(spec.link_name) or tree.base
            self.body[k] = index[body]
            # the link origin in its body: its base-frame position at q = 0 moved there
            self.points[k] = tree.in_body(body, spec.position, np.eye(3))[0]
        #: whether a bladder sits on a moving body (else the base wrench is exact)
        self.moving = bool(np.any(self.body))

    def wrenches(self, volumes, gravity: float, position, rotation) -> np.ndarray:
        """
        Return the (n_bodies, 6) wrenches of the bladders' volumes.

        ``position`` (nb, 3) and ``rotation`` (nb, 3, 3): each body frame in the world.
        """
        out = np.zeros((self.n_bodies, 6))
        for k, spec in enumerate(self.specs):
            b, point = self.body[k], self.points[k]
            rot = rotation[b]
            world_z = float(position[b][2] + rot[2] @ point)  # the link origin's height
            up = engine_force_up(spec, float(volumes[k]), gravity, world_z)
            # the world vertical force in the body frame, moved to its origin: [F, r x F]
            force = rot.T @ np.array([0.0, 0.0, up])
            out[b, :3] += force
            out[b, 3:] += np.cross(point, force)
        return out
