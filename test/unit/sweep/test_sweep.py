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
Monte-Carlo sweeps (uwv_hydro.sweep, ``uwv-hydro sweep``).

Draws against the documented rule re-implemented here, the reductions against analytic
tracks, a chunk against Simulator run by run, and the dask runs (real LocalClusters)
against the serial run: 2 workers, a killed worker, a resumed sweep.
"""

import json
import os
import pathlib
import signal
import textwrap

import numpy as np
import pytest
from required_modules import require

from uwv_hydro.cli.main import main
from uwv_hydro.description.conventions import DSROS_LETTERS
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.loader import load_vehicle
from uwv_hydro.physics.body.dynamics import Simulator, State
from uwv_hydro.sweep import chunk_store, draws
from uwv_hydro.sweep.chunk_task import prepare, run_chunk
from uwv_hydro.sweep.dask_runner import run_distributed, run_serial
from uwv_hydro.sweep.reductions import Reducer
from uwv_hydro.sweep.spec import load_spec

ROOT = pathlib.Path(__file__).resolve().parents[3]
REMUS = ROOT / 'config' / 'remus100.yaml'

SPEC = """\
vehicle: {vehicle}
runs: {runs}
seed: 11
chunk_size: {chunk}
vary:
  quadratic_drag: {{dist: uniform, low: -0.3, high: 0.3}}
  added_mass.yy: {{dist: normal, std: 0.2}}
  thrust_scale: {{dist: lognormal, sigma: 0.1}}
  current.x: {{dist: uniform, low: -0.2, high: 0.2, relative: false}}
scenario:
  duration: {duration}
  dt: 0.05
  thrust: [20, 0, 0, 0, 0, 0]
  fin_angles: [0.2, 0.2, 0, 0]
  current: [0, 0.05, 0]
  initial_position: [0, 0, -5]
"""


def _spec(tmp_path, runs=12, chunk=5, duration=4.0, name='spec.yaml'):
    path = tmp_path / name
    path.write_text(SPEC.format(vehicle=REMUS, runs=runs, chunk=chunk, duration=duration))
    return load_spec(path)


def _columns(out, plan):
    table = chunk_store.read_chunks(out, plan.spec_hash, plan.spec.chunks)
    return {n: table.column(n).to_numpy() for n in table.column_names}


# --- spec errors name the key ---------------------------------------------------------

@pytest.mark.parametrize('text, key, line', [
    ('runs: 4\nscenario: {duration: 1}\n', 'vehicle', None),
    ('vehicle: V\nruns: -3\nscenario: {duration: 1}\n', 'runs', 2),
    ('vehicle: V\nruns: 4\nscenario:\n  duration: 1\n  dtt: 0.1\n', 'scenario.dtt', 5),
    ('vehicle: V\nruns: 4\nscenario: {duration: 1}\nvary:\n  drag.xx: {dist: normal, '
     'std: 0.1}\n', 'vary.drag.xx', 5),
    ('vehicle: V\nruns: 4\nscenario: {duration: 1}\nvary:\n  added_mass.yy:\n'
     '    dist: gamma\n', 'vary.added_mass.yy.dist', 6),
    ('vehicle: V\nruns: 4\nscenario: {duration: 1}\nvary:\n  mass:\n    dist: uniform\n'
     '    low: 0.2\n    high: 0.1\n', 'vary.mass.high', 8),
    ('vehicle: V\nruns: 4\nscenario: {duration: 1}\nvary:\n  mass: {dist: lognormal, '
     'sigma: 0.1, relative: false}\n', 'vary.mass.relative', None),
    ('vehicle: V\nruns: 4\nscenario:\n  duration: 1\n  current: [0, 1]\n',
     'scenario.current', 5),
    ('vehicle: V\nruns: 4\nscenario: {duration: 1}\noutputs: [max_depth, speed]\n',
     'outputs', 4),
    # numbers whose work would overflow or exhaust memory (issue 51, item 3)
    ('vehicle: V\nruns: 1000000000000000\nscenario: {duration: 1}\n', 'runs', 2),
    ('vehicle: V\nruns: 4\nchunk_size: 1000000000000000\nscenario: {duration: 1}\n',
     'chunk_size', 3),
    ('vehicle: V\nruns: 4\nscenario:\n  duration: 1.0e+15\n', 'scenario.duration', 4),
    ('vehicle: V\nruns: 4\nscenario:\n  duration: 1\n  dt: 1.0e-300\n', 'scenario.dt',
     None),
    ('vehicle: V\nruns: 4\nscenario:\n  duration: 10000000.0\n  dt: 0.01\n', 'scenario.dt', None),
    ('vehicle: V\nruns: 4\nscenario:\n  duration: 1\n  substeps: 1000000000000000\n',
     'scenario.substeps', 5),
    ('vehicle: V\nruns: 4\nscenario:\n  duration: 1\n  thrust: [1.0e+308, 0, 0, 0, 0, 0]\n',
     'scenario.thrust', 5),
    ('vehicle: V\nruns: 4\nscenario:\n  duration: 1\n  current: [0, 1.0e+15, 0]\n',
     'scenario.current', 5),
])
def test_spec_errors_name_the_key(tmp_path, text, key, line):
    """Each bad spec is a DescriptionError naming the key (and its line when known)."""
    path = tmp_path / 'bad.yaml'
    path.write_text(text.replace('vehicle: V', 'vehicle: %s' % REMUS))
    with pytest.raises(DescriptionError) as err:
        load_spec(path)
    assert err.value.element == key, err.value
    assert 'must be a number' not in str(err.value), err.value  # YAML read a number
    assert err.value.source == str(path)
    if line is not None:
        assert err.value.line == line, err.value


def test_variation_the_vehicle_cannot_take_names_the_key(tmp_path):
    """A relative variation of a zero coefficient, or wrong fin count, names the key."""
    path = tmp_path / 'zero.yaml'
    path.write_text('vehicle: %s\nruns: 2\nscenario: {duration: 1}\nvary:\n'
                    '  linear_drag.xx: {dist: normal, std: 0.1}\n' % REMUS)
    with pytest.raises(DescriptionError) as err:
        prepare(load_spec(path))
    assert err.value.element == 'vary.linear_drag.xx'
    path.write_text('vehicle: %s\nruns: 2\nscenario: {duration: 1, fin_angles: [0.1]}\n'
                    % REMUS)
    with pytest.raises(DescriptionError) as err:
        prepare(load_spec(path))
    assert err.value.element == 'scenario.fin_angles'


def test_cli_bad_spec_exit_code_and_message(tmp_path, capsys):
    """The CLI turns a spec error into exit code 2 with the key in the message."""
    path = tmp_path / 'bad.yaml'
    path.write_text('vehicle: %s\nruns: 0\nscenario: {duration: 1}\n' % REMUS)
    assert main(['sweep', str(path), '--out', str(tmp_path / 'o'), '--serial']) == 2
    assert 'runs: must be > 0' in capsys.readouterr().err


# --- draws: a function of (seed, run index) -------------------------------------------

def test_draws_follow_the_documented_rule(tmp_path):
    """Run i's values: Generator(PCG64(SeedSequence([seed, i]))), variations in order."""
    spec = _spec(tmp_path, runs=40)
    params = load_vehicle(str(REMUS))
    got = draws.draw_runs(spec, params, 0, 40)
    yy = params.added_mass[1, 1]
    for i in range(40):
        rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([11, i])))
        expect = [1.0 + rng.uniform(-0.3, 0.3), yy * (1.0 + rng.normal(0.0, 0.2)),
                  np.exp(rng.normal(0.0, 0.1)), 0.0 + rng.uniform(-0.2, 0.2)]
        np.testing.assert_allclose(got[i], expect, rtol=1e-15, atol=1e-15)
    # any sub-range gives the same rows (chunking does not matter)
    np.testing.assert_array_equal(draws.draw_runs(spec, params, 17, 23), got[17:23])


def test_draw_distributions(tmp_path):
    """4000 draws: spread of each distribution within 5 standard errors of its parameter."""
    path = tmp_path / 'dist.yaml'
    path.write_text('vehicle: %s\nruns: 4000\nseed: 2\nscenario: {duration: 1}\nvary:\n'
                    '  mass: {dist: normal, std: 0.2}\n'
                    '  buoyancy_mass: {dist: uniform, low: -1, high: 1, relative: false}\n'
                    '  thrust_scale: {dist: lognormal, sigma: 0.3}\n' % REMUS)
    spec = load_spec(path)
    params = load_vehicle(str(REMUS))
    v = draws.draw_runs(spec, params, 0, 4000)
    n = v.shape[0]
    rel = v[:, 0] / params.mass - 1.0
    assert abs(rel.std(ddof=1) - 0.2) < 5 * 0.2 / np.sqrt(2 * (n - 1))
    off = v[:, 1] - params.buoyancy_mass
    assert off.min() >= -1.0 and off.max() < 1.0
    assert abs(off.mean()) < 5 * np.sqrt(1.0 / 3.0 / n)     # uniform(-1, 1): var 1/3
    logs = np.log(v[:, 2])
    assert abs(logs.std(ddof=1) - 0.3) < 5 * 0.3 / np.sqrt(2 * (n - 1))


# --- reductions against analytic tracks -----------------------------------------------

def test_reductions_on_a_circle():
    """A track on circles of radius 3 and 7 m at depths: diameters, depth, energy."""
    steps, dt = 400, 0.1
    radius = np.array([3.0, 7.0, 5.0])
    red = Reducer(3, steps, dt, target_depth=4.0)
    t = np.arange(steps + 1) * dt
    omega = np.array([0.3, 0.1, 0.0])   # third vehicle goes straight: no diameter

    def pos(k):
        ang = omega * t[k]
        x = np.where(omega > 0, radius * np.sin(ang), 0.5 * t[k])
        y = np.where(omega > 0, radius * (1.0 - np.cos(ang)), 0.0)
        z = np.array([-5.0, 0.2 * np.sin(t[k]), -3.0]) - 0.01 * t[k]
        return np.column_stack([x, y, z])

    tau = np.tile([10.0, 0.0, 0.0, 0.0, 0.0, 1.0], (3, 1))
    nu = np.tile([0.5, 0.0, 0.0, 0.0, 0.0, -0.2], (3, 1))   # P = 10 * 0.5 - 0.2 = 4.8 W
    red.start(pos(0))
    for k in range(1, steps + 1):
        red.step(k, nu, nu, tau, pos(k))
    out = red.outputs()
    np.testing.assert_allclose(out['turning_diameter'][:2], 2 * radius[:2], rtol=1e-9)
    assert np.isnan(out['turning_diameter'][2])
    z_end = pos(steps)[:, 2]
    np.testing.assert_allclose(out['final_z'], z_end, rtol=0, atol=1e-12)
    # max depth: vehicle 1 -5 - 0.01 t is deepest at the end; vehicle 2 crosses z > 0
    np.testing.assert_allclose(out['max_depth'][0], 5.0 + 0.01 * t[-1], rtol=1e-12)
    np.testing.assert_allclose(out['depth_overshoot'], out['max_depth'] - 4.0, rtol=1e-12)
    np.testing.assert_array_equal(out['broach'], [False, True, False])
    np.testing.assert_allclose(out['energy'], 4.8 * t[-1], rtol=1e-12)


# --- a chunk against Simulator, run by run --------------------------------------------

def test_chunk_matches_simulator_run_by_run(tmp_path):
    """Each run of a chunk = Simulator with the drawn params, thrust, current and fins."""
    spec = _spec(tmp_path, runs=6, chunk=6, duration=2.0)
    plan = prepare(spec)
    cols = run_chunk(plan, 0)
    base = load_vehicle(str(REMUS))
    yy = DSROS_LETTERS.index('y')
    for i in range(6):
        p = load_vehicle(str(REMUS))
        p.quadratic_drag = base.quadratic_drag * cols['quadratic_drag'][i]
        p.added_mass = base.added_mass.copy()
        p.added_mass[yy, yy] = cols['added_mass.yy'][i]
        sim = Simulator(p, dt=0.05, substeps=plan.substeps)
        sim.set_fin_angles(np.array([0.2, 0.2, 0.0, 0.0]))
        s = State(position=np.array([0.0, 0.0, -5.0]), quaternion=np.array([1.0, 0, 0, 0]),
                  twist=np.zeros(6))
        tau = np.array([20.0, 0, 0, 0, 0, 0]) * cols['thrust_scale'][i]
        current = np.array([cols['current.x'][i], 0.05, 0.0])
        energy = 0.0
        for _ in range(plan.steps):
            s1 = sim.step(s, tau, current_world=current)
            energy += abs(0.5 * (tau @ s.twist + tau @ s1.twist)) * 0.05
            s = s1
        final = np.array([cols['final_x'][i], cols['final_y'][i], cols['final_z'][i]])
        # same equations, same integrator: rounding-level agreement over 40 steps
        np.testing.assert_allclose(final, s.position, rtol=1e-10, atol=1e-10)
        np.testing.assert_allclose(cols['energy'][i], energy, rtol=1e-10)
    assert not cols['diverged'].any()


# --- dask: the same numbers, resumable, robust to a dead worker --------------------------

def test_two_workers_give_the_serial_numbers(tmp_path):
    """
    2 dask workers and other chunks give exactly the serial values.

    Bitwise: a run's draws come from (seed, run) only, BatchSimulator steps each vehicle
    in its own loop iteration of the compiled core, and every reduction is element-wise
    per run (no sum across runs, no BLAS), so the same float64 operations run on the same
    inputs in any chunk and on any worker of this machine: tolerance 0.
    """
    require('distributed')  # the sweep's local cluster
    require('pyarrow')  # its Parquet chunks
    from distributed import Client, LocalCluster
    serial_spec = _spec(tmp_path, runs=10, chunk=10, name='serial.yaml')
    serial = prepare(serial_spec)
    run_serial(serial, tmp_path / 'serial')
    plan = prepare(_spec(tmp_path, runs=10, chunk=3, name='dask.yaml'))
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        result = run_distributed(plan, tmp_path / 'dask', client)
    assert sorted(result.computed) == [0, 1, 2, 3] and result.skipped == []
    a, b = _columns(tmp_path / 'serial', serial), _columns(tmp_path / 'dask', plan)
    assert a.keys() == b.keys()
    for name in a:
        np.testing.assert_array_equal(a[name], b[name], err_msg=name)


def test_resume_skips_finished_chunks(tmp_path):
    """A re-run computes only the missing chunks and gives the same table."""
    require('distributed')  # the sweep's local cluster
    require('pyarrow')  # its Parquet chunks
    plan = prepare(_spec(tmp_path, runs=12, chunk=4, duration=1.0))
    out = tmp_path / 'out'
    computed = []
    first = run_serial(plan, out, on_chunk=lambda i, n: computed.append(i))
    assert computed == [0, 1, 2] and first.skipped == []
    before = _columns(out, plan)
    chunk_store.chunk_path(out, plan.spec_hash, 1).unlink()
    computed.clear()
    second = run_serial(plan, out, on_chunk=lambda i, n: computed.append(i))
    assert computed == [1] and second.skipped == [0, 2]
    computed.clear()
    assert run_serial(plan, out, on_chunk=lambda i, n: computed.append(i)).computed == []
    assert computed == []
    after = _columns(out, plan)
    for name in before:
        np.testing.assert_array_equal(before[name], after[name], err_msg=name)
    # another spec (other seed) does not reuse these chunks
    other = prepare(_spec(tmp_path, runs=12, chunk=4, duration=1.5, name='other.yaml'))
    assert other.spec_hash != plan.spec_hash
    assert chunk_store.finished(out, other.spec_hash, other.spec.chunks) == []


def test_killed_worker_chunk_is_recomputed(tmp_path):
    """SIGKILL a worker process running a chunk: it reruns, no run lost or counted twice."""
    require('distributed')  # the sweep's local cluster
    require('pyarrow')  # its Parquet chunks
    from distributed import Client, LocalCluster
    serial = prepare(_spec(tmp_path, runs=24, chunk=24, duration=6.0, name='serial.yaml'))
    run_serial(serial, tmp_path / 'serial')
    plan = prepare(_spec(tmp_path, runs=24, chunk=4, duration=6.0, name='dask.yaml'))
    killed = []
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        pids = client.run(os.getpid)

        def kill_one(index, n):
            if killed:
                return
            busy = {w: keys for w, keys in client.processing().items() if keys}
            if not busy:
                return
            worker, keys = sorted(busy.items())[0]
            killed.append((worker, list(keys)))
            os.kill(pids[worker], signal.SIGKILL)   # a worker process this test started

        result = run_distributed(plan, tmp_path / 'dask', client, on_chunk=kill_one)
    assert killed, 'no worker was busy when the first chunk finished'
    assert sorted(result.computed) == list(range(6))
    b = _columns(tmp_path / 'dask', plan)
    np.testing.assert_array_equal(b['run'], np.arange(24))    # each run once
    a = _columns(tmp_path / 'serial', serial)
    for name in a:
        np.testing.assert_array_equal(a[name], b[name], err_msg=name)


def test_cli_sweep_writes_results_summary_and_plot(tmp_path, capsys):
    """``uwv-hydro sweep --serial``: results.parquet, summary.json, histograms.png."""
    require('distributed')  # the sweep's local cluster
    require('pyarrow')  # its Parquet chunks
    import pyarrow.parquet as pq
    path = tmp_path / 'spec.yaml'
    path.write_text(textwrap.dedent(SPEC.format(vehicle=REMUS, runs=6, chunk=4,
                                                duration=1.0)))
    out = tmp_path / 'out'
    assert main(['sweep', str(path), '--out', str(out), '--serial', '--plot',
                 str(tmp_path / 'plots')]) == 0
    table = pq.read_table(out / 'results.parquet')
    assert table.num_rows == 6
    summary = json.loads((out / 'summary.json').read_text())
    by = {r['output']: r for r in summary['outputs']}
    depth = table.column('max_depth').to_numpy()
    np.testing.assert_allclose(by['max_depth']['mean'], depth.mean(), rtol=1e-12)
    assert by['broach']['kind'] == 'probability'
    assert (tmp_path / 'plots' / 'histograms.png').stat().st_size > 1000
    assert main(['sweep', str(path), '--out', str(out), '--serial']) == 0
    assert 'computed 0 chunks' in capsys.readouterr().out


def test_vehicle_with_sensors_and_thrusters(tmp_path):
    """BlueROV2 (sensors and thrusters, which are not dynamics) sweeps."""
    path = tmp_path / 'rov.yaml'
    path.write_text('vehicle: %s\nruns: 4\nscenario: {duration: 0.5, thrust: [10, 0, 0, 0, '
                    '0, 0]}\nvary:\n  thrust_scale: {dist: uniform, low: -0.1, high: 0.1}\n'
                    % (ROOT / 'config' / 'bluerov2.yaml'))
    plan = prepare(load_spec(path))
    cols = run_chunk(plan, 0)
    # more thrust, further forward (same vehicle, still water, straight run)
    order = np.argsort(cols['thrust_scale'])
    assert np.all(np.diff(cols['final_x'][order]) > 0.0)


def test_turning_diameter_matches_the_steady_turn_kinematics(tmp_path):
    """
    REMUS with rudders held: the fitted track diameter = 2 U / |course rate| of the track.

    150 s with no depth hold: the stable hull settles into a steady spiral within some
    30 s, so the fitted second half holds more than a whole turn.

    U (horizontal speed) and the course rate from the simulate mode's trajectory (the
    node's integrator, not the batch one), by finite differences, hence 2 %.
    """
    from uwv_hydro.modes.offline_simulation import simulate
    path = tmp_path / 'turn.yaml'
    path.write_text('vehicle: %s\nruns: 1\nscenario:\n  duration: 150\n  dt: 0.05\n'
                    '  thrust: [20, 0, 0, 0, 0, 0]\n  fin_angles: [0.15, 0.15, 0, 0]\n'
                    '  initial_position: [0, 0, -3]\n' % REMUS)
    cols = run_chunk(prepare(load_spec(path)), 0)
    traj = simulate(load_vehicle(str(REMUS)), 150.0, dt=0.05,
                    thrust=lambda t: np.array([20.0, 0, 0, 0, 0, 0]),
                    initial=State(position=np.array([0.0, 0.0, -3.0]),
                                  quaternion=np.array([1.0, 0, 0, 0]), twist=np.zeros(6)),
                    fin_angles=[0.15, 0.15, 0.0, 0.0])
    # the horizontal track's own kinematics over the fitted second half: speed over the
    # course angle's rate (the turn spirals down, so the body rates are not the track's)
    xy = traj.position[1500:, :2]
    velocity = np.gradient(xy, 0.05, axis=0)
    course_rate = np.gradient(np.unwrap(np.arctan2(velocity[:, 1], velocity[:, 0])), 0.05)
    kinematic = np.median(2.0 * np.hypot(velocity[:, 0], velocity[:, 1]) / np.abs(course_rate))
    np.testing.assert_allclose(cols['turning_diameter'][0], kinematic, rtol=0.02)


def test_cli_on_an_existing_scheduler_gives_the_serial_table(tmp_path, capsys):
    """``--scheduler ADDRESS`` (a running cluster's scheduler) = ``--serial``, bit for bit."""
    require('distributed')  # the sweep's local cluster
    require('pyarrow')  # its Parquet chunks
    import pyarrow.parquet as pq
    from distributed import LocalCluster
    path = tmp_path / 'spec.yaml'
    path.write_text(SPEC.format(vehicle=REMUS, runs=7, chunk=3, duration=1.0))
    assert main(['sweep', str(path), '--out', str(tmp_path / 'serial'), '--serial']) == 0
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                      dashboard_address=None) as cluster:
        assert main(['sweep', str(path), '--out', str(tmp_path / 'dask'), '--scheduler',
                     cluster.scheduler_address]) == 0
    assert 'on 2 dask worker threads' in capsys.readouterr().out
    a = pq.read_table(tmp_path / 'serial' / 'results.parquet')
    b = pq.read_table(tmp_path / 'dask' / 'results.parquet')
    assert a.schema == b.schema
    for name in a.column_names:   # NaN turning diameters (1 s: no turn) compare equal
        np.testing.assert_array_equal(a.column(name).to_numpy(), b.column(name).to_numpy(),
                                      err_msg=name)


def test_nonphysical_draws_are_refused_by_name(tmp_path, capsys):
    """A drag draw below zero is not simulated; it is named, counted and left out."""
    require('distributed')  # the sweep's local cluster
    require('pyarrow')  # its Parquet chunks
    path = tmp_path / 'wide.yaml'
    path.write_text('vehicle: %s\nruns: 40\nseed: 1\nscenario: {duration: 0.5}\nvary:\n'
                    '  quadratic_drag.xxx: {dist: normal, std: 1.0}\n' % REMUS)
    plan = prepare(load_spec(path))
    cols = run_chunk(plan, 0)
    negative = cols['quadratic_drag.xxx'] < 0.0     # P(1 + N(0, 1) < 0) = 16 %
    assert negative.any() and not negative.all()
    refused = np.array([bool(r) for r in cols['refused']])
    np.testing.assert_array_equal(refused, negative)
    assert all('quadratic_drag.xxx' in r for r in np.asarray(cols['refused'])[refused])
    assert np.all(np.isnan(cols['max_depth'][refused]))
    assert np.all(np.isfinite(cols['max_depth'][~refused]))
    assert main(['sweep', str(path), '--out', str(tmp_path / 'o'), '--serial']) == 0
    out = capsys.readouterr().out
    assert '%d runs not simulated' % refused.sum() in out
    summary = json.loads((tmp_path / 'o' / 'summary.json').read_text())
    assert summary['refused'] == refused.sum() and summary['simulated'] == 40 - refused.sum()


def test_summary_counts_nan_apart_and_gives_the_wilson_interval():
    """Summary: NaN left out and counted; p = 0 of n: Wilson upper bound z^2 / (n + z^2)."""
    from uwv_hydro.sweep.summary import summarise, text
    values = np.array([1.0, 2.0, np.nan, 3.0, 4.0])
    rows = summarise({'d': values, 'b': np.zeros(20, dtype=bool)}, ['d', 'b'])
    d, b = rows
    assert d['n'] == 4 and d['nan'] == 1
    assert d['mean'] == pytest.approx(2.5, rel=1e-12)
    assert d['std'] == pytest.approx(np.sqrt(5.0 / 3.0), rel=1e-12)   # sample std of 1..4
    assert d['p50'] == pytest.approx(2.5, rel=1e-12)
    z2 = 1.959963984540054 ** 2
    assert b['mean'] == 0.0
    assert b['ci95'][0] == pytest.approx(0.0, abs=1e-15)
    assert b['ci95'][1] == pytest.approx(z2 / (20 + z2), rel=1e-12)
    assert '(1 NaN)' in text(rows)[1]


# --- manoeuvre scenarios: each run flies `uwv-hydro manoeuvre` ------------------------

MANOEUVRE_SPEC = """\
vehicle: {vehicle}
runs: 3
seed: {seed}
chunk_size: {chunk}
vary:
  {vary}
scenario: {{manoeuvre: turn, rudder: 12, speed: 1.5, depth: 4}}
"""


def _manoeuvre_spec(tmp_path, vary, chunk=1, seed=3, name='turn.yaml'):
    path = tmp_path / name
    path.write_text(MANOEUVRE_SPEC.format(vehicle=REMUS, vary=vary, chunk=chunk, seed=seed))
    return path


def test_manoeuvre_sweep_run_equals_the_manoeuvre_command(tmp_path, capsys):
    """A run without variation gives the figures of ``uwv-hydro manoeuvre`` (1e-9)."""
    require('distributed')  # the sweep's local cluster
    require('pyarrow')  # its Parquet chunks
    import pyarrow.parquet as pq
    path = _manoeuvre_spec(tmp_path, 'added_mass.yy: {dist: normal, std: 0.0}', chunk=2)
    out = tmp_path / 'out'
    assert main(['sweep', str(path), '--out', str(out), '--serial']) == 0
    capsys.readouterr()
    assert main(['manoeuvre', str(REMUS), 'turn', '--rudder', '12', '--speed', '1.5',
                 '--depth', '4', '--json']) == 0
    figures = json.loads(capsys.readouterr().out)['figures']
    table = pq.read_table(out / 'results.parquet')
    assert table.num_rows == 3
    assert list(table.column('refused').to_pylist()) == ['', '', '']
    for name, value in figures.items():
        np.testing.assert_allclose(table.column(name).to_numpy(), value, rtol=1e-9,
                                   atol=1e-9, err_msg=name)
    # the stern planes hold the depth: the turn stays within a metre of it
    deviation = table.column('depth_deviation_m').to_numpy()
    assert np.all((deviation >= 0.0) & (deviation < 1.0))


def test_manoeuvre_sweep_resumes_without_recomputing(tmp_path):
    """A re-run flies only the missing chunk; drawn added mass spreads the diameter."""
    require('distributed')  # the sweep's local cluster
    require('pyarrow')  # its Parquet chunks
    spec = load_spec(_manoeuvre_spec(tmp_path, 'added_mass.yy: {dist: normal, std: 0.1}'))
    assert spec.output_columns()[:3] == ['advance_m', 'transfer_m', 'tactical_diameter_m']
    plan = prepare(spec)
    out = tmp_path / 'out'
    computed = []
    run_serial(plan, out, on_chunk=lambda i, n: computed.append(i))
    assert computed == [0, 1, 2]
    before = _columns(out, plan)
    chunk_store.chunk_path(out, plan.spec_hash, 2).unlink()
    computed.clear()
    second = run_serial(plan, out, on_chunk=lambda i, n: computed.append(i))
    assert computed == [2] and second.skipped == [0, 1]
    after = _columns(out, plan)
    for name in before:
        np.testing.assert_array_equal(before[name], after[name], err_msg=name)
    diameter = after['tactical_diameter_m']
    assert np.all(np.isfinite(diameter)) and np.ptp(diameter) > 0.01
    # a larger sway added mass -Y_vdot grows the destabilising Munk moment
    # (Y_vdot - X_udot) u v (Fossen 2021, Coriolis of the added mass): a tighter circle
    order = np.argsort(after['added_mass.yy'])
    assert np.all(np.diff(diameter[order]) < 0.0)


def test_refused_manoeuvre_is_counted_as_failed(tmp_path, capsys):
    """A draw whose propeller cannot hold the speed is refused by name, not a crash."""
    require('distributed')  # the sweep's local cluster
    require('pyarrow')  # its Parquet chunks
    # drag up to x41: beyond about x18 the propeller at its 1525 rpm limit cannot hold
    # 1.5 m/s (K_T(J) of the description: some 74 N against 18 x 4.05 N)
    path = _manoeuvre_spec(tmp_path, 'quadratic_drag: {dist: uniform, low: 0, high: 40}',
                           chunk=3, seed=5)
    plan = prepare(load_spec(path))
    cols = run_chunk(plan, 0)
    refused = np.array([bool(r) for r in cols['refused']])
    assert refused.any() and not refused.all(), cols['quadratic_drag']
    factor = cols['quadratic_drag']
    assert factor[refused].min() > factor[~refused].max()   # the draggier runs fail
    assert all('do not hold 1.5 m/s' in r for r in np.asarray(cols['refused'])[refused])
    assert np.all(np.isnan(cols['tactical_diameter_m'][refused]))
    assert np.all(np.isfinite(cols['tactical_diameter_m'][~refused]))
    assert main(['sweep', str(path), '--out', str(tmp_path / 'o'), '--serial']) == 0
    assert '%d runs not simulated' % refused.sum() in capsys.readouterr().out
    summary = json.loads((tmp_path / 'o' / 'summary.json').read_text())
    assert summary['refused'] == refused.sum() and summary['simulated'] == 3 - refused.sum()


@pytest.mark.parametrize('scenario, key', [
    ('{manoeuvre: circle}', 'scenario.manoeuvre'),
    ('{manoeuvre: turn, duration: 10}', 'scenario.duration'),
    ('{manoeuvre: spiral}', 'scenario.angles'),
    ('{manoeuvre: turn, rudder: 30}', 'scenario.rudder'),
])
def test_manoeuvre_spec_errors_name_the_key(tmp_path, scenario, key):
    """A bad manoeuvre scenario (or a rudder beyond the fins' limit) names its key."""
    path = tmp_path / 'bad.yaml'
    path.write_text('vehicle: %s\nruns: 2\nscenario: %s\n' % (REMUS, scenario))
    with pytest.raises(DescriptionError) as err:
        prepare(load_spec(path))
    assert err.value.element == key, err.value
    path.write_text('vehicle: %s\nruns: 2\nscenario: {manoeuvre: turn}\nvary:\n'
                    '  current.x: {dist: normal, std: 0.1, relative: false}\n' % REMUS)
    with pytest.raises(DescriptionError) as err:
        load_spec(path)
    assert err.value.element == 'vary.current.x'
