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
Rays cast to a gridded seabed against analytic surfaces.

A grid reproduces exactly any surface that is bilinear in x and y (a plane at any
slope, z = a + b x + c y + k x y), so rays cast to it must meet the analytic
intersection to rounding.  A sphere cap sampled on a grid is off by at most the
bilinear interpolation error, and the range by that over the rate at which the ray
descends below the surface (derived in :func:`test_sphere_cap_within_the_interpolation_bound`).
"""
import math

import numpy as np
import pytest

from uwv_hydro.physics.environment.seabed import FlatSeabed, GridSeabed


def _grid(func, nx=41, ny=31, x0=-10.0, y0=-6.0, dx=0.5, dy=0.4):
    x = x0 + dx * np.arange(nx)
    y = y0 + dy * np.arange(ny)
    xx, yy = np.meshgrid(x, y)
    return GridSeabed(func(xx, yy), x0, y0, dx, dy)


def _unit(v):
    v = np.asarray(v, dtype=float)
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


def _inside(grid, x, y):
    x_min, x_max, y_min, y_max = grid.extent
    return (x >= x_min) & (x <= x_max) & (y >= y_min) & (y <= y_max)


@pytest.mark.parametrize('slope', [(0.0, 0.0), (0.3, -0.2), (-1.5, 0.8), (4.0, 3.0)])
def test_plane_at_any_slope_is_exact(slope):
    px, py = slope
    p0 = -20.0

    def plane(x, y):
        return p0 + px * x + py * y

    grid = _grid(plane)
    rng = np.random.default_rng(3)
    n = 2000
    x_min, x_max, y_min, y_max = grid.extent
    o = np.column_stack((rng.uniform(x_min, x_max, n), rng.uniform(y_min, y_max, n),
                         np.zeros(n)))
    o[:, 2] = plane(o[:, 0], o[:, 1]) + rng.uniform(0.1, 4.0, n)
    d = _unit(rng.normal(size=(n, 3)))  # any direction: some go up to a steep plane
    # Ray-plane intersection: z0 + t dz = p0 + px (x0 + t dx) + py (y0 + t dy)
    f0 = o[:, 2] - plane(o[:, 0], o[:, 1])
    f1 = d[:, 2] - px * d[:, 0] - py * d[:, 1]
    with np.errstate(divide='ignore'):
        t = np.where(f1 < 0.0, f0 / -f1, math.inf)
    hit = np.isfinite(t)
    hx, hy = o[:, 0] + t * d[:, 0], o[:, 1] + t * d[:, 1]
    # the segment from the origin to the hit stays on the (convex) grid iff the hit does
    expected = np.where(hit & _inside(grid, np.where(hit, hx, 0), np.where(hit, hy, 0)),
                        t, math.inf)
    got = grid.cast(o, d)
    assert np.isfinite(expected).sum() > n // 4
    assert np.array_equal(np.isinf(got), np.isinf(expected))
    fin = np.isfinite(expected)
    # rounding of coordinates ~20 m: relative 1e-9 of the scale
    assert np.allclose(got[fin], expected[fin], rtol=1e-9, atol=1e-9 * 50)


def test_bilinear_surface_against_its_quadratic():
    # z = a + b x + c y + k x y is bilinear in every cell of any grid: the grid is exact
    a, b, c, k = -12.0, 0.2, -0.1, 0.05

    def surface(x, y):
        return a + b * x + c * y + k * x * y

    grid = _grid(surface, nx=23, ny=17, x0=-5.0, y0=-4.0, dx=0.45, dy=0.5)
    rng = np.random.default_rng(5)
    n = 400
    x_min, x_max, y_min, y_max = grid.extent
    o = np.column_stack((rng.uniform(x_min, x_max, n), rng.uniform(y_min, y_max, n),
                         np.zeros(n)))
    o[:, 2] = surface(o[:, 0], o[:, 1]) + rng.uniform(0.2, 2.0, n)
    d = _unit(rng.normal(size=(n, 3)) * [1.0, 1.0, 2.0] - [0.0, 0.0, 1.0])
    got = grid.cast(o, d)
    checked = 0
    for ray in range(n):
        ox, oy, oz = o[ray]
        ddx, ddy, ddz = d[ray]
        # f(t) = oz + ddz t - surface(ox + ddx t, oy + ddy t), a quadratic in t
        coeffs = [-k * ddx * ddy,
                  ddz - b * ddx - c * ddy - k * (ox * ddy + oy * ddx),
                  oz - surface(ox, oy)]
        roots = np.roots(coeffs)
        real = np.sort(roots[np.abs(roots.imag) < 1e-12].real)
        real = real[real >= 0.0]
        t = real[0] if real.size else math.inf
        if math.isfinite(t) and _inside(grid, ox + t * ddx, oy + t * ddy):
            assert got[ray] == pytest.approx(t, rel=1e-9, abs=1e-9)
            checked += 1
        elif math.isfinite(got[ray]):
            # a hit the quadratic does not see: only where the ray left the grid first
            pytest.fail(f'ray {ray}: hit at {got[ray]} where the surface has none')
    assert checked > n // 2


def test_saddle_patch_closed_form():
    # One cell [0, 1]^2, z = k x y; a ray down the diagonal from (0, 0, z0) along
    # (a, a, -c): z0 - c t = k a^2 t^2  ->  t = (-c + sqrt(c^2 + 4 k a^2 z0)) / (2 k a^2)
    k, z0 = 2.0, 0.3
    grid = GridSeabed([[0.0, 0.0], [0.0, k]], 0.0, 0.0, 1.0, 1.0)
    d = _unit([1.0, 1.0, -0.5])
    aa, cc = d[0], -d[2]
    t = (-cc + math.sqrt(cc * cc + 4 * k * aa * aa * z0)) / (2 * k * aa * aa)
    assert grid.cast([[0.0, 0.0, z0]], [d])[0] == pytest.approx(t, rel=1e-12)
    # the hit is on the surface
    hx, hy, hz = np.array([0.0, 0.0, z0]) + t * d
    assert hz == pytest.approx(k * hx * hy, rel=1e-12)


def test_sphere_cap_within_the_interpolation_bound():
    # Cap z = zc + sqrt(R^2 - x^2 - y^2) on [-L, L]^2.  Bilinear interpolation error
    # |f - I f| <= dx^2/8 max|f_xx| + dy^2/8 max|f_yy| (tensor product of the linear
    # bound h^2/8 max|f''|, e.g. de Boor, A Practical Guide to Splines, ch. II), and
    # |f_xx| = (R^2 - y^2) / rho^3 <= R^2 / (R^2 - 2 L^2)^(3/2) with rho^2 = R^2 - r^2.
    # A ray descending at dz < 0 over a surface of slope |grad f| <= g falls below it at
    # a rate kappa >= |dz| - g |d_h|, so its range is off by at most delta / kappa.
    big_r, zc, half = 30.0, -50.0, 10.0
    dx = dy = 0.25

    def cap(x, y):
        return zc + np.sqrt(big_r ** 2 - x * x - y * y)

    n_nodes = int(round(2 * half / dx)) + 1
    grid = _grid(cap, nx=n_nodes, ny=n_nodes, x0=-half, y0=-half, dx=dx, dy=dy)
    curvature = big_r ** 2 / (big_r ** 2 - 2 * half ** 2) ** 1.5
    delta = (dx * dx + dy * dy) / 8.0 * curvature
    slope = math.sqrt(2) * half / math.sqrt(big_r ** 2 - 2 * half ** 2)
    rng = np.random.default_rng(7)
    n = 3000
    o = np.column_stack((rng.uniform(-6, 6, n), rng.uniform(-6, 6, n), np.full(n, -10.0)))
    d = _unit(np.column_stack((rng.uniform(-0.3, 0.3, (n, 2)), -np.ones(n))))
    # Ray-sphere: |o + t d - C|^2 = R^2, first root t = -b - sqrt(b^2 - q)
    m = o - [0.0, 0.0, zc]
    bb = np.einsum('ij,ij->i', m, d)
    q = np.einsum('ij,ij->i', m, m) - big_r ** 2
    t = -bb - np.sqrt(bb * bb - q)
    kappa = -d[:, 2] - slope * np.hypot(d[:, 0], d[:, 1])
    assert (kappa > 0.0).all()
    bound = delta / kappa
    got = grid.cast(o, d)
    err = np.abs(got - t)
    assert (err <= bound * (1 + 1e-9)).all(), err.max()
    # and the bound is not vacuous: the error is of its order
    assert err.max() > 0.05 * bound.max()
    # vertical rays: exactly the interpolation error, within delta
    down = grid.cast(o, np.tile([0.0, 0.0, -1.0], (n, 1)))
    z_true = cap(o[:, 0], o[:, 1])
    assert np.abs((o[:, 2] - down) - z_true).max() <= delta


def test_holes_have_no_bottom_and_their_edges_are_walls():
    heights = np.full((11, 11), -20.0)
    heights[4:7, 4:7] = math.nan  # cells 3..6 touch a NaN node: a hole over x, y in [3, 7]
    grid = GridSeabed(heights, 0.0, 0.0, 1.0, 1.0)
    down = [0.0, 0.0, -1.0]
    assert grid.cast([[5.0, 5.0, -5.0]], [down])[0] == math.inf
    assert grid.cast([[1.0, 1.0, -5.0]], [down])[0] == pytest.approx(15.0, rel=1e-12)
    assert math.isnan(grid.elevation(5.0, 5.0))
    # from inside the hole, below the seabed, level towards +x: the wall at x = 7
    assert grid.cast([[5.0, 5.0, -30.0]], [[1.0, 0.0, 0.0]])[0] == pytest.approx(2.0)
    # a ray crossing the hole above the seabed goes on to the far side
    d = _unit([1.0, 0.0, -0.1])
    t = grid.cast([[2.0, 5.0, -19.8]], [d])[0]
    # 0.2 m above the seabed, falling 0.1 per metre: lands 2 m on, inside the hole
    # (x = 4), so it falls through to the wall at x = 7
    assert t == pytest.approx(5.0 / d[0], rel=1e-12)


def test_parallel_rays_and_rays_starting_below():
    grid = _grid(lambda x, y: -10.0 + 0.5 * x)
    # parallel to the plane, 1 m above it: never meets it
    d = _unit([1.0, 0.0, 0.5])
    assert grid.cast([[-8.0, 0.0, -13.0]], [d])[0] == math.inf
    # level over a flat grid
    flat = _grid(lambda x, y: np.full_like(x, -10.0))
    assert flat.cast([[0.0, 0.0, -9.0]], [[0.0, 1.0, 0.0]])[0] == math.inf
    # starting below (in the solid): range 0, whatever the direction
    below = [[0.0, 0.0, -16.0]]  # the plane is at -10 at x = 0
    for direction in ([0.0, 0.0, 1.0], [0.0, 0.0, -1.0], [1.0, 0.0, 0.0]):
        assert grid.cast(below, [direction])[0] == 0.0
    # outside the grid there is no seabed
    assert grid.cast([[50.0, 0.0, -5.0]], [[0.0, 0.0, -1.0]])[0] == math.inf


def test_max_range_and_flat_seabed():
    grid = _grid(lambda x, y: np.full_like(x, -40.0), nx=81, ny=81, x0=-20.0, y0=-20.0)
    flat = FlatSeabed(40.0)
    rng = np.random.default_rng(11)
    n = 500
    o = np.column_stack((rng.uniform(-3, 3, (n, 2)), -rng.uniform(0.0, 30.0, n)))
    d = _unit(np.column_stack((rng.uniform(-0.2, 0.2, (n, 2)), -np.ones(n))))
    assert np.allclose(grid.cast(o, d), flat.cast(o, d), rtol=1e-12)
    # Flat seabed: r = h / (-d_z)
    assert np.allclose(flat.cast(o, d), (o[:, 2] + 40.0) / -d[:, 2], rtol=1e-12)
    short = grid.cast(o, d, max_range=25.0)
    full = grid.cast(o, d)
    assert np.array_equal(np.isinf(short), full > 25.0)
    assert flat.cast([[0, 0, -41.0]], [[0, 0, 1.0]])[0] == 0.0
    assert flat.cast([[0, 0, -1.0]], [[0, 0, 1.0]])[0] == math.inf


def test_elevation_is_bilinear_between_nodes():
    grid = GridSeabed([[0.0, 1.0, 2.0], [4.0, 3.0, 8.0]], 10.0, 20.0, 2.0, 5.0)
    # at a node: that node's height, to the rounding of the bilinear weights (m)
    assert grid.elevation(10.0, 20.0) == pytest.approx(0.0, abs=1e-15)
    assert grid.elevation(14.0, 25.0) == pytest.approx(8.0, rel=1e-15)
    # centre of the first cell: the mean of its four nodes
    assert grid.elevation(11.0, 22.5) == pytest.approx((0 + 1 + 4 + 3) / 4, rel=1e-15)
    assert math.isnan(grid.elevation(9.9, 22.0))
    assert grid.extent == (10.0, 14.0, 20.0, 25.0)


@pytest.mark.parametrize('heights, spacing, message', [
    ([[1.0, 2.0]], (1.0, 1.0), 'shape'),
    ([[1.0, 2.0], [1.0, math.inf]], (1.0, 1.0), 'infinite'),
    ([[1.0, 2.0], [1.0, 2.0]], (0.0, 1.0), 'spacing'),
])
def test_bad_grids_are_refused(heights, spacing, message):
    with pytest.raises(ValueError, match=message):
        GridSeabed(heights, 0.0, 0.0, *spacing)


def test_random_grids_with_holes_against_a_march_along_the_ray():
    # Independent of the cell walk: sample each ray every 2 mm and ask elevation() whether
    # the point is in the solid (z <= h where h exists).  The cast's range must be a point
    # of the solid's boundary with no sampled point of the solid before it, and a ray
    # without a hit must have no sampled point in the solid (but for grazes under 1e-6 m).
    step = 2e-3
    rng = np.random.default_rng(13)
    for trial in range(6):
        h = rng.uniform(-3.0, 0.0, (9, 8))
        h[rng.random(h.shape) < 0.12] = math.nan
        grid = GridSeabed(h, -2.0, 1.0, 0.7, 0.6)
        x_min, x_max, y_min, y_max = grid.extent
        n = 60
        o = np.column_stack((rng.uniform(x_min, x_max, n), rng.uniform(y_min, y_max, n),
                             rng.uniform(0.2, 1.0, n)))
        d = _unit(rng.normal(size=(n, 3)) - [0.0, 0.0, 1.2])
        got = grid.cast(o, d, 8.0)
        t = np.arange(0.0, 8.0, step)
        for ray in range(n):
            p = o[ray] + t[:, None] * d[ray]
            z = grid.elevation(p[:, 0], p[:, 1])
            depth_in = np.where(np.isfinite(z), z - p[:, 2], -math.inf)  # > 0: in the solid
            if math.isinf(got[ray]):
                assert depth_in.max() < 1e-6, (trial, ray)
                continue
            before = t < got[ray] - step
            assert not (depth_in[before] > 1e-6).any(), (trial, ray)
            # just after the hit the ray is in the solid, or on its boundary (a wall)
            after = (t > got[ray]) & (t < got[ray] + 3 * step)
            assert (depth_in[after] > -1e-6).any(), (trial, ray)
