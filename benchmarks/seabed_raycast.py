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
Rays per second of the grid seabed's ray cast and of Embree on the same grid triangulated.

A 1001 x 1001 grid at 1 m of rolling terrain; DVL-like rays (at most 30 deg off the
vertical, from 5 to 50 m above the seabed), cast in batches.  Prints one JSON line per
caster: the median rays/s of five batches (Embree's scene build not counted).
Run: ``PYTHONPATH=. python benchmarks/seabed_raycast.py [--rays N]``.
"""
import argparse
import json
import math
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'test'))

from uwv_hydro.physics.seabed import GridSeabed  # noqa: E402


def _terrain(n=1001, step=1.0):
    x = step * np.arange(n) - step * (n - 1) / 2
    xx, yy = np.meshgrid(x, x)
    h = -60.0 + 8.0 * np.sin(0.02 * xx) * np.cos(0.03 * yy) + 2.0 * np.sin(0.3 * xx + 0.2 * yy)
    return GridSeabed(h, x[0], x[0], step, step)


def _rays(grid, n, rng):
    xy = rng.uniform(-400.0, 400.0, (n, 2))
    z = grid.elevation(xy[:, 0], xy[:, 1]) + rng.uniform(5.0, 50.0, n)
    tilt = rng.uniform(0.0, math.radians(30.0), n)
    azimuth = rng.uniform(-math.pi, math.pi, n)
    d = np.column_stack((np.sin(tilt) * np.cos(azimuth), np.sin(tilt) * np.sin(azimuth),
                         -np.cos(tilt)))
    return np.column_stack((xy, z)), d


def _rate(cast, origins, directions, repeats=5):
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        cast(origins, directions)
        rates.append(len(origins) / (time.perf_counter() - start))
    return float(np.median(rates))


def main(argv=None):
    """Print the rays/s of both casters as JSON lines."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument('--rays', type=int, default=100000)
    args = parser.parse_args(argv)
    grid = _terrain()
    rng = np.random.default_rng(1)
    o, d = _rays(grid, args.rays, rng)
    ours = grid.cast(o, d, 200.0)
    print(json.dumps({'caster': 'GridSeabed.cast', 'rays': args.rays,
                      'rays_per_s': _rate(lambda a, b: grid.cast(a, b, 200.0), o, d)}))
    small = _rate(lambda a, b: grid.cast(a, b, 200.0), o[:4], d[:4], repeats=51)
    print(json.dumps({'caster': 'GridSeabed.cast', 'rays': 4, 'rays_per_s': small}))
    try:
        from embreex import rtcore_scene
        from embreex.mesh_construction import TriangleMesh
        from test_physics_seabed_embree import grid_triangles
    except ImportError as exc:
        print(json.dumps({'caster': 'embree', 'error': str(exc)}))
        return 0
    scene = rtcore_scene.EmbreeScene()
    vertices, triangles = grid_triangles(grid)
    TriangleMesh(scene, vertices.astype(np.float32), triangles.astype(np.int32))
    o32, d32 = o.astype(np.float32), d.astype(np.float32)

    def embree(a, b):
        return scene.run(a, b, output=True)

    out = embree(o32, d32)
    theirs = np.where(out['geomID'] >= 0, out['tfar'].astype(float), math.inf)
    both = np.isfinite(ours) & np.isfinite(theirs)
    print(json.dumps({'caster': 'embree', 'rays': args.rays,
                      'rays_per_s': _rate(embree, o32, d32),
                      'max_range_difference_m': float(np.abs(ours - theirs)[both].max()),
                      'hits_both': int(both.sum())}))
    return 0


if __name__ == '__main__':
    sys.exit(main())
