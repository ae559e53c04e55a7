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

from uwv_hydro.physics.kernel import core
from uwv_hydro.physics.seabed import FlatSeabed, GridSeabed


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
