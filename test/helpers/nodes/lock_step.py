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
Run the node under /clock in lock step with a driver process; return its trajectory.

Shared by the tests that compare a stack's message types with the equivalent Float64
commands (test_node_ardusub.py, test_node_ros2_control.py): the node runs in its own
namespace (its /clock remapped there) so concurrent runs on one domain stay apart.
"""
import os

from nodes.harness import diag_values, node_command, odometry_rows, Probe, REPO, write_params

PERIOD_NS = 10 ** 7  # rate_hz 100
T0_NS = 50 * 10 ** 9


def _stamp(msg):
    return msg.header.stamp.sec * 10 ** 9 + msg.header.stamp.nanosec


def run(spawn, rclpy_context, tmp_path, python, name, params, items, inputs, ticks,
        collect=()):
    """
    Start the node with ``params`` and a stack_publisher of ``items``; tick ``ticks`` times.

    ``inputs`` are the node inputs (as named in /diagnostics) that must count a message
    before the clock starts; ``collect`` is [(key, msg type, topic)] to gather too
    (``~/`` in a topic or an item's topic is the node's namespace).
    Returns (states (ticks x 13): position, quaternion wxyz, twist; {key: messages};
    the last /diagnostics).
    """
    from builtin_interfaces.msg import Time
    from diagnostic_msgs.msg import DiagnosticArray
    from nav_msgs.msg import Odometry
    from rosgraph_msgs.msg import Clock
    from uwv_hydro.node.launch_commands.launch_command import stop_node
    ns = '/%s_%d' % (name, os.getpid())
    params_file = write_params(tmp_path / ('%s_params.yaml' % name),
                               dict(params, use_sim_time=True, rate_hz=100.0,
                                    publish_markers=False))
    log = tmp_path / ('%s.log' % name)
    with open(log, 'w') as out:
        proc = spawn(node_command(params_file, ns, ['-r', '/clock:=%s/clock' % ns]),
                     stdout=out, stderr=out)
    probe = Probe(rclpy_context, name='probe_' + name)
    odom = probe.collect(Odometry, ns + '/odometry')
    diags = probe.collect(DiagnosticArray, '/diagnostics', keep=5)
    extras = {key: probe.collect(msg_type, topic.replace('~/', ns + '/'))
              for key, msg_type, topic in collect}
    clock_pub = probe.publisher(Clock, ns + '/clock')

    def tick(t):
        clock_pub.publish(Clock(clock=Time(sec=t // 10 ** 9, nanosec=t % 10 ** 9)))

    assert probe.spin_until(lambda: probe.node.count_subscribers(ns + '/clock') > 0,
                            timeout=60.0, proc=proc, log=log), 'node did not start'
    items = [item.replace('@~/', '@%s/' % ns) for item in items]
    driver = spawn([python, str(REPO / 'test' / 'helpers' / 'nodes' / 'stack_publisher.py'), '500']
                   + items)
    try:
        assert driver.stdout.readline().strip() == 'ready'
        assert probe.spin_until(lambda: odom, timeout=30.0, proc=proc, log=log,
                                action=lambda: tick(T0_NS), period=0.05)

        def received():
            mine = [d for d in diags if any(ns in s.name for s in d.status)]
            return mine and all(
                int(diag_values(mine[-1], 'input ' + i.replace('~/', ns + '/')).get(
                    'count', 0)) > 0 for i in inputs)
        assert probe.spin_until(received, timeout=30.0, proc=proc, log=log), \
            'no input counted'
        for k in range(1, ticks + 1):
            t = T0_NS + k * PERIOD_NS
            assert probe.spin_until(lambda: odom and _stamp(odom[-1]) == t, timeout=10.0,
                                    proc=proc, log=log, action=lambda: tick(t)), \
                'no odometry for tick %d' % k
        probe.spin_for(0.1)
        states = odometry_rows(m for m in odom if _stamp(m) > T0_NS)
        mine = [d for d in diags if any(ns in s.name for s in d.status)]
        return states, extras, (mine[-1] if mine else None)
    finally:
        probe.close()
        stop_node(proc, timeout=5)
        driver.kill()
        driver.wait()
