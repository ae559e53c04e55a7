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
``demo``: run hydro_node in simulate mode and drive it with a scripted thrust profile.

Starts the node as a subprocess (the command line launch/uwv_hydro.launch.py builds,
on a private ROS domain limited to localhost), publishes thrust as wrenches at the
vehicle's port/starboard frames named ``thruster`` (``thrust/<frame>``: no thruster
model is needed, and ``check`` lists none for the default vehicle; ramp up surge, hold,
a differential-thrust yaw turn, stop), records odometry for ``--duration`` seconds,
stops the node, prints a summary (distance, final speed against the terminal speed
computed from the drag coefficients, depth change; the number of warnings and errors the
node logged, with the first, when there were any: a node that cannot keep up says so in
its log) and plots the trajectory.  Exit status 0 on success, 1 if the node failed or no
odometry came.
"""
import os
import pathlib
import re
import signal
import subprocess
import sys
import tempfile
import time

import numpy as np

from uwv_hydro.cli.number_options import (
    check_steps, DOMAIN_ID, POSITION, POSITIVE_DURATION, RATE, SPEED)

#: Fractions of the duration: ramp up, hold, turn, stop.
PHASES = (('ramp', 0.15), ('hold', 0.4), ('turn', 0.2), ('stop', 0.25))


def add_parser(sub):
    """Register the ``demo`` subcommand."""
    from uwv_hydro.node.launch_commands.launch_command import default_path
    p = sub.add_parser('demo', help='run the node in simulate mode with a scripted thrust '
                       'profile and plot the trajectory', description=__doc__)
    p.add_argument('--vehicle', default=default_path('vehicle'),
                   help='URDF or xacro file (default: the package dsros_vehicle)')
    p.add_argument('--duration', type=POSITIVE_DURATION, default=20.0, help='seconds of wall time')
    p.add_argument('--speed', type=SPEED, default=1.0,
                   help='target surge speed the hold thrust is computed for [m/s]')
    p.add_argument('--rate-hz', type=RATE, default=100.0, help='node update rate [Hz]')
    p.add_argument('--depth', type=POSITION, default=10.0, help='initial depth [m]')
    p.add_argument('--plot', default='out/demo_trajectory.png', help='PNG to write')
    p.add_argument('--log', default='out/demo_node.log', help='node log file')
    p.add_argument('--domain-id', type=DOMAIN_ID, default=None,
                   help='ROS_DOMAIN_ID (default: derived from the process id)')
    p.set_defaults(func=run)


def surge_drag(model, u: float) -> float:
    """Return the surge drag force magnitude (N) at surge speed ``u``."""
    wc = model.wrench([u, 0.0, 0.0, 0.0, 0.0, 0.0])
    return -float(wc.components['linear_drag'][0] + wc.components['quadratic_drag'][0])


def terminal_speed(model, thrust: float) -> float:
    """Return the surge speed where drag balances ``thrust`` (bisection)."""
    low, high = 0.0, 1.0
    while surge_drag(model, high) < thrust and high < 1e4:
        high *= 2.0
    for _ in range(100):
        mid = 0.5 * (low + high)
        if surge_drag(model, mid) < thrust:
            low = mid
        else:
            high = mid
    return 0.5 * (low + high)


def pick_thrusters(params):
    """Return [(frame, y)] of the port and starboard thruster links ([] if none)."""
    candidates = [(name, float(f.translation[1])) for name, f in params.frames.items()
                  if 'thruster' in name.lower()]
    if len(candidates) < 2:
        return []
    candidates.sort(key=lambda c: c[1])
    return [candidates[-1], candidates[0]]


def profile(t: float, duration: float, hold: float, turn: float):
    """Return (phase, port share, starboard share) of the surge thrust at time ``t``."""
    start = 0.0
    for name, fraction in PHASES:
        end = start + fraction * duration
        if t < end or name == 'stop':
            if name == 'ramp':
                total = hold * min(1.0, t / (end - start))
                return name, 0.5 * total, 0.5 * total
            if name == 'hold':
                return name, 0.5 * hold, 0.5 * hold
            if name == 'turn':
                return name, 0.5 * hold + turn, 0.5 * hold - turn
            return name, 0.0, 0.0
        start = end
    return 'stop', 0.0, 0.0


def _wrench_msg(frame, force_base, rotation_wxyz):
    from geometry_msgs.msg import WrenchStamped
    from uwv_hydro.physics.spatial.rotation import quat_to_matrix
    msg = WrenchStamped()
    msg.header.frame_id = frame
    # express a base-frame force in the thruster frame: F = R^T F_b
    f = quat_to_matrix(rotation_wxyz).T @ np.asarray(force_base, float)
    msg.wrench.force.x, msg.wrench.force.y, msg.wrench.force.z = (float(v) for v in f)
    return msg


def run(args) -> int:
    """Run the demo; return the exit status."""
    from uwv_hydro.description.loader import load_vehicle_string
    from uwv_hydro.node.launch_commands.launch_command import expand_vehicle
    from uwv_hydro.physics.hydro.hydro_model import HydroModel

    check_steps(args.duration, 1.0 / args.rate_hz, '--duration', '1 / --rate-hz')
    urdf = expand_vehicle(args.vehicle)
    params = load_vehicle_string(urdf, args.vehicle)
    model = HydroModel(params)
    hold = surge_drag(model, args.speed)
    expected = terminal_speed(model, hold)
    thrusters = pick_thrusters(params)
    topics = ['thrust/' + name for name, _ in thrusters] or ['thrust']
    half_width = abs(thrusters[0][1] - thrusters[1][1]) / 2.0 if thrusters else 1.0
    turn = 0.25 * hold
    # the thrust goes out as body wrenches at these frames (thrust/<frame>), not through
    # thruster models: say so, as `check` lists the file's thruster models (maybe none)
    print('demo: vehicle %s (%s), hold thrust %.1f N -> expected terminal speed %.3f m/s; '
          'thrust as wrenches at %s' % (
              params.name, args.vehicle, hold, expected,
              ' and '.join('frame %s' % n for n, _ in thrusters) or 'the base frame'))

    domain = args.domain_id if args.domain_id is not None else 1 + os.getpid() % 100
    env = dict(os.environ, ROS_DOMAIN_ID=str(domain), ROS_AUTOMATIC_DISCOVERY_RANGE='LOCALHOST',
               PYTHONUNBUFFERED='1')
    with tempfile.TemporaryDirectory(prefix='uwv_hydro_demo_') as work:
        return _run_node(args, urdf, params, env, pathlib.Path(work), domain, topics,
                         thrusters, hold, turn, expected, half_width)


def _run_node(args, urdf, params, env, work, domain, topics, thrusters, hold, turn,
              expected, half_width) -> int:
    """Start the node, drive it, stop it, summarise; return the exit status."""
    import yaml
    from uwv_hydro.node.launch_commands.launch_command import build_command, stop_node
    demo_params = work / 'demo_params.yaml'
    demo_params.write_text(yaml.safe_dump({'/**': {'ros__parameters': {
        'thrust_topics': topics, 'initial_position': [0.0, 0.0, -float(args.depth)],
        'thrust_timeout': 0.5}}}))
    argv = build_command(urdf, mode='simulate', use_sim_time=False, rate_hz=args.rate_hz,
                         params_file=str(demo_params),
                         description_file=str(work / 'description.yaml'))
    log_path = pathlib.Path(args.log)
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, 'w') as log:
        proc = subprocess.Popen(argv, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        rows = _drive(proc, domain, topics, thrusters, params, hold, turn, args.duration)
    finally:
        stop_node(proc)
    failed = proc.returncode not in (0, -signal.SIGINT)
    if failed:
        print('demo: the node failed (exit %s); log %s:\n%s' % (
            proc.returncode, log_path, log_path.read_text()[-3000:]), file=sys.stderr)
        return 1
    if len(rows) < 2:
        print('demo: no odometry came from the node (log %s)' % log_path, file=sys.stderr)
        return 1
    _summarise(rows, expected, args, half_width)
    warnings = node_warnings(log_path.read_text(errors='replace'))
    if warnings:
        print('demo: the node logged %d warning%s or error%s (log %s); the first: %s' % (
            len(warnings), '' if len(warnings) == 1 else 's',
            '' if len(warnings) == 1 else 's', log_path, warnings[0]))
    return 0


def node_warnings(log_text: str):
    """Return the WARN, ERROR and FATAL lines of a node's log (rcutils' console format)."""
    return [line.strip() for line in log_text.splitlines()
            if re.match(r'\s*\[(WARN|ERROR|FATAL)\]', line)]


def _drive(proc, domain, topics, thrusters, params, hold, turn, duration):
    """Publish the thrust profile and record odometry; return the rows."""
    import rclpy
    from geometry_msgs.msg import WrenchStamped
    from nav_msgs.msg import Odometry
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.node import Node
    from uwv_hydro.physics.spatial.rotation import quat_to_rpy

    context = rclpy.Context()
    rclpy.init(context=context, domain_id=domain)
    rows = []
    try:
        node = Node('uwv_hydro_demo', context=context)
        executor = SingleThreadedExecutor(context=context)
        executor.add_node(node)
        pubs = [node.create_publisher(WrenchStamped, t, 10) for t in topics]
        state = {'phase': 'wait', 'port': 0.0, 'stbd': 0.0, 't0': None}

        def on_odometry(msg):
            if state['t0'] is None:
                return
            p, q, tw = msg.pose.pose.position, msg.pose.pose.orientation, msg.twist.twist
            yaw = quat_to_rpy([q.w, q.x, q.y, q.z])[2]
            rows.append((time.monotonic() - state['t0'], p.x, p.y, p.z, tw.linear.x,
                         tw.angular.z, yaw, state['port'] + state['stbd'],
                         state['port'] - state['stbd'], state['phase']))

        node.create_subscription(Odometry, 'odometry', on_odometry, 50)
        deadline = time.monotonic() + 60.0
        while node.count_publishers('odometry') == 0 or any(
                p.get_subscription_count() == 0 for p in pubs):
            if proc.poll() is not None or time.monotonic() > deadline:
                return rows
            executor.spin_once(timeout_sec=0.05)
        state['t0'] = t0 = time.monotonic()
        next_publish = t0
        while True:
            t = time.monotonic() - t0
            if t >= duration or proc.poll() is not None:
                break
            if time.monotonic() >= next_publish:
                phase, port, stbd = profile(t, duration, hold, turn)
                state.update(phase=phase, port=port, stbd=stbd)
                if thrusters:
                    for pub, (frame, _), share in zip(pubs, thrusters, (port, stbd)):
                        rot = params.frames[frame].rotation
                        pub.publish(_wrench_msg(frame, [share, 0.0, 0.0], rot))
                else:
                    msg = WrenchStamped()
                    msg.wrench.force.x = port + stbd
                    msg.wrench.torque.z = -(port - stbd)
                    pubs[0].publish(msg)
                next_publish += 0.05
            executor.spin_once(timeout_sec=0.01)
        executor.shutdown()
        node.destroy_node()
    finally:
        context.try_shutdown()
    return rows


def _summarise(rows, expected, args, half_width) -> None:
    t = np.array([r[0] for r in rows])
    xyz = np.array([r[1:4] for r in rows])
    u = np.array([r[4] for r in rows])
    r_yaw = np.array([r[5] for r in rows])
    phases = [r[9] for r in rows]
    steps = np.linalg.norm(np.diff(xyz, axis=0), axis=1)
    hold_idx = [i for i, p in enumerate(phases) if p == 'hold']
    hold_speed = u[hold_idx[-1]] if hold_idx else float('nan')
    depth = -xyz[:, 2]
    print('demo: %d odometry messages over %.1f s (%.1f Hz)' % (
        len(rows), t[-1] - t[0], (len(rows) - 1) / max(t[-1] - t[0], 1e-9)))
    print('demo: distance travelled %.2f m, net displacement %.2f m' % (
        float(np.sum(steps)), float(np.linalg.norm(xyz[-1] - xyz[0]))))
    print('demo: speed at the end of the hold %.3f m/s vs expected terminal %.3f m/s '
          '(%.1f%%); final speed %.3f m/s after the stop' % (
              hold_speed, expected, 100.0 * hold_speed / expected, u[-1]))
    print('demo: peak yaw rate %.3f rad/s in the turn; max depth change %.3f m' % (
        float(np.max(np.abs(r_yaw))), float(np.max(np.abs(depth - depth[0])))))
    _plot(rows, expected, args.plot)
    print('demo: plot written to %s' % args.plot)


def _plot(rows, expected, path) -> None:
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    t = np.array([r[0] for r in rows])
    x, y, z = (np.array([r[i] for r in rows]) for i in (1, 2, 3))
    fig, axes = plt.subplots(2, 2, figsize=(11, 8))
    ax = axes[0, 0]
    ax.plot(x, y)
    ax.plot(x[0], y[0], 'go', label='start')
    ax.plot(x[-1], y[-1], 'rs', label='end')
    ax.set_xlabel('x [m] (east)')
    ax.set_ylabel('y [m] (north)')
    ax.set_title('trajectory (odom)')
    ax.axis('equal')
    ax.legend()
    ax = axes[0, 1]
    ax.plot(t, [r[4] for r in rows], label='surge u')
    ax.axhline(expected, color='k', ls='--', label='expected terminal')
    ax.plot(t, [r[5] for r in rows], label='yaw rate r')
    ax.set_xlabel('t [s]')
    ax.set_title('body velocity [m/s, rad/s]')
    ax.legend()
    ax = axes[1, 0]
    ax.plot(t, -z)
    ax.invert_yaxis()
    ax.set_xlabel('t [s]')
    ax.set_ylabel('depth [m]')
    ax.set_title('depth')
    ax = axes[1, 1]
    ax.plot(t, [r[7] for r in rows], label='total surge thrust [N]')
    ax.plot(t, [r[8] for r in rows], label='port - starboard [N]')
    ax.set_xlabel('t [s]')
    ax.set_title('thrust profile')
    ax.legend()
    fig.tight_layout()
    pathlib.Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
