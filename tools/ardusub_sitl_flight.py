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


r"""
Fly the real ArduSub (SITL, ``--model JSON``) against the uwv_hydro node and report.

Not part of the test suite (CI cannot build ArduPilot): run it on a machine where
ArduSub SITL is built (doc/guide/ardusub_sitl.md ("Start it")) and pymavlink importable::

    tools/run python tools/ardusub_sitl_flight.py --ardusub ARDUPILOT/build/sitl/bin/ardusub \\
        --ardupilot ARDUPILOT --vehicle bluerov2 --json

It starts the node (``ardusub_input: sitl_json``, the vehicle's config file) and ArduSub
(``--model JSON``, the frame's default parameters: sub.parm or sub-6dof.parm), sets
``BARO_SPEC_GRAV`` so that ArduSub's SITL barometer (sea water of 1024 kg/m^3) reads the
true depth, arms through MAVLink and flies with MANUAL_CONTROL sticks:

1. MANUAL, full forward stick: the steady forward speed and the largest pitch and roll;
   (``JS_GAIN_DEFAULT`` 1 by default here: ArduSub's 0.5 halves every stick);
2. ALT_HOLD: down to ``--depth``, stick released, the depth held (the node's depth from
   its odometry; ArduSub's estimate from GLOBAL_POSITION_INT and its barometer's from
   SCALED_PRESSURE) and their differences; the vehicle starts floating still at its
   equilibrium (simulated first), as a BlueROV2 switched on at the surface;
3. STABILIZE: full yaw stick, then released: the yaw rate under the stick and after;
4. optionally ``--soak`` seconds of physics time at ``--speedup``: the lock-step
   counters of the node's /diagnostics (gaps, repeats, resets) and its real-time factor.

With ``--surftrak`` it flies SURFTRAK over a sloping seabed instead: it writes an ESRI
ASCII grid (and its .prj, the transverse Mercator on the home position) of the plane
z = -``--seabed-depth`` + ``--seabed-slope`` x (ENU, rising eastwards for a positive
slope) in a temporary directory, gives it to the node (``seabed_file``: the replies then
carry ``rng_1``) and ArduSub a downward SITL rangefinder (``RNGFND1_TYPE`` 100,
``RNGFND1_ORIENT`` 25, ``RNGFND1_MIN`` / ``RNGFND1_MAX``), arms, goes down in ALT_HOLD to
``--surftrak-depth``, switches to SURFTRAK (mode 21), waits ``--hold-settle-s`` and
flies ``--surftrak-s`` of physics time east with the forward stick ``--surftrak-stick``
(of 1000), logging the altitude above the plane from the node's odometry (its truth)
and ArduSub's rangefinder (RANGEFINDER, DISTANCE_SENSOR): the altitude's mean and
largest deviation from ArduSub's rangefinder target (its STATUSTEXT "rangefinder target
is ... meters").  ``--surftrak-log FILE`` writes the samples as CSV.

Prints one JSON document (``--json``) or a table.
"""
import argparse
import json
import math
import os
import sys
import tempfile

from ardusub_sitl_link import Flight, VEHICLES  # tools/, beside this file
import numpy as np


def write_slope(path, origin, depth, slope, x_range=(-50.0, 200.0), half_y=50.0, step=1.0):
    """
    Write the plane z = -depth + slope x (ENU, m) as an ESRI ASCII grid and its .prj.

    The .prj is the transverse Mercator on ``origin`` (lat, lon): the grid's coordinates
    are the world's east and north (doc/guide/seabed.md).
    """
    x = np.arange(x_range[0], x_range[1] + step / 2, step)
    y = np.arange(-half_y, half_y + step / 2, step)
    with open(path, 'w') as out:
        out.write('ncols %d\nnrows %d\nxllcenter %r\nyllcenter %r\ncellsize %r\n'
                  % (len(x), len(y), float(x[0]), float(y[0]), float(step)))
        row = ' '.join(repr(float(-depth + slope * xi)) for xi in x)
        out.writelines(row + '\n' for _ in y)  # rows north to south: all alike
    with open(os.path.splitext(path)[0] + '.prj', 'w') as out:
        out.write('+proj=tmerc +lat_0=%r +lon_0=%r +k=1 +x_0=0 +y_0=0 +ellps=WGS84 '
                  '+units=m +no_defs' % tuple(origin))


def _stats(values):
    values = np.asarray(values, dtype=float)
    return {'mean': float(np.mean(values)), 'min': float(np.min(values)),
            'max': float(np.max(values)), 'rms': float(np.sqrt(np.mean(values ** 2)))}


def fly_surftrak(args):
    """Fly SURFTRAK over a sloping seabed; return the figures."""
    out = {'vehicle': args.vehicle, 'speedup': args.speedup, 'seabed': {
        'depth_at_origin_m': args.seabed_depth, 'slope': args.seabed_slope}}
    origin = [float(v) for v in args.home.split(',')[:2]]

    def seabed_z(x):  # the plane written to the grid (ENU elevation, m)
        return -args.seabed_depth + args.seabed_slope * x
    with tempfile.TemporaryDirectory() as workdir:
        grid = os.path.join(workdir, 'slope.asc')
        write_slope(grid, origin, args.seabed_depth, args.seabed_slope)
        node_params = ['seabed_file:=' + grid, 'seabed_origin:=%r,%r' % tuple(origin),
                       'sitl_json_rangefinder_max:=%r' % args.rangefinder_max]
        ap_params = ['RNGFND1_TYPE 100', 'RNGFND1_ORIENT 25', 'RNGFND1_MIN %g' % 0.3,
                     'RNGFND1_MAX %g' % args.rangefinder_max]
        out['ardusub_parameters'] = ap_params
        f = Flight(args, workdir, node_params, ap_params)
        try:
            f.pump(args.settle_s)
            f.set_mode('MANUAL')
            f.arm()
            f.set_mode('ALT_HOLD')
            f.sticks = (0, 0, 0, 0)  # full down
            f.run_for(0.5)
            while f.odom[1] < args.surftrak_depth:
                f.pump(0.02)
            f.sticks = (0, 0, 500, 0)
            f.run_for(args.hold_settle_s)
            f.range_target = None
            f.set_mode('SURFTRAK')
            f.run_for(args.hold_settle_s)
            if f.range_target is None:
                raise RuntimeError('SURFTRAK set no rangefinder target (ArduSub said: %s)'
                                   % ' | '.join(f.texts[-5:]))
            samples = []

            def sample():
                x, y = f.odom_xy
                samples.append((f.odom[0], x, y, f.odom[1], -f.odom[1] - seabed_z(x),
                                f.ap_range if f.ap_range is not None else math.nan,
                                f.ap_distance if f.ap_distance is not None else math.nan,
                                math.degrees(f.odom[2][1]), f.range_target))
            f.run_for(args.hold_s, sample)  # still: the hold
            n_still = len(samples)
            f.sticks = (args.surftrak_stick, 0, 500, 0)
            f.run_for(args.surftrak_s, sample)
            f.sticks = (0, 0, 500, 0)
            f.pump(2.5)
            out['lock_step'] = f.diag
            out['ardusub_rangefinder_messages'] = [t for t in f.texts if 'range' in t]
        finally:
            f.close()
    a = np.array(samples, dtype=float)
    target = a[0, 8]
    still, moving = a[:n_still], a[n_still:]
    out['target_altitude_m'] = target
    out['hold_still'] = {'seconds': float(still[-1, 0] - still[0, 0]),
                         'altitude_minus_target_m': _stats(still[:, 4] - target)}
    out['forward'] = {
        'seconds': float(moving[-1, 0] - moving[0, 0]),
        'distance_east_m': float(moving[-1, 1] - moving[0, 1]),
        'seabed_rise_m': float(seabed_z(moving[-1, 1]) - seabed_z(moving[0, 1])),
        'depth_m': [float(moving[0, 3]), float(moving[-1, 3])],
        'altitude_minus_target_m': _stats(moving[:, 4] - target),
        'max_abs_deviation_m': float(np.max(np.abs(moving[:, 4] - target))),
        'max_pitch_deg': float(np.max(np.abs(moving[:, 7]))),
        'target_changes': int(np.count_nonzero(np.diff(a[:, 8]))),
    }
    seen = a[np.isfinite(a[:, 5])]
    if len(seen):
        out['ardusub_rangefinder_minus_altitude_m'] = _stats(seen[:, 5] - seen[:, 4])
    if args.surftrak_log:
        np.savetxt(args.surftrak_log, a, delimiter=',', header='t_s,x_m,y_m,depth_m,'
                   'altitude_m,ardusub_range_m,ardusub_distance_sensor_m,pitch_deg,'
                   'target_m', comments='')
    return out


def fly(args):
    """Fly the sequence; return the figures."""
    if args.surftrak:
        return fly_surftrak(args)
    out = {'vehicle': args.vehicle, 'speedup': args.speedup}
    with tempfile.TemporaryDirectory() as workdir:
        f = Flight(args, workdir)
        try:
            f.pump(args.settle_s)
            out['floating_depth_m'] = f.floating_depth
            f.set_mode('MANUAL')
            f.arm()
            # 1. MANUAL, full forward stick
            f.sticks = (1000, 0, 500, 0)
            speeds, tilt = [], [0.0]

            def forward():
                speeds.append((f.odom[0], f.odom[3]))
                tilt.append(max(abs(f.odom[2][0]), abs(f.odom[2][1])))
            f.run_for(args.forward_s, forward)
            t_end = speeds[-1][0]
            tail = [u for t, u in speeds if t > t_end - 5.0]
            out['manual_forward'] = {'speed_m_s': float(np.mean(tail)),
                                     'max_tilt_deg': math.degrees(max(tilt))}
            f.sticks = (0, 0, 500, 0)
            f.run_for(10.0)
            # 2. ALT_HOLD at a depth
            f.set_mode('ALT_HOLD')
            f.sticks = (0, 0, 0, 0)  # full down
            f.run_for(0.5)
            while f.odom[1] < args.depth:
                f.pump(0.02)
            f.sticks = (0, 0, 500, 0)
            f.run_for(args.hold_settle_s)
            depths, diffs, baro = [], [], []

            def hold():
                depths.append(f.odom[1])
                if f.ap_depth is not None:
                    diffs.append(f.ap_depth - f.odom[1])
                if f.ap_baro_depth is not None:
                    baro.append(f.ap_baro_depth - f.odom[1])
            f.run_for(args.hold_s, hold)
            out['alt_hold'] = {'mean_depth_m': float(np.mean(depths)),
                               'max_deviation_m': float(np.max(np.abs(
                                   np.array(depths) - np.mean(depths)))),
                               'ardusub_minus_node_m': [float(np.min(diffs)),
                                                        float(np.max(diffs))],
                               'ardusub_baro_minus_node_m': [float(np.min(baro)),
                                                             float(np.max(baro))]}
            # 3. STABILIZE, yaw stick then released
            f.set_mode('STABILIZE')
            f.sticks = (0, 0, 500, 1000)
            rates = []
            f.run_for(args.yaw_s, lambda: rates.append((f.odom[0], f.odom[4])))
            t_end = rates[-1][0]
            stick_rate = np.mean([r for t, r in rates if t > t_end - 2.0])
            f.sticks = (0, 0, 500, 0)
            after = []
            f.run_for(args.release_s, lambda: after.append((f.odom[0], f.odom[4], f.odom[2][2])))
            t_end = after[-1][0]
            tail = [(r, y) for t, r, y in after if t > t_end - 5.0]
            out['stabilize_yaw'] = {
                'stick_yaw_rate_deg_s': math.degrees(abs(stick_rate)),
                'released_yaw_rate_deg_s': math.degrees(max(abs(r) for r, _ in tail)),
                'released_heading_drift_deg_in_5_s': math.degrees(
                    abs(math.remainder(tail[-1][1] - tail[0][1], 2 * math.pi)))}
            if args.soak > 0:
                f.run_for(args.soak)
            f.pump(2.5)  # one more /diagnostics report
            out['lock_step'] = f.diag
        finally:
            f.close()
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--ardusub', required=True, help='the ardusub SITL binary')
    p.add_argument('--ardupilot', required=True, help='the ArduPilot source tree (its '
                   'Tools/autotest/default_params)')
    p.add_argument('--vehicle', choices=sorted(VEHICLES), default='bluerov2')
    p.add_argument('--port', type=int, default=9002)
    p.add_argument('--speedup', type=float, default=1.0)
    p.add_argument('--home', default='33.810313,-118.393867,0,185')
    p.add_argument('--depth', type=float, default=5.0, help='ALT_HOLD depth (m)')
    p.add_argument('--forward-s', type=float, default=30.0)
    p.add_argument('--hold-settle-s', type=float, default=10.0)
    p.add_argument('--hold-s', type=float, default=30.0)
    p.add_argument('--yaw-s', type=float, default=10.0)
    p.add_argument('--release-s', type=float, default=20.0)
    p.add_argument('--gain', type=float, default=1.0, help='JS_GAIN_DEFAULT: the stick '
                   "gain at boot (ArduSub's default 0.5 halves every stick)")
    p.add_argument('--soak', type=float, default=0.0, help='physics seconds more, then '
                   'the lock-step counters')
    p.add_argument('--settle-s', type=float, default=15.0, help='wall seconds for the EKF')
    p.add_argument('--node-start-s', type=float, default=4.0)
    p.add_argument('--surftrak', action='store_true', help='fly SURFTRAK over a sloping '
                   'seabed instead (the module docstring)')
    p.add_argument('--seabed-depth', type=float, default=20.0, help='--surftrak: the '
                   "seabed's depth below the start (m)")
    p.add_argument('--seabed-slope', type=float, default=0.1, help='--surftrak: its rise '
                   'per metre east')
    p.add_argument('--surftrak-depth', type=float, default=12.0, help='--surftrak: the '
                   'depth SURFTRAK starts at (m)')
    p.add_argument('--surftrak-stick', type=int, default=500, help='--surftrak: the '
                   'forward stick (of 1000) over the slope')
    p.add_argument('--surftrak-s', type=float, default=60.0, help='--surftrak: physics '
                   'seconds over the slope')
    p.add_argument('--rangefinder-max', type=float, default=30.0, help='--surftrak: '
                   'RNGFND1_MAX and the beam of the node (m)')
    p.add_argument('--surftrak-log', help='--surftrak: write the samples to this CSV file')
    p.add_argument('--json', action='store_true')
    p.add_argument('--verbose', action='store_true')
    args = p.parse_args(argv)
    # checked before anything starts: a wrong path names itself, and leaves nothing running
    if not os.path.isfile(args.ardusub) or not os.access(args.ardusub, os.X_OK):
        p.error('--ardusub %s: no such executable (the ArduSub SITL binary, '
                'ARDUPILOT/build/sitl/bin/ardusub)' % args.ardusub)
    parm = os.path.join(args.ardupilot, 'Tools', 'autotest', 'default_params',
                        VEHICLES[args.vehicle][1])
    if not os.path.isfile(parm):
        p.error('--ardupilot %s: no %s (the ArduPilot source tree)' % (args.ardupilot, parm))
    try:
        import pymavlink  # noqa: F401
    except ImportError:
        p.error('pymavlink is not importable (pip install pymavlink)')
    try:
        out = fly(args)
    except (OSError, RuntimeError) as exc:
        print('%s: error: %s' % (p.prog, exc), file=sys.stderr)
        return 1
    print(json.dumps(out, indent=2) if args.json else out)
    return 0


if __name__ == '__main__':
    sys.exit(main())
