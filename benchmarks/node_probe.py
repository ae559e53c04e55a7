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
Measure the running node from a separate process, over DDS (``make bench``: node figures).

The node runs in simulate mode on the default vehicle at ``rate_hz``.  This process:

* subscribes to ``odometry`` and ``/tf`` (tf2_ros' QoS; both are published every
  cycle, so the node and the floor both serve two matched readers); on odometry:
  achieved rate = messages / time; period jitter = the p99 of |inter-arrival time -
  nominal period| at this subscriber.  Arrival is the
  middleware's reception timestamp of each sample (rmw MessageInfo
  ``received_timestamp``: when Fast DDS in this process received it); the same figures
  taken when this process's Python callback ran are reported too (``at_callback``),
  and include the probe's own executor delays (Humble's rclpy passes no MessageInfo:
  there both are the callback's time);
* publishes a sway thrust of +-F on ``thrust`` (base frame), flipping its sign every
  50 ms: thrust -> odometry latency = time from publishing a flip to receiving the first
  odometry whose sway acceleration (difference of consecutive twists over their stamps)
  has the new sign.  It includes DDS transport both ways, the wait for the node's next
  cycle, one integration step and the publish;
* keeps the node's /diagnostics of the measured interval: the update cycle's CPU and
  wall time (median over the diagnostics windows of each window's p50 and p99); and
  reads the process's CPU time over it (``/proc/<pid>/stat``, every thread): per
  odometry message received, ``node_process_cpu_per_odometry_us``;
  with ``profile`` the node runs with ``cycle_profile: true`` and the record
  ``node_profile`` carries each stage's figures (cycle_profile.py) over the windows:
  the median of the windows' p50 and p99, the largest max, and the late wakes summed
  per section.
"""

import json
import pathlib
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np
from probe_common import cycle_figures, probe_domain, process_cpu_s

REPO = pathlib.Path(__file__).resolve().parents[1]
FLIP_S = 0.05
FORCE = 2000.0
LOOP_KEYS = ('ticks', 'late_ticks', 'lagged_steps', 'max_update_s', 'rate_hz', 'executor')


def _with_message_info() -> bool:
    """Return whether rclpy passes MessageInfo to two-argument callbacks (not Humble's)."""
    from rclpy.subscription import Subscription
    return hasattr(Subscription, 'CallbackType')


def measure_node(rate_hz: float = 1000.0, duration: float = 10.0, floor: bool = False,
                 profile: bool = False, vehicle_file: str = '', thrust_frame: str = 'base_link',
                 executor: str = '', node_params: dict = None):
    """
    Return benchmark records [(name, value, unit, extra), ...] for the node.

    With ``floor`` the process measured is benchmarks/floor_node.py instead (figures
    named ``floor_*``): the same probe on a minimal rclpy publisher.  With ``profile``
    the node's cycle profile is on and reported (``node_profile``).  ``vehicle_file``:
    the node's vehicle (default: the launch file's default vehicle); ``thrust_frame``:
    the frame of the sway thrust (the vehicle's base frame); ``executor``: the node's
    ``executor`` parameter ('' its default, auto); ``params``: more node parameters
    ({name: value}, written as JSON scalars).
    """
    import rclpy
    from diagnostic_msgs.msg import DiagnosticArray
    from geometry_msgs.msg import WrenchStamped
    from nav_msgs.msg import Odometry
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.node import Node
    from tf2_msgs.msg import TFMessage
    from uwv_hydro.node.launch_commands.launch_command import (
        build_command, default_path, expand_vehicle, stop_node)
    from uwv_hydro.node.simulate_io import TF_QOS

    domain, env = probe_domain()
    work = tempfile.mkdtemp(prefix='uwv_bench_')
    params = pathlib.Path(work) / 'p.yaml'
    params.write_text('/**:\n  ros__parameters:\n    initial_position: [0.0, 0.0, -10.0]\n'
                      '    publish_markers: false\n'
                      + ('    cycle_profile: true\n' if profile else '')
                      + ('    executor: %s\n' % executor if executor else '')
                      + ('    vehicle_file: %s\n' % json.dumps(vehicle_file)
                         if vehicle_file else '')
                      + ''.join('    %s: %s\n' % (k, json.dumps(v))
                                for k, v in (node_params or {}).items()))
    if floor:
        argv = [sys.executable, str(REPO / 'benchmarks' / 'floor_node.py'), repr(rate_hz)]
    else:
        urdf = '' if vehicle_file else expand_vehicle(default_path('vehicle'))
        argv = build_command(urdf, rate_hz=rate_hz,
                             params_file=str(params),
                             description_file=str(pathlib.Path(work) / 'd.yaml'))
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    context = rclpy.Context()
    rclpy.init(context=context, domain_id=domain)
    odom = []   # (callback time s, middleware receive time s, stamp s, sway velocity)
    diags = []
    flips = []  # (publish time, sign)
    try:
        node = Node('uwv_bench_probe', context=context)

        def on_odom(msg, info):
            # every time on the system clock: rmw reception timestamps use it
            stamp = msg.header.stamp.sec + msg.header.stamp.nanosec * 1e-9
            now = time.time_ns() * 1e-9
            odom.append((now, now if info is None else info['received_timestamp'] * 1e-9,
                         stamp, msg.twist.twist.linear.y))

        if _with_message_info():
            node.create_subscription(Odometry, 'odometry', on_odom, 1000)
        else:  # Humble's rclpy: the callback time stands for the reception time
            node.create_subscription(Odometry, 'odometry', lambda m: on_odom(m, None), 1000)
        tf_count = [0]

        def on_tf(msg):
            tf_count[0] += 1

        node.create_subscription(TFMessage, '/tf', on_tf, TF_QOS)
        node.create_subscription(DiagnosticArray, '/diagnostics', diags.append, 10)
        pub = node.create_publisher(WrenchStamped, 'thrust', 10)
        executor = SingleThreadedExecutor(context=context)
        executor.add_node(node)
        deadline = time.monotonic() + 60.0
        while not odom and time.monotonic() < deadline:
            executor.spin_once(timeout_sec=0.05)
        if not odom:
            raise RuntimeError('the node published no odometry within 60 s')
        wrench = WrenchStamped()
        wrench.header.frame_id = thrust_frame
        sign = 1.0
        # callbacks run on a spinning thread (receive times taken promptly); the thrust
        # flips are published from this thread, paced by sleep
        spinner = threading.Thread(target=executor.spin, daemon=True)
        spinner.start()
        time.sleep(1.0)
        # the first second after the first odometry: the rate from the start
        start_arrivals = [row[1] for row in odom]
        del odom[:]
        del diags[:]
        tf_count[0] = 0
        cpu_start = process_cpu_s(proc.pid)
        end = time.perf_counter() + duration
        while time.perf_counter() < end:
            sign = -sign
            wrench.wrench.force.y = sign * FORCE
            flips.append((time.time_ns() * 1e-9, sign))
            pub.publish(wrench)
            time.sleep(FLIP_S)
        tf_seen = tf_count[0]
        process_cpu = process_cpu_s(proc.pid) - cpu_start
        time.sleep(1.5)  # one more diagnostics report
        executor.shutdown(timeout_sec=1.0)
    finally:
        stop_node(proc)
        context.try_shutdown()
    records = _figures(rate_hz, duration, odom, flips, diags)
    records[0][3]['tf_messages'] = tf_seen
    # the process's CPU (every thread: update, executor, middleware) per odometry message
    sent = records[0][3]['messages']
    records.append(('node_process_cpu_per_odometry_us', process_cpu / max(sent, 1) * 1e6, 'us',
                    {'process_cpu_s': process_cpu, 'messages': sent}))
    if len(start_arrivals) > 1:
        span = start_arrivals[-1] - start_arrivals[0]
        records.insert(2, ('node_rate_first_second_hz', (len(start_arrivals) - 1) / span, 'Hz',
                           {'messages': len(start_arrivals)}))
    if floor:  # the floor has no update loop diagnostics
        return [('floor_' + r[0], *r[1:]) for r in records if r[0] != 'node_loop']
    return records


def _timing(recv, stamps, sway, flips, period):
    """Return (achieved Hz, jitter ms array, latency ms array) for arrival times ``recv``."""
    achieved = (len(recv) - 1) / (recv[-1] - recv[0])
    jitter = np.abs(np.diff(recv) - period) * 1e3
    # sway acceleration between consecutive odometry messages (node stamps)
    dt = np.diff(stamps)
    ok = dt > 0
    accel = np.zeros(len(dt))
    accel[ok] = np.diff(sway)[ok] / dt[ok]
    latencies = []
    for (t_pub, sign), nxt in zip(flips, flips[1:] + [(np.inf, 0)]):
        idx = np.nonzero((recv[1:] > t_pub) & (recv[1:] < nxt[0]) & (np.sign(accel) == sign))[0]
        if len(idx):
            latencies.append((recv[1:][idx[0]] - t_pub) * 1e3)
    return achieved, jitter, np.array(latencies) if latencies else np.array([np.nan])


def _figures(rate_hz, duration, odom, flips, diags):
    arr = np.array(odom)
    arr = arr[arr[:, 0] <= arr[0, 0] + duration]
    callback, middleware, stamps, sway = arr.T
    period = 1.0 / rate_hz
    achieved, jitter, lat = _timing(middleware, stamps, sway, flips, period)
    _, jitter_cb, lat_cb = _timing(callback, stamps, sway, flips, period)
    cycle, windows = cycle_figures(diags)
    loop = windows[-1] if windows else {}
    extra = {'requested_hz': rate_hz, 'messages': int(len(middleware)), 'seconds': duration}
    return [
        ('node_rate_hz', float(achieved), 'Hz', extra),
        ('node_rate_error_pct', float(abs(achieved - rate_hz) / rate_hz * 100), '%', {}),
        ('node_period_jitter_p99_ms', float(np.percentile(jitter, 99)), 'ms',
         {'p50': float(np.percentile(jitter, 50)), 'max': float(jitter.max()),
          'at_callback_p99': float(np.percentile(jitter_cb, 99))}),
        ('thrust_to_odometry_latency_p99_ms', float(np.nanpercentile(lat, 99)), 'ms',
         {'p50': float(np.nanpercentile(lat, 50)), 'flips': len(flips),
          'measured': int(np.sum(np.isfinite(lat))),
          'at_callback_p99': float(np.nanpercentile(lat_cb, 99))}),
        ('node_loop', float(loop.get('overruns', 'nan')), 'overruns',
         dict({k: loop[k] for k in LOOP_KEYS if k in loop},
              overruns_measured=sum(int(w.get('overruns_recent', 0)) for w in windows))),
    ] + [('node_' + k, v, 'us', {'windows': len(windows)}) for k, v in cycle.items()] + (
        [('node_profile', len(windows), 'windows', _profile(windows))]
        if any('profile.cycles' in w for w in windows) else [])


def _profile(windows):
    """Return {stage: {p50, p99, max}} and the late wakes of the profiled windows."""
    windows = [w for w in windows if 'profile.cycles' in w]
    keys = sorted(set().union(*windows))
    stages = {}
    for key in keys:
        if key.startswith('profile.') and key.endswith('_p50_us'):
            stage = key[len('profile.'):-len('_p50_us')]
            got = [{q: float(w['profile.%s_%s_us' % (stage, q)]) for q in ('p50', 'p99', 'max')}
                   for w in windows if 'profile.%s_p50_us' % stage in w]
            stages[stage] = {'p50': float(np.median([g['p50'] for g in got])),
                             'p99': float(np.median([g['p99'] for g in got])),
                             'max': max(g['max'] for g in got)}
    late = {k[len('profile.'):]: sum(int(w.get(k, 0)) for w in windows)
            for k in keys if k.startswith('profile.late_wakes')}
    return {'stages': stages, 'late_wakes': late,
            'gc_runs': sum(int(w.get('profile.gc_runs', 0)) for w in windows),
            'cycles': sum(int(w.get('profile.cycles', 0)) for w in windows),
            'switch_interval_us': float(windows[0].get('profile.switch_interval_us', 'nan'))}


if __name__ == '__main__':
    # node_probe.py [RATE_HZ [SECONDS]] [--floor] [--profile] [--json]
    numbers = [a for a in sys.argv[1:] if not a.startswith('--')]
    rate = float(numbers[0]) if numbers else 1000.0
    seconds = float(numbers[1]) if len(numbers) > 1 else 10.0
    for rec in measure_node(rate, seconds, floor='--floor' in sys.argv,
                            profile='--profile' in sys.argv):
        print(json.dumps(rec) if '--json' in sys.argv else rec, flush=True)
