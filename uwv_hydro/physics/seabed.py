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
grid traversal of Amanatides and Woo, 1987, vectorised over the rays) and intersects the
bilinear patch of each cell exactly: along a ray the height of the patch is quadratic in
the range, so the crossing is the first root of a quadratic in the cell's range interval.
A ray's range is the distance to the first point of the solid within its maximum range,
0 for a ray that starts in the solid, ``inf`` for none.
"""
import math

import numpy as np


def _rays(origins, directions, max_range):
    """Return (N, 3) origins, (N, 3) directions and (N,) maximum ranges as float arrays."""
    o = np.asarray(origins, dtype=float).reshape(-1, 3)
    d = np.asarray(directions, dtype=float).reshape(-1, 3)
    if o.shape != d.shape:
        raise ValueError(f'seabed ray cast: {len(o)} origins for {len(d)} directions')
    r = np.broadcast_to(np.asarray(max_range, dtype=float), (len(o),)).copy()
    return o, d, r


class FlatSeabed:
    """A horizontal seabed ``depth`` metres below the surface (elevation -depth)."""

    def __init__(self, depth: float):
        if not math.isfinite(depth):
            raise ValueError(f'flat seabed: depth {depth!r} is not a finite number')
        self.depth = float(depth)

    def elevation(self, x, y) -> np.ndarray:
        """Return the height of the seabed (m, up) at world points (x, y): -depth."""
        return np.full(np.broadcast(np.asarray(x), np.asarray(y)).shape, -self.depth)

    def cast(self, origins, directions, max_range=math.inf) -> np.ndarray:
        """Return each ray's range to the seabed (m); ``inf`` without a hit within range."""
        o, d, r = _rays(origins, directions, max_range)
        above = o[:, 2] + self.depth  # height of the origin above the seabed
        with np.errstate(divide='ignore', invalid='ignore'):
            # Ray-plane intersection: z0 + t d_z = -depth  ->  t = (z0 + depth) / (-d_z)
            t = np.where(d[:, 2] < 0.0, above / -d[:, 2], math.inf)
        t = np.where(above <= 0.0, 0.0, t)
        return np.where(t <= r, t, math.inf)


def _first_root(qa, qb, qc, length):
    """
    Return the first root in [0, length] of qa t^2 + qb t + qc (qc > 0), else ``inf``.

    Roots by the cancellation-free form q = -(b + sign(b) sqrt(b^2 - 4ac)) / 2,
    t = q / a and t = c / q (Press et al., Numerical Recipes, sec. 5.6), which also
    gives the root of the linear case a = 0.
    """
    with np.errstate(divide='ignore', invalid='ignore'):
        disc = qb * qb - 4.0 * qa * qc
        sq = np.sqrt(np.maximum(disc, 0.0))
        q = -0.5 * (qb + np.where(qb < 0.0, -sq, sq))
        t1 = q / qa
        t2 = qc / q
    ok1 = (disc >= 0.0) & (t1 >= 0.0) & (t1 <= length)
    ok2 = (disc >= 0.0) & (t2 >= 0.0) & (t2 <= length)
    return np.minimum(np.where(ok1, t1, math.inf), np.where(ok2, t2, math.inf))


class GridSeabed:
    """
    A regular grid of seabed elevations: H[j, i] (m, up) at (x0 + i dx, y0 + j dy).

    NaN nodes make the cells around them holes with no bottom.  At least 2 x 2 nodes.
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
        self.heights = h
        self.x0, self.y0, self.dx, self.dy = float(x0), float(y0), float(dx), float(dy)

    @property
    def shape(self):
        """Return (ny, nx), the number of nodes along y and x."""
        return self.heights.shape

    @property
    def extent(self):
        """Return (x_min, x_max, y_min, y_max) of the nodes (m)."""
        ny, nx = self.heights.shape
        return (self.x0, self.x0 + (nx - 1) * self.dx, self.y0, self.y0 + (ny - 1) * self.dy)

    def elevation(self, x, y) -> np.ndarray:
        """Return the bilinear elevation at world points (x, y); NaN in holes and outside."""
        x, y = np.broadcast_arrays(np.asarray(x, dtype=float), np.asarray(y, dtype=float))
        ny, nx = self.heights.shape
        u = (x - self.x0) / self.dx
        v = (y - self.y0) / self.dy
        inside = (u >= 0.0) & (u <= nx - 1) & (v >= 0.0) & (v <= ny - 1)
        i = np.clip(np.floor(np.where(inside, u, 0.0)).astype(np.intp), 0, nx - 2)
        j = np.clip(np.floor(np.where(inside, v, 0.0)).astype(np.intp), 0, ny - 2)
        s, r = u - i, v - j
        h = self.heights
        # Bilinear interpolation: h00 (1-s)(1-r) + h10 s (1-r) + h01 (1-s) r + h11 s r
        z = ((h[j, i] * (1.0 - s) + h[j, i + 1] * s) * (1.0 - r)
             + (h[j + 1, i] * (1.0 - s) + h[j + 1, i + 1] * s) * r)
        return np.where(inside, z, math.nan)

    def cast(self, origins, directions, max_range=math.inf) -> np.ndarray:
        """
        Return each ray's range (m) to the first point of the solid, ``inf`` for none.

        ``directions`` are unit vectors (ranges are in units of their length).
        """
        o, d, rmax = _rays(origins, directions, max_range)
        n = len(o)
        ny, nx = self.heights.shape
        result = np.full(n, math.inf)
        # Grid coordinates along the ray: u = u0 + du t, v = v0 + dv t
        u0 = (o[:, 0] - self.x0) / self.dx
        v0 = (o[:, 1] - self.y0) / self.dy
        du = d[:, 0] / self.dx
        dv = d[:, 1] / self.dy
        t_in, t_out = np.zeros(n), rmax.copy()
        with np.errstate(divide='ignore', invalid='ignore'):
            for w0, dw, top in ((u0, du, nx - 1), (v0, dv, ny - 1)):
                # Slab clipping of the ray to 0 <= w <= top (Kay and Kajiya, 1986)
                ta, tb = (0.0 - w0) / dw, (top - w0) / dw
                lo = np.where(dw != 0.0, np.minimum(ta, tb), -math.inf)
                hi = np.where(dw != 0.0, np.maximum(ta, tb), math.inf)
                outside = (dw == 0.0) & ((w0 < 0.0) | (w0 > top))
                lo = np.where(outside, math.inf, lo)
                hi = np.where(outside, -math.inf, hi)
                t_in = np.maximum(t_in, lo)
                t_out = np.minimum(t_out, hi)
        act = np.nonzero(t_in <= t_out)[0]
        t_cur = t_in[act]
        us, vs = u0[act] + du[act] * t_cur, v0[act] + dv[act] * t_cur
        # the cell the ray enters: on a node line, the one in the direction of travel
        i = np.where(du[act] >= 0.0, np.floor(us), np.ceil(us) - 1.0)
        j = np.where(dv[act] >= 0.0, np.floor(vs), np.ceil(vs) - 1.0)
        i = np.clip(i, 0, nx - 2).astype(np.intp)
        j = np.clip(j, 0, ny - 2).astype(np.intp)
        h = self.heights
        while act.size:
            a_u0, a_v0, a_du, a_dv = u0[act], v0[act], du[act], dv[act]
            a_dz, a_out = d[act, 2], t_out[act]
            with np.errstate(divide='ignore', invalid='ignore'):
                # range at which the ray leaves the cell across a node line of u, of v
                tx = np.where(a_du > 0.0, (i + 1 - a_u0) / a_du,
                              np.where(a_du < 0.0, (i - a_u0) / a_du, math.inf))
                ty = np.where(a_dv > 0.0, (j + 1 - a_v0) / a_dv,
                              np.where(a_dv < 0.0, (j - a_v0) / a_dv, math.inf))
            t_next = np.minimum(np.minimum(tx, ty), a_out)
            h00, h10 = h[j, i], h[j, i + 1]
            h01, h11 = h[j + 1, i], h[j + 1, i + 1]
            # the patch h = a + b s + c r + e s r in the cell's coordinates s, r in [0, 1]
            b, c = h10 - h00, h01 - h00
            e = h00 - h10 - h01 + h11
            s0, r0 = a_u0 + a_du * t_cur - i, a_v0 + a_dv * t_cur - j
            z0 = o[act, 2] + a_dz * t_cur
            # height of the ray over the patch, f(t') = A t'^2 + B t' + C, t' = t - t_cur
            qc = z0 - (h00 + b * s0 + c * r0 + e * s0 * r0)
            qb = a_dz - (b + e * r0) * a_du - (c + e * s0) * a_dv
            qa = -e * a_du * a_dv
            length = np.maximum(t_next - t_cur, 0.0)
            root = np.where(qc <= 0.0, 0.0,
                            _first_root(qa, qb, np.maximum(qc, 0.0), length))
            hit = np.isfinite(root) & ~np.isnan(e)
            result[act[hit]] = t_cur[hit] + root[hit]
            step_x = tx <= t_next
            step_y = ty <= t_next
            i = i + np.where(step_x, np.where(a_du > 0.0, 1, -1), 0)
            j = j + np.where(step_y, np.where(a_dv > 0.0, 1, -1), 0)
            done = (hit | (t_next >= a_out) | (i < 0) | (i > nx - 2) | (j < 0)
                    | (j > ny - 2))
            keep = ~done
            act, i, j, t_cur = act[keep], i[keep], j[keep], t_next[keep]
        return result
