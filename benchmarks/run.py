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
Benchmarks for ``make bench``: one JSON object per line, then a human table.

Figures (medians and p99 in microseconds unless named otherwise):

* wrench_eval_us           one full HydroModel.wrench (dense L, Q, M_A, offsets, current)
* naive_wrench_eval_us     the naive numpy reference (benchmarks/naive_reference.py)
* link_wrench_eval_us      a joint state and one LinkWrenchMode.evaluate of a vehicle with 10
                           links carrying hydro (9 joints, lagged added mass, current);
                           rigid_wrench_mode_eval_us: WrenchMode.evaluate of the rigid
                           vehicle in the same run; link_vs_rigid_wrench_ratio: their
                           medians; link_wrench_1khz_share: the link mode's p99 / 1 ms
* rk4_step_us              one Simulator.step (4 evaluations, implicit added mass, quaternion);
                           naive_rk4_step_us: RK4 of the naive numpy reference
                           (naive_reference.naive_rk4_step) on the same vehicle and state;
                           rk4_vs_naive_ratio: how many times faster the core is
* surface_vs_deep_step_ratio  one step in the surface band / one deep (interleaved)
* simulate_cli_vs_naive_ratio  ``uwv-hydro simulate`` of 1 h at 100 Hz (a separate
                           process; the simulation time it reports) against the naive RK4
                           of the same vehicle (median step time x the steps), per vehicle
                           (config/bluerov2.yaml, config/remus100.yaml with its fins);
                           simulate_cli_wall_vs_naive_ratio: the same with the whole
                           command's wall time (start-up, CSV writing included);
                           simulate_cli_mcap_wall_vs_naive_ratio: the whole command
                           writing --out x.mcap (--no-sensors) instead of the CSV
* core_start_ms            a fresh process: import the core, build SimulateMode (REMUS),
                           first step: what the compiled core adds before a first output
* simulate_rtf             offline simulation of 1 h at 100 Hz, simulated s per wall s
* replay_rtf               replay of a 1 h, 100 Hz odometry bag (wrench mode, all outputs)
* replay_simulate_rtf      replay --simulate of a 1 h, 100 Hz odometry + thrust bag;
                           replay_simulate_jitter_rtf: the same bag with +-0.2 ms stamp
                           jitter (almost every step a different length);
                           replay_simulate_jitter_ratio: wall time with / without jitter
* batch_step_us_per_vehicle  N = 1000 vehicles (5 parameter sets) stepped together
                           (BatchSimulator), median over the steps; batch_sweep_...: the
                           same with 1000 different parameter sets (a parameter sweep)
* sweep_vehicle_steps_per_s_per_core  a 10 000-run ``uwv-hydro sweep`` on a LocalCluster of
                           2 worker processes, against the same chunk task in this process
                           (sweep_per_core_ratio) and BatchSimulator.step alone; the set-up
                           per distinct parameter set; a 100-node estimate (see bench_sweep)
* node_rate_hz, node_period_jitter_p99_ms, thrust_to_odometry_latency_p99_ms
                           the node in simulate mode at 1 kHz for 10 s, measured over DDS
                           by a separate process subscribing to odometry and /tf
                           (benchmarks/node_probe.py); node_cycle_cpu_p50_us / _p99_us:
                           the update cycle's CPU time from the node's /diagnostics
* floor_*                  the same probe on benchmarks/floor_node.py, a minimal rclpy
                           node that only publishes odometry and /tf at 1 kHz from a
                           paced thread: what Python rclpy on both ends costs by itself
                           (the floor under the node figures), measured in the same run
* node_*_over_floor_ms     node p99 minus floor p99 (jitter, latency), at the middleware's
                           reception time and (``_at_callback``) when the probe's Python
                           callback ran
* paired_*                 node and floor measured side by side at the same time (two
                           probes, two domains): a load change on the machine hits both
* executor_*               ``--only node_executors``: the node at 1 kHz on each executor
                           path this rclpy has (events, single_threaded) after the floor in
                           the same run: jitter and latency p99 as ratios to the floor's
                           (benchmarks/node_executors.py; ``--runs``)
* node_rexrov_*            ``--only node_rexrov``: the rigid RexROV at 1 kHz beside the floor
* sitl_json_*              the node as ArduPilot's JSON SITL backend (BlueROV2, Heavy): frames
                           per second in lock step from a client sending as ArduPilot does
                           (benchmarks/sitl_json_probe.py), the reply latency p50 / p99,
                           and the same client against a minimal UDP echo (the floor) in the
                           same run; per run, then medians and ranges over ``--runs``, and
                           the ArduPilot --speedup that rate allows at 1200 frames/s
* seabed_sensors_*         ``--only seabed_sensors``: the BlueROV2 at 100 Hz in simulate
                           mode without a seabed, and over a grid seabed with its contact,
                           a 4-beam DVL at 10 Hz, an echosounder at 50 Hz
                           (benchmarks/seabed_sensors.py, its CONFIGURATIONS): the
                           node process's CPU per step, each over the base's of the same
                           run (issue 50: <= 1.1); per run, medians and ranges over --runs
* articulated_step_*       ``--only articulated``: one step of the articulated simulate
                           mode of RexROV + Oberon7 (benchmarks/articulated_bench.py; the
                           peers' xacros with UWV_UUV_ROOT, else the corpus's), compiled
                           against its Pinocchio path in the same run, at dt 0.01 and
                           0.001 s: per run, then medians and ranges over ``--runs``
* node_uvms_*              ``--only node_uvms``: the node at 1 kHz in simulate mode on
                           RexROV + Oberon7, on the rigid RexROV and the floor, run after
                           run: cycle CPU p50 / p99, jitter p99 and its excess over the
                           floor's of the same run
* profile_*                ``--only node_profile``: where the node's p99 comes from (issue
                           34; doc/guide/node_timing.md).  For each of ``--runs`` runs and
                           each of ``--rates``, the node with ``cycle_profile`` on, then the
                           floor at the same rate; per run and rate the jitter p99 of both,
                           node minus floor, and the node's per-stage table (p50 / p99 /
                           max of every cycle stage, late wakes by section).  A summary
                           counts the quiet runs within floor + 0.3 ms per rate
* runs_*                   ``--only node_runs``: the same runs with the profile off (what
                           users run), with the latency over the floor and the rate in
                           the first second; per rate the medians and ranges, and the
                           quiet runs within floor + 0.3 ms jitter and + 0.5 ms latency
* tether_*                 ``--only tether``: one simulate-mode step of the tethered
                           BlueROV2 (MoorDyn, 30 m in 20 segments) and without the
                           tether, same run (benchmarks/tether_bench.py): the ratio
* links_*                  ``--only node_links``: the node on the 10-link vehicle of
                           link_wrench (a YAML vehicle_file) and on the rigid vehicle of the
                           same numbers, in the same run (benchmarks/node_links_probe.py):
                           links_wrench_*: wrench mode at 1 kHz fed with odometry and
                           joint_states at 1 kHz (links_wrench_listened_*: the 10-link
                           vehicle with every link topic subscribed: the update's CPU;
                           links_wrench_unfed_*: fed no joint_states);
                           links_simulate_<rate>hz_*: simulate mode at 1 kHz, or down
                           LINK_SIMULATE_RATES to the highest rate that fits
                           (links_simulate_highest_fitting_hz).  Per vehicle the
                           cycle CPU and wall p50/p99 of /diagnostics, overruns, the
                           achieved rate (wrench mode: the node process's CPU per
                           odometry message too: the evaluation runs in the odometry
                           callback, not in the cycle); the links / rigid ratios and
                           ..._budget_share: the links' p99 wall time / the period

Timing figures need a quiet machine (1-minute load average < ``QUIET_LOAD``).  Before
every node or floor run the load average is read and printed (waiting up to
``--settle`` seconds for it to fall: the previous run's own processes raise it); a run
started at a higher load is marked ``quiet: false``, its targets are not judged
('not quiet' in the table) and the output says 'machine not quiet: figures decide
nothing'.

``--quick`` shortens every run (for a smoke test); the figures are then noisier.
``--only core`` runs the figures of the compiled core (rk4 surface simulate simulate_cli
batch core_start).
"""

import argparse
import json
import os
import pathlib
import re
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import articulated_bench  # noqa: E402, I100
from host import host_line  # noqa: E402
from naive_reference import full_vehicle, naive_rk4_step, naive_wrench  # noqa: E402
import node_executors  # noqa: E402
import node_rexrov  # noqa: E402
import numpy as np  # noqa: E402
import seabed_sensors  # noqa: E402
import sitl_json_probe  # noqa: E402
import tether_bench  # noqa: E402

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

#: The figures of the compiled core (``--only core``); those not in the default run.
CORE_BENCHMARKS = ('rk4', 'surface', 'simulate', 'simulate_cli', 'batch', 'core_start')
NOT_DEFAULT = ('node_profile', 'node_runs', 'node_links', 'node_rexrov', 'node_executors',
               'articulated',
               'node_uvms', 'seabed_sensors', 'tether')


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


def quiet_check(label, settle_s=None):
    """
    Print the load average before a timed run; return (1-minute load, quiet).

    Waits up to ``settle_s`` seconds (default: ``SETTLE_S``, the --settle option) for
    the 1-minute load average to fall below QUIET_LOAD; a previous run's own node and
    probe raise it for a minute or so.
    """
    settle_s = SETTLE_S if settle_s is None else settle_s
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


def bench_wrench(results, n):
    """Time HydroModel.wrench against the naive reference on the same states."""
    from uwv_hydro.physics.hydro_model import HydroModel
    params = full_vehicle()
    model = HydroModel(params)
    nu = np.array([1.2, -0.2, 0.1, 0.05, -0.03, 0.2])
    pos = np.array([1.0, 2.0, -0.1])  # in the surface transition
    q = np.array([0.98, 0.05, -0.1, 0.15])
    q /= np.linalg.norm(q)
    nu_dot = np.array([0.1, 0.0, -0.05, 0.01, 0.0, 0.02])
    cur = np.array([0.3, -0.1, 0.0])
    fast = time_calls(lambda: model.wrench(nu, pos, q, nu_dot, cur), n)
    naive = time_calls(lambda: naive_wrench(params, nu, pos, q, nu_dot, cur), n)
    got = model.wrench(nu, pos, q, nu_dot, cur).total
    want = sum(naive_wrench(params, nu, pos, q, nu_dot, cur).values())
    assert np.allclose(got, want, rtol=1e-10, atol=1e-9), 'core and reference disagree'
    emit(results, 'wrench_eval_us', float(np.median(fast)), 'us',
         p99=float(np.percentile(fast, 99)), calls=n)
    emit(results, 'naive_wrench_eval_us', float(np.median(naive)), 'us',
         p99=float(np.percentile(naive, 99)), calls=n)
    emit(results, 'wrench_vs_naive_ratio', float(np.median(fast) / np.median(naive)), 'x')


def ten_link_vehicle(seed=11):
    """
    Return full_vehicle() with a kinematic tree of 10 links that carry hydro.

    The base (its hull: full_vehicle's dense drag and added mass) with four fins on
    revolute joints and a five-joint arm (revolute, prismatic, revolute...), every link
    with buoyancy, dense linear drag, quadratic drag, a dense added mass and drag points
    of its own.
    """
    from uwv_hydro.physics.link_tree import KinematicTree, LinkHydroPart, TreeBody, TreeJoint
    params = full_vehicle()
    rng = np.random.default_rng(seed)

    def part(link, scale):
        a = rng.normal(size=(6, 6))
        quad = rng.uniform(0.0, 0.2, size=(6, 6, 6)) * scale
        for i in range(6):
            quad[i, i, i] += 4.0 * scale
        return LinkHydroPart(link, buoyancy_mass=scale, cob=rng.normal(size=3) * 0.05,
                             added_mass=(a @ a.T + 6 * np.eye(6)) * scale,
                             linear_drag=(rng.uniform(0.1, 1.0, (6, 6)) + 5 * np.eye(6)) * scale,
                             quadratic_drag=quad, drag_velocity_point=rng.normal(size=3) * 0.05,
                             drag_center=rng.normal(size=3) * 0.05)

    hull = LinkHydroPart('base_link', buoyancy_mass=params.buoyancy_mass, cob=params.cob,
                         added_mass=params.added_mass, linear_drag=params.linear_drag,
                         quadratic_drag=params.quadratic_drag)
    bodies = {'base_link': TreeBody('base_link', mass=params.mass, com=params.com,
                                    inertia=params.inertia, parts=[hull],
                                    links={'base_link': (np.zeros(3), np.eye(3))})}
    joints = []

    def add(name, parent, kind, origin, axis, scale):
        bodies[name] = TreeBody(name, mass=2.0 * scale, com=np.array([0.05, 0.0, 0.0]),
                                inertia=np.eye(3) * 0.01 * scale, parts=[part(name, scale)],
                                links={name: (np.zeros(3), np.eye(3))})
        joints.append(TreeJoint(name + '_joint', kind, parent, name,
                                origin_position=np.array(origin, float),
                                axis=np.array(axis, float)))

    for k, (y, z, axis) in enumerate([(0.3, 0, (0, 1, 0)), (-0.3, 0, (0, 1, 0)),
                                      (0, 0.3, (0, 0, 1)), (0, -0.3, (0, 0, 1))]):
        add('fin_%d' % k, 'base_link', 'revolute', (-0.8, y, z), axis, 0.2)
    parent = 'base_link'
    for k, kind in enumerate(['revolute', 'revolute', 'prismatic', 'revolute', 'revolute']):
        add('arm_%d' % k, parent, kind, (0.5 if k == 0 else 0.25, 0.0, -0.2 if k == 0 else 0.0),
            (0, 0, 1) if k % 2 == 0 else (0, 1, 0), 0.5)
        parent = 'arm_%d' % k
    params.tree = KinematicTree('base_link', bodies, joints)
    return params


def bench_link_wrench(results, n):
    """
    Time one LinkWrenchMode.evaluate of a 10-link vehicle against WrenchMode's rigid one.

    Both with lagged added mass (the link mode's second-order kinematics) and a current,
    on a changing state; the joints move.  The 1 kHz share is the link mode's p99 over
    the 1 ms cycle.
    """
    from uwv_hydro.modes.link_wrench_mode import LinkWrenchMode
    from uwv_hydro.modes.wrench_mode import WrenchMode
    tree = ten_link_vehicle()
    links = LinkWrenchMode(tree, 'lagged', apply_weight=True)
    rigid = WrenchMode(full_vehicle(), 'lagged', apply_weight=True)
    assert len(links.parts.links) == 10
    pos = np.array([1.0, 2.0, -10.0])
    q = np.array([0.98, 0.05, -0.1, 0.15])
    q /= np.linalg.norm(q)
    cur = np.array([0.3, -0.1, 0.0])
    joints = links.joint_names
    clock = [0.0]

    def state():
        clock[0] += 1e-3
        t = clock[0]
        return t, np.array([1.2, -0.2, 0.1, 0.05, -0.03, 0.2]) * (1.0 + 0.1 * np.sin(t))

    def link_step():
        t, nu = state()
        links.joint_state(joints, 0.3 * np.sin(t + np.arange(len(joints))),
                          0.3 * np.cos(t + np.arange(len(joints))))
        links.evaluate(t, pos, q, nu, cur)

    def rigid_step():
        t, nu = state()
        rigid.evaluate(t, pos, q, nu, cur)

    rigid_us = time_calls(rigid_step, n)
    link_us = time_calls(link_step, n)
    emit(results, 'rigid_wrench_mode_eval_us', float(np.median(rigid_us)), 'us',
         p99=float(np.percentile(rigid_us, 99)), calls=n)
    emit(results, 'link_wrench_eval_us', float(np.median(link_us)), 'us',
         p99=float(np.percentile(link_us, 99)), calls=n, links=10, joints=len(joints))
    emit(results, 'link_vs_rigid_wrench_ratio', float(np.median(link_us) / np.median(rigid_us)),
         'x')
    emit(results, 'link_wrench_1khz_share', float(np.percentile(link_us, 99)) / 1000.0, 'x')


def bench_rk4(results, n):
    """Time one full simulate step of the dense vehicle."""
    from uwv_hydro.physics.dynamics import Simulator, State
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
    from uwv_hydro.physics.dynamics import Simulator
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


def bench_replay(results, seconds):
    """Replay real-time factor on a synthetic 100 Hz odometry bag."""
    from uwv_hydro.bag.trajectory_bag import write_bag
    from uwv_hydro.modes.offline_simulation import simulate
    from uwv_hydro.bag.replay import replay_wrench
    from uwv_hydro.modes.thrust_profile import ThrustProfile
    params = full_vehicle()
    traj = simulate(params, seconds, dt=0.01,
                    thrust=ThrustProfile.constant([40, 0, 0, 0, 0, 1]))
    with tempfile.TemporaryDirectory() as tmp:
        bag = pathlib.Path(tmp) / 'in'
        write_bag(traj, bag)
        for name, components in (('replay_rtf', False), ('replay_components_rtf', True)):
            t0 = time.perf_counter()
            res = replay_wrench(bag, params, out_bag=pathlib.Path(tmp) / name,
                                added_mass='lagged', progress=False, components=components)
            wall = time.perf_counter() - t0
            emit(results, name, seconds / wall, 'x', simulated_s=seconds, wall_s=wall,
                 messages=len(res.stamps_ns), outputs_per_message=8 if components else 2)


def bench_replay_simulate(results, seconds, jitter_s=2e-4):
    """Time replay --simulate on a 100 Hz bag with and without stamp jitter, same run."""
    from uwv_hydro.bag.replay_simulation import replay_simulate
    from uwv_hydro.bag.trajectory_bag import write_bag
    from uwv_hydro.modes.offline_simulation import simulate, Trajectory
    from uwv_hydro.modes.thrust_profile import ThrustProfile
    params = full_vehicle()
    profile = ThrustProfile([0.0, 600.0, 1800.0], np.array(
        [[60, 0, 0, 0, 0, 1], [30, 5, 0, 0, 0, -1], [0, 0, 0, 0, 0, 0]], float))
    traj = simulate(params, seconds, dt=0.01, thrust=profile)
    rng = np.random.default_rng(0)
    jittered = traj.t + np.concatenate([[0.0], rng.uniform(-jitter_s, jitter_s,
                                                           len(traj.t) - 1)])
    walls = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, t in (('replay_simulate_rtf', traj.t),
                        ('replay_simulate_jitter_rtf', jittered)):
            bag = pathlib.Path(tmp) / name
            write_bag(Trajectory(t, traj.position, traj.quaternion, traj.twist), bag,
                      thrust=profile)
            t0 = time.perf_counter()
            res = replay_simulate(bag, params, out_bag=pathlib.Path(tmp) / (name + '_out'),
                                  thrust_topics=['/thrust'], progress=False,
                                  keep_trajectories=False)
            walls[name] = wall = time.perf_counter() - t0
            steps = np.diff(np.round(t * 1e9).astype(np.int64))
            emit(results, name, seconds / wall, 'x', simulated_s=seconds, wall_s=wall,
                 samples=res.samples, distinct_steps=int(np.unique(steps).size))
    emit(results, 'replay_simulate_jitter_ratio',
         walls['replay_simulate_jitter_rtf'] / walls['replay_simulate_rtf'], 'x',
         jitter_ms=jitter_s * 1e3)


def bench_batch(results, n_vehicles, steps, distinct=5, name='batch_step_us_per_vehicle'):
    """Step N vehicles (``distinct`` parameter sets) together through the batch simulator."""
    from uwv_hydro.physics.batch import BatchSimulator
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


SWEEP_SPEC = """\
vehicle: {vehicle}
runs: {runs}
seed: 1
chunk_size: {chunk}
vary:
  thrust_scale: {{dist: lognormal, sigma: 0.2}}
  current.x: {{dist: uniform, low: -0.3, high: 0.3, relative: false}}
  current.y: {{dist: uniform, low: -0.3, high: 0.3, relative: false}}
scenario:
  duration: {duration}
  dt: 0.05
  thrust: [20, 0, 0, 0, 0, 0]
  fin_angles: [0.15, 0.15, 0, 0]
  initial_position: [0, 0, -5]
"""


def bench_sweep(results, runs, duration, workers=2, chunk=1000):
    """
    ``uwv-hydro sweep``'s runner: ``runs`` REMUS runs on a LocalCluster of ``workers``.

    sweep_vehicle_steps_per_s_per_core: vehicle-steps / wall / workers, from the first
    submit to the last chunk written (cluster start-up apart); sweep_single_...: the same
    chunk task (BatchSimulator + reductions) run in this process; sweep_per_core_ratio:
    the two; batch_only_...: BatchSimulator.step alone on the same chunk.  The runs vary
    the thrust scale and the current (one parameter set, so the figure is the stepping);
    sweep_setup_ms_per_parameter_set: what each distinct coefficient draw adds (one
    Simulator built per set).  sweep_100_nodes_1e5_hour_runs_h: 10^5 runs of 1 h at
    dt 0.05 on 100 nodes of 32 cores at the per-core rate measured on the cluster (its
    overheads included), plus the set-up of 10^5 distinct parameter sets.
    """
    import dataclasses

    from uwv_hydro.physics.batch import BatchSimulator
    from uwv_hydro.physics.dynamics import Simulator
    from uwv_hydro.sweep import draws
    from uwv_hydro.sweep.chunk_task import prepare, run_chunk
    from uwv_hydro.sweep.cluster import open_client
    from uwv_hydro.sweep.dask_runner import run_distributed
    from uwv_hydro.sweep.spec import load_spec
    vehicle = HERE.parent / 'config' / 'remus100.yaml'
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / 'spec.yaml'
        path.write_text(SWEEP_SPEC.format(vehicle=vehicle, runs=runs, chunk=chunk,
                                          duration=duration))
        plan = prepare(load_spec(path))
        steps = plan.steps
        # single process: the chunk task, then BatchSimulator.step alone (same vehicles)
        t0, c0 = time.perf_counter(), time.process_time()
        run_chunk(plan, 0)
        single, single_cpu = time.perf_counter() - t0, time.process_time() - c0
        n = plan.spec.chunk_range(0)[1]
        runs0 = [draws.apply(plan.spec, plan.params, row)
                 for row in draws.draw_runs(plan.spec, plan.params, 0, n)]
        bsim = BatchSimulator([r[0] for r in runs0], dt=0.05, substeps=plan.substeps)
        state = bsim.initial_state(position=[0.0, 0.0, -5.0])
        tau = np.array([r[1] for r in runs0])[:, None] * plan.taus[0][None, :]
        cur = np.array([r[2] for r in runs0])
        fins = np.array([0.15, 0.15, 0.0, 0.0])
        t0 = time.perf_counter()
        for _ in range(steps):
            state = bsim.step(state, tau, current_world=cur, fin_angles=fins)
        batch_only = time.perf_counter() - t0
        t0 = time.perf_counter()
        # the cluster ``uwv-hydro sweep --workers`` starts
        client, cluster = open_client(workers)
        try:
            client.run(lambda: __import__('uwv_hydro.sweep.chunk_task'))
            start_s = time.perf_counter() - t0
            cpu0 = client.run(time.process_time)
            t0 = time.perf_counter()
            done = run_distributed(plan, pathlib.Path(tmp) / 'out', client)
            wall = time.perf_counter() - t0
            cpu1 = client.run(time.process_time)
            cpu = sum(cpu1[w] - cpu0[w] for w in cpu0)
        finally:
            client.close()
            cluster.close()
        assert len(done.computed) == plan.spec.chunks
        # setup of distinct parameter sets (a coefficient sweep builds one Simulator each)
        sets = 20
        t0 = time.perf_counter()
        for k in range(sets):
            p = plan.params
            Simulator(dataclasses.replace(p, mass=p.mass * (1.0 + 1e-3 * k)), dt=0.05)
        setup_ms = (time.perf_counter() - t0) / sets * 1e3
    total = runs * steps
    per_core = total / wall / workers
    single_rate = n * steps / single
    emit(results, 'sweep_vehicle_steps_per_s_per_core', per_core, '1/s', runs=runs,
         steps=steps, workers=workers, chunk=chunk, wall_s=wall, cluster_start_s=start_s)
    emit(results, 'sweep_single_vehicle_steps_per_s', single_rate, '1/s', vehicles=n)
    emit(results, 'batch_only_vehicle_steps_per_s', n * steps / batch_only, '1/s',
         us_per_vehicle_step=batch_only / (n * steps) * 1e6)
    emit(results, 'sweep_per_core_ratio', per_core / single_rate, '')
    # per CPU second (the workers' and this process's own CPU time): what dask adds,
    # without the other load of a shared machine
    cpu_ratio = (total / cpu) / (n * steps / single_cpu)
    emit(results, 'sweep_per_cpu_second_ratio', cpu_ratio, '', worker_cpu_s=cpu,
         single_cpu_s=single_cpu)
    emit(results, 'sweep_setup_ms_per_parameter_set', setup_ms, 'ms')
    cores = 100 * 32
    hour_steps = 1e5 * 3600.0 / 0.05
    # the per-core rate is the cluster's own (its overheads included); every core busy
    # needs chunks of at most 10^5 / 3200 = 31 runs
    hours = (hour_steps / (per_core * cores) + 1e5 * setup_ms * 1e-3 / cores) / 3600.0
    emit(results, 'sweep_100_nodes_1e5_hour_runs_h', hours, 'h', cores=cores, dt=0.05,
         assumptions='the per-core rate measured here on every core, 32 cores per node, '
                     'chunks of 31 runs, 10^5 distinct parameter sets, no network limit')


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


def bench_node(results, duration):
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


def bench_node_paired(results, duration):
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


def bench_node_links(results, duration, runs=1):
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


#: The bars of issue 34: node p99 jitter within the floor's + this (ms) ...
PROFILE_BAR_MS = 0.3
#: ... thrust -> odometry latency p99 within the floor's + this (ms) ...
LATENCY_BAR_MS = 0.5
#: ... in this many of the quiet runs of a rate (4 of 5).
PROFILE_BAR_RUNS = 0.8


def bench_node_runs(results, duration, rates, runs, profile):
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


def main(argv=None):
    """Run the selected benchmarks."""
    global SETTLE_S
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--quick', action='store_true', help='short runs (smoke test)')
    parser.add_argument('--only', nargs='*', default=None,
                        help='subset: wrench link_wrench rk4 surface simulate replay replay_'
                        'simulate batch node node_paired node_profile node_runs node_links '
                        'node_rexrov node_executors articulated node_uvms simulate_cli '
                        'core_start sweep sitl_json seabed_sensors; core: the core figures')
    parser.add_argument('--rates', nargs='+', type=float, default=[1000.0, 500.0, 250.0],
                        help='node_profile, node_runs: the update rates (Hz)')
    parser.add_argument('--runs', type=int, default=5,
                        help='node_profile, node_runs: runs per rate')
    parser.add_argument('--settle', type=float, default=SETTLE_S,
                        help='longest wait (s) for the load average to fall below %g before '
                        'a timed run (0: no wait)' % QUIET_LOAD)
    args = parser.parse_args(argv)
    SETTLE_S = args.settle
    quick = args.quick
    plan = {
        'wrench': lambda r: bench_wrench(r, 2000 if quick else 20000),
        'link_wrench': lambda r: bench_link_wrench(r, 2000 if quick else 20000),
        'rk4': lambda r: bench_rk4(r, 1000 if quick else 10000),
        'surface': lambda r: bench_surface(r, 5 if quick else 50),
        'simulate': lambda r: bench_simulate(r, 60.0 if quick else 3600.0),
        'replay': lambda r: bench_replay(r, 30.0 if quick else 3600.0),
        'replay_simulate': lambda r: bench_replay_simulate(r, 30.0 if quick else 3600.0),
        'batch': lambda r: (bench_batch(r, 1000, 20 if quick else 200),
                            bench_batch(r, 1000, 20 if quick else 200, distinct=1000,
                                        name='batch_sweep_step_us_per_vehicle')),
        'node': lambda r: bench_node(r, 3.0 if quick else 10.0),
        'simulate_cli': lambda r: bench_simulate_cli(r, 60.0 if quick else 3600.0),
        'core_start': bench_core_start,
        'sweep': lambda r: bench_sweep(r, 2000 if quick else 10000, 5.0 if quick else 20.0),
        'node_paired': lambda r: bench_node_paired(r, 3.0 if quick else 10.0),
        # not in the default run (NOT_DEFAULT; 15 timed runs each): --only NAME
        'node_profile': lambda r: bench_node_runs(r, 3.0 if quick else 10.0, args.rates,
                                                  args.runs, profile=True),
        'node_runs': lambda r: bench_node_runs(r, 3.0 if quick else 10.0, args.rates,
                                               args.runs, profile=False),
        'node_links': lambda r: bench_node_links(r, 3.0 if quick else 10.0, args.runs),
        'node_rexrov': lambda r: node_rexrov.bench(r, emit, quiet_check, quick, args.runs),
        'node_executors': lambda r: node_executors.bench(r, emit, quiet_check, quick,
                                                         args.runs),
        'articulated': lambda r: articulated_bench.bench_step(
            lambda *a, **k: emit(r, *a, **k), quiet_check, 2 if quick else args.runs,
            4 if quick else 20),
        'node_uvms': lambda r: articulated_bench.bench_node(
            lambda *a, **k: emit(r, *a, **k), quiet_check,
            2 if quick else args.runs, 3.0 if quick else 10.0),
        'seabed_sensors': lambda r: seabed_sensors.bench(r, emit, quiet_check, quick,
                                                         args.runs),
        'tether': lambda r: tether_bench.bench(
            lambda *a, **k: emit(r, *a, **k), quiet_check, 2 if quick else args.runs,
            100 if quick else 500),
        'sitl_json': lambda r: sitl_json_probe.bench(
            lambda *a, **k: emit(r, *a, **k), quiet_check, 2000 if quick else 20000,
            2 if quick else args.runs),
    }
    if args.only is not None and 'core' in args.only:
        args.only = list(args.only) + list(CORE_BENCHMARKS)
    print(host_line(), flush=True)  # the machine the figures come from (host.py)
    results = []
    for name, fn in plan.items():
        if name in args.only if args.only is not None else name not in NOT_DEFAULT:
            fn(results)
    table(results)
    return 0


if __name__ == '__main__':
    sys.exit(main())
