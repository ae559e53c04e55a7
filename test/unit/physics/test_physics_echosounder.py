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
The echosounder against analytic surfaces: a tilted plane, a slope, the cone minimum.

Each sensor sits at the body origin with the body's axes (no mount), so the state's
attitude R is the sensor's: its boresight is R x.  Ranges are compared with the
ray-plane intersections written out here, to the rounding of a few float operations
(1e-9 m on ranges of tens of metres).
"""
import math

import numpy as np
import pytest

from uwv_hydro.modes.sensor_suite import SensorSuite
from uwv_hydro.physics.body.dynamics import State
from uwv_hydro.physics.body.vehicle_params import VehicleParams
from uwv_hydro.physics.environment.seabed import GridSeabed
from uwv_hydro.physics.sensing.echosounder import beam_pattern, EchosounderModel, pattern_gap
from uwv_hydro.physics.sensing.sensor_params import EchosounderParams, NoiseParams, SensorParams
from uwv_hydro.physics.spatial.rotation import matrix_to_quat

TOL = 1e-9  # m: rounding of the intersection arithmetic on ranges of tens of metres
DEPTH = 30.0


def _ry(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def _rz(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def _down_tilted(tau, heading=0.0):
    """World <- sensor with the boresight tau from straight down, the tilt towards +y_s."""
    # Ry(pi/2) takes x to -z; Rz(-tau) first turns (cos tau, sin tau, 0) onto x
    return _rz(heading) @ _ry(math.pi / 2) @ _rz(-tau)


def _sounder(seabed=None, **model):
    model.setdefault('seabed_depth', DEPTH)
    spec = SensorParams('es', 'echosounder', 'base_link', 10.0, 'es', 7,
                        EchosounderParams(**model))
    return EchosounderModel(spec, np.zeros(3), [1.0, 0.0, 0.0, 0.0], seabed)


def _range(model, position, rotation, t=0.0):
    return model.measure(t, position, matrix_to_quat(rotation), np.zeros(6), None)


@pytest.mark.parametrize('tilt_deg', [0.0, 10.0, 30.0, 60.0, 80.0])
def test_one_ray_over_a_flat_seabed_reads_h_over_cos_tilt(tilt_deg):
    tau = math.radians(tilt_deg)
    model = _sounder(max_range=500.0)
    for heading in (0.0, 1.0, -2.5):
        reading = _range(model, [3.0, -4.0, -5.0], _down_tilted(tau, heading))
        # r = h / cos(tilt), h = 30 - 5 m above the seabed
        assert reading.distance == pytest.approx(25.0 / math.cos(tau), abs=TOL)
        assert reading.variance == 0.0


def test_one_ray_over_a_slope():
    gx, gy, z0 = 0.2, -0.1, -30.0
    xs = np.array([-500.0, 500.0])
    grid = GridSeabed(z0 + gx * xs[None, :] + gy * xs[:, None], -500.0, -500.0, 1000.0, 1000.0)
    model = _sounder(grid, max_range=500.0)
    rng = np.random.default_rng(3)
    for _ in range(20):
        p = np.array([rng.uniform(-50, 50), rng.uniform(-50, 50), rng.uniform(-20, -1)])
        rot = _down_tilted(rng.uniform(0.0, 1.0), rng.uniform(-math.pi, math.pi))
        d = rot[:, 0]
        # ray-plane: p_z + t d_z = z0 + gx (p_x + t d_x) + gy (p_y + t d_y)
        t = (p[2] - z0 - gx * p[0] - gy * p[1]) / (gx * d[0] + gy * d[1] - d[2])
        assert _range(model, p, rot).distance == pytest.approx(t, abs=TOL)


@pytest.mark.parametrize('tilt_deg', [0.0, 4.0, 10.0, 17.0, 30.0, 55.0])
@pytest.mark.parametrize('fov_deg', [5.0, 20.0, 60.0])
def test_cone_minimum_over_a_plane_within_the_pattern_bound(tilt_deg, fov_deg):
    """The nearest echo: h / cos(max(0, tau - fov/2)), at most the pattern's gap worse."""
    tau, fov = math.radians(tilt_deg), math.radians(fov_deg)
    model = _sounder(field_of_view=fov, max_range=500.0)
    h = 20.0
    best = max(0.0, tau - fov / 2)
    exact = h / math.cos(best)
    # tilted towards an azimuth between the pattern's rays: the bound, not the exact value
    for heading, spin in ((0.0, 0.0), (0.7, 0.13), (-2.0, 0.29)):
        rot = _down_tilted(tau, heading) @ np.array(
            [[1.0, 0, 0], [0, math.cos(spin), -math.sin(spin)],
             [0, math.sin(spin), math.cos(spin)]])  # spun about the boresight
        r = _range(model, [0.0, 0.0, -(DEPTH - h)], rot).distance
        assert exact - TOL <= r <= h / math.cos(best + pattern_gap(fov)) + TOL
    # tilted towards the rim ray of azimuth 0 (+y_s): that ray is the cone's nearest
    if tau >= fov / 2:
        r = _range(model, [0.0, 0.0, -(DEPTH - h)], _down_tilted(tau)).distance
        assert r == pytest.approx(exact, abs=TOL)


def test_the_pattern_fills_the_cone_within_its_gap():
    """Every direction of the cone within pattern_gap of a ray; every ray in the cone."""
    fov = math.radians(40.0)
    rays = beam_pattern(fov)
    assert len(rays) == 61 and np.allclose(np.linalg.norm(rays, axis=1), 1.0, atol=1e-15)
    assert np.arccos(np.clip(rays[:, 0], -1, 1)).max() <= fov / 2 + 1e-12
    rng = np.random.default_rng(5)
    theta = (fov / 2) * np.sqrt(rng.uniform(size=20000))  # uniform over the cap
    phi = rng.uniform(0, 2 * math.pi, size=20000)
    dirs = np.column_stack((np.cos(theta), np.sin(theta) * np.cos(phi),
                            np.sin(theta) * np.sin(phi)))
    nearest = np.arccos(np.clip((dirs @ rays.T).max(axis=1), -1, 1))
    assert nearest.max() <= pattern_gap(fov)
    assert len(beam_pattern(0.0)) == 1


def test_out_of_range_is_plus_and_minus_infinity():
    # 25 m above the seabed
    down = _down_tilted(0.0)
    assert _range(_sounder(max_range=20.0), [0, 0, -5.0], down).distance == math.inf
    assert _range(_sounder(min_range=26.0, max_range=80.0), [0, 0, -5.0], down).distance \
        == -math.inf
    # out of the water: no echo; no seabed at all looking down: no echo
    assert _range(_sounder(), [0, 0, 1.0], down).distance == math.inf
    assert _range(_sounder(seabed_depth=None), [0, 0, -5.0], down).distance == math.inf
    # a hole in a grid seabed: no bottom
    grid = GridSeabed([[math.nan, math.nan], [math.nan, math.nan]], -10, -10, 20, 20)
    reading = _range(_sounder(grid), [0, 0, -5.0], down)
    assert reading.distance == math.inf and not math.isnan(reading.true_range)


@pytest.mark.parametrize('tilt_deg', [0.0, 25.0, 70.0])
def test_looking_up_it_measures_the_water_above(tilt_deg):
    tau = math.radians(tilt_deg)
    up = _ry(-math.pi / 2) @ _rz(tau)  # x up, tilted tau from the vertical
    assert up[2, 0] == pytest.approx(math.cos(tau), abs=1e-15)
    # r = d / cos(tilt) at depth 12 m
    assert _range(_sounder(), [1.0, 2.0, -12.0], up).distance == pytest.approx(
        12.0 / math.cos(tau), abs=TOL)
    assert _range(_sounder(surface_echo=False), [1.0, 2.0, -12.0], up).distance == math.inf


def test_horizontal_beam_hears_neither_plane_and_a_cone_hears_the_nearer():
    level = np.eye(3)  # boresight +x, horizontal
    assert _range(_sounder(), [0, 0, -5.0], level).distance == math.inf
    # a 60 deg cone reaches 30 deg down and up: the surface 5 m up, the seabed 25 m down
    r = _range(_sounder(field_of_view=math.radians(60.0)), [0, 0, -5.0], level).distance
    assert r == pytest.approx(5.0 / math.sin(math.radians(30.0)), abs=TOL)


def test_noise_statistics_and_limits():
    sigma, mean, n = 0.05, 0.02, 4000
    model = _sounder(noise=NoiseParams(mean=mean, stddev=sigma), max_range=100.0)
    down = _down_tilted(0.0)
    values = np.array([_range(model, [0, 0, -5.0], down, 0.1 * k).distance for k in range(n)])
    # mean within 5 standard errors, stddev within 5 of its standard errors sigma/sqrt(2n)
    assert abs(values.mean() - (25.0 + mean)) < 5 * sigma / math.sqrt(n)
    assert abs(values.std(ddof=1) - sigma) < 5 * sigma / math.sqrt(2 * n)
    assert _range(model, [0, 0, -5.0], down).variance == pytest.approx(sigma ** 2, rel=1e-15)
    model.reset()
    again = np.array([_range(model, [0, 0, -5.0], down, 0.1 * k).distance for k in range(5)])
    assert np.array_equal(again, values[:5])  # the same seed, the same sequence
    # near the limits the noise never leaves [min_range, max_range] (finite there)
    near = _sounder(noise=NoiseParams(stddev=1.0), min_range=24.5, max_range=25.5)
    edge = np.array([_range(near, [0, 0, -5.0], down, k).distance for k in range(500)])
    assert np.all(np.isfinite(edge)) and edge.min() >= 24.5 and edge.max() <= 25.5


def test_sampled_at_its_rate_by_the_suite_and_cast_to_the_worlds_seabed():
    params = VehicleParams(mass=1.0, inertia=np.eye(3))
    # pitch +pi/2: the sensor's +x looks down
    params.sensors = [SensorParams('es', 'echosounder', 'base_link', 10.0, 'es', 1,
                                   EchosounderParams(seabed_depth=DEPTH, max_range=200.0),
                                   pose=(0.0, 0.0, -0.5, 0.0, math.pi / 2, 0.0))]
    grid = GridSeabed(np.full((2, 2), -50.0), -100, -100, 200, 200)
    state = State(position=[0.0, 0.0, -4.0])
    for seabed, expected in ((None, DEPTH - 4.5), (grid, 50.0 - 4.5)):
        suite = SensorSuite(params, seabed=seabed)
        got = [r for k in range(100) for _, r in suite.sample(k * 10_000_000, state, None)]
        assert len(got) == 10  # 10 Hz over 1 s of 100 Hz states
        assert all(r.distance == pytest.approx(expected, abs=TOL) for r in got)
