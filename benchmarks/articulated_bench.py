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
The articulated vehicle's figures (``run.py --only articulated`` and ``node_uvms``).

The vehicles: uuv_simulator's RexROV + Oberon7 (uuv_manipulators) and the rigid RexROV,
from the peers' own xacros when ``UWV_UUV_ROOT`` names a directory holding the
``uuv_simulator`` and ``uuv_manipulators`` checkouts (doc/guide/uvms.md), else the
corpus vehicles written from them (test/corpus/uuv_simulator/rexrov_oberon7_like,
rexrov_like).

* ``articulated``: one step of the articulated simulate mode (its RK4 sub-steps, the
  servo terms and the state's derivative), compiled against the Pinocchio path of the
  same mode (``compiled=False``: what the node ran before) in the same run, interleaved
  round by round, at dt 0.01 s and 0.001 s; per run the medians, then their ranges.
* ``node_uvms``: the node in simulate mode at 1 kHz on the RexROV + Oberon7, on the rigid
  RexROV and the minimal rclpy publisher (the floor), run after run (node_probe.py):
  the update's CPU p50 / p99 and the period jitter p99, and each node's jitter less the
  floor's of the same run.
"""
import os
import pathlib
import time

import numpy as np

REPO = pathlib.Path(__file__).resolve().parents[1]
CORPUS = REPO / 'test' / 'corpus' / 'uuv_simulator'


def vehicles():
    """Return (arm vehicle file, rigid vehicle file, where from)."""
    root = os.environ.get('UWV_UUV_ROOT')
    if root:
        robots = pathlib.Path(root) / 'uuv_simulator' / 'uuv_descriptions' / 'robots'
        os.environ['ROS_PACKAGE_PATH'] = os.pathsep.join(
            str(pathlib.Path(root) / name) for name in ('uuv_manipulators', 'uuv_simulator'))
        return (str(robots / 'rexrov_oberon7.xacro'), str(robots / 'rexrov_default.xacro'),
                'uuv_simulator + uuv_manipulators')
    return (str(CORPUS / 'rexrov_oberon7_like.urdf.xacro'),
            str(CORPUS / 'rexrov_like.urdf.xacro'), 'test corpus')


def _step_times(mode, tau, n):
    """Return n step times (us) of mode (after a warm-up)."""
    for _ in range(10):
        mode.step(tau)
    out = np.empty(n)
    for i in range(n):
        t0 = time.perf_counter_ns()
        mode.step(tau)
        out[i] = time.perf_counter_ns() - t0
    return out / 1000.0


def bench_step(emit, quiet_check, runs, rounds):
    """Emit the articulated step, compiled and on Pinocchio, per dt (module docstring)."""
    from uwv_hydro.description.loader import load_vehicle
    from uwv_hydro.modes.articulated_simulate_mode import ArticulatedSimulateMode
    arm, _, source = vehicles()
    vehicle = load_vehicle(arm)
    vehicle = getattr(vehicle, 'params', vehicle)
    tau = np.array([200.0, 0.0, 100.0, 0.0, 0.0, 20.0])
    for dt in (0.01, 0.001):
        per_run = []
        for run in range(runs):
            load, quiet = quiet_check('articulated dt %g run %d' % (dt, run + 1))
            fast = ArticulatedSimulateMode(vehicle, dt)
            slow = ArticulatedSimulateMode(vehicle, dt, compiled=False)
            compiled, python = [], []
            for _ in range(rounds):
                compiled.extend(_step_times(fast, tau, 50))
                python.extend(_step_times(slow, tau, 5))
            rec = {'compiled': float(np.median(compiled)),
                   'compiled_p99': float(np.percentile(compiled, 99)),
                   'pinocchio': float(np.median(python)), 'quiet': quiet, 'load': load,
                   'substeps': fast.substeps}
            rec['ratio'] = rec['pinocchio'] / rec['compiled']
            per_run.append(rec)
            emit('articulated_step_dt%g_run' % dt, rec['compiled'], 'us', **rec)
        quiet = all(r['quiet'] for r in per_run)
        for key, unit in (('compiled', 'us'), ('compiled_p99', 'us'), ('pinocchio', 'us'),
                          ('ratio', 'x')):
            values = [r[key] for r in per_run]
            emit('articulated_step_dt%g_%s' % (dt, key), float(np.median(values)), unit,
                 range=[min(values), max(values)], runs=runs, quiet=quiet,
                 vehicle=source, substeps=per_run[0]['substeps'])


def bench_node(emit, quiet_check, runs, duration):
    """Emit the node's figures at 1 kHz on both vehicles against the floor."""
    from node_probe import measure_node
    arm, rigid, source = vehicles()
    keys = {'cpu_p50': ('node_cycle_cpu_p50_us', 'us'),
            'cpu_p99': ('node_cycle_cpu_p99_us', 'us'),
            'jitter_p99': ('node_period_jitter_p99_ms', 'ms'),
            'rate': ('node_rate_hz', 'Hz')}
    per = {'floor': [], 'rexrov': [], 'rexrov_oberon7': []}
    for run in range(runs):
        for name in per:
            load, quiet = quiet_check('node_uvms %s run %d' % (name, run + 1))
            records = measure_node(1000.0, duration, floor=name == 'floor',
                                   vehicle_file={'rexrov': rigid,
                                                 'rexrov_oberon7': arm}.get(name, ''))
            # the floor's figures are named floor_node_*
            values = {r[0][len('floor_'):] if r[0].startswith('floor_') else r[0]: r[1]
                      for r in records}
            rec = {k: values.get(figure) for k, (figure, _) in keys.items()}
            rec.update(quiet=quiet, load=load)
            per[name].append(rec)
            emit('node_uvms_%s_run' % name, rec['jitter_p99'] or 0.0, 'ms', **rec)
    quiet = all(r['quiet'] for recs in per.values() for r in recs)
    for name, recs in per.items():
        for key, (_, unit) in keys.items():
            values = [r[key] for r in recs if r[key] is not None]
            if values:
                emit('node_uvms_%s_%s' % (name, key), float(np.median(values)), unit,
                     range=[min(values), max(values)], runs=runs, quiet=quiet, vehicle=source)
        if name != 'floor':
            over = [r['jitter_p99'] - f['jitter_p99'] for r, f in zip(recs, per['floor'])]
            emit('node_uvms_%s_jitter_p99_over_floor' % name, float(np.median(over)), 'ms',
                 range=[min(over), max(over)], runs=runs, quiet=quiet)
