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
``uwv-hydro wrench VEHICLE --velocity u v w p q r``: print the hydro wrench.

Inputs: the base-link body twist (as nav_msgs/Odometry twist), the world position
(ENU, z up; default: deep enough to be fully submerged), the world <- body
quaternion [w x y z], the body twist derivative and a world (ENU) current.
Output (``--json``): ``{"frame", "gravity", "fluid_density", "components": {name:
[6]}, "total": [6]}`` -- body-frame FLU wrenches about the body origin; total is the
sum of the components (:class:`uwv_hydro.physics.hydro_model.HydroModel`).
"""
import json
import math

import numpy as np

from uwv_hydro.cli.common import add_vehicle_arguments, finite_vector, load_vehicle_from_args
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.physics.vehicle_params import COMPONENT_NAMES


def add_parser(subparsers) -> None:
    """Register the ``wrench`` subcommand."""
    parser = subparsers.add_parser(
        'wrench', help='print the hydrostatic/hydrodynamic wrench for one state',
        description='Print the body-frame (FLU) wrench components about the body origin.')
    add_vehicle_arguments(parser)
    parser.add_argument('--velocity', nargs=6, type=float, required=True,
                        metavar=('U', 'V', 'W', 'P', 'Q', 'R'),
                        help='body twist of the base link (m/s, rad/s)')
    parser.add_argument('--position', nargs=3, type=float, metavar=('X', 'Y', 'Z'),
                        help='world position (ENU, m); default fully submerged')
    parser.add_argument('--orientation', nargs=4, type=float,
                        metavar=('QW', 'QX', 'QY', 'QZ'),
                        help='world <- body quaternion; default level')
    parser.add_argument('--acceleration', nargs=6, type=float, metavar='A',
                        help='body twist derivative (m/s^2, rad/s^2); default zero')
    parser.add_argument('--current', nargs=3, type=float, metavar=('CX', 'CY', 'CZ'),
                        help='world (ENU) current velocity (m/s)')
    parser.add_argument('--json', action='store_true', help='print JSON')
    parser.set_defaults(func=run)


def run(args) -> int:
    """Compute and print the wrench; return 0."""
    from uwv_hydro.physics.hydro_model import HydroModel
    velocity = finite_vector(args.velocity, '--velocity', 6)
    position = finite_vector(args.position, '--position', 3)
    orientation = finite_vector(args.orientation, '--orientation', 4)
    acceleration = finite_vector(args.acceleration, '--acceleration', 6)
    current = finite_vector(args.current, '--current', 3)
    if orientation is not None:
        from uwv_hydro.physics.rotation import quat_normalize
        try:
            orientation = quat_normalize(orientation)
        except ValueError:
            raise DescriptionError('quaternion has zero norm', '<command line>',
                                   '--orientation') from None
    params = load_vehicle_from_args(args)
    with np.errstate(all='ignore'):  # overflow is reported below, as one clear error
        result = HydroModel(params).wrench(velocity, position=position,
                                           quaternion=orientation, nu_dot=acceleration,
                                           current_world=current)
    bad = [name for name in COMPONENT_NAMES
           if not all(math.isfinite(v) for v in result.components[name])]
    if bad:
        raise DescriptionError('the %s wrench overflows (is not finite) for these inputs; '
                               'are the velocities in m/s and rad/s?' % ', '.join(bad),
                               '<command line>', '--velocity')
    components = {name: [float(v) for v in result.components[name]]
                  for name in COMPONENT_NAMES}
    out = {
        'frame': params.base_frame,
        'gravity': params.gravity,
        'fluid_density': params.fluid_density,
        'components': components,
        'total': [float(v) for v in result.total],
        'source': params.source,
        'warnings': list(params.warnings),
    }
    if args.json:
        print(json.dumps(out))
        return 0
    print('wrench on %s (body FLU, about the origin) [Fx Fy Fz Tx Ty Tz]:' % out['frame'])
    for name in COMPONENT_NAMES + ('total',):
        values = out['total'] if name == 'total' else components[name]
        print('  %-20s %s' % (name, ' '.join('%12.6g' % v for v in values)))
    return 0
