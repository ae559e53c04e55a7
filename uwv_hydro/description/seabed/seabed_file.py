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
Naming the seabed: a YAML seabed description, or a bathymetry file with its datum.

The YAML form (a file of its own, as the current description)::

    seabed:
      file: bathymetry.tif      # .asc, .tif/.tiff, .nc/.grd; relative to this file
      origin: [43.1, 5.9]       # latitude, longitude (deg) of the world origin
      radius: 2000.0            # optional: m around the origin to read (large files)
      crs: EPSG:32631           # optional: overrides the file's (an .asc without .prj)

or a flat seabed (no file, no origin)::

    seabed:
      depth: 40.0               # m below the surface (elevation -40)

:func:`seabed_from_options` takes the same from command-line options or node
parameters (``--seabed FILE --seabed-origin LAT,LON``; ``seabed_file``,
``seabed_origin``), FILE being a bathymetry file or such a YAML description.
:func:`seabed_summary` is what ``uwv-hydro check`` shows.
"""
import math
import os

import numpy as np

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.name_checks import closest
from uwv_hydro.description.seabed import load_seabed
from uwv_hydro.description.yaml_safe import load_yaml_text_file, YamlMap
from uwv_hydro.physics.environment.seabed import FlatSeabed

KEYS = ('file', 'origin', 'radius', 'crs', 'depth')


def _line(data, key):
    return data.line_of(key) if isinstance(data, YamlMap) else None


def load_seabed_description(path: str):
    """Return (GridSeabed, SeabedInfo) of a YAML seabed description ((FlatSeabed, None))."""
    doc = load_yaml_text_file(path)
    if not isinstance(doc, dict) or list(doc) != ['seabed'] or not isinstance(
            doc['seabed'], dict):
        raise DescriptionError("expected a mapping with the one key 'seabed', itself a "
                               'mapping', path, line=getattr(doc, 'line', None))
    block = doc['seabed']
    for key in block:
        if key not in KEYS:
            guess = closest(key, KEYS)
            raise DescriptionError('unknown key%s; known: %s' % (
                " (did you mean '%s'?)" % guess if guess else '', ', '.join(KEYS)), path,
                'seabed.%s' % key, _line(block, key))
    if 'depth' in block:
        return _flat(block, path)
    for key in ('file', 'origin'):
        if key not in block:
            raise DescriptionError(f'missing key {key!r}', path, 'seabed', _line(doc, 'seabed'))
    file = block['file']
    if not isinstance(file, str) or not file:
        raise DescriptionError(f'must be a file name, got {file!r}', path, 'seabed.file',
                               _line(block, 'file'))
    origin = block['origin']
    if (not isinstance(origin, list) or len(origin) != 2 or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in origin)):
        raise DescriptionError(f'must be [latitude, longitude] in degrees, got {origin!r}',
                               path, 'seabed.origin', _line(block, 'origin'))
    radius = block.get('radius')
    if radius is not None and (isinstance(radius, bool) or not isinstance(
            radius, (int, float)) or not (math.isfinite(radius) and radius > 0)):
        raise DescriptionError(f'must be a positive number of metres, got {radius!r}', path,
                               'seabed.radius', _line(block, 'radius'))
    file = os.path.join(os.path.dirname(os.path.abspath(path)), os.path.expanduser(file))
    return load_seabed(file, [float(v) for v in origin], radius, block.get('crs'))


def _flat(block, path: str):
    """Return (FlatSeabed, None) of ``seabed: {depth: D}`` (D m below the surface)."""
    others = [key for key in block if key != 'depth']
    if others:
        raise DescriptionError('a flat seabed (depth) takes no %s' % ', '.join(others), path,
                               'seabed.%s' % others[0], _line(block, others[0]))
    depth = block['depth']
    if isinstance(depth, bool) or not isinstance(depth, (int, float)) or not (
            math.isfinite(depth) and depth > 0):
        raise DescriptionError(f'must be a positive number of metres below the surface, '
                               f'got {depth!r}', path, 'seabed.depth', _line(block, 'depth'))
    return FlatSeabed(float(depth)), None


def parse_origin(text: str, element: str = '--seabed-origin'):
    """Return (lat, lon) of 'LAT,LON' (degrees); a clear error naming ``element``."""
    parts = str(text).replace(' ', '').split(',')
    try:
        lat, lon = (float(p) for p in parts)
    except ValueError:
        raise DescriptionError(f'expected LAT,LON in degrees, got {text!r}',
                               element=element) from None
    if not (math.isfinite(lat) and math.isfinite(lon)):
        raise DescriptionError(f'expected finite LAT,LON, got {text!r}', element=element)
    return lat, lon


def seabed_from_options(file: str, origin=None, radius=None, names=('--seabed',
                                                                    '--seabed-origin')):
    """
    Return (GridSeabed, SeabedInfo) of a seabed named by options, or None without ``file``.

    ``file``: a YAML seabed description (its own origin), an SDF world (.sdf, .world: its
    heightmap; ``origin`` optional, else its spherical_coordinates) or a bathymetry
    file, which then needs ``origin`` ('LAT,LON' or a pair).  ``names``: the options'
    names for errors.
    """
    if not file:
        if origin:
            raise DescriptionError(f'{names[1]} without {names[0]}', element=names[1])
        return None
    if os.path.splitext(file)[1].lower() in ('.sdf', '.world'):
        # an SDF world: its heightmap as gz-sim sees it, the datum its spherical_coordinates
        from uwv_hydro.description.sdf.world_seabed import load_world_seabed
        if radius:
            raise DescriptionError(f'the SDF world {file}: its heightmap is read whole (no '
                                   'radius)', element=names[0])
        if isinstance(origin, str):
            origin = parse_origin(origin, names[1])
        return load_world_seabed(file, origin or None)
    if os.path.splitext(file)[1].lower() in ('.yaml', '.yml'):
        if origin:
            raise DescriptionError(f'{names[1]}: the seabed description {file} gives its '
                                   'own origin', element=names[1])
        return load_seabed_description(file)
    if not origin:
        raise DescriptionError(f'the bathymetry file {file} needs {names[1]} LAT,LON (the '
                               'datum of the world origin)', element=names[1])
    if isinstance(origin, str):
        origin = parse_origin(origin, names[1])
    return load_seabed(file, origin, radius)


def seabed_summary(grid, info) -> dict:
    """Return the extent, resolution, depth range, CRS and datum of a placed seabed."""
    if isinstance(grid, FlatSeabed):
        return {'flat_depth': grid.depth}
    heights = grid.heights
    finite = heights[np.isfinite(heights)]
    return {
        'file': info.source, 'crs': info.crs,
        'origin': list(info.origin) if info.origin is not None else None,
        'extent': list(grid.extent),
        'resolution': [grid.dx, grid.dy],
        'nodes': list(grid.shape),
        'file_nodes': list(info.file_shape), 'window_nodes': list(info.window_shape),
        # depth below the surface: the elevation's negative
        'depth_range': ([float(-finite.max()), float(-finite.min())] if finite.size
                        else None),
        'holes': float(1.0 - finite.size / heights.size),
        'warnings': list(getattr(info, 'warnings', ())),
    }


def seabed_lines(s: dict) -> list:
    """Return the text lines of :func:`seabed_summary`."""
    if 'flat_depth' in s:
        return ['seabed:         flat, %.6g m below the surface' % s['flat_depth']]
    x0, x1, y0, y1 = s['extent']
    depth = ('%.6g..%.6g m' % tuple(s['depth_range']) if s['depth_range'] is not None
             else '(all holes)')
    datum = ('datum lat %.8g lon %.8g' % tuple(s['origin']) if s['origin'] is not None
             else 'no datum')
    return ['seabed:         %s (%s), %s' % (s['file'], s['crs'], datum),
            '  extent x %.6g..%.6g m, y %.6g..%.6g m; resolution %.4g x %.4g m; %d x %d '
            'nodes (file %d x %d, window read %d x %d)' % (
                x0, x1, y0, y1, *s['resolution'], *s['nodes'], *s['file_nodes'],
                *s['window_nodes']),
            '  depth %s; holes %.1f%% of the nodes' % (depth, 100.0 * s['holes'])] + [
                '  warning: ' + w for w in s.get('warnings', ())]
