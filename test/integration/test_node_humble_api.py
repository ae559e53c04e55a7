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
hydro_node on the rclpy API of Humble, and without the optional uuv message package.

Only Kilted's rclpy (9.1.2) runs here, so "Humble" is Kilted's rclpy with what Humble's
rclpy (3.3.x, ros2/rclpy humble branch) does not have made unimportable in the node's
process (test/helpers/hide_modules/sitecustomize.py): ``rclpy.experimental`` (the
EventsExecutor) and ``rclpy.parameter_client``.  What still differs from a real Humble:
the C extension, rcl/rmw and Fast DDS are Kilted's (Humble has Fast DDS 2.6); Humble's
executors call every subscription callback with the message only (Kilted also passes
MessageInfo to a callback taking two arguments: the node has none, so this path is the
same); ``rclpy.clock_type`` cannot be hidden (Kilted's rclpy.clock imports it; the node
and tests import ClockType from rclpy.clock, which both have); Kilted's timers take
``autostart`` and its Python is 3.11 here (Humble's is 3.10); the test's own probe runs
on Kilted's rclpy, unhidden (the harness takes Humble's ways where they differ:
the parameter services instead of AsyncParameterClient, count_publishers instead of
Subscription.get_publisher_count).  Each node is real, over
DDS: it must start, publish odometry, report the executor it chose in its start-up log
and in /diagnostics, and stop on SIGINT with exit 0 and no traceback.
"""
import os
import pathlib
import signal
import subprocess
import sys

from nodes.harness import (analytic_vehicle_urdf, diag_values, node_command, Probe,
                           read_log, write_params)
import pytest

pytestmark = pytest.mark.ros

HIDE = pathlib.Path(__file__).resolve().parents[1] / 'helpers' / 'hide_modules'
#: What Humble's rclpy lacks of what the node (and the tests' harness) could import.
HUMBLE_MISSING = 'rclpy.experimental,rclpy.parameter_client'
BAD_WORDS = ('Traceback', 'terminate called', 'Segmentation fault', 'ERROR', 'error')


def _env(ros_env, hidden: str) -> dict:
    env = dict(ros_env)
    env['PYTHONPATH'] = os.pathsep.join([str(HIDE), env.get('PYTHONPATH', '')])
    env['UWV_HIDE_MODULES'] = hidden
    return env


def _start(spawn, tmp_path, env, params, name):
    log = tmp_path / ('%s.log' % name)
    with open(log, 'w') as out:
        proc = spawn(node_command(write_params(tmp_path / ('%s.yaml' % name), params)),
                     env=env, stdout=out, stderr=out)
    return proc, log


def _stop(proc, log) -> str:
    proc.send_signal(signal.SIGINT)
    try:
        code = proc.wait(timeout=20.0)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError('no stop within 20 s:\n%s' % read_log(log))
    text = read_log(log)
    bad = [line for line in text.splitlines() if any(w in line for w in BAD_WORDS)]
    assert code == 0 and not bad, 'exit %s, %s:\n%s' % (code, bad, text)
    return text


def _run_and_report(spawn, tmp_path, rclpy_context, env, params, name):
    """Start a node, wait for odometry and its /diagnostics; return (diag, log text)."""
    from diagnostic_msgs.msg import DiagnosticArray
    from nav_msgs.msg import Odometry
    proc, log = _start(spawn, tmp_path, env, params, name)
    probe = Probe(rclpy_context, name='probe_' + name)
    try:
        odom = probe.collect(Odometry, 'odometry', keep=5)
        diags = probe.collect(DiagnosticArray, '/diagnostics', keep=5)
        loop = {}

        def reported():
            for msg in diags:
                loop.update(diag_values(msg, 'update loop'))
            return bool(odom) and 'executor' in loop
        assert probe.spin_until(reported, timeout=60.0, proc=proc, log=log), read_log(log)
    finally:
        probe.close()
    return loop, _stop(proc, log), diags


def _params(**extra):
    params = {'robot_description': analytic_vehicle_urdf(), 'mode': 'simulate',
              'rate_hz': 200.0, 'loop': 'thread', 'initial_position': [0.0, 0.0, -10.0],
              'diagnostics_period': 0.2}
    params.update(extra)
    return params


def test_the_hook_hides_what_humble_lacks(ros_env):
    """The environment of these tests really lacks rclpy.experimental (or they prove nothing)."""
    env = _env(ros_env, HUMBLE_MISSING)
    code = 'import rclpy.experimental'
    run = subprocess.run([sys.executable, '-c', code], env=env, capture_output=True, text=True)
    assert run.returncode != 0 and 'hidden by UWV_HIDE_MODULES' in run.stderr, run.stderr
    assert subprocess.run([sys.executable, '-c', code], env=_env(ros_env, ''),
                          capture_output=True).returncode == 0


@pytest.mark.parametrize('hidden, requested, chosen', [
    (HUMBLE_MISSING, 'auto', 'single_threaded'),       # Humble: no EventsExecutor
    ('', 'auto', 'events'),                            # Kilted (and Jazzy from 7.1.4)
    ('', 'single_threaded', 'single_threaded'),        # chosen by hand on Kilted
])
def test_node_runs_on_the_executor_rclpy_has(spawn, tmp_path, ros_env, rclpy_context,
                                             hidden, requested, chosen):
    env = _env(ros_env, hidden)
    loop, text, _ = _run_and_report(spawn, tmp_path, rclpy_context, env,
                                    _params(executor=requested), 'node')
    assert loop['executor'] == chosen, loop
    assert 'callbacks on the %s executor' % chosen in text, text
    if hidden:
        assert 'no EventsExecutor' in loop['executor_reason'], loop


def test_events_requested_where_rclpy_has_none_is_a_clear_error(spawn, tmp_path, ros_env):
    proc, log = _start(spawn, tmp_path, _env(ros_env, HUMBLE_MISSING),
                       _params(executor='events'), 'events')
    assert proc.wait(timeout=60.0) == 1
    text = read_log(log)
    assert 'executor: events' in text and 'rclpy.experimental' in text, text
    assert 'Traceback' not in text, text


def test_without_uuv_messages_the_rpt_sensor_is_named_unpublished(spawn, tmp_path, ros_env,
                                                                  rclpy_context):
    from test_rpt import uuv_robot
    env = _env(ros_env, HUMBLE_MISSING + ',uuv_sensor_ros_plugins_msgs')
    params = _params(robot_description=uuv_robot())
    del params['initial_position']
    loop, text, diags = _run_and_report(spawn, tmp_path, rclpy_context, env, params, 'rpt')
    warning = [line for line in text.splitlines() if 'NOT published' in line]
    assert warning and 'rpt' in warning[0] and 'uuv_sensor_ros_plugins_msgs' in warning[0], text
    assert 'uuv_sensor_ros_plugins_msgs' in loop['unavailable_outputs'], loop
    sensor = {}
    for msg in diags:
        sensor.update(diag_values(msg, 'sensor rpt'))
    assert sensor.get('state') == 'unavailable', sensor
