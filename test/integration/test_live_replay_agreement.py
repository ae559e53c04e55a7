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
The live node under bag replay agrees with the offline ``replay`` tool.

A bag with odometry, thrust and /clock is written with rosbags, played into the
running node (wrench mode, use_sim_time) at x1 and x5 by the test player, and every
wrench the node publishes must equal ``replay``'s offline output for one of the bag's
odometry messages within 1e-6.  Most messages must be matched, not just a few.
"""

import threading

from bag_player import BagPlayer
from nodes.harness import COUPLED_VEHICLE_YAML, manoeuvre, Probe, start_node
import numpy as np
import pytest

pytestmark = pytest.mark.ros


def matched_outputs(live, expected, tolerance=1e-6):
    """Return the indices of ``expected`` (N, 6) that the live WrenchStamped equal; each must."""
    matched = set()
    for w in live:
        got = np.array([w.wrench.force.x, w.wrench.force.y, w.wrench.force.z,
                        w.wrench.torque.x, w.wrench.torque.y, w.wrench.torque.z])
        errors = np.max(np.abs(expected - got), axis=1)
        k = int(np.argmin(errors))
        assert errors[k] < tolerance, 'live wrench matches no offline output (%.3g)' % errors[k]
        matched.add(k)
    return matched


def _write_bag(path, params):
    """Simulate 4 s of manoeuvring; record odometry (50 Hz), thrust (10 Hz), /clock."""
    from uwv_hydro.bag.rosbag_io import BagWriter, CLOCK, MessageFactory, ODOMETRY, WRENCH
    traj, thrust = manoeuvre(params, 4.0)
    factory = MessageFactory()
    t0 = 1_000_000_000  # bag time starts at 1 s
    with BagWriter(path, store=factory.store) as bag:
        for k, t in enumerate(traj.t):
            ns = t0 + int(round(t * 1e9))
            bag.write('/clock', CLOCK, ns, factory.clock(ns))
            if k % 10 == 0:
                bag.write('/thrust', WRENCH, ns, factory.wrench(ns, '', thrust(t)))
            if k % 2 == 0:
                bag.write('/odometry', ODOMETRY, ns, factory.odometry(
                    ns, 'odom', 'base_link', traj.position[k], traj.quaternion[k],
                    traj.twist[k]))


@pytest.mark.parametrize('rate', [1.0, 5.0])
def test_live_node_matches_offline_replay(rclpy_context, spawn, tmp_path, rate):
    from geometry_msgs.msg import WrenchStamped
    from uwv_hydro.description.loader import load_vehicle
    from uwv_hydro.bag.replay import replay_wrench
    vehicle = tmp_path / 'vehicle.yaml'
    vehicle.write_text(COUPLED_VEHICLE_YAML)
    params = load_vehicle(str(vehicle))
    bag = tmp_path / 'recording'
    _write_bag(bag, params)
    offline = replay_wrench(bag, params, out_bag=tmp_path / 'offline', progress=False)
    expected = np.array(offline.total)
    assert len(expected) == 201

    proc, log = start_node(spawn, tmp_path, {
        'vehicle_file': str(vehicle), 'mode': 'wrench', 'rate_hz': 100.0,
        'use_sim_time': True})
    probe = Probe(rclpy_context)
    live = probe.collect(WrenchStamped, 'hydro/wrench')
    player = BagPlayer(probe.node, bag)
    assert not player.generate_clock  # the bag's own /clock drives the node
    assert probe.spin_until(lambda: probe.node.count_subscribers('/odometry') > 0
                            and probe.node.count_subscribers('/clock') > 0,
                            timeout=30.0, proc=proc, log=log), 'node did not subscribe'
    probe.spin_for(0.3)
    sent = []
    thread = threading.Thread(target=lambda: sent.append(player.play(rate=rate)))
    thread.start()
    probe.spin_until(lambda: not thread.is_alive(), timeout=60.0, proc=proc, log=log)
    thread.join()
    probe.spin_for(0.3)
    assert sent == [401 + 201 + 41]
    assert proc.poll() is None
    assert len(live) > 20, 'node published %d wrenches' % len(live)
    matched = matched_outputs(live, expected)
    for w in live:
        stamp = w.header.stamp.sec * 10 ** 9 + w.header.stamp.nanosec
        assert 10 ** 9 <= stamp <= 5 * 10 ** 9, 'stamp %d ns is not bag time' % stamp
    print('x%g: %d live wrenches matched %d of %d offline outputs'
          % (rate, len(live), len(matched), len(expected)))
    # at x1 the node (100 Hz) sees every 50 Hz odometry; at x5 it still sees most
    assert len(matched) >= (0.8 if rate == 1.0 else 0.3) * len(expected), len(matched)
    probe.close()
