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
Bag replay with /clock, looped: wrench mode follows the bag's time and survives the loop.

A bag of odometry is written by ``uwv-hydro simulate``, then played twice (as
``ros2 bag play --clock --loop`` would) into a wrench-mode node with use_sim_time.
Every wrench must be the core model's wrench of one of the bag's odometry messages,
stamped with a bag time; the loop (clock going back 1 s) must be reported as a clock
reset, with the node alive.
"""
import subprocess
import sys
import threading

from bag_player import BagPlayer
from nodes.harness import analytic_vehicle_urdf, diag_values, Probe, start_node
import numpy as np
import pytest

pytestmark = pytest.mark.ros


def _array(w):
    return np.array([w.force.x, w.force.y, w.force.z, w.torque.x, w.torque.y, w.torque.z])


@pytest.fixture
def odometry_bag(tmp_path, ros_env):
    vehicle = tmp_path / 'vehicle.urdf'
    vehicle.write_text(analytic_vehicle_urdf())
    bag = tmp_path / 'odometry.mcap'
    subprocess.run([sys.executable, '-m', 'uwv_hydro', 'simulate', str(vehicle),
                    '--duration', '1.0', '--dt', '0.01', '--thrust', '50', '0', '0', '0',
                    '0', '1', '--initial-position', '0', '0', '-10', '--out', str(bag)],
                   check=True, capture_output=True, env=ros_env, timeout=120)
    return vehicle, bag


def test_looping_bag_with_clock_drives_wrench_mode(
        rclpy_context, spawn, tmp_path, odometry_bag):
    from diagnostic_msgs.msg import DiagnosticArray
    from geometry_msgs.msg import WrenchStamped
    from rosbags.rosbag2 import Reader
    from rosbags.typesys import get_typestore, Stores
    from uwv_hydro.description.loader import load_vehicle
    from uwv_hydro.physics.hydro.hydro_model import HydroModel
    vehicle, bag = odometry_bag
    model = HydroModel(load_vehicle(str(vehicle)))
    store = get_typestore(Stores.ROS2_KILTED)
    expected = []
    with Reader(bag) as reader:
        conns = [c for c in reader.connections if c.topic == '/odometry']
        for conn, _, raw in reader.messages(connections=conns):
            m = store.deserialize_cdr(raw, conn.msgtype)
            p, o, t = m.pose.pose.position, m.pose.pose.orientation, m.twist.twist
            wc = model.wrench([t.linear.x, t.linear.y, t.linear.z, t.angular.x, t.angular.y,
                               t.angular.z], [p.x, p.y, p.z], [o.w, o.x, o.y, o.z])
            expected.append(wc.total - wc.components['weight'])
    expected = np.array(expected)

    proc, log = start_node(spawn, tmp_path, {
        'robot_description': analytic_vehicle_urdf(), 'mode': 'wrench', 'rate_hz': 100.0,
        'use_sim_time': True, 'diagnostics_period': 0.2})
    probe = Probe(rclpy_context)
    wrenches = probe.collect(WrenchStamped, 'hydro/wrench')
    diags = probe.collect(DiagnosticArray, '/diagnostics', keep=3)
    player = BagPlayer(probe.node, bag, topics=['/odometry'])
    assert probe.spin_until(lambda: probe.node.count_subscribers('/odometry') > 0
                            and probe.node.count_subscribers('/clock') > 0,
                            timeout=30.0, proc=proc, log=log)
    probe.spin_for(0.3)  # let the publisher <-> subscriber matching complete
    counts = []
    for _ in range(2):  # --loop
        thread = threading.Thread(target=lambda: counts.append(player.play(rate=1.0)))
        thread.start()
        probe.spin_until(lambda: not thread.is_alive(), timeout=60.0, proc=proc, log=log)
        thread.join()
        probe.spin_for(0.2)
    assert counts == [101, 101]
    assert len(wrenches) > 50, 'too few wrenches: %d' % len(wrenches)
    for w in wrenches:
        stamp = w.header.stamp.sec * 10 ** 9 + w.header.stamp.nanosec
        assert 0 < stamp <= 10 ** 9, 'stamp %d ns is not a bag time' % stamp
        error = np.min(np.max(np.abs(expected - _array(w.wrench)), axis=1))
        assert error < 1e-9, 'wrench at %d ns matches no bag odometry (%.3g)' % (stamp, error)
    assert probe.spin_until(
        lambda: diags and int(diag_values(diags[-1], 'update loop').get('clock_resets', 0)) >= 1,
        timeout=30.0, proc=proc, log=log), 'the loop was not reported as a clock reset'
    assert proc.poll() is None
    probe.close()
