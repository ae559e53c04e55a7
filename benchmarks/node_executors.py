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
``--only node_executors``: the node on each executor path it can take, beside the floor.

Issue 47: the node's callbacks run on rclpy's EventsExecutor where rclpy has it (Kilted,
Jazzy from rclpy 7.1.4) and on the SingleThreadedExecutor elsewhere (Humble), the
``executor`` parameter choosing (uwv_hydro/node/executor_choice.py).  Each run measures,
in the same run and order, the floor (benchmarks/floor_node.py), then the node at
1 kHz (simulate mode, wall-clock thread, the probe of node_probe.py publishing thrust)
with ``executor: events`` (where this rclpy has it) and ``executor: single_threaded``.
Printed per path: the period jitter p99 and the thrust -> odometry latency p99 as ratios
to the floor's and over it (ms), the executor the node reported in /diagnostics, and,
over the runs, the medians with their range.
"""
import numpy as np

RATE_HZ = 1000.0
FIGURES = (('node_period_jitter_p99_ms', 'jitter_p99'),
           ('thrust_to_odometry_latency_p99_ms', 'latency_p99'))


def _paths():
    """Return the executor paths this rclpy has (events only where it has the class)."""
    from uwv_hydro.node.executor_choice import events_executor_class
    return (['events'] if events_executor_class() is not None else []) + ['single_threaded']


def bench(results, emit, quiet_check, quick: bool, runs: int) -> None:
    """Emit (``emit(results, name, value, unit, ...)``) every run's ratios, then medians."""
    from node_probe import measure_node
    duration = 3.0 if quick else 10.0
    paths = _paths()
    if 'events' not in paths:
        print('node_executors: this rclpy has no EventsExecutor: single_threaded only',
              flush=True)
    every = {path: [] for path in paths}
    quiet_runs = True
    for run in range(1, runs + 1):
        tag = '%g Hz, run %d/%d' % (RATE_HZ, run, runs)
        floor_load, quiet = quiet_check('floor, ' + tag)
        floor = {r[0]: r for r in measure_node(RATE_HZ, duration, floor=True)}
        for path in paths:
            load, path_quiet = quiet_check('node executor %s, %s' % (path, tag))
            quiet = quiet and path_quiet
            node = {r[0]: r for r in measure_node(RATE_HZ, duration, executor=path)}
            reported = node['node_loop'][3].get('executor', '?')
            figures = {}
            for figure, short in FIGURES:
                value, base = node[figure][1], floor['floor_' + figure][1]
                figures[short + '_over_floor'] = value / base
                figures[short + '_over_floor_ms'] = value - base
                emit(results, 'executor_%s_%s_over_floor' % (path, short), value / base,
                     'x floor', node_ms=value, floor_ms=base, run=run, quiet=quiet,
                     load=max(load, floor_load), reported_executor=reported)
            every[path].append(figures)
        quiet_runs = quiet_runs and quiet
    for path, figures in every.items():
        for key in sorted(figures[0]):
            values = [f[key] for f in figures]
            emit(results, 'executor_%s_%s_median' % (path, key), float(np.median(values)),
                 'ms' if key.endswith('_ms') else 'x floor', low=float(min(values)),
                 high=float(max(values)), runs=runs, quiet=quiet_runs)
