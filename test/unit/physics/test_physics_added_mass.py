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

"""Tests of the added-mass wrenches and the dsros lagged acceleration estimate."""
import numpy as np
import pytest

from uwv_hydro.physics.hydro.added_mass import (
    added_mass_coriolis_matrix, added_mass_coriolis_wrench, AddedMass, LaggedAcceleration)
from uwv_hydro.physics.spatial.point_transform import transfer_matrix, transfer_matrix_h


def _asymmetric_added_mass(seed=0):
    return np.random.default_rng(seed).normal(size=(6, 6)) + 5.0 * np.eye(6)


def test_coriolis_skew_symmetric_for_asymmetric_matrix():
    """C_A(nu) is skew-symmetric even for a 36-term asymmetric M_A, so nu^T C_A nu = 0."""
    ma = _asymmetric_added_mass()
    assert np.max(np.abs(ma - ma.T)) > 0.1
    rng = np.random.default_rng(1)
    for _ in range(20):
        nu = rng.normal(size=6)
        c = added_mass_coriolis_matrix(ma, nu)
        # skew-symmetric to rounding: 1e-15 of the matrix's own size
        assert np.max(np.abs(c + c.T)) <= 1e-15 * np.max(np.abs(c))
        assert abs(nu @ c @ nu) < 1e-12
        assert np.allclose(added_mass_coriolis_wrench(ma, nu), -c @ nu, atol=1e-12)


def test_munk_moment_of_diagonal_added_mass():
    """Oblique motion of a body with A11 != A22 gives the yaw moment (A11 - A22) u v."""
    a11, a22 = 10.0, 60.0
    ma = np.diag([a11, a22, 60.0, 1.0, 20.0, 20.0])
    u, v = 1.5, 0.4
    tau = added_mass_coriolis_wrench(ma, [u, v, 0, 0, 0, 0])
    expected = np.array([0, 0, 0, 0, 0, (a11 - a22) * u * v])
    assert np.allclose(tau, expected, atol=1e-13), tau


def test_coriolis_wrench_about_point_equals_origin_form():
    """H^T (-C_A(M_p, H nu) H nu) = -C_A(H^T M_p H, nu) nu (Kirchhoff covariance)."""
    ma = _asymmetric_added_mass(2)
    r = np.array([0.4, -0.3, 0.2])
    model = AddedMass(ma, r)
    rng = np.random.default_rng(3)
    for _ in range(10):
        nu = rng.normal(size=6)
        direct = added_mass_coriolis_wrench(transfer_matrix(ma, r), nu)
        err = np.max(np.abs(model.coriolis_wrench(nu) - direct))
        assert err < 1e-12, err
        h = transfer_matrix_h(r)
        assert np.allclose(model.inertial_wrench(nu), -h.T @ ma @ h @ nu, atol=1e-12)


def test_lagged_acceleration_formula():
    """First call gives zero, then a_k = alpha dnu/dt + (1 - alpha) a_{k-1}; reset clears."""
    est = LaggedAcceleration(0.3)
    assert np.array_equal(est.update([1, 0, 0, 0, 0, 0], 0.0), np.zeros(6))
    a1 = est.update([1.2, 0, 0, 0, 0, 0], 0.1)
    assert np.allclose(a1, [0.3 * 2.0, 0, 0, 0, 0, 0], atol=1e-13)
    a2 = est.update([1.3, 0, 0, 0, 0, 0], 0.2)
    assert abs(a2[0] - (0.3 * 1.0 + 0.7 * 0.6)) < 1e-13
    assert np.array_equal(est.update([9, 0, 0, 0, 0, 0], 0.2), a2)
    est.reset()
    assert np.array_equal(est.update([5, 5, 5, 5, 5, 5], 1.0), np.zeros(6))


def test_lagged_acceleration_converges_to_constant_acceleration():
    """For nu = a t the estimate approaches a geometrically: error (1 - alpha)^k a."""
    est = LaggedAcceleration(0.3)
    accel = np.array([1.0, -2.0, 0.5, 0.1, 0.0, 3.0])
    for k in range(60):
        out = est.update(accel * 0.05 * k, 0.05 * k)
    err = np.max(np.abs(out - accel))
    assert err <= 0.7 ** 59 * 3.0 + 1e-12, err


def test_lagged_acceleration_rejects_bad_alpha():
    """Alpha must lie in [0, 1]."""
    with pytest.raises(ValueError):
        LaggedAcceleration(1.5)


@pytest.mark.parametrize('engine', [False, True])
def test_added_mass_coriolis_switch_zeroes_the_component_only(engine):
    """
    ``added_mass_coriolis: false`` (gz-sim ``<disable_coriolis>``): the component is zero.

    In still water and in a current, with or without an engine carrying M_A (gz-sim
    then adds no -C_A term either); every other component keeps its value.
    """
    from uwv_hydro.physics.hydro.hydro_model import HydroModel
    from uwv_hydro.physics.body.vehicle_params import VehicleParams

    def model(on):
        return HydroModel(VehicleParams(
            mass=30.0, inertia=np.diag([1.0, 2.0, 2.5]), com=np.array([0.05, 0.0, -0.02]),
            added_mass=_asymmetric_added_mass(4) @ _asymmetric_added_mass(4).T,
            added_mass_point=np.array([0.1, -0.05, 0.02]), linear_drag=np.eye(6),
            added_mass_coriolis=on))
    on, off = model(True), model(False)
    rng = np.random.default_rng(5)
    for current in (None, np.array([0.3, -0.2, 0.1])):
        nu = rng.normal(size=6)
        kwargs = {'position': [0.0, 0.0, -20.0], 'current_world': current,
                  'engine_added_mass': engine,
                  'nu_dot': None if engine else rng.normal(size=6)}
        a, b = on.wrench(nu, **kwargs).components, off.wrench(nu, **kwargs).components
        if current is not None or not engine:
            # with the term on, there is a term to drop (engine: zero in still water)
            assert np.linalg.norm(a['added_mass_coriolis']) > 1e-3
        assert np.all(b['added_mass_coriolis'] == 0.0)
        for name in a:
            if name != 'added_mass_coriolis':
                # the same arithmetic on the same inputs: equal to rounding
                np.testing.assert_allclose(b[name], a[name], rtol=1e-12, atol=1e-12)
