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
Cross-flow drag of a slender hull by strip theory (the ``crossflow_drag`` component).

Each strip of the hull at station x (body x axis, length dx, diameter d(x)) sees the
cross-flow velocity of its point (v_r + w x [x, 0, 0], Fossen's H(r), MSS Hmtrx)::

    c(x) = [v + r x, w - q x]      (body y and z; nu_r = [u, v, w, p, q, r])

and takes the two-dimensional drag of a cylinder section in that flow (the cross-flow
principle, Hoerner 1965; strip theory as in Fossen 2021 and PythonVehicle-
Simulator's ``crossFlowDrag``, re-derived here in 3-D)::

    dF = -1/2 rho C_d d(x) |c| c dx,      dM = [x, 0, 0] x dF = [0, -x dF_z, x dF_y]

summed over ``Hull.strips`` equal strips (midpoint rule, error O((L/n)^2)).  The
axial velocity u does not enter: the drag is right at any flow angle and in either
direction of travel.  The compiled core evaluates the same sum at every RK4 stage
(``_hull.c``: ``uwv_hull_wrench``).
"""
import numpy as np


def strip_table(hull, fluid_density):
    """
    Return (x, k) of the hull's strips: midpoints (n,) and k = 1/2 rho C_d d(x) dx (n,).

    The diameter is interpolated linearly between the profile stations (midpoint rule
    over ``hull.strips`` equal strips from the first to the last station).
    """
    stations = np.asarray(hull.stations, dtype=float)
    diameters = np.asarray(hull.diameters, dtype=float)
    n = int(hull.strips)
    dx = (stations[-1] - stations[0]) / n
    x = stations[0] + dx * (np.arange(n) + 0.5)
    d = np.interp(x, stations, diameters)
    # strip drag constant 1/2 rho C_d d dx (Hoerner cross-flow drag of a section)
    k = 0.5 * float(fluid_density) * float(hull.cd_crossflow) * d * dx
    return x, k


class CrossflowDrag:
    """Strip-theory cross-flow drag of one hull (vectorised over states)."""

    def __init__(self, hull, fluid_density):
        self.x, self.k = strip_table(hull, fluid_density)

    def wrench_many(self, nu_r) -> np.ndarray:
        """Return the cross-flow drag wrenches about the origin (N, 6) for (N, 6) twists."""
        nu_r = np.asarray(nu_r, dtype=float).reshape(-1, 6)
        # cross-flow velocity of every strip: c = [v + r x, w - q x] (Fossen's H(r), MSS Hmtrx)
        cy = nu_r[:, 1:2] + nu_r[:, 5:6] * self.x
        cz = nu_r[:, 2:3] - nu_r[:, 4:5] * self.x
        # per strip -k |c| c (Hoerner cross-flow drag)
        speed = np.hypot(cy, cz) * self.k
        fy, fz = -speed * cy, -speed * cz
        out = np.zeros((nu_r.shape[0], 6))
        out[:, 1] = fy.sum(axis=1)
        out[:, 2] = fz.sum(axis=1)
        # moment of the strip forces about the origin: [x, 0, 0] x F
        out[:, 4] = -(fz * self.x).sum(axis=1)
        out[:, 5] = (fy * self.x).sum(axis=1)
        return out

    def wrench(self, nu_r) -> np.ndarray:
        """Return the cross-flow drag wrench, 6 floats, for one relative twist."""
        return self.wrench_many(nu_r)[0]
