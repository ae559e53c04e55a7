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
The seabed in the compiled core (``_seabed.c``): its height, gradient and capsule.

The gradient is checked against central differences of the bilinear surface (exact
within a cell, where the surface is linear along x and along y, but for rounding) and
against the analytic gradient of surfaces a grid reproduces exactly (a plane, the
bilinear a + b x + c y + k x y).
"""
import math

import numpy as np
import pytest

from uwv_hydro.physics.environment.seabed import FlatSeabed, GridSeabed
from uwv_hydro.physics.kernel import core


def _grid(func, nx=21, ny=17, x0=-5.0, y0=-4.0, dx=0.5, dy=0.6):
    x = x0 + dx * np.arange(nx)
    y = y0 + dy * np.arange(ny)
    xx, yy = np.meshgrid(x, y)
    return GridSeabed(func(xx, yy), x0, y0, dx, dy)


def test_gradient_against_central_differences_of_the_bilinear_surface():
    rng = np.random.default_rng(21)
    grid = GridSeabed(rng.uniform(-30.0, -10.0, (12, 15)), 3.0, -7.0, 0.8, 1.1)
    ny, nx = grid.shape
    step = 1e-5  # m; points at least 1e-3 of a cell from a node line stay in their cell
    n = 3000
    i, j = rng.integers(0, nx - 1, n), rng.integers(0, ny - 1, n)
    s, r = rng.uniform(1e-3, 1 - 1e-3, n), rng.uniform(1e-3, 1 - 1e-3, n)
    x, y = grid.x0 + (i + s) * grid.dx, grid.y0 + (j + r) * grid.dy
    h, grad = grid.height_and_gradient(x, y)
    # Central difference (h(x + e) - h(x - e)) / 2e: exact for a function linear in x
    fx = (grid.elevation(x + step, y) - grid.elevation(x - step, y)) / (2 * step)
    fy = (grid.elevation(x, y + step) - grid.elevation(x, y - step)) / (2 * step)
    # rounding of heights ~30 m over 2e-5 m: 30 * 1e-16 / 1e-5 ~ 3e-10 per metre
    assert np.allclose(grad[:, 0], fx, rtol=0.0, atol=1e-8)
    assert np.allclose(grad[:, 1], fy, rtol=0.0, atol=1e-8)
    assert np.array_equal(h, grid.elevation(x, y))


@pytest.mark.parametrize('px, py', [(0.0, 0.0), (0.3, -0.2), (-4.0, 2.5)])
def test_gradient_of_a_plane_is_its_slope_everywhere(px, py):
    grid = _grid(lambda x, y: -20.0 + px * x + py * y)
    x_min, x_max, y_min, y_max = grid.extent
    rng = np.random.default_rng(22)
    x = np.concatenate((rng.uniform(x_min, x_max, 500), grid.x0 + grid.dx * np.arange(21)))
    y = np.concatenate((rng.uniform(y_min, y_max, 500), np.full(21, y_max)))  # node lines too
    h, grad = grid.height_and_gradient(x, y)
    # rounding of node heights ~30 m over a cell of 0.5 m: 1e-13 per metre
    assert np.allclose(grad[:, 0], px, rtol=0.0, atol=1e-12)
    assert np.allclose(grad[:, 1], py, rtol=0.0, atol=1e-12)
    assert np.allclose(h, -20.0 + px * x + py * y, rtol=0.0, atol=1e-12)


def test_gradient_of_the_bilinear_surface_is_analytic():
    a, b, c, k = -12.0, 0.2, -0.1, 0.05

    def surface(x, y):
        return a + b * x + c * y + k * x * y

    grid = _grid(surface)
    x_min, x_max, y_min, y_max = grid.extent
    rng = np.random.default_rng(23)
    x, y = rng.uniform(x_min, x_max, 1000), rng.uniform(y_min, y_max, 1000)
    h, grad = grid.height_and_gradient(x, y)
    # d/dx (a + b x + c y + k x y) = b + k y, d/dy = c + k x
    assert np.allclose(grad[:, 0], b + k * y, rtol=0.0, atol=1e-12)
    assert np.allclose(grad[:, 1], c + k * x, rtol=0.0, atol=1e-12)
    assert np.allclose(h, surface(x, y), rtol=0.0, atol=1e-12)


def test_no_bottom_in_holes_and_outside_and_a_flat_seabed_everywhere():
    heights = np.full((6, 6), -20.0)
    heights[2, 2] = math.nan  # the four cells around node (2, 2) are holes
    grid = GridSeabed(heights, 0.0, 0.0, 1.0, 1.0)
    h, grad = grid.height_and_gradient([1.5, 2.5, 4.5, -0.1, 2.0], [1.5, 2.5, 4.5, 1.0, 5.1])
    assert np.isnan(h[[0, 1, 3, 4]]).all() and np.isnan(grad[[0, 1, 3, 4]]).all()
    assert h[2] == pytest.approx(-20.0, rel=1e-15) and np.allclose(grad[2], 0.0, atol=1e-15)
    flat = FlatSeabed(35.0)
    h, grad = flat.height_and_gradient([0.0, 1e6], [-3.0, 2e6])
    assert np.array_equal(h, [-35.0, -35.0]) and np.array_equal(grad, np.zeros((2, 2)))


def test_the_core_reads_a_seabed_or_its_capsule_and_refuses_other_capsules():
    grid = _grid(lambda x, y: np.full_like(x, -10.0))
    o, d = np.array([0.0, 0.0, -4.0]), np.array([0.0, 0.0, -1.0])
    for seabed in (grid, grid.capsule):
        out = np.empty(1)
        core.seabed_cast(seabed, o, d, math.inf, out)
        assert out[0] == pytest.approx(6.0, rel=1e-15)
    with pytest.raises(TypeError, match='seabed must be a FlatSeabed'):
        core.seabed_cast(object(), o, d, math.inf, np.empty(1))
    with pytest.raises(TypeError, match='seabed must be a FlatSeabed'):
        core.seabed_cast(core.fins(np.zeros(2)), o, d, math.inf, np.empty(1))


def test_the_core_holds_its_own_copy_of_the_heights():
    heights = np.full((3, 3), -10.0)
    grid = GridSeabed(heights, 0.0, 0.0, 1.0, 1.0)
    heights[:] = -1.0  # the caller's array: copied
    assert grid.elevation(1.0, 1.0) == pytest.approx(-10.0, rel=1e-15)
    with pytest.raises(ValueError):
        grid.heights[0, 0] = 0.0  # read-only: it could not change the core's copy
    assert grid.elevation(0.0, 0.0) == pytest.approx(-10.0, rel=1e-15)


def test_a_seabed_survives_a_pickle_and_a_copy():
    import copy
    import pickle
    grid = _grid(lambda x, y: -20.0 + 0.1 * x)
    for other in (pickle.loads(pickle.dumps(grid)), copy.deepcopy(grid)):
        assert other.capsule is not grid.capsule
        assert other.elevation(1.0, 1.0) == pytest.approx(grid.elevation(1.0, 1.0), rel=1e-15)
    flat = pickle.loads(pickle.dumps(FlatSeabed(12.0)))
    assert flat.cast([[0, 0, -2.0]], [[0, 0, -1.0]])[0] == pytest.approx(10.0, rel=1e-15)


# ---------------------------------------------------------------- the cast: hard cases

def _bilinear_range(o, d, a, b, c, k):
    """Return the first t >= 0 where o + t d meets z = a + b x + c y + k x y (inf: none)."""
    ox, oy, oz = o
    ddx, ddy, ddz = d
    # f(t) = oz + ddz t - surface(ox + ddx t, oy + ddy t), a quadratic in t
    roots = np.roots([-k * ddx * ddy, ddz - b * ddx - c * ddy - k * (ox * ddy + oy * ddx),
                      oz - (a + b * ox + c * oy + k * ox * oy)])
    real = np.sort(roots[np.abs(roots.imag) < 1e-12].real)
    real = real[real >= 0.0]
    return real[0] if real.size else math.inf


def test_rays_along_node_lines_and_through_nodes():
    a, b, c, k = -12.0, 0.2, -0.1, 0.05
    grid = _grid(lambda x, y: a + b * x + c * y + k * x * y, nx=21, ny=21, x0=-5.0, y0=-5.0,
                 dx=0.5, dy=0.5)
    rays = []
    for line in range(1, 20, 3):
        at = -5.0 + 0.5 * line
        rays.append(([at, -4.0, -5.0], [0.0, 0.6, -0.8]))   # in the plane x = node line
        rays.append(([at, 4.0, -5.0], [0.0, -0.6, -0.8]))
        rays.append(([-4.0, at, -5.0], [0.6, 0.0, -0.8]))   # in the plane y = node line
        rays.append(([4.0, at, -5.0], [-0.6, 0.0, -0.8]))
        # the diagonal of the cells: through every node it passes
        rays.append(([at, at, -5.0], [0.6 / math.sqrt(2), 0.6 / math.sqrt(2), -0.8]))
        rays.append(([at, -at, -5.0], [-0.6 / math.sqrt(2), 0.6 / math.sqrt(2), -0.8]))
    o, d = np.array([r[0] for r in rays]), np.array([r[1] for r in rays])
    got = grid.cast(o, d)
    t = np.array([_bilinear_range(oo, dd, a, b, c, k) for oo, dd in zip(o, d)])
    hx, hy = o[:, 0] + np.where(np.isfinite(t), t, 0) * d[:, 0], o[:, 1] + np.where(
        np.isfinite(t), t, 0) * d[:, 1]
    # the segment from an origin on the (convex) grid stays on it iff its hit does
    expected = np.where(np.isfinite(t) & (np.abs(hx) <= 5.0) & (np.abs(hy) <= 5.0), t,
                        math.inf)
    assert np.isfinite(expected).sum() >= len(rays) - 6
    assert np.array_equal(np.isinf(got), np.isinf(expected))
    fin = np.isfinite(expected)
    # coordinates ~10 m: rounding 1e-12 relative
    assert np.allclose(got[fin], expected[fin], rtol=1e-11, atol=1e-11)


def test_exactly_vertical_rays_at_nodes_on_lines_and_between():
    a, b, c, k = -12.0, 0.2, -0.1, 0.05

    def surface(x, y):
        return a + b * x + c * y + k * x * y

    grid = _grid(surface, nx=11, ny=9, x0=-2.0, y0=-1.0, dx=0.5, dy=0.75)
    x_min, x_max, y_min, y_max = grid.extent
    xn = grid.x0 + grid.dx * np.arange(11)
    yn = grid.y0 + grid.dy * np.arange(9)
    rng = np.random.default_rng(31)
    x = np.concatenate((np.repeat(xn, 9), xn, rng.uniform(x_min, x_max, 200)))
    y = np.concatenate((np.tile(yn, 11), rng.uniform(y_min, y_max, 11),
                        rng.uniform(y_min, y_max, 200)))
    z0 = surface(x, y) + rng.uniform(0.1, 5.0, len(x))
    o = np.column_stack((x, y, z0))
    down = grid.cast(o, np.tile([0.0, 0.0, -1.0], (len(x), 1)))
    # straight down: the range is the height above the surface
    assert np.allclose(down, z0 - surface(x, y), rtol=0.0, atol=1e-12)
    up = grid.cast(o, np.tile([0.0, 0.0, 1.0], (len(x), 1)))
    assert np.isinf(up).all()
    # from below the surface: 0 either way
    o[:, 2] = surface(x, y) - 0.5
    assert (grid.cast(o, np.tile([0.0, 0.0, 1.0], (len(x), 1))) == 0.0).all()


def test_rays_from_outside_the_grid_enter_it_or_hit_its_edge():
    px, py, p0 = 0.1, -0.05, -20.0
    grid = _grid(lambda x, y: p0 + px * x + py * y, nx=41, ny=41, x0=0.0, y0=0.0,
                 dx=1.0, dy=1.0)
    rng = np.random.default_rng(32)
    n = 400
    # origins in a ring 5 to 30 m outside the grid, above the plane's continuation
    angle = rng.uniform(0.0, 2 * math.pi, n)
    radius = 20.0 * math.sqrt(2) + rng.uniform(5.0, 30.0, n)
    o = np.column_stack((20.0 + radius * np.cos(angle), 20.0 + radius * np.sin(angle),
                         np.zeros(n)))
    o[:, 2] = p0 + px * o[:, 0] + py * o[:, 1] + rng.uniform(1.0, 10.0, n)
    toward = np.column_stack((20.0 - o[:, 0], 20.0 - o[:, 1]))
    toward /= np.linalg.norm(toward, axis=1, keepdims=True)
    d = np.column_stack((toward + rng.normal(0.0, 0.2, (n, 2)), -rng.uniform(0.05, 0.5, n)))
    d /= np.linalg.norm(d, axis=1, keepdims=True)
    # Ray-plane intersection: t = (z0 - plane(x0, y0)) / (px d_x + py d_y - d_z)
    f1 = d[:, 2] - px * d[:, 0] - py * d[:, 1]
    t = np.where(f1 < 0.0, (o[:, 2] - (p0 + px * o[:, 0] + py * o[:, 1])) / -f1, math.inf)
    hx, hy = o[:, 0] + t * d[:, 0], o[:, 1] + t * d[:, 1]
    inside = (hx >= 0.0) & (hx <= 40.0) & (hy >= 0.0) & (hy <= 40.0)
    # where the ray is over the square [0, 40]^2: t in [t_in, t_out], per axis
    # (0 - w0) / d_w and (40 - w0) / d_w
    ends = np.stack(((0.0 - o[:, :2]) / d[:, :2], (40.0 - o[:, :2]) / d[:, :2]))
    t_in = np.minimum(ends[0], ends[1]).max(axis=1)
    t_out = np.maximum(ends[0], ends[1]).min(axis=1)
    # a hit of the plane on the grid is the hit; a ray that met the plane's level
    # before it reached the grid enters it under the surface: its edge is a wall there
    expected = np.where(np.isfinite(t) & inside, t,
                        np.where((t_in <= t_out) & (t < t_in), t_in, math.inf))
    got = grid.cast(o, d)
    assert (np.isfinite(t) & inside).sum() > n // 4 and (t < t_in).sum() > 10
    assert np.array_equal(np.isinf(got), np.isinf(expected))
    fin = np.isfinite(expected)
    assert np.allclose(got[fin], expected[fin], rtol=1e-10, atol=1e-10)
    # level, from outside below the plane's level: the grid's edge is a wall
    edge = grid.cast([[-3.0, 10.0, -25.0], [45.5, 10.0, -25.0], [10.0, -2.0, -25.0]],
                     [[1.0, 0.0, 0.0], [-1.0, 0.0, 0.0], _unit2([0.0, 1.0, 1.0])])
    assert edge[0] == pytest.approx(3.0, rel=1e-15)
    assert edge[1] == pytest.approx(5.5, rel=1e-15)
    assert edge[2] == pytest.approx(2.0 * math.sqrt(2), rel=1e-14)


def _unit2(v):
    v = np.asarray(v, dtype=float)
    return v / np.linalg.norm(v)


def test_holes_walls_at_an_angle_and_rays_falling_through():
    heights = np.full((21, 21), -20.0)
    heights[8:13, 8:13] = math.nan  # cells 7..12 touch a NaN node: a hole over [7, 13]^2
    heights[0, :] = math.nan        # and along the grid's first row: cells of y in [0, 1]
    grid = GridSeabed(heights, 0.0, 0.0, 1.0, 1.0)
    # from inside the hole, below the seabed, at 30 degrees from +x: the wall x = 13
    d = [math.cos(math.pi / 6), math.sin(math.pi / 6), 0.0]
    assert grid.cast([[10.0, 10.0, -25.0]], [d])[0] == pytest.approx(3.0 / d[0], rel=1e-14)
    # down the hole, and down the edge row: no bottom
    assert grid.cast([[10.0, 10.0, -5.0], [5.0, 0.5, -5.0]], [[0, 0, -1.0]] * 2).tolist() == [
        math.inf, math.inf]
    # straight down a node line of the hole's edge: the line belongs to the cell on its
    # +x side (as for elevation), the hole at x = 7, the seabed at x = 13
    down = grid.cast([[7.0, 10.0, -5.0], [13.0, 10.0, -5.0]], [[0, 0, -1.0]] * 2)
    assert down[0] == math.inf and math.isnan(grid.elevation(7.0, 10.0))
    assert down[1] == pytest.approx(15.0, rel=1e-15)
    # falling towards the hole at 45 degrees, 2.5 m above the seabed at y = 5: over the
    # hole's edge y = 7 at 0.5 m, then down it to the wall y = 13, 5.5 m under the level
    d = _unit2([0.0, 1.0, -1.0])
    got = grid.cast([[10.0, 5.0, -17.5], [10.0, 5.0, -18.0]], [d, d])
    assert got[0] == pytest.approx(8.0 * math.sqrt(2), rel=1e-14)
    # 2 m above at y = 5: it meets the seabed's level on the edge line, a hit (closed cell)
    assert got[1] == pytest.approx(2.0 * math.sqrt(2), rel=1e-14)
    # from below the level in the edge row (a hole), going +y: the wall y = 1
    assert grid.cast([[5.0, 0.25, -30.0]], [[0, 1.0, 0]])[0] == pytest.approx(0.75, rel=1e-14)


def test_max_range_cut_is_inclusive_per_ray_and_for_the_flat_seabed():
    grid = _grid(lambda x, y: np.full_like(x, -10.0))
    o = np.array([[0.0, 0.0, 0.0]] * 3)
    d = np.array([[0.0, 0.0, -1.0]] * 3)
    # 10 m straight down, exactly representable: a hit at t == max_range counts
    cut = [10.0, math.nextafter(10.0, 0.0), 25.0]
    assert grid.cast(o, d, cut).tolist() == [10.0, math.inf, 10.0]
    assert FlatSeabed(10.0).cast(o, d, cut).tolist() == [10.0, math.inf, 10.0]
    assert grid.cast(o, d, 9.0).tolist() == [math.inf] * 3
    # a slanted ray cut where it is still over the grid
    s = _unit2([1.0, 0.0, -1.0])
    assert grid.cast([[-4.0, 0.0, -9.0]], [s], 1.0)[0] == math.inf
    assert grid.cast([[-4.0, 0.0, -9.0]], [s], 2.0)[0] == pytest.approx(math.sqrt(2), 1e-14)


def test_non_finite_rays_have_no_hit():
    grid = _grid(lambda x, y: np.full_like(x, -10.0))
    o = [[math.nan, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, math.inf, 0.0]]
    d = [[0.0, 0.0, -1.0], [math.nan, 0.0, -1.0], [0.0, 0.0, -1.0]]
    assert np.isinf(grid.cast(o, d)).all()
    assert np.isinf(FlatSeabed(10.0).cast(o, d)).all()


def test_very_long_rays_over_a_thousand_by_thousand_grid():
    # 1001 x 1001 nodes 1 m apart, a gentle plane: grazing rays cross ~1000 cells
    px, py, p0 = 0.002, 0.001, -60.0
    n_nodes = 1001
    x = np.arange(n_nodes, dtype=float)
    xx, yy = np.meshgrid(x, x)
    grid = GridSeabed(p0 + px * xx + py * yy, 0.0, 0.0, 1.0, 1.0)
    rng = np.random.default_rng(33)
    n = 200
    o = np.column_stack((rng.uniform(0.0, 50.0, (n, 2)), np.zeros(n)))
    o[:, 2] = p0 + px * o[:, 0] + py * o[:, 1] + rng.uniform(2.0, 6.0, n)
    heading = rng.uniform(0.1, 1.4, n)
    dip = rng.uniform(0.0, 0.01, n)  # up to 10 m of drop over a kilometre
    d = np.column_stack((np.cos(heading), np.sin(heading), -dip))
    d /= np.linalg.norm(d, axis=1, keepdims=True)
    f1 = d[:, 2] - px * d[:, 0] - py * d[:, 1]
    f0 = o[:, 2] - (p0 + px * o[:, 0] + py * o[:, 1])
    t = f0 / -f1  # ray-plane intersection, as in test_physics_seabed
    hx, hy = o[:, 0] + t * d[:, 0], o[:, 1] + t * d[:, 1]
    expected = np.where((hx <= 1000.0) & (hy <= 1000.0), t, math.inf)
    got = grid.cast(o, d)
    assert np.isfinite(expected).sum() > n // 4 and np.isinf(expected).sum() > 10
    assert np.array_equal(np.isinf(got), np.isinf(expected))
    fin = np.isfinite(expected)
    assert np.abs(f1).min() >= 1e-3
    # a height error eps of the patch (~1e-13 m at 60 m) moves the hit by eps / |f1|,
    # |f1| >= 0.001 here: within 1e-9 m on ranges of hundreds of metres
    assert np.allclose(got[fin], expected[fin], rtol=0.0, atol=1e-9)
    assert expected[fin].max() > 300.0
