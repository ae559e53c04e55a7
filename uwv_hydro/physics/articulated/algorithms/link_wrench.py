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
The hydro wrench of each link of a tree, every link evaluated on its own twist.

As gz-sim's Hydrodynamics and Buoyancy systems and uuv_simulator's underwater object
evaluate a link: from the link's pose (R world <- link, origin p) and its twist
nu_l = [v, w] of the link origin in link axes (forward kinematics,
:mod:`uwv_hydro.physics.articulated.model.multibody`), each
:class:`~uwv_hydro.physics.articulated.model.link_tree.LinkHydroPart` gives, in link axes about the
link origin (v_c the world current, v_cl = R^T v_c, nu_r = nu_l - [v_cl, 0])::

    buoyancy             f(d) rho V g up, at the part's CoB; f its surface transition
                         at the CoB's depth d (None: always 1)
    linear_drag          -L nu_p with nu_p = H(drag_velocity_point) nu_r, at drag_center
    quadratic_drag       -Q |nu_p| nu_p, the same points
    added_mass           -M_A (a_l - nu_dot_c), a_l = d(nu_l)/dt in link axes
    added_mass_coriolis  -C_A(nu_r) nu_r

nu_dot_c = [-w x v_cl + R^T dv_c/dt, 0] (Fossen 2021 ch. 10, the current's rate in
link axes).  With ``engine_added_mass`` (the engine carries each link's M_A and
C_A(nu_l) nu_l, e.g. SDF fluid_added_mass per link in DART) the last two are what the
engine cannot compute: M_A nu_dot_c and C_A(nu_l) nu_l - C_A(nu_r) nu_r, zero in
still water, as :class:`~uwv_hydro.physics.hydro.hydro_model.HydroModel` does for one body.

The wrench of a link at (p, R) in its parent (base) frame is the dual map of its
twist map T (link_hydrodynamics.link_twist_map): tau = T^T f, i.e. F = R f_F,
M = R f_M + p x F (:func:`wrench_in_parent`).  Weight belongs to bodies, not parts:
the mode adds it.
"""
from typing import Sequence

import numpy as np

from uwv_hydro.physics.articulated.model.link_tree import LinkHydroPart
from uwv_hydro.physics.body.vehicle_params import COMPONENT_NAMES, DAMPING_MODELS, DEFAULT_GRAVITY
from uwv_hydro.physics.hydro.added_mass import added_mass_coriolis_wrench_many
from uwv_hydro.physics.hydro.hydrostatics import surface_fraction
from uwv_hydro.physics.spatial.point_transform import motion_transforms
from uwv_hydro.physics.spatial.rotation import cross_rows

_BUOYANCY, _LINEAR, _QUADRATIC, _ADDED, _CORIOLIS = (
    COMPONENT_NAMES.index(name) for name in (
        'buoyancy', 'linear_drag', 'quadratic_drag', 'added_mass', 'added_mass_coriolis'))


def _stack(parts, name, shape):
    return np.array([np.asarray(getattr(p, name), dtype=float).reshape(shape)
                     for p in parts]).reshape((len(parts),) + shape)


def wrench_in_parent(wrench, transform) -> np.ndarray:
    """
    Return wrenches of frames moved to their parent: tau = X^T f, the dual map.

    ``wrench`` (N, ..., 6): each frame's wrenches about its origin in its axes;
    ``transform`` (N, 6, 6): each frame's X (point_transform.motion_transforms).  The
    result is about the parent's origin in its axes: F = R f_F, M = R f_M + p x F.
    """
    w = np.asarray(wrench, dtype=float)
    # tau = X^T f, one frame per row (over any components in between)
    return np.einsum('nji,n...j->n...i', transform, w)


class PartWrenches:
    """The hydro wrenches of N link parts, evaluated together (one array operation per term)."""

    def __init__(self, parts: Sequence[LinkHydroPart], gravity: float = DEFAULT_GRAVITY,
                 damping: str = 'linear_quadratic', added_mass_coriolis: bool = True):
        if damping not in DAMPING_MODELS:
            raise ValueError('unknown damping model %r (expected one of %s)'
                             % (damping, ', '.join(DAMPING_MODELS)))
        self.parts = list(parts)
        self.links = [p.link for p in self.parts]
        self.count = n = len(self.parts)
        # Archimedes: rho V g of each part, rho V = buoyancy_mass
        self.buoyancy = np.array([float(p.buoyancy_mass) for p in self.parts]) * float(gravity)
        self.cob = _stack(self.parts, 'cob', (3,))
        #: (index, SurfaceTransition) of the parts with a surface transition
        self.surfaces = [(k, p.surface) for k, p in enumerate(self.parts)
                         if p.surface is not None]
        self.linear = _stack(self.parts, 'linear_drag', (6, 6))
        if damping == 'quadratic_only':
            # uwv_dynamic_model COMPLEX-like switch, as Drag: the linear term is ignored
            self.linear = np.zeros((n, 6, 6))
        self.quadratic = _stack(self.parts, 'quadratic_drag', (6, 6, 6))
        self.added_mass = _stack(self.parts, 'added_mass', (6, 6))
        self.velocity_point = _stack(self.parts, 'drag_velocity_point', (3,))
        self.center = _stack(self.parts, 'drag_center', (3,))
        # constant maps: the drag point's twist H(r_v), the centre's wrench H(r_c)^T
        # (H(r) = X of a frame at r with the body's axes)
        axes = np.tile(np.eye(3), (n, 1, 1))
        h_v = motion_transforms(axes, self.velocity_point)
        h_ct = np.swapaxes(motion_transforms(axes, self.center), 1, 2)
        # Fossen's H(r), MSS Hmtrx: nu_p = H(r_v) nu; the wrench at r_c moved: H(r_c)^T tau
        #: H(r_v), H_c^T L H_v and H_c^T Q (N, 6, 36): the drag maps about the origin
        self.h_velocity = h_v
        self.linear_origin = np.matmul(np.matmul(h_ct, self.linear), h_v)
        self.quadratic_origin = np.einsum('nab,nbk->nak', h_ct,
                                          self.quadratic.reshape(n, 6, 36))
        # Archimedes at the CoB: [F, cob x F] = [I; S(cob)] F
        self._buoyancy_map = np.swapaxes(motion_transforms(axes, self.cob), 1, 2)[:, :, :3]
        self.has_linear = bool(np.any(self.linear))
        self.has_quadratic = bool(np.any(self.quadratic))
        self.has_added_mass = bool(np.any(self.added_mass))
        #: the added-mass Coriolis -C_A(nu_r) nu_r is on
        self.coriolis = bool(added_mass_coriolis)

    def wrenches(self, rotation, position, twist, acceleration=None, current_world=None,
                 current_rate_world=None, engine_added_mass: bool = False) -> np.ndarray:
        """
        Return the components (N, len(COMPONENT_NAMES), 6) of every part, link axes.

        ``rotation`` (N, 3, 3) world <- link; ``position`` (N, 3) world ENU link origins
        (None: fully submerged); ``twist`` (N, 6) and ``acceleration`` (N, 6) or None
        (no added-mass inertial term) of the link origins in link axes;
        ``current_world`` (3,) and ``current_rate_world`` (3,) or None.  Weight, fins,
        hull lift and cross-flow drag rows are zero.
        """
        n = self.count
        out = np.zeros((n, len(COMPONENT_NAMES), 6))
        if n == 0:
            return out
        rot = np.asarray(rotation, dtype=float).reshape(n, 3, 3)
        nu = np.asarray(twist, dtype=float).reshape(n, 6)
        # world down in link axes: R^T [0, 0, -1] = -R[2, :] (hydrostatics.down_direction)
        down = -rot[:, 2, :]
        fraction = np.ones(n)
        if position is not None and self.surfaces:
            pos = np.asarray(position, dtype=float).reshape(n, 3)
            for k, surface in self.surfaces:
                # the CoB's depth: -(z of the origin + R[2, :] . cob)
                fraction[k] = surface_fraction(-(pos[k, 2] + rot[k, 2] @ self.cob[k]), surface)
        # Archimedes: f rho V g along world up, at the CoB
        out[:, _BUOYANCY] = np.einsum('nij,nj->ni', self._buoyancy_map,
                                      -(fraction * self.buoyancy)[:, None] * down)
        nu_r, v_c = nu, None
        if current_world is not None:
            # the current in link axes v_cl = R^T v_c (Fossen 2021 ch. 10)
            v_c = np.einsum('nji,j->ni', rot, np.asarray(current_world, dtype=float).reshape(3))
            nu_r = nu.copy()
            nu_r[:, :3] -= v_c
        if self.has_linear:
            # dsros_hydro linear drag -L nu_p at r_c, about the origin: -H_c^T L H_v nu_r
            out[:, _LINEAR] = -np.einsum('nij,nj->ni', self.linear_origin, nu_r)
        if self.has_quadratic:
            nu_p = np.einsum('nij,nj->ni', self.h_velocity, nu_r)
            # dsros_hydro quadratic drag -Q |nu_p| nu_p at r_c, about the origin
            out[:, _QUADRATIC] = -np.einsum('nak,nk->na', self.quadratic_origin, (
                np.abs(nu_p)[:, :, None] * nu_p[:, None, :]).reshape(n, 36))
        if self.has_added_mass:
            self._added_mass(out, rot, nu, nu_r, v_c, acceleration, current_rate_world,
                             engine_added_mass)
        return out

    def _added_mass(self, out, rot, nu, nu_r, v_c, acceleration, current_rate_world,
                    engine_added_mass) -> None:
        """Fill the added_mass and added_mass_coriolis rows (module docstring)."""
        n = self.count
        nu_dot_c = None
        if v_c is not None or current_rate_world is not None:
            nu_dot_c = np.zeros((n, 6))
            if v_c is not None:
                # d/dt (R^T v_c) = -w x R^T v_c for a constant v_c (R_dot = R S(w),
                # Fossen 2021 ch. 2, Kinematics)
                nu_dot_c[:, :3] = -cross_rows(nu[:, 3:], v_c)
            if current_rate_world is not None:
                # ... plus R^T dv_c/dt for a changing current
                nu_dot_c[:, :3] += np.einsum('nji,j->ni', rot, np.asarray(
                    current_rate_world, dtype=float).reshape(3))
        m_a = self.added_mass
        if engine_added_mass:
            if nu_dot_c is not None:
                # Fossen 2021 ch. 10: M_A nu_dot_c, the part of -M_A nu_dot_r left over
                out[:, _ADDED] = np.einsum('nij,nj->ni', m_a, nu_dot_c)
            if self.coriolis and v_c is not None:
                # C_A(nu) nu - C_A(nu_r) nu_r: the engine computes -C_A(nu) nu itself
                out[:, _CORIOLIS] = (added_mass_coriolis_wrench_many(m_a, nu_r)
                                     - added_mass_coriolis_wrench_many(m_a, nu))
            return
        if acceleration is not None:
            nu_dot_r = np.asarray(acceleration, dtype=float).reshape(n, 6)
            if nu_dot_c is not None:
                nu_dot_r = nu_dot_r - nu_dot_c
            # Fossen 2021 ch. 10: -M_A nu_dot_r
            out[:, _ADDED] = -np.einsum('nij,nj->ni', m_a, nu_dot_r)
        if self.coriolis:
            # Fossen 2011 eq. 6.43: -C_A(nu_r) nu_r
            out[:, _CORIOLIS] = added_mass_coriolis_wrench_many(m_a, nu_r)


def part_poses(parts: Sequence[LinkHydroPart]):
    """Return (position (N, 3), rotation (N, 3, 3)) of the parts in their bodies."""
    return _stack(parts, 'position', (3,)), _stack(parts, 'rotation', (3, 3))
