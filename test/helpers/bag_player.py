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
A small rosbag2 player for tests (users use ``ros2 bag play``, not available here).

Publishes every message of the chosen topics in bag-timestamp order, as the raw CDR
bytes stored in the bag, paced at ``rate`` times real time, and publishes
rosgraph_msgs/Clock with each message's timestamp first (like ``ros2 bag play --clock``),
so nodes with use_sim_time follow the bag's time.
"""

import importlib
import pathlib
import time

from rosbags.rosbag2 import Reader


def _ros_type(msgtype: str):
    pkg, kind, name = msgtype.split('/')
    return getattr(importlib.import_module('%s.%s' % (pkg, kind)), name)


class BagPlayer:
    """Play a bag into a ROS graph through ``node`` (an rclpy Node)."""

    def __init__(self, node, bag, topics=None, qos_depth: int = 1000,
                 generate_clock: bool = True):
        from rclpy.qos import QoSProfile
        from rosgraph_msgs.msg import Clock
        self.node = node
        self.bag = pathlib.Path(bag)
        self.messages = []
        self.publishers = {}
        with Reader(self.bag) as reader:
            conns = [c for c in reader.connections if topics is None or c.topic in topics]
            for conn in conns:
                self.publishers[conn.topic] = node.create_publisher(
                    _ros_type(conn.msgtype), conn.topic, QoSProfile(depth=qos_depth))
            for conn, stamp, raw in reader.messages(connections=conns):
                self.messages.append((stamp, conn.topic, bytes(raw)))
        self.messages.sort(key=lambda m: m[0])
        # a bag that recorded /clock plays it as it is, like any other topic
        self.generate_clock = generate_clock and '/clock' not in self.publishers
        self.clock_pub = (node.create_publisher(Clock, '/clock', QoSProfile(depth=100))
                          if self.generate_clock else None)
        self._clock_type = Clock

    def publish_clock(self, stamp_ns: int) -> None:
        """Publish /clock at ``stamp_ns`` (when this player generates the clock)."""
        if self.clock_pub is None:
            return
        msg = self._clock_type()
        msg.clock.sec = stamp_ns // 1_000_000_000
        msg.clock.nanosec = stamp_ns % 1_000_000_000
        self.clock_pub.publish(msg)

    def play(self, rate: float = 1.0, clock_period: float = 0.01, before=None) -> int:
        """
        Publish everything, paced at ``rate``; return the number of messages sent.

        Between messages /clock is also advanced every ``clock_period`` of bag time.
        ``before(stamp, topic, raw)``, when given, is called just before each message is
        published (after /clock reached its stamp), e.g. to wait for the receiver; the
        time it takes pauses the playback.
        """
        if not self.messages:
            return 0
        t0 = self.messages[0][0]
        wall0 = time.monotonic()
        last_clock = None
        period_ns = int(clock_period * 1e9)
        for stamp, topic, raw in self.messages:
            # advance /clock through the gap, then to this message's stamp
            while (self.clock_pub is not None and last_clock is not None
                   and stamp - last_clock > period_ns):
                last_clock += period_ns
                self._wait(wall0 + (last_clock - t0) * 1e-9 / rate)
                self.publish_clock(last_clock)
            self._wait(wall0 + (stamp - t0) * 1e-9 / rate)
            if last_clock != stamp:
                self.publish_clock(stamp)
                last_clock = stamp
            if before is not None:
                paused = time.monotonic()
                before(stamp, topic, raw)
                # the time spent in the hook is a pause: no burst of late messages after it
                wall0 += time.monotonic() - paused
            self.publishers[topic].publish(raw)
        return len(self.messages)

    @staticmethod
    def _wait(deadline: float) -> None:
        delay = deadline - time.monotonic()
        if delay > 0:
            time.sleep(delay)
