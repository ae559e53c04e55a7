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
The node and ``replay`` apply the same input rules to stale and unstamped odometry.

A bag whose odometry has unstamped messages (header stamp zero: the node uses the
receipt time, replay the record time) and stamps going back (dropped by both) is played
over DDS into the running node (wrench mode, lagged added mass, use_sim_time driven by
the bag's /clock) and replayed offline.  The lagged acceleration depends on the time
each sample is used at, so every wrench the node publishes must equal one of replay's
outputs (1e-6), including those after unstamped samples.  Before an unstamped sample
the player waits until the node's clock has reached the sample's record time (a wrench
stamped at or after it), and after it gives the node time to take it before the clock
moves on, so that the receipt time is the record time as a recorder would see it (the
node's executor runs a ready /clock callback before a ready odometry one).
"""

import threading
import time

from bag_player import BagPlayer
from nodes.harness import COUPLED_VEHICLE_YAML, Probe, start_node
import numpy as np
import pytest
from test_live_replay_agreement import matched_outputs

pytestmark = pytest.mark.ros

T0 = 1_000_000_000  # bag time starts at 1 s


def _write_bag(path, params):
    """
    4 s of manoeuvring: /clock at 100 Hz, odometry at 50 Hz, every 4th unstamped.

    After every 10th odometry sample, a stale one (stamped 5 ms before it, recorded
    10 ms after it) carries a wrong twist: whoever used it would publish other wrenches.
    """
    from uwv_hydro.bag.rosbag_io import BagWriter, CLOCK, MessageFactory, ODOMETRY
    from uwv_hydro.modes.offline_simulation import simulate
    from uwv_hydro.modes.thrust_profile import ThrustProfile
    from uwv_hydro.physics.body.dynamics import State
    thrust = ThrustProfile([0.0, 2.0], np.array([[80, 10, -5, 0, 0, 6],
                                                 [20, -10, 0, 0, 0, -4]], float))
    start = State(position=np.array([0.0, 0.0, -8.0]),
                  twist=np.array([0.4, 0.1, 0.0, 0.05, 0.0, 0.1]))
    traj = simulate(params, 4.0, dt=0.01, thrust=thrust, initial=start)
    factory = MessageFactory()
    unstamped = stale = 0
    with BagWriter(path, store=factory.store) as bag:
        last = None
        for k, t in enumerate(traj.t):
            ns = T0 + int(round(t * 1e9))
            bag.write('/clock', CLOCK, ns, factory.clock(ns))
            if k % 2 == 1 and last is not None and (k // 2) % 10 == 0:
                stale += 1
                bag.write('/odometry', ODOMETRY, ns, factory.odometry(
                    last - 5_000_000, 'odom', 'base_link', traj.position[k],
                    traj.quaternion[k], -3.0 * traj.twist[k]))
            if k % 2 == 0:
                stamp = ns
                if (k // 2) % 4 == 3:
                    stamp, unstamped = 0, unstamped + 1
                last = ns
                bag.write('/odometry', ODOMETRY, ns, factory.odometry(
                    stamp, 'odom', 'base_link', traj.position[k], traj.quaternion[k],
                    traj.twist[k]))
    return unstamped, stale


def test_node_and_replay_agree_on_stale_and_unstamped_odometry(rclpy_context, spawn,
                                                               tmp_path):
    from geometry_msgs.msg import WrenchStamped
    from uwv_hydro.bag.replay import replay_wrench
    from uwv_hydro.description.loader import load_vehicle
    vehicle = tmp_path / 'vehicle.yaml'
    vehicle.write_text(COUPLED_VEHICLE_YAML)
    params = load_vehicle(str(vehicle))
    bag = tmp_path / 'recording'
    unstamped, stale = _write_bag(bag, params)
    offline = replay_wrench(bag, params, added_mass='lagged', progress=False)
    assert offline.skipped_stale_stamp == stale == 20
    assert len(offline.total) == 201 and unstamped == 50
    # unstamped samples are used at their record time: none at t = 0
    assert offline.stamps_ns.min() == T0 and np.all(np.diff(offline.stamps_ns) > 0)
    expected = np.array(offline.total)

    proc, log = start_node(spawn, tmp_path, {
        'vehicle_file': str(vehicle), 'mode': 'wrench', 'rate_hz': 100.0,
        'added_mass': 'lagged', 'use_sim_time': True})
    probe = Probe(rclpy_context)
    live = probe.collect(WrenchStamped, 'hydro/wrench')
    player = BagPlayer(probe.node, bag)
    # the lagged estimate has memory: the node must get the bag from its first sample on,
    # so wait until the player's own publishers are matched with the node
    assert probe.spin_until(lambda: all(player.publishers[t].get_subscription_count() > 0
                                        for t in ('/odometry', '/clock')),
                            timeout=30.0, proc=proc, log=log), 'node did not subscribe'
    probe.spin_for(0.3)

    def stamp(msg):
        return msg.header.stamp.sec * 10 ** 9 + msg.header.stamp.nanosec

    after_unstamped = []

    def receipt_at_record_time(bag_ns, topic, raw):
        """Let the node's clock be the record time when an unstamped sample arrives."""
        from uwv_hydro.bag.cdr_codec import decode_odometry
        if after_unstamped:
            # the node handles the unstamped sample before the clock moves on (its
            # executor runs a ready /clock first)
            after_unstamped.clear()
            time.sleep(0.05)
        if topic != '/odometry' or decode_odometry(raw)[:2] != (0, 0) or not live:
            return
        deadline = time.monotonic() + 10.0
        while stamp(live[-1]) < bag_ns and time.monotonic() < deadline:
            time.sleep(0.001)
        after_unstamped.append(bag_ns)

    thread = threading.Thread(target=player.play, kwargs={'before': receipt_at_record_time,
                                                          'rate': 0.5})
    thread.start()
    probe.spin_until(lambda: not thread.is_alive(), timeout=60.0, proc=proc, log=log)
    thread.join()
    probe.spin_for(0.3)
    assert proc.poll() is None
    assert len(live) > 50, 'node published %d wrenches' % len(live)
    matched = matched_outputs(live, expected)
    # the added-mass term is not zero: the comparison sees the acceleration estimate
    assert np.max(np.abs(offline.components['added_mass'])) > 1.0
    unstamped_outputs = {k for k in range(len(expected)) if k % 4 == 3}
    print('%d live wrenches matched %d of %d offline outputs (%d of them unstamped samples)'
          % (len(live), len(matched), len(expected), len(matched & unstamped_outputs)))
    # the node publishes the latest sample at its rate: most samples are seen
    assert len(matched) >= 0.8 * len(expected), len(matched)
    assert len(matched & unstamped_outputs) >= 0.8 * len(unstamped_outputs)
    probe.close()
