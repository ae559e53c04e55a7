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
The node with moving links against the same vehicle rigid (``--only node_links``).

:func:`bench_node_links` measures (node_links_probe.py, node_probe.py) and emits; the
vehicle is wrench_bench.ten_link_vehicle.  The figures: doc/guide/performance.md, "The
benches".
"""

import tempfile

from harness import emit
import numpy as np
from wrench_bench import ten_link_vehicle


#: node_links: the figures compared links / rigid (their ratio emitted as ..._ratio).
LINK_RATIO_KEYS = ('cycle_cpu_p50_us', 'cycle_cpu_p99_us', 'cycle_wall_p50_us',
                   'cycle_wall_p99_us')
#: node_links: the figures of the run with every link topic subscribed that are emitted.
LISTENED_KEYS = ('cycle_cpu_p50_us', 'cycle_cpu_p99_us', 'odometry_sent_hz', 'rate_hz',
                 'link_topic_rate_hz')
#: node_links: simulate mode's rates, tried from the first down to the highest that fits.
LINK_SIMULATE_RATES = (1000.0, 500.0, 250.0, 200.0, 150.0, 100.0)


def _simulate_figures(records):
    """Return node_probe.measure_node's records as node_links figures {key: value}."""
    got = {r[0]: r for r in records}
    out = {k: got['node_' + k][1] for k in LINK_RATIO_KEYS if 'node_' + k in got}
    out['overruns'] = got['node_loop'][1]
    out['overruns_measured'] = got['node_loop'][3]['overruns_measured']
    out['rate_hz'] = got['node_rate_hz'][1]
    return out


def _emit_pair(results, prefix, rate, figures, quiet_of):
    """
    Emit every vehicle's figures, the ratios to the rigid one and the budget shares.

    ``figures`` has 'rigid' and 'links', and may have 'unfed' (the links vehicle fed no
    joint_states: emitted as the others, without ratios) and 'listened' (the links
    vehicle with every link topic subscribed by the probe).  The probe's ten 1 kHz
    subscriptions take most of a core in Python (a bare rclpy subscriber: ~70-90 us of
    CPU a message), so on
    a 2-core machine the listened run's wall times, rates and process CPU measure the
    probe as much as the node: of it only the update's own CPU (its thread's CPU time,
    where the link topics are published), the rates sent and received and that CPU's
    ratio to the rigid one are emitted.
    """
    units = {'overruns': 'overruns', 'overruns_measured': 'overruns', 'rate_hz': 'Hz',
             'odometry_sent_hz': 'Hz', 'process_cpu_share': 'x', 'joints_fed': 'joints',
             'link_topic_rate_hz': 'Hz'}
    for kind in figures:
        load, quiet = quiet_of[kind]
        for key, value in figures[kind].items():
            if kind == 'listened' and key not in LISTENED_KEYS:
                continue
            emit(results, '%s_%s_%s' % (prefix, kind, key), float(value),
                 units.get(key, 'us'), rate_hz=rate, quiet=quiet, load=load)
    rigid = figures['rigid']
    for kind in ('links', 'listened'):
        if kind not in figures:
            continue
        links = figures[kind]
        tag = prefix if kind == 'links' else prefix + '_listened'
        quiet = quiet_of[kind][1] and quiet_of['rigid'][1]
        for key in LINK_RATIO_KEYS + ('process_cpu_per_odometry_us',):
            if key in links and key in rigid and (kind == 'links' or key in LISTENED_KEYS):
                emit(results, '%s_%s_ratio' % (tag, key[:-3] if key.endswith('_us') else key),
                     links[key] / rigid[key], 'x', links=links[key], rigid=rigid[key],
                     rate_hz=rate, quiet=quiet)
        if kind == 'links':
            # the links' worst cycle against the period (1 ms at 1 kHz)
            emit(results, tag + '_budget_share', links['cycle_wall_p99_us'] * rate * 1e-6,
                 'x', rate_hz=rate, quiet=quiet, rigid=rigid['cycle_wall_p99_us'] * rate * 1e-6)


#: node_links: the wrench-mode figures summarised over the runs (median and range).
LINK_SUMMARY = (('links', 'process_cpu_per_odometry_us', 'us'),
                ('rigid', 'process_cpu_per_odometry_us', 'us'),
                ('links', 'cycle_wall_p99_us', 'us'), ('rigid', 'cycle_wall_p99_us', 'us'),
                ('links', 'overruns_measured', 'overruns'),
                ('rigid', 'overruns_measured', 'overruns'),
                ('links', 'rate_hz', 'Hz'), ('rigid', 'rate_hz', 'Hz'),
                ('listened', 'cycle_cpu_p50_us', 'us'), ('links', 'cycle_cpu_p50_us', 'us'),
                ('unfed', 'process_cpu_per_odometry_us', 'us'),
                ('unfed', 'cycle_wall_p99_us', 'us'), ('unfed', 'overruns_measured', 'overruns'),
                ('unfed', 'rate_hz', 'Hz'))


def bench_node_links(results, quiet_check, duration, runs=1):
    """
    Run the node on a 10-link vehicle and on the same vehicle rigid, in the same run.

    The vehicle is :func:`ten_link_vehicle` written as a YAML file (``links:`` /
    ``joints:``), the rigid one that file's lumped keys (benchmarks/node_links_probe.py).
    Wrench mode at 1 kHz, fed with odometry and joint_states at 1 kHz, the 10-link vehicle
    three times: as is, with a subscriber on every link topic ('listened') and fed no
    joint_states ('unfed': the joints stay at zero, the cost of that input stream shows
    against 'links'); then simulate mode
    (articulated) at 1 kHz, or, when the links' cycles do not fit there (an overrun in
    the measured interval or a p99 wall time over the period), at the highest of
    LINK_SIMULATE_RATES that fits.  Wrench mode runs ``runs`` times (the three vehicles
    in turn each time; figures ``links_wrench_run<k>_...`` when more than one), then the
    medians and ranges of LINK_SUMMARY and of the links / rigid CPU ratio.
    """
    from node_links_probe import measure_wrench, write_vehicles
    from node_probe import measure_node
    folder = tempfile.mkdtemp(prefix='uwv_bench_links_')
    files = dict(zip(('links', 'rigid'), write_vehicles(ten_link_vehicle(), folder)))
    joints = ten_link_vehicle().tree.joint_names()  # fed to both vehicles
    every, quiet_runs = [], True
    for run in range(1, runs + 1):
        figures, quiet_of = {}, {}
        for kind in ('links', 'listened', 'unfed', 'rigid'):
            quiet_of[kind] = quiet_check('node wrench mode, %s vehicle, 1000 Hz, run %d/%d'
                                         % (kind, run, runs))
            figures[kind] = measure_wrench(files['rigid' if kind == 'rigid' else 'links'],
                                           folder, 1000.0, duration,
                                           link_listeners=kind == 'listened',
                                           feed_joints=[] if kind == 'unfed' else joints)
            quiet_runs = quiet_runs and quiet_of[kind][1]
        _emit_pair(results, 'links_wrench' if runs == 1 else 'links_wrench_run%d' % run,
                   1000.0, figures, quiet_of)
        every.append(figures)
    if runs > 1:
        summary = [(kind, key, unit, [f[kind][key] for f in every])
                   for kind, key, unit in LINK_SUMMARY]
        summary.append(('links_over_rigid', 'process_cpu_per_odometry_ratio', 'x', [
            f['links']['process_cpu_per_odometry_us'] / f['rigid']['process_cpu_per_odometry_us']
            for f in every]))
        for kind, key, unit, values in summary:
            emit(results, 'links_wrench_%s_%s_median' % (kind, key), float(np.median(values)),
                 unit, low=float(min(values)), high=float(max(values)), runs=runs,
                 quiet=quiet_runs)
    figures, fits = {}, None
    for rate in LINK_SIMULATE_RATES:
        for kind in ('links', 'rigid'):
            quiet_of[kind] = quiet_check('node simulate mode, %s vehicle, %g Hz' % (kind, rate))
            figures[kind] = _simulate_figures(measure_node(rate_hz=rate, duration=duration,
                                                           vehicle_file=files[kind]))
        tag = 'links_simulate_%dhz' % rate
        _emit_pair(results, tag, rate, figures, quiet_of)
        links = figures['links']
        if links['overruns_measured'] == 0 and links['cycle_wall_p99_us'] * rate < 1e6:
            fits = rate
            break
    emit(results, 'links_simulate_highest_fitting_hz', float('nan') if fits is None else fits,
         'Hz', tried=list(LINK_SIMULATE_RATES), quiet=quiet_of['links'][1])
