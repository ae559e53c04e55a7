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
``simulate``: offline 6-DOF simulation with the node's simulate-mode equations.

Writes a CSV (header ``t,x,y,z,qw,qx,qy,qz,u,v,w,p,q,r``, one row per step) for an
``--out`` ending in ``.csv``; else a bag on the simulate-mode node's topics:
nav_msgs/Odometry on ``/odometry``, /tf, when thrust is given the applied wrench on
``/thrust``, /tf_static, the navigation sensors (unless ``--no-sensors``), the
thrusters' and fins' feedback and, with ``--components``, the hydro
wrench components on ``/hydro/components/<name>``: ``x.mcap`` is that one MCAP file
(``ros2 bag play x.mcap``, Foxglove, PlotJuggler), any other path a rosbag2
directory (sqlite3).  A vehicle with moving links takes joint commands
(``--joint-command``, ``--joint-profile``: the node's joint commands, held) and its bag
carries ``/joint_states`` and every moving link's /tf as the node publishes them.
Deterministic: the same input gives byte-identical output.
"""

import pathlib
import sys
import time

import numpy as np

from uwv_hydro.cli.common import (add_current_file_argument, add_seabed_arguments,
                                  add_vehicle_arguments, finite_vector,
                                  load_current_from_args, load_seabed_from_args,
                                  load_vehicle_from_args)
from uwv_hydro.cli.joint_options import add_joint_arguments, joint_inputs
from uwv_hydro.cli.number_options import (
    check_steps, DURATION, POSITION, QUATERNION, STEP, SUBSTEPS, VELOCITY, WRENCH)
from uwv_hydro.description.errors import DescriptionError


def add_parser(sub):
    """Register the ``simulate`` subcommand."""
    p = sub.add_parser('simulate', help='offline 6-DOF simulation to CSV or rosbag2',
                       description=__doc__)
    add_vehicle_arguments(p)
    p.add_argument('--duration', type=DURATION, required=True, help='simulated seconds')
    p.add_argument('--dt', type=STEP, default=0.01, help='output step [s]')
    p.add_argument('--substeps', type=SUBSTEPS, default=1,
                   help='least RK4 sub-steps per step (more when the stiffest mode needs '
                   'them)')
    p.add_argument('--thrust', nargs=6, type=WRENCH, metavar=('FX', 'FY', 'FZ', 'TX', 'TY', 'TZ'),
                   help='constant body wrench about the origin [N, N m]')
    p.add_argument('--thrust-profile', metavar='FILE.csv',
                   help='CSV t,fx,fy,fz,tx,ty,tz (zero-order hold)')
    p.add_argument('--initial-velocity', nargs=6, type=VELOCITY,
                   metavar=('U', 'V', 'W', 'P', 'Q', 'R'), help='initial body twist')
    p.add_argument('--initial-position', nargs=3, type=POSITION, metavar=('X', 'Y', 'Z'),
                   help='initial world ENU position (default 0 0 0; z up)')
    p.add_argument('--initial-orientation', nargs=4, type=QUATERNION,
                   metavar=('QW', 'QX', 'QY', 'QZ'), help='initial world<-body quaternion')
    p.add_argument('--current', nargs=3, type=VELOCITY, metavar=('CX', 'CY', 'CZ'),
                   help='world ENU water current [m/s]')
    add_current_file_argument(p)
    add_seabed_arguments(p)
    add_joint_arguments(p)
    p.add_argument('--out', required=True,
                   help='output: x.csv, x.mcap (one MCAP file) or a rosbag2 directory '
                   '(sqlite3) for any other path')
    p.add_argument('--components', action='store_true',
                   help='bag output: also the hydro wrench components at every step '
                   '(/hydro/components/<name>)')
    p.add_argument('--no-sensors', action='store_true',
                   help='bag output: leave out the navigation sensors (their noise models '
                   'dominate the writing time of long runs)')
    p.add_argument('--plot', metavar='PNG', help='also plot the trajectory')
    p.set_defaults(func=run)


def run(args) -> int:
    """Run the simulation and write its outputs."""
    from uwv_hydro.bag.trajectory_bag import write_bag
    from uwv_hydro.modes.offline_simulation import simulate, write_csv
    from uwv_hydro.physics.body.dynamics import State
    from uwv_hydro.modes.thrust_profile import ThrustProfile

    check_steps(args.duration, args.dt, '--duration', '--dt')
    if args.components and pathlib.Path(args.out).suffix == '.csv':
        raise DescriptionError('--components needs a bag output (x.mcap or a directory), '
                               'not %s' % args.out, element='--out')
    if args.thrust is not None and args.thrust_profile:
        raise DescriptionError('give --thrust or --thrust-profile, not both',
                               element='--thrust-profile')
    params = load_vehicle_from_args(args)
    joint_commands, joint_positions = joint_inputs(args, params)
    thrust = None
    if args.thrust_profile:
        thrust = ThrustProfile.from_csv(args.thrust_profile)
    elif args.thrust is not None:
        thrust = ThrustProfile.constant(finite_vector(args.thrust, '--thrust', 6))
    q0 = finite_vector(args.initial_orientation, '--initial-orientation', 4) or [1, 0, 0, 0]
    q0 = np.asarray(q0, float)
    if np.linalg.norm(q0) < 1e-9:
        raise DescriptionError('quaternion must not be zero', element='--initial-orientation')
    initial = State(
        position=np.asarray(finite_vector(args.initial_position, '--initial-position', 3)
                            or [0.0, 0.0, 0.0], float),
        quaternion=q0 / np.linalg.norm(q0),
        twist=np.asarray(finite_vector(args.initial_velocity, '--initial-velocity', 6)
                         or [0.0] * 6, float))
    current = finite_vector(args.current, '--current', 3)
    field = load_current_from_args(args)
    seabed = load_seabed_from_args(args)
    start = time.perf_counter()
    said = set()

    def log(level: str, key: str, text: str) -> None:
        if key not in said:  # once per kind; the counts follow at the end
            said.add(key)
            print('%s: %s' % (level, text), file=sys.stderr)

    traj = simulate(params, args.duration, dt=args.dt, substeps=args.substeps, thrust=thrust,
                    initial=initial, current_world=current, current_field=field, log=log,
                    joint_commands=joint_commands, joint_positions=joint_positions,
                    seabed=seabed[0] if seabed else None)
    elapsed = time.perf_counter() - start
    out = pathlib.Path(args.out)
    if out.suffix == '.csv':
        write_csv(traj, out)
        if seabed:
            print('note: --seabed: the CSV holds no sensors; the DVL over the seabed goes '
                  'in a bag output (x.mcap or a directory)', file=sys.stderr)
        if traj.joints is not None:
            print('note: the CSV holds the base state only; the joint states and link TF '
                  'go in a bag output (x.mcap or a directory)', file=sys.stderr)
    else:
        write_bag(traj, out, base_frame=params.base_frame, thrust=thrust, vehicle=params,
                  components=args.components, current_world=current,
                  sensors=not args.no_sensors, seabed=seabed[0] if seabed else None)
    if args.plot:
        from uwv_hydro.cli.plotting import plot_trajectory
        plot_trajectory(traj, args.plot, title='%s: simulate' % params.name)
    final = traj.twist[-1]
    print('simulated %.3f s in %d steps (dt %g, %d substeps) in %.3f s: %.0fx real time'
          % (args.duration, len(traj.t) - 1, args.dt, traj.substeps, elapsed,
             args.duration / elapsed if elapsed > 0 else float('inf')))
    retried, restored = (traj.events.get(k, 0) for k in ('divergences', 'state_restores'))
    if retried or restored:
        print('warning: %d steps went non-finite and were recomputed with more sub-steps; '
              '%d stayed non-finite and kept the state before them' % (retried, restored),
              file=sys.stderr)
    print('final position [%.4f %.4f %.4f] m, body velocity [%.4f %.4f %.4f] m/s'
          % (*traj.position[-1], *final[:3]))
    kind = ('CSV' if out.suffix == '.csv' else 'MCAP file' if out.suffix == '.mcap'
            else 'rosbag2 directory, sqlite3')
    print('wrote %s (%s)' % (out, kind))
    if args.plot:
        print('wrote %s (plot)' % args.plot)
    return 0
