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

"""Tests of linear and quadratic drag and their reference points."""
import numpy as np

from uwv_hydro.physics.body.vehicle_params import VehicleParams
from uwv_hydro.physics.hydro.drag import Drag, linear_drag, quadratic_drag, QuadraticDrag


def _loop_quadratic(q, nu):
    """Evaluate F_a = -sum_bc Q_abc |nu_b| nu_c with explicit loops."""
    out = np.zeros(6)
    for a in range(6):
        for b in range(6):
            for c in range(6):
                out[a] -= q[a, b, c] * abs(nu[b]) * nu[c]
    return out


def test_linear_drag_is_minus_l_nu():
    """Linear drag is -L nu with positive (dissipative) coefficients."""
    lin = np.diag([1.0, 2, 3, 4, 5, 6])
    lin[0, 5] = 0.5
    nu = np.array([1.0, -1, 2, 0.5, 0, 1])
    assert np.allclose(linear_drag(lin, nu), -lin @ nu)
    assert linear_drag(lin, nu) @ nu < 0.0


def test_quadratic_drag_matches_definition_sparse_and_dense():
    """Sparse, dense and function forms all equal -sum Q_abc |nu_b| nu_c."""
    rng = np.random.default_rng(0)
    nu = rng.normal(size=6)
    sparse = np.zeros((6, 6, 6))
    sparse[0, 0, 0], sparse[1, 1, 1], sparse[5, 0, 5], sparse[2, 3, 1] = 3.0, 4.0, 0.7, -0.2
    dense = rng.uniform(0.0, 1.0, size=(6, 6, 6))
    for q in (sparse, dense):
        expected = _loop_quadratic(q, nu)
        assert np.allclose(QuadraticDrag(q)(nu), expected, atol=1e-12)
        assert np.allclose(quadratic_drag(q, nu), expected, atol=1e-12)
    assert np.array_equal(QuadraticDrag(np.zeros((6, 6, 6)))(nu), np.zeros(6))


def test_quadratic_drag_is_odd_in_velocity():
    """Reversing the velocity reverses the quadratic drag (sign-preserving square)."""
    q = np.random.default_rng(1).uniform(size=(6, 6, 6))
    nu = np.random.default_rng(2).normal(size=6)
    assert np.allclose(quadratic_drag(q, -nu), -quadratic_drag(q, nu))


def test_drag_points_velocity_and_application():
    """Drag uses the twist of drag_velocity_point and acts at drag_center."""
    lin = np.diag([10.0, 20, 30, 1, 2, 3])
    q = np.zeros((6, 6, 6))
    q[0, 0, 0], q[1, 1, 1] = 5.0, 7.0
    centre = np.array([0.5, 0.1, -0.2])
    vel_point = np.array([-0.3, 0.2, 0.4])
    params = VehicleParams(mass=1.0, inertia=np.eye(3), linear_drag=lin, quadratic_drag=q,
                           drag_center=centre, drag_velocity_point=vel_point)
    nu = np.array([1.0, 0.3, -0.2, 0.4, -0.5, 0.6])
    nu_p = np.concatenate((nu[:3] + np.cross(nu[3:], vel_point), nu[3:]))
    lin_w, quad_w = Drag(params).wrenches(nu)
    tau_lin = -lin @ nu_p
    tau_quad = _loop_quadratic(q, nu_p)
    for got, tau in ((lin_w, tau_lin), (quad_w, tau_quad)):
        expected = np.concatenate((tau[:3], tau[3:] + np.cross(centre, tau[:3])))
        assert np.allclose(got, expected, atol=1e-12)


def test_quadratic_only_ignores_linear():
    """damping='quadratic_only' drops L and keeps Q."""
    q = np.zeros((6, 6, 6))
    q[0, 0, 0] = 2.0
    params = VehicleParams(mass=1.0, inertia=np.eye(3), linear_drag=np.eye(6) * 5.0,
                           quadratic_drag=q, damping='quadratic_only')
    lin_w, quad_w = Drag(params).wrenches([2.0, 1, 0, 0, 0, 0])
    assert np.array_equal(lin_w, np.zeros(6))
    assert np.allclose(quad_w, [-8.0, 0, 0, 0, 0, 0])
