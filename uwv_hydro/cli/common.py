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

"""Argument helpers shared by the subcommands (vehicle loading, vectors, mappings)."""

import math

from uwv_hydro.cli.number_options import RADIUS
from uwv_hydro.description.errors import DescriptionError, missing_file


def add_vehicle_arguments(parser, positional: bool = True) -> None:
    """Add VEHICLE (or --vehicle) and --set name:=value (xacro mappings)."""
    if positional:
        parser.add_argument('vehicle', metavar='VEHICLE',
                            help='URDF, xacro, SDF or YAML vehicle description')
    else:
        parser.add_argument('--vehicle', required=True, metavar='VEHICLE',
                            help='URDF, xacro, SDF or YAML vehicle description')
    parser.add_argument('--set', action='append', default=[], metavar='NAME:=VALUE',
                        help='xacro argument (repeatable); a name no <xacro:arg> of the '
                        'vehicle declares is refused, as is --set on a vehicle without '
                        'xacro (a YAML file: edit its keys)')
    parser.add_argument('--robot-description', metavar='URDF', default='',
                        help='URDF/xacro/SDF file given as robot_description, under a YAML '
                             'VEHICLE (the node rule: rigid body and frames from it, '
                             'hydrodynamics from the YAML alone)')
    parser.add_argument('--model', metavar='NAME', default='',
                        help='the model of an SDF world to use as the vehicle (needed when '
                             'several models carry hydrodynamics, buoyancy or thrusters)')
    parser.add_argument('--package-path', action='append', default=[], metavar='DIR',
                        help='directory searched recursively for ROS 1 packages (package.xml) '
                             'by $(find pkg) in xacro, after the ament index and before '
                             'ROS_PACKAGE_PATH (repeatable)')
    parser.add_argument('--allow-nonphysical', action='store_true',
                        help='load drag / added mass that fail the physical checks with a '
                             'warning instead of an error')


def add_current_file_argument(parser) -> None:
    """Add --current-file FILE (a current description: constant, profile, tide, csv, ...)."""
    parser.add_argument('--current-file', metavar='FILE.yaml',
                        help='current description (YAML current: {type: constant|profile|'
                        'tide|csv|gauss_markov, ...}; doc/guide/currents.md); replaces '
                        '--current')


def load_current_from_args(args):
    """
    Return the current field of --current-file (None without it).

    Its warnings go to stderr and stay on ``args.current_warnings`` for the JSON
    outputs (:func:`load_warnings`).
    """
    args.current_warnings = []
    path = getattr(args, 'current_file', None)
    if not path:
        return None
    if getattr(args, 'current', None) is not None:
        raise DescriptionError('give --current or --current-file, not both',
                               element='--current-file')
    from uwv_hydro.description.current_file import load_current_file
    import sys
    field, warnings = load_current_file(path)
    for warning in warnings:
        print('warning: %s' % warning, file=sys.stderr)
    args.current_warnings = list(warnings)
    return field


def add_seabed_arguments(parser) -> None:
    """Add --seabed FILE, --seabed-origin LAT,LON and --seabed-radius M."""
    parser.add_argument('--seabed', metavar='FILE',
                        help='seabed under the DVLs and echosounders, and (simulate) the one '
                             'the vehicle lands on: a bathymetry grid (.asc, .tif, .nc, .grd), '
                             'an SDF world (.sdf, .world: its <heightmap>) or a YAML seabed '
                             'description (seabed: {file:, origin:} or {depth:}); replaces '
                             'their flat seabed_depth (doc/guide/seabed.md)')
    parser.add_argument('--seabed-origin', metavar='LAT,LON',
                        help='geodetic datum (deg) of the world origin on the bathymetry grid '
                             '(an SDF world: default its <spherical_coordinates>)')
    parser.add_argument('--seabed-radius', type=RADIUS, metavar='M',
                        help='read only the square of this half-side (m) around the origin')


def load_seabed_from_args(args):
    """Return (GridSeabed, SeabedInfo) of --seabed (None without it)."""
    if not getattr(args, 'seabed', None) and not getattr(args, 'seabed_origin', None):
        return None
    from uwv_hydro.description.seabed.seabed_file import seabed_from_options
    return seabed_from_options(args.seabed, args.seabed_origin, args.seabed_radius)


def load_warnings(params, args) -> list:
    """Return every warning of the load: the vehicle's, then the current file's."""
    return list(params.warnings) + list(getattr(args, 'current_warnings', []))


def mappings(pairs):
    """Turn ['a:=1', ...] into {'a': '1'}; raise DescriptionError on a malformed pair."""
    out = {}
    for pair in pairs or ():
        name, sep, value = pair.partition(':=')
        if not sep or not name:
            raise DescriptionError("expected NAME:=VALUE, got '%s'" % pair, element='--set')
        out[name] = value
    return out


def load_vehicle_with_notes(args):
    """Load and validate the vehicle named by the parsed arguments; return (params, notes)."""
    from uwv_hydro.description.loader import load_combined
    from uwv_hydro.description.urdf.xacro_args import check_mappings, recording
    from uwv_hydro.description.urdf.xacro_file import expand_xacro
    from uwv_hydro.description.xml_safe import read_text_file
    names = mappings(args.set)
    description = ''
    with recording() as declared:  # the xacro arguments the load declares
        if args.robot_description:
            path = args.robot_description
            missing_file(path, '--robot-description',
                         'robot description file (URDF, xacro or SDF)')
            description = (expand_xacro(path, names, args.package_path)
                           if path.lower().endswith('.xacro') else read_text_file(path))
        loaded = load_combined(description, args.vehicle, names, args.allow_nonphysical,
                               args.robot_description or '<robot_description>',
                               getattr(args, 'model', ''), args.package_path)
    # a misspelled name, or --set on a vehicle without xacro, is refused, not ignored
    check_mappings(names, declared, args.vehicle)
    return loaded


def load_vehicle_from_args(args):
    """
    Load and validate the vehicle named by the parsed arguments.

    Its warnings go to stderr (``check`` lists them in its summary instead): a vehicle
    without drag or buoyancy is not simulated in silence.
    """
    import sys
    params = load_vehicle_with_notes(args)[0]
    for warning in params.warnings:
        print('warning: %s' % warning, file=sys.stderr)
    return params


def finite_vector(values, name: str, size: int):
    """Check a parsed vector option: right length, all finite."""
    if values is None:
        return None
    values = [float(v) for v in values]
    if len(values) != size:
        raise DescriptionError('expected %d numbers, got %d' % (size, len(values)),
                               element=name)
    if not all(math.isfinite(v) for v in values):
        raise DescriptionError('values must be finite, got %s' % ' '.join(
            '%g' % v for v in values), element=name)
    return values
