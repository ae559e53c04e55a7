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
The hydro wrench of one link part (:class:`~uwv_hydro.physics.link_tree.LinkHydroPart`).

Evaluated in the part's own frame, about its origin, from the twist of that origin in
its axes (what each peer's per-link plugin does)::

    buoyancy             rho V g up at the part's CoB, scaled by its surface fraction
                         (depth of the part origin; None: always fully submerged)
    linear_drag          -L nu_p at drag_center, nu_p = H(drag_velocity_point) nu_r
    quadratic_drag       -Q_abc |nu_p,b| nu_p,c at drag_center
    added_mass           -M_A (a - nu_dot_c): a the part's acceleration when given
                         (a lagged one), else M_A nu_dot_c alone (the current's part)
    added_mass_coriolis  -nu_r x* (M_A nu_r) (Kirchhoff, Fossen 2011 eq. 6.43)

with nu_r = nu - [R^T v_c, 0] (a uniform world current v_c) and nu_dot_c =
[-w x R^T v_c, 0] its body-frame rate (constant current).  Weight is not a part's: it
belongs to the body's mass (the multibody engine's gravity, or the caller's).

:func:`motion_to_part` and :func:`force_from_part` move twists and wrenches between a
body (joint) frame and a part posed (R, p) in it.
"""
import numpy as np

from uwv_hydro.physics.added_mass import added_mass_coriolis_wrench
from uwv_hydro.physics.drag import linear_drag, quadratic_drag
from uwv_hydro.physics.hydrostatics import surface_fraction
from uwv_hydro.physics.rotation import cross, skew

#: Rows of :meth:`PartWrench.components` (names as in ``COMPONENT_NAMES``).
PART_COMPONENTS = ('buoyancy', 'linear_drag', 'quadratic_drag', 'added_mass',
                   'added_mass_coriolis')


def motion_to_part(rotation, position, nu) -> np.ndarray:
    """Return the twist of a part posed (R, p) in a frame whose origin has twist ``nu``."""
    v, w = nu[:3], nu[3:]
    # Twist transfer to the point p, then into the part axes: [R^T (v + w x p), R^T w]
    return np.concatenate((rotation.T @ (v + cross(w, position)), rotation.T @ w))


def force_from_part(rotation, position, wrench) -> np.ndarray:
    """Return a part's wrench (its axes, about its origin) in the frame it is posed in."""
    f = rotation @ wrench[:3]
    # Wrench transfer: tau_O = [R f, p x R f + R m]
    return np.concatenate((f, cross(position, f) + rotation @ wrench[3:]))


def motion_matrix(rotation, position) -> np.ndarray:
    """Return X with nu_part = X nu (so that a frame's wrench is X^T times the part's)."""
    rt = np.asarray(rotation, float).T
    s = skew(np.asarray(position, float))
    out = np.zeros((6, 6))
    # Featherstone's motion transform: [[R^T, -R^T S(p)], [0, R^T]]
    out[:3, :3] = rt
    out[:3, 3:] = -rt @ s
    out[3:, 3:] = rt
    return out


def spatial_force_cross(nu, h) -> np.ndarray:
    """Return nu x* h = [w x h1, v x h1 + w x h2] (Featherstone's force cross product)."""
    v, w = nu[:3], nu[3:]
    # Featherstone 2008 eq. 2.32: crf(nu) h
    return np.concatenate((cross(w, h[:3]), cross(v, h[:3]) + cross(w, h[3:])))


class PartWrench:
    """The hydro wrench of one LinkHydroPart (constants precomputed)."""

    def __init__(self, part, gravity: float):
        self.part = part
        self.buoyancy = float(part.buoyancy_mass) * float(gravity)
        self.cob = np.array(part.cob, dtype=float).reshape(3)
        self.added_mass = np.array(part.added_mass, dtype=float).reshape(6, 6)
        self.linear = np.array(part.linear_drag, dtype=float).reshape(6, 6)
        self.quadratic = np.array(part.quadratic_drag, dtype=float).reshape(6, 6, 6)
        self.velocity_point = np.array(part.drag_velocity_point, dtype=float).reshape(3)
        self.center = np.array(part.drag_center, dtype=float).reshape(3)
        self._has_added_mass = bool(np.any(self.added_mass))
        self._has_linear = bool(np.any(self.linear))
        self._has_quadratic = bool(np.any(self.quadratic))

    def fraction(self, depth: float) -> float:
        """Return the part's buoyancy fraction at the depth of its origin."""
        surface = self.part.surface
        return 1.0 if surface is None else surface_fraction(depth, surface)

    def components(self, nu, rotation, depth: float, current_world=None,
                   acceleration=None) -> np.ndarray:
        """
        Return the (len(PART_COMPONENTS), 6) wrenches in the part frame, about its origin.

        ``nu``: twist of the part origin in its axes; ``rotation``: world <- part;
        ``depth``: depth of the part origin (m, positive down); ``current_world``: ENU
        current (None: still water); ``acceleration``: the part's twist derivative
        for the explicit added-mass term (None: left to the caller's inertia).
        """
        nu = np.asarray(nu, dtype=float)
        out = np.zeros((len(PART_COMPONENTS), 6))
        if self.buoyancy:
            # Archimedes: rho V g along world up, in the part axes, at the CoB
            f = (self.buoyancy * self.fraction(depth)) * rotation[2, :]
            out[0, :3] = f
            out[0, 3:] = cross(self.cob, f)
        if current_world is None:
            nu_r, v_c = nu, None
        else:
            v_c = rotation.T @ np.asarray(current_world, dtype=float).reshape(3)
            nu_r = nu.copy()
            nu_r[:3] -= v_c
        if self._has_linear or self._has_quadratic:
            w = nu_r[3:]
            # Fossen 2011 eq. 7.236: relative twist of the drag velocity point
            nu_p = np.concatenate((nu_r[:3] + cross(w, self.velocity_point), w))
            for row, on, wrench in ((1, self._has_linear, linear_drag),
                                    (2, self._has_quadratic, quadratic_drag)):
                if on:
                    f = wrench(self.linear if row == 1 else self.quadratic, nu_p)
                    # Wrench transfer from the drag centre: tau_O = H(r_c)^T tau_c
                    out[row, :3] = f[:3]
                    out[row, 3:] = f[3:] + cross(self.center, f[:3])
        if self._has_added_mass:
            nu_dot_c = np.zeros(6)
            if v_c is not None:
                # Fossen 2011 sec. 10.3: d/dt (R^T v_c) = -w x R^T v_c (constant current)
                nu_dot_c[:3] = -cross(nu[3:], v_c)
            if acceleration is not None:
                # Fossen 2011 sec. 10.3: -M_A (nu_dot - nu_dot_c)
                out[3] = -(self.added_mass @ (np.asarray(acceleration, float) - nu_dot_c))
            elif v_c is not None:
                out[3] = self.added_mass @ nu_dot_c
            # Fossen 2011 eq. 6.43: -C_A(nu_r) nu_r
            out[4] = added_mass_coriolis_wrench(self.added_mass, nu_r)
        return out
