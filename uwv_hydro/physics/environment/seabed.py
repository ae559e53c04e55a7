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
The seabed under the world: a flat plane or a regular grid of heights, and rays cast to it.

Heights are elevations in the ENU world (metres, positive up: a seabed 40 m deep is at
-40).  The solid is everything at or below the surface, {z <= h(x, y)}; where there is
no surface (a hole, or outside the grid) there is no bottom at any depth, so the edge
of a hole is a wall going down for ever.

:class:`GridSeabed` holds heights H[j, i] at the nodes (x0 + i dx, y0 + j dy); between
nodes the surface is bilinear in the grid's own coordinates.  A cell with a NaN node is
a hole.  :meth:`GridSeabed.cast` follows every ray through the cells it crosses (the
grid traversal of Amanatides and Woo, 1987) and intersects the bilinear patch of each
cell exactly: along a ray the height of the patch is quadratic in the range, so the
crossing is the first root of a quadratic in the cell's range interval.  A ray's range
is the distance to the first point of the solid within its maximum range, 0 for a ray
that starts in the solid, ``inf`` for none.

Both run in the compiled core (``_seabed.c``): each seabed holds a copy of itself there,
its ``capsule``, which it hands to other calls of the core (a vehicle's contact with the
bottom) and which C code reads with ``uwv_read_seabed`` (``_kernel.h``).
"""
import math

import numpy as np

from uwv_hydro.physics.kernel import core


def _rays(origins, directions, max_range):
    """Return (N, 3) origins, (N, 3) directions (float64, C order) and the maximum range."""
    o = np.ascontiguousarray(origins, dtype=float).reshape(-1, 3)
    d = np.ascontiguousarray(directions, dtype=float).reshape(-1, 3)
    if o.shape != d.shape:
        raise ValueError(f'seabed ray cast: {len(o)} origins for {len(d)} directions')
    r = np.asarray(max_range, dtype=float)
    if r.ndim == 0:
        return o, d, float(r)
    if r.shape != (len(o),):
        r = np.broadcast_to(r, (len(o),))
    return o, d, np.ascontiguousarray(r)


class _Seabed:
    """What both seabeds share: the calls of the core on their ``capsule``."""

    capsule = None

    def elevation(self, x, y) -> np.ndarray:
        """Return the height of the seabed (m, up) at world points (x, y); NaN: no bottom."""
        return self.height_and_gradient(x, y, gradient=False)[0]

    def height_and_gradient(self, x, y, gradient=True):
        """
        Return the height h (m, up) at (x, y) and its gradient (dh/dx, dh/dy) (..., 2).

        NaN in both where there is no bottom.  ``gradient=False``: None for it.
        """
        x, y = np.broadcast_arrays(np.asarray(x, dtype=float), np.asarray(y, dtype=float))
        shape = x.shape
        h = np.empty(shape)
        grad = np.empty(shape + (2,)) if gradient else None
        core.seabed_height(self.capsule, np.ascontiguousarray(x).reshape(-1),
                           np.ascontiguousarray(y).reshape(-1), h.reshape(-1),
                           None if grad is None else grad.reshape(-1))
        return h, grad

    def cast(self, origins, directions, max_range=math.inf) -> np.ndarray:
        """
        Return each ray's range (m) to the first point of the solid, ``inf`` for none.

        ``directions`` are unit vectors (ranges are in units of their length); 0 for a
        ray that starts in the solid; ``max_range`` a number or one per ray.
        """
        o, d, r = _rays(origins, directions, max_range)
        out = np.empty(len(o))
        core.seabed_cast(self.capsule, o, d, r, out)
        return out


class FlatSeabed(_Seabed):
    """A horizontal seabed ``depth`` metres below the surface (elevation -depth)."""

    def __init__(self, depth: float):
        if not math.isfinite(depth):
            raise ValueError(f'flat seabed: depth {depth!r} is not a finite number')
        self.depth = float(depth)
        #: The seabed in the compiled core (``uwv_read_seabed`` in ``_kernel.h``).
        self.capsule = core.seabed_flat(self.depth)

    def __reduce__(self):
        """Pickle and copy by the depth (the capsule is rebuilt)."""
        return FlatSeabed, (self.depth,)


class GridSeabed(_Seabed):
    """
    A regular grid of seabed elevations: H[j, i] (m, up) at (x0 + i dx, y0 + j dy).

    NaN nodes make the cells around them holes with no bottom.  At least 2 x 2 nodes.
    ``heights`` is read-only: the core holds a copy.
    """

    def __init__(self, heights, x0: float, y0: float, dx: float, dy: float):
        h = np.array(heights, dtype=float)
        if h.ndim != 2 or h.shape[0] < 2 or h.shape[1] < 2:
            raise ValueError(f'seabed grid: heights of shape {h.shape}, need (ny >= 2, nx >= 2)')
        for name, value in (('x0', x0), ('y0', y0), ('dx', dx), ('dy', dy)):
            if not math.isfinite(value):
                raise ValueError(f'seabed grid: {name} = {value!r} is not finite')
        if not (dx > 0.0 and dy > 0.0):
            raise ValueError(f'seabed grid: spacing dx = {dx!r}, dy = {dy!r} must be > 0')
        if np.isinf(h).any():
            raise ValueError('seabed grid: infinite heights (holes are NaN)')
        h.setflags(write=False)
        self.heights = h
        self.x0, self.y0, self.dx, self.dy = float(x0), float(y0), float(dx), float(dy)
        ny, nx = h.shape
        #: The seabed in the compiled core (``uwv_read_seabed`` in ``_kernel.h``).
        self.capsule = core.seabed_grid(np.ascontiguousarray(h).reshape(-1), nx, ny,
                                        self.x0, self.y0, self.dx, self.dy)

    def __reduce__(self):
        """Pickle and copy by the heights and the grid (the capsule is rebuilt)."""
        return GridSeabed, (self.heights, self.x0, self.y0, self.dx, self.dy)

    @property
    def shape(self):
        """Return (ny, nx), the number of nodes along y and x."""
        return self.heights.shape

    @property
    def extent(self):
        """Return (x_min, x_max, y_min, y_max) of the nodes (m)."""
        ny, nx = self.heights.shape
        return (self.x0, self.x0 + (nx - 1) * self.dx, self.y0, self.y0 + (ny - 1) * self.dy)
