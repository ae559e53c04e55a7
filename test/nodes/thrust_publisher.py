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
A separate thruster-driver process: publishes a constant WrenchStamped at a fixed rate.

Used by the reliability tests to kill a publisher process (SIGKILL) mid-run.
Usage: thrust_publisher.py TOPIC FORCE_X [RATE_HZ]
"""
import sys

from geometry_msgs.msg import WrenchStamped
import rclpy
from rclpy.node import Node


def main():
    topic, force = sys.argv[1], float(sys.argv[2])
    rate = float(sys.argv[3]) if len(sys.argv) > 3 else 50.0
    rclpy.init()
    node = Node('thrust_publisher')
    pub = node.create_publisher(WrenchStamped, topic, 10)
    msg = WrenchStamped()
    msg.header.frame_id = 'base_link'
    msg.wrench.force.x = force

    def _publish():
        msg.header.stamp = node.get_clock().now().to_msg()
        pub.publish(msg)

    node.create_timer(1.0 / rate, _publish)
    print('ready', flush=True)
    try:
        rclpy.spin(node)
    except KeyboardInterrupt:
        pass
    finally:
        node.destroy_node()
        rclpy.try_shutdown()


if __name__ == '__main__':
    main()
