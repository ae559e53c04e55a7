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
Shutdown never publishes after the context is gone (issue 17, item 3).

The node runs its 1 kHz update on a wall-clock thread; SIGINT (what ``ros2 launch``
sends) must stop that thread before the rclpy context shuts down, otherwise an update
racing the shutdown logs "update failed (RCLError: ... context is invalid)".  20 runs,
four at a time (the load makes the race likelier), each stopped with
:func:`uwv_hydro.node.launch_commands.launch_command.stop_node` once it is updating.
"""
import time

from nodes.harness import analytic_vehicle_urdf, read_log, start_node
import pytest

pytestmark = pytest.mark.ros

RUNS = 20
AT_ONCE = 4
#: Words of a log line that must not appear during a clean shutdown.
BAD_WORDS = ('error', 'Error', 'ERROR', 'Traceback', 'exception', 'invalid')


def _wait_started(procs, timeout=60.0):
    deadline = time.monotonic() + timeout
    pending = dict(procs)
    while pending and time.monotonic() < deadline:
        for key, (proc, log) in list(pending.items()):
            if proc.poll() is not None:
                raise AssertionError('node %s exited with %s:\n%s'
                                     % (key, proc.returncode, read_log(log)))
            if 'paced by' in read_log(log):  # the start-up line, after the loop started
                del pending[key]
        time.sleep(0.05)
    assert not pending, 'nodes %s did not start' % sorted(pending)


def test_sigint_at_1khz_never_publishes_after_shutdown(spawn, tmp_path):
    from uwv_hydro.node.launch_commands.launch_command import stop_node
    params = {'robot_description': analytic_vehicle_urdf(), 'mode': 'simulate',
              'rate_hz': 1000.0, 'loop': 'thread', 'initial_position': [0.0, 0.0, -10.0],
              'publish_components': True, 'diagnostics_period': 0.05}
    failures = []
    for batch in range(RUNS // AT_ONCE):
        procs = {}
        for i in range(AT_ONCE):
            name = 'run%02d' % (batch * AT_ONCE + i)
            procs[name] = start_node(spawn, tmp_path, params, name=name)
        _wait_started(procs)
        time.sleep(0.3)  # a few hundred updates
        for name, (proc, log) in procs.items():
            code = stop_node(proc, timeout=10.0)
            text = read_log(log)
            bad = [line for line in text.splitlines()
                   if any(word in line for word in BAD_WORDS)]
            if code != 0 or bad:
                failures.append('%s: exit %s, %s' % (name, code, bad[:3]))
    assert not failures, '%d of %d runs:\n%s' % (len(failures), RUNS, '\n'.join(failures))
