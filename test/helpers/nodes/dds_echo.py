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
A minimal rclpy node for the environment test: echoes what it hears, over DDS.

Subscribes to wrench_in (geometry_msgs/WrenchStamped) and /tf
(tf2_msgs/TFMessage) and republishes each message on wrench_out and tf_out.
"""

from driver_process import spin_ready
from geometry_msgs.msg import WrenchStamped
import rclpy
from rclpy.node import Node
from tf2_msgs.msg import TFMessage


class Echo(Node):
    """Republish every received message on an _out topic."""

    def __init__(self):
        super().__init__('dds_echo')
        self._wrench_pub = self.create_publisher(WrenchStamped, 'wrench_out', 10)
        self._tf_pub = self.create_publisher(TFMessage, 'tf_out', 10)
        self.create_subscription(WrenchStamped, 'wrench_in', self._on_wrench_in, 10)
        self.create_subscription(TFMessage, '/tf', self._on_tf, 10)

    def _on_wrench_in(self, msg):
        self._wrench_pub.publish(msg)

    def _on_tf(self, msg):
        self._tf_pub.publish(msg)


def main():
    rclpy.init()
    spin_ready(Echo())


if __name__ == '__main__':
    main()
