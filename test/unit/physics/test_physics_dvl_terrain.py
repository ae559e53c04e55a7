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
The DVL over a seabed of any shape against beam geometry worked out here.

The DVL looks down (roll pi), so a Janus beam b = (s cos a, s sin a, c) points along
(s cos a, -s sin a, -c) in the world of a level vehicle (s, c = sin, cos of the Janus
angle); from the transducer at p it meets the plane z = z0 + gx x + gy y at
t = (p_z - z0 - gx p_x - gy p_y) / (gx d_x + gy d_y - d_z).
"""
import math

import numpy as np
import pytest

from uwv_hydro.physics.body.vehicle_params import VehicleParams
from uwv_hydro.physics.environment.seabed import FlatSeabed, GridSeabed
from uwv_hydro.physics.sensing.dvl_beams import A50_AZIMUTHS, A50_JANUS_ANGLE, beam_directions
from uwv_hydro.physics.sensing.dvl_terrain import least_squares_velocity, TerrainDvlModel
from uwv_hydro.physics.sensing.sensor_params import DvlParams, NoiseParams, SensorParams
from uwv_hydro.physics.sensing.sensors import build_sensor, sensor_mount

SEABED = 30.0
LEVEL = np.array([1.0, 0.0, 0.0, 0.0])
NU = np.array([0.8, -0.3, 0.1, 0.02, -0.01, 0.05])


def _spec(max_altitude=60.0, seabed_depth=None):
    return SensorParams(name='dvl', kind='dvl', update_rate=10.0, link='base_link',
                        topic='dvl', seed=1, pose=(0.3, 0.0, -0.2, math.pi, 0.0, 0.0),
                        model=DvlParams(seabed_depth=seabed_depth, max_altitude=max_altitude,
                                        velocity=tuple(NoiseParams() for _ in range(3))))


def _params():
    return VehicleParams(name='v', mass=10.0, inertia=np.eye(3), buoyancy_mass=10.0)


def _terrain_dvl(seabed, max_altitude=60.0):
    spec = _spec(max_altitude)
    return TerrainDvlModel(spec, *sensor_mount(spec, _params()), seabed)


def _flat_grid(func, half=60.0, step=1.0):
    n = int(round(2 * half / step)) + 1
    x = -half + step * np.arange(n)
    xx, yy = np.meshgrid(x, x)
    return GridSeabed(func(xx, yy), -half, -half, step, step)


def _truth(dvl, nu=NU):
    # Bottom track: R_bs^T (v + w x r)
    return dvl.r_bs.T @ (nu[:3] + np.cross(nu[3:], dvl.r))


@pytest.mark.parametrize('beams', [(0, 1, 2, 3), (0, 1, 2), (1, 2, 3), (0, 2, 3)])
def test_least_squares_velocity_is_exact_with_three_and_four_beams(beams):
    b = beam_directions(A50_JANUS_ANGLE, A50_AZIMUTHS)[list(beams)]
    rng = np.random.default_rng(len(beams))
    for _ in range(20):
        v = rng.normal(size=3)
        assert np.allclose(least_squares_velocity(b, b @ v), v, rtol=0, atol=1e-12)
    # a gz arrangement of three beams of different tilts
    g = np.array([[-0.3, 0.2, -0.93], [0.4, 0.1, -0.91], [0.0, -0.5, -0.87]])
    g /= np.linalg.norm(g, axis=1, keepdims=True)
    v = np.array([1.2, -0.4, 0.05])
    assert np.allclose(least_squares_velocity(g, g @ v), v, rtol=0, atol=1e-12)


def test_least_squares_needs_three_beams_out_of_one_plane():
    b = beam_directions(A50_JANUS_ANGLE, A50_AZIMUTHS)
    assert least_squares_velocity(b[:2], [0.1, 0.2]) is None
    coplanar = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [math.sqrt(0.5)] * 2 + [0.0]])
    assert least_squares_velocity(coplanar, [0.1, 0.2, 0.3]) is None


@pytest.mark.parametrize('beta_deg', [0.0, 12.0, -20.0])
def test_flat_seabed_as_the_flat_dvl(beta_deg):
    beta = math.radians(beta_deg)
    q = np.array([math.cos(beta / 2), 0.0, math.sin(beta / 2), 0.0])
    flat = build_sensor(_spec(seabed_depth=SEABED), _params())
    for seabed in (FlatSeabed(SEABED), _flat_grid(lambda x, y: np.full_like(x, -SEABED))):
        terrain = _terrain_dvl(seabed)
        p = [1.0, -2.0, -12.0]
        a, b = flat.measure(0.0, p, q, NU, None), terrain.measure(0.0, p, q, NU, None)
        assert np.allclose(a.ranges, b.ranges, rtol=1e-12)
        assert np.array_equal(a.beam_locked, b.beam_locked) and b.valid
        assert np.allclose(a.velocity, b.velocity, rtol=0, atol=1e-12)
        if beta_deg == 0.0:
            assert b.altitude == pytest.approx(a.altitude, rel=1e-12)


def test_sloping_seabed_ranges_velocity_and_altitude():
    z0, gx, gy = -SEABED, 0.15, -0.1
    dvl = _terrain_dvl(_flat_grid(lambda x, y: z0 + gx * x + gy * y))
    p = np.array([3.0, 4.0, -10.0])
    reading = dvl.measure(0.0, p, LEVEL, NU, None)
    transducer = p + dvl.r
    s, c = math.sin(A50_JANUS_ANGLE), math.cos(A50_JANUS_ANGLE)
    expected = []
    for a in A50_AZIMUTHS:
        d = np.array([s * math.cos(a), -s * math.sin(a), -c])
        above = transducer[2] - z0 - gx * transducer[0] - gy * transducer[1]
        expected.append(above / (gx * d[0] + gy * d[1] - d[2]))
    assert reading.ranges == pytest.approx(expected, rel=1e-10)
    assert reading.valid and reading.beam_locked.all()
    assert np.allclose(reading.velocity, _truth(dvl), rtol=0, atol=1e-12)
    # marine_acoustic_msgs: altitude = cos(theta) sum(range) / num_good_beams
    assert reading.altitude == pytest.approx(c * np.mean(expected), rel=1e-12)


def test_lock_over_a_hole():
    heights = np.full((121, 121), -SEABED)
    xs = np.arange(-60, 61)
    # NaN nodes at x in [20, 50], y in [0, 50]: the cells x in [19, 51], y in [-1, 51]
    heights[np.ix_((xs >= 0) & (xs <= 50), (xs >= 20) & (xs <= 50))] = math.nan
    # max altitude 40 m: a beam into the hole reaches a wall (x = 19 or 51, y = -1 or 51)
    # only 51 m or more down
    dvl = _terrain_dvl(GridSeabed(heights, -60.0, -60.0, 1.0, 1.0), max_altitude=40.0)
    h = SEABED - 10.0 - 0.2  # transducer 0.2 m below the body origin (roll pi mount)
    off = h * math.tan(A50_JANUS_ANGLE) * math.sqrt(0.5)  # 5.8 m per axis
    assert off == pytest.approx(5.8, abs=0.1)
    # one beam (forward-left, world +x +y) over the hole: three beams give the velocity
    x_v = 16.0 - 0.3
    one = dvl.measure(0.0, [x_v, 4.0, -10.0], LEVEL, NU, None)
    assert one.beam_locked.sum() == 3 and one.valid
    assert np.allclose(one.velocity, _truth(dvl), rtol=0, atol=1e-12)
    # two beams over it: no bottom lock
    two = dvl.measure(0.0, [x_v, 14.0, -10.0], LEVEL, NU, None)
    assert two.beam_locked.sum() == 2 and not two.valid and two.velocity is None
    # all four: no return at all
    four = dvl.measure(0.0, [35.0, 25.0, -10.0], LEVEL, NU, None)
    assert np.isinf(four.ranges).all() and not four.valid and math.isnan(four.altitude)


def test_lock_lost_past_a_cliff():
    # -30 m up to x = 0, -200 m from x = 1: a cliff within one cell
    dvl = _terrain_dvl(_flat_grid(lambda x, y: np.where(x <= 0.0, -SEABED, -200.0)))
    before = dvl.measure(0.0, [-20.0, 0.0, -10.0], LEVEL, NU, None)
    at = dvl.measure(0.0, [0.0, 0.0, -10.0], LEVEL, NU, None)
    past = dvl.measure(0.0, [20.0, 0.0, -10.0], LEVEL, NU, None)
    assert before.valid and before.beam_locked.all()
    assert at.beam_locked.sum() == 2 and not at.valid  # forward beams over the deep side
    assert not past.valid and not past.beam_locked.any()
    out = dvl.measure(0.0, [-20.0, 0.0, 1.0], LEVEL, NU, None)
    assert not out.valid  # out of the water
