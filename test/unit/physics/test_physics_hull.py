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
The slender-hull terms against closed forms: strip-theory cross-flow drag and body lift.

Expected values are integrals done by hand (the cross-flow drag of a cylinder in sway
and in yaw, with the midpoint rule's exact Euler-Maclaurin remainder for the cubic
integrand of the yaw case) and Prestero's / Jorgensen's formulas written out here.
"""
import math

import numpy as np
import pytest

from uwv_hydro.physics.body.vehicle_params import Hull, VehicleParams
from uwv_hydro.physics.hydro.crossflow_drag import CrossflowDrag
from uwv_hydro.physics.hydro.hull_lift import HullLift
from uwv_hydro.physics.hydro.hydro_model import HydroModel

RHO = 1030.0
L, D, CD, C_YD = 1.6, 0.19, 1.2, 1.2


def _cylinder(n=40, centre=0.0, **kw):
    return Hull(stations=np.array([centre - L / 2, centre + L / 2]),
                diameters=np.array([D, D]), cd_crossflow=CD, c_yd_beta=C_YD, strips=n, **kw)


def _vehicle(hull):
    return VehicleParams(mass=30.0, inertia=np.diag([0.2, 3.0, 3.0]), buoyancy_mass=30.0,
                         fluid_density=RHO, hull=hull)


@pytest.mark.parametrize('centre', [0.0, -0.2])
def test_crossflow_drag_of_a_cylinder_in_sway(centre):
    """Pure sway: Y = -1/2 rho C_d d L |v| v (strips alike), N = x_centre Y; u plays no part."""
    drag = CrossflowDrag(_cylinder(centre=centre), RHO)
    for v in (0.3, -0.7):
        for u in (0.0, 1.5, -1.5):
            w = drag.wrench([u, v, 0.0, 0.0, 0.0, 0.0])
            want = -0.5 * RHO * CD * D * L * abs(v) * v
            assert w[1] == pytest.approx(want, rel=1e-12)
            assert w[5] == pytest.approx(centre * want, rel=1e-12, abs=1e-12 * abs(want))
            assert np.abs(w[[0, 2, 3, 4]]).max() <= 1e-12 * abs(want)


def test_crossflow_drag_of_a_cylinder_in_yaw_is_the_integral_to_the_midpoint_remainder():
    """
    Pure yaw about the centre: N = -1/2 rho C_d d r|r| 2 S, S = midpoint sum of x^3 on [0, a].

    The exact integral is a^4/4; the midpoint rule of a cubic with strips h differs by
    exactly -h^2 a^2 / 8 (Euler-Maclaurin, f''' constant).  No net sway force.
    """
    a = L / 2
    for n in (2, 10, 40):
        drag = CrossflowDrag(_cylinder(n=n), RHO)
        h = L / n
        for r in (0.4, -0.25):
            w = drag.wrench([1.0, 0.0, 0.0, 0.0, 0.0, r])
            s = a ** 4 / 4 - h ** 2 * a ** 2 / 8
            want = -0.5 * RHO * CD * D * r * abs(r) * 2 * s
            assert w[5] == pytest.approx(want, rel=1e-12)
            assert abs(w[1]) <= 1e-12 * abs(want) / a
    # and it converges to the integral: 40 strips are 1/800 of the exact moment away
    exact = -0.5 * RHO * CD * D * 0.16 * 2 * a ** 4 / 4
    assert CrossflowDrag(_cylinder(), RHO).wrench([0, 0, 0, 0, 0, 0.4])[5] == pytest.approx(
        exact, rel=1.0 / 800 + 1e-12)


def test_crossflow_drag_in_pitch_mirrors_yaw_and_opposes_every_cross_flow():
    """Pitch rate q is yaw rate r turned by 90 deg: M = N of the same rate; drag takes energy."""
    drag = CrossflowDrag(_cylinder(centre=0.1), RHO)
    yaw = drag.wrench([0.0, 0.2, 0.0, 0.0, 0.0, 0.5])
    pitch = drag.wrench([0.0, 0.0, -0.2, 0.0, 0.5, 0.0])  # w - q x = -(v + r x)
    assert pitch[2] == pytest.approx(-yaw[1], rel=1e-12)
    assert pitch[4] == pytest.approx(yaw[5], rel=1e-12)
    rng = np.random.default_rng(3)
    for _ in range(200):
        nu = rng.normal(size=6)
        assert drag.wrench(nu) @ nu <= 1e-12  # power of the drag wrench on the body twist


def test_body_lift_is_prestero_going_ahead_and_opposes_the_cross_flow_astern():
    """
    Ahead (u > 0): Y = -1/2 rho d^2 c u v, Z likewise with w, at x_cp (Prestero 2001).

    Astern the lift still opposes the cross-flow (u w would push the hull further
    sideways) and acts at x_cp mirrored about the hull's mid-length.
    """
    x_cp = -0.3
    lift = HullLift(_cylinder(centre=0.05, x_cp=x_cp), RHO)
    k = 0.5 * RHO * D ** 2 * C_YD
    for u, v, w in ((1.5, 0.1, -0.05), (-1.2, 0.1, -0.05), (-0.5, -0.2, 0.3)):
        got = lift.wrench([u, v, w, 0.3, -0.2, 0.1])
        x = x_cp if u > 0 else 2 * 0.05 - x_cp
        assert got[1] == pytest.approx(-k * abs(u) * v, rel=1e-12)
        assert got[2] == pytest.approx(-k * abs(u) * w, rel=1e-12)
        assert np.sign(got[1]) == -np.sign(v) and np.sign(got[2]) == -np.sign(w)
        assert got[5] == pytest.approx(x * got[1], rel=1e-12)
        assert got[4] == pytest.approx(-x * got[2], rel=1e-12)
        assert got[0] == got[3] == 0.0


@pytest.mark.parametrize('model', ['prestero', 'jorgensen'])
def test_body_lift_at_any_flow_angle(model):
    """|F| = 1/2 rho d^2 c U^2 sin a cos a (Jorgensen: times cos(a/2)); zero at 0 and 90 deg."""
    lift = HullLift(_cylinder(model=model), RHO)
    k = 0.5 * RHO * D ** 2 * C_YD
    speed = 2.0
    for deg in (0.0, 5.0, 30.0, 45.0, 80.0, 90.0, 135.0, 179.0):
        a = math.radians(deg)
        for phi in (0.0, 1.0, 2.5):  # direction of the cross-flow around the axis
            nu = [speed * math.cos(a), speed * math.sin(a) * math.cos(phi),
                  speed * math.sin(a) * math.sin(phi), 0.0, 0.0, 0.0]
            force = np.linalg.norm(lift.wrench(nu)[:3])
            line = min(a, math.pi - a)  # the angle to the axis as a line
            want = k * speed ** 2 * math.sin(line) * math.cos(line)
            if model == 'jorgensen':
                want *= math.cos(line / 2)
            assert force == pytest.approx(want, rel=1e-12, abs=1e-12 * k)


def test_hull_components_use_the_relative_velocity():
    """A current c: the hull terms of nu in the current are those of nu - c in still water."""
    model = HydroModel(_vehicle(_cylinder(x_cp=-0.3)))
    nu = np.array([1.2, 0.1, -0.05, 0.02, 0.1, -0.2])
    current = np.array([0.3, -0.4, 0.1])
    q = np.array([math.cos(0.3), 0.0, 0.0, math.sin(0.3)])  # yawed 0.6 rad
    moving = model.wrench(nu, quaternion=q, current_world=current).components
    rot_t = np.array([[math.cos(0.6), math.sin(0.6), 0], [-math.sin(0.6), math.cos(0.6), 0],
                      [0, 0, 1]])
    still = model.wrench(nu - np.concatenate([rot_t @ current, np.zeros(3)]),
                         quaternion=q).components
    for name in ('hull_lift', 'crossflow_drag'):
        np.testing.assert_allclose(moving[name], still[name], rtol=1e-12, atol=1e-12)
    many = model.wrench_many(nu[None], quaternion=q[None], current_world=current)[0]
    np.testing.assert_allclose(many[-2], moving['hull_lift'], rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(many[-1], moving['crossflow_drag'], rtol=1e-12, atol=1e-14)


def test_a_tapered_profile_integrates_its_own_diameters():
    """
    Pure sway on a cone-cylinder: Y = -1/2 rho C_d |v| v times the profile's area.

    With the cone's end on a strip boundary the midpoint rule is exact for the linear
    d(x); the moment's integrand x d(x) is quadratic on the cone, where the midpoint sum
    is short of the integral by exactly h^2/24 [f'] (Euler-Maclaurin), f' = x + 0.4.
    """
    n = 35
    hull = Hull(stations=np.array([-0.8, -0.4, 0.6]), diameters=np.array([0.0, 0.2, 0.2]),
                cd_crossflow=CD, strips=n)
    h = 1.4 / n
    area = 0.5 * 0.4 * 0.2 + 1.0 * 0.2
    # first moment of the area: triangle centroid at -0.8 + 2/3 0.4, rectangle at 0.1
    moment = 0.04 * (-0.8 + 2 * 0.4 / 3) + 0.2 * 0.1
    w = CrossflowDrag(hull, RHO).wrench([0, 0.5, 0, 0, 0, 0])
    k = -0.5 * RHO * CD * 0.25
    assert w[1] == pytest.approx(k * area, rel=1e-12)
    assert w[5] == pytest.approx(k * (moment - h ** 2 / 24 * 0.4), rel=1e-12)


def test_hull_components_with_one_current_per_state():
    """
    wrench_many with a current field's (N, 3) currents: row i sees current i only.

    Each row's hull terms equal those of nu_i - R_i^T c_i in still water (the relative
    velocity), evaluated one state at a time; a current shared by the rows (or paired
    with the wrong row) fails it.
    """
    model = HydroModel(_vehicle(_cylinder(x_cp=-0.3)))
    rng = np.random.default_rng(5)
    n = 6
    nu = rng.normal(scale=0.5, size=(n, 6)) + [1.2, 0, 0, 0, 0, 0]
    currents = rng.normal(scale=0.4, size=(n, 3))
    yaw = rng.uniform(-math.pi, math.pi, size=n)
    q = np.stack([np.cos(yaw / 2), 0 * yaw, 0 * yaw, np.sin(yaw / 2)], axis=1)
    many = model.wrench_many(nu, quaternion=q, current_world=currents)
    for i in range(n):
        c, s = math.cos(yaw[i]), math.sin(yaw[i])
        rot_t = np.array([[c, s, 0.0], [-s, c, 0.0], [0.0, 0.0, 1.0]])  # R_z(yaw)^T
        still = model.wrench(nu[i] - np.concatenate([rot_t @ currents[i], np.zeros(3)]),
                             quaternion=q[i]).components
        scale = max(1.0, float(np.abs(still['crossflow_drag']).max()))
        np.testing.assert_allclose(many[i, -2], still['hull_lift'], rtol=0, atol=1e-12 * scale)
        np.testing.assert_allclose(many[i, -1], still['crossflow_drag'], rtol=0,
                                   atol=1e-12 * scale)
