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
A GridSeabed written as a gz-sim ``<heightmap>``: a 16-bit grey PNG and its SDF model.

The inverse of :mod:`uwv_hydro.description.sdf.heightmap` for an image: the seabed is
sampled (bilinear, :meth:`GridSeabed.elevation`) on an N x N grid, N = 2^n + 1 >= the
grid's nodes along x and y (the side gz's renderer draws unchanged), spanning the
grid's extent exactly: the DART shape spaces its nodes ``size / N`` about the collision
origin, so ``size = extent N / (N - 1)`` and the collision pose is the extent's centre.
Heights are quantised to 16 bits between the lowest and the highest sample: level
``round((h - zmin) / (zmax - zmin) 65535)``, ``<size>`` z = zmax - zmin, the
collision at z = zmin; gz-sim reads back ``zmin + level / 65535 (zmax - zmin)``
(the brightest level is 65535, so MaxColor's R is 1), within (zmax - zmin) / 131070 of
the sample.  Holes (NaN, no bottom for the node) have no equivalent in a heightmap:
they are written at zmin, a floor the engine collides with and the node's seabed has
not.  A flat seabed is level 0 everywhere with ``<size>`` z 1 m (gz: no span, scale 1).
"""
from dataclasses import dataclass
from typing import Tuple
import xml.etree.ElementTree as ET

import numpy as np

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.seabed.placement import MAX_CELLS

#: the largest level of a 16-bit PNG
LEVELS = 65535


@dataclass
class ExportedHeightmap:
    """The PNG levels (row 0 at +y) and the ``<size>`` and collision position of them."""

    levels: np.ndarray
    size: Tuple[float, float, float]
    centre: Tuple[float, float, float]
    zmin: float
    zmax: float
    holes: int

    @property
    def quantisation(self) -> float:
        """Return the height step of one level (m)."""
        return (self.zmax - self.zmin) / LEVELS


def side_for(nodes: int) -> int:
    """Return the smallest N = 2^n + 1 >= max(nodes, 3)."""
    n = 3
    while n < nodes:
        n = 2 * n - 1
    return n


def heightmap_of_grid(grid) -> ExportedHeightmap:
    """Return the ExportedHeightmap of a GridSeabed (see the module docstring)."""
    ny, nx = grid.shape
    n = side_for(max(nx, ny))
    if n * n > MAX_CELLS:
        raise DescriptionError(f'the seabed of {ny} x {nx} nodes needs a {n} x {n} heightmap '
                               f'(more than {MAX_CELLS} pixels): read a smaller radius')
    x0, x1, y0, y1 = grid.extent
    # node c at x0 + c (x1 - x0) / (N - 1); row r at y1 - r (y1 - y0) / (N - 1)
    xs = np.clip(x0 + np.arange(n) * ((x1 - x0) / (n - 1)), x0, x1)
    ys = np.clip(y1 - np.arange(n) * ((y1 - y0) / (n - 1)), y0, y1)
    h = grid.elevation(xs[None, :], ys[:, None])
    holes = int(np.count_nonzero(~np.isfinite(h)))
    if holes == h.size:
        raise DescriptionError('the seabed is all holes: nothing to write as a heightmap')
    zmin, zmax = float(np.nanmin(h)), float(np.nanmax(h))
    h = np.where(np.isfinite(h), h, zmin)
    if zmax > zmin:
        # 16-bit quantisation between the extremes
        levels = np.rint((h - zmin) / (zmax - zmin) * LEVELS).astype(np.uint16)
        size_z = zmax - zmin
    else:
        levels = np.zeros((n, n), dtype=np.uint16)
        size_z = 1.0
    # DART spaces the nodes size / N: size = extent N / (N - 1)
    size = ((x1 - x0) * n / (n - 1), (y1 - y0) * n / (n - 1), size_z)
    centre = ((x0 + x1) / 2.0, (y0 + y1) / 2.0, zmin)
    return ExportedHeightmap(levels, size, centre, zmin, zmax, holes)


def write_png(path: str, levels: np.ndarray) -> None:
    """Write 16-bit grey levels (row 0 the image's top) as a PNG."""
    from PIL import Image
    Image.fromarray(np.ascontiguousarray(levels, dtype=np.uint16)).save(path, format='PNG')


def seabed_model(uri: str, exported: ExportedHeightmap, number, name: str = 'seabed'):
    """Return the static ``<model>`` with the heightmap as collision and visual."""
    model = ET.Element('model', name=name)
    ET.SubElement(model, 'static').text = 'true'
    pose = (*exported.centre, 0.0, 0.0, 0.0)
    ET.SubElement(model, 'pose').text = ' '.join(number(v) for v in pose)
    link = ET.SubElement(model, 'link', name='seabed_link')
    for tag in ('collision', 'visual'):
        part = ET.SubElement(link, tag, name='seabed_' + tag)
        hm = ET.SubElement(ET.SubElement(part, 'geometry'), 'heightmap')
        ET.SubElement(hm, 'uri').text = uri
        ET.SubElement(hm, 'size').text = ' '.join(number(v) for v in exported.size)
        ET.SubElement(hm, 'pos').text = '0 0 0'
    return model
