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
A bathymetry grid in any CRS placed in the ENU world by a geodetic datum of the world origin.

The world's east and north are a transverse Mercator projection centred on the datum
(lat0, lon0) (WGS-84, scale 1 at the datum, no false easting or northing): at the
datum it is the local tangent plane, its scale is 1 + d^2 / (2 R^2) at a distance d
east of it (Snyder, Map Projections: A Working Manual, 1987, eq. 8-15), 1 + 3e-7 at
5 km.  Never Web Mercator, whose scale is 1 / cos(lat) everywhere.

The file's nodes (values at pixel centres) are read only in the window that covers
``radius`` metres around the datum, and resampled onto a regular ENU grid whose spacing
is the file's at the datum: each ENU node's position taken to the file's CRS by pyproj,
its height bilinear between the four file nodes around it (NaN if one is a hole).
"""
from dataclasses import dataclass
import math
from typing import Callable, Optional, Tuple

import numpy as np

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.physics.environment.seabed import GridSeabed

#: Most nodes read or built (a 5000 x 5000 grid): beyond it a ``radius`` is needed.
MAX_CELLS = 25_000_000


@dataclass
class RasterHeader:
    """What a reader knows of a file before reading values: node geometry, CRS, units."""

    source: str
    #: (rows, cols) of the whole file
    shape: Tuple[int, int]
    #: node (row, col) is at (x0 + col dx, y0 + row dy) in the file's CRS
    x0: float
    dx: float
    y0: float
    dy: float
    #: pyproj.CRS of the file
    crs: object
    #: metres per unit of the values, and +1 for elevations, -1 for depths
    scale: float
    #: read(row0, row1, col0, col1) -> float array, holes NaN (rows row0..row1-1)
    read: Callable[[int, int, int, int], np.ndarray]


@dataclass
class SeabedInfo:
    """What ``uwv-hydro check`` shows of a placed seabed."""

    source: str
    crs: str
    origin: Tuple[float, float]
    file_shape: Tuple[int, int]
    window_shape: Tuple[int, int]
    #: what was read but is not modelled as the file says (shown by ``check``)
    warnings: Tuple[str, ...] = ()


def local_crs(origin):
    """Return the pyproj CRS of the world's east, north: a transverse Mercator on the datum."""
    import pyproj
    lat, lon = origin
    return pyproj.CRS.from_proj4(f'+proj=tmerc +lat_0={lat!r} +lon_0={lon!r} +k=1 +x_0=0 '
                                 '+y_0=0 +ellps=WGS84 +units=m +no_defs')


def _check_origin(origin, source):
    try:
        lat, lon = (float(v) for v in origin)
    except (TypeError, ValueError):
        raise DescriptionError(f'origin {origin!r} is not [latitude, longitude]', source,
                               'seabed origin') from None
    if not (-90.0 < lat < 90.0 and -180.0 <= lon <= 360.0):
        raise DescriptionError(f'origin latitude {lat}, longitude {lon} out of range '
                               '(degrees)', source, 'seabed origin')
    return lat, lon


def _fractional(header, xs, ys):
    """Return fractional (cols, rows) of file CRS points."""
    return (np.asarray(xs) - header.x0) / header.dx, (np.asarray(ys) - header.y0) / header.dy


def _wrap_longitude(header, xs, cols):
    """Shift geographic longitudes by 360 deg where that brings them onto the grid."""
    if not header.crs.is_geographic:
        return xs
    n = header.shape[1]
    for shift in (360.0, -360.0):
        c = (xs + shift - header.x0) / header.dx
        better = ((cols < 0) | (cols > n - 1)) & (c >= 0) & (c <= n - 1)
        xs = np.where(better, xs + shift, xs)
        cols = np.where(better, c, cols)
    return xs


def place(header: RasterHeader, origin, radius: Optional[float] = None):
    """
    Return (GridSeabed in the ENU world, SeabedInfo) of the file around the datum.

    ``radius`` (m): read and build only the square of half-side radius around the datum;
    None: the whole file, refused beyond :data:`MAX_CELLS` nodes.
    """
    import pyproj
    source = header.source
    lat, lon = _check_origin(origin, source)
    rows, cols = header.shape
    if radius is not None and not (math.isfinite(radius) and radius > 0.0):
        raise DescriptionError(f'radius {radius!r} must be a positive number of metres',
                               source, 'seabed radius')
    to_file = pyproj.Transformer.from_crs(local_crs((lat, lon)), header.crs, always_xy=True)
    xs, ys = to_file.transform(np.array([0.0]), np.array([0.0]))
    c, r = _fractional(header, xs, ys)
    xs = _wrap_longitude(header, xs, c)
    c, r = _fractional(header, xs, ys)
    if not (np.isfinite(c[0]) and 0.0 <= c[0] <= cols - 1 and 0.0 <= r[0] <= rows - 1):
        x_end, y_end = header.x0 + (cols - 1) * header.dx, header.y0 + (rows - 1) * header.dy
        raise DescriptionError(
            f'datum latitude {lat}, longitude {lon} ({xs[0]:.6g}, {ys[0]:.6g} in the CRS of '
            f'the file) is outside the grid, x {min(header.x0, x_end):.6g}..'
            f'{max(header.x0, x_end):.6g}, y {min(header.y0, y_end):.6g}..'
            f'{max(header.y0, y_end):.6g}', source, 'seabed origin')
    # the file's spacing at the datum, in metres east and north
    to_local = pyproj.Transformer.from_crs(header.crs, local_crs((lat, lon)), always_xy=True)
    ex, ey = to_local.transform(xs[0] + np.array([0.0, header.dx, 0.0]),
                                ys[0] + np.array([0.0, 0.0, header.dy]))
    step_x = float(math.hypot(ex[1] - ex[0], ey[1] - ey[0]))
    step_y = float(math.hypot(ex[2] - ex[0], ey[2] - ey[0]))
    if radius is None:
        if rows * cols > MAX_CELLS:
            raise DescriptionError(
                f'a grid of {rows} x {cols} nodes asked whole (more than {MAX_CELLS}): '
                'give a radius (m) around the origin to read', source, 'seabed radius')
        row0, row1, col0, col1 = 0, rows, 0, cols
        gx, gy = to_local.transform(
            header.x0 + header.dx * np.array([0, cols - 1, 0, cols - 1]),
            header.y0 + header.dy * np.array([0, 0, rows - 1, rows - 1]))
        x_lo, x_hi, y_lo, y_hi = min(gx), max(gx), min(gy), max(gy)
    else:
        # the square's border in the file's CRS bounds the window to read
        side = np.linspace(-radius, radius, 41)
        bx = np.concatenate((side, side, np.full(41, -radius), np.full(41, radius)))
        by = np.concatenate((np.full(41, -radius), np.full(41, radius), side, side))
        fx, fy = to_file.transform(bx, by)
        fc, fr = _fractional(header, fx, fy)
        fx = _wrap_longitude(header, fx, fc)
        fc, fr = _fractional(header, fx, fy)
        col0 = max(int(math.floor(np.nanmin(fc))) - 1, 0)
        col1 = min(int(math.ceil(np.nanmax(fc))) + 2, cols)
        row0 = max(int(math.floor(np.nanmin(fr))) - 1, 0)
        row1 = min(int(math.ceil(np.nanmax(fr))) + 2, rows)
        if (row1 - row0) * (col1 - col0) > MAX_CELLS:
            raise DescriptionError(
                f'radius {radius} m covers {row1 - row0} x {col1 - col0} nodes of the file '
                f'(more than {MAX_CELLS}): give a smaller radius', source, 'seabed radius')
        x_lo, x_hi, y_lo, y_hi = -radius, radius, -radius, radius
    values = np.asarray(header.read(row0, row1, col0, col1), dtype=float)
    values = values * header.scale
    # ENU nodes on the file's spacing, one on the origin
    ix = np.arange(math.ceil(x_lo / step_x), math.floor(x_hi / step_x) + 1)
    iy = np.arange(math.ceil(y_lo / step_y), math.floor(y_hi / step_y) + 1)
    if len(ix) < 2 or len(iy) < 2 or len(ix) * len(iy) > MAX_CELLS:
        raise DescriptionError(f'the seabed around the origin would be {len(iy)} x {len(ix)} '
                               f'nodes of {step_x:.3g} x {step_y:.3g} m', source, 'seabed')
    gx, gy = np.meshgrid(ix * step_x, iy * step_y)
    fx, fy = to_file.transform(gx.ravel(), gy.ravel())
    fc, fr = _fractional(header, fx, fy)
    fx = _wrap_longitude(header, fx, fc)
    fc, fr = _fractional(header, fx, fy)
    heights = _bilinear(values, fr - row0, fc - col0).reshape(gx.shape)
    grid = GridSeabed(heights, float(ix[0] * step_x), float(iy[0] * step_y), step_x, step_y)
    info = SeabedInfo(source=source, crs=header.crs.to_string(), origin=(lat, lon),
                      file_shape=(rows, cols), window_shape=values.shape)
    return grid, info


def _bilinear(values, r, c):
    """Return values bilinear at fractional (row, col); NaN outside or next to a hole."""
    rows, cols = values.shape
    inside = np.isfinite(r) & np.isfinite(c) & (r >= 0) & (r <= rows - 1) & (c >= 0) & (
        c <= cols - 1)
    r = np.where(inside, r, 0.0)
    c = np.where(inside, c, 0.0)
    i = np.clip(np.floor(c).astype(np.intp), 0, max(cols - 2, 0))
    j = np.clip(np.floor(r).astype(np.intp), 0, max(rows - 2, 0))
    s, t = c - i, r - j
    i1, j1 = np.minimum(i + 1, cols - 1), np.minimum(j + 1, rows - 1)
    # Bilinear interpolation between the four nodes around (r, c)
    z = ((values[j, i] * (1 - s) + values[j, i1] * s) * (1 - t)
         + (values[j1, i] * (1 - s) + values[j1, i1] * s) * t)
    return np.where(inside, z, math.nan)


#: metres per unit of the elevation units files name (international foot 0.3048 m and US
#: survey foot 1200/3937 m by NIST SP 811; fathom 6 ft)
UNITS = {'': 1.0, 'm': 1.0, 'metre': 1.0, 'metres': 1.0, 'meter': 1.0, 'meters': 1.0,
         'ft': 0.3048, 'foot': 0.3048, 'feet': 0.3048, 'us-ft': 1200.0 / 3937.0,
         'us_survey_foot': 1200.0 / 3937.0, 'fathom': 1.8288, 'fathoms': 1.8288}


def unit_scale(units, source: str) -> float:
    """Return metres per unit of ``units`` (none given: metres); else a clear error."""
    key = str(units or '').strip().lower()
    if key not in UNITS:
        raise DescriptionError(f'elevation units {units!r} unknown (known: '
                               f'{", ".join(sorted(k for k in UNITS if k))})', source,
                               'seabed units')
    return UNITS[key]
