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
The compiled core's figures (``--only core``; doc/guide/performance.md, "The benches").

One RK4 step against the naive reference (:func:`bench_rk4`), the surface band against deep
water (:func:`bench_surface`), the offline simulation (:func:`bench_simulate`), many
vehicles stepped together (:func:`bench_batch`), ``uwv-hydro simulate`` as a command
(:func:`bench_simulate_cli`) and what the core adds before a first output
(:func:`bench_core_start`).
"""

import pathlib
import re
import sys
import tempfile
import time

from harness import emit, time_calls
from naive_reference import full_vehicle, naive_rk4_step
import numpy as np

HERE = pathlib.Path(__file__).resolve().parent


def bench_rk4(results, n):
    """Time one full simulate step of the dense vehicle."""
    from uwv_hydro.physics.body.dynamics import Simulator, State
    sim = Simulator(full_vehicle(), dt=0.01, substeps=1)
    state = [State(position=np.array([0.0, 0.0, -5.0]),
                   quaternion=np.array([1.0, 0.0, 0.0, 0.0]),
                   twist=np.array([1.0, 0.1, 0.0, 0.0, 0.0, 0.1]))]
    tau = np.array([50.0, 0.0, 0.0, 0.0, 0.0, 2.0])
    cur = np.array([0.2, 0.0, 0.0])

    def step():
        state[0] = sim.step(state[0], tau, cur)
    # the naive numpy RK4 of the same vehicle from the same state, interleaved round by
    # round with the core (a load on the shared machine hits both)
    params = sim.params
    x = np.concatenate([state[0].position, state[0].quaternion, state[0].twist])
    rounds = max(n // 50, 20)
    fast, naive = [], []
    for _ in range(rounds):
        fast.extend(time_calls(step, 50))
        naive.extend(time_calls(lambda: naive_rk4_step(params, x, 0.01, 1, tau, cur), 1))
    emit(results, 'rk4_step_us', float(np.median(fast)), 'us',
         p99=float(np.percentile(fast, 99)), calls=len(fast))
    emit(results, 'naive_rk4_step_us', float(np.median(naive)), 'us', calls=len(naive))
    emit(results, 'rk4_vs_naive_ratio', float(np.median(naive) / np.median(fast)), 'x')


def bench_surface(results, rounds):
    """
    Time one RK4 step in the surface band against a deep one (same vehicle, same run).

    The two are interleaved round by round so that a load on the machine hits both; the
    figure is the ratio of the medians.
    """
    from uwv_hydro.physics.body.dynamics import Simulator
    params = full_vehicle()
    sim = Simulator(params, dt=0.01, substeps=1)
    band = 0.5 * (params.surface.fully_submerged_depth + params.surface.out_of_water_depth)
    tau = [50.0, 0.0, 0.0, 0.0, 0.0, 2.0]
    times = {'deep': [], 'surface': []}
    for _ in range(rounds):
        for name, depth in (('deep', 5.0), ('surface', band)):
            x = [0.0, 0.0, -depth, 1.0, 0.0, 0.0, 0.0, 1.0, 0.1, 0.0, 0.0, 0.0, 0.1]
            times[name].extend(time_calls(lambda: sim.step_flat(x, tau), 200))
    deep, surface = float(np.median(times['deep'])), float(np.median(times['surface']))
    emit(results, 'deep_step_us', deep, 'us')
    emit(results, 'surface_step_us', surface, 'us', depth_m=band)
    emit(results, 'surface_vs_deep_step_ratio', surface / deep, 'x')


def bench_simulate(results, seconds):
    """Offline simulation real-time factor at 100 Hz."""
    from uwv_hydro.modes.offline_simulation import simulate
    from uwv_hydro.modes.thrust_profile import ThrustProfile
    profile = ThrustProfile([0.0, 600.0, 1800.0], np.array(
        [[60, 0, 0, 0, 0, 1], [30, 5, 0, 0, 0, -1], [0, 0, 0, 0, 0, 0]], float))
    t0 = time.perf_counter()
    traj = simulate(full_vehicle(), seconds, dt=0.01, thrust=profile)
    wall = time.perf_counter() - t0
    assert np.all(np.isfinite(traj.position))
    emit(results, 'simulate_rtf', seconds / wall, 'x', simulated_s=seconds, wall_s=wall,
         steps=len(traj.t) - 1)


def bench_batch(results, n_vehicles, steps, distinct=5, name='batch_step_us_per_vehicle'):
    """Step N vehicles (``distinct`` parameter sets) together through the batch simulator."""
    from uwv_hydro.physics.body.batch import BatchSimulator
    t0 = time.perf_counter()
    sim = BatchSimulator([full_vehicle(seed=s % distinct) for s in range(n_vehicles)],
                         dt=0.01)
    setup = time.perf_counter() - t0
    state = sim.initial_state(position=np.array([0.0, 0.0, -5.0]))
    tau = np.tile([50.0, 0.0, 0.0, 0.0, 0.0, 2.0], (n_vehicles, 1))
    state = sim.step(state, tau)
    walls = np.empty(steps)
    clock = time.perf_counter
    for k in range(steps):
        t0 = clock()
        state = sim.step(state, tau)
        walls[k] = clock() - t0
    assert np.all(np.isfinite(state.twist))
    # the median step: a load spike on the shared machine does not move it
    emit(results, name, float(np.median(walls)) / n_vehicles * 1e6, 'us',
         vehicles=n_vehicles, parameter_sets=distinct, steps=steps, setup_s=setup,
         mean_us=float(walls.mean()) / n_vehicles * 1e6,
         best_us=float(walls.min()) / n_vehicles * 1e6)


def bench_simulate_cli(results, seconds, vehicles=('bluerov2', 'remus100')):
    """
    ``uwv-hydro simulate`` (a new process, CSV and MCAP out) against the naive RK4.

    The naive figure is its median step time (from the same start state and thrust)
    times the steps of the run: running it for the whole hour would take ~10 min.
    """
    import subprocess
    from uwv_hydro.description.loader import load_vehicle
    from uwv_hydro.modes.simulate_mode import SimulateMode
    dt = 0.01
    steps = int(round(seconds / dt))
    with tempfile.TemporaryDirectory() as tmp:
        profile = pathlib.Path(tmp) / 'thrust.csv'
        profile.write_text('t,fx,fy,fz,tx,ty,tz\n0,60,0,0,0,0,1\n600,30,5,0,0,0,-1\n'
                           '1800,0,0,0,0,0,0\n')

        def run(path, out, *extra):
            """Run the command; return (wall s, the simulation s it reports)."""
            t0 = time.perf_counter()
            proc = subprocess.run(
                [sys.executable, '-m', 'uwv_hydro', 'simulate', str(path), '--duration',
                 str(seconds), '--dt', str(dt), '--thrust-profile', str(profile), '--out',
                 str(out), *extra], capture_output=True, text=True)
            wall = time.perf_counter() - t0
            assert proc.returncode == 0, proc.stderr
            # the CLI's own figure: "simulated ... in X s" (the simulation, as it reports)
            return wall, float(re.search(r' in ([0-9.]+) s: ', proc.stdout).group(1))

        for vehicle in vehicles:
            path = HERE.parent / 'config' / (vehicle + '.yaml')
            wall, simulated = run(path, pathlib.Path(tmp) / 'out.csv')
            # the same run as one MCAP file (every topic but the sensors, whose noise
            # models cost ~1 ms per IMU sample: --no-sensors)
            mcap = pathlib.Path(tmp) / 'out.mcap'
            mcap_wall, _ = run(path, mcap, '--no-sensors')
            mcap_bytes = mcap.stat().st_size
            mcap.unlink()
            params = load_vehicle(str(path))
            substeps = SimulateMode(params, dt).substeps
            x = np.array([0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])
            tau = np.array([60.0, 0.0, 0.0, 0.0, 0.0, 1.0])
            state = [x]

            def naive_step():
                state[0] = naive_rk4_step(params, state[0], dt, substeps, tau)
            naive = time_calls(naive_step, 200)
            naive_total = float(np.median(naive)) * 1e-6 * steps
            suffix = '' if vehicle == vehicles[0] else '_' + vehicle
            emit(results, 'simulate_cli_s' + suffix, simulated, 's', vehicle=vehicle,
                 simulated_s=seconds, steps=steps, substeps=substeps)
            emit(results, 'naive_simulate_s' + suffix, naive_total, 's', vehicle=vehicle,
                 naive_step_us=float(np.median(naive)))
            emit(results, 'simulate_cli_vs_naive_ratio' + suffix, naive_total / simulated, 'x',
                 vehicle=vehicle)
            # the whole command: process start, description, simulation, CSV (5 million
            # floats as repr's text)
            emit(results, 'simulate_cli_wall_vs_naive_ratio' + suffix, naive_total / wall, 'x',
                 vehicle=vehicle, wall_s=wall)
            # the whole command writing one MCAP file instead of the CSV
            emit(results, 'simulate_cli_mcap_wall_vs_naive_ratio' + suffix,
                 naive_total / mcap_wall, 'x', vehicle=vehicle, wall_s=mcap_wall,
                 mcap_mb=mcap_bytes / 1e6)


CORE_START = """
import time
import numpy
t0 = time.perf_counter()
from uwv_hydro.physics import kernel
t1 = time.perf_counter()
from uwv_hydro.description.loader import load_vehicle
from uwv_hydro.modes.simulate_mode import SimulateMode
params = load_vehicle(%r)
t2 = time.perf_counter()
mode = SimulateMode(params, 0.001)
mode.step([10.0, 0, 0, 0, 0, 0])
t3 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2)
"""


def bench_core_start(results):
    """Time what the compiled core adds before a first output (a fresh process, numpy in)."""
    import subprocess
    path = str(HERE.parent / 'config' / 'remus100.yaml')
    proc = subprocess.run([sys.executable, '-c', CORE_START % path], capture_output=True,
                          text=True, check=True)
    core_import, load, build = (float(v) * 1e3 for v in proc.stdout.split())
    emit(results, 'core_import_ms', core_import, 'ms')
    emit(results, 'core_start_ms', core_import + build, 'ms', vehicle='remus100',
         import_ms=core_import, simulate_mode_and_first_step_ms=build,
         description_load_ms=load)
