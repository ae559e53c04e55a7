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
A straightforward numpy reference of the full hydro wrench, written independently.

Used two ways: by the benchmarks as the baseline the core must beat
(``naive_wrench_eval_us``: einsum for the 6x6x6 tensor, skew matrices and transfer
matrices built on every call), and by the tests as an independent cross-check of
:class:`uwv_hydro.physics.hydro_model.HydroModel`.  Only numpy is used here.
"""

import numpy as np


def skew(a):
    """Return S(a), the 3x3 cross-product matrix: S(a) b = a x b."""
    return np.array([[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]])


def transfer(r):
    """Return H(r) with [v_p, w] = H(r) [v, w], v_p = v + w x r (Fossen 2011 eq. 7.x)."""
    h = np.eye(6)
    h[:3, 3:] = -skew(r)
    return h


def rotation_matrix(q):
    """Return R (world <- body) of a quaternion [w, x, y, z]."""
    w, x, y, z = np.asarray(q, float) / np.linalg.norm(q)
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def surface_fraction(depth, surface):
    """Return the dsros / continuous surface-transition fraction of full buoyancy."""
    if depth >= surface.fully_submerged_depth:
        return 1.0
    if depth <= surface.out_of_water_depth:
        return 0.0
    frac = (depth - surface.out_of_water_depth) / (
        surface.fully_submerged_depth - surface.out_of_water_depth)
    if surface.model == 'continuous':
        return frac
    return surface.scale_factor * frac + 1.0 - surface.scale_factor


def naive_wrench(p, nu, position, quaternion, nu_dot=None, current_world=None):
    """Return {component: wrench} about the body origin for VehicleParams ``p``."""
    nu = np.asarray(nu, float)
    rot = rotation_matrix(quaternion)
    down = rot.T @ np.array([0.0, 0.0, -1.0])
    weight = p.mass * p.gravity * down
    frac = surface_fraction(-position[2], p.surface)
    buoy = -frac * p.buoyancy_mass * p.gravity * down
    out = {
        'weight': np.concatenate([weight, np.cross(p.com, weight)]),
        'buoyancy': np.concatenate([buoy, np.cross(p.cob, buoy)]),
    }
    v_c = rot.T @ np.asarray(current_world if current_world is not None else np.zeros(3))
    nu_r = nu - np.concatenate([v_c, np.zeros(3)])
    drag_center = p.com if p.drag_center is None else p.drag_center
    vel_point = drag_center if p.drag_velocity_point is None else p.drag_velocity_point
    h_v, h_d, h_a = transfer(vel_point), transfer(drag_center), transfer(p.added_mass_point)
    nu_v = h_v @ nu_r
    lin = -p.linear_drag @ nu_v
    if p.damping == 'quadratic_only':
        lin = np.zeros(6)
    quad = -np.einsum('abc,b,c->a', p.quadratic_drag, np.abs(nu_v), nu_v)
    out['linear_drag'] = h_d.T @ lin
    out['quadratic_drag'] = h_d.T @ quad
    ma = p.added_mass
    if nu_dot is None:
        out['added_mass'] = np.zeros(6)
    else:
        nu_dot_c = np.concatenate([-np.cross(nu[3:], v_c), np.zeros(3)])
        out['added_mass'] = h_a.T @ (-ma @ (h_a @ (np.asarray(nu_dot, float) - nu_dot_c)))
    nu_a = h_a @ nu_r
    a1 = ma[:3, :3] @ nu_a[:3] + ma[:3, 3:] @ nu_a[3:]
    a2 = ma[3:, :3] @ nu_a[:3] + ma[3:, 3:] @ nu_a[3:]
    c_a = np.zeros((6, 6))
    c_a[:3, 3:] = -skew(a1)
    c_a[3:, :3] = -skew(a1)
    c_a[3:, 3:] = -skew(a2)
    out['added_mass_coriolis'] = h_a.T @ (-c_a @ nu_a) if p.coriolis else np.zeros(6)
    return out


def full_vehicle(seed: int = 7):
    """Return a VehicleParams with every coefficient populated (dense L, Q, M_A)."""
    from uwv_hydro.physics.vehicle_params import SurfaceTransition, VehicleParams
    rng = np.random.default_rng(seed)
    a = rng.normal(size=(6, 6))
    m_a = a @ a.T + 6 * np.eye(6)
    m_a[:3, :3] *= 10.0
    lin = rng.uniform(0.1, 2.0, size=(6, 6)) + 20 * np.eye(6)
    quad = rng.uniform(0.0, 1.0, size=(6, 6, 6))
    for i in range(6):
        quad[i, i, i] += 40.0
    return VehicleParams(
        mass=60.0, inertia=np.array([[3.0, 0.1, -0.05], [0.1, 8.0, 0.2], [-0.05, 0.2, 8.5]]),
        com=np.array([0.05, -0.01, -0.04]), buoyancy_mass=61.0,
        cob=np.array([0.04, 0.0, 0.06]),
        surface=SurfaceTransition(0.0, 0.3, 0.8, 'dsros'),
        linear_drag=lin, quadratic_drag=quad, added_mass=m_a,
        drag_center=np.array([-0.1, 0.0, 0.01]), added_mass_point=np.array([0.02, 0.0, 0.0]))


def vehicle_variants(dsros_seed: int = 7):
    """
    Yield (name, VehicleParams) covering the model switches, for cross-checks.

    Dense vehicle; dsros reference points with a 36-term asymmetric added mass;
    quadratic-only damping without Coriolis; the continuous surface transition.
    """
    yield 'full', full_vehicle()
    dsros = full_vehicle(seed=dsros_seed)
    dsros.drag_velocity_point = dsros.com.copy()
    dsros.added_mass_point = dsros.com.copy()
    dsros.added_mass = dsros.added_mass + np.triu(np.ones((6, 6)))  # 36 independent terms
    yield 'dsros_asymmetric', dsros
    quad_only = full_vehicle(seed=3)
    quad_only.damping = 'quadratic_only'
    quad_only.coriolis = False
    yield 'quadratic_only_no_coriolis', quad_only
    cont = full_vehicle(seed=5)
    cont.surface.model = 'continuous'
    yield 'continuous_surface', cont
