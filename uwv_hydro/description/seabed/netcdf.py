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
netCDF bathymetry as GEBCO and GMT write it (.nc, .grd), read with xarray (netCDF4).

GEBCO: ``elevation(lat, lon)``, metres, positive up; GMT: ``z(y, x)`` (or ``lat``,
``lon``).  The elevation variable is ``elevation``, ``z``, ``Band1`` or ``depth``, or
else the only 2-D variable.  Coordinates are the node positions (pixel centres) and
must be evenly spaced.  CRS: the CF ``grid_mapping`` variable's ``crs_wkt`` or
``spatial_ref``; else geographic WGS-84 when the coordinates are in degrees
(``degrees_north``/``degrees_east``, or named lat/lon); else an error.  ``_FillValue``
and ``missing_value`` are holes, ``scale_factor`` and ``add_offset`` applied (CF
conventions, sec. 2.5 and 8.1); ``units`` and ``positive`` (``down``: depths) from the
variable.  Only the window is read from the file.
"""
import numpy as np

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.seabed.placement import RasterHeader, unit_scale

_NAMES = ('elevation', 'z', 'Band1', 'depth')
_LAT, _LON = ('lat', 'latitude', 'y'), ('lon', 'longitude', 'x')


def _axis(ds, name, path):
    values = np.asarray(ds[name].values, dtype=float)
    if values.ndim != 1 or len(values) < 2:
        raise DescriptionError(f'coordinate {name} has {values.size} values, need >= 2', path,
                               'seabed file')
    step = np.diff(values)
    if not (np.all(step != 0.0) and np.allclose(step, step[0], rtol=1e-6, atol=0.0)):
        raise DescriptionError(f'coordinate {name} is not evenly spaced', path, 'seabed file')
    return values


def _variable(ds, path):
    for name in _NAMES:
        if name in ds.data_vars and ds[name].ndim == 2:
            return ds[name]
    grids = [v for v in ds.data_vars.values() if v.ndim == 2]
    if len(grids) != 1:
        raise DescriptionError(f'no elevation variable (one of {", ".join(_NAMES)}, or a '
                               f'single 2-D variable; found {sorted(ds.data_vars)})', path,
                               'seabed file')
    return grids[0]


def _crs(ds, var, y_name, x_name, path):
    import pyproj
    mapping = var.attrs.get('grid_mapping') or var.encoding.get('grid_mapping')
    if mapping and mapping in ds.variables:
        attrs = ds[mapping].attrs
        wkt = attrs.get('crs_wkt') or attrs.get('spatial_ref')
        if wkt:
            try:
                return pyproj.CRS.from_user_input(wkt)
            except pyproj.exceptions.CRSError as exc:
                raise DescriptionError(f'unknown CRS in {mapping}: {exc}', path,
                                       'seabed crs') from None
        try:
            return pyproj.CRS.from_cf(dict(attrs))
        except pyproj.exceptions.CRSError as exc:
            raise DescriptionError(f'unknown CRS in {mapping}: {exc}', path,
                                   'seabed crs') from None
    y_units = str(ds[y_name].attrs.get('units', '')).lower()
    x_units = str(ds[x_name].attrs.get('units', '')).lower()
    if (y_units.startswith('degree') and x_units.startswith('degree')) or (
            y_name in ('lat', 'latitude') and x_name in ('lon', 'longitude')):
        return pyproj.CRS.from_epsg(4326)
    raise DescriptionError(f'no CRS: no grid_mapping and {y_name}, {x_name} not in degrees '
                           '(give the CRS)', path, 'seabed crs')


def read_header(path: str, crs=None) -> RasterHeader:
    """Return the RasterHeader of a GEBCO or GMT netCDF grid; ``crs`` overrides the file's."""
    import netCDF4  # noqa: F401  the engine xarray reads with, named so its absence is clear
    import pyproj
    import xarray
    try:
        ds = xarray.open_dataset(path, engine='netcdf4', mask_and_scale=True,
                                 decode_times=False)
    except (OSError, ValueError) as exc:
        raise DescriptionError(f'cannot read as netCDF: {exc}', path, 'seabed file') from None
    var = _variable(ds, path)
    dims = var.dims
    y_name = next((d for d in dims if d.lower() in _LAT), None)
    x_name = next((d for d in dims if d.lower() in _LON), None)
    if y_name is None or x_name is None or y_name not in ds or x_name not in ds:
        raise DescriptionError(f'{var.name}{dims}: need dimensions lat/y and lon/x with '
                               'coordinates', path, 'seabed file')
    ys, xs = _axis(ds, y_name, path), _axis(ds, x_name, path)
    if crs is None:
        crs = _crs(ds, var, y_name, x_name, path)
    else:
        try:
            crs = pyproj.CRS.from_user_input(crs)
        except pyproj.exceptions.CRSError as exc:
            raise DescriptionError(f'unknown CRS: {exc}', path, 'seabed crs') from None
    scale = unit_scale(var.attrs.get('units', ''), path)
    positive = str(var.attrs.get('positive', 'up')).lower()
    if positive not in ('up', 'down'):
        raise DescriptionError(f'positive = {positive!r} (up or down)', path, 'seabed units')
    sign = -1.0 if positive == 'down' else 1.0

    def read(row0, row1, col0, col1):
        part = var.isel({y_name: slice(row0, row1), x_name: slice(col0, col1)})
        return np.asarray(part.transpose(y_name, x_name).values, dtype=float)

    return RasterHeader(source=path, shape=(len(ys), len(xs)), x0=float(xs[0]),
                        dx=float(xs[1] - xs[0]), y0=float(ys[0]), dy=float(ys[1] - ys[0]),
                        crs=crs, scale=scale * sign, read=read)
