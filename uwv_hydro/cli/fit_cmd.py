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
``fit``: estimate drag and added-mass coefficients from a bag (system identification).

Reads nav_msgs/Odometry and the thrust (geometry_msgs/WrenchStamped topics, or a thrust
profile CSV), fits the selected coefficients by bounded least squares on the equations
of motion with the vehicle's known rigid-body and hydrostatic terms, validates on the
held-out end of the bag and writes a complete vehicle description YAML.  Refuses (exit
code 2) when the bag cannot identify a requested coefficient.
"""

import os
import pathlib

from uwv_hydro.cli.common import add_vehicle_arguments, load_vehicle_from_args
from uwv_hydro.cli.number_options import (
    FINITE, NON_NEGATIVE, ORDER, POSITIVE, RESAMPLES, SEED, TIMEOUT, WORKERS_OR_NONE)
from uwv_hydro.description.errors import DescriptionError


def add_parser(sub):
    """Register the ``fit`` subcommand."""
    p = sub.add_parser('fit', help='fit drag / added-mass coefficients to a bag',
                       description=__doc__)
    p.add_argument('bag', metavar='BAG', help='rosbag2 with odometry and thrust')
    add_vehicle_arguments(p, positional=False)
    p.add_argument('--terms', default='linear,quadratic,added_mass',
                   help='comma-separated subset of linear,quadratic,added_mass '
                        '(default all three)')
    p.add_argument('--coupled', action='store_true',
                   help='also fit off-diagonal terms (L_ab, Q_abb, symmetric M_A,ab)')
    p.add_argument('--odometry-topic', default='/odometry',
                   help='nav_msgs/Odometry topic of the vehicle in the bags')
    p.add_argument('--thrust-topics', nargs='+', default=['/thrust'],
                   help='WrenchStamped topics, summed (default /thrust)')
    p.add_argument('--thrust-profile', metavar='FILE.csv',
                   help='take the thrust from this profile CSV instead of bag topics')
    p.add_argument('--thrust-timeout', type=TIMEOUT, default=0.5,
                   help='a thrust message older than this contributes nothing [s]')
    p.add_argument('--validation-fraction', type=FINITE, default=0.3,
                   help='held-out end of the bag for validation (default 0.3)')
    p.add_argument('--window', type=TIMEOUT, default=0.5,
                   help='Savitzky-Golay smoothing window [s] (default 0.5)')
    p.add_argument('--order', type=ORDER, default=3, help='Savitzky-Golay order (default 3)')
    p.add_argument('--ridge', type=NON_NEGATIVE, default=1e-9,
                   help='relative ridge regularisation (default 1e-9)')
    p.add_argument('--min-excitation', type=POSITIVE, default=5.0,
                   help='needed RMS motion / odometry noise per axis (default 5)')
    p.add_argument('--max-uncertainty', type=POSITIVE, default=0.1,
                   help='largest 95%% CI force as a fraction of the axis hydrodynamic '
                        'force RMS (default 0.1)')
    p.add_argument('--keep-unidentified', action='store_true',
                   help="keep the description's value for coefficients the bag cannot "
                        'identify instead of refusing')
    p.add_argument('--reference-base', action='store_true',
                   help='write "base: VEHICLE" into the YAML so a URDF\'s fixed frames '
                        '(thruster links) are kept')
    p.add_argument('--bootstrap', type=RESAMPLES, default=0, metavar='N',
                   help='also N moving-block bootstrap resamples: percentile 95%% '
                        'intervals per coefficient, on Dask (default 0: none)')
    p.add_argument('--bootstrap-seed', type=SEED, default=0,
                   help='seed of the resamples')
    p.add_argument('--workers', type=WORKERS_OR_NONE, default=2,
                   help='bootstrap: local Dask worker processes (0: in this process)')
    p.add_argument('--scheduler', metavar='ADDRESS',
                   help='bootstrap: an existing Dask scheduler (tcp://host:8786)')
    p.add_argument('--out', required=True, metavar='FITTED.yaml', help='output YAML')
    p.add_argument('--plot', metavar='PNG', help='plot the fit and the validation')
    p.set_defaults(func=run)


def _options(args):
    from uwv_hydro.sysid.fit import FitOptions
    from uwv_hydro.sysid.regressors import TERMS
    terms = tuple(t.strip() for t in args.terms.split(',') if t.strip())
    bad = [t for t in terms if t not in TERMS]
    if bad or not terms:
        raise DescriptionError('unknown term(s) %s; expected a comma-separated subset of %s'
                               % (', '.join(bad) or '(none)', ','.join(TERMS)),
                               element='--terms')
    if not 0.0 <= args.validation_fraction < 1.0:
        raise DescriptionError('must be in [0, 1), got %g' % args.validation_fraction,
                               element='--validation-fraction')
    return FitOptions(terms=terms, coupled=args.coupled,
                      validation_fraction=args.validation_fraction, window=args.window,
                      order=args.order, ridge=args.ridge, min_excitation=args.min_excitation,
                      max_uncertainty=args.max_uncertainty,
                      keep_unidentified=args.keep_unidentified)


def run(args) -> int:
    """Fit, report, write the YAML (and PNG)."""
    import numpy as np

    from uwv_hydro.description.loader import load_vehicle
    from uwv_hydro.description.yaml.export import write_yaml
    from uwv_hydro.sysid.bag_data import load_recording
    from uwv_hydro.sysid.fit import fit_recording
    from uwv_hydro.cli.plotting import plot_fit
    from uwv_hydro.sysid.report import summary, yaml_comments
    from uwv_hydro.modes.thrust_profile import ThrustProfile

    options = _options(args)
    params = load_vehicle_from_args(args)
    topics = [] if args.thrust_profile else args.thrust_topics
    rec = load_recording(args.bag, params, args.odometry_topic, topics, args.thrust_timeout)
    if args.thrust_profile:
        profile = ThrustProfile.from_csv(args.thrust_profile)
        rec.thrust.times.append(np.array(profile.times))
        rec.thrust.values.append(profile.wrenches)
        rec.thrust.timeout = float('inf')
    try:
        result = fit_recording(rec, params, options, source=str(args.bag))
    except ValueError as exc:
        if isinstance(exc, DescriptionError):
            raise
        raise DescriptionError(str(exc), source=str(args.bag)) from None
    for line in summary(result, options):
        print(line)
    if args.bootstrap:
        _bootstrap(result, args)
    out = pathlib.Path(args.out)
    base = None
    if args.reference_base:
        base = os.path.relpath(os.path.abspath(args.vehicle),
                               os.path.dirname(os.path.abspath(out)))
        if args.set:
            print('note: --set mappings are not stored in the YAML; the base is loaded '
                  'with its defaults')
    elif params.frames:
        print('note: the %d fixed frames of %s are not in the YAML (the format has no '
              'frames); use --reference-base to keep them'
              % (len(params.frames), args.vehicle))
    write_yaml(result.params, out, base=base,
               comments=yaml_comments(result, options, str(args.bag), str(args.vehicle)))
    # The written file must load as a vehicle description (and validate)
    load_vehicle(str(out), package_path=args.package_path)
    print('wrote %s' % out)
    if args.plot:
        plot_fit(result, args.plot, title='%s: fit of %s' % (params.name, args.bag))
        print('wrote %s' % args.plot)
    return 0


def _bootstrap(result, args) -> None:
    """Run the resamples (on Dask unless --workers 0) and print the intervals."""
    from uwv_hydro.bag.progress import Progress
    from uwv_hydro.sweep.bootstrap_runner import run_bootstrap
    from uwv_hydro.sweep.cluster import open_client
    from uwv_hydro.sysid.bootstrap import block_length, percentile_intervals

    bar = Progress(args.bootstrap, 'bootstrap')
    client = cluster = None
    if args.workers or args.scheduler:
        client, cluster = open_client(args.workers, args.scheduler)
    try:
        estimates = run_bootstrap(result.regression, args.bootstrap, args.bootstrap_seed,
                                  client=client, on_chunk=bar.update)
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
    bar.close()
    ci = percentile_intervals(estimates)
    print('bootstrap: %d resamples in blocks of %d samples (seed %d), 95%% percentile '
          'intervals' % (args.bootstrap, block_length(result.regression),
                         args.bootstrap_seed))
    head = ('coefficient', 'value', 'fit +-', 'boot low', 'boot high')
    print('  %-24s %12s %12s %12s %12s' % head)
    for e, (low, high) in zip(result.estimates, ci):
        row = (e.coefficient.tag, e.value, e.half_width, low, high)
        print('  %-24s %12.6g %12.4g %12.6g %12.6g' % row)
