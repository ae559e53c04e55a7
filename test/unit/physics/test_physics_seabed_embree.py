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
The grid ray cast against an independent one: Intel Embree (embreex) on the triangulated grid.

Each cell is cut along its (i, j)-(i+1, j+1) diagonal into two triangles through its
nodes.  On a plane the two surfaces are the same.  Elsewhere the bilinear patch
h = a + b s + c r + e s r and the triangle's plane differ by e r (1 - s) (or e s (1 - r)),
at most |e| / 4 at the centre of the diagonal, e = h00 - h10 - h01 + h11 the cell's
twist; a ray falling below the bilinear surface at a rate kappa then meets the triangles
within (max |e| / 4) / kappa of its bilinear hit.  Embree works in float32: 1e-4 m
covers its rounding of coordinates of tens of metres.
"""
import math

import numpy as np

from required_modules import require
from uwv_hydro.physics.environment.seabed import GridSeabed

# pinned in requirements.txt: missing there, a failure; elsewhere a skip that says why
rtcore_scene = require('embreex.rtcore_scene')
TriangleMesh = require('embreex.mesh_construction').TriangleMesh

#: Embree's float32 rounding of ranges and coordinates of ~50 m (m).
FLOAT32_TOLERANCE = 1e-4


def grid_triangles(grid: GridSeabed):
    """Return (vertices, triangles) of the grid cut along each cell's rising diagonal."""
    ny, nx = grid.shape
    x = grid.x0 + grid.dx * np.arange(nx)
    y = grid.y0 + grid.dy * np.arange(ny)
    xx, yy = np.meshgrid(x, y)
    vertices = np.column_stack((xx.ravel(), yy.ravel(), grid.heights.ravel()))
    node = np.arange(nx * ny).reshape(ny, nx)
    n00, n10 = node[:-1, :-1].ravel(), node[:-1, 1:].ravel()
    n01, n11 = node[1:, :-1].ravel(), node[1:, 1:].ravel()
    triangles = np.concatenate((np.column_stack((n00, n10, n11)),
                                np.column_stack((n00, n11, n01))))
    return vertices, triangles


def embree_ranges(grid: GridSeabed, origins, directions) -> np.ndarray:
    """Return Embree's first-hit range of each ray on the triangulated grid (inf: none)."""
    scene = rtcore_scene.EmbreeScene()
    vertices, triangles = grid_triangles(grid)
    TriangleMesh(scene, vertices.astype(np.float32), triangles.astype(np.int32))
    out = scene.run(np.asarray(origins, np.float32), np.asarray(directions, np.float32),
                    output=True)
    return np.where(out['geomID'] >= 0, out['tfar'].astype(float), math.inf)


def _grid(func, n=81, half=20.0):
    step = 2 * half / (n - 1)
    x = -half + step * np.arange(n)
    xx, yy = np.meshgrid(x, x)
    return GridSeabed(func(xx, yy), -half, -half, step, step)


def _rays(n, seed, spread=0.3, z=-10.0, area=8.0):
    rng = np.random.default_rng(seed)
    o = np.column_stack((rng.uniform(-area, area, (n, 2)), np.full(n, z)))
    d = np.column_stack((rng.uniform(-spread, spread, (n, 2)), -np.ones(n)))
    return o, d / np.linalg.norm(d, axis=1, keepdims=True)


def test_embree_agrees_on_a_sloping_plane():
    grid = _grid(lambda x, y: -25.0 + 0.35 * x - 0.2 * y)
    o, d = _rays(5000, 1, spread=0.4)
    ours = grid.cast(o, d)
    theirs = embree_ranges(grid, o, d)
    assert np.isfinite(ours).all()
    assert np.abs(ours - theirs).max() <= FLOAT32_TOLERANCE


def test_embree_within_the_twist_bound_on_a_curved_seabed():
    def hills(x, y):
        return -30.0 + 3.0 * np.sin(0.3 * x) * np.cos(0.25 * y) + 0.02 * x * x

    grid = _grid(hills, n=41)
    h = grid.heights
    twist = np.abs(h[:-1, :-1] - h[:-1, 1:] - h[1:, :-1] + h[1:, 1:]).max()
    # |grad h| of a bilinear cell is largest at a node: bounded by the node differences
    slope = math.hypot(np.abs(np.diff(h, axis=1)).max() / grid.dx,
                       np.abs(np.diff(h, axis=0)).max() / grid.dy)
    o, d = _rays(5000, 2, spread=0.3)
    kappa = -d[:, 2] - slope * np.hypot(d[:, 0], d[:, 1])
    assert (kappa > 0.0).all()
    ours = grid.cast(o, d)
    theirs = embree_ranges(grid, o, d)
    assert np.isfinite(ours).all() and np.isfinite(theirs).all()
    diff = np.abs(ours - theirs)
    assert (diff <= twist / 4.0 / kappa + FLOAT32_TOLERANCE).all()
    # the two surfaces do differ here: the test would see a cast to the wrong surface
    assert diff.max() > 10 * FLOAT32_TOLERANCE
