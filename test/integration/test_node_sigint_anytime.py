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
SIGINT at any moment of a node's life stops it cleanly (issue 51, item 12).

A HIL user stops the node many times a day, often while it is still starting
(imports, rclpy.init, the vehicle's set-up).  Each run starts hydro_node (simulate mode,
1 kHz wall-clock thread, the EventsExecutor where rclpy has it) with a driver
publishing thrust and a probe subscribed to its odometry, and sends SIGINT at a moment
drawn from [floor, STOP_SPAN_S) after the process started (stratified: run i in the
i-th slice of the span, so the import, set-up and running phases are all hit).  ``floor``
is the start-up before the program's first line, where no program of the package can
take a signal: the interpreter's own ``site`` (here the venv's .pth files) and the
console-script wrapper's entry-point look-up, measured by running just those in the
node's environment: three times the longest of three runs, as two nodes starting at
once on a loaded machine take longer than one alone (~0.1-0.3 s here).  Every stop
must exit 0 within STOP_TIMEOUT_S, and the output must hold no Python traceback, no
C++ ``terminate called`` and no segmentation fault.  Every second run gets another
SIGINT within SECOND_SIGINT_S of the first (Ctrl-C under ``ros2 launch``: the terminal
and launch each send one), which must not interrupt the stop.  Two runs overlap (the load makes
the races likelier), 16 in all, ~40 s.
"""
import random
import signal
import subprocess
import time

from nodes.harness import analytic_vehicle_urdf, Probe, read_log, start_node
import pytest

pytestmark = pytest.mark.ros

RUNS = 16
AT_ONCE = 2
#: Stops are drawn from [0, STOP_SPAN_S) after the spawn (start-up takes ~1-3 s here).
STOP_SPAN_S = 4.0
STOP_TIMEOUT_S = 15.0
#: The odd runs' second SIGINT comes within this long after the first (s).
SECOND_SIGINT_S = 0.5
#: What a clean stop never prints.
BAD_WORDS = ('Traceback', 'terminate called', 'Segmentation fault', 'KeyboardInterrupt',
             'core dumped', 'Aborted')


def _startup_floor(ros_env) -> float:
    """Return the time (s) an interpreter takes to reach the program's first line."""
    import sys
    code = ('from importlib.metadata import distribution; '
            'distribution("uwv-hydro").entry_points')
    spans = []
    for _ in range(3):
        t0 = time.monotonic()
        subprocess.run([sys.executable, '-c', code], env=ros_env, check=True)
        spans.append(time.monotonic() - t0)
    return 3.0 * max(spans)


def _failure(name, proc, log, at):
    try:
        code = proc.wait(timeout=STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return '%s (SIGINT at %.2f s): did not stop within %.0f s' % (name, at, STOP_TIMEOUT_S)
    text = read_log(log)
    bad = [line for line in text.splitlines() if any(w in line for w in BAD_WORDS)]
    if code != 0 or bad:
        return '%s (SIGINT at %.2f s): exit %s, %s' % (name, at, code, bad[:3])
    return None


def test_sigint_at_random_moments_exits_zero_without_traceback(spawn, tmp_path, ros_env,
                                                               rclpy_context):
    from geometry_msgs.msg import WrenchStamped
    from nav_msgs.msg import Odometry
    params = {'robot_description': analytic_vehicle_urdf(), 'mode': 'simulate',
              'rate_hz': 1000.0, 'loop': 'thread', 'initial_position': [0.0, 0.0, -10.0],
              'diagnostics_period': 0.05}
    probe = Probe(rclpy_context, name='sigint_probe')
    odom = probe.collect(Odometry, 'odometry', keep=10)
    driver = probe.publisher(WrenchStamped, 'thrust')
    thrust = WrenchStamped()
    thrust.header.frame_id = 'base_link'
    thrust.wrench.force.x = 20.0
    rng = random.Random(51)
    floor = _startup_floor(ros_env)
    moments = [floor + (i + rng.random()) * (STOP_SPAN_S - floor) / RUNS for i in range(RUNS)]
    rng.shuffle(moments)
    failures, received = [], 0
    try:
        for batch in range(RUNS // AT_ONCE):
            runs = []
            for i in range(AT_ONCE):
                k = batch * AT_ONCE + i
                proc, log = start_node(spawn, tmp_path, params, name='run%02d' % k)
                runs.append(('run%02d' % k, proc, log, time.monotonic() + moments[k],
                             moments[k]))
            # (when, process): odd runs get a second SIGINT while stopping, as Ctrl-C under
            # ros2 launch sends one from the terminal and one from launch
            pending = [(run[3], run[1]) for run in runs] + [
                (run[3] + SECOND_SIGINT_S * rng.random(), run[1])
                for k, run in enumerate(runs) if (batch * AT_ONCE + k) % 2]
            while pending:  # the driver publishes and the probe takes odometry meanwhile
                driver.publish(thrust)
                probe.executor.spin_once(timeout_sec=0.005)
                for when, proc in list(pending):
                    if time.monotonic() >= when:
                        if proc.poll() is None:
                            proc.send_signal(signal.SIGINT)
                        pending.remove((when, proc))
            received += len(odom)
            odom.clear()
            for name, proc, log, _, at in runs:
                failure = _failure(name, proc, log, at)
                if failure:
                    failures.append(failure)
    finally:
        probe.close()
    assert not failures, '%d of %d stops:\n%s' % (len(failures), RUNS, '\n'.join(failures))
    assert received > 0, 'no run published odometry before its stop (none reached running)'
