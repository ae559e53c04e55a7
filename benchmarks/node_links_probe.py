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
The node with a 10-link vehicle against the same vehicle rigid (``--only node_links``).

:func:`write_vehicles` writes wrench_bench.py's ``ten_link_vehicle()`` as a YAML vehicle file with
``links:`` / ``joints:`` (doc/reference/link_tree.md; the top-level rigid body left out:
the links' lumped at zero joint positions) and the rigid vehicle of the same numbers (that
file's top-level keys alone: what a consumer without the tree reads).  The node loads
either through ``vehicle_file``.

:func:`measure_wrench` runs the node in wrench mode (``publish_on: timer``, lagged added
mass, the weight applied) at ``rate_hz`` and feeds it from this process, over DDS, with
odometry and joint_states (the 10-link vehicle's, to either vehicle: the same feeder) at
the same rate from a paced thread.  Wrench
mode evaluates each odometry message in its subscription callback and the update cycle
publishes the latest result (wrench_io.py), so the evaluation is not in the cycle figures
of /diagnostics: the node process's CPU time over the interval (``/proc/<pid>/stat``,
every thread) per odometry message received carries it.  Figures: the cycle's CPU and
wall p50/p99 (/diagnostics, median over the windows), overruns, the achieved
``hydro/wrench`` rate at this process, the process CPU per odometry message and its
share of one core.

With ``link_listeners`` the probe subscribes to every link topic (the node publishes
those only while they have a subscriber): ``link_topic_rate_hz`` is the rate received per
link.

Simulate mode is node_probe.measure_node with ``vehicle_file`` (its cycle holds the step).
"""

import pathlib
import subprocess
import threading
import time

import numpy as np
from probe_common import cycle_figures, probe_domain, process_cpu_s
import yaml

#: The node's parameters of every node_links run (besides vehicle_file).
BASE_PARAMS = {'initial_position': [0.0, 0.0, -10.0], 'publish_markers': False}
#: Wrench mode's: the latest wrench at rate_hz, the link mode's lagged added mass, weight.
WRENCH_PARAMS = {'publish_on': 'timer', 'added_mass': 'lagged', 'apply_weight': True,
                 'accept_any_odometry_frames': True}


def write_vehicles(params, folder):
    """Write ``params`` (with a tree) as links.yaml and rigid.yaml in ``folder``; return both."""
    from uwv_hydro.description.loader import load_vehicle
    from uwv_hydro.description.yaml.export import export_yaml, write_yaml
    folder = pathlib.Path(folder)
    links = folder / 'links.yaml'
    doc = yaml.safe_load(export_yaml(params))
    vehicle = doc['uwv_hydro']['ros__parameters']['vehicle']
    for key in ('mass', 'com', 'inertia'):  # the links' lumped at zero joint positions
        vehicle.pop(key, None)
    links.write_text(yaml.safe_dump(doc))
    loaded = load_vehicle(str(links))
    assert loaded.tree is not None and len(loaded.tree.link_names()) == 10, 'not 10 links'
    loaded.tree = None
    rigid = folder / 'rigid.yaml'
    write_yaml(loaded, rigid)
    return str(links), str(rigid)


def params_file(folder, name, vehicle_file, extra):
    """Write a node params YAML (BASE_PARAMS, vehicle_file, ``extra``); return its path."""
    values = dict(BASE_PARAMS, vehicle_file=vehicle_file, **extra)
    path = pathlib.Path(folder) / name
    path.write_text(yaml.safe_dump({'/**': {'ros__parameters': values}}))
    return str(path)


def measure_wrench(vehicle_file, folder, rate_hz=1000.0, duration=10.0, link_listeners=False,
                   feed_joints=None):
    """
    Return the figures of the node in wrench mode on ``vehicle_file`` (see module doc).

    With ``link_listeners`` this process also subscribes to every hydro/links/<link>/wrench
    (the node publishes a link topic only while someone listens) and reports their rate.
    ``feed_joints``: the joint names whose joint_states this process publishes (default:
    the vehicle's), so that a rigid vehicle's run has the same feeder as the links'.
    """
    import rclpy
    from diagnostic_msgs.msg import DiagnosticArray
    from geometry_msgs.msg import WrenchStamped
    from nav_msgs.msg import Odometry
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.node import Node
    from sensor_msgs.msg import JointState
    from uwv_hydro.description.loader import load_vehicle
    from uwv_hydro.node.launch_commands.launch_command import build_command, stop_node
    from uwv_hydro.node.rate_loop import RateLoop

    from uwv_hydro.modes.link_wrench_mode import LinkWrenchMode
    from uwv_hydro.node.link_wrench_io import topic_token
    params = load_vehicle(vehicle_file)
    joints = [] if params.tree is None else params.tree.joint_names()
    if feed_joints is not None:
        joints = list(feed_joints)
    link_names = (LinkWrenchMode(params).link_names
                  if link_listeners and params.tree is not None else [])
    domain, env = probe_domain()
    argv = build_command('', mode='wrench', rate_hz=rate_hz,
                         params_file=params_file(folder, 'wrench.yaml', vehicle_file,
                                                 WRENCH_PARAMS),
                         description_file=str(pathlib.Path(folder) / 'd.yaml'))
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    context = rclpy.Context()
    rclpy.init(context=context, domain_id=domain)
    arrivals, diags = [], []
    feed = None
    try:
        node = Node('uwv_bench_links_probe', context=context)
        node.create_subscription(WrenchStamped, 'hydro/wrench',
                                 lambda msg: arrivals.append(time.perf_counter()), 1000)
        node.create_subscription(DiagnosticArray, '/diagnostics', diags.append, 10)
        link_count = [0]

        def on_link(msg):
            link_count[0] += 1

        for link in link_names:
            node.create_subscription(WrenchStamped, 'hydro/links/%s/wrench' % topic_token(link),
                                     on_link, 1000)
        odom_pub = node.create_publisher(Odometry, 'odometry', 10)
        joint_pub = node.create_publisher(JointState, 'joint_states', 10)
        odom = Odometry()
        odom.header.frame_id = 'odom'
        odom.pose.pose.position.z = -10.0
        odom.pose.pose.orientation.w = 1.0
        joint = JointState()
        joint.name = joints
        sent = [0]

        def publish():
            # a moving state: surge and yaw rate, every joint swinging
            t = time.monotonic()
            stamp = node.get_clock().now().to_msg()
            odom.header.stamp = stamp
            odom.twist.twist.linear.x = 1.0 + 0.1 * np.sin(t)
            odom.twist.twist.angular.z = 0.2 * np.cos(t)
            if joints:
                phase = t + np.arange(len(joints))
                joint.header.stamp = stamp
                joint.position = (0.3 * np.sin(phase)).tolist()
                joint.velocity = (0.3 * np.cos(phase)).tolist()
                joint_pub.publish(joint)
            odom_pub.publish(odom)
            sent[0] += 1

        executor = SingleThreadedExecutor(context=context)
        executor.add_node(node)
        spinner = threading.Thread(target=executor.spin, daemon=True)
        spinner.start()
        feed = RateLoop(1.0 / rate_hz, publish)
        feed.start()
        deadline = time.monotonic() + 60.0
        while not arrivals and time.monotonic() < deadline:
            time.sleep(0.05)
        if not arrivals:
            raise RuntimeError('the node published no hydro/wrench within 60 s')
        time.sleep(1.0)
        del arrivals[:]
        del diags[:]
        cpu0, wall0, sent0 = process_cpu_s(proc.pid), time.monotonic(), sent[0]
        links0 = link_count[0]
        time.sleep(duration)
        cpu1, wall1, sent1 = process_cpu_s(proc.pid), time.monotonic(), sent[0]
        links1 = link_count[0]
        got = list(arrivals)
        time.sleep(1.5)  # one more diagnostics report
        feed.stop()
        feed = None
        executor.shutdown(timeout_sec=1.0)
    finally:
        if feed is not None:
            feed.stop()
        stop_node(proc)
        context.try_shutdown()
    cycle, windows = cycle_figures(diags)
    loop = windows[-1] if windows else {}
    out = dict(cycle)
    out.update(overruns=float(loop.get('overruns', 'nan')),
               overruns_measured=sum(int(w.get('overruns_recent', 0)) for w in windows),
               rate_hz=(len(got) - 1) / (got[-1] - got[0]) if len(got) > 1 else float('nan'),
               odometry_sent_hz=(sent1 - sent0) / (wall1 - wall0),
               process_cpu_share=(cpu1 - cpu0) / (wall1 - wall0),
               process_cpu_per_odometry_us=(cpu1 - cpu0) / max(sent1 - sent0, 1) * 1e6,
               joints_fed=len(joints))
    if link_names:
        out['link_topic_rate_hz'] = (links1 - links0) / len(link_names) / (wall1 - wall0)
    return out
