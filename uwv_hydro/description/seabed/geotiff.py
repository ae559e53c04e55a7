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
GeoTIFF and Cloud Optimized GeoTIFF (.tif, .tiff) bathymetry, read with rasterio (GDAL).

Band 1 holds the elevations; the CRS, the geotransform (north-up, not rotated), the
nodata value (holes), the band's scale and offset and its units are the file's.  GDAL
gives the geotransform of the pixel corners also for PixelIsPoint files, so node
(row, col) is the centre of pixel (row, col).  Only the window is read (a COG reads only
the tiles it needs).
"""
import math

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.seabed.placement import RasterHeader, unit_scale


def read_header(path: str, crs=None) -> RasterHeader:
    """Return the RasterHeader of a GeoTIFF; ``crs`` overrides a missing or wrong one."""
    import pyproj
    import rasterio
    from rasterio.windows import Window
    try:
        with rasterio.open(path) as src:
            transform, shape = src.transform, (src.height, src.width)
            file_crs = src.crs
            units = src.units[0] if src.units else ''
            band_scale = src.scales[0] if src.scales else 1.0
            band_offset = src.offsets[0] if src.offsets else 0.0
    except rasterio.errors.RasterioIOError as exc:
        raise DescriptionError(f'cannot read as a GeoTIFF: {exc}', path,
                               'seabed file') from None
    if crs is None:
        if file_crs is None:
            raise DescriptionError('no CRS in the GeoTIFF (give the CRS)', path, 'seabed crs')
        crs = file_crs.to_wkt()
    try:
        crs = pyproj.CRS.from_user_input(crs)
    except pyproj.exceptions.CRSError as exc:
        raise DescriptionError(f'unknown CRS: {exc}', path, 'seabed crs') from None
    if transform.b != 0.0 or transform.d != 0.0:
        raise DescriptionError(f'a rotated geotransform {tuple(transform)[:6]} (only '
                               'north-up grids)', path, 'seabed file')
    if shape[0] < 2 or shape[1] < 2:
        raise DescriptionError(f'{shape[0]} x {shape[1]} pixels: need 2 x 2 at least', path,
                               'seabed file')
    scale = unit_scale(units, path)

    def read(row0, row1, col0, col1):
        with rasterio.open(path) as src:
            data = src.read(1, window=Window(col0, row0, col1 - col0, row1 - row0),
                            masked=True)
        values = data.astype(float).filled(math.nan)
        # GDAL band scale and offset: value = raw * scale + offset
        return values * band_scale + band_offset

    return RasterHeader(source=path, shape=shape, x0=transform.c + transform.a / 2,
                        dx=transform.a, y0=transform.f + transform.e / 2, dy=transform.e,
                        crs=crs, scale=scale, read=read)
