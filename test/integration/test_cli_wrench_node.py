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
``uwv-hydro wrench`` prints what the running node publishes (over real DDS, 1e-9).

The node's defaults (implicit added mass, weight not applied) against the command's
defaults; then ``added_mass: lagged`` + ``apply_weight`` against ``--added-mass lagged
--apply-weight --acceleration A`` with A the node's filtered estimate after two samples.
"""

import json

from nodes.harness import Probe, REPO, start_node
import numpy as np
import pytest

pytestmark = pytest.mark.ros

VEHICLE = str(REPO / 'urdf' / 'dsros_vehicle.urdf.xacro')
NU = [0.7, -0.2, 0.1, 0.05, -0.03, 0.2]
NU2 = [0.75, -0.18, 0.09, 0.06, -0.03, 0.18]
POSITION = [1.0, 2.0, -20.0]
Q = [0.95, 0.1, -0.2, 0.2]  # |q| != 1: the node and the command normalise it alike


def _odometry(nu, stamp_ns):
    from nav_msgs.msg import Odometry
    msg = Odometry()
    msg.header.frame_id = 'odom'
    msg.header.stamp.sec, msg.header.stamp.nanosec = divmod(int(stamp_ns), 10 ** 9)
    msg.child_frame_id = 'base_link'
    p, o, t = msg.pose.pose.position, msg.pose.pose.orientation, msg.twist.twist
    p.x, p.y, p.z = POSITION
    o.w, o.x, o.y, o.z = Q
    t.linear.x, t.linear.y, t.linear.z = nu[:3]
    t.angular.x, t.angular.y, t.angular.z = nu[3:]
    return msg


def _node_wrenches(rclpy_context, spawn, tmp_path, params, samples):
    """Publish the samples one by one; return the wrench the node published after each."""
    from geometry_msgs.msg import WrenchStamped
    from nav_msgs.msg import Odometry
    proc, log = start_node(spawn, tmp_path, dict(
        params, vehicle_file=VEHICLE, mode='wrench', rate_hz=50.0, odometry_timeout=600.0))
    probe = Probe(rclpy_context)
    body = probe.collect(WrenchStamped, 'hydro/wrench', keep=5)
    pub = probe.publisher(Odometry, 'odometry')
    assert probe.spin_until(lambda: pub.get_subscription_count() > 0, timeout=30.0,
                            proc=proc, log=log)
    out = []
    for nu, stamp in samples:
        before = len(out)
        pub.publish(_odometry(nu, stamp))
        # the node publishes the latest sample's wrench at its rate: wait for a new value
        last = None if not body else body[-1].wrench
        assert probe.spin_until(lambda: body and body[-1].wrench != last, timeout=30.0,
                                proc=proc, log=log), 'no wrench for sample %d' % before
        probe.spin_for(0.1)
        w = body[-1].wrench
        out.append([w.force.x, w.force.y, w.force.z, w.torque.x, w.torque.y, w.torque.z])
    probe.close()
    return out


def _cli(capsys, nu, *options):
    from uwv_hydro.cli.main import main
    argv = ['wrench', VEHICLE, '--velocity', *map(repr, nu), '--position',
            *map(repr, POSITION), '--orientation', *map(repr, Q), '--json', *options]
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)['total']


def test_wrench_command_defaults_print_the_node_s_default_output(
        rclpy_context, spawn, tmp_path, capsys):
    node = _node_wrenches(rclpy_context, spawn, tmp_path, {}, [(NU, 10 ** 9)])
    np.testing.assert_allclose(_cli(capsys, NU), node[-1], rtol=0, atol=1e-9)


def test_wrench_command_lagged_with_weight_prints_the_node_s_output(
        rclpy_context, spawn, tmp_path, capsys):
    alpha = 0.4
    node = _node_wrenches(rclpy_context, spawn, tmp_path, {
        'added_mass': 'lagged', 'apply_weight': True, 'acceleration_alpha': alpha},
        [(NU, 10 ** 9), (NU2, 10 ** 9 + 10 ** 8)])
    # dsros_hydro's filter after two samples 0.1 s apart: alpha (nu2 - nu1) / dt
    estimate = [alpha * (b - a) / 0.1 for a, b in zip(NU, NU2)]
    first = _cli(capsys, NU, '--added-mass', 'lagged', '--apply-weight')
    np.testing.assert_allclose(first, node[0], rtol=0, atol=1e-9)
    second = _cli(capsys, NU2, '--added-mass', 'lagged', '--apply-weight', '--acceleration',
                  *map(repr, estimate))
    np.testing.assert_allclose(second, node[1], rtol=0, atol=1e-9)
    assert np.max(np.abs(np.subtract(second, _cli(capsys, NU2, '--added-mass', 'lagged',
                                                  '--apply-weight')))) > 1e-3
