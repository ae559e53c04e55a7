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
WGS-84 geodesy: a local ENU (east-north-up) tangent plane at a datum to latitude/longitude.

A world (odom, ENU) position is a displacement in the tangent plane at the datum
(lat0, lon0, h0).  It goes to geodetic coordinates exactly, without a flat-earth
approximation: ENU -> ECEF by the tangent-plane rotation at the datum, added to the
datum's ECEF position, then ECEF -> geodetic by Bowring's (1976) formula refined by
fixed-point iterations (sub-millimetre everywhere near the surface).
"""
import math
from typing import Tuple

import numpy as np

#: WGS-84 semi-major axis (m) and flattening (NIMA TR8350.2).
WGS84_A = 6378137.0
WGS84_F = 1.0 / 298.257223563
#: First eccentricity squared e^2 = f (2 - f).
WGS84_E2 = WGS84_F * (2.0 - WGS84_F)
#: Semi-minor axis b = a (1 - f).
WGS84_B = WGS84_A * (1.0 - WGS84_F)


def geodetic_to_ecef(lat_deg: float, lon_deg: float, height: float) -> np.ndarray:
    """Return the ECEF position (m) of a geodetic point (degrees, ellipsoidal height m)."""
    lat, lon = math.radians(lat_deg), math.radians(lon_deg)
    s, c = math.sin(lat), math.cos(lat)
    # Prime-vertical radius of curvature N = a / sqrt(1 - e^2 sin^2 lat)
    n = WGS84_A / math.sqrt(1.0 - WGS84_E2 * s * s)
    # Geodetic -> ECEF (e.g. Hofmann-Wellenhof, GNSS 2008, eq. 5.9)
    return np.array([(n + height) * c * math.cos(lon), (n + height) * c * math.sin(lon),
                     (n * (1.0 - WGS84_E2) + height) * s])


def enu_to_ecef_rotation(lat_deg: float, lon_deg: float) -> np.ndarray:
    """Return the 3x3 rotation ECEF <- ENU at a geodetic point (columns e, n, u)."""
    lat, lon = math.radians(lat_deg), math.radians(lon_deg)
    sl, cl = math.sin(lat), math.cos(lat)
    so, co = math.sin(lon), math.cos(lon)
    # Local tangent plane axes in ECEF: e = (-so, co, 0), n = (-sl co, -sl so, cl), u = (cl co,
    # cl so, sl)
    return np.array([[-so, -sl * co, cl * co],
                     [co, -sl * so, cl * so],
                     [0.0, cl, sl]])


def ecef_to_geodetic(ecef) -> Tuple[float, float, float]:
    """Return (lat_deg, lon_deg, height m) of an ECEF position (Bowring 1976 + iterations)."""
    x, y, z = (float(v) for v in ecef)
    p = math.hypot(x, y)
    lon = math.atan2(y, x)
    ep2 = (WGS84_A ** 2 - WGS84_B ** 2) / WGS84_B ** 2
    # Bowring 1976: parametric latitude theta, then lat = atan2(z + e'^2 b sin^3, p - e^2 a cos^3)
    theta = math.atan2(z * WGS84_A, p * WGS84_B)
    lat = math.atan2(z + ep2 * WGS84_B * math.sin(theta) ** 3,
                     p - WGS84_E2 * WGS84_A * math.cos(theta) ** 3)
    for _ in range(3):
        s = math.sin(lat)
        n = WGS84_A / math.sqrt(1.0 - WGS84_E2 * s * s)
        # Fixed point of tan(lat) = (z + e^2 N sin(lat)) / p
        lat = math.atan2(z + WGS84_E2 * n * s, p)
    s, c = math.sin(lat), math.cos(lat)
    # Height along the normal, valid at every latitude: h = p cos + z sin - a sqrt(1 - e^2 sin^2)
    height = p * c + z * s - WGS84_A * math.sqrt(1.0 - WGS84_E2 * s * s)
    return math.degrees(lat), math.degrees(lon), height


class LocalTangentPlane:
    """ENU tangent plane at a geodetic datum: world positions to (lat, lon, height)."""

    def __init__(self, lat_deg: float, lon_deg: float, height: float):
        self.datum = (float(lat_deg), float(lon_deg), float(height))
        self._origin = geodetic_to_ecef(*self.datum)
        self._rotation = enu_to_ecef_rotation(lat_deg, lon_deg)

    def to_geodetic(self, enu) -> Tuple[float, float, float]:
        """Return (lat_deg, lon_deg, height m) of the ENU point ``enu`` (m from the datum)."""
        # ECEF = ECEF(datum) + R_ecef<-enu enu
        ecef = self._origin + self._rotation @ np.asarray(enu, dtype=float)
        return ecef_to_geodetic(ecef)
