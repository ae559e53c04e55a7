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
``uwv-hydro export-sdf VEHICLE``: the vehicle's rigid body and added mass for gz-sim.

Writes an SDF model (default), a whole world (``--world``) or only the ``<inertial>``
with ``<fluid_added_mass>`` (``--inertial-only``) to stdout or ``--out``;
``--bridge-config FILE`` also writes the matching ros_gz_bridge config.  The SDF
loader reads the output back to the same M_RB and M_A
(:mod:`uwv_hydro.description.sdf.export`).  ``--seabed`` (as on ``check``, with
``--world --out FILE``) adds the seabed as a ``<heightmap>`` model, its 16-bit PNG
beside FILE (:mod:`uwv_hydro.description.sdf.heightmap_export`), and reads the world
back as the node would to state the difference on stderr.
"""
import os
import sys

from uwv_hydro.cli.common import (add_seabed_arguments, add_vehicle_arguments, finite_vector,
                                  load_seabed_from_args, load_vehicle_from_args)
from uwv_hydro.cli.number_options import POSITION, STEP
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.sdf import export as sdf_export
from uwv_hydro.description.sdf.gz_bridge import bridge_yaml


def add_parser(subparsers) -> None:
    """Register the ``export-sdf`` subcommand."""
    parser = subparsers.add_parser(
        'export-sdf', help='write the vehicle as SDF for gz-sim (inertial + fluid added mass)',
        description='Write the <inertial> of the vehicle with <fluid_added_mass> (about the '
                    'link origin) as an SDF model, a world, or the <inertial> element alone.')
    add_vehicle_arguments(parser)
    what = parser.add_mutually_exclusive_group()
    what.add_argument('--world', action='store_true',
                      help='write a world: DART physics, ApplyLinkWrench, the model')
    what.add_argument('--inertial-only', action='store_true',
                      help='write only the <inertial> element (to paste into a <link>)')
    parser.add_argument('--out', metavar='FILE', help='output file (default: stdout)')
    parser.add_argument('--model-name', metavar='NAME',
                        help='model name (default: the vehicle name)')
    parser.add_argument('--world-name', default=sdf_export.DEFAULT_WORLD_NAME, metavar='NAME',
                        help='world name (default: %(default)s)')
    parser.add_argument('--step-size', type=STEP, default=sdf_export.DEFAULT_STEP_SIZE,
                        metavar='S', help='physics step and odometry period (s, default '
                                          '%(default)s)')
    parser.add_argument('--position', nargs=3, type=POSITION, metavar=('X', 'Y', 'Z'),
                        default=list(sdf_export.DEFAULT_POSITION),
                        help='initial model position (ENU, m; default %(default)s)')
    parser.add_argument('--bridge-config', metavar='FILE',
                        help='also write the ros_gz_bridge config for this model and world')
    add_seabed_arguments(parser)
    parser.set_defaults(func=run)


def _write(path, text: str) -> None:
    if path is None:
        sys.stdout.write(text)
        return
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    with open(path, 'w', newline='\n') as f:
        f.write(text)


def _seabed(args, comments):
    """Return (seabed model, datum, PNG path, levels) of --seabed, written beside --out."""
    from uwv_hydro.description.sdf import heightmap_export
    if not args.world or not args.out:
        raise DescriptionError('the seabed is written as a heightmap into a world: give '
                               '--world and --out FILE (its PNG goes beside FILE)',
                               element='--seabed')
    grid, info = load_seabed_from_args(args)
    exported = heightmap_export.heightmap_of_grid(grid)
    png = os.path.splitext(os.path.abspath(args.out))[0] + '_seabed.png'
    n = exported.levels.shape[0]
    comments.append('Seabed: %s as %s, %d x %d 16-bit levels, quantisation step %s m; '
                    'holes written at the lowest height (%d of the samples).' % (
                        info.source, os.path.basename(png), n, n,
                        '%.3g' % exported.quantisation, exported.holes))
    model = heightmap_export.seabed_model(os.path.basename(png), exported, sdf_export.number)
    return model, info.origin, png, exported, grid


def _compare(out, grid, exported) -> str:
    """Return the line stating how far the written heightmap is from the seabed."""
    import numpy as np
    from uwv_hydro.description.sdf.world_seabed import load_world_seabed
    back, _ = load_world_seabed(out)
    ny, nx = grid.shape
    xs = grid.x0 + np.arange(nx) * grid.dx
    ys = grid.y0 + np.arange(ny) * grid.dy
    # the read-back seabed at the source nodes (bilinear between the heightmap's nodes)
    diff = back.elevation(xs[None, :], ys[:, None]) - grid.heights
    worst = float(np.nanmax(np.abs(diff))) if np.isfinite(diff).any() else 0.0
    n = exported.levels.shape[0]
    return ('seabed heightmap: %d x %d nodes of %.4g x %.4g m; quantisation step %.3g m; '
            "at the seabed's %d x %d nodes gz-sim's heights differ by at most %.3g m "
            '(quantisation + resampling); %d holes written at z %.6g m\n' % (
                n, n, back.dx, back.dy, exported.quantisation, ny, nx, worst,
                exported.holes, exported.zmin))


def run(args) -> int:
    """Export the vehicle; return 0."""
    position = finite_vector(args.position, '--position', 3)
    params = load_vehicle_from_args(args)
    model = args.model_name or params.name
    comments = ['Written by `uwv-hydro export-sdf` from %s.' % os.path.basename(args.vehicle)]
    seabed = datum = None
    if getattr(args, 'seabed', None) or getattr(args, 'seabed_origin', None):
        from uwv_hydro.description.sdf.heightmap_export import write_png
        seabed, datum, png, exported, grid = _seabed(args, comments)
    text = sdf_export.export_sdf(
        params, world=args.world, model_name=model, world_name=args.world_name,
        position=position, step_size=args.step_size, inertial_only=args.inertial_only,
        comments=comments, seabed=seabed, datum=datum)
    _write(args.out, text)
    if seabed is not None:
        write_png(png, exported.levels)
        sys.stderr.write(_compare(args.out, grid, exported))
    if args.bridge_config:
        _write(args.bridge_config, bridge_yaml(model, args.world_name))
    return 0
