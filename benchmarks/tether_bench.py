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
The tether's cost (``run.py --only tether``): one simulate-mode step with and without it.

config/bluerov2_tethered.yaml (30 m of Fathom tether in 20 segments) at the node's
default step (dt 0.01 s, rate_hz 100), 5 m deep, 20 m from the anchor: the step of
SimulateMode without the tether (the compiled core alone) and with it (predictor,
MoorDyn over the step in its own sub-steps, corrector), interleaved round by round in
the same run; per round the median of ``steps`` steps, then the medians of the rounds.

* ``tether_step_us``: one step with the tether (us), ``bare_step_us`` without;
* ``tether_vs_bare_step_ratio``: their ratio (same run);
* ``tether_share_of_period``: the tethered step / the node's default period (10 ms);
* ``tether_node_over_bare``: what the user's node costs, the node process's CPU per step
  (benchmarks/node_probe.py, over DDS: every thread, the tension and marker published)
  of the tethered BlueROV2 over that of config/bluerov2.yaml, the two run one after the
  other in each round; per round, then the median and range over the rounds.
"""
import pathlib
import time

import numpy as np

REPO = pathlib.Path(__file__).resolve().parents[1]
CONFIG = REPO / 'config' / 'bluerov2_tethered.yaml'
BARE = REPO / 'config' / 'bluerov2.yaml'


def _modes():
    from uwv_hydro.description.loader import load_vehicle
    from uwv_hydro.modes.simulate_mode import SimulateMode
    from uwv_hydro.modes.tether import start_tether
    from uwv_hydro.physics.body.dynamics import State
    params = load_vehicle(str(CONFIG))
    params.tether.anchor = np.array([-20.0, 0.0, -5.0])
    initial = State(position=np.array([0.0, 0.0, -5.0]),
                    quaternion=np.array([1.0, 0.0, 0.0, 0.0]), twist=np.zeros(6))
    bare = SimulateMode(params, dt=0.01, initial=initial)
    tethered = SimulateMode(params, dt=0.01, initial=initial)
    tethered.tether = start_tether(tethered, params)
    return bare, tethered


def _median_step_us(step, tau, steps):
    out = np.empty(steps)
    for k in range(steps):
        t0 = time.perf_counter_ns()
        step(tau)
        out[k] = time.perf_counter_ns() - t0
    return float(np.median(out)) / 1000.0


def bench(emit, quiet_check, rounds, steps):
    """Emit the figures of the module docstring."""
    load, quiet = quiet_check('tether')
    bare, tethered = _modes()
    tau = np.array([5.0, 0.0, 0.0, 0.0, 0.0, 0.0])  # a steady surge, away from the anchor
    with_us, without_us = [], []
    for _ in range(rounds):
        without_us.append(_median_step_us(bare.step, tau, steps))
        with_us.append(_median_step_us(tethered.tether_step, tau, steps))
    w, b = float(np.median(with_us)), float(np.median(without_us))
    extra = {'quiet': quiet, 'load': load, 'rounds': rounds, 'steps': steps,
             'moordyn_dt_s': tethered.tether.dt_m, 'segments': tethered.tether.spec.segments}
    emit('tether_step_us', w, 'us', **extra)
    emit('bare_step_us', b, 'us', **extra)
    emit('tether_vs_bare_step_ratio', w / b, '', **extra)
    emit('tether_share_of_period', w * 1e-6 / 0.01, '', **extra)
    _node_figures(emit, quiet_check, rounds)


def _node_figures(emit, quiet_check, rounds, duration=10.0):
    """Emit the node's CPU per step, tethered over bare, per round and over the rounds."""
    from node_probe import measure_node
    ratios, loads, quiet = [], [], True
    for k in range(1, rounds + 1):
        cpu = {}
        for name, vehicle in (('bare', BARE), ('tethered', CONFIG)):
            load, ok = quiet_check('tether: the %s BlueROV2 node at 100 Hz, round %d/%d'
                                   % (name, k, rounds))
            loads.append(load)
            quiet = quiet and ok
            got = {r[0]: r for r in measure_node(100.0, duration, vehicle_file=str(vehicle))}
            cpu[name] = got['node_process_cpu_per_odometry_us'][1]
            emit('tether_node_%s_process_cpu_per_step_us' % name, cpu[name], 'us', run=k,
                 quiet=ok, load=load)
        ratios.append(cpu['tethered'] / cpu['bare'])
        emit('tether_node_over_bare', ratios[-1], 'x', run=k, quiet=quiet, load=max(loads))
    emit('tether_node_over_bare_median', float(np.median(ratios)), 'x', low=min(ratios),
         high=max(ratios), runs=rounds, quiet=quiet)
