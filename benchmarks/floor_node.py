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
The measurement floor of the node figures: a minimal rclpy node, measured the same way.

It does nothing but what the probe needs: every period (the node's RateLoop thread) it
publishes a nav_msgs/Odometry whose sway velocity integrates the latest ``thrust``
sway force, so the probe's rate, jitter and thrust -> odometry latency apply unchanged,
and the odom -> base transform on /tf (the node's TF QoS), as the node does.  No
physics, no diagnostics; the messages are built once and refilled.  What the probe
reports for it is what a Python rclpy publisher and a Python rclpy subscriber on this
machine cost by themselves.

Usage: floor_node.py RATE_HZ (ROS_DOMAIN_ID from the environment).
"""
import sys
import threading

from geometry_msgs.msg import TransformStamped, WrenchStamped
from nav_msgs.msg import Odometry
import rclpy
from rclpy.executors import ExternalShutdownException, SingleThreadedExecutor
from rclpy.node import Node
from tf2_msgs.msg import TFMessage

from uwv_hydro.node.rate_loop import RateLoop
from uwv_hydro.node.simulate_io import TF_QOS


class FloorNode(Node):
    """Publish odometry at a fixed rate; sway velocity += F_y dt / 1 kg."""

    def __init__(self, rate_hz: float):
        super().__init__('uwv_floor')
        self.period = 1.0 / rate_hz
        self.force_y = 0.0
        self.sway = 0.0
        self.lock = threading.Lock()
        self.pub = self.create_publisher(Odometry, 'odometry', 10)
        self.create_subscription(WrenchStamped, 'thrust', self._on_thrust, 10)
        self.msg = Odometry()
        self.msg.header.frame_id = 'odom'
        self.msg.child_frame_id = 'base_link'
        self.tf_pub = self.create_publisher(TFMessage, '/tf', TF_QOS)
        self.tf = TFMessage(transforms=[TransformStamped()])
        self.tf.transforms[0].header.frame_id = 'odom'
        self.tf.transforms[0].child_frame_id = 'base_link'
        self.loop = RateLoop(self.period, self._cycle)
        self.loop.start()

    def _on_thrust(self, msg) -> None:
        with self.lock:
            self.force_y = msg.wrench.force.y

    def _cycle(self) -> None:
        with self.lock:
            # explicit Euler on a unit mass: v += F dt
            self.sway += self.force_y * self.period
        self.msg.header.stamp = self.get_clock().now().to_msg()
        self.msg.twist.twist.linear.y = self.sway
        self.pub.publish(self.msg)
        self.tf.transforms[0].header.stamp = self.msg.header.stamp
        self.tf_pub.publish(self.tf)


def main() -> int:
    """Run the floor node until SIGINT."""
    rclpy.init()
    node = FloorNode(float(sys.argv[1]) if len(sys.argv) > 1 else 1000.0)
    executor = SingleThreadedExecutor()
    executor.add_node(node)
    try:
        executor.spin()
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    finally:
        node.loop.stop()
        node.destroy_node()
        rclpy.try_shutdown()
    return 0


if __name__ == '__main__':
    sys.exit(main())
