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

"""Tests of HydroModel: components, reference points, currents and switches."""
import numpy as np

from uwv_hydro.physics.body.rigid_body import rigid_body_mass_matrix
from uwv_hydro.physics.body.vehicle_params import COMPONENT_NAMES, SurfaceTransition, VehicleParams
from uwv_hydro.physics.hydro.hydro_model import HydroModel, WrenchComponents
from uwv_hydro.physics.spatial.point_transform import transfer_matrix
from uwv_hydro.physics.spatial.rotation import quat_from_rpy, quat_to_matrix


def _params(**kwargs):
    rng = np.random.default_rng(5)
    b = rng.normal(size=(6, 6))
    q = np.zeros((6, 6, 6))
    q[0, 0, 0], q[1, 1, 1], q[2, 2, 2], q[5, 5, 5] = 30.0, 60.0, 60.0, 4.0
    base = {
        'mass': 50.0, 'inertia': np.diag([2.0, 5.0, 5.5]), 'com': np.array([0.1, 0.0, -0.05]),
        'buoyancy_mass': 51.0, 'cob': np.array([0.1, 0.0, 0.1]),
        'linear_drag': np.diag([10.0, 20, 20, 3, 4, 5]), 'quadratic_drag': q,
        'added_mass': b @ b.T + np.diag([5.0, 30, 30, 1, 3, 3]),
        'added_mass_point': np.array([0.2, 0.05, 0.0]),
        'drag_center': np.array([0.3, 0, 0.02])}
    base.update(kwargs)
    return VehicleParams(**base)


def test_components_present_and_total_is_sum():
    """All COMPONENT_NAMES are present, 6-vectors, and total is their sum; lists accepted."""
    model = HydroModel(_params())
    wc = model.wrench([0.5, 0.1, 0, 0, 0, 0.2], position=[0, 0, -5],
                      quaternion=[1, 0, 0, 0], nu_dot=[0.1, 0, 0, 0, 0, 0],
                      current_world=[0.1, 0.2, 0])
    assert isinstance(wc, WrenchComponents)
    assert tuple(wc.components) == COMPONENT_NAMES
    for value in wc.components.values():
        assert value.shape == (6,)
    assert np.allclose(wc.total, sum(wc.components.values()), atol=1e-12)


def test_added_mass_component():
    """added_mass is zero without nu_dot and -M_A,O nu_dot with it."""
    params = _params()
    model = HydroModel(params)
    nu = np.array([0.3, 0, 0, 0, 0.1, 0])
    assert np.array_equal(model.wrench(nu).components['added_mass'], np.zeros(6))
    nu_dot = np.array([0.1, -0.2, 0.3, 0.05, -0.02, 0.01])
    expected = -transfer_matrix(params.added_mass, params.added_mass_point) @ nu_dot
    got = model.wrench(nu, nu_dot=nu_dot).components['added_mass']
    assert np.allclose(got, expected, atol=1e-12)


def test_mass_matrix_is_rigid_plus_added_about_origin():
    """mass_matrix() = M_RB(origin) + H^T M_A H."""
    params = _params()
    expected = (rigid_body_mass_matrix(params.mass, params.inertia, params.com)
                + transfer_matrix(params.added_mass, params.added_mass_point))
    assert np.allclose(HydroModel(params).mass_matrix(), expected, atol=1e-12)


def test_coriolis_switch():
    """coriolis=False zeroes added_mass_coriolis; True gives a non-zero one."""
    nu = [1.0, 0.5, 0.2, 0.1, 0.2, 0.3]
    on = HydroModel(_params()).wrench(nu).components['added_mass_coriolis']
    off = HydroModel(_params(coriolis=False)).wrench(nu).components['added_mass_coriolis']
    assert np.max(np.abs(on)) > 0.1
    assert np.array_equal(off, np.zeros(6))


def test_dsros_semantics_drag_from_com_velocity():
    """A dsros block (velocity point = com) computes the drag force from v_com."""
    com = np.array([0.4, -0.2, 0.1])
    centre = np.array([0.6, 0.0, 0.0])
    lin = np.diag([10.0, 20, 30, 1, 2, 3])
    params = VehicleParams(mass=10.0, inertia=np.eye(3), com=com, drag_center=centre,
                           drag_velocity_point=com, added_mass_point=com,
                           linear_drag=lin, semantics='dsros')
    nu = np.array([1.0, 0.0, 0.0, 0.3, -0.5, 0.8])
    v_com = nu[:3] + np.cross(nu[3:], com)
    got = HydroModel(params).wrench(nu).components['linear_drag']
    force = -lin[:3, :3] @ v_com
    moment = -lin[3:, 3:] @ nu[3:] + np.cross(centre, force)
    assert np.allclose(got, np.r_[force, moment], atol=1e-12)
    v_centre = nu[:3] + np.cross(nu[3:], centre)
    assert np.max(np.abs(got[:3] + lin[:3, :3] @ v_centre)) > 0.1


def test_drag_uses_velocity_relative_to_world_current():
    """A body at rest in a world current feels drag from -R^T v_c; moving with it, none."""
    params = _params(added_mass=np.zeros((6, 6)))
    model = HydroModel(params)
    q = quat_from_rpy(0.0, 0.0, np.pi / 2)
    current = np.array([1.0, 0.0, 0.0])
    wc = model.wrench(np.zeros(6), quaternion=q, current_world=current)
    # yawed 90 degrees: world +x is body -y, so relative velocity is body +y
    nu_r = np.array([0.0, 1.0, 0, 0, 0, 0])
    expected = -params.linear_drag @ nu_r
    expected[3:] += np.cross(params.drag_center, expected[:3])
    assert np.allclose(wc.components['linear_drag'], expected, atol=1e-12)
    body_current = quat_to_matrix(q).T @ current
    with_flow = model.wrench(np.r_[body_current, 0, 0, 0], quaternion=q,
                             current_world=current)
    for name in ('linear_drag', 'quadratic_drag', 'added_mass_coriolis'):
        assert np.allclose(with_flow.components[name], 0.0, atol=1e-12)


def test_surface_transition_uses_origin_depth():
    """Default pose is fully submerged; near the surface buoyancy is scaled."""
    params = _params(surface=SurfaceTransition(0.0, 1.0, 1.0, 'continuous'))
    model = HydroModel(params)
    full = model.wrench(np.zeros(6)).components['buoyancy'][2]
    assert abs(full - params.buoyancy_mass * params.gravity) < 1e-9
    half = model.wrench(np.zeros(6), position=[3.0, 4.0, -0.5]).components['buoyancy'][2]
    assert abs(half - 0.5 * full) < 1e-9
    assert model.wrench(np.zeros(6), position=[0, 0, 0.2]).components['buoyancy'][2] == 0.0
