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

"""Tests of the geometric added-mass and drag estimates against the literature."""
import math

import numpy as np
import pytest

from uwv_hydro.physics.hydro.geometry_estimates import (
    diagonal_quadratic_drag, lamb_coefficients, lamb_k_factors, prolate_spheroid_added_mass,
    quadratic_drag_coefficient, slender_cylinder_added_mass, sphere_added_mass,
    spheroid_eccentricity)

#: Lamb (1932) sec. 373 table (also Newman 1977 fig. 4.8): a/b -> (k1, k2, k').
LAMB_TABLE = {
    1.50: (0.305, 0.621, 0.094),
    2.00: (0.209, 0.702, 0.240),
    2.99: (0.122, 0.803, 0.465),
    4.99: (0.059, 0.895, 0.701),
    6.01: (0.045, 0.918, 0.764),
    9.97: (0.021, 0.960, 0.883),
}


def test_sphere_added_mass_is_half_displaced_mass():
    """Sphere: 1/2 rho V in translation, nothing in rotation."""
    rho, r = 1025.0, 0.3
    expected = 0.5 * rho * 4.0 / 3.0 * math.pi * r ** 3
    ma = sphere_added_mass(r, rho)
    assert np.allclose(np.diag(ma), [expected] * 3 + [0.0] * 3, rtol=1e-15)
    # no coupling: off the diagonal at most the rounding of the diagonal terms
    assert np.max(np.abs(ma - np.diag(np.diag(ma)))) <= 1e-15 * expected


def test_lamb_sphere_limit():
    """Sphere limit e -> 0: k1 = k2 = 1/2, k' = 0 (alpha0 = beta0 = 2/3), continuous in e."""
    for e in (0.0, 1e-8, 1e-4):
        k1, k2, kr = lamb_k_factors(e)
        assert abs(k1 - 0.5) < 1e-7 and abs(k2 - 0.5) < 1e-7 and abs(kr) < 1e-7
    alpha0, beta0 = lamb_coefficients(0.0)
    assert alpha0 == pytest.approx(2.0 / 3.0) and beta0 == pytest.approx(2.0 / 3.0)
    below, above = lamb_k_factors(0.5 - 1e-12), lamb_k_factors(0.5)
    assert np.allclose(below, above, atol=1e-10)


@pytest.mark.parametrize('ratio', sorted(LAMB_TABLE))
def test_lamb_table(ratio):
    """k1, k2, k' match Lamb's table to its three printed decimals (tolerance 0.005)."""
    got = lamb_k_factors(spheroid_eccentricity(ratio, 1.0))
    assert np.allclose(got, LAMB_TABLE[ratio], atol=0.005), (got, LAMB_TABLE[ratio])


def test_lamb_slender_limit():
    """Slender limit e -> 1: k1 -> 0, k2 -> 1, k' -> 1 (strip theory)."""
    k1, k2, kr = lamb_k_factors(1.0 - 1e-9)
    assert k1 < 1e-3 and k2 > 0.999 and kr > 0.99


def test_spheroid_added_mass():
    """Spheroid added mass is k m_f on translation and k' I_f on pitch/yaw; a/b = 1 is a sphere."""
    rho = 1000.0
    assert np.allclose(prolate_spheroid_added_mass(0.6, 0.6, rho),
                       sphere_added_mass(0.3, rho), rtol=1e-12, atol=1e-12)
    length, diam = 3.0, 0.5
    a, b = length / 2, diam / 2
    k1, k2, kr = lamb_k_factors(spheroid_eccentricity(length, diam))
    m_f = rho * 4.0 / 3.0 * math.pi * a * b * b
    i_f = m_f * (a * a + b * b) / 5.0
    expected = [k1 * m_f, k2 * m_f, k2 * m_f, 0.0, kr * i_f, kr * i_f]
    assert np.allclose(np.diag(prolate_spheroid_added_mass(length, diam, rho)), expected)
    with pytest.raises(ValueError):
        spheroid_eccentricity(0.5, 1.0)


def test_slender_cylinder_strip_theory():
    """Transverse added mass pi rho r^2 L; pitch/yaw pi rho r^2 L^3/12."""
    rho, r, length = 1025.0, 0.1, 2.0
    ma = slender_cylinder_added_mass(r, length, rho)
    assert ma[1, 1] == pytest.approx(math.pi * rho * r * r * length)
    assert ma[2, 2] == pytest.approx(math.pi * rho * r * r * length)
    assert ma[5, 5] == pytest.approx(math.pi * rho * r * r * length ** 3 / 12.0)
    assert ma[0, 0] == 0.0 and ma[3, 3] == 0.0


def test_quadratic_drag_estimate():
    """Quadratic drag coefficient 1/2 rho Cd A and the decoupled tensor."""
    assert quadratic_drag_coefficient(0.8, 0.2, 1025.0) == pytest.approx(0.5 * 1025 * 0.8 * 0.2)
    q = diagonal_quadratic_drag([1, 2, 3, 4, 5, 6])
    assert q[2, 2, 2] == 3.0 and np.count_nonzero(q) == 6
