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
export-sdf --seabed: the seabed written as a gz-sim heightmap reads back to itself.

The bound: at the heightmap's nodes the heights are the seabed's within half a 16-bit
level, (zmax - zmin) / 131070, plus the float32 gz hands DART; at the seabed's own nodes
add the resampling: both grids are bilinear, and bilinear interpolation of f between
nodes spaced dx, dy errs by at most (dx^2 + dy^2) / 8 max|f''| (for f = k (x^2 + y^2)
exactly k (s (1 - s) dx^2 + t (1 - t) dy^2)).
"""
import json
import os
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from required_modules import require

from uwv_hydro.cli.main import main
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.sdf import heightmap_export
from uwv_hydro.description.sdf.export import number
from uwv_hydro.description.sdf.heightmap import png_header
from uwv_hydro.description.sdf.world_seabed import load_world_seabed
from uwv_hydro.physics.environment.seabed import GridSeabed

require('PIL.Image')

F32 = 2.0 ** -23


def export(tmp_path, grid, name='w.sdf'):
    """Write ``grid`` as a world with its heightmap; return the world's path."""
    exported = heightmap_export.heightmap_of_grid(grid)
    png = tmp_path / (name + '.png')
    heightmap_export.write_png(str(png), exported.levels)
    world = ET.Element('world', name='w')
    world.append(heightmap_export.seabed_model(png.name, exported, number))
    root = ET.Element('sdf', version='1.10')
    root.append(world)
    path = tmp_path / name
    path.write_text(ET.tostring(root, encoding='unicode'))
    return path, exported


def nodes(grid):
    ny, nx = grid.shape
    return np.meshgrid(grid.x0 + np.arange(nx) * grid.dx, grid.y0 + np.arange(ny) * grid.dy)


def test_plane_reads_back_within_the_quantisation(tmp_path):
    """A plane: bilinear resampling is exact, what is left is the 16-bit quantisation."""
    x, y = np.meshgrid(-300 + 12.5 * np.arange(37), 40 + 20.0 * np.arange(23))
    heights = -60.0 + 0.03 * x - 0.05 * y
    grid = GridSeabed(heights, -300.0, 40.0, 12.5, 20.0)
    path, exported = export(tmp_path, grid)
    assert png_header(str(tmp_path / 'w.sdf.png'), 'png')[:4] == (65, 65, 16, 0)
    back, info = load_world_seabed(str(path))
    assert back.extent == pytest.approx(grid.extent, abs=1e-9)
    q = exported.quantisation
    assert q == pytest.approx(float(heights.max() - heights.min()) / 65535, rel=1e-12)
    diff = back.elevation(x, y) - heights
    bound = q / 2 + float(np.max(np.abs(heights))) * F32
    assert np.max(np.abs(diff)) <= bound
    assert np.max(np.abs(diff)) > 0.01 * q  # the quantisation is there
    assert info.warnings == ()


def test_curved_seabed_within_quantisation_and_resampling(tmp_path):
    """A bowl f = k (x^2 + y^2): quantisation at the heightmap nodes, + resampling at its own."""
    k, dx, dy = 2e-4, 10.0, 15.0
    x, y = np.meshgrid(-200 + dx * np.arange(41), -150 + dy * np.arange(21))
    f = -80.0 + k * (x ** 2 + y ** 2)
    grid = GridSeabed(f, -200.0, -150.0, dx, dy)
    path, exported = export(tmp_path, grid)
    back, _ = load_world_seabed(str(path))
    q = exported.quantisation
    f32 = float(np.max(np.abs(f))) * F32
    # at the heightmap's nodes: the seabed's own bilinear elevation, quantised
    bx, by = nodes(back)
    ref = grid.elevation(np.clip(bx, -200, 200), np.clip(by, -150, 150))
    assert np.max(np.abs(back.heights - ref)) <= q / 2 + f32
    # at the seabed's nodes: + the bilinear error of both grids on f (f'' = 2k)
    bound = q / 2 + f32 + 2 * k / 8 * (dx ** 2 + dy ** 2 + back.dx ** 2 + back.dy ** 2)
    worst = float(np.max(np.abs(back.elevation(x, y) - f)))
    assert worst <= bound
    assert worst > 0.2 * bound  # the bound is not loose by orders


def test_holes_are_written_at_the_lowest_height(tmp_path):
    """A hole has no heightmap equivalent: it becomes a floor at the lowest sample."""
    heights = np.full((9, 9), -30.0)
    heights[4, 4] = -50.0
    heights[0, 0] = np.nan
    grid = GridSeabed(heights, 0.0, 0.0, 1.0, 1.0)
    path, exported = export(tmp_path, grid)
    back, _ = load_world_seabed(str(path))
    assert exported.holes > 0
    assert back.elevation(0.0, 0.0) == pytest.approx(-50.0, abs=1e-9)
    assert np.isfinite(back.heights).all()


def test_flat_seabed_is_level_zero(tmp_path):
    """No relief: all levels 0, <size> z 1 m, read back at the seabed's height."""
    grid = GridSeabed(np.full((5, 7), -42.5), 0.0, 0.0, 2.0, 3.0)
    path, exported = export(tmp_path, grid)
    assert exported.size[2] == 1.0 and not exported.levels.any()
    back, _ = load_world_seabed(str(path))
    assert np.allclose(back.heights, -42.5, rtol=0, atol=1e-12)


VEHICLE = os.path.join(os.path.dirname(__file__), '..', '..', '..', 'config', 'bluerov2.yaml')


def test_export_sdf_cli_writes_the_seabed_world(tmp_path, capsys):
    """The command: a world with the heightmap, Bullet, spherical_coordinates; check reads it."""
    rasterio = require('rasterio')
    require('pyproj')
    transform = require('rasterio.transform').from_origin(5.89, 43.11, 1e-4, 1e-4)
    r, c = np.mgrid[0:200, 0:150]
    z = (-40.0 - 0.2 * r + 0.1 * c).astype(np.float32)
    tif = tmp_path / 'b.tif'
    with rasterio.open(tif, 'w', driver='GTiff', width=150, height=200, count=1,
                       dtype='float32', crs='EPSG:4326', transform=transform) as dst:
        dst.write(z, 1)
    out = tmp_path / 'out' / 'world.sdf'
    assert main(['export-sdf', VEHICLE, '--world', '--out', str(out), '--seabed', str(tif),
                 '--seabed-origin', '43.1,5.9', '--seabed-radius', '300']) == 0
    err = capsys.readouterr().err
    assert 'quantisation step' in err and "gz-sim's heights differ by at most" in err
    text = out.read_text()
    assert '<collision_detector>bullet</collision_detector>' in text
    assert '<latitude_deg>43.1</latitude_deg>' in text
    assert (out.parent / 'world_seabed.png').is_file()
    assert main(['check', VEHICLE, '--seabed', str(out), '--json']) == 0
    s = json.loads(capsys.readouterr().out)['seabed']
    assert s['origin'] == [43.1, 5.9] and 'gz-sim heightmap world_seabed.png' in s['crs']
    assert s['extent'][0] == pytest.approx(-300.0, abs=15.0)
    assert main(['check', VEHICLE, '--seabed', str(out)]) == 0
    assert 'world frame: gz-sim heightmap' in capsys.readouterr().out
    # a seabed needs a world and a file to put the PNG beside
    assert main(['export-sdf', VEHICLE, '--seabed', str(out)]) == 2
    assert 'give --world and --out FILE' in capsys.readouterr().err


def test_all_holes_is_refused():
    """Nothing to write: an error, not an empty heightmap."""
    grid = GridSeabed(np.full((3, 3), np.nan), 0.0, 0.0, 1.0, 1.0)
    with pytest.raises(DescriptionError, match='all holes'):
        heightmap_export.heightmap_of_grid(grid)
