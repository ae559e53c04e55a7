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
The seabed of an SDF world (.sdf, .world): its ``<heightmap>`` collision, as gz-sim sees it.

The world's includes are resolved (:mod:`uwv_hydro.description.sdf.include`); the one
``<collision>`` whose geometry is a ``<heightmap>`` becomes a GridSeabed in the world
frame, its nodes and heights as gz-sim's physics builds them
(:mod:`uwv_hydro.description.sdf.heightmap`), placed by the model, link and collision
poses.  What gz-sim does differently from what the file says is a warning:

* ``<pos>`` moves only the visual: the physics ignores it (gz-sim Physics.cc passes
  ``<size>`` and the collision pose only; gz-sim#1054 gave it to the renderer,
  gz-sim#1295): this seabed is the contact's, without ``<pos>``;
* a DEM is placed by ``<size>`` and the collision pose, never by its georeference nor
  the world's ``<spherical_coordinates>`` (gz-common Dem.cc uses them only for
  WorldWidth/WorldHeight, which gz-sim does not read): the warning gives how far the
  nodes lie from where the datum puts them (pyproj, the transverse Mercator of
  :func:`uwv_hydro.description.seabed.placement.local_crs`);
* without ``<size>`` gz-sim uses sdformat's default 1 1 1 also for a DEM (the spec's
  "true size of DEM" is not implemented: Heightmap.cc keeps the default, Physics.cc
  passes it): the warning gives the DEM's true extent to write.

The datum (latitude, longitude of the world origin) is the ``origin`` given, else the
world's ``<spherical_coordinates>``; an image heightmap needs none.  Several heightmap
collisions, a rotated one, or none are errors; ``<plane>`` collisions (a ground plane
the engine also collides with) are warned about.
"""
import math
import os
from typing import List, Optional

import numpy as np

from uwv_hydro.description.errors import DescriptionError, missing_file
from uwv_hydro.description.sdf.frames import compose, flatten_model, read_pose
from uwv_hydro.description.sdf.heightmap import (
    node_heights, node_spacing, read_heightmap_data)
from uwv_hydro.description.sdf.include import expand_includes, resource_directories
from uwv_hydro.description.seabed.placement import local_crs, MAX_CELLS, SeabedInfo
from uwv_hydro.description.xml_safe import (element_error, element_numbers, element_path,
                                            parse_xml_file)
from uwv_hydro.physics.environment.seabed import GridSeabed

#: extensions read as an SDF world
WORLD_EXTENSIONS = ('.sdf', '.world')


def _here(elem, source):
    return getattr(elem, 'source', None) or source


def heightmap_file(uri: str, elem, source: str) -> str:
    """Return the file a heightmap ``<uri>`` names, as gz-sim's asFullPath and findFile."""
    if uri.startswith(('http://', 'https://')):
        raise element_error(f'heightmap {uri!r} is a URL: download it and give its local '
                            'path', source, elem)
    here = _here(elem, source)
    base = os.path.dirname(os.path.abspath(here))
    if uri.startswith('model://'):
        rest = uri[len('model://'):]
        candidates = [os.path.join(d, rest) for d in resource_directories()]
    else:
        rest = uri[len('file://'):] if uri.startswith('file://') else uri
        candidates = [rest] if os.path.isabs(rest) else [os.path.join(base, rest)] + [
            os.path.join(d, rest) for d in resource_directories()]
    for candidate in candidates:
        if os.path.isfile(candidate):
            return candidate
    raise element_error(f'heightmap file {uri!r} not found; searched: '
                        f'{", ".join(candidates) or "nothing (no GZ_SIM_RESOURCE_PATH)"}',
                        here, elem)


def spherical_datum(world, source: str):
    """Return ((lat, lon) or None, surface model) of ``<spherical_coordinates>``."""
    sc = world.find('spherical_coordinates')
    if sc is None:
        return None, None
    values = {}
    for key in ('latitude_deg', 'longitude_deg', 'heading_deg'):
        e = sc.find(key)
        values[key] = float(element_numbers(e, (1,), source)[0]) if e is not None else 0.0
    surface = (sc.findtext('surface_model') or 'EARTH_WGS84').strip()
    return (values['latitude_deg'], values['longitude_deg']), (surface, values['heading_deg'])


def _collisions(world, source):
    """Yield (model, link name, collision, X_WC) of every collision of the world."""
    for model in world.findall('model'):
        if getattr(model, 'unresolved', None) is not None:
            continue
        pose_elem = model.find('pose')
        if pose_elem is not None and pose_elem.get('relative_to', 'world') != 'world':
            raise element_error('a model pose relative_to another frame is not read here',
                                source, pose_elem)
        x_wm = read_pose(pose_elem, _here(model, source))
        flat = flatten_model(model, _here(model, source))
        for name, link in flat.links.items():
            for collision in link.findall('collision'):
                x_mc = compose(flat.pose(name),
                               flat.pose_in_link(collision.find('pose'), name))
                yield model, name, collision, compose(x_wm, x_mc)


def _number_vector(elem, default, source, what):
    if elem is None:
        return np.array(default, dtype=float)
    values = element_numbers(elem, (len(default),), _here(elem, source))
    return values


def _apply(t, col, row):
    """Return the file CRS coordinates of pixel coordinates (GDAL geotransform)."""
    # x = c + a col + b row, y = f + d col + e row (GDAL data model, geotransform)
    return t.c + t.a * col + t.b * row, t.f + t.d * col + t.e * row


def _dem_truth(data, datum, x0, y_top, dx, dy):
    """Return (max distance (m) of gz's nodes from the datum's, true extent (m) x, y)."""
    import pyproj
    transform, crs, (rows, cols), (dest_h, dest_w) = data.georef
    step = max(1, int(math.ceil(max(dest_h, dest_w) / 257)))
    r = np.arange(0, dest_h, step)
    c = np.arange(0, dest_w, step)
    r = np.unique(np.append(r, dest_h - 1))
    c = np.unique(np.append(c, dest_w - 1))
    cc, rr = np.meshgrid(c, r)
    # the source pixel a node was taken from (GDAL nearest: its centre), in the file's CRS
    px = (cc + 0.5) * (cols / dest_w)
    py = (rr + 0.5) * (rows / dest_h)
    fx, fy = _apply(transform, px, py)
    to_local = pyproj.Transformer.from_crs(pyproj.CRS.from_user_input(crs),
                                           local_crs(datum), always_xy=True)
    ex, ny = to_local.transform(fx.ravel(), fy.ravel())
    # gz's node (r, c): x0 + c dx, y_top - r dy (row 0 at +y)
    gx, gy = x0 + cc.ravel() * dx, y_top - rr.ravel() * dy
    dist = float(np.nanmax(np.hypot(ex - gx, ny - gy)))
    # the file's extent at its middle row and column, edge to edge, in metres
    mid_r, mid_c = rows / 2.0, cols / 2.0
    ax, ay = _apply(transform, np.array([0.0, cols, mid_c, mid_c]),
                    np.array([mid_r, mid_r, 0.0, rows]))
    lx, ly = to_local.transform(ax, ay)
    width = math.hypot(lx[1] - lx[0], ly[1] - ly[0])
    return dist, width, math.hypot(lx[3] - lx[2], ly[3] - ly[2])


def _heightmap_seabed(path, model, link, collision, x_wc, datum, surface, warnings):
    geometry = collision.find('geometry')
    hm = geometry.find('heightmap')
    where = _here(hm, path)
    label = element_path(hm)
    uri = (hm.findtext('uri') or '').strip()
    if not uri:
        raise element_error('heightmap without <uri>', path, hm)
    file = heightmap_file(uri, hm.find('uri'), path)
    missing_file(file, label, 'heightmap file')
    size_elem = hm.find('size')
    size = _number_vector(size_elem, (1.0, 1.0, 1.0), path, 'size')
    if not np.all(size > 0.0):
        raise element_error(f'<size> {" ".join("%g" % v for v in size)}: every component '
                            'must be > 0 (gz-sim inverts a negative z for backward '
                            'compatibility; not read here)', path,
                            size_elem if size_elem is not None else hm)
    pos = _number_vector(hm.find('pos'), (0.0, 0.0, 0.0), path, 'pos')
    sampling_elem = hm.find('sampling')
    sampling = 1
    if sampling_elem is not None:
        value = element_numbers(sampling_elem, (1,), where)[0]
        if value != int(value) or value < 1:
            raise element_error(f'<sampling> {value:g}: a whole number >= 1', path,
                                sampling_elem)
        sampling = int(value)
    rotation = x_wc[1]
    if not np.allclose(rotation, np.eye(3), atol=1e-9):
        raise element_error('the heightmap collision is rotated in the world (a grid seabed '
                            'is axis-aligned): give it no rotation', path, collision)
    static = (model.findtext('static') or 'false').strip().lower() in ('1', 'true')
    if not static:
        warnings.append(f'{path}: model {model.get("name")!r} holding the heightmap is not '
                        '<static>: gz-sim would let it fall; read as if static')
    data = read_heightmap_data(file, label)
    warnings.extend(data.warnings)
    n = data.values.shape[0] * sampling - sampling + 1
    if n * n > MAX_CELLS:
        raise element_error(f'{n} x {n} nodes (more than {MAX_CELLS}): lower <sampling>',
                            path, hm)
    heights = node_heights(data, size, sampling)
    dx, dy = node_spacing(size, n)
    # the field centred on the collision origin (Bullet, ODE), row 0 at +y
    x0 = float(x_wc[0][0]) - (n - 1) / 2.0 * dx
    y_top = float(x_wc[0][1]) + (n - 1) / 2.0 * dy
    grid = GridSeabed(np.flipud(heights) + float(x_wc[0][2]), x0, y_top - (n - 1) * dy,
                      dx, dy)
    if np.any(pos != 0.0):
        warnings.append(f'{where}: {label}/pos {" ".join("%g" % v for v in pos)}: gz-sim '
                        'moves only the visual by <pos>, its physics ignores it (gz-sim '
                        'Physics.cc AttachHeightmapShape; gz-sim#1054, #1295): this seabed '
                        'is the collision, without <pos>')
    if data.kind == 'dem':
        if surface is not None and surface[0] != 'EARTH_WGS84':
            warnings.append(f'{path}: surface_model {surface[0]}: the DEM is not compared '
                            'with its georeference here (WGS-84 only)')
        elif datum is None or data.georef[1] is None:
            warnings.append(f'{file}: gz-sim places the DEM by <size> and the collision pose '
                            'only; without a datum (spherical_coordinates or the seabed '
                            "origin) and the DEM's CRS its true place is not checked")
        else:
            dist, true_x, true_y = _dem_truth(data, datum, x0, y_top, dx, dy)
            if surface is not None and surface[1] != 0.0:
                warnings.append(f'{path}: heading_deg {surface[1]:g} is not applied to the '
                                'comparison with the georeference')
            warnings.append(f'{file}: gz-sim places the DEM by <size> and the collision pose, '
                            'not by its georeference nor spherical_coordinates: its nodes '
                            f'are up to {dist:.4g} m from where the datum lat {datum[0]:.8g} '
                            f'lon {datum[1]:.8g} puts them (the DEM is {true_x:.6g} x '
                            f'{true_y:.6g} m)')
            if size_elem is None:
                warnings.append(f'{label}: no <size>: gz-sim uses 1 1 1 for a DEM too '
                                '(sdformat\'s default; its "true size of DEM" is not '
                                f'implemented): write <size>{true_x:.6g} {true_y:.6g} '
                                f'{data.max_elevation - data.min_elevation:.6g}</size>')
    elif size_elem is None:
        warnings.append(f'{label}: no <size>: gz-sim uses 1 1 1 m')
    return grid, file, data


def load_world_seabed(path: str, origin=None):
    """Return (GridSeabed, SeabedInfo) of the heightmap of an SDF world file."""
    missing_file(path, 'seabed file', 'SDF world')
    root = parse_xml_file(path)
    world = root if root.tag == 'world' else root.find('world')
    if world is None:
        raise DescriptionError('no <world> in the SDF file', path, 'seabed file')
    warnings: List[str] = []
    expand_includes(world, path, warnings)
    datum, surface = spherical_datum(world, path)
    if origin is not None:
        datum = (float(origin[0]), float(origin[1]))
    found, planes, visuals = [], [], 0
    for model, link, collision, x_wc in _collisions(world, path):
        geometry = collision.find('geometry')
        if geometry is None:
            continue
        if geometry.find('heightmap') is not None:
            found.append((model, link, collision, x_wc))
        elif geometry.find('plane') is not None:
            planes.append((model, x_wc))
    for model in world.iter('visual'):
        visuals += model.find('geometry/heightmap') is not None
    unresolved = [m for m in world.findall('model') if getattr(m, 'unresolved', None)]
    if not found:
        more = ''
        if unresolved:
            more = '; includes not resolved: ' + '; '.join(
                str(m.unresolved.reason) for m in unresolved)
        if visuals:
            more += f'; {visuals} <visual> heightmap(s): gz-sim collides with none of them'
        if planes:
            more += ('; a <plane> ground at z %g: use a flat seabed (the DVL seabed_depth) '
                     'instead' % planes[0][1][0][2])
        raise DescriptionError('no <collision> with a <heightmap> in the world' + more, path,
                               'seabed file')
    if len(found) > 1:
        raise DescriptionError(
            f'{len(found)} heightmap collisions ('
            f'{", ".join(element_path(c) for _, _, c, _ in found)}): the seabed is one grid; '
            'keep one', path, 'seabed file')
    for m in unresolved:
        warnings.append(f'{path}: include not resolved, not part of the seabed: '
                        f'{m.unresolved.reason}')
    for model, x_wc in planes:
        warnings.append(f'{path}: model {model.get("name")!r} has a <plane> collision at z '
                        f'{x_wc[0][2]:g}: gz-sim also collides with it, this seabed is the '
                        'heightmap only')
    grid, file, data = _heightmap_seabed(path, *found[0], datum, surface, warnings)
    side = data.values.shape
    info = SeabedInfo(source=path, crs='world frame: gz-sim heightmap %s (%s)' % (
        os.path.basename(file), data.kind), origin=datum if datum is not None else None,
        file_shape=side, window_shape=grid.shape, warnings=tuple(warnings))
    return grid, info


def is_world_file(path: Optional[str]) -> bool:
    """Return True if ``path`` names an SDF world by its extension."""
    return bool(path) and os.path.splitext(path)[1].lower() in WORLD_EXTENSIONS
