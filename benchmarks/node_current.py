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
Update-loop cost of a changing current (issue 17, item 3), measured over DDS.

The node runs in simulate mode on the default vehicle at ``rate_hz`` (1 kHz).  This
process publishes ``current`` at 20 Hz for ``seconds`` with one constant value (the
reference phase), then for ``seconds`` with a new value every message.  The update
loop's counters in /diagnostics (overruns = updates longer than one period,
lagged_steps, late_ticks, max_update_ms) are differenced over each phase.  A new
current value should cost the update no more than a repeated one: the figures of the
two phases are printed side by side, with their ratio (same run, same machine load).

The node figures depend on the machine's load; :func:`checked_step_cost` measures the
same thing without DDS: the checked step of the update (one RK4 step and the energy
bound, as the node runs it at 1 kHz) with the same current every step, then with a
new current every step; the median ratio should be about 1.

    tools/run python benchmarks/node_current.py [rate_hz] [seconds]
"""

import os
import pathlib
import sys
import tempfile
import time

REPO = pathlib.Path(__file__).resolve().parents[1]
CURRENT_HZ = 20.0
COUNTERS = ('overruns', 'lagged_steps', 'late_ticks', 'ticks')


def _loop_values(diags):
    for msg in reversed(diags):
        for status in msg.status:
            if 'update loop' in status.name:
                return {kv.key: kv.value for kv in status.values}
    return {}


def measure_current_changes(rate_hz: float = 1000.0, seconds: float = 3.0):
    """Return {'constant': {...}, 'changing': {...}} counter deltas of the two phases."""
    import rclpy
    from diagnostic_msgs.msg import DiagnosticArray
    from geometry_msgs.msg import Vector3Stamped
    from nav_msgs.msg import Odometry
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.node import Node
    from uwv_hydro.node.launch_commands.launch_command import (
        build_command, default_path, expand_vehicle, stop_node)
    import subprocess

    domain = 120 + (os.getpid() * 3) % 80
    env = dict(os.environ, ROS_DOMAIN_ID=str(domain),
               ROS_AUTOMATIC_DISCOVERY_RANGE='LOCALHOST')
    work = pathlib.Path(tempfile.mkdtemp(prefix='uwv_bench_current_'))
    params = work / 'p.yaml'
    params.write_text('/**:\n  ros__parameters:\n    initial_position: [0.0, 0.0, -10.0]\n'
                      '    publish_markers: false\n    diagnostics_period: 0.25\n')
    argv = build_command(expand_vehicle(default_path('vehicle')), rate_hz=rate_hz,
                         params_file=str(params), description_file=str(work / 'd.yaml'))
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    context = rclpy.Context()
    rclpy.init(context=context, domain_id=domain)
    diags, odom = [], []
    out = {}
    try:
        node = Node('uwv_bench_current', context=context)
        node.create_subscription(DiagnosticArray, '/diagnostics', diags.append, 10)
        node.create_subscription(Odometry, 'odometry', lambda m: odom.append(1), 10)
        pub = node.create_publisher(Vector3Stamped, 'current', 10)
        executor = SingleThreadedExecutor(context=context)
        executor.add_node(node)

        def spin(duration, publish=None):
            end = time.monotonic() + duration
            next_pub = time.monotonic()
            while time.monotonic() < end:
                if publish is not None and time.monotonic() >= next_pub:
                    publish()
                    next_pub += 1.0 / CURRENT_HZ
                executor.spin_once(timeout_sec=0.002)

        deadline = time.monotonic() + 60.0
        while not (odom and diags) and time.monotonic() < deadline:
            executor.spin_once(timeout_sec=0.05)
        if not odom:
            raise RuntimeError('the node published no odometry within 60 s')
        spin(1.0)
        msg = Vector3Stamped()
        count = [0]

        def constant():
            msg.vector.x, msg.vector.y = 0.3, -0.1
            pub.publish(msg)

        def changing():
            count[0] += 1
            msg.vector.x, msg.vector.y = 0.3 + 1e-3 * count[0], -0.1
            pub.publish(msg)

        for name, publish in (('constant', constant), ('changing', changing)):
            spin(0.6, publish)  # the first value of a phase, and a fresh report
            before = _loop_values(diags)
            spin(seconds, publish)
            spin(0.6, publish)
            after = _loop_values(diags)
            out[name] = {k: int(after.get(k, 0)) - int(before.get(k, 0)) for k in COUNTERS}
            out[name]['max_update_ms'] = float(after.get('max_update_s', 'nan')) * 1e3
        executor.shutdown(timeout_sec=1.0)
    finally:
        stop_node(proc)
        context.try_shutdown()
    return out


def checked_step_cost(steps: int = 300):
    """Return (median us of a checked step with the same current, with a new current)."""
    import numpy as np
    from uwv_hydro.node.launch_commands.launch_command import default_path, expand_vehicle
    from uwv_hydro.description.loader import load_vehicle_string
    from uwv_hydro.physics.body.dynamics import Simulator, State
    from uwv_hydro.physics.body.stability import EnergyGuard
    sim = Simulator(load_vehicle_string(expand_vehicle(default_path('vehicle'))), dt=1e-3)
    guard = EnergyGuard(sim)
    tau = np.array([50.0, 0.0, 0.0, 0.0, 0.0, 5.0])
    medians = []
    for changing in (False, True):
        state = State(np.array([0.0, 0.0, -10.0]), twist=np.array([1.0, 0, 0, 0, 0, 0.1]))
        times = []
        for k in range(steps):
            current = [0.3 + (1e-4 * k if changing else 0.0), -0.1, 0.0]
            start = time.perf_counter()
            new = sim.step(state, tau, current)
            guard.plausible(state.twist, new.twist, tau, sim.dt, current)
            times.append(time.perf_counter() - start)
            state = new
        medians.append(float(np.median(times)) * 1e6)
    return medians[0], medians[1]


def main(argv):
    """Print the two phases and their ratios."""
    rate = float(argv[1]) if len(argv) > 1 else 1000.0
    seconds = float(argv[2]) if len(argv) > 2 else 3.0
    same, new = checked_step_cost()
    print('checked step (RK4 + energy bound), median: same current %.1f us, new current '
          '%.1f us, ratio %.3g' % (same, new, new / same))
    result = measure_current_changes(rate, seconds)
    print('node at %g Hz, current published at %g Hz for %g s per phase'
          % (rate, CURRENT_HZ, seconds))
    print('%-10s %10s %14s %11s %8s'
          % ('phase', 'overruns', 'lagged_steps', 'late_ticks', 'ticks'))
    for name, r in result.items():
        print('%-10s %10d %14d %11d %8d' % (name, r['overruns'], r['lagged_steps'],
                                            r['late_ticks'], r['ticks']))
    c, k = result['changing'], result['constant']
    print('changing / constant: overruns %.3g, lagged_steps %.3g (max update so far '
          '%.3g ms)' % ((c['overruns'] + 1) / (k['overruns'] + 1),
                        (c['lagged_steps'] + 1) / (k['lagged_steps'] + 1),
                        c['max_update_ms']))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
