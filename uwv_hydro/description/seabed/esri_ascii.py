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
ESRI ASCII grid (.asc): a plain-text header, then the rows from north to south.

Header keys (ESRI's ASCII raster format, as GDAL's AAIGrid driver reads it): ``ncols``,
``nrows``, ``xllcorner`` or ``xllcenter``, ``yllcorner`` or ``yllcenter``,
``cellsize`` (or ``dx`` and ``dy``), optional ``nodata_value``.  The format carries no
CRS: it is the ``.prj`` file beside the grid (ESRI WKT), or the one given.  Values in
metres, elevation positive up.  Only the rows of the window are parsed.
"""
import math
import os

import numpy as np

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.seabed.placement import RasterHeader

_KEYS = ('ncols', 'nrows', 'xllcorner', 'xllcenter', 'yllcorner', 'yllcenter', 'cellsize',
         'dx', 'dy', 'nodata_value')


def _header(path):
    """Return (header dict, the line number of the first data row)."""
    values = {}
    try:
        with open(path, encoding='ascii') as stream:
            for number, line in enumerate(stream, 1):
                parts = line.split()
                if not parts:
                    continue
                key = parts[0].lower()
                if key not in _KEYS:
                    return values, number
                if len(parts) != 2:
                    raise DescriptionError(f'header line {line.strip()!r}: expected a key '
                                           'and one value', path, 'ESRI ASCII grid', number)
                try:
                    values[key] = float(parts[1])
                except ValueError:
                    raise DescriptionError(f'{key} = {parts[1]!r} is not a number', path,
                                           'ESRI ASCII grid', number) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DescriptionError(f'cannot read as an ESRI ASCII grid: {exc}', path,
                               'seabed file') from None
    return values, None


def read_header(path: str, crs=None) -> RasterHeader:
    """Return the RasterHeader of an ESRI ASCII grid; ``crs`` overrides the .prj."""
    import pyproj
    values, first = _header(path)
    for key in ('ncols', 'nrows'):
        if key not in values:
            raise DescriptionError(f'no {key} in the header: not an ESRI ASCII grid', path,
                                   'seabed file')
    cols, rows = int(values['ncols']), int(values['nrows'])
    if cols < 2 or rows < 2 or cols != values['ncols'] or rows != values['nrows']:
        raise DescriptionError(f'ncols {values["ncols"]}, nrows {values["nrows"]}: need '
                               'whole numbers >= 2', path, 'ESRI ASCII grid')
    dx = values.get('dx', values.get('cellsize'))
    dy = values.get('dy', values.get('cellsize'))
    if dx is None or dy is None or not (dx > 0 and dy > 0):
        raise DescriptionError('no positive cellsize (or dx, dy) in the header', path,
                               'ESRI ASCII grid')
    # xllcorner: the lower-left corner of the lower-left cell, its centre half a cell in
    x0 = values.get('xllcenter', values.get('xllcorner', math.nan) + dx / 2)
    y_low = values.get('yllcenter', values.get('yllcorner', math.nan) + dy / 2)
    if not (math.isfinite(x0) and math.isfinite(y_low)):
        raise DescriptionError('no xllcorner/xllcenter or yllcorner/yllcenter', path,
                               'ESRI ASCII grid')
    if crs is None:
        prj = os.path.splitext(path)[0] + '.prj'
        if not os.path.isfile(prj):
            raise DescriptionError(f'no CRS: an ESRI ASCII grid has none, and there is no '
                                   f'{os.path.basename(prj)} beside it (or give the CRS)',
                                   path, 'seabed crs')
        with open(prj, encoding='utf-8', errors='replace') as stream:
            crs = stream.read()
    try:
        crs = pyproj.CRS.from_user_input(crs)
    except pyproj.exceptions.CRSError as exc:
        raise DescriptionError(f'unknown CRS: {exc}', path, 'seabed crs') from None
    nodata = values.get('nodata_value')

    def read(row0, row1, col0, col1):
        # file rows run north to south: node row k (south to north) is file row rows-1-k
        first_file, last_file = rows - row1, rows - 1 - row0
        out = np.empty((row1 - row0, col1 - col0))
        k = -1
        with open(path, encoding='ascii') as stream:
            for number, line in enumerate(stream, 1):
                k = number - first
                if k < first_file:
                    continue
                if k > last_file:
                    break
                parts = line.split()
                if len(parts) != cols:
                    raise DescriptionError(f'row of {len(parts)} values, ncols is {cols}',
                                           path, 'ESRI ASCII grid', number)
                try:
                    row = np.array(parts[col0:col1], dtype=float)
                except ValueError as exc:
                    raise DescriptionError(f'not a number: {exc}', path, 'ESRI ASCII grid',
                                           number) from None
                out[last_file - k] = row
            else:
                if k < last_file:
                    raise DescriptionError(f'{k + 1} data rows, nrows is {rows}', path,
                                           'ESRI ASCII grid')
        if nodata is not None:
            out[out == nodata] = math.nan
        return out

    if first is None:
        first = 10 ** 9  # no data lines: read() reports the missing rows
    return RasterHeader(source=path, shape=(rows, cols), x0=x0, dx=dx,
                        y0=y_low, dy=dy, crs=crs, scale=1.0, read=read)
