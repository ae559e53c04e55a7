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
``sweep``: a Monte-Carlo sweep of one vehicle on Dask (uncertain coefficients, a scenario).

Reads a sweep specification (see doc/guide/sweeps.md): the vehicle, which coefficients
vary and how, the scenario (thrust, fins, current; or a standard manoeuvre, each run
flying it as ``uwv-hydro manoeuvre`` does) and the outputs.  The runs are cut into
chunks, each one BatchSimulator task (a manoeuvre chunk: its runs one after another)
on a dask.distributed cluster (a LocalCluster of ``--workers`` processes, or
``--scheduler ADDRESS``; ``--serial``: in this process).
Writes OUT/chunks/*.parquet as chunks finish (a re-run skips them), OUT/results.parquet
(one row per run: drawn values and outputs), OUT/summary.json and prints the summary.
"""

import pathlib
import time

from uwv_hydro.cli.number_options import WORKERS
from uwv_hydro.description.errors import DescriptionError


def add_parser(sub):
    """Register the ``sweep`` subcommand."""
    p = sub.add_parser('sweep', help='Monte-Carlo sweep on Dask (Parquet + summary)',
                       description=__doc__)
    p.add_argument('spec', metavar='SPEC.yaml', help='sweep specification')
    p.add_argument('--out', required=True, metavar='DIR',
                   help='output directory (chunks, results.parquet, summary.json)')
    p.add_argument('--workers', type=WORKERS, default=2,
                   help='worker processes of the local cluster (default 2)')
    p.add_argument('--scheduler', metavar='ADDRESS',
                   help='use an existing dask scheduler (e.g. tcp://host:8786)')
    p.add_argument('--serial', action='store_true', help='no dask: run the chunks here')
    p.add_argument('--plot', metavar='DIR', help='write histograms.png into DIR')
    p.set_defaults(func=run)


def run(args) -> int:
    """Run (or resume) the sweep and write its results."""
    from uwv_hydro.bag.progress import Progress
    from uwv_hydro.sweep import chunk_store, summary
    from uwv_hydro.sweep.chunk_task import prepare
    from uwv_hydro.sweep.cluster import open_client
    from uwv_hydro.sweep.dask_runner import run_distributed, run_serial
    from uwv_hydro.sweep.spec import load_spec, ManoeuvreScenario

    if args.serial and args.scheduler:
        raise DescriptionError('give --serial or --scheduler, not both', element='sweep')
    spec = load_spec(args.spec)
    plan = prepare(spec)
    for note in plan.params.warnings + (plan.notes or []):
        print('note: %s' % note)
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    done = chunk_store.finished(out, plan.spec_hash, spec.chunks)
    sc = spec.scenario
    if isinstance(sc, ManoeuvreScenario):
        what = 'manoeuvre %s from %g m/s at %g m (dt %g, run after run)' % (
            sc.kind, sc.speed, sc.depth, sc.dt)
    else:
        what = '%.6g s (dt %g, %d RK4 sub-steps)' % (sc.duration, sc.dt, plan.substeps)
    print('sweep %s: %d runs of %s in %d chunks of %d; spec %s, %d chunks already done'
          % (spec.source, spec.runs, what, spec.chunks, spec.chunk_size,
             plan.spec_hash[:16], len(done)))
    bar = Progress(spec.runs, 'sweep')
    bar.update(sum(spec.chunk_range(i)[1] - spec.chunk_range(i)[0] for i in done))
    start = time.perf_counter()
    if args.serial:
        result = run_serial(plan, out, on_chunk=lambda i, n: bar.update(n))
        where = 'in this process'
    else:
        client, cluster = open_client(args.workers, args.scheduler)
        try:
            cores = sum(client.nthreads().values())
            result = run_distributed(plan, out, client, on_chunk=lambda i, n: bar.update(n))
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
        where = 'on %d dask worker threads' % cores
    bar.close()
    wall = time.perf_counter() - start
    computed = sum(spec.chunk_range(i)[1] - spec.chunk_range(i)[0] for i in result.computed)
    steps = ', %d vehicle-steps' % (computed * plan.steps) if plan.steps else ''
    print('computed %d chunks (%d runs%s) %s in %.2f s; skipped %d done'
          % (len(result.computed), computed, steps, where, wall, len(result.skipped)))
    table = chunk_store.read_chunks(out, plan.spec_hash, spec.chunks)
    chunk_store.write_results(table, out / 'results.parquet')
    columns = {name: table.column(name).to_numpy(zero_copy_only=False)
               for name in table.column_names}
    refused = columns['refused'] != ''
    # the summary and the plots are of the simulated runs
    columns = {name: values[~refused] for name, values in columns.items()}
    names = spec.output_columns()
    rows = summary.summarise(columns, names)
    diverged = int(columns['diverged'].sum())
    for line in summary.text(rows):
        print(line)
    if diverged:
        print('note: %d runs diverged (non-finite state; their outputs are NaN)' % diverged)
    if refused.any():
        first = table.column('refused').to_numpy(zero_copy_only=False)[refused][0]
        print('note: %d runs not simulated: their draw is not physical or their manoeuvre '
              'was refused (column refused), e.g. %s' % (int(refused.sum()), first))
    summary.write_json(rows, out / 'summary.json', spec=spec.source, spec_hash=plan.spec_hash,
                       runs=spec.runs, simulated=int((~refused).sum()),
                       refused=int(refused.sum()), diverged=diverged)
    print('wrote %s, %s' % (out / 'results.parquet', out / 'summary.json'))
    if args.plot:
        from uwv_hydro.cli.sweep_plots import plot_histograms
        path = plot_histograms(columns, names, args.plot,
                               title='%s: %d runs' % (plan.params.name, spec.runs))
        print('wrote %s' % path)
    return 0
