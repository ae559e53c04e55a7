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
Replaying bags (``--only replay replay_simulate``; doc/guide/performance.md, "The benches").

:func:`bench_replay`: wrench replay of a 100 Hz odometry bag; :func:`bench_replay_simulate`:
replay --simulate of an odometry + thrust bag with and without stamp jitter.
"""

import pathlib
import tempfile
import time

from harness import emit
from naive_reference import full_vehicle
import numpy as np


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
