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
The rigid RexROV at 1 kHz beside the floor (``benchmarks/run.py --only node_rexrov``).

uuv_simulator's RexROV (issue 43: eight thrusters with their rotor models, its DVL,
pressure, IMU, GPS ...) is a vehicle people fly; the default vehicle's
figures do not say what it costs.  Per run: the node in simulate mode on it at 1 kHz,
measured over DDS by benchmarks/node_probe.py (odometry and /tf subscribed, a sway
thrust flipping every 50 ms in the base frame), then the floor (benchmarks/
floor_node.py) at the same rate, each after a load check.  Emitted per run:

* node_rexrov_cycle_cpu_p50_us, _p99_us  the update's CPU time (its thread's) from
  /diagnostics: one step per update at 1 kHz, so the CPU of one step with its outputs;
  node_rexrov_cpu_share_of_period: the p50 over the 1 ms period;
* node_rexrov_process_cpu_per_step_us: the node process's CPU time (every thread:
  update, executor, middleware; /proc) over the interval per odometry message, the
  floor's (node_rexrov_floor_process_cpu_per_step_us) and their ratio
  (node_rexrov_process_cpu_over_floor); node_rexrov_cycle_cpu_p50_over_floor: the
  update's CPU per step over the floor's process CPU per cycle;
* node_rexrov_jitter_p99_ms and node_rexrov_floor_jitter_p99_ms (the floor in the same
  run), node_rexrov_jitter_p99_over_floor_ms their difference (issue 43: <= 0.3 ms on a
  quiet machine);
* node_rexrov_rate_hz, node_rexrov_overruns (updates over a period in the measured
  interval), node_rexrov_lagged_steps (steps the node could not simulate in time: the
  simulated time fell behind the clock by them);

then the medians and ranges over the runs.  The vehicle is test/corpus's rexrov_like
(in the repository: the RexROV's plugins, with its thruster models mixed); with
``UWV_BENCH_REXROV`` set to a file (e.g. uuv_descriptions/robots/rexrov_default.xacro of
a uuv_simulator checkout, with ``ROS_PACKAGE_PATH`` for its ``$(find ...)``), that file.
"""
import os
import pathlib

import numpy as np

REPO = pathlib.Path(__file__).resolve().parents[1]
CORPUS_REXROV = REPO / 'test' / 'corpus' / 'uuv_simulator' / 'rexrov_like.urdf.xacro'
RATE_HZ = 1000.0
#: the figures summarised over the runs: (name, unit)
SUMMARY = (('cycle_cpu_p50_us', 'us'), ('cycle_cpu_p99_us', 'us'),
           ('cpu_share_of_period', 'x'), ('process_cpu_per_step_us', 'us'),
           ('floor_process_cpu_per_step_us', 'us'), ('process_cpu_over_floor', 'x'),
           ('cycle_cpu_p50_over_floor', 'x'),
           ('jitter_p99_ms', 'ms'),
           ('floor_jitter_p99_ms', 'ms'), ('jitter_p99_over_floor_ms', 'ms'),
           ('rate_hz', 'Hz'), ('overruns', 'overruns'), ('lagged_steps', 'steps'))


def bench(results, emit, quiet_check, quick: bool, runs: int) -> None:
    """
    Emit (``emit(results, name, value, unit, ...)``) the figures run after run, then medians.

    ``quick``: 3 s runs instead of 10 s.
    """
    from node_probe import measure_node
    duration = 3.0 if quick else 10.0
    from uwv_hydro.description.loader import load_vehicle
    path = os.environ.get('UWV_BENCH_REXROV') or str(CORPUS_REXROV)
    base = load_vehicle(path).base_frame  # the probe's thrust is in the base frame
    every, quiet_runs = [], True
    for run in range(1, runs + 1):
        tag = 'RexROV (%s) at %g Hz, run %d/%d' % (pathlib.Path(path).name, RATE_HZ, run, runs)
        load, quiet = quiet_check('node simulate mode, ' + tag)
        node = {r[0]: r for r in measure_node(RATE_HZ, duration, vehicle_file=path,
                                              thrust_frame=base)}
        floor_load, floor_quiet = quiet_check('floor, ' + tag)
        floor = {r[0]: r for r in measure_node(RATE_HZ, duration, floor=True)}
        quiet = quiet and floor_quiet
        quiet_runs = quiet_runs and quiet
        jitter = node['node_period_jitter_p99_ms'][1]
        floor_jitter = floor['floor_node_period_jitter_p99_ms'][1]
        loop = node['node_loop'][3]
        cpu50 = node.get('node_cycle_cpu_p50_us', (None, float('nan')))[1]
        figures = {
            'cycle_cpu_p50_us': cpu50,
            'cycle_cpu_p99_us': node.get('node_cycle_cpu_p99_us', (None, float('nan')))[1],
            # one step per update: the step's CPU against the period
            'cpu_share_of_period': cpu50 * 1e-6 * RATE_HZ,
            'process_cpu_per_step_us': node['node_process_cpu_per_odometry_us'][1],
            'floor_process_cpu_per_step_us': floor['floor_node_process_cpu_per_odometry_us'][1],
            'process_cpu_over_floor': node['node_process_cpu_per_odometry_us'][1]
            / floor['floor_node_process_cpu_per_odometry_us'][1],
            # the step's update CPU over the floor's whole CPU per cycle (as node_bench's)
            'cycle_cpu_p50_over_floor': cpu50
            / floor['floor_node_process_cpu_per_odometry_us'][1],
            'jitter_p99_ms': jitter, 'floor_jitter_p99_ms': floor_jitter,
            'jitter_p99_over_floor_ms': jitter - floor_jitter,
            'rate_hz': node['node_rate_hz'][1],
            'overruns': float(loop.get('overruns_measured', float('nan'))),
            'lagged_steps': float(loop.get('lagged_steps', 'nan'))}
        for key, unit in SUMMARY:
            emit(results, 'node_rexrov_%s' % key, float(figures[key]), unit, run=run,
                 quiet=quiet, load=max(load, floor_load), vehicle=path)
        every.append(figures)
    if runs > 1:
        for key, unit in SUMMARY:
            values = [f[key] for f in every]
            emit(results, 'node_rexrov_%s_median' % key, float(np.median(values)), unit,
                 low=float(min(values)), high=float(max(values)), runs=runs, quiet=quiet_runs)
