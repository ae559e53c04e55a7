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
Soak run of the node: simulate mode at 1 kHz under sim time, faster than real time.

The driver publishes /clock itself, one period at a time (``--clock-step-cycles``
periods), and waits for the node's odometry of that instant before advancing (lockstep:
as fast as the node keeps up).  The node publishes odometry for every integration step,
so every cycle is observable either way.  A /clock message the
best-effort time-source subscription lost is re-sent after ``--resend-ms``.  Thrust
(surge, sway, yaw torque; seeded random) changes every ``--thrust-change`` simulated
seconds and is re-published every 0.1 s of sim time (watchdog 0.5 s).

Measured: node RSS (psutil) at start (after the first simulated second) and end, and
its peak over the run; /diagnostics (max update time, overruns, late ticks, lagged
steps, divergences, state restores); odometry continuity (every stamp exactly one
period after the previous: no gaps, no repeats) and position jumps (|dp| <= |v| dt,
with |v| the larger world speed of the two samples, plus 1 %).

Usage::

    tools/run python soak/run_soak.py [--sim-seconds 3600] [--json out.json]

Exit status 0 when continuity holds, nothing diverged and RSS grew by at most
``--max-rss-growth-mb``; 1 otherwise.
"""
import argparse
import json
import math
import os
import pathlib
import random
import subprocess
import sys
import time

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / 'test' / 'helpers'))

from nodes.harness import node_command, write_params  # noqa: E402


def parse_args(argv=None):
    """Return the command-line options."""
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--sim-seconds', type=float, default=3600.0,
                   help='simulated duration (s, default 3600)')
    p.add_argument('--rate-hz', type=float, default=1000.0, help='node update rate (Hz)')
    p.add_argument('--vehicle', default=str(REPO / 'config' / 'small_rov.yaml'))
    p.add_argument('--clock-step-cycles', type=int, default=1,
                   help='node periods /clock advances per lock-step (1-10); the node still '
                        'integrates and publishes every period (its catch-up), so every '
                        'odometry stamp is still checked; >1 runs faster than real time')
    p.add_argument('--thrust-change', type=float, default=5.0,
                   help='simulated seconds between thrust changes')
    p.add_argument('--seed', type=int, default=9)
    p.add_argument('--resend-ms', type=float, default=50.0,
                   help='re-send a /clock the node did not answer within this (ms, wall)')
    p.add_argument('--max-rss-growth-mb', type=float, default=20.0)
    p.add_argument('--publish-tf', action='store_true', default=True)
    p.add_argument('--no-tf', dest='publish_tf', action='store_false')
    p.add_argument('--json', help='write the summary here as JSON')
    p.add_argument('--workdir', default='/tmp/uwv_soak', help='params file and node log')
    return p.parse_args(argv)


def _ns(stamp) -> int:
    return stamp.sec * 1000000000 + stamp.nanosec


def _diag(msg, part):
    for status in msg.status:
        if part in status.name:
            return {kv.key: kv.value for kv in status.values}
    return {}


def run(args) -> dict:
    """Run the soak; return the summary dict."""
    import psutil
    import rclpy
    from builtin_interfaces.msg import Time
    from diagnostic_msgs.msg import DiagnosticArray
    from geometry_msgs.msg import WrenchStamped
    from nav_msgs.msg import Odometry
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.node import Node
    from rclpy.qos import QoSProfile, ReliabilityPolicy
    from rosgraph_msgs.msg import Clock
    from uwv_hydro.node.launch_commands.launch_command import stop_node
    from uwv_hydro.physics.spatial.rotation import quat_to_matrix

    os.environ.setdefault('ROS_DOMAIN_ID', str(1 + os.getpid() % 100))
    os.environ.setdefault('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST')
    work = pathlib.Path(args.workdir)
    work.mkdir(parents=True, exist_ok=True)
    params = {'vehicle_file': args.vehicle, 'mode': 'simulate', 'rate_hz': args.rate_hz,
              'use_sim_time': True, 'initial_position': [0.0, 0.0, -20.0],
              'thrust_timeout': 0.5, 'publish_markers': False,
              'publish_tf': args.publish_tf, 'diagnostics_period': 1.0}
    params_file = write_params(work / 'soak_params.yaml', params)
    log_path = work / 'soak_node.log'
    log = open(log_path, 'w')
    env = dict(os.environ, PYTHONUNBUFFERED='1')
    node_proc = subprocess.Popen(node_command(params_file), stdout=log, stderr=log,
                                 env=env, cwd=str(REPO))
    log.close()
    rclpy.init()
    node = Node('uwv_soak_driver')
    executor = SingleThreadedExecutor()
    executor.add_node(node)
    period_ns = int(round(1e9 / args.rate_hz))
    dt = period_ns * 1e-9
    stride = int(args.clock_step_cycles)
    if not 1 <= stride <= 10:  # 10 = the node's default max_catchup_steps
        raise ValueError('--clock-step-cycles must be 1..10')
    state = {'last': None, 'gaps': 0, 'repeats': 0, 'jumps': 0, 'count': 0,
             'max_jump_ratio': 0.0, 'max_speed': 0.0, 'nonfinite': 0, 'diag': None}

    def on_odom(msg):
        stamp = _ns(msg.header.stamp)
        p, q, t = msg.pose.pose.position, msg.pose.pose.orientation, msg.twist.twist
        values = (p.x, p.y, p.z, q.w, q.x, q.y, q.z, t.linear.x, t.linear.y, t.linear.z)
        if not all(math.isfinite(v) for v in values):
            state['nonfinite'] += 1
            return
        rot = quat_to_matrix([q.w, q.x, q.y, q.z])
        v = rot @ [t.linear.x, t.linear.y, t.linear.z]
        speed = math.sqrt(float(v @ v))
        state['max_speed'] = max(state['max_speed'], speed)
        last = state['last']
        if last is not None:
            gap = stamp - last[0]
            if gap == 0:
                state['repeats'] += 1
            elif gap != period_ns:  # every integration step is published
                state['gaps'] += 1
            else:
                jump = math.dist((p.x, p.y, p.z), last[1])
                allowed = max(speed, last[2]) * dt * 1.01 + 1e-9
                state['max_jump_ratio'] = max(state['max_jump_ratio'], jump / allowed)
                if jump > allowed:
                    state['jumps'] += 1
        state['last'] = (stamp, (p.x, p.y, p.z), speed)
        state['count'] += 1

    def on_diag(msg):
        if _diag(msg, 'update loop'):
            state['diag'] = msg

    node.create_subscription(Odometry, 'odometry', on_odom, 1000)
    node.create_subscription(DiagnosticArray, '/diagnostics', on_diag, 10)
    clock_pub = node.create_publisher(
        Clock, '/clock', QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE))
    thrust_pub = node.create_publisher(WrenchStamped, 'thrust', 10)
    rng = random.Random(args.seed)
    thrust = WrenchStamped()
    thrust.header.frame_id = 'base_link'
    proc = psutil.Process(node_proc.pid)

    start_ns = 1000 * 1000000000
    steps = int(round(args.sim_seconds * args.rate_hz)) // stride * stride
    change_every = max(1, int(round(args.thrust_change * args.rate_hz)))
    republish_every = max(1, int(round(0.1 * args.rate_hz)))
    resend_s = args.resend_ms * 1e-3
    resends = 0
    rss = {'start': None, 'peak': 0, 'samples': []}
    wall0 = time.monotonic()

    def clock(ns):
        clock_pub.publish(Clock(clock=Time(sec=ns // 1000000000, nanosec=ns % 1000000000)))

    # wait for the node: publish the start time until the first odometry arrives
    deadline = time.monotonic() + 60.0
    while state['last'] is None:
        if node_proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError('node did not start:\n' + log_path.read_text())
        clock(start_ns)
        executor.spin_once(timeout_sec=0.05)
    state.update(gaps=0, repeats=0, count=1)
    loop_wall0 = time.monotonic()
    next_change, next_republish = 1, 1
    next_rss, next_print = int(args.rate_hz), 600 * int(args.rate_hz)
    for k in range(stride, steps + 1, stride):
        now = start_ns + k * period_ns
        if k >= next_change:
            next_change += change_every * ((k - next_change) // change_every + 1)
            thrust.wrench.force.x = rng.uniform(-40.0, 40.0)
            thrust.wrench.force.y = rng.uniform(-20.0, 20.0)
            thrust.wrench.torque.z = rng.uniform(-2.0, 2.0)
        if k >= next_republish:
            next_republish += republish_every * ((k - next_republish) // republish_every + 1)
            thrust.header.stamp.sec, thrust.header.stamp.nanosec = divmod(now, 1000000000)
            thrust_pub.publish(thrust)
        clock(now)
        sent = time.monotonic()
        while state['last'][0] < now:
            executor.spin_once(timeout_sec=resend_s)
            if state['last'][0] < now and time.monotonic() - sent > resend_s:
                if node_proc.poll() is not None:
                    raise RuntimeError('node exited:\n' + log_path.read_text())
                clock(now)
                resends += 1
                sent = time.monotonic()
        if k >= next_rss:
            next_rss = k - k % (60 * int(args.rate_hz)) + 60 * int(args.rate_hz)
            value = proc.memory_info().rss
            rss['start'] = rss['start'] or value
            rss['peak'] = max(rss['peak'], value)
            rss['samples'].append((k * dt, value))
        if k >= next_print:
            next_print += 600 * int(args.rate_hz)
            print('  %6.0f s simulated, %6.0f s wall, RSS %.1f MB' % (
                k * dt, time.monotonic() - wall0, proc.memory_info().rss / 2 ** 20),
                flush=True)
    wall = time.monotonic() - loop_wall0
    rss_end = proc.memory_info().rss
    rss['peak'] = max(rss['peak'], rss_end)
    # a last /diagnostics after the run (steady clock, at most 1 s away)
    state['diag'] = None
    deadline = time.monotonic() + 5.0
    while state['diag'] is None and time.monotonic() < deadline:
        executor.spin_once(timeout_sec=0.1)
    loop = _diag(state['diag'], 'update loop') if state['diag'] else {}
    alive = node_proc.poll() is None
    stop_node(node_proc)  # SIGINT, then SIGKILL after 10 s
    executor.shutdown()
    node.destroy_node()
    rclpy.try_shutdown()
    rss_start = rss['start'] or rss_end
    summary = {
        'sim_seconds': steps * dt, 'rate_hz': args.rate_hz, 'cycles': steps,
        'clock_step_cycles': stride,
        'wall_seconds': wall, 'speedup': steps * dt / wall if wall > 0 else None,
        'odometry_count': state['count'], 'odometry_gaps': state['gaps'],
        'odometry_repeats': state['repeats'], 'position_jumps': state['jumps'],
        'max_position_step_over_v_dt': state['max_jump_ratio'],
        'non_finite_odometry': state['nonfinite'], 'max_world_speed': state['max_speed'],
        'clock_resends': resends, 'node_alive_at_end': alive,
        'rss_start_mb': rss_start / 2 ** 20, 'rss_end_mb': rss_end / 2 ** 20,
        'rss_peak_mb': rss['peak'] / 2 ** 20, 'rss_growth_mb': (rss_end - rss_start) / 2 ** 20,
        'rss_samples_mb': [(t, v / 2 ** 20) for t, v in rss['samples']],
        'max_update_ms': float(loop.get('max_update_s', 'nan')) * 1e3,
        'overruns': int(loop.get('overruns', -1)), 'late_ticks': int(loop.get('late_ticks', -1)),
        'ticks': int(loop.get('ticks', -1)), 'lagged_steps': int(loop.get('lagged_steps', -1)),
        'divergences': int(loop.get('divergences', -1)),
        'state_restores': int(loop.get('state_restores', -1)),
        'rk4_substeps': int(loop.get('rk4_substeps', -1)),
        'max_rss_growth_mb': args.max_rss_growth_mb, 'node_log': str(log_path),
    }
    summary['ok'] = bool(
        alive and state['count'] == steps + 1 and state['gaps'] == 0
        and state['repeats'] == 0 and state['jumps'] == 0 and state['nonfinite'] == 0
        and summary['lagged_steps'] == 0 and summary['divergences'] == 0
        and summary['state_restores'] == 0
        and summary['rss_growth_mb'] <= args.max_rss_growth_mb)
    return summary


def print_summary(s: dict) -> None:
    """Print the soak figures."""
    print('soak: %.0f s simulated at %g Hz (%d cycles, /clock every %d) in %.1f s wall '
          '(x%.1f real time)' % (s['sim_seconds'], s['rate_hz'], s['cycles'],
                                 s['clock_step_cycles'], s['wall_seconds'], s['speedup']))
    print('  RSS start %.1f MB, end %.1f MB, growth %+.2f MB (bound %.0f MB), peak %.1f MB'
          % (s['rss_start_mb'], s['rss_end_mb'], s['rss_growth_mb'], s['max_rss_growth_mb'],
             s['rss_peak_mb']))
    print('  update loop: max %.3f ms, %d overruns of the %.3g ms period, %d late ticks, '
          '%d lagged steps, %d divergences, %d state restores, %d RK4 sub-steps'
          % (s['max_update_ms'], s['overruns'], 1e3 / s['rate_hz'], s['late_ticks'],
             s['lagged_steps'], s['divergences'], s['state_restores'], s['rk4_substeps']))
    print('  odometry: %d messages, %d gaps, %d repeats, %d position jumps (max |dp|/(|v| dt) '
          '%.4f), %d non-finite; max speed %.3f m/s; %d /clock re-sends'
          % (s['odometry_count'], s['odometry_gaps'], s['odometry_repeats'],
             s['position_jumps'], s['max_position_step_over_v_dt'], s['non_finite_odometry'],
             s['max_world_speed'], s['clock_resends']))
    print('  result: %s' % ('OK' if s['ok'] else 'FAILED'))


def main(argv=None) -> int:
    """Run the soak and print (and optionally write) the summary."""
    args = parse_args(argv)
    summary = run(args)
    print_summary(summary)
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(summary, indent=1))
    return 0 if summary['ok'] else 1


if __name__ == '__main__':
    sys.exit(main())
