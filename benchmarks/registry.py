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
The benches of ``make bench`` by name: what each runs, the names of its figures.

Each :class:`Bench` runs with a :class:`Run` (the figures so far, the load check, the
options) and emits its figures through :func:`harness.emit`.  BENCHES is in the order
they run; a name's figures are exact names or patterns (``*``: a run, vehicle or rate in
the name).  What each measures and each figure's meaning: doc/guide/performance.md, "The
benches".
"""

import typing

import articulated_bench
import core_bench
from harness import emit
import node_bench
import node_executors
import node_links_bench
import node_rexrov
import replay_bench
import seabed_sensors
import sitl_json_probe
import sweep_bench
import tether_bench
import wrench_bench


class Run(typing.NamedTuple):
    """What a bench runs with: the figures so far, the load check and the options."""

    results: list
    quiet_check: typing.Callable
    quick: bool = False
    runs: int = 5
    rates: tuple = (1000.0, 500.0, 250.0)

    def emit(self, name, value, unit, **extra):
        """Emit one figure into ``results`` (harness.emit)."""
        emit(self.results, name, value, unit, **extra)


class Bench(typing.NamedTuple):
    """One bench: its ``--only`` name, what it runs, its figures, whether it runs by default."""

    name: str
    run: typing.Callable
    figures: tuple
    default: bool = True


def _batch(r):
    core_bench.bench_batch(r.results, 1000, 20 if r.quick else 200)
    core_bench.bench_batch(r.results, 1000, 20 if r.quick else 200, distinct=1000,
                           name='batch_sweep_step_us_per_vehicle')


def _node_runs(profile):
    return lambda r: node_bench.bench_node_runs(r.results, r.quiet_check,
                                                3.0 if r.quick else 10.0, r.rates, r.runs,
                                                profile=profile)


BENCHES = (
    Bench('wrench', lambda r: wrench_bench.bench_wrench(r.results, 2000 if r.quick else 20000),
          ('wrench_eval_us', 'naive_wrench_eval_us', 'wrench_vs_naive_ratio')),
    Bench('link_wrench',
          lambda r: wrench_bench.bench_link_wrench(r.results, 2000 if r.quick else 20000),
          ('rigid_wrench_mode_eval_us', 'link_wrench_eval_us', 'link_vs_rigid_wrench_ratio',
           'link_wrench_1khz_share')),
    Bench('rk4', lambda r: core_bench.bench_rk4(r.results, 1000 if r.quick else 10000),
          ('rk4_step_us', 'naive_rk4_step_us', 'rk4_vs_naive_ratio')),
    Bench('surface', lambda r: core_bench.bench_surface(r.results, 5 if r.quick else 50),
          ('deep_step_us', 'surface_step_us', 'surface_vs_deep_step_ratio')),
    Bench('simulate',
          lambda r: core_bench.bench_simulate(r.results, 60.0 if r.quick else 3600.0),
          ('simulate_rtf',)),
    Bench('replay', lambda r: replay_bench.bench_replay(r.results, 30.0 if r.quick else 3600.0),
          ('replay_rtf', 'replay_components_rtf')),
    Bench('replay_simulate',
          lambda r: replay_bench.bench_replay_simulate(r.results, 30.0 if r.quick else 3600.0),
          ('replay_simulate_rtf', 'replay_simulate_jitter_rtf', 'replay_simulate_jitter_ratio')),
    Bench('batch', _batch, ('batch_step_us_per_vehicle', 'batch_sweep_step_us_per_vehicle')),
    Bench('node',
          lambda r: node_bench.bench_node(r.results, r.quiet_check, 3.0 if r.quick else 10.0),
          ('node_rate_hz', 'node_rate_error_pct', 'node_rate_first_second_hz',
           'node_period_jitter_p99_ms', 'thrust_to_odometry_latency_p99_ms', 'node_loop',
           'node_cycle_*_us', 'node_process_cpu_per_odometry_us', 'floor_*',
           'node_process_cpu_per_step_over_floor', 'node_cycle_cpu_p50_over_floor',
           'node_jitter_p99_over_floor_ms', 'node_jitter_p99_over_floor_at_callback_ms',
           'node_latency_p99_over_floor_ms', 'node_latency_p99_over_floor_at_callback_ms')),
    Bench('simulate_cli',
          lambda r: core_bench.bench_simulate_cli(r.results, 60.0 if r.quick else 3600.0),
          ('simulate_cli_s', 'naive_simulate_s', 'simulate_cli_vs_naive_ratio',
           'simulate_cli_wall_vs_naive_ratio', 'simulate_cli_mcap_wall_vs_naive_ratio',
           '*_remus100')),
    Bench('core_start', lambda r: core_bench.bench_core_start(r.results),
          ('core_import_ms', 'core_start_ms')),
    Bench('sweep', lambda r: sweep_bench.bench_sweep(r.results, 2000 if r.quick else 10000,
                                                     5.0 if r.quick else 20.0),
          ('sweep_vehicle_steps_per_s_per_core', 'sweep_single_vehicle_steps_per_s',
           'batch_only_vehicle_steps_per_s', 'sweep_per_core_ratio',
           'sweep_per_cpu_second_ratio', 'sweep_setup_ms_per_parameter_set',
           'sweep_100_nodes_1e5_hour_runs_h')),
    Bench('node_paired',
          lambda r: node_bench.bench_node_paired(r.results, r.quiet_check,
                                                 3.0 if r.quick else 10.0),
          ('paired_*',)),
    # not in the default run (15 timed runs each and more): --only NAME
    Bench('node_profile', _node_runs(True), ('profile_*',), default=False),
    Bench('node_runs', _node_runs(False), ('runs_*',), default=False),
    Bench('node_links',
          lambda r: node_links_bench.bench_node_links(r.results, r.quiet_check,
                                                      3.0 if r.quick else 10.0, r.runs),
          ('links_*',), default=False),
    Bench('node_rexrov',
          lambda r: node_rexrov.bench(r.results, emit, r.quiet_check, r.quick, r.runs),
          ('node_rexrov_*',), default=False),
    Bench('node_executors',
          lambda r: node_executors.bench(r.results, emit, r.quiet_check, r.quick, r.runs),
          ('executor_*',), default=False),
    Bench('articulated',
          lambda r: articulated_bench.bench_step(r.emit, r.quiet_check,
                                                 2 if r.quick else r.runs, 4 if r.quick else 20),
          ('articulated_step_*',), default=False),
    Bench('node_uvms',
          lambda r: articulated_bench.bench_node(r.emit, r.quiet_check, 2 if r.quick else r.runs,
                                                 3.0 if r.quick else 10.0),
          ('node_uvms_*',), default=False),
    Bench('seabed_sensors',
          lambda r: seabed_sensors.bench(r.results, emit, r.quiet_check, r.quick, r.runs),
          ('seabed_sensors_*',), default=False),
    Bench('tether',
          lambda r: tether_bench.bench(r.emit, r.quiet_check, 2 if r.quick else r.runs,
                                       100 if r.quick else 500),
          ('tether_*', 'bare_step_us'), default=False),
    Bench('sitl_json',
          lambda r: sitl_json_probe.bench(r.emit, r.quiet_check, 2000 if r.quick else 20000,
                                          2 if r.quick else r.runs),
          ('sitl_json_*',)),
)

#: The benches of the compiled core (``--only core``).
CORE_BENCHMARKS = ('rk4', 'surface', 'simulate', 'simulate_cli', 'batch', 'core_start')
