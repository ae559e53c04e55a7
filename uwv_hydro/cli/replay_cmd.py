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
``replay``: run a recorded rosbag2 through the node's equations, offline.

Without ``--simulate``: for every odometry message, the hydro wrench exactly as the
node's wrench mode computes it, written to OUT_BAG on the node's topics
(``/hydro/wrench``, ``/hydro/wrench_world``) with the input stamps; ``--components``
adds each term on ``/hydro/components/<name>``.  A vehicle whose links move takes its
joint states from ``--joint-states-topic`` and adds each link's wrench on
``/hydro/links/<link>/wrench``, as the node's wrench mode.  With ``--simulate``: the recorded
thrust topics drive the simulate mode from the first recorded state; predicted odometry
is written next to the recorded one and the RMS position/velocity errors are printed
(model validation).
"""

import time

from uwv_hydro.cli.common import (add_current_file_argument, add_vehicle_arguments,
                                  finite_vector, load_current_from_args,
                                  load_vehicle_from_args)
from uwv_hydro.cli.number_options import Number, SUBSTEPS, TIMEOUT, VELOCITY
from uwv_hydro.modes.wrench_mode import ADDED_MASS_MODES


def add_parser(sub):
    """Register the ``replay`` subcommand."""
    p = sub.add_parser('replay', help='recompute wrenches / simulate from a rosbag2',
                       description=__doc__)
    p.add_argument('in_bag', metavar='IN_BAG', help='input rosbag2 (sqlite3 or mcap)')
    add_vehicle_arguments(p, positional=False)
    p.add_argument('--out', required=True, metavar='OUT_BAG', help='output rosbag2')
    p.add_argument('--odometry-topic', default='/odometry',
                   help='nav_msgs/Odometry topic of the vehicle in the bag')
    p.add_argument('--joint-states-topic', default='/joint_states',
                   help='sensor_msgs/JointState of the moving joints (a vehicle whose links '
                   'move: each link gets its wrench on hydro/links/<link>/wrench)')
    p.add_argument('--thrust-topics', nargs='+', default=['/thrust'],
                   help='geometry_msgs/WrenchStamped thrust topics, summed (--simulate)')
    p.add_argument('--added-mass', choices=ADDED_MASS_MODES, default='implicit',
                   help="the node's added_mass_mode: implicit (M_A in the engine's mass "
                   'matrix) or lagged (-M_A times the filtered acceleration in the wrench)')
    p.add_argument('--apply-weight', action='store_true',
                   help='include the weight in the wrench (default: the simulator applies it)')
    p.add_argument('--acceleration-alpha', type=Number(float, above=0.0, at_most=1.0),
                   default=None, help='lagged added mass: filter weight of the newest '
                   "acceleration sample, in (0, 1] (default: the vehicle's)")
    p.add_argument('--current', nargs=3, type=VELOCITY, metavar=('CX', 'CY', 'CZ'),
                   help='world ENU water current [m/s]')
    add_current_file_argument(p)
    p.add_argument('--namespace', default='', help='node namespace of the output topics')
    p.add_argument('--components', action='store_true',
                   help="also write hydro/components/<name> (the node's publish_components)")
    p.add_argument('--simulate', action='store_true',
                   help='drive the simulate mode from the recorded thrust instead')
    p.add_argument('--substeps', type=SUBSTEPS, default=1,
                   help='least RK4 sub-steps per recorded interval (--simulate; more '
                   'when the stiffest mode needs them)')
    p.add_argument('--thrust-timeout', type=TIMEOUT, default=0.5,
                   help='--simulate: a thrust message older than this [s] contributes '
                   "nothing, as the node's thrust_timeout")
    p.add_argument('--plot', metavar='PNG', help='plot wrenches (or recorded vs predicted)')
    p.set_defaults(func=run)


def _print_skipped(res) -> None:
    """Print the odometry messages skipped by the node's input rules."""
    for count, why in ((res.skipped_non_finite, 'non-finite fields'),
                       (res.skipped_bad_quaternion, 'an unusable quaternion'),
                       (res.skipped_stale_stamp, 'a stamp going backwards')):
        if count:
            print('skipped %d odometry messages with %s (as the node drops them)'
                  % (count, why))


def _print_links(res, topic: str) -> None:
    """Print what the per-link replay of a vehicle with moving links used."""
    if not res.had_joint_states:
        print('warning: the bag has no %s: every joint at zero (as the node before its '
              'first joint state)' % topic)
    rejected = sum(res.rejected_joint_states.values())
    print('took %d joint states from %s%s; a wrench per link on hydro/links/<link>/wrench '
          'for %s' % (res.joint_states, topic, ' (%d rejected: %s)' % (
              rejected, ', '.join('%s %d' % kv for kv in sorted(
                  res.rejected_joint_states.items()))) if rejected else '',
                      ', '.join(res.link_names)))


def run(args) -> int:
    """Replay the bag and print a summary."""
    params = load_vehicle_from_args(args)
    current = finite_vector(args.current, '--current', 3)
    field = load_current_from_args(args)
    start = time.perf_counter()
    if args.simulate:
        from uwv_hydro.bag.replay_simulation import replay_simulate
        res = replay_simulate(args.in_bag, params, out_bag=args.out,
                              odometry_topic=args.odometry_topic,
                              thrust_topics=args.thrust_topics, substeps=args.substeps,
                              thrust_timeout=args.thrust_timeout, current_world=current,
                              keep_trajectories=bool(args.plot), current_field=field)
        elapsed = time.perf_counter() - start
        print('simulated %d odometry samples (%.1f s of data) in %.2f s: %.0fx real time'
              % (res.samples, res.span_s, elapsed, res.span_s / elapsed if elapsed else 0.0))
        print('each recorded interval: one step of >= %d RK4 sub-steps, none longer than '
              '%.4g s (stiffest mode)' % (args.substeps, res.max_substep))
        _print_skipped(res)
        if res.dropped_thrust:
            print('dropped %d thrust messages (non-finite, unknown frame or stamp going '
                  'backwards)' % res.dropped_thrust)
        if res.events.get('divergences'):
            print('%d steps diverged and were recomputed with more sub-steps, %d of them '
                  'restored to the last good state (as the node does)'
                  % (res.events['divergences'], res.events.get('state_restores', 0)))
        if res.restarts:
            print('restarted the prediction %d times from the recording (stamp jumped '
                  'back)' % res.restarts)
        print('RMS position error %.6f m, RMS velocity error %.6f m/s, final position '
              'error %.6f m' % (res.rms_position_error, res.rms_velocity_error,
                                res.final_position_error))
        if args.plot:
            from uwv_hydro.cli.plotting import plot_trajectory
            plot_trajectory(res.predicted, args.plot, reference=res.recorded,
                            title='%s: recorded vs predicted' % params.name,
                            labels=('predicted', 'recorded'))
            print('wrote %s (plot)' % args.plot)
        print('wrote %s' % args.out)
        return 0
    options = {'out_bag': args.out, 'odometry_topic': args.odometry_topic,
               'added_mass': args.added_mass, 'apply_weight': args.apply_weight,
               'acceleration_alpha': args.acceleration_alpha, 'current_world': current,
               'namespace': args.namespace, 'components': args.components,
               'current_field': field}
    if params.tree is not None:  # moving links: the node's LinkWrenchMode, a wrench per link
        from uwv_hydro.bag.link_replay import replay_link_wrench
        res = replay_link_wrench(args.in_bag, params,
                                 joint_states_topic=args.joint_states_topic, **options)
    else:
        from uwv_hydro.bag.replay import replay_wrench
        res = replay_wrench(args.in_bag, params, **options)
    elapsed = time.perf_counter() - start
    n = len(res.stamps_ns)
    span = (res.stamps_ns[-1] - res.stamps_ns[0]) * 1e-9 if n > 1 else 0.0
    print('replayed %d odometry messages (%.1f s of data) in %.2f s: %.0fx real time'
          % (n, span, elapsed, span / elapsed if elapsed else 0.0))
    _print_skipped(res)
    if hasattr(res, 'link_names'):
        _print_links(res, args.joint_states_topic)
    if args.plot and n:
        import numpy as np
        from uwv_hydro.cli.plotting import plot_wrenches
        t = (np.array(res.stamps_ns) - res.stamps_ns[0]) * 1e-9
        plot_wrenches(t, {k: np.array(v) for k, v in res.components.items()}, args.plot,
                      title='%s: hydro wrench components' % params.name,
                      total=np.array(res.total))
        print('wrote %s (plot)' % args.plot)
    print('wrote %s' % args.out)
    return 0
