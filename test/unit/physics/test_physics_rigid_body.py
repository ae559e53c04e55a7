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

"""Tests of the origin-referenced rigid-body mass and Coriolis matrices."""
import numpy as np

from uwv_hydro.physics.body.rigid_body import (
    coriolis_matrix, coriolis_wrench, kinetic_energy, rigid_body_coriolis,
    rigid_body_mass_matrix)
from uwv_hydro.physics.spatial.point_transform import transfer_matrix, transfer_twist

MASS = 30.0
INERTIA = np.array([[2.0, 0.1, -0.2], [0.1, 3.0, 0.15], [-0.2, 0.15, 4.0]])
COM = np.array([0.2, -0.1, 0.3])


def test_off_diagonal_blocks_are_seed_000_body_matrix():
    """The coupling blocks are entry by entry the SDF BodyMatrix (seed 000)."""
    m = MASS
    x, y, z = COM
    expected_upper = np.array([[0, m * z, -m * y], [-m * z, 0, m * x], [m * y, -m * x, 0]])
    mrb = rigid_body_mass_matrix(MASS, INERTIA, COM)
    assert np.array_equal(mrb[:3, :3], m * np.eye(3))
    assert np.allclose(mrb[:3, 3:], expected_upper, atol=1e-15)
    assert np.allclose(mrb[3:, :3], expected_upper.T, atol=1e-15)


def test_rotational_block_is_parallel_axis_inertia():
    """The lower-right block is I_g + m (|r|^2 I - r r^T) (Steiner), e.g. Ixx + m (y^2 + z^2)."""
    mrb = rigid_body_mass_matrix(MASS, INERTIA, COM)
    x, y, z = COM
    assert abs(mrb[3, 3] - (INERTIA[0, 0] + MASS * (y * y + z * z))) < 1e-13
    assert abs(mrb[3, 4] - (INERTIA[0, 1] - MASS * x * y)) < 1e-13
    expected = INERTIA + MASS * (COM @ COM * np.eye(3) - np.outer(COM, COM))
    assert np.allclose(mrb[3:, 3:], expected, atol=1e-13)


def test_mass_matrix_is_com_matrix_moved_to_origin():
    """M_RB = H(r_g)^T diag(m I, I_g) H(r_g), symmetric positive definite."""
    m_com = np.zeros((6, 6))
    m_com[:3, :3] = MASS * np.eye(3)
    m_com[3:, 3:] = INERTIA
    mrb = rigid_body_mass_matrix(MASS, INERTIA, COM)
    assert np.allclose(mrb, transfer_matrix(m_com, COM), atol=1e-13)
    assert np.array_equal(mrb, mrb.T)
    assert np.min(np.linalg.eigvalsh(mrb)) > 0.0


def test_kinetic_energy_is_com_energy():
    """0.5 nu^T M_RB nu = 0.5 m |v_g|^2 + 0.5 w^T I_g w (Koenig)."""
    rng = np.random.default_rng(0)
    mrb = rigid_body_mass_matrix(MASS, INERTIA, COM)
    for _ in range(10):
        nu = rng.normal(size=6)
        v_g = transfer_twist(nu, COM)[:3]
        expected = 0.5 * MASS * v_g @ v_g + 0.5 * nu[3:] @ INERTIA @ nu[3:]
        assert abs(kinetic_energy(mrb, nu) - expected) < 1e-12 * expected


def test_coriolis_is_skew_symmetric():
    """C_RB(nu) = -C_RB(nu)^T, so nu^T C_RB nu = 0, and coriolis_wrench = -C nu."""
    rng = np.random.default_rng(1)
    mrb = rigid_body_mass_matrix(MASS, INERTIA, COM)
    for _ in range(20):
        nu = rng.normal(size=6)
        c = rigid_body_coriolis(mrb, nu)
        assert np.max(np.abs(c + c.T)) == 0.0
        assert abs(nu @ c @ nu) < 1e-12
        assert np.allclose(coriolis_wrench(mrb, nu), -c @ nu, atol=1e-12)


def test_coriolis_at_com_is_newton_euler():
    """With the CoM at the origin C_RB nu = [m w x v, w x (I w)] (Euler's equations)."""
    rng = np.random.default_rng(2)
    mrb = rigid_body_mass_matrix(MASS, INERTIA, np.zeros(3))
    for _ in range(10):
        nu = rng.normal(size=6)
        v, w = nu[:3], nu[3:]
        expected = np.concatenate((MASS * np.cross(w, v), np.cross(w, INERTIA @ w)))
        assert np.allclose(coriolis_matrix(mrb, nu) @ nu, expected, atol=1e-12)
