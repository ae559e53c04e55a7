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
Seabed files: bathymetry grids people have, placed in the ENU world by a datum.

:func:`load_seabed` reads by the file's extension: ESRI ASCII grid (``.asc``),
GeoTIFF / COG (``.tif``, ``.tiff``), netCDF as GEBCO or GMT write it (``.nc``,
``.grd``), and places it by the geodetic datum (latitude, longitude) of the world
origin (:mod:`uwv_hydro.description.seabed.placement`).
"""
import os

from uwv_hydro.description.errors import DescriptionError, missing_file

#: extension -> module of its reader
FORMATS = {'.asc': 'esri_ascii', '.tif': 'geotiff', '.tiff': 'geotiff', '.nc': 'netcdf',
           '.grd': 'netcdf'}


def load_seabed(path: str, origin, radius=None, crs=None):
    """
    Return (GridSeabed, SeabedInfo) of a bathymetry file placed at ``origin`` (lat, lon).

    ``radius`` (m): read only the square of that half-side around the origin; ``crs``
    (anything pyproj reads) overrides the file's.
    """
    import importlib
    missing_file(path, 'seabed file', 'seabed file')
    ext = os.path.splitext(path)[1].lower()
    if ext not in FORMATS:
        raise DescriptionError(f'unknown seabed file extension {ext!r} (known: '
                               f'{", ".join(sorted(FORMATS))})', path, 'seabed file')
    reader = importlib.import_module('uwv_hydro.description.seabed.' + FORMATS[ext])
    from uwv_hydro.description.seabed.placement import place
    header = reader.read_header(path, crs)
    return place(header, origin, radius)
