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
Rays per second of the grid seabed's ray cast (the core's) and of Embree on the same grid.

A 1001 x 1001 grid at 1 m of rolling terrain; DVL-like rays (at most 30 deg off the
vertical, from 5 to 50 m above the seabed).  Cast in batches of ``--rays`` and as single
four-beam pings (what a DVL casts per sample), the two casters interleaved round by
round so that a load on the machine hits both.  Prints the host line (host.py), then one
JSON line per caster and size: the median rays/s over the rounds (Embree's scene build
not counted), then the ratios core / Embree of the same run.  ``GridSeabed.cast`` is
the Python call (its argument checks included); ``core.seabed_cast`` the bare C call on
arrays made beforehand.
Run: ``tools/run python benchmarks/seabed_raycast.py [--rays N] [--rounds N]``.
"""
import argparse
import json
import math
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'test', 'helpers'))
sys.path.insert(0, os.path.dirname(__file__))

from host import host_line  # noqa: E402, I100
from uwv_hydro.physics.environment.seabed import GridSeabed  # noqa: E402
from uwv_hydro.physics.kernel import core  # noqa: E402

#: Pings per timed call of the four-beam figures (their mean is one ping's time).
PINGS = 200
MAX_RANGE = 200.0


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


def _pings(grid, n, rng):
    """Return n four-beam pings: a Janus array at 22.5 deg, one origin per ping."""
    origins, axes = _rays(grid, n, rng)
    o = np.repeat(origins, 4, axis=0)
    janus = math.radians(22.5)
    beams = np.array([[math.sin(janus) * math.cos(a), math.sin(janus) * math.sin(a),
                       -math.cos(janus)] for a in np.radians([45.0, 135.0, -45.0, -135.0])])
    return o, np.tile(beams, (n, 1))


def _time(call):
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def main(argv=None):
    """Print the host line, the rays/s of both casters and their ratios as JSON lines."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument('--rays', type=int, default=100000)
    parser.add_argument('--rounds', type=int, default=9)
    args = parser.parse_args(argv)
    print(host_line(), flush=True)
    grid = _terrain()
    rng = np.random.default_rng(1)
    o, d = _rays(grid, args.rays, rng)
    po, pd = _pings(grid, PINGS, rng)
    ours = grid.cast(o, d, MAX_RANGE)
    out4 = np.empty(4)
    casters = {
        ('GridSeabed.cast', 'batch'): lambda: grid.cast(o, d, MAX_RANGE),
        ('GridSeabed.cast', 'ping'): lambda: [grid.cast(po[k:k + 4], pd[k:k + 4], MAX_RANGE)
                                              for k in range(0, 4 * PINGS, 4)],
        ('core.seabed_cast', 'ping'): lambda: [
            core.seabed_cast(grid.capsule, po[k:k + 4], pd[k:k + 4], MAX_RANGE, out4)
            for k in range(0, 4 * PINGS, 4)],
    }
    rays = {'batch': args.rays, 'ping': 4 * PINGS}
    extra = {}
    try:
        from embreex import rtcore_scene
        from embreex.mesh_construction import TriangleMesh
        from test_physics_seabed_embree import grid_triangles
    except ImportError as exc:
        print(json.dumps({'caster': 'embree', 'error': str(exc)}))
    else:
        scene = rtcore_scene.EmbreeScene()
        vertices, triangles = grid_triangles(grid)
        TriangleMesh(scene, vertices.astype(np.float32), triangles.astype(np.int32))
        o32, d32 = o.astype(np.float32), d.astype(np.float32)
        po32, pd32 = po.astype(np.float32), pd.astype(np.float32)
        out = scene.run(o32, d32, output=True)
        theirs = np.where(out['geomID'] >= 0, out['tfar'].astype(float), math.inf)
        both = np.isfinite(ours) & np.isfinite(theirs)
        extra = {'max_range_difference_m': float(np.abs(ours - theirs)[both].max()),
                 'hits_both': int(both.sum())}
        casters[('embree', 'batch')] = lambda: scene.run(o32, d32, output=True)
        casters[('embree', 'ping')] = lambda: [scene.run(po32[k:k + 4], pd32[k:k + 4],
                                                         output=True)
                                               for k in range(0, 4 * PINGS, 4)]
    times = {key: [] for key in casters}
    for _ in range(args.rounds):  # interleaved: a load change hits every caster
        for key, call in casters.items():
            times[key].append(_time(call))
    rate = {key: rays[key[1]] / float(np.median(t)) for key, t in times.items()}
    for (caster, size), value in rate.items():
        record = {'caster': caster, 'size': size, 'rays': rays[size], 'rays_per_s': value,
                  'rounds': args.rounds}
        if caster == 'embree' and size == 'batch':
            record.update(extra)
        print(json.dumps(record))
    for ours_key in ('GridSeabed.cast', 'core.seabed_cast'):
        for size in ('batch', 'ping'):
            if (ours_key, size) in rate and ('embree', size) in rate:
                print(json.dumps({'ratio': '%s / embree rays/s' % ours_key, 'size': size,
                                  'value': rate[(ours_key, size)] / rate[('embree', size)]}))
    return 0


if __name__ == '__main__':
    sys.exit(main())
