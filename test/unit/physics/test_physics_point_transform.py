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

"""Tests of twist, wrench and matrix transfer between body points."""
import numpy as np

from uwv_hydro.physics.spatial.point_transform import (
    force_at_point, transfer_matrix, transfer_matrix_h, transfer_twist, transfer_wrench)


def test_twist_of_point_is_rigid_velocity_field():
    """nu_p = H(r) nu gives v + w x r and keeps w."""
    rng = np.random.default_rng(0)
    for _ in range(10):
        nu, r = rng.normal(size=6), rng.normal(size=3)
        expected = np.concatenate((nu[:3] + np.cross(nu[3:], r), nu[3:]))
        assert np.max(np.abs(transfer_twist(nu, r) - expected)) < 1e-14
        assert np.max(np.abs(transfer_matrix_h(r) @ nu - expected)) < 1e-14


def test_wrench_about_point_moved_to_origin():
    """A force F and couple M about point p become [F, M + p x F] about the origin."""
    rng = np.random.default_rng(1)
    for _ in range(10):
        f, m, p = rng.normal(size=3), rng.normal(size=3), rng.normal(size=3)
        tau_o = transfer_wrench(np.concatenate((f, m)), p)
        assert np.allclose(tau_o, np.concatenate((f, m + np.cross(p, f))), atol=1e-14)
        assert np.allclose(tau_o, transfer_matrix_h(p).T @ np.concatenate((f, m)), atol=1e-14)
        assert np.allclose(force_at_point(f, p), transfer_wrench(np.r_[f, 0, 0, 0], p))


def test_power_is_point_independent():
    """tau_O . nu_O = tau_P . nu_P (the transfers are dual)."""
    rng = np.random.default_rng(2)
    for _ in range(10):
        nu, tau_p, r = rng.normal(size=6), rng.normal(size=6), rng.normal(size=3)
        lhs = transfer_wrench(tau_p, r) @ nu
        rhs = tau_p @ transfer_twist(nu, r)
        assert abs(lhs - rhs) < 1e-13


def test_transfers_compose_and_invert():
    """H(a) H(b) = H(a + b) and H(-r) = H(r)^-1."""
    a, b = np.array([0.3, -1.0, 2.0]), np.array([-0.7, 0.2, 0.5])
    assert np.allclose(transfer_matrix_h(a) @ transfer_matrix_h(b), transfer_matrix_h(a + b))
    assert np.allclose(transfer_matrix_h(-a) @ transfer_matrix_h(a), np.eye(6))


def test_matrix_transfer_preserves_kinetic_energy():
    """0.5 nu_O^T (H^T M H) nu_O = 0.5 nu_P^T M nu_P."""
    rng = np.random.default_rng(3)
    b = rng.normal(size=(6, 6))
    m = b @ b.T + np.eye(6)
    r = rng.normal(size=3)
    nu = rng.normal(size=6)
    nu_p = transfer_twist(nu, r)
    assert abs(nu @ transfer_matrix(m, r) @ nu - nu_p @ m @ nu_p) < 1e-12
