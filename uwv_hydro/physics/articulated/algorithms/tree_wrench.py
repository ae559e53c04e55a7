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
Every link's hydro wrench of a kinematic tree in one compiled call (``_tree_wrench.c``).

Wrench mode with moving links evaluates this at every odometry message (1 kHz beside an
engine): forward kinematics of the base and joints, then each part's terms of
:class:`~uwv_hydro.physics.articulated.algorithms.link_wrench.PartWrenches` on its own twist,
summed per link,
per body and at the base, without the Python and numpy overheads of the numpy path
(Pinocchio, then PartWrenches; why: doc/guide/performance.md), which stays in
articulated simulate mode and is this module's reference in the tests.

Packed layout (doubles; ``_tree_model.c`` parses it):

* head (15): version, bodies B, parts P, link rows L, has linear drag, has quadratic
  drag, has added mass, added-mass Coriolis on, number of components C, then the
  component indices of weight, buoyancy, linear_drag, quadratic_drag, added_mass,
  added_mass_coriolis.
* per body (34, ``MultibodyModel.body_names`` order; body k > 0 is the child of joint
  k - 1): parent body, prismatic, its link row for its weight (-1: none), the joint frame
  at q = 0 in the parent body (R 9 row-major, p 3), the body frame in the joint frame
  (R, p), the unit joint axis (joint frame), m g, the centre of mass (body frame).
* per part (347): body, link row, has a surface transition, continuous, fully-submerged
  and out-of-water depths, scale, the part frame in its body (R, p), rho V g, CoB (part
  frame), H_c^T L H_v (36), H(r_v) (36), H_c^T Q (6 x 36), M_A (36).
* per link row (13): body, the link frame in its body (R, p).

Outputs (one float64 array, in this order): the components at the base (C x 6; the
fins, hull-lift and cross-flow rows left zero), each link's wrench (L x 6, link axes about
its origin), positions (L x 3) and rotations (L x 9); each body's wrench (B x 6, body
axes about its origin), position (B x 3), rotation (B x 9), twist (B x 6) and
acceleration (B x 6, zero without one).
"""
from dataclasses import dataclass
from typing import Optional, Sequence

import numpy as np

from uwv_hydro.physics.articulated.algorithms.link_wrench import part_poses, PartWrenches
from uwv_hydro.physics.articulated.model.multibody import MultibodyModel, unit_axis
from uwv_hydro.physics.body.vehicle_params import COMPONENT_NAMES
from uwv_hydro.physics.kernel import core

_VERSION = 1
_HYDRO = ('buoyancy', 'linear_drag', 'quadratic_drag', 'added_mass', 'added_mass_coriolis')


@dataclass
class TreeWrenchResult:
    """Views on one call's output array (module docstring)."""

    components: np.ndarray
    link_wrenches: np.ndarray
    link_positions: np.ndarray
    link_rotations: np.ndarray
    body_wrenches: np.ndarray
    body_positions: np.ndarray
    body_rotations: np.ndarray
    body_twists: np.ndarray
    body_accelerations: np.ndarray


def _pose(rotation, position) -> list:
    return (list(np.asarray(rotation, dtype=float).reshape(9))
            + list(np.asarray(position, dtype=float).reshape(3)))


class TreeWrench:
    """
    The compiled per-link wrench of one tree and its parts.

    ``part_body`` / ``part_row``: each part's body and link row; ``rows``: each link
    row's (body, rotation, position) in its body; ``body_row``: each body's link row
    for its weight (-1: none); ``body_weight`` m g and ``body_coms`` per body.
    """

    def __init__(self, multibody: MultibodyModel, parts: PartWrenches,
                 part_body: Sequence[int], part_row: Sequence[int], rows: Sequence[tuple],
                 body_row: Sequence[int], body_weight: Sequence[float], body_coms):
        tree = multibody.tree
        nb, npart, nl = len(multibody.body_names), parts.count, len(rows)
        index = {name: k for k, name in enumerate(multibody.body_names)}
        head = [_VERSION, nb, npart, nl, parts.has_linear, parts.has_quadratic,
                parts.has_added_mass, parts.coriolis, len(COMPONENT_NAMES),
                COMPONENT_NAMES.index('weight')] + [COMPONENT_NAMES.index(n) for n in _HYDRO]
        packed = head
        coms = np.asarray(body_coms, dtype=float).reshape(nb, 3)
        for k, name in enumerate(multibody.body_names):
            if k == 0:
                joint_part = [-1, 0] + [0.0] * 27
            else:
                joint = tree.joints[k - 1]
                assert joint.child == name, (joint.child, name)  # MultibodyModel's order
                joint_part = ([index[joint.parent], joint.kind == 'prismatic']
                              + _pose(joint.origin_rotation, joint.origin_position)
                              + _pose(joint.child_rotation, joint.child_position)
                              + list(unit_axis(joint)))
            packed += ([joint_part[0], joint_part[1], body_row[k]] + joint_part[2:]
                       + [float(body_weight[k])] + list(coms[k]))
        position, rotation = part_poses(parts.parts)
        surfaces = dict(parts.surfaces)
        for k in range(npart):
            surface = surfaces.get(k)
            packed += [part_body[k], part_row[k], surface is not None,
                       surface is not None and surface.model == 'continuous',
                       surface.fully_submerged_depth if surface else 0.0,
                       surface.out_of_water_depth if surface else 0.0,
                       surface.scale_factor if surface else 1.0]
            packed += _pose(rotation[k], position[k]) + [parts.buoyancy[k]] + list(parts.cob[k])
            for matrix in (parts.linear_origin, parts.h_velocity, parts.quadratic_origin,
                           parts.added_mass):
                packed += list(matrix[k].reshape(-1))
        for body, rot, pos in rows:
            packed += [body] + _pose(rot, pos)
        self._tree = core.tree_model(np.array(packed, dtype=float))
        #: the output's views in order (module docstring) and their sizes
        self._shapes = [(len(COMPONENT_NAMES), 6), (nl, 6), (nl, 3), (nl, 3, 3), (nb, 6),
                        (nb, 3), (nb, 3, 3), (nb, 6), (nb, 6)]
        self._sizes = [int(np.prod(shape)) for shape in self._shapes]
        self._size = sum(self._sizes)

    def evaluate(self, position: Optional[np.ndarray], quaternion, nu, q, qd,
                 base_acceleration=None, qdd=None, current_world=None,
                 current_rate_world=None, engine_added_mass: bool = False,
                 apply_weight: bool = False) -> TreeWrenchResult:
        """
        Return every wrench and pose of one state (module docstring: the outputs).

        ``position`` (3,) world ENU or None (fully submerged, the base at the origin);
        ``quaternion`` [w, x, y, z] of unit norm; ``nu`` the base twist (base axes);
        ``q``, ``qd`` (and ``qdd``) float64 arrays in joint order; the base acceleration
        and ``qdd`` None for no added-mass inertial term.
        """
        out = np.empty(self._size)
        core.tree_wrench(self._tree, position, quaternion, nu, q, qd, base_acceleration,
                         qdd, current_world, current_rate_world, bool(engine_added_mass),
                         bool(apply_weight), out)
        views, start = [], 0
        for size, shape in zip(self._sizes, self._shapes):
            views.append(out[start:start + size].reshape(shape))
            start += size
        return TreeWrenchResult(*views)
