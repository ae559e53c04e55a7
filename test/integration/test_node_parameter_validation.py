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
Parameters cannot poison the node's state (issue 17, item 3).

Every parameter holding numbers is checked (finite, range, length) at start-up and,
for the runtime-settable ones, on every change: a bad value is refused with a reason
naming the parameter in SetParametersResult and the state is unchanged.  Before, a
``current`` of [nan, 0, 0] froze the simulation (100 restores a second) and an
``initial_velocity`` of [inf, ...] followed by ``~/reset`` published an infinite twist
forever, with that state kept as the "last good" one.
"""
import math
import subprocess

from required_modules import require  # noqa: I100

require('rcl_interfaces')

from nodes.harness import (analytic_vehicle_urdf, diag_values, node_command,  # noqa: E402, I100
                           Probe, start_node, write_params)
import pytest  # noqa: E402

from uwv_hydro.node.parameters import check, SPECS  # noqa: E402

NAN = float('nan')
INF = float('inf')


def _numeric(spec):
    """Return 'scalar', 'array' or None for the numbers a parameter holds."""
    default = spec.default
    if isinstance(default, float) or (default is None and spec.bounds is not None):
        return 'scalar'
    if isinstance(default, list) and default and all(isinstance(v, float) for v in default):
        return 'array'
    return None


NUMERIC = sorted(name for name, spec in SPECS.items() if _numeric(spec))


def test_every_numeric_parameter_refuses_nan_and_inf():
    assert {'current', 'initial_velocity', 'initial_position', 'initial_orientation_rpy',
            'thrust_timeout', 'odometry_timeout'} <= set(NUMERIC)
    for name in NUMERIC:
        spec = SPECS[name]
        for bad in (NAN, INF, -INF):
            if _numeric(spec) == 'scalar':
                value = bad
            else:
                value = list(spec.default)
                value[-1] = bad
            problems = check({name: value})
            assert problems and all(name in p for p in problems), (name, value, problems)
            assert any('finite' in p for p in problems), problems
        good = spec.default if spec.default is not None else 0.5
        assert check({name: good}) == [], (name, check({name: good}))


def test_ranges_lengths_and_the_acceleration_alpha_interval():
    def reasons(**values):
        return '; '.join(check(values))

    assert 'acceleration_alpha' in reasons(acceleration_alpha=0.0)  # (0, 1]
    assert 'acceleration_alpha' in reasons(acceleration_alpha=-0.1)
    assert 'acceleration_alpha' in reasons(acceleration_alpha=1.5)
    assert reasons(acceleration_alpha=1.0) == '' and reasons(acceleration_alpha=1e-3) == ''
    assert 'current' in reasons(current=[0.0, 0.0])
    assert 'current[0]' in reasons(current=[1e3, 0.0, 0.0])  # no 1 km/s current
    assert 'initial_velocity' in reasons(initial_velocity=[0.0] * 5)
    assert 'pose_covariance_diagonal[2]' in reasons(
        pose_covariance_diagonal=[1e-6, 1e-6, -1.0, 1e-6, 1e-6, 1e-6])  # a variance
    assert reasons(current=[0.5, -0.3, 0.1], initial_velocity=[1.0, 0, 0, 0, 0, 0.5]) == ''


def _run(tmp_path, ros_env, params):
    params_file = write_params(tmp_path / 'params.yaml', params)
    return subprocess.run(node_command(params_file), env=ros_env, capture_output=True,
                          text=True, timeout=30.0)


@pytest.mark.ros
@pytest.mark.parametrize('name,value,mode', [
    ('current', [NAN, 0.0, 0.0], 'simulate'),
    ('initial_velocity', [0.0, 0.0, 0.0, INF, 0.0, 0.0], 'simulate'),
    ('initial_position', [0.0, -INF, 0.0], 'simulate'),
    ('acceleration_alpha', 0.0, 'wrench'),
])
def test_a_bad_start_up_value_is_a_clear_start_up_error(tmp_path, ros_env, name, value, mode):
    result = _run(tmp_path, ros_env, {'robot_description': analytic_vehicle_urdf(),
                                      'mode': mode, name: value})
    assert result.returncode == 1, (result.returncode, result.stderr[-2000:])
    assert 'invalid parameters' in result.stderr and name in result.stderr, result.stderr
    assert 'Traceback' not in result.stderr


@pytest.mark.ros
def test_bad_runtime_values_are_refused_and_reset_keeps_a_finite_state(
        rclpy_context, spawn, tmp_path):
    from diagnostic_msgs.msg import DiagnosticArray
    from nav_msgs.msg import Odometry
    initial = {'initial_position': [0.0, 0.0, -10.0],
               'initial_velocity': [0.5, 0.0, 0.0, 0.0, 0.0, 0.0],
               'initial_orientation_rpy': [0.0, 0.0, 0.3], 'current': [0.0, 0.0, 0.0]}
    proc, log = start_node(spawn, tmp_path, dict(
        initial, robot_description=analytic_vehicle_urdf(), mode='simulate', rate_hz=100.0,
        diagnostics_period=0.2))
    probe = Probe(rclpy_context)
    odom = probe.collect(Odometry, 'odometry')
    diags = probe.collect(DiagnosticArray, '/diagnostics', keep=3)
    assert probe.spin_until(lambda: len(odom) > 20, timeout=60.0, proc=proc, log=log)
    bad_values = [('current', [NAN, 0.0, 0.0]), ('current', [0.0, INF, 0.0]),
                  ('current', [300.0, 0.0, 0.0]),
                  ('initial_velocity', [INF, 0.0, 0.0, 0.0, 0.0, 0.0]),
                  ('initial_position', [0.0, 0.0, NAN]),
                  ('initial_orientation_rpy', [0.0, -INF, 0.0])]
    for name, value in bad_values:
        result, = probe.set_parameters('uwv_hydro', {name: value}, proc=proc, log=log)
        assert not result.successful, 'accepted %s = %s' % (name, value)
        assert name in result.reason, result.reason
    kept = probe.get_parameters('uwv_hydro', list(initial), proc=proc, log=log)
    assert kept == initial
    probe.spin_for(0.5)
    assert all(math.isfinite(m.twist.twist.linear.x) and math.isfinite(m.pose.pose.position.z)
               for m in odom)
    # reset: back to the (finite) initial state, not to anything refused
    del odom[:]
    response = probe.trigger('uwv_hydro/reset', proc=proc, log=log)
    assert response.success
    assert probe.spin_until(lambda: len(odom) > 30, timeout=30.0, proc=proc, log=log)
    values = [(m.pose.pose.position.x, m.pose.pose.position.z, m.twist.twist.linear.x)
              for m in odom]
    assert all(math.isfinite(v) for row in values for v in row)
    first = next(row for row in values if abs(row[0]) < 0.01)  # the re-initialised state
    assert first[1] == pytest.approx(-10.0, abs=1e-3) and first[2] == pytest.approx(0.5, 0.05)
    assert probe.spin_until(lambda: diags, timeout=10.0, proc=proc, log=log)
    loop = diag_values(diags[-1], 'update loop')
    assert int(loop['state_restores']) == 0 and int(loop['divergences']) == 0, loop
    probe.close()
