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
Seabed files written here with a known CRS, placed by a datum, against pyproj's transforms.

The files hold a surface that is linear in the file's own coordinates, h = a + b X + c Y,
which bilinear interpolation between the file's nodes reproduces exactly; each ENU node
(e, n) of the placed grid is taken back to (X, Y) independently, by an azimuthal
equidistant projection on the datum (pyproj), and h(X, Y) compared.  That projection and
the transverse Mercator of the placement differ by under d^3 / R^2 ~ 2e-4 m at d = 2 km
from the datum; with slopes under 0.05 the heights agree to 1e-3 m.
"""
import math

import numpy as np
import pytest

from required_modules import require
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.seabed import load_seabed

# pinned in requirements.txt: missing there, a failure; elsewhere a skip that says why
pyproj = require('pyproj')
rasterio = require('rasterio')
Affine = require('rasterio.transform').Affine
xarray = require('xarray')
require('netCDF4')

ORIGIN = (43.1, 5.9)  # off Toulon
#: heights agree to (see the module docstring)
TOL = 1e-3


def _aeqd_to(crs):
    aeqd = pyproj.CRS.from_proj4(f'+proj=aeqd +lat_0={ORIGIN[0]} +lon_0={ORIGIN[1]} '
                                 '+ellps=WGS84 +units=m')
    return pyproj.Transformer.from_crs(aeqd, crs, always_xy=True)


def _check_placement(grid, crs, surface, holes_ok=False):
    ny, nx = grid.shape
    e = grid.x0 + grid.dx * np.arange(nx)
    n = grid.y0 + grid.dy * np.arange(ny)
    ee, nn = np.meshgrid(e, n)
    fx, fy = _aeqd_to(crs).transform(ee.ravel(), nn.ravel())
    expected = surface(np.asarray(fx), np.asarray(fy)).reshape(ee.shape)
    got = grid.heights
    finite = np.isfinite(got)
    assert holes_ok or finite.all()
    assert np.abs(got[finite] - expected[finite]).max() <= TOL
    return finite


def _geographic_surface(lon, lat):
    # 0.05 m/m northwards is 0.05 * 111 km per degree
    return -80.0 + 2000.0 * (lat - ORIGIN[0]) - 1500.0 * (lon - ORIGIN[1])


def _write_geotiff(path, crs, x_left, y_top, step, shape, surface, nodata=None, units=None,
                   holes=None):
    rows, cols = shape
    x = x_left + step * (np.arange(cols) + 0.5)
    y = y_top - step * (np.arange(rows) + 0.5)
    xx, yy = np.meshgrid(x, y)
    data = surface(xx, yy).astype(np.float32)
    if holes is not None:
        data[holes] = nodata
    with rasterio.open(path, 'w', driver='GTiff', height=rows, width=cols, count=1,
                       dtype='float32', crs=crs,
                       transform=Affine(step, 0.0, x_left, 0.0, -step, y_top),
                       nodata=nodata) as dst:
        dst.write(data, 1)
        if units:
            dst.units = (units,)


def test_geotiff_in_geographic_coordinates(tmp_path):
    path = str(tmp_path / 'bathy.tif')
    step = 1.0 / 240  # 15 arc seconds, GEBCO's spacing
    holes = (slice(118, 121), slice(121, 124))
    _write_geotiff(path, 'EPSG:4326', ORIGIN[1] - 0.5, ORIGIN[0] + 0.5, step, (240, 240),
                   _geographic_surface, nodata=-32767.0, holes=holes)
    grid, info = load_seabed(path, ORIGIN, radius=2000.0)
    finite = _check_placement(grid, pyproj.CRS.from_epsg(4326),
                              lambda x, y: _geographic_surface(x, y), holes_ok=True)
    # the holes are where the nodata pixels are: 3 x 3 pixels east of the datum
    assert not finite.all()
    e = grid.x0 + grid.dx * np.nonzero(~finite)[1]
    n = grid.y0 + grid.dy * np.nonzero(~finite)[0]
    lon, lat = _aeqd_to(pyproj.CRS.from_epsg(4326)).transform(e, n)
    top = ORIGIN[0] + 0.5
    assert np.all((np.asarray(lat) < top - 117 * step) & (np.asarray(lat) > top - 122 * step))
    assert np.all((np.asarray(lon) > ORIGIN[1] - 0.5 + 120 * step))
    # spacing: the file's 15" in metres at the datum, a window not the whole file
    assert grid.dy == pytest.approx(111_000 * step, rel=0.01)
    assert grid.dx == pytest.approx(111_000 * step * math.cos(math.radians(ORIGIN[0])),
                                    rel=0.01)
    assert info.window_shape[0] * info.window_shape[1] < 0.05 * 240 * 240
    x_min, x_max, y_min, y_max = grid.extent
    assert x_min <= grid.dx - 2000 and x_max >= 2000 - grid.dx
    assert y_min <= grid.dy - 2000 and y_max >= 2000 - grid.dy


def test_geotiff_in_utm_with_units(tmp_path):
    path = str(tmp_path / 'utm.tif')
    utm = pyproj.CRS.from_epsg(32631)
    to_utm = pyproj.Transformer.from_crs(4326, utm, always_xy=True)
    x0, y0 = to_utm.transform(ORIGIN[1], ORIGIN[0])

    def surface_ft(x, y):
        return (-300.0 + 0.03 * (x - x0) + 0.02 * (y - y0))

    _write_geotiff(path, 'EPSG:32631', x0 - 3000, y0 + 3000, 25.0, (240, 240), surface_ft,
                   units='ft')
    grid, _ = load_seabed(path, ORIGIN, radius=1500.0)
    _check_placement(grid, utm, lambda x, y: 0.3048 * surface_ft(x, y))
    # grid convergence: the UTM grid is turned from true north, the spacing still 25 m
    assert grid.dx == pytest.approx(25.0, rel=1e-3) and grid.dy == pytest.approx(25.0, rel=1e-3)


def _write_gebco(path, lat, lon, surface, fill=None, dtype='f4', units='m', positive=None,
                 names=('lat', 'lon', 'elevation')):
    yy, xx = np.meshgrid(lat, lon, indexing='ij')
    values = surface(xx, yy)
    if positive == 'down':
        values = -values
    y_name, x_name, z_name = names
    attrs = {'units': units}
    if positive:
        attrs['positive'] = positive
    ds = xarray.Dataset({z_name: ((y_name, x_name), values, attrs)},
                        coords={y_name: (y_name, lat, {'units': 'degrees_north'}),
                                x_name: (x_name, lon, {'units': 'degrees_east'})})
    encoding = {z_name: {'dtype': dtype}}
    if fill is not None:
        encoding[z_name]['_FillValue'] = fill
    ds.to_netcdf(path, encoding=encoding)


@pytest.mark.parametrize('style', ['gebco', 'gmt', 'depth'])
def test_netcdf_gebco_and_gmt(tmp_path, style):
    path = str(tmp_path / 'grid.nc')
    step = 1.0 / 240
    lat = ORIGIN[0] - 0.3 + step * np.arange(150)
    lon = ORIGIN[1] - 0.3 + step * np.arange(160)
    names = ('y', 'x', 'z') if style == 'gmt' else ('lat', 'lon', 'elevation')
    _write_gebco(path, lat, lon, _geographic_surface, names=names,
                 positive='down' if style == 'depth' else None)
    grid, info = load_seabed(path, ORIGIN, radius=2000.0)
    _check_placement(grid, pyproj.CRS.from_epsg(4326), _geographic_surface)
    assert info.file_shape == (150, 160)
    assert grid.elevation(0.0, 0.0) == pytest.approx(-80.0, abs=TOL)


def test_netcdf_fill_values_are_holes(tmp_path):
    path = str(tmp_path / 'gebco.nc')
    step = 1.0 / 240
    lat = ORIGIN[0] - 0.1 + step * np.arange(48)
    lon = ORIGIN[1] - 0.1 + step * np.arange(48)

    def with_hole(x, y):
        h = np.round(_geographic_surface(x, y))
        h[(np.abs(y - ORIGIN[0]) < 1.5 * step) & (np.abs(x - ORIGIN[1] - 0.05) < 1.5 * step)] \
            = -32767
        return h

    _write_gebco(path, lat, lon, with_hole, fill=np.int16(-32767), dtype='i2')
    grid, _ = load_seabed(path, ORIGIN)  # whole: small enough
    assert np.isnan(grid.heights).any()
    lon_hole = ORIGIN[1] + 0.05
    e_hole = pyproj.Geod(ellps='WGS84').inv(ORIGIN[1], ORIGIN[0], lon_hole, ORIGIN[0])[2]
    assert math.isnan(grid.elevation(e_hole, 0.0))
    assert grid.elevation(0.0, 0.0) == pytest.approx(-80.0, abs=0.5)  # int16 metres


def test_esri_ascii_with_its_prj(tmp_path):
    utm = pyproj.CRS.from_epsg(32631)
    to_utm = pyproj.Transformer.from_crs(4326, utm, always_xy=True)
    x0, y0 = to_utm.transform(ORIGIN[1], ORIGIN[0])
    xll, yll, cell, rows, cols = x0 - 1000.0, y0 - 800.0, 20.0, 90, 100

    def surface(x, y):
        return -50.0 - 0.04 * (x - x0) + 0.01 * (y - y0)

    xc = xll + cell * (np.arange(cols) + 0.5)
    yc = yll + cell * (rows - 1 - np.arange(rows) + 0.5)  # first row is the north one
    values = surface(*np.meshgrid(xc, yc))
    values[0, 0] = -9999.0
    path = tmp_path / 'survey.asc'
    with open(path, 'w') as out:
        out.write(f'ncols {cols}\nnrows {rows}\nxllcorner {xll}\nyllcorner {yll}\n'
                  f'cellsize {cell}\nNODATA_value -9999\n')
        for row in values:
            out.write(' '.join(f'{v:.6f}' for v in row) + '\n')
    with pytest.raises(DescriptionError, match='no CRS.*survey.prj'):
        load_seabed(str(path), ORIGIN)
    (tmp_path / 'survey.prj').write_text(utm.to_wkt(version='WKT1_ESRI'))
    grid, _ = load_seabed(str(path), ORIGIN, radius=600.0)
    _check_placement(grid, utm, surface)
    whole, info = load_seabed(str(path), ORIGIN)
    assert info.window_shape == (rows, cols)
    assert np.isnan(whole.heights).any()  # the nodata corner


def test_clear_errors_name_the_file(tmp_path):
    bad = tmp_path / 'garbage.tif'
    bad.write_bytes(b'not a tiff at all')
    with pytest.raises(DescriptionError, match='garbage.tif.*cannot read'):
        load_seabed(str(bad), ORIGIN)
    bad_nc = tmp_path / 'garbage.nc'
    bad_nc.write_bytes(b'\x00' * 64)
    with pytest.raises(DescriptionError, match='garbage.nc.*cannot read'):
        load_seabed(str(bad_nc), ORIGIN)
    # a GeoTIFF without a CRS
    no_crs = str(tmp_path / 'nocrs.tif')
    _write_geotiff(no_crs, None, 0.0, 100.0, 1.0, (10, 10), lambda x, y: x * 0 - 5.0)
    with pytest.raises(DescriptionError, match='nocrs.tif.*no CRS'):
        load_seabed(no_crs, ORIGIN)
    # datum outside the grid
    far = str(tmp_path / 'far.tif')
    _write_geotiff(far, 'EPSG:4326', 10.0, 50.0, 0.01, (20, 20), lambda x, y: x * 0 - 5.0)
    with pytest.raises(DescriptionError, match='far.tif.*outside the grid'):
        load_seabed(far, ORIGIN)
    # unknown units
    feet = str(tmp_path / 'furlong.tif')
    _write_geotiff(feet, 'EPSG:4326', 5.0, 44.0, 0.01, (200, 200), lambda x, y: x * 0 - 5.0,
                   units='furlong')
    with pytest.raises(DescriptionError, match='furlong.tif.*units .furlong. unknown'):
        load_seabed(feet, ORIGIN)
    with pytest.raises(DescriptionError, match='no such file'):
        load_seabed(str(tmp_path / 'absent.nc'), ORIGIN)


def test_a_huge_grid_is_refused_whole_and_read_by_window(tmp_path):
    # 1e6 x 1e6 nodes of 1 m declared; the ESRI header alone is enough to refuse it whole
    path = tmp_path / 'huge.asc'
    path.write_text('ncols 1000000\nnrows 1000000\nxllcorner 0\nyllcorner 0\ncellsize 1\n')
    (tmp_path / 'huge.prj').write_text(pyproj.CRS.from_epsg(32631).to_wkt())
    lat_lon = pyproj.Transformer.from_crs(32631, 4326, always_xy=True).transform(5e5, 5e5)
    origin = (lat_lon[1], lat_lon[0])
    with pytest.raises(DescriptionError, match=r'huge.asc.*1000000 x 1000000 nodes asked '
                                               'whole'):
        load_seabed(str(path), origin)
    # a netCDF of 1e6 x 1e6 chunked nodes never written: read by window, all holes
    nc = str(tmp_path / 'huge.nc')
    import netCDF4
    with netCDF4.Dataset(nc, 'w') as ds:
        ds.createDimension('lat', 1_000_000)
        ds.createDimension('lon', 1_000_000)
        lat = ds.createVariable('lat', 'f8', ('lat',))
        lon = ds.createVariable('lon', 'f8', ('lon',))
        lat.units, lon.units = 'degrees_north', 'degrees_east'
        lat[:] = 40.0 + 1e-5 * np.arange(1_000_000)
        lon[:] = 3.0 + 1e-5 * np.arange(1_000_000)
        z = ds.createVariable('elevation', 'f4', ('lat', 'lon'), chunksizes=(256, 256),
                              fill_value=np.float32(-32767))
        z.units = 'm'
        z[300_000:300_512, 290_000:290_512] = np.full((512, 512), -42.0, np.float32)
    with pytest.raises(DescriptionError, match=r'huge.nc.*1000000 x 1000000 nodes'):
        load_seabed(nc, ORIGIN)
    grid, info = load_seabed(nc, (40.0 + 3.00256, 3.0 + 2.90256), radius=100.0)
    assert info.file_shape == (1_000_000, 1_000_000)
    assert grid.elevation(0.0, 0.0) == pytest.approx(-42.0, abs=1e-6)
    assert np.nanmax(np.abs(grid.heights + 42.0)) < 1e-4


def test_unknown_crs_and_longitudes_from_0_to_360(tmp_path):
    path = tmp_path / 'odd.asc'
    path.write_text('ncols 3\nnrows 3\nxllcorner 0\nyllcorner 0\ncellsize 1\n'
                    + '-5 -5 -5\n' * 3)
    (tmp_path / 'odd.prj').write_text('PROJCS["made up", nonsense]')
    with pytest.raises(DescriptionError, match='odd.asc: seabed crs: unknown CRS'):
        load_seabed(str(path), ORIGIN)
    # a grid in 0..360 degrees east holds a datum given at -5 deg (355 deg east)
    step = 1.0 / 240
    lat = 50.0 - 0.1 + step * np.arange(48)
    lon = 355.0 - 0.1 + step * np.arange(48)
    nc = str(tmp_path / 'east.nc')

    def surface(x, y):
        return -60.0 + 500.0 * (y - 50.0) + 300.0 * (x - 355.0)

    _write_gebco(nc, lat, lon, surface)
    grid, _ = load_seabed(nc, (50.0, -5.0), radius=1000.0)
    assert grid.elevation(0.0, 0.0) == pytest.approx(-60.0, abs=TOL)
    # 1 km north: 500 m per degree of latitude over 111.2 km per degree
    north = pyproj.Geod(ellps='WGS84').fwd(-5.0, 50.0, 0.0, 900.0)[1]
    assert grid.elevation(0.0, 900.0) == pytest.approx(-60.0 + 500.0 * (north - 50.0),
                                                       abs=1e-2)
