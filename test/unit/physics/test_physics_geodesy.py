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

"""ENU tangent plane to WGS-84 latitude/longitude against independent formulas."""
import math

import numpy as np
import pytest

from uwv_hydro.physics.environment.geodesy import (
    ecef_to_geodetic, geodetic_to_ecef, LocalTangentPlane, WGS84_A, WGS84_E2)


@pytest.mark.parametrize('lat, lon, h', [(41.524, -70.6712, 0.0), (-33.9, 151.2, 12.0),
                                         (0.0, 0.0, -50.0), (75.0, 10.0, 100.0),
                                         (-60.0, -179.9, 3000.0)])
def test_small_displacements_follow_the_radii_of_curvature(lat, lon, h):
    """
    Small offsets: dlat = dn / (M + h), dlon = de / ((N + h) cos lat), dh = du + d^2 / 2R.

    First order in the displacement: 1e-8 deg (about 1 mm) covers the second-order
    terms of 40 m away from the poles (the round trip below covers the whole globe).
    """
    plane = LocalTangentPlane(lat, lon, h)
    s = math.sin(math.radians(lat))
    # Meridian and prime-vertical radii of curvature of the ellipsoid
    m_radius = WGS84_A * (1 - WGS84_E2) / (1 - WGS84_E2 * s * s) ** 1.5
    n_radius = WGS84_A / math.sqrt(1 - WGS84_E2 * s * s)
    for east, north, up in [(30.0, 0.0, 0.0), (0.0, -40.0, 0.0), (20.0, 25.0, -3.0)]:
        lat1, lon1, h1 = plane.to_geodetic([east, north, up])
        assert lat1 == pytest.approx(lat + math.degrees(north / (m_radius + h)), abs=1e-8)
        assert lon1 == pytest.approx(
            lon + math.degrees(east / ((n_radius + h) * math.cos(math.radians(lat)))),
            abs=1e-8 / max(math.cos(math.radians(lat)), 1e-3))
        # The tangent plane rises above the ellipsoid by d^2 / (2 R)
        assert h1 == pytest.approx(h + up + (east ** 2 + north ** 2) / (2 * n_radius),
                                   abs=2e-4)


def test_geodetic_round_trip_through_ecef_over_the_globe():
    """ecef_to_geodetic inverts the closed-form geodetic_to_ecef to < 1e-9 deg and 1e-6 m."""
    rng = np.random.default_rng(0)
    for _ in range(500):
        lat, lon = rng.uniform(-90, 90), rng.uniform(-180, 180)
        h = rng.uniform(-11000.0, 9000.0)
        lat1, lon1, h1 = ecef_to_geodetic(geodetic_to_ecef(lat, lon, h))
        assert lat1 == pytest.approx(lat, abs=1e-9)
        if abs(lat) < 89.999:
            assert (lon1 - lon + 180.0) % 360.0 - 180.0 == pytest.approx(0.0, abs=1e-9)
        assert h1 == pytest.approx(h, abs=1e-6)


def test_large_enu_offsets_land_on_the_ecef_point_of_the_tangent_plane():
    """10 km east, 20 km north: the fix maps back to datum + R_ecef<-enu enu exactly."""
    plane = LocalTangentPlane(45.0, 7.0, 200.0)
    enu = np.array([10000.0, 20000.0, -30.0])
    lat, lon, h = plane.to_geodetic(enu)
    lat0, lon0 = math.radians(45.0), math.radians(7.0)
    east = np.array([-math.sin(lon0), math.cos(lon0), 0.0])
    north = np.array([-math.sin(lat0) * math.cos(lon0), -math.sin(lat0) * math.sin(lon0),
                      math.cos(lat0)])
    up = np.cross(east, north)
    expected = geodetic_to_ecef(45.0, 7.0, 200.0) + enu[0] * east + enu[1] * north + enu[2] * up
    assert np.max(np.abs(geodetic_to_ecef(lat, lon, h) - expected)) < 1e-6
