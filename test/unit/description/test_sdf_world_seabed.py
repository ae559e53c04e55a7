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
The seabed of an SDF world's <heightmap>, against gz-sim's own formulas re-derived here.

The formulas, from the sources (cited per test): gz-common ImageHeightmap.hh
FillHeights (level / type maximum, bilinear at the sub-sampled nodes, times scale.z),
gz-physics dartsim CustomHeightmapShape.cc (N = W s - s + 1 nodes spaced size / N,
scale.z = |size.z| / (MaxElevation - MinElevation)), DART HeightmapShape (depth along
-y: the image's top row at +y; Bullet and ODE centre the field), gz-common Dem.cc
(side 2^n + 1, GDAL nearest resampling, padding and the minimum).
"""
import math
import re

import numpy as np
import pytest
from required_modules import require

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.seabed.seabed_file import seabed_from_options

Image = require('PIL.Image')

#: float32 rounding of the heights gz hands DART: half an ulp of 1 per metre of span
F32 = 2.0 ** -23

WORLD = """<?xml version="1.0"?>
<sdf version="1.9"><world name="w">%(sc)s
  <model name="ground"><static>true</static><pose>%(pose)s</pose>
    <link name="l"><pose>%(link)s</pose>
      <collision name="c"><pose>%(coll)s</pose><geometry><heightmap>
        <uri>%(uri)s</uri>%(size)s<pos>%(pos)s</pos>%(sampling)s
      </heightmap></geometry></collision>
      <visual name="v"><geometry><heightmap><uri>%(uri)s</uri></heightmap></geometry></visual>
    </link></model>%(extra)s
</world></sdf>
"""


def world(tmp_path, uri, size='<size>160 170 12</size>', pose='10 -5 -40 0 0 0',
          link='1 2 3 0 0 0', coll='-0.5 0.25 -1 0 0 0', pos='0 0 0', sampling='', sc='',
          extra='', name='w.sdf'):
    path = tmp_path / name
    path.write_text(WORLD % {'uri': uri, 'size': size, 'pose': pose, 'link': link,
                             'coll': coll, 'pos': pos, 'sampling': sampling, 'sc': sc,
                             'extra': extra})
    return path


def png(tmp_path, levels, name='h.png'):
    path = tmp_path / name
    Image.fromarray(levels).save(path)
    return path


def gz_image_nodes(levels, top, size, centre):
    """Return (x, y, z) of gz's nodes of an image heightmap, sampling 1 (see the docstring)."""
    n = levels.shape[0]
    grey = levels.astype(float) / top
    # CustomHeightmapShape.cc:36-47 with ImageHeightmap::MaxElevation = MaxColor().R()
    scale_z = size[2] / grey.max()
    h = grey * scale_z  # ImageHeightmap.hh:114-125 at xf = x, yf = y
    c, r = np.meshgrid(np.arange(n), np.arange(n))
    dx, dy = size[0] / n, size[1] / n  # CustomHeightmapShape.cc:41-42
    # centred (Bullet, ODE), image row r along -y (DART HeightmapShape.hpp)
    x = centre[0] + (c - (n - 1) / 2.0) * dx
    y = centre[1] + ((n - 1) / 2.0 - r) * dy
    return x, y, centre[2] + h


@pytest.mark.parametrize('bits', [8, 16])
def test_image_nodes_follow_gz(tmp_path, bits):
    """Each pixel's node is where gz-sim puts it, at its height (float32 rounding)."""
    rng = np.random.default_rng(3)
    top = 65535 if bits == 16 else 255
    dtype = np.uint16 if bits == 16 else np.uint8
    # the brightest level below the maximum: MaxColor scales it to size z
    levels = rng.integers(0, int(top * 0.8), size=(33, 33)).astype(dtype)
    path = world(tmp_path, png(tmp_path, levels).name)
    grid, info = seabed_from_options(str(path))
    # the collision frame: model pose + link pose + collision pose (all translations)
    centre = (10 + 1 - 0.5, -5 + 2 + 0.25, -40 + 3 - 1)
    x, y, z = gz_image_nodes(levels, top, (160.0, 170.0, 12.0), centre)
    assert grid.shape == (33, 33)
    got = grid.elevation(x, y)
    assert np.max(np.abs(got - z)) <= 12.0 * F32 + 1e-12
    assert float(z.max() - centre[2]) == pytest.approx(12.0, rel=1e-12)
    # the top row (+y) is the image's first row
    assert got[0, 5] == pytest.approx(z[0, 5], abs=12.0 * F32)
    assert y[0, 0] > y[-1, 0]
    assert info.origin is None and 'heightmap h.png (image)' in info.crs
    assert info.warnings == ()  # grey, 33 = 2^5 + 1 pixels, no <pos>: nothing to say
    assert grid.dx == pytest.approx(160.0 / 33, rel=1e-15)


def test_colour_image_takes_red_over_the_brightest_pixels_red(tmp_path):
    """RGB: the red channel (FillHeights), over the red of the largest R+G+B (MaxColor)."""
    rng = np.random.default_rng(11)
    rgb = rng.integers(0, 200, size=(9, 9, 3)).astype(np.uint8)
    rgb[6, 2] = (90, 250, 250)  # the brightest pixel by R+G+B, its red well below the max
    path = world(tmp_path, png(tmp_path, rgb).name, pose='0 0 0 0 0 0',
                 link='0 0 0 0 0 0', coll='0 0 0 0 0 0')
    grid, info = seabed_from_options(str(path))
    # Image.cc:806-827: R of the pixel of largest R+G+B, in [0, 1]; heights = R / 255 * z / it
    h = rgb[..., 0] / 255.0 * 12.0 / (90 / 255.0)
    assert np.allclose(np.flipud(grid.heights), h, rtol=0, atol=float(h.max()) * F32)
    assert float(h.max()) > 12.0  # red above the brightest pixel's: higher than <size> z
    assert any('red channel as the height' in w for w in info.warnings)


def test_pos_moves_only_the_visual(tmp_path):
    """<pos> is ignored by gz-sim's physics: the seabed is unmoved, and a warning says so."""
    levels = (np.arange(17 * 17).reshape(17, 17) * 100).astype(np.uint16)
    uri = png(tmp_path, levels).name
    plain, _ = seabed_from_options(str(world(tmp_path, uri, name='a.sdf')))
    moved, info = seabed_from_options(str(world(tmp_path, uri, pos='5 -3 2', name='b.sdf')))
    assert moved.extent == plain.extent
    assert np.array_equal(moved.heights, plain.heights)
    assert any('/pos 5 -3 2' in w and 'physics ignores it' in w for w in info.warnings)


def test_sampling_interpolates_between_pixels(tmp_path):
    """<sampling> 2: N = 2 W - 1 nodes, the new ones bilinear between pixels (FillHeights)."""
    levels = np.array(np.random.default_rng(5).integers(0, 60000, (9, 9)), dtype=np.uint16)
    uri = png(tmp_path, levels).name
    grid, _ = seabed_from_options(str(world(tmp_path, uri, sampling='<sampling>2</sampling>',
                                            link='0 0 0 0 0 0', coll='0 0 0 0 0 0',
                                            pose='0 0 0 0 0 0')))
    n = 2 * 9 - 1
    assert grid.shape == (n, n)
    h = levels.astype(float) / levels.max() * 12.0
    top_row = grid.heights[-1]  # +y: the image's first row
    assert np.allclose(top_row[::2], h[0], atol=12 * F32)
    assert np.allclose(top_row[1::2], (h[0, :-1] + h[0, 1:]) / 2, atol=12 * F32)
    assert grid.dx == pytest.approx(160.0 / n, rel=1e-15)


def geo(t, col, row):
    """Return the map coordinates of pixel coordinates (GDAL geotransform)."""
    return t.c + t.a * col + t.b * row, t.f + t.d * col + t.e * row


def _dem(tmp_path, rows=60, cols=100):
    """Write a UTM 31N GeoTIFF (25 m pixels); return (path, elevations, transform)."""
    rasterio = require('rasterio')
    transform = require('rasterio.transform').from_origin(700000.0, 4780000.0, 25.0, 25.0)
    r, c = np.mgrid[0:rows, 0:cols]
    z = (-300.0 + 0.4 * c - 0.7 * r + 5 * np.sin(c / 7.0)).astype(np.float32)
    path = tmp_path / 'dem.tif'
    with rasterio.open(path, 'w', driver='GTiff', width=cols, height=rows, count=1,
                       dtype='float32', crs='EPSG:32631', transform=transform) as dst:
        dst.write(z, 1)
    return path, z, transform


def test_dem_follows_gz_and_is_compared_with_its_georeference(tmp_path):
    """A DEM: gz's resampling, padding and heights, and its offset from the truth (pyproj)."""
    pyproj = require('pyproj')
    path, z, transform = _dem(tmp_path)
    # the datum: the DEM's centre
    centre_e, centre_n = geo(transform, 50.0, 30.0)
    lon, lat = pyproj.Transformer.from_crs('EPSG:32631', 'EPSG:4326',
                                           always_xy=True).transform(centre_e, centre_n)
    sc = ('<spherical_coordinates><latitude_deg>%r</latitude_deg><longitude_deg>%r'
          '</longitude_deg></spherical_coordinates>' % (lat, lon))
    size = (2500.0, 1500.0, 40.0)
    w = world(tmp_path, path.name, size='<size>%r %r %r</size>' % size, sc=sc,
              pose='0 0 0 0 0 0', link='0 0 0 0 0 0', coll='0 0 0 0 0 0')
    grid, info = seabed_from_options(str(w))
    # Dem.cc:242-254: 100 -> 129, 60 -> 65; side 129; LoadData keeps the aspect: 129 x 77
    side, dest_w, dest_h = 129, 129, int(np.float32(129) / np.float32(100 / 60))
    assert grid.shape == (side, side) and dest_h == 77
    # GDAL nearest: destination pixel i takes source pixel floor((i + 0.5) src / dest)
    src_c = np.floor((np.arange(dest_w) + 0.5) * 100 / dest_w).astype(int)
    src_r = np.floor((np.arange(dest_h) + 0.5) * 60 / dest_h).astype(int)
    v = z[src_r][:, src_c].astype(float)
    lo, hi = float(z.min()), float(z.max())
    # Dem.cc:498-509: min + (v - min) |size.z| / (max - min); padding at the minimum
    h = np.full((side, side), lo)
    h[:dest_h, :dest_w] = lo + (v - lo) * size[2] / (hi - lo)
    expected = np.flipud(h)  # row 0 of gz at +y
    assert np.max(np.abs(grid.heights - expected)) <= np.max(np.abs(expected)) * F32
    assert grid.dx == pytest.approx(size[0] / side, rel=1e-15)
    assert any('pads it to 129 x 129' in w for w in info.warnings)
    # gz's node (r, c) against the truth: the source pixel's centre through pyproj
    to_local = pyproj.Transformer.from_crs(
        'EPSG:32631', '+proj=tmerc +lat_0=%r +lon_0=%r +k=1 +x_0=0 +y_0=0 +ellps=WGS84'
        % (lat, lon), always_xy=True)
    cc, rr = np.meshgrid(np.arange(dest_w), np.arange(dest_h))
    fe, fn = geo(transform, (cc + 0.5) * 100 / dest_w, (rr + 0.5) * 60 / dest_h)
    te, tn = to_local.transform(fe, fn)
    ge = grid.x0 + cc * grid.dx
    gn = grid.y0 + (side - 1 - rr) * grid.dy
    worst = float(np.max(np.hypot(te - ge, tn - gn)))
    warning = next(w for w in info.warnings if 'not by its georeference' in w)
    reported = float(re.search(r'up to ([0-9.e+-]+) m', warning).group(1))
    assert reported == pytest.approx(worst, rel=5e-4)  # printed to 4 digits
    # the padding alone puts gz's nodes hundreds of metres off: the warning matters
    assert worst > 100.0
    extent = re.search(r'the DEM is ([0-9.]+) x ([0-9.]+) m', warning).groups()
    west = to_local.transform(*geo(transform, 0.0, 30.0))
    east = to_local.transform(*geo(transform, 100.0, 30.0))
    assert float(extent[0]) == pytest.approx(math.dist(west, east), rel=1e-5)


def test_dem_without_size_is_one_metre(tmp_path):
    """No <size>: gz-sim's 1 1 1 (sdformat's default), with the true size to write."""
    pyproj = require('pyproj')
    path, z, transform = _dem(tmp_path)
    lon, lat = pyproj.Transformer.from_crs('EPSG:32631', 'EPSG:4326', always_xy=True
                                           ).transform(*geo(transform, 50.0, 30.0))
    w = world(tmp_path, path.name, size='')
    grid, info = seabed_from_options(str(w), '%r,%r' % (lat, lon))
    assert grid.dx == pytest.approx(1.0 / 129, rel=1e-15)
    relief = float(np.nanmax(grid.heights) - np.nanmin(grid.heights))
    assert relief == pytest.approx(1.0, rel=1e-5)
    assert info.origin == pytest.approx((lat, lon), rel=1e-15)
    assert any('no <size>: gz-sim uses 1 1 1 for a DEM too' in w and 'write <size>2' in w
               for w in info.warnings)


@pytest.mark.parametrize('case, message', [
    ('missing', "heightmap file 'nothere.png' not found"),
    ('unreadable', 'not a PNG file'),
    ('size0', '<size> 0 170 12: every component must be > 0'),
    ('negative', '<size> 160 170 -12: every component must be > 0'),
    ('nonsquare', 'a 9 x 5 image: a heightmap image must be square'),
    ('none', 'no <collision> with a <heightmap> in the world'),
    ('two', '2 heightmap collisions'),
    ('rotated', 'the heightmap collision is rotated'),
])
def test_bad_input_is_named(tmp_path, case, message):
    """Each bad heightmap is an error naming the file and the element."""
    good = png(tmp_path, np.zeros((9, 9), np.uint16)).name
    args = {'uri': good}
    if case == 'missing':
        args['uri'] = 'nothere.png'
    elif case == 'unreadable':
        (tmp_path / 'bad.png').write_text('not an image')
        args['uri'] = 'bad.png'
    elif case == 'size0':
        args['size'] = '<size>0 170 12</size>'
    elif case == 'negative':
        args['size'] = '<size>160 170 -12</size>'
    elif case == 'nonsquare':
        args['uri'] = png(tmp_path, np.zeros((5, 9), np.uint16), 'wide.png').name
    elif case == 'rotated':
        args['coll'] = '0 0 0 0 0 0.3'
    elif case == 'two':
        args['extra'] = WORLD.split('<model', 1)[1].split('</model>')[0].join(
            ['<model', '</model>']).replace('"ground"', '"second"') % {
            'uri': good, 'size': '', 'pose': '0 0 0 0 0 0', 'link': '0 0 0 0 0 0',
            'coll': '0 0 0 0 0 0', 'pos': '0 0 0', 'sampling': ''}
    path = world(tmp_path, **args)
    if case == 'none':
        path.write_text('<sdf version="1.9"><world name="w"><model name="g"><static>1'
                        '</static><link name="l"><collision name="c"><geometry><plane>'
                        '<normal>0 0 1</normal></plane></geometry></collision></link>'
                        '</model></world></sdf>')
    with pytest.raises(DescriptionError) as err:
        seabed_from_options(str(path))
    text = str(err.value)
    assert message in text
    assert str(tmp_path) in text
    if case in ('missing', 'size0', 'negative', 'rotated'):
        assert "collision[@name='c']" in text
    if case == 'none':
        assert 'a <plane> ground at z 0' in text
