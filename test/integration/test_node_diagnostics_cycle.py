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
/diagnostics reports the update cycle's CPU and wall time (issue 15, 3).

The running node (both loops: its wall-clock thread and an executor timer) publishes
``cycle_cpu_p50_us``, ``cycle_cpu_p99_us``, ``cycle_wall_p50_us`` and
``cycle_wall_p99_us`` in its update-loop status.  Whatever the machine's load, they
must be positive, ordered (p50 <= p99), and a cycle's CPU time cannot exceed its wall
time (the CPU interval is read inside the wall interval), so neither can any of its
percentiles.  No speed is asserted here: ``make bench`` measures that.

With ``cycle_profile`` (issue 34) the status also carries ``profile.<stage>_p50_us`` /
``_p99_us`` / ``_max_us`` per stage (cycle_profile.py): finite, non-negative, ordered,
and every stage timed inside the cycle no longer than the whole cycle at the same
percentile (per cycle a part is at most the whole, hence per percentile over the same
cycles).  Without it, no ``profile.*`` field.
"""
from nodes.harness import analytic_vehicle_urdf, diag_values, Probe, start_node
import pytest

pytestmark = pytest.mark.ros

KEYS = ('cycle_cpu_p50_us', 'cycle_cpu_p99_us', 'cycle_wall_p50_us', 'cycle_wall_p99_us')


@pytest.mark.parametrize('loop', ['thread', 'timer'])
def test_cycle_cpu_and_wall_time_in_diagnostics(rclpy_context, spawn, tmp_path, loop):
    from diagnostic_msgs.msg import DiagnosticArray
    params = {'robot_description': analytic_vehicle_urdf(), 'mode': 'simulate',
              'rate_hz': 200.0, 'loop': loop, 'initial_position': [0.0, 0.0, -10.0],
              'publish_markers': False, 'diagnostics_period': 0.25}
    proc, log = start_node(spawn, tmp_path, params)
    probe = Probe(rclpy_context)
    diags = probe.collect(DiagnosticArray, '/diagnostics')

    def windows():
        return [v for v in (diag_values(m, 'update loop') for m in diags) if KEYS[0] in v]
    try:
        assert probe.spin_until(lambda: len(windows()) >= 3, timeout=60.0, proc=proc, log=log)
    finally:
        probe.close()
    for values in windows():
        cpu50, cpu99, wall50, wall99 = (float(values[k]) for k in KEYS)
        assert 0.0 < cpu50 <= cpu99, values
        assert 0.0 < wall50 <= wall99, values
        # per cycle CPU <= wall, hence per percentile (1 us: the clocks' rounding)
        assert cpu50 <= wall50 + 1.0 and cpu99 <= wall99 + 1.0, values
        assert float(values['rate_hz']) > 0.0, values
        assert not any(k.startswith('profile.') for k in values), 'profile off by default'


#: Stages timed inside the cycle (cycle = first line to the end of the update).
INSIDE = ('lock_wait', 'inputs', 'update')
#: Every stage the thread loop with odometry and TF reports.
STAGES = ('wake_late', 'sleep_overshoot', 'cycle', 'publish_odometry', 'publish_tf') + INSIDE


@pytest.mark.parametrize('loop', ['thread', 'timer'])
def test_cycle_profile_stages_in_diagnostics(rclpy_context, spawn, tmp_path, loop):
    import math
    from diagnostic_msgs.msg import DiagnosticArray
    stages = STAGES
    params = {'robot_description': analytic_vehicle_urdf(), 'mode': 'simulate',
              'rate_hz': 200.0, 'loop': loop, 'cycle_profile': True,
              'initial_position': [0.0, 0.0, -10.0], 'publish_markers': False,
              'diagnostics_period': 0.25}
    proc, log = start_node(spawn, tmp_path, params)
    probe = Probe(rclpy_context)
    diags = probe.collect(DiagnosticArray, '/diagnostics')

    def windows():
        return [v for v in (diag_values(m, 'update loop') for m in diags)
                if 'profile.cycle_p50_us' in v]
    try:
        assert probe.spin_until(lambda: len(windows()) >= 3, timeout=60.0, proc=proc, log=log)
    finally:
        probe.close()
    for values in windows():
        got = {}
        for stage in stages:
            p50, p99, top = (float(values['profile.%s_%s_us' % (stage, q)])
                             for q in ('p50', 'p99', 'max'))
            assert all(math.isfinite(v) for v in (p50, p99, top)), (stage, values)
            assert p50 <= p99 <= top, (stage, values)
            got[stage] = (p50, p99, top)
        for stage in set(stages) - {'sleep_overshoot'}:
            assert got[stage][0] >= 0.0, (stage, values)
        for stage in INSIDE:
            for k in range(3):
                assert got[stage][k] <= got['cycle'][k], (stage, values)
        assert int(values['profile.cycles']) > 0, values
        sections = [k for k in values if k.startswith('profile.late_wakes_during_')]
        assert len(sections) == 4, values
        assert sum(int(values[k]) for k in sections) == int(values['profile.late_wakes'])
        after = [k for k in values if k.startswith('profile.late_wakes_after_')]
        assert sum(int(values[k]) for k in after) == int(values['profile.late_wakes'])
        assert float(values['profile.switch_interval_us']) > 0.0, values
