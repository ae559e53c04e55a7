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
``uwv-hydro wrench VEHICLE --velocity u v w p q r``: print the wrench the node publishes.

Inputs: the base-link body twist (as nav_msgs/Odometry twist), the world position
(ENU, z up; default: deep enough to be fully submerged), the world <- body
quaternion [w x y z], a world (ENU) current or a current description
(``--current-file``, sampled at the position and ``--time``), and the node's
wrench-mode options:
``--added-mass implicit|lagged`` and ``--apply-weight`` (the node's ``added_mass`` and
``apply_weight`` parameters, same defaults).  With ``lagged`` the node's filtered
acceleration estimate is given as ``--acceleration`` (default zero, as on the node's
first sample).  The sample goes through the node's own wrench mode
(:class:`uwv_hydro.modes.wrench_mode.WrenchMode`), so the output is the node's
``hydro/wrench`` for that odometry.  Output (``--json``): ``{"frame", "gravity",
"fluid_density", "added_mass", "apply_weight", "components": {name: [6]}, "total":
[6], "units": [6]}`` -- body-frame FLU wrenches about the body origin; total is the sum of the
components (the weight is zero unless ``--apply-weight``).
"""
import json
import math

import numpy as np

from uwv_hydro.cli.common import (add_current_file_argument, add_vehicle_arguments,
                                  finite_vector, load_current_from_args, load_vehicle_from_args,
                                  load_warnings)
from uwv_hydro.cli.number_options import (
    ACCELERATION, POSITION, QUATERNION, TIME, VELOCITY)
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.modes.wrench_mode import (ADDED_MASS_MODES, QUATERNION_NORM_RANGE,
                                         unit_quaternion, WrenchMode)
from uwv_hydro.physics.body.vehicle_params import COMPONENT_NAMES

#: The wrench's entries and their units (the JSON's ``units``).
AXES = ('Fx', 'Fy', 'Fz', 'Tx', 'Ty', 'Tz')
UNITS = ('N', 'N', 'N', 'N m', 'N m', 'N m')


def add_parser(subparsers) -> None:
    """Register the ``wrench`` subcommand."""
    parser = subparsers.add_parser(
        'wrench', help='print the hydrostatic/hydrodynamic wrench for one state',
        description='Print the body-frame (FLU) wrench components about the body origin.')
    add_vehicle_arguments(parser)
    parser.add_argument('--velocity', nargs=6, type=VELOCITY, required=True,
                        metavar=('U', 'V', 'W', 'P', 'Q', 'R'),
                        help='body twist of the base link (m/s, rad/s)')
    parser.add_argument('--position', nargs=3, type=POSITION, metavar=('X', 'Y', 'Z'),
                        help='world position (ENU, m); default fully submerged')
    parser.add_argument('--orientation', nargs=4, type=QUATERNION,
                        metavar=('QW', 'QX', 'QY', 'QZ'),
                        help='world <- body quaternion; default level')
    parser.add_argument('--added-mass', choices=ADDED_MASS_MODES, default='implicit',
                        help="as the node's added_mass: implicit (the simulator carries "
                        'M_A, default) or lagged (-M_A times --acceleration is emitted)')
    parser.add_argument('--apply-weight', action='store_true',
                        help="include the weight, as the node's apply_weight (default: "
                        'the simulator applies gravity)')
    parser.add_argument('--acceleration', nargs=6, type=ACCELERATION, metavar='A',
                        help='with --added-mass lagged: the filtered body twist derivative '
                        '(m/s^2, rad/s^2); default zero')
    parser.add_argument('--current', nargs=3, type=VELOCITY, metavar=('CX', 'CY', 'CZ'),
                        help='world (ENU) current velocity (m/s)')
    add_current_file_argument(parser)
    parser.add_argument('--time', type=TIME, default=0.0,
                        help="with --current-file: the field's time (s), default 0")
    parser.add_argument('--json', action='store_true', help='print JSON')
    parser.set_defaults(func=run)


class _GivenAcceleration:
    """The lagged estimator's output given on the command line (a WrenchMode estimator)."""

    def __init__(self, nu_dot):
        self.nu_dot = np.zeros(6) if nu_dot is None else np.asarray(nu_dot, float)

    def update(self, nu, t) -> np.ndarray:
        """Return the given estimate (the twist and time do not change it)."""
        return self.nu_dot.copy()

    def reset(self) -> None:
        """Nothing to forget."""


def run(args) -> int:
    """Compute and print the wrench; return 0."""
    velocity = finite_vector(args.velocity, '--velocity', 6)
    position = finite_vector(args.position, '--position', 3)
    orientation = finite_vector(args.orientation, '--orientation', 4)
    acceleration = finite_vector(args.acceleration, '--acceleration', 6)
    current = finite_vector(args.current, '--current', 3)
    if orientation is not None:
        # the node's rule for odometry quaternions: normalised, or dropped if |q| is far off
        orientation, norm = unit_quaternion(orientation)
        if orientation is None:
            raise DescriptionError('quaternion norm %g is outside (%g, %g): the node drops '
                                   'such odometry' % ((norm,) + QUATERNION_NORM_RANGE),
                                   '<command line>', '--orientation')
    if acceleration is not None and args.added_mass != 'lagged':
        raise DescriptionError('--acceleration is the lagged estimate of the twist '
                               'derivative: give it with --added-mass lagged (implicit: the '
                               'simulator integrates M_A itself)', '<command line>',
                               '--acceleration')
    params = load_vehicle_from_args(args)
    mode = WrenchMode(params, added_mass=args.added_mass, apply_weight=args.apply_weight)
    mode.estimator = _GivenAcceleration(acceleration)
    mode.field = load_current_from_args(args)
    t = 0.0
    if mode.field is not None:
        if not math.isfinite(args.time):
            raise DescriptionError('must be finite', '<command line>', '--time')
        # the field's time is --time: its clock starts at 0
        mode.t0, t = 0.0, args.time
    with np.errstate(all='ignore'):  # overflow is reported below, as one clear error
        result = mode.evaluate(t, position, orientation, velocity, current)
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
        'added_mass': args.added_mass,
        'apply_weight': args.apply_weight,
        'components': components,
        'total': [float(v) for v in result.total],
        'units': list(UNITS),
        'source': params.source,
        'warnings': load_warnings(params, args),
    }
    if args.json:
        print(json.dumps(out))
        return 0
    print('wrench on %s (body FLU, about the origin), added mass %s, weight %s:'
          % (out['frame'], args.added_mass,
             'applied' if args.apply_weight else 'not applied (simulator)'))
    print('  %-20s %s' % ('', ' '.join('%12s' % ('%s [%s]' % column)
                                       for column in zip(AXES, UNITS))))
    for name in COMPONENT_NAMES + ('total',):
        values = out['total'] if name == 'total' else components[name]
        # + 0.0: a term that is exactly zero prints 0, not -0
        print('  %-20s %s' % (name, ' '.join('%12.6g' % (v + 0.0) for v in values)))
    return 0
