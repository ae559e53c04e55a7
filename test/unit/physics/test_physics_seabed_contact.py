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
Seabed contact in simulate mode against physics.

A negatively buoyant vehicle dropped on a flat seabed comes to rest with the penetration
W_water / (k n) (n points touching) while its mechanical energy (kinetic + the potential
of weight minus buoyancy + the contact springs', computed here from the states) never
grows; a point vehicle on an inclined plane below its friction angle creeps at the
regularisation's v_s tan(th) / mu, above it slides with g_eff (sin th - mu cos th); the
plane as a 2 x 2 grid and as a fine grid gives the same motion.
"""
import math

import numpy as np
import pytest

from uwv_hydro.modes.simulate_mode import SimulateMode
from uwv_hydro.physics.body.dynamics import State
from uwv_hydro.physics.body.vehicle_params import VehicleParams
from uwv_hydro.physics.environment.seabed import FlatSeabed, GridSeabed
from uwv_hydro.physics.environment.seabed_contact import ContactSpec
from uwv_hydro.physics.spatial.rotation import quat_to_matrix

G = 9.80665
DEPTH = 20.0


def _vehicle(mass=20.0, displaced=15.0, drag=(10.0, 10.0, 10.0, 2.0, 2.0, 2.0)):
    # inertia and drag scale with the mass (a 20 kg vehicle has diag(1, 1.5, 2))
    scale = mass / 20.0
    return VehicleParams(mass=mass, inertia=scale * np.diag([1.0, 1.5, 2.0]),
                         buoyancy_mass=displaced, linear_drag=scale * np.diag(drag),
                         gravity=G)


def _box_corners(half=(0.3, 0.2, 0.1)):
    hx, hy, hz = half
    return np.array([[sx * hx, sy * hy, sz * hz] for sx in (1, -1) for sy in (1, -1)
                     for sz in (1, -1)])


def _energy(x, params, mass, points, k, seabed):
    """Kinetic 1/2 nu^T M nu + (W - B) z + sum 1/2 k d^2 over the points below the seabed."""
    nu = x[7:]
    kinetic = 0.5 * nu @ mass @ nu
    # weight and buoyancy both at the origin: potential (W - B) z
    potential = (params.weight() - params.buoyancy()) * x[2]
    rot = quat_to_matrix(x[3:7] / np.linalg.norm(x[3:7]))
    world = x[:3] + points @ rot.T
    h = seabed.elevation(world[:, 0], world[:, 1])
    d = np.maximum(h - world[:, 2], 0.0)  # flat: the normal is z, d = h - z
    return kinetic + potential + float(np.sum(0.5 * k * d * d))


@pytest.mark.parametrize('mass, displaced', [(11.0, 10.5), (20.0, 15.0), (1800.0, 1750.0)])
def test_drop_on_flat_seabed_rests_at_the_stated_penetration_and_gains_no_energy(
        mass, displaced):
    # a BlueROV2-sized, a 20 kg and a RexROV-sized vehicle, each heavier than the water
    params = _vehicle(mass, displaced)
    seabed = FlatSeabed(DEPTH)
    points = _box_corners()
    mode = SimulateMode(params, dt=0.01)
    mode.set_contact(ContactSpec(points=points), seabed)
    contact = mode.contact
    # dropped from 0.5 m above the seabed, tumbling a little
    start = State(np.array([0.0, 0.0, -DEPTH + 0.6]),
                  np.array([math.cos(0.05), math.sin(0.05), 0.0, 0.0]),
                  np.array([0.0, 0.0, 0.0, 0.3, -0.2, 0.1]))
    mode.reset(start)
    n = 3000
    rows = np.zeros((n, 13))
    assert mode.run(None, n, rows=rows) == n
    # the checked step's energy bound accepts every contact step
    assert mode.events['divergences'] == 0
    mass = mode.sim.model.mass_matrix()
    energy = np.array([_energy(r, params, mass, points, contact.stiffness, seabed)
                       for r in rows])
    # drag and contact damping dissipate: no step adds energy beyond RK4's local error
    # (1e-6 of the energy drop from the start)
    growth = np.diff(energy)
    assert np.max(growth) <= 1e-6 * (energy[0] - energy[-1])
    # at rest, level, on the 4 lower corners: d = W_water / (4 k)
    final = rows[-1]
    assert np.linalg.norm(final[7:]) < 1e-6
    d_expected = contact.static_penetration(4)
    bottom = final[2] - 0.1
    assert bottom == pytest.approx(-DEPTH - d_expected, abs=1e-3 * d_expected)
    # the penetration bound of the guide: W_water / (k n)
    assert d_expected == pytest.approx(
        (params.weight() - params.buoyancy()) / (contact.stiffness * 4), rel=1e-12)


def _plane(theta, fine=False):
    """Return the plane h = -DEPTH - tan(th) x as a grid (2 x 2 nodes, or 401 x 41)."""
    nx, ny = (401, 41) if fine else (2, 2)
    x = np.linspace(-100.0, 100.0, nx)
    heights = np.tile(-DEPTH - math.tan(theta) * x, (ny, 1))
    return GridSeabed(heights, -100.0, -10.0, 200.0 / (nx - 1), 20.0 / (ny - 1))


def _on_slope(theta, mu, vs, seabed, dt=0.01):
    """Return a point vehicle (one contact point at its origin, no drag) on the plane."""
    params = _vehicle(mass=10.0, displaced=5.0, drag=(0.0,) * 6)
    mode = SimulateMode(params, dt=dt)
    mode.set_contact(ContactSpec(points=np.zeros((1, 3)), friction=mu, stiction_speed=vs),
                     seabed)
    w_water = params.weight() - params.buoyancy()
    # start at the normal equilibrium k d = W_water cos th, at rest
    d0 = w_water * math.cos(theta) / mode.contact.stiffness
    n = np.array([math.sin(theta), 0.0, math.cos(theta)])  # outward normal of the plane
    surface = np.array([0.0, 0.0, -DEPTH])
    mode.reset(State(surface - d0 * n, np.array([1.0, 0.0, 0.0, 0.0]), np.zeros(6)))
    return mode, params, w_water


def test_below_the_friction_angle_the_vehicle_creeps_at_the_regularisation_bound():
    theta, mu, vs = math.radians(15.0), 0.5, 1e-3
    mode, _, _ = _on_slope(theta, mu, vs, _plane(theta))
    assert theta < mode.contact.friction_angle()
    mode.run(None, 2000)
    speed = float(np.linalg.norm(mode.x[7:10]))
    # the regularised friction mu f_n |v| / v_s balances W sin th at f_n = W cos th
    creep = vs * math.tan(theta) / mu
    assert speed == pytest.approx(creep, rel=1e-3)
    assert speed == pytest.approx(mode.contact.creep_speed(theta), rel=1e-3)


def test_above_the_friction_angle_the_vehicle_slides_with_the_coulomb_acceleration():
    theta, mu, vs = math.radians(40.0), 0.5, 1e-3
    mode, params, w_water = _on_slope(theta, mu, vs, _plane(theta))
    assert theta > mode.contact.friction_angle()
    # past |v| = v_s the friction is mu f_n: a = g_eff (sin th - mu cos th), g_eff = W_w / m
    mode.run(None, 20)
    v1 = float(np.linalg.norm(mode.x[7:10]))
    mode.run(None, 100)
    v2 = float(np.linalg.norm(mode.x[7:10]))
    assert v1 > 10 * vs
    g_eff = w_water / params.mass
    expected = g_eff * (math.sin(theta) - mu * math.cos(theta))
    assert (v2 - v1) / 1.0 == pytest.approx(expected, rel=1e-6)
    # it goes down the slope (+x)
    assert mode.x[7] > 0.0


def test_a_plane_as_a_fine_grid_moves_as_the_plane_as_one_cell():
    theta = math.radians(40.0)
    a, _, _ = _on_slope(theta, 0.5, 1e-3, _plane(theta))
    b, _, _ = _on_slope(theta, 0.5, 1e-3, _plane(theta, fine=True))
    a.run(None, 300)
    b.run(None, 300)
    # bilinear interpolation of a plane is the plane: the same to the rounding of heights
    assert np.allclose(a.x, b.x, rtol=0.0, atol=1e-9)


def test_no_seabed_no_contact():
    params = _vehicle()
    mode = SimulateMode(params, dt=0.01)
    mode.set_contact(ContactSpec(points=_box_corners()), None)
    assert mode.contact is None
    mode.reset(State(np.array([0.0, 0.0, -DEPTH]), np.array([1.0, 0.0, 0.0, 0.0]),
                     np.zeros(6)))
    mode.run(None, 100)
    # sinking freely: no force from below
    assert mode.x[2] < -DEPTH - 0.05


def test_a_sphere_rests_on_its_lowest_point():
    params = _vehicle()
    mode = SimulateMode(params, dt=0.01)
    radius = 0.25
    mode.set_contact(ContactSpec(points=np.zeros((1, 3)), radii=[radius]), FlatSeabed(DEPTH))
    mode.reset(State(np.array([0.0, 0.0, -DEPTH + 0.5]), np.array([1.0, 0.0, 0.0, 0.0]),
                     np.zeros(6)))
    mode.run(None, 3000)
    d_expected = mode.contact.static_penetration(1)
    # the centre rests r - W_water / k above the seabed
    assert mode.x[2] == pytest.approx(-DEPTH + radius - d_expected, abs=1e-3 * d_expected)


def test_the_energy_guard_accepts_the_spring_giving_back_its_energy():
    # at rest, 8 cm into the seabed (about 300 times the static penetration): the
    # springs throw the vehicle up faster than weight and buoyancy alone could in a
    # step; the guard's bound, which counts the springs' energy, must not call that a
    # divergence
    params = _vehicle()
    points = _box_corners()
    seabed = FlatSeabed(DEPTH)
    mode = SimulateMode(params, dt=0.01)
    mode.set_contact(ContactSpec(points=points), seabed)
    start = State(np.array([0.0, 0.0, -DEPTH + 0.1 - 0.08]), np.array([1.0, 0.0, 0.0, 0.0]),
                  np.zeros(6))
    mode.reset(start)
    mass = mode.sim.model.mass_matrix()
    k = mode.contact.stiffness
    e0 = _energy(np.array(mode.x), params, mass, points, k, seabed)
    rows = np.zeros((20, 13))
    mode.run(None, 20, rows=rows)
    assert mode.events['divergences'] == 0
    # the first step's |nu|_M is beyond the bound without the springs' energy
    assert mode.guard.norm(rows[0, 7:]) > mode.guard.max_norm(0.0, None, 0.01)
    # and the mechanical energy never grows (passive contact, dissipative drag)
    assert all(_energy(r, params, mass, points, k, seabed) <= e0 + 1e-9 * abs(e0)
               for r in rows)
