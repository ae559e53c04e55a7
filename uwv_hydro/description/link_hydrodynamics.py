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
Move per-link drag and added mass into the base frame, exactly where it can be.

The sources are gz-sim's Hydrodynamics, sdformat's fluid_added_mass and lrauv's
plugin, each acting at its link's origin, in link axes.

gz-sim's Hydrodynamics system (``src/systems/hydrodynamics/Hydrodynamics.cc``) applies
each link's wrench with ``Link::AddWorldWrench`` at the link origin, computed from the
link-origin twist in link axes.  For a link at pose (p, R) in the base frame, the
link twist is nu_l = T nu with (rigid-body velocity field v_p = v + w x p)::

    T = [[R^T, -R^T S(p)], [0, R^T]]

and its wrench moves to the base origin as tau = T^T f_l (the dual map).  Hence, exactly:

* linear drag:  L = sum_l T_l^T L_l T_l  (about the origin, origin twist);
* added mass:   M_A = sum_l T_l^T M_l T_l  (a spatial inertia; T is constant in the
  body, so d/dt(T nu) = T nu_dot);
* quadratic drag F_a = -Q_abc |nu_b| nu_c involves |.| of link-frame components, which
  no single base-frame tensor reproduces for a general (p, R).  It is exact when every
  link carrying quadratic drag has its origin at one point P and axes that are a
  signed permutation A of the base axes (rotations by multiples of 90 degrees, the
  usual case): then nu_l = A6 nu_P, |nu_l| = |A6| |nu_P| and
  Q_base[a', b', c'] = sum A6[a, a'] |A6|[b, b'] A6[c, c'] Q_l[a, b, c].
  The vehicle's drag point (drag_center = drag_velocity_point) is then P and the
  linear drag is re-expressed there: L_P = H(P)^-T L H(P)^-1 (point_transform).
  Other layouts raise a DescriptionError saying why (the core has one drag point).
* signed quadratic drag F_a = -S_abc nu_b nu_c (gz-sim's ``<xUU>``) is bilinear in the
  twist, so it moves exactly for any pose: S_O[A, B, C] = sum T[a, A] T[b, B] T[c, C]
  S_l[a, b, c] about the origin, then to the drag point P with H(P)^-1 in place of T.
"""
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

import numpy as np

from uwv_hydro.description.conventions import skew
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.physics.spatial.point_transform import transfer_matrix_h

#: Why a vehicle whose links move cannot keep gz-sim's signed quadratic terms.
SIGNED_RIGID_ONLY = ('gz-sim Hydrodynamics signed quadratic terms (<xUU> and the like) are '
                     'read for a rigid vehicle only: the per-link hydrodynamics of a vehicle '
                     'whose links move has no signed quadratic drag; rename them <xUabsU> '
                     '(coefficient * |U| * U) or lump the links')
#: Tolerance (m, and on rotation-matrix entries) for "same origin" / "signed permutation".
LAYOUT_TOLERANCE = 1e-9


@dataclass
class LinkHydro:
    """Drag and added mass of one link, about its origin in its axes (uwv_hydro signs)."""

    link: str
    position: np.ndarray
    rotation: np.ndarray
    linear_drag: np.ndarray = field(default_factory=lambda: np.zeros((6, 6)))
    quadratic_drag: np.ndarray = field(default_factory=lambda: np.zeros((6, 6, 6)))
    added_mass: np.ndarray = field(default_factory=lambda: np.zeros((6, 6)))
    signed_quadratic_drag: np.ndarray = field(default_factory=lambda: np.zeros((6, 6, 6)))
    #: where it was read (for messages).
    where: str = ''
    #: coefficient labels {field: {index: (path, line)}} in link indices.
    labels: Dict[str, dict] = field(default_factory=dict)


def link_twist_map(position: np.ndarray, rotation: np.ndarray) -> np.ndarray:
    """Return T: base-origin twist (base axes) -> link-origin twist (link axes)."""
    t = np.zeros((6, 6))
    rt = np.asarray(rotation, float).T
    # v_l = R^T (v + w x p) = R^T (v - S(p) w), w_l = R^T w
    t[:3, :3] = rt
    t[:3, 3:] = -rt @ skew(position)
    t[3:, 3:] = rt
    return t


def _is_identity(part: LinkHydro) -> bool:
    return (np.allclose(part.position, 0.0, atol=LAYOUT_TOLERANCE)
            and np.allclose(part.rotation, np.eye(3), atol=LAYOUT_TOLERANCE))


def _signed_permutation(rotation: np.ndarray) -> Optional[np.ndarray]:
    rounded = np.round(rotation)
    if np.allclose(rotation, rounded, atol=LAYOUT_TOLERANCE):
        return rounded
    return None


def combine(parts: List[LinkHydro], source: str
            ) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Dict[str, dict],
                       np.ndarray]:
    """
    Return (linear, quadratic, added mass, drag point, labels, signed quadratic), base frame.

    linear, quadratic and signed quadratic drag act at ``drag_point`` with its twist;
    added mass is about the base origin.  Labels are kept for a part whose frame is the
    base frame.
    """
    linear = np.zeros((6, 6))
    quad = np.zeros((6, 6, 6))
    added = np.zeros((6, 6))
    signed = np.zeros((6, 6, 6))
    labels: Dict[str, dict] = {}
    quad_parts = [p for p in parts if np.any(p.quadratic_drag)]
    quad_ids = {id(p) for p in quad_parts}
    point = np.asarray(quad_parts[0].position, float) if quad_parts else np.zeros(3)
    for part in parts:
        t = link_twist_map(part.position, part.rotation)
        linear += t.T @ part.linear_drag @ t  # tau = T^T f_l, f_l = -L_l T nu
        added += t.T @ part.added_mass @ t     # spatial inertia moved to the base origin
        # f_l = -S_l(T nu, T nu), tau = T^T f_l: S_O = S_l contracted with T on every index
        signed += np.einsum('aA,bB,cC,abc->ABC', t, t, t, part.signed_quadratic_drag)
        if _is_identity(part):
            for key, value in part.labels.items():
                labels.setdefault(key, {}).update(value)
        if id(part) in quad_ids:
            perm = _signed_permutation(part.rotation)
            if perm is None or not np.allclose(part.position, point, atol=LAYOUT_TOLERANCE):
                raise DescriptionError(
                    'quadratic drag of links %s cannot be combined exactly: uwv_hydro '
                    'evaluates quadratic drag at one point, so every link carrying it must '
                    'have its origin at the same point with axes rotated from the base '
                    'axes by multiples of 90 degrees (link %r is at %s). Move the '
                    'quadratic terms to one link (e.g. the base link)'
                    % (', '.join(repr(p.link) for p in quad_parts), part.link,
                       np.round(part.position, 6).tolist()), source, part.where)
            a6 = np.zeros((6, 6))
            a6[:3, :3] = a6[3:, 3:] = perm.T  # nu_l = A6 nu_P
            # Q'[A, B, C] = sum A6[a, A] |A6|[b, B] A6[c, C] Q[a, b, c] (module docstring)
            quad += np.einsum('aA,bB,cC,abc->ABC', a6, np.abs(a6), a6, part.quadratic_drag)
    h_inv = transfer_matrix_h(-point)  # H(P)^-1 = H(-P)
    # L about the origin -> about P: L_P = H(P)^-T L H(P)^-1 (Fossen's H(r), MSS Hmtrx)
    linear_p = h_inv.T @ linear @ h_inv
    # about the origin -> at P: the same contraction with H(P)^-1 (twist nu = H^-1 nu_P)
    signed_p = np.einsum('aA,bB,cC,abc->ABC', h_inv, h_inv, h_inv, signed)
    if np.any(point):
        labels.pop('linear_drag', None)
        labels.pop('signed_quadratic_drag', None)
    return linear_p, quad, added, point, labels, signed_p
