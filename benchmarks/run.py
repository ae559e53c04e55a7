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
Benchmarks for ``make bench``: one JSON object per line, then a human table.

``python benchmarks/run.py [--only NAME ...]`` runs the benches of registry.BENCHES (by
default those marked default); ``--list`` prints their names and figures.  What each
bench measures and what each figure means: doc/guide/performance.md, "The benches".

Timing figures need a quiet machine (1-minute load average < ``QUIET_LOAD``).  Before
every node or floor run the load average is read and printed (waiting up to
``--settle`` seconds for it to fall: the previous run's own processes raise it); a run
started at a higher load is marked ``quiet: false``, its targets are not judged
('not quiet' in the table) and the output says 'machine not quiet: figures decide
nothing'.

``--quick`` shortens every run (for a smoke test); the figures are then noisier.
``--only core`` runs the figures of the compiled core (rk4 surface simulate simulate_cli
batch core_start).
"""

import argparse
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from harness import load_check, QUIET_LOAD, SETTLE_S, table  # noqa: E402, I100
from host import host_line  # noqa: E402
from registry import BENCHES, CORE_BENCHMARKS, Run  # noqa: E402


def list_benches():
    """Print every bench: its name, whether it runs by default, its figures' names."""
    for bench in BENCHES:
        print('%-16s %-11s %s' % (bench.name, 'default' if bench.default else '--only',
                                  ' '.join(bench.figures)))


def main(argv=None):
    """Run the selected benchmarks."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--quick', action='store_true', help='short runs (smoke test)')
    parser.add_argument('--only', nargs='*', default=None,
                        help='subset: %s; core: the core figures'
                        % ' '.join(b.name for b in BENCHES))
    parser.add_argument('--rates', nargs='+', type=float, default=[1000.0, 500.0, 250.0],
                        help='node_profile, node_runs: the update rates (Hz)')
    parser.add_argument('--runs', type=int, default=5,
                        help='node_profile, node_runs: runs per rate')
    parser.add_argument('--settle', type=float, default=SETTLE_S,
                        help='longest wait (s) for the load average to fall below %g before '
                        'a timed run (0: no wait)' % QUIET_LOAD)
    parser.add_argument('--list', action='store_true',
                        help='print the benches and their figures, run nothing')
    args = parser.parse_args(argv)
    if args.list:
        list_benches()
        return 0
    only = args.only
    if only is not None and 'core' in only:
        only = list(only) + list(CORE_BENCHMARKS)
    print(host_line(), flush=True)  # the machine the figures come from (host.py)
    run = Run([], load_check(args.settle), args.quick, args.runs, args.rates)
    for bench in BENCHES:
        if bench.name in only if only is not None else bench.default:
            bench.run(run)
    table(run.results)
    return 0


if __name__ == '__main__':
    sys.exit(main())
