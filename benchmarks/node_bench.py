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
The node against the floor (``--only node node_paired node_profile node_runs``).

The node in simulate mode measured over DDS by a separate process (node_probe.py), beside
the floor (floor_node.py) in the same run: one after the other (:func:`bench_node`), side
by side (:func:`bench_node_paired`), and run after run at several rates, with the cycle
profile on or off (:func:`bench_node_runs`).  Every bench takes ``quiet_check``
(harness.load_check) for the load check before each timed run.  The figures:
doc/guide/performance.md, "The benches".
"""

import json
import pathlib
import sys

from harness import emit, NOT_QUIET
import numpy as np

HERE = pathlib.Path(__file__).resolve().parent


def emit_floor_ratios(results, prefix, node, floor, **extra):
    """
    Emit the node's CPU per step over the floor's CPU per cycle, both of this run.

    ``node``, ``floor``: {name: value} of measure_node's figures (the floor's names
    without their ``floor_`` prefix).  The floor (floor_node.py) only publishes odometry
    and /tf each cycle, so the ratios scale with the host less than either figure does:
    the node's process CPU per odometry message over the floor's
    (``process_cpu_per_step_over_floor``) and the node's update-thread CPU per cycle
    (/diagnostics p50: one step per update) over the floor's process CPU per cycle
    (``cycle_cpu_p50_over_floor``, an upper bound of the floor's own cycle).
    """
    per_cycle = floor.get('node_process_cpu_per_odometry_us', float('nan'))
    ratios = {}
    for name, key in (('process_cpu_per_step_over_floor', 'node_process_cpu_per_odometry_us'),
                      ('cycle_cpu_p50_over_floor', 'node_cycle_cpu_p50_us')):
        value = node.get(key, float('nan'))
        ratios[name] = value / per_cycle
        emit(results, prefix + name, ratios[name], 'x', node=value, floor=per_cycle, **extra)
    return ratios


def bench_node(results, quiet_check, duration):
    """Run the node at 1 kHz and measure it from another process over DDS, beside the floor."""
    from node_probe import measure_node
    got = {}
    load, quiet = quiet_check('node at 1000 Hz')
    for rec in measure_node(rate_hz=1000.0, duration=duration):
        emit(results, *rec[:3], **dict(rec[3], load=load, quiet=quiet))
        got[rec[0]] = rec
    # the same probe on a minimal rclpy publisher (floor_node.py): the measurement floor
    floor_load, floor_quiet = quiet_check('floor at 1000 Hz')
    for rec in measure_node(rate_hz=1000.0, duration=duration, floor=True):
        emit(results, *rec[:3], **dict(rec[3], load=floor_load, quiet=floor_quiet))
        got[rec[0]] = rec
    quiet = quiet and floor_quiet
    emit_floor_ratios(results, 'node_', {k: v[1] for k, v in got.items()},
                      {k[len('floor_'):]: v[1] for k, v in got.items()
                       if k.startswith('floor_')}, quiet=quiet)
    for figure, name in (('node_period_jitter_p99_ms', 'node_jitter_p99_over_floor'),
                         ('thrust_to_odometry_latency_p99_ms', 'node_latency_p99_over_floor')):
        node, floor = got[figure], got['floor_' + figure]
        emit(results, name + '_ms', node[1] - floor[1], 'ms', node=node[1], floor=floor[1],
             quiet=quiet)
        node_cb, floor_cb = node[3]['at_callback_p99'], floor[3]['at_callback_p99']
        emit(results, name + '_at_callback_ms', node_cb - floor_cb, 'ms', node=node_cb,
             floor=floor_cb, quiet=quiet)


def bench_node_paired(results, quiet_check, duration):
    """
    Measure the node and the floor at the same time (two probes, two ROS domains).

    The sequential figures of :func:`bench_node` take the node and the floor some
    seconds apart: on a shared machine the load then differs between the two.  Here
    both run side by side (each process's load falls on the other too), so a load
    change hits both; figures named ``paired_*``.
    """
    import subprocess
    probe = str(HERE / 'node_probe.py')
    load, quiet = quiet_check('node and floor side by side at 1000 Hz')
    procs = [subprocess.Popen([sys.executable, probe, '1000', repr(duration), '--json'] + extra,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
             for extra in ([], ['--floor'])]
    got = {}
    for proc in procs:
        out, _ = proc.communicate()
        for line in out.splitlines():
            name, value, unit, extra = json.loads(line)
            got[name] = (value, extra)
            emit(results, 'paired_' + name, value, unit, **dict(extra, load=load, quiet=quiet))
    emit_floor_ratios(results, 'paired_node_', {k: v[0] for k, v in got.items()},
                      {k[len('floor_'):]: v[0] for k, v in got.items()
                       if k.startswith('floor_')}, quiet=quiet)
    for figure, name in (('node_period_jitter_p99_ms', 'paired_node_jitter_p99_over_floor'),
                         ('thrust_to_odometry_latency_p99_ms',
                          'paired_node_latency_p99_over_floor')):
        (node, node_x), (floor, floor_x) = got[figure], got['floor_' + figure]
        emit(results, name + '_ms', node - floor, 'ms', node=node, floor=floor,
             at_callback=node_x['at_callback_p99'] - floor_x['at_callback_p99'], quiet=quiet)


#: The bars of issue 34: node p99 jitter within the floor's + this (ms) ...
PROFILE_BAR_MS = 0.3
#: ... thrust -> odometry latency p99 within the floor's + this (ms) ...
LATENCY_BAR_MS = 0.5
#: ... in this many of the quiet runs of a rate (4 of 5).
PROFILE_BAR_RUNS = 0.8


def bench_node_runs(results, quiet_check, duration, rates, runs, profile):
    """
    Measure the node against the floor: ``runs`` runs at each of ``rates``.

    Every run and rate: the node (with ``cycle_profile`` on when ``profile``), then the
    floor at the same rate, each after a load check.  Emits both p99 jitters and
    latencies, the rate over the first second, and (profile on) prints the node's
    per-stage table; at the end, per rate, the medians and ranges over the runs and how
    many quiet runs met floor + PROFILE_BAR_MS (jitter) and + LATENCY_BAR_MS (latency).
    """
    from node_probe import measure_node
    prefix = 'profile_' if profile else 'runs_'
    summary = {rate: [] for rate in rates}
    for run in range(1, runs + 1):
        for rate in rates:
            tag = 'run %d/%d at %g Hz' % (run, runs, rate)
            load, quiet = quiet_check('node%s, %s' % (
                ' (cycle_profile on)' if profile else '', tag))
            node = {r[0]: r for r in measure_node(rate_hz=rate, duration=duration,
                                                  profile=profile)}
            floor_load, floor_quiet = quiet_check('floor, ' + tag)
            floor = {r[0]: r for r in measure_node(rate_hz=rate, duration=duration,
                                                   floor=True)}
            quiet = quiet and floor_quiet
            jitter = node['node_period_jitter_p99_ms'][1]
            floor_jitter = floor['floor_node_period_jitter_p99_ms'][1]
            latency = node['thrust_to_odometry_latency_p99_ms'][1]
            floor_latency = floor['floor_thrust_to_odometry_latency_p99_ms'][1]
            first = node.get('node_rate_first_second_hz', (None, float('nan')))[1]
            common = {'rate_hz': rate, 'run': run, 'load': max(load, floor_load),
                      'quiet': quiet}
            emit(results, prefix + 'node_jitter_p99_ms', jitter, 'ms', **common)
            emit(results, prefix + 'floor_jitter_p99_ms', floor_jitter, 'ms', **common)
            emit(results, prefix + 'node_jitter_p99_over_floor_ms', jitter - floor_jitter,
                 'ms', **common)
            emit(results, prefix + 'node_latency_p99_over_floor_ms', latency - floor_latency,
                 'ms', node=latency, floor=floor_latency, **common)
            emit(results, prefix + 'node_rate_first_second_hz', first, 'Hz', **common)
            ratios = emit_floor_ratios(results, prefix + 'node_',
                                       {k: v[1] for k, v in node.items()},
                                       {k[len('floor_'):]: v[1] for k, v in floor.items()},
                                       **common)
            prof = node.get('node_profile')
            if prof is not None:
                emit(results, 'profile_stages', prof[1], 'windows', **dict(common, **prof[3]))
                profile_table(prof[3], tag, jitter, floor_jitter, quiet)
            summary[rate].append({'quiet': quiet, 'jitter': jitter, 'floor': floor_jitter,
                                  'latency': latency - floor_latency, 'first': first,
                                  'cpu': ratios['process_cpu_per_step_over_floor'],
                                  'cycle': ratios['cycle_cpu_p50_over_floor']})
    print()
    for rate, rows in summary.items():
        quiet = [r for r in rows if r['quiet']]
        print('# %g Hz: %d of %d runs quiet; of the quiet runs, %d within floor + %g ms '
              'jitter and %d within floor + %g ms latency (done: %d of %d)%s' % (
                  rate, len(quiet), len(rows),
                  sum(r['jitter'] - r['floor'] <= PROFILE_BAR_MS for r in quiet),
                  PROFILE_BAR_MS, sum(r['latency'] <= LATENCY_BAR_MS for r in quiet),
                  LATENCY_BAR_MS, int(round(PROFILE_BAR_RUNS * runs)), runs,
                  '' if len(quiet) == len(rows) else ' -- ' + NOT_QUIET))
        for key, label in (('jitter', 'node jitter p99 ms'), ('floor', 'floor jitter p99 ms'),
                           ('latency', 'latency p99 over floor ms'),
                           ('first', 'rate in the first second Hz'),
                           ('cpu', 'process CPU/step over floor x'),
                           ('cycle', 'cycle CPU p50 over floor x')):
            values = [r[key] for r in rows]
            print('#   %-28s median %8.3f  range %8.3f .. %8.3f' % (
                label, float(np.median(values)), min(values), max(values)))


def profile_table(prof, tag, jitter, floor_jitter, quiet):
    """Print one run's per-stage table beside the node's and the floor's jitter."""
    print()
    print('# cycle profile, %s: node p99 jitter %.3f ms, floor %.3f ms, node - floor '
          '%+.3f ms%s' % (tag, jitter, floor_jitter, jitter - floor_jitter,
                          '' if quiet else ' -- ' + NOT_QUIET))
    print('%-18s %10s %10s %10s' % ('stage (us)', 'p50', 'p99', 'max'))
    for stage, fig in prof['stages'].items():
        print('%-18s %10.1f %10.1f %10.1f' % (stage, fig['p50'], fig['p99'], fig['max']))
    late = prof['late_wakes']
    by = {kind: ', '.join('%s %d' % (k[len('late_wakes_%s_' % kind):], v)
                          for k, v in late.items() if k.startswith('late_wakes_' + kind))
          for kind in ('during', 'after')}
    print('late wakes (sleep past the deadline) %d of %d cycles; during: %s; after: %s; '
          'gc passes %d; switch interval %g us' % (
              late.get('late_wakes', 0), prof['cycles'], by['during'], by['after'],
              prof['gc_runs'], prof['switch_interval_us']), flush=True)
