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
``manoeuvre``: standard manoeuvres of a finned vehicle, flown offline, with ITTC figures.

``uwv-hydro manoeuvre VEHICLE turn|zigzag|pullout|spiral``: the vehicle starts level at
``--depth`` with ``--speed``; a vehicle with propellers (open-water curves K_T(J)) flies
at the fixed rpm that holds that speed straight, printed as ``cruise_rpm``, any other at
the constant surge force that does; the rudder fins (deflection axis along body z) steer,
the stern planes hold the depth (``--no-depth-hold``: centred).  Figures
(uwv_hydro.modes.manoeuvres.manoeuvre):

* turn: advance, transfer, tactical and steady diameter, steady speed, speed loss,
  drift angle, yaw rate (``--rudder`` deg, positive to port);
* zigzag: overshoot angles, period, time to the first reversal (``--rudder``/``--check``);
* pullout: yaw rate in the turn and left after ``--settle`` s with the rudder centred;
* spiral: steady yaw rate and speed for each of ``--angles`` (deg);
* hold (an ROV, open loop): ``--stick AXIS=FRACTION ...`` (surge, sway, heave, roll,
  pitch, yaw; FLU, in [-1, 1]) mixed onto the thrusters as ArduSub mixes its pilot's
  inputs and held ``--duration`` s from rest: steady speeds and rates, the largest
  roll and pitch (uwv_hydro.modes.rov_hold).

A vehicle without rudder fins whose thrusters can push ahead and turn (two side-by-side
propellers, a vectored ROV) turns by differential thrust: ``--differential D`` (default
0.5) is the yaw moment as a fraction of the cruise thrust times the thrusters' lateral
lever arm, positive to port (spiral: ``--angles`` are then such fractions, default
+-0.25, +-0.5, +-0.75); the heave force holds the depth.  Otherwise the command exits with
code 2 and the reason.

``--json`` prints the figures as JSON; ``--plot FILE.png`` draws the track and heading.
"""
import json
import math
import sys

import numpy as np

from uwv_hydro.cli.common import add_vehicle_arguments, load_vehicle_from_args
from uwv_hydro.cli.number_options import (
    check_steps, DEGREES, FINITE, POSITION, POSITIVE_DURATION, SPEED, STEP)
from uwv_hydro.description.errors import DescriptionError

#: The manoeuvres, as uwv_hydro.modes.manoeuvres.manoeuvre.MANOEUVRES (kept here: argparse
#: choices),
#: and the ROV's stick held (uwv_hydro.modes.rov_hold).
KINDS = ('turn', 'zigzag', 'pullout', 'spiral', 'hold')


def add_parser(sub):
    """Register the ``manoeuvre`` subcommand."""
    p = sub.add_parser('manoeuvre', help='standard manoeuvres (turn, zig-zag, pull-out, '
                       'spiral) with ITTC figures', description=__doc__)
    add_vehicle_arguments(p)
    p.add_argument('kind', choices=KINDS, help='the manoeuvre')
    p.add_argument('--speed', type=SPEED, default=1.5, help='approach speed [m/s]')
    p.add_argument('--depth', type=POSITION, default=5.0, help='depth held [m]')
    p.add_argument('--rudder', type=DEGREES, default=10.0,
                   help='rudder angle [deg], positive to port, at most the fin limit')
    p.add_argument('--check', type=DEGREES, help='zig-zag heading check angle [deg] '
                   '(default: the rudder angle)')
    p.add_argument('--angles', type=DEGREES, nargs='+', metavar='DEG',
                   help='spiral rudder angles [deg] (default -15 -10 -5 5 10 15; '
                   'differential thrust: fractions, default -0.75 .. 0.75)')
    p.add_argument('--differential', type=FINITE, default=0.5, metavar='D',
                   help='a vehicle without rudder: differential-thrust yaw moment as a '
                   'fraction in [-1, 1], positive to port')
    p.add_argument('--settle', type=POSITIVE_DURATION, default=60.0,
                   help='pull-out: seconds with the rudder centred')
    p.add_argument('--stick', nargs='+', metavar='AXIS=FRACTION', default=['surge=1'],
                   help='hold: the sticks held, FLU axes surge, sway, heave, roll, pitch, '
                   'yaw in [-1, 1]')
    p.add_argument('--duration', type=POSITIVE_DURATION, default=10.0,
                   help='hold: seconds flown from rest (the last 2 s, or all when shorter, '
                   'give the steady figures)')
    p.add_argument('--dt', type=STEP, default=0.02, help='simulate step [s]')
    p.add_argument('--no-depth-hold', action='store_true',
                   help='stern planes centred instead of holding the depth')
    p.add_argument('--json', action='store_true', help='print the figures as JSON')
    p.add_argument('--plot', metavar='FILE.png', help='plot the track and the heading')
    p.set_defaults(func=run)


def _fly(args, params):
    """Fly the manoeuvre; return its Figures."""
    from uwv_hydro.modes.manoeuvres.manoeuvre import Manoeuvre, ManoeuvreError
    try:
        manoeuvre = Manoeuvre(params, speed=args.speed, depth=args.depth, dt=args.dt,
                              depth_hold=not args.no_depth_hold)
    except ManoeuvreError as exc:
        raise DescriptionError(str(exc), params.source, 'manoeuvre') from None
    if manoeuvre.differential is not None:  # differential thrust: fractions, not angles
        values = args.angles or [-0.75, -0.5, -0.25, 0.25, 0.5, 0.75]
        if args.kind != 'spiral':
            values = [args.differential]
        for value in values:
            if not abs(value) <= 1.0:
                raise DescriptionError('differential %g is outside [-1, 1]' % value,
                                       params.source, 'manoeuvre')
        rudder, spiral = values[0], values
        check = math.radians(10.0 if args.check is None else args.check)
    else:
        limit = math.degrees(manoeuvre.max_rudder)
        angles = [args.rudder]
        if args.kind == 'spiral':
            angles = args.angles or [-15, -10, -5, 5, 10, 15]
        for angle in angles:
            if abs(angle) > limit + 1e-9:
                raise DescriptionError("rudder angle %g deg is beyond the fins' limit %.3g "
                                       'deg' % (angle, limit), params.source, 'manoeuvre')
        rudder, spiral = math.radians(args.rudder), [math.radians(a) for a in angles]
        check = None if args.check is None else math.radians(args.check)
    try:
        if args.kind == 'turn':
            return manoeuvre.turn(rudder)
        if args.kind == 'zigzag':
            return manoeuvre.zigzag(rudder, check)
        if args.kind == 'pullout':
            return manoeuvre.pullout(rudder, settle=args.settle)
        return manoeuvre.spiral(spiral)
    except ManoeuvreError as exc:  # a flight too long at its step
        raise DescriptionError(str(exc), params.source, 'manoeuvre') from None


def _hold(args, params):
    """Fly the ROV with the sticks held; return its figures (a dict)."""
    from uwv_hydro.modes.rov_hold import hold, HoldError, stick_commands
    sticks = {}
    for item in args.stick:
        axis, _, value = item.partition('=')
        if axis.strip() in sticks:
            raise DescriptionError('--stick %r: axis %r given twice' % (item, axis.strip()),
                                   params.source, 'manoeuvre')
        try:
            sticks[axis.strip()] = float(value)
        except ValueError:
            raise DescriptionError('--stick %r: AXIS=FRACTION, e.g. surge=0.75' % item,
                                   params.source, 'manoeuvre') from None
    try:
        return hold(params, stick_commands(params, sticks), duration=args.duration,
                    dt=args.dt, steady=min(2.0, args.duration), depth=args.depth).values
    except HoldError as exc:
        raise DescriptionError(str(exc), params.source, 'manoeuvre') from None


def _plot(figures, path, title):
    from uwv_hydro.cli.plotting import pyplot, save_figure
    plt = pyplot()
    fig, (track, heading) = plt.subplots(1, 2, figsize=(12, 5))
    if figures.flight is not None:
        f = figures.flight
        track.plot(f.position[:, 0], f.position[:, 1])
        track.set_aspect('equal', 'datalim')
        track.set_xlabel('x (east) [m]')
        track.set_ylabel('y (north) [m]')
        heading.plot(f.t, np.degrees(f.yaw - f.yaw[0]), label='heading change')
        heading.plot(f.t, np.degrees(f.rudder), label='rudder')
        heading.set_xlabel('t [s]')
        heading.set_ylabel('[deg]')
        heading.legend()
    else:
        table = np.array(figures.table)
        track.plot(table[:, 0], table[:, 1], 'o-')
        track.set_xlabel('rudder [deg] (differential thrust: fraction)')
        track.set_ylabel('steady yaw rate [deg/s]')
        heading.plot(table[:, 0], table[:, 2], 'o-')
        heading.set_xlabel('rudder [deg] (differential thrust: fraction)')
        heading.set_ylabel('steady speed [m/s]')
    save_figure(fig, path, title)


def run(args) -> int:
    """Fly the manoeuvre and print (or plot) its figures."""
    if args.kind == 'hold':
        check_steps(args.duration, args.dt, '--duration', '--dt')
    elif args.kind == 'pullout':
        check_steps(args.settle, args.dt, '--settle', '--dt')
    params = load_vehicle_from_args(args)
    if args.kind == 'hold':
        # options hold does not use: refused rather than silently ignored
        unused = [flag for flag, value, default in (
            ('--speed', args.speed, 1.5), ('--rudder', args.rudder, 10.0),
            ('--check', args.check, None), ('--angles', args.angles, None),
            ('--differential', args.differential, 0.5), ('--settle', args.settle, 60.0),
            ('--no-depth-hold', args.no_depth_hold, False), ('--plot', args.plot, None))
            if value != default]
        if unused:
            raise DescriptionError('hold takes --stick, --duration, --depth and --dt, not %s'
                                   % ', '.join(unused), params.source, 'manoeuvre')
        values = _hold(args, params)
        if args.json:
            print(json.dumps({'vehicle': params.name, 'manoeuvre': 'hold',
                              'stick': args.stick, 'figures': values}, indent=2))
            return 0
        print('%s: stick %s held %g s' % (params.name, ' '.join(args.stick), args.duration))
        for name, value in values.items():
            print('  %-26s %10.3f' % (name, round(value, 3) + 0.0))  # no -0.000
        return 0
    figures = _fly(args, params)
    if args.plot:
        _plot(figures, args.plot, '%s: %s' % (params.name, args.kind))
    if args.json:
        print(json.dumps({'vehicle': params.name, 'manoeuvre': args.kind,
                          'speed': args.speed, 'depth': args.depth,
                          'figures': figures.values,
                          'spiral': [dict(zip(('rudder_deg', 'yaw_rate_deg_s',
                                               'speed_m_s'), row))
                                     for row in figures.table],
                          'warnings': list(params.warnings)}, indent=2))
    else:
        print('%s: %s from %g m/s at %g m' % (params.name, args.kind, args.speed, args.depth))
        for name, value in figures.values.items():
            print('  %-26s %10.3f' % (name, round(value, 3) + 0.0))
        for row in figures.table:
            print('  rudder %6.1f deg: yaw rate %7.3f deg/s, speed %.3f m/s' % tuple(row))
    if args.plot:  # stdout carries the JSON with --json: the note goes to stderr then
        print('wrote %s (plot)' % args.plot, file=sys.stderr if args.json else sys.stdout)
    return 0
