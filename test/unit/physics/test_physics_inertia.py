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

"""Tests of the inertia tools against closed forms and direct integration."""
import math

import numpy as np
import pytest

from uwv_hydro.physics.body.inertia import (
    box_inertia, cylinder_inertia, ellipsoid_inertia, equivalent_box, inertia_problems,
    InertiaError, principal_moments, rotate_inertia, scale_inertia, sphere_inertia,
    validate_inertia)
from uwv_hydro.physics.spatial.rotation import quat_from_rpy, quat_to_matrix


def _grid_inertia(mass, inside, half_extent, n=60):
    """Integrate the inertia of a uniform solid given by a mask on a midpoint grid."""
    axis = (np.arange(n) + 0.5) / n * 2.0 - 1.0
    x, y, z = np.meshgrid(*(axis * h for h in half_extent), indexing='ij')
    mask = inside(x, y, z)
    pts = np.stack((x[mask], y[mask], z[mask]), axis=1)
    dm = mass / len(pts)
    r2 = np.sum(pts ** 2, axis=1)
    return dm * (np.sum(r2) * np.eye(3) - pts.T @ pts)


def test_box_matches_integration():
    """Box: Ixx = m/12 (dy^2 + dz^2), checked by midpoint quadrature."""
    size = np.array([2.0, 1.0, 0.5])
    numeric = _grid_inertia(3.0, lambda x, y, z: np.ones_like(x, bool), size / 2)
    err = np.max(np.abs(box_inertia(3.0, size) - numeric)) / np.max(numeric)
    assert err < 1e-3, err


def test_ellipsoid_matches_integration_and_sphere():
    """Ellipsoid Ixx = m/5 (b^2 + c^2); with a = b = c it is the sphere 2/5 m r^2."""
    semi = np.array([1.0, 0.6, 0.4])
    numeric = _grid_inertia(
        2.0, lambda x, y, z: (x / semi[0]) ** 2 + (y / semi[1]) ** 2 + (z / semi[2]) ** 2 <= 1,
        semi, n=80)
    err = np.max(np.abs(ellipsoid_inertia(2.0, semi) - numeric)) / np.max(numeric)
    assert err < 1e-2, err
    assert np.allclose(ellipsoid_inertia(2.0, [0.3] * 3), sphere_inertia(2.0, 0.3))
    assert sphere_inertia(2.0, 0.3)[0, 0] == pytest.approx(0.4 * 2.0 * 0.09, rel=1e-15)


def test_cylinder_closed_form_and_limits():
    """Cylinder: axial m r^2/2; thin rod m L^2/12; thin disk m r^2/4; axis selectable."""
    m, r, h = 4.0, 0.5, 2.0
    cyl = cylinder_inertia(m, r, h, axis=0)
    assert cyl[0, 0] == pytest.approx(0.5 * m * r * r)
    assert cyl[1, 1] == pytest.approx(m * (3 * r * r + h * h) / 12)
    assert cylinder_inertia(m, 1e-9, h)[0, 0] == pytest.approx(m * h * h / 12, rel=1e-12)
    assert cylinder_inertia(m, r, 0.0)[1, 1] == pytest.approx(m * r * r / 4, rel=1e-12)
    numeric = _grid_inertia(m, lambda x, y, z: y ** 2 + z ** 2 <= r * r, [h / 2, r, r], n=80)
    assert np.max(np.abs(cyl - numeric)) / np.max(numeric) < 1e-2


def test_principal_axes_of_rotated_inertia():
    """R diag(1, 2, 2.5) R^T decomposes to moments [1, 2, 2.5] and axes = R (up to sign)."""
    rot = quat_to_matrix(quat_from_rpy(0.4, -0.7, 1.1))
    inertia = rotate_inertia(np.diag([1.0, 2.0, 2.5]), rot)
    moments, axes = principal_moments(inertia)
    assert np.allclose(moments, [1.0, 2.0, 2.5], atol=1e-12)
    assert np.allclose(np.abs(axes.T @ rot), np.eye(3), atol=1e-10)
    assert np.linalg.det(axes) == pytest.approx(1.0)
    assert np.allclose(axes @ np.diag(moments) @ axes.T, inertia, atol=1e-12)


def test_diagonal_inertia_skips_diagonalisation():
    """A diagonal inertia keeps its order and identity axes."""
    moments, axes = principal_moments(np.diag([3.0, 1.0, 2.5]))
    assert np.array_equal(moments, [3.0, 1.0, 2.5])
    assert np.array_equal(axes, np.eye(3))


def test_equivalent_box_round_trip():
    """equivalent_box inverts box_inertia, also for a rotated box."""
    size = np.array([1.2, 0.4, 0.3])
    dims, axes = equivalent_box(7.0, box_inertia(7.0, size))
    assert np.allclose(dims, size, rtol=1e-12)
    assert np.array_equal(axes, np.eye(3))
    rot = quat_to_matrix(quat_from_rpy(0.3, 0.2, -0.9))
    rotated = rotate_inertia(box_inertia(7.0, size), rot)
    dims, axes = equivalent_box(7.0, rotated)
    assert np.allclose(rotate_inertia(box_inertia(7.0, dims), axes), rotated, atol=1e-12)
    expected_dx = math.sqrt(6.0 / 7.0 * (rotated.trace() - 2 * np.min(np.diag(
        box_inertia(7.0, size)))))
    assert max(dims) == pytest.approx(expected_dx)


@pytest.mark.parametrize('diag, name', [
    ([1.0, 1.0, 3.0], 'Ixx + Iyy >= Izz violated'),
    ([1.0, 3.0, 1.0], 'Ixx + Izz >= Iyy violated'),
    ([3.0, 1.0, 1.0], 'Iyy + Izz >= Ixx violated'),
])
def test_triangle_inequality_is_named(diag, name):
    """The error names the violated triangle inequality."""
    assert name in inertia_problems(np.diag(diag))
    with pytest.raises(InertiaError, match=name.replace('+', r'\+')):
        validate_inertia(np.diag(diag))


def test_other_invalid_inertias():
    """Non-positive-definite, asymmetric and zero mass are reported; a box is valid."""
    assert any('positive definite' in p for p in inertia_problems(np.diag([1.0, 1.0, -0.5])))
    asym = np.eye(3)
    asym[0, 1] = 0.3
    assert any('symmetric' in p for p in inertia_problems(asym))
    assert any('mass' in p for p in inertia_problems(np.eye(3), mass=0.0))
    assert inertia_problems(box_inertia(2.0, [1.0, 2.0, 3.0]), mass=2.0) == []
    # diagonal entries fine but principal moments violate the triangle inequality
    thin = rotate_inertia(np.diag([1.0, 1.0, 2.6]), quat_to_matrix(quat_from_rpy(0.5, 0.5, 0)))
    assert any('I1 + I2 >= I3 violated' in p for p in inertia_problems(thin))


def test_scaling_with_mass_and_size():
    """Inertia scales with mass and the square of size."""
    size = np.array([1.0, 2.0, 0.5])
    base = box_inertia(3.0, size)
    assert np.allclose(scale_inertia(base, 2.0, 3.0), box_inertia(6.0, 3.0 * size))
    assert np.allclose(scale_inertia(cylinder_inertia(1.0, 0.2, 1.0), 8.0, 2.0),
                       cylinder_inertia(8.0, 0.4, 2.0))
