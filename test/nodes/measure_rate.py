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
Measure hydro_node's achieved odometry rate and inter-arrival jitter.

Usage: measure_rate.py RATE_HZ [SECONDS]  - starts the node (simulate mode, the
package vehicle) on a private domain, and this separate subscriber process counts
odometry arrivals for SECONDS (default 10) and prints rate, inter-arrival period
statistics (wall clock at the subscriber) and the node's own loop counters from
/diagnostics.
"""
import os
import pathlib
import signal
import subprocess
import sys
import tempfile
import time

import numpy as np

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))


def main(argv) -> int:
    """Run one measurement; return the exit status."""
    rate = float(argv[1])
    seconds = float(argv[2]) if len(argv) > 2 else 10.0
    domain = 150 + os.getpid() % 50
    env = dict(os.environ, ROS_DOMAIN_ID=str(domain), ROS_AUTOMATIC_DISCOVERY_RANGE='LOCALHOST')
    with tempfile.TemporaryDirectory(prefix='uwv_rate_') as work:
        return measure(rate, seconds, env, domain, work)


def measure(rate, seconds, env, domain, work) -> int:
    """Start the node with files in ``work`` and measure; return the exit status."""
    import rclpy
    from diagnostic_msgs.msg import DiagnosticArray
    from nav_msgs.msg import Odometry
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.node import Node
    from uwv_hydro.node.launch_command import build_command, default_path, expand_vehicle
    params = pathlib.Path(work) / 'p.yaml'
    params.write_text('/**:\n  ros__parameters:\n    initial_position: [0.0, 0.0, -10.0]\n')
    argv_node = build_command(expand_vehicle(default_path('vehicle')), rate_hz=rate,
                              params_file=str(params),
                              description_file=str(pathlib.Path(work) / 'd.yaml'))
    proc = subprocess.Popen(argv_node, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    context = rclpy.Context()
    rclpy.init(context=context, domain_id=domain)
    arrivals, diags = [], []
    try:
        node = Node('rate_probe', context=context)
        node.create_subscription(Odometry, 'odometry',
                                 lambda m: arrivals.append(time.perf_counter()), 1000)
        node.create_subscription(DiagnosticArray, '/diagnostics', diags.append, 10)
        ex = SingleThreadedExecutor(context=context)
        ex.add_node(node)
        deadline = time.monotonic() + 60
        while not arrivals and time.monotonic() < deadline:
            ex.spin_once(timeout_sec=0.05)
        settle = time.monotonic() + 1.0  # let discovery and start-up settle
        while time.monotonic() < settle:
            ex.spin_once(timeout_sec=0.01)
        del arrivals[:]
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ex.spin_once(timeout_sec=0.01)
        while time.monotonic() < end + 1.5:  # one more diagnostics report
            ex.spin_once(timeout_sec=0.05)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            print('node did not stop on SIGINT: killed')
            proc.kill()
            proc.wait()
        context.try_shutdown()
    a = np.array(arrivals)
    a = a[a <= a[0] + seconds] if len(a) else a
    if len(a) < 3:
        print('rate %g Hz: only %d messages' % (rate, len(a)))
        return 1
    d = np.diff(a) * 1e3
    achieved = (len(a) - 1) / (a[-1] - a[0])
    print('target %7.1f Hz: achieved %7.1f Hz (%d msgs in %.1f s); inter-arrival mean %.3f ms,'
          ' std %.3f ms, p50 %.3f, p99 %.3f, max %.3f ms; >1.5x period: %d'
          % (rate, achieved, len(a), a[-1] - a[0], d.mean(), d.std(), np.percentile(d, 50),
             np.percentile(d, 99), d.max(), int(np.sum(d > 1.5e3 / rate))))
    for msg in diags[-1:]:
        for status in msg.status:
            if 'update loop' in status.name:
                pairs = ['%s=%s' % (kv.key, kv.value) for kv in status.values]
                print('  node loop: ' + ', '.join(pairs))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
