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
An SDF ``<heightmap>`` as gz-sim's physics (DART) builds it: the node grid and heights.

Read against gz-sim ``src/systems/physics/Physics.cc`` (heightmap collisions,
``AttachHeightmapShape(name, data, collision pose, <size>, <sampling>)``: ``<pos>`` is
not passed), gz-common ``geospatial/src/ImageHeightmap.cc`` and
``include/gz/common/geospatial/ImageHeightmap.hh`` (``FillHeights``),
``geospatial/src/Dem.cc`` (``Load``, ``LoadData``, ``FillHeightMap``),
``graphics/src/Image.cc`` (stb_image; ``MaxColor``), gz-physics
``dartsim/src/CustomHeightmapShape.cc`` and DART's ``HeightmapShape`` with its Bullet
and ODE collision (``BulletCollisionDetector.cpp``, ``OdeHeightmap-impl.hpp``):

* the shape is N x N nodes, N = W s - s + 1 (W: the data's side, s: ``<sampling>``),
  spaced ``size / N`` (CustomHeightmapShape.cc:41-42; so the nodes span
  ``size (N - 1) / N``, not ``size``), centred on the collision frame's origin (Bullet
  and ODE centre the field); column c along +x, data row r along -y (the image's top
  row at +y: HeightmapShape.hpp, "depth goes to -y"); heights are z in that frame;
* between nodes the data are interpolated bilinearly at the sub-sampled nodes
  (ImageHeightmap.hh:95-125, Dem.cc:472-499); the engines triangulate between nodes,
  this package's GridSeabed is bilinear there (equal at the nodes);
* image: the first channel of each pixel over the type's maximum (255, 65535),
  times ``|size.z| / maxR``, maxR the red of the pixel of largest R + G + B in [0, 1]
  (CustomHeightmapShape.cc:36-47, Image.cc:806-827): the brightest pixel is at
  ``size.z``, black at 0;
* DEM (GDAL): resampled (nearest) onto a square of side 2^n + 1 keeping the aspect,
  padded right and below with the minimum (Dem.cc:239-254, 538-597); the minimum and
  maximum skip the nodata value (-9999 when the file has none) and non-finite values
  (Dem.cc:260-301); height ``min + (v - min) |size.z| / (max - min)``, raised to the
  minimum where below it (Dem.cc:498-509).  The band's scale, offset and units and the
  file's georeference are not used.
"""
from dataclasses import dataclass
import struct
from typing import List, Optional, Tuple

import numpy as np

from uwv_hydro.description.errors import DescriptionError

#: file extensions gz-common reads as images (HeightmapUtil.cc:40-49); others are DEMs
IMAGE_EXTENSIONS = ('.png', '.jpg', '.jpeg')
#: PNG signature (PNG spec, sec. 5.2)
_PNG_SIGNATURE = b'\x89PNG\r\n\x1a\n'
#: PNG colour type -> channels as stb_image returns them (palette expanded to RGB)
_PNG_CHANNELS = {0: 1, 2: 3, 3: 3, 4: 2, 6: 4}


@dataclass
class HeightmapData:
    """The data of a heightmap as gz-common holds it, row 0 the image's top (+y)."""

    #: (side, side) values: image levels over the type's maximum, DEM elevations
    values: np.ndarray
    #: MaxElevation and MinElevation (HeightmapData.hh: an image's minimum is 0)
    max_elevation: float
    min_elevation: float
    kind: str  # 'image' or 'dem'
    source: str
    warnings: List[str]
    #: a DEM's georeference: (rasterio Affine, pyproj-readable CRS or None, (rows, cols)
    #: of the file, (rows, cols) it was resampled to)
    georef: Optional[Tuple] = None


def png_header(path: str, element: str):
    """Return (width, height, bit depth, colour type, interlace) of a PNG's IHDR."""
    try:
        with open(path, 'rb') as stream:
            head = stream.read(33)
    except OSError as exc:
        raise DescriptionError(f'cannot read the heightmap image: {exc}', path,
                               element) from None
    if len(head) < 33 or head[:8] != _PNG_SIGNATURE or head[12:16] != b'IHDR':
        raise DescriptionError('not a PNG file (no PNG signature and IHDR)', path, element)
    # IHDR: width, height (4 bytes each, big-endian), bit depth, colour type, ...
    width, height, depth, colour, _, _, interlace = struct.unpack('>IIBBBBB', head[16:29])
    return width, height, depth, colour, interlace


def read_image(path: str, element: str) -> HeightmapData:
    """Return the HeightmapData of a PNG or JPEG heightmap, as gz-common reads it."""
    from PIL import Image
    warnings = []
    is_png = path.lower().endswith('.png')
    if is_png:
        width, height, depth, colour, _ = png_header(path, element)
        channels = _PNG_CHANNELS.get(colour)
        bits = 16 if depth == 16 else 8  # stb_image scales 1, 2, 4-bit images to 8
        if channels is None:
            raise DescriptionError(f'PNG colour type {colour} unknown', path, element)
    try:
        with Image.open(path) as img:
            img.load()
            if is_png and bits == 16 and channels == 1:
                # 16-bit grey: Pillow's I;16 / I hold the 16-bit levels
                levels = np.asarray(img, dtype=np.float64)
            else:
                if not is_png:
                    channels, bits = len(img.getbands()), 8
                    warnings.append(f'{path}: a JPEG heightmap: gz-sim decodes it with '
                                    'stb_image, this package with libjpeg (Pillow); levels '
                                    'may differ by one step of 1/255 of <size> z')
                if is_png and bits == 16:
                    raise DescriptionError(
                        f'a 16-bit PNG of {channels} channels: only 16-bit grey is read '
                        'exactly here (Pillow reduces 16-bit colour to 8 bits); gz-common '
                        'reads 16-bit RGB and no 16-bit grey+alpha or RGBA '
                        '(ImageHeightmap.cc:78-93): save it as 16-bit greyscale', path,
                        element)
                if channels in (2, 4) and not (channels == 4 and bits == 8):
                    raise DescriptionError(
                        f'{"grey+alpha" if channels == 2 else "RGBA"} image: gz-common '
                        'cannot make a heightmap of it (unsupported pixel format, '
                        'ImageHeightmap.cc:88-93)', path, element)
                if channels == 1:  # grey of 1 to 8 bits: Pillow scales to 0..255, as stb
                    levels = np.asarray(img.convert('L'), dtype=np.float64)
                else:
                    levels = np.asarray(img.convert('RGBA' if channels == 4 else 'RGB'),
                                        dtype=np.float64)
    except (OSError, ValueError) as exc:
        if isinstance(exc, DescriptionError):
            raise
        raise DescriptionError(f'cannot read the heightmap image ({exc})', path,
                               element) from None
    top = 65535.0 if bits == 16 else 255.0
    if levels.ndim == 2:
        grey = levels / top
        # MaxColor: the pixel of largest R+G+B, its R (Image.cc:806-827); grey: the max
        max_r = float(np.float32(grey.max()))
    else:
        norm = levels[..., :3] / top
        # Image::Pixel(x, y) reads row height-1-y (Image.cc:752-753): the scan starts at
        # the bottom row; the first strictly larger sum wins
        scan = norm[::-1].reshape(-1, 3)
        max_r = float(np.float32(scan[int(np.argmax(scan.sum(axis=1))), 0]))
        grey = norm[..., 0]  # FillHeights reads the first channel (ImageHeightmap.hh:114)
        warnings.append(f'{path}: a colour heightmap: gz-sim takes its red channel as the '
                        'height (ImageHeightmap.hh:114-123)')
    rows, cols = grey.shape
    if rows != cols:
        raise DescriptionError(f'a {cols} x {rows} image: a heightmap image must be square '
                               '(gz-common asserts it, ImageHeightmap.cc:53)', path, element)
    if rows < 2:
        raise DescriptionError(f'a {cols} x {rows} image: need 2 x 2 pixels at least', path,
                               element)
    side = rows - 1
    if side & (side - 1) and rows & (rows - 1):
        warnings.append(f'{path}: {rows} x {rows} pixels is neither 2^n + 1 nor 2^n: gz-sim '
                        'collides with it but does not draw it (Ogre2Heightmap.cc: "final '
                        'sampling must satisfy 2^n")')
    return HeightmapData(grey, max_r, 0.0, 'image', path, warnings)


def _pow2_side(n: int) -> int:
    """Return gz's side for n samples: n if n - 1 is a power of two, else 2^k + 1 >= n."""
    # Dem.cc:242-251 with gz::math::isPowerOfTwo and roundUpPowerOfTwo (Helpers.hh:483-507)
    m = n - 1
    if m > 0 and m & (m - 1) == 0:
        return n
    return (1 << (n - 1).bit_length() if n & (n - 1) else n) + 1


def read_dem(path: str, element: str) -> HeightmapData:
    """Return the HeightmapData of a DEM (GDAL) as gz-common's Dem::Load makes it."""
    import rasterio
    from rasterio.enums import Resampling
    warnings = []
    try:
        with rasterio.open(path) as src:
            if src.count != 1:
                raise DescriptionError(f'{src.count} bands: gz-common reads a DEM of one '
                                       'band only (Dem.cc:186-192)', path, element)
            xs, ys = src.width, src.height
            side = max(_pow2_side(xs), _pow2_side(ys))
            # LoadData: the longer side -> side, the other side / ratio, truncated
            if xs > ys:
                dest_w = side
                dest_h = int(np.float32(side) / (np.float32(xs) / np.float32(ys)))
            else:
                dest_h = side
                dest_w = int(np.float32(side) / (np.float32(ys) / np.float32(xs)))
            # RasterIO to GDT_Float32 without resampling arguments: nearest neighbour
            buffer = src.read(1, out_shape=(dest_h, dest_w), out_dtype='float32',
                              resampling=Resampling.nearest, masked=False)
            nodata = src.nodata
            scale = src.scales[0] if src.scales else 1.0
            offset = src.offsets[0] if src.offsets else 0.0
            units = src.units[0] if src.units else ''
            georef = (src.transform, src.crs.to_wkt() if src.crs else None, (ys, xs),
                      (dest_h, dest_w))
    except rasterio.errors.RasterioIOError as exc:
        raise DescriptionError(f'cannot read the DEM ({exc})', path, element) from None
    if xs < 2 or ys < 2:
        raise DescriptionError(f'{xs} x {ys} pixels: need 2 x 2 at least', path, element)
    if scale != 1.0 or offset != 0.0:
        warnings.append(f'{path}: band scale {scale} and offset {offset}: gz-sim reads the '
                        'raw values (GDAL RasterIO), so does this seabed')
    if units and units.lower() not in ('m', 'metre', 'meter', 'metres', 'meters'):
        warnings.append(f'{path}: elevation units {units!r}: gz-sim takes them as metres')
    data = np.full((side, side), np.nan, dtype=np.float32)
    data[:dest_h, :dest_w] = buffer
    padded = np.isnan(data)
    data = data.astype(np.float64)
    nodata_value = -9999.0 if nodata is None else float(nodata)
    body = data[~padded]
    # gz::math::equal: |a - b| <= 1e-6 (Helpers.hh); NaN nodata matches nothing
    valid = np.isfinite(body) & ~(np.abs(body - nodata_value) <= 1e-6)
    if not valid.any():
        raise DescriptionError('no valid elevation in the DEM (all nodata)', path, element)
    low, high = float(np.float32(body[valid].min())), float(np.float32(body[valid].max()))
    data[padded] = low  # "Buffer to min elevation" (Dem.cc:303-308)
    n_nodata = int(np.count_nonzero(np.isfinite(body) & ~valid))
    n_nan = int(np.count_nonzero(~np.isfinite(body)))
    if n_nodata:
        warnings.append(f'{path}: {n_nodata} nodata nodes ({nodata_value:g}): gz-sim keeps '
                        'their value, raised to the minimum elevation where below it '
                        '(Dem.cc:507-509); so does this seabed')
    if n_nan:
        warnings.append(f'{path}: {n_nan} NaN nodes: gz-sim hands NaN heights to the '
                        'engine; here they are holes (no bottom): fill them')
    if dest_w != xs or dest_h != ys:
        warnings.append(f'{path}: {xs} x {ys} pixels resampled (nearest) by gz-sim onto '
                        f'{dest_w} x {dest_h} of a {side} x {side} grid (Dem.cc:544-578)')
    if dest_w != side or dest_h != side:
        warnings.append(f'{path}: not square: gz-sim pads it to {side} x {side} at the '
                        'minimum elevation on the +x side and the -y side (Dem.cc:584-594)')
    return HeightmapData(data, high, low, 'dem', path, warnings, georef)


def read_heightmap_data(path: str, element: str) -> HeightmapData:
    """Return the HeightmapData of an image or DEM file, chosen by gz's extension rule."""
    if path.lower().endswith(IMAGE_EXTENSIONS):
        return read_image(path, element)
    return read_dem(path, element)


def node_heights(data: HeightmapData, size, sampling: int = 1) -> np.ndarray:
    """
    Return the (N, N) heights (m, row 0 at +y) of the DART shape, N = W s - s + 1.

    ``size``: the ``<size>`` (x, y, z), z > 0.
    """
    w = data.values.shape[0]
    n = w * sampling - sampling + 1
    f = np.arange(n) / float(sampling)
    i1 = np.floor(f).astype(np.intp)
    i2 = np.minimum(np.ceil(f).astype(np.intp), w - 1)
    d = f - i1
    v = data.values
    # Bilinear between the data nodes, h1 along x in row y1, h2 in row y2, then along y
    # (ImageHeightmap.hh:95-125, Dem.cc:472-499)
    h1 = v[i1][:, i1] - (v[i1][:, i1] - v[i1][:, i2]) * d[None, :]
    h2 = v[i2][:, i1] - (v[i2][:, i1] - v[i2][:, i2]) * d[None, :]
    h = h1 - (h1 - h2) * d[:, None]
    size_z = abs(float(size[2]))
    span = data.max_elevation - data.min_elevation
    # CustomHeightmapShape.cc:44-47: scale.z = |size.z| / (max - min), 1 when equal
    scale_z = 1.0 if abs(span) <= 1e-6 else size_z / span
    if data.kind == 'image':
        heights = h * scale_z  # ImageHeightmap.hh:125
    else:
        # Dem.cc:498-499 and 508-509
        heights = data.min_elevation + (h - data.min_elevation) * scale_z
        heights = np.where(heights < data.min_elevation, data.min_elevation, heights)
    return heights.astype(np.float32).astype(np.float64)  # gz hands floats to DART


def node_spacing(size, n: int):
    """Return (dx, dy) of the DART shape: size / N (CustomHeightmapShape.cc:41-42)."""
    return float(size[0]) / n, float(size[1]) / n
