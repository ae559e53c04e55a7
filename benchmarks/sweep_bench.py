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
``uwv-hydro sweep``'s runner on a local cluster (``--only sweep``).

:func:`bench_sweep` runs SWEEP_SPEC's REMUS runs on a LocalCluster and the same chunk
task in this process; the figures: doc/guide/performance.md, "The benches".
"""

import pathlib
import tempfile
import time

from harness import emit
import numpy as np

HERE = pathlib.Path(__file__).resolve().parent


SWEEP_SPEC = """\
vehicle: {vehicle}
runs: {runs}
seed: 1
chunk_size: {chunk}
vary:
  thrust_scale: {{dist: lognormal, sigma: 0.2}}
  current.x: {{dist: uniform, low: -0.3, high: 0.3, relative: false}}
  current.y: {{dist: uniform, low: -0.3, high: 0.3, relative: false}}
scenario:
  duration: {duration}
  dt: 0.05
  thrust: [20, 0, 0, 0, 0, 0]
  fin_angles: [0.15, 0.15, 0, 0]
  initial_position: [0, 0, -5]
"""


def bench_sweep(results, runs, duration, workers=2, chunk=1000):
    """
    ``uwv-hydro sweep``'s runner: ``runs`` REMUS runs on a LocalCluster of ``workers``.

    sweep_vehicle_steps_per_s_per_core: vehicle-steps / wall / workers, from the first
    submit to the last chunk written (cluster start-up apart); sweep_single_...: the same
    chunk task (BatchSimulator + reductions) run in this process; sweep_per_core_ratio:
    the two; batch_only_...: BatchSimulator.step alone on the same chunk.  The runs vary
    the thrust scale and the current (one parameter set, so the figure is the stepping);
    sweep_setup_ms_per_parameter_set: what each distinct coefficient draw adds (one
    Simulator built per set).  sweep_100_nodes_1e5_hour_runs_h: 10^5 runs of 1 h at
    dt 0.05 on 100 nodes of 32 cores at the per-core rate measured on the cluster (its
    overheads included), plus the set-up of 10^5 distinct parameter sets.
    """
    import dataclasses

    from uwv_hydro.physics.body.batch import BatchSimulator
    from uwv_hydro.physics.body.dynamics import Simulator
    from uwv_hydro.sweep import draws
    from uwv_hydro.sweep.chunk_task import prepare, run_chunk
    from uwv_hydro.sweep.cluster import open_client
    from uwv_hydro.sweep.dask_runner import run_distributed
    from uwv_hydro.sweep.spec import load_spec
    vehicle = HERE.parent / 'config' / 'remus100.yaml'
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / 'spec.yaml'
        path.write_text(SWEEP_SPEC.format(vehicle=vehicle, runs=runs, chunk=chunk,
                                          duration=duration))
        plan = prepare(load_spec(path))
        steps = plan.steps
        # single process: the chunk task, then BatchSimulator.step alone (same vehicles)
        t0, c0 = time.perf_counter(), time.process_time()
        run_chunk(plan, 0)
        single, single_cpu = time.perf_counter() - t0, time.process_time() - c0
        n = plan.spec.chunk_range(0)[1]
        runs0 = [draws.apply(plan.spec, plan.params, row)
                 for row in draws.draw_runs(plan.spec, plan.params, 0, n)]
        bsim = BatchSimulator([r[0] for r in runs0], dt=0.05, substeps=plan.substeps)
        state = bsim.initial_state(position=[0.0, 0.0, -5.0])
        tau = np.array([r[1] for r in runs0])[:, None] * plan.taus[0][None, :]
        cur = np.array([r[2] for r in runs0])
        fins = np.array([0.15, 0.15, 0.0, 0.0])
        t0 = time.perf_counter()
        for _ in range(steps):
            state = bsim.step(state, tau, current_world=cur, fin_angles=fins)
        batch_only = time.perf_counter() - t0
        t0 = time.perf_counter()
        # the cluster ``uwv-hydro sweep --workers`` starts
        client, cluster = open_client(workers)
        try:
            client.run(lambda: __import__('uwv_hydro.sweep.chunk_task'))
            start_s = time.perf_counter() - t0
            cpu0 = client.run(time.process_time)
            t0 = time.perf_counter()
            done = run_distributed(plan, pathlib.Path(tmp) / 'out', client)
            wall = time.perf_counter() - t0
            cpu1 = client.run(time.process_time)
            cpu = sum(cpu1[w] - cpu0[w] for w in cpu0)
        finally:
            client.close()
            cluster.close()
        assert len(done.computed) == plan.spec.chunks
        # setup of distinct parameter sets (a coefficient sweep builds one Simulator each)
        sets = 20
        t0 = time.perf_counter()
        for k in range(sets):
            p = plan.params
            Simulator(dataclasses.replace(p, mass=p.mass * (1.0 + 1e-3 * k)), dt=0.05)
        setup_ms = (time.perf_counter() - t0) / sets * 1e3
    total = runs * steps
    per_core = total / wall / workers
    single_rate = n * steps / single
    emit(results, 'sweep_vehicle_steps_per_s_per_core', per_core, '1/s', runs=runs,
         steps=steps, workers=workers, chunk=chunk, wall_s=wall, cluster_start_s=start_s)
    emit(results, 'sweep_single_vehicle_steps_per_s', single_rate, '1/s', vehicles=n)
    emit(results, 'batch_only_vehicle_steps_per_s', n * steps / batch_only, '1/s',
         us_per_vehicle_step=batch_only / (n * steps) * 1e6)
    emit(results, 'sweep_per_core_ratio', per_core / single_rate, '')
    # per CPU second (the workers' and this process's own CPU time): what dask adds,
    # without the other load of a shared machine
    cpu_ratio = (total / cpu) / (n * steps / single_cpu)
    emit(results, 'sweep_per_cpu_second_ratio', cpu_ratio, '', worker_cpu_s=cpu,
         single_cpu_s=single_cpu)
    emit(results, 'sweep_setup_ms_per_parameter_set', setup_ms, 'ms')
    cores = 100 * 32
    hour_steps = 1e5 * 3600.0 / 0.05
    # the per-core rate is the cluster's own (its overheads included); every core busy
    # needs chunks of at most 10^5 / 3200 = 31 runs
    hours = (hour_steps / (per_core * cores) + 1e5 * setup_ms * 1e-3 / cores) / 3600.0
    emit(results, 'sweep_100_nodes_1e5_hour_runs_h', hours, 'h', cores=cores, dt=0.05,
         assumptions='the per-core rate measured here on every core, 32 cores per node, '
                     'chunks of 31 runs, 10^5 distinct parameter sets, no network limit')
