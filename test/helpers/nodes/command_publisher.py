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
A separate driver process: publishes constant commands at a fixed wall-clock rate.

Usage: command_publisher.py RATE_HZ float64 TOPIC=VALUE [TOPIC=VALUE ...]
       command_publisher.py RATE_HZ wrench TOPIC=FX,FY,FZ,TX,TY,TZ [...]
Float64 is what a thruster driver sends per thruster (gz-sim cmd_thrust); a wrench is
a WrenchStamped in the base frame.  Prints 'ready' once its publishers exist.
"""
import sys

from driver_process import publish_at_rate
from geometry_msgs.msg import WrenchStamped
import rclpy
from rclpy.node import Node
from std_msgs.msg import Float64


def run(rate: float, kind: str, items) -> None:
    """Publish the ``items`` (TOPIC=VALUE) of ``kind`` at ``rate`` Hz until interrupted."""
    rclpy.init()
    node = Node('command_publisher')
    outputs = []
    for item in items:
        topic, _, value = item.partition('=')
        if kind == 'float64':
            msg = Float64(data=float(value))
            outputs.append((node.create_publisher(Float64, topic, 10), msg, False))
        else:
            msg = WrenchStamped()
            msg.header.frame_id = 'base_link'
            f = [float(v) for v in value.split(',')]
            msg.wrench.force.x, msg.wrench.force.y, msg.wrench.force.z = f[:3]
            msg.wrench.torque.x, msg.wrench.torque.y, msg.wrench.torque.z = f[3:]
            outputs.append((node.create_publisher(WrenchStamped, topic, 10), msg, True))
    publish_at_rate(node, outputs, rate)


if __name__ == '__main__':
    run(float(sys.argv[1]), sys.argv[2], sys.argv[3:])
