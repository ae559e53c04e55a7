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
What every bench shares: the targets, a figure's JSON line, the load check, the table.

:func:`emit` prints one figure as a JSON line (judged against its target in TARGETS
unless taken on a machine that was not quiet) and keeps it for :func:`table`;
:func:`load_check` returns the check run before every timed run (``--settle``);
:func:`time_calls` times a call.
"""

import json
import os
import time

import numpy as np


#: A figure's target (operator, bound): judged in its JSON line and the table.
TARGETS = {
    'wrench_vs_naive_ratio': ('<=', 1 / 3),
    'rk4_step_us': ('<=', 30.0),
    'simulate_cli_vs_naive_ratio': ('>=', 100.0),
    'core_start_ms': ('<=', 1000.0),
    'surface_vs_deep_step_ratio': ('<=', 1.2),
    'simulate_rtf': ('>=', 300.0),
    'replay_rtf': ('>=', 300.0),
    'replay_simulate_jitter_ratio': ('<=', 1.5),
    'batch_step_us_per_vehicle': ('<=', 1.0),
    'sweep_per_core_ratio': ('>=', 0.8),
    'sweep_per_cpu_second_ratio': ('>=', 0.8),
    'node_rate_error_pct': ('<=', 1.0),
    'node_jitter_p99_over_floor_ms': ('<=', 0.3),
    'node_jitter_p99_over_floor_at_callback_ms': ('<=', 0.3),
    'node_latency_p99_over_floor_ms': ('<=', 0.5),
    'node_latency_p99_over_floor_at_callback_ms': ('<=', 0.5),
    # per-link wrench of a 10-link vehicle (joint state in, lagged added mass): its p99 at
    # most half the 1 ms cycle of 1 kHz, the rest the node's own (p99 0.2-0.24 ms rigid)
    'link_wrench_1khz_share': ('<=', 0.5),
    # issue 43: an articulated step of RexROV + Oberon7 offline, and both vehicles at 1 kHz
    'articulated_step_dt0.01_compiled': ('<=', 150.0),
    'node_uvms_rexrov_jitter_p99_over_floor': ('<=', 0.3),
    'node_uvms_rexrov_oberon7_jitter_p99_over_floor': ('<=', 0.3),
    # issue 50: the seabed's sensors add at most 10 % to the node's step
    'seabed_sensors_dvl_10hz_echosounder_50hz_over_base_median': ('<=', 1.1),
}

#: A machine is quiet below this 1-minute load average (issue 34): timing figures taken
#: above it decide nothing.
QUIET_LOAD = 0.5
#: Longest wait for the load to fall below QUIET_LOAD before a timed run (s; --settle).
SETTLE_S = 120.0
NOT_QUIET = 'machine not quiet: figures decide nothing'


def emit(results, name, value, unit, **extra):
    """Print one figure as a JSON line and keep it for the table."""
    rec = {'name': name, 'value': value, 'unit': unit}
    rec.update(extra)
    target = TARGETS.get(name)
    if target is not None:
        op, bound = target
        rec['target'] = '%s %g' % (op, bound)
        # a timing figure of a machine that was not quiet is not judged
        if rec.get('quiet', True):
            rec['met'] = bool(value <= bound if op == '<=' else value >= bound)
    print(json.dumps(rec), flush=True)
    results.append(rec)


def load_check(settle_s=SETTLE_S):
    """
    Return ``quiet_check(label)``: print the load average before a timed run.

    ``quiet_check`` returns (1-minute load, quiet).  It waits up to ``settle_s`` seconds
    (the --settle option) for the 1-minute load average to fall below QUIET_LOAD; a
    previous run's own node and probe raise it for a minute or so.
    """
    def quiet_check(label, settle_s=settle_s):
        """Print the load average before the timed run ``label``; return (load, quiet)."""
        end = time.monotonic() + settle_s
        load = os.getloadavg()
        while load[0] >= QUIET_LOAD and time.monotonic() < end:
            time.sleep(5.0)
            load = os.getloadavg()
        quiet = load[0] < QUIET_LOAD
        print('# %s: load average %.2f %.2f %.2f (%d cores)%s' % (
            label, load[0], load[1], load[2], os.cpu_count() or 0,
            '' if quiet else ' >= %g: %s' % (QUIET_LOAD, NOT_QUIET)), flush=True)
        return load[0], quiet
    return quiet_check


def time_calls(fn, n):
    """Return per-call times in microseconds (after a warm-up)."""
    for _ in range(min(n // 10, 1000)):
        fn()
    out = np.empty(n)
    clock = time.perf_counter_ns
    for i in range(n):
        t0 = clock()
        fn()
        out[i] = clock() - t0
    return out / 1000.0


def table(results):
    """Print the figures as a table with their targets."""
    print()
    print('%-36s %14s %-6s %-12s %s' % ('figure', 'value', 'unit', 'target', 'met'))
    not_quiet = False
    for r in results:
        extra = ' (p99 %.3g)' % r['p99'] if 'p99' in r else ''
        met = '' if 'met' not in r else ('yes' if r['met'] else 'NO')
        if r.get('quiet') is False:
            not_quiet = True
            met = 'not quiet'
            extra += ' load %.2f' % r['load'] if 'load' in r else ''
        print('%-36s %14.4g %-6s %-12s %s%s' % (
            r['name'], r['value'], r['unit'], r.get('target', ''), met, extra))
    if not_quiet:
        print('# timing figures marked "not quiet" were taken at a load average >= %g: %s'
              % (QUIET_LOAD, NOT_QUIET))
