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
A driver process speaking a marine stack's message types, at a fixed wall-clock rate.

Usage: stack_publisher.py RATE_HZ KIND@TOPIC=SPEC [KIND@TOPIC=SPEC ...]

* ``float64@TOPIC=VALUE``: std_msgs/Float64 (gz-sim cmd_thrust, a fin's cmd_pos);
* ``override@TOPIC=C1,C2,...``: mavros_msgs/OverrideRCIn (missing channels 65535);
* ``rc_out@TOPIC=C1,C2,...``: mavros_msgs/RCOut (stamped);
* ``joint_state@TOPIC=NAMES/POSITION/VELOCITY/EFFORT``: sensor_msgs/JointState as
  topic_based_ros2_control writes it, each part comma-separated (may be empty).

Prints 'ready' once its publishers exist.
"""
import sys

from driver_process import publish_at_rate
import rclpy
from rclpy.node import Node


def _floats(text):
    return [float(v) for v in text.split(',') if v]


def _message(kind, spec):
    """Return (message type, message, stamped) of one item."""
    if kind == 'float64':
        from std_msgs.msg import Float64
        return Float64, Float64(data=float(spec)), False
    if kind == 'override':
        from mavros_msgs.msg import OverrideRCIn
        channels = [int(v) for v in spec.split(',')]
        return OverrideRCIn, OverrideRCIn(channels=channels + [65535] * (18 - len(channels))), \
            False
    if kind == 'rc_out':
        from mavros_msgs.msg import RCOut
        return RCOut, RCOut(channels=[int(v) for v in spec.split(',')]), True
    if kind == 'joint_state':
        from sensor_msgs.msg import JointState
        names, position, velocity, effort = spec.split('/')
        return JointState, JointState(name=[n for n in names.split(',') if n],
                                      position=_floats(position), velocity=_floats(velocity),
                                      effort=_floats(effort)), True
    raise ValueError('unknown kind %r' % kind)


def run(rate: float, items) -> None:
    """Publish the ``items`` at ``rate`` Hz until interrupted."""
    rclpy.init()
    node = Node('stack_publisher')
    outputs = []
    for item in items:
        head, _, spec = item.partition('=')
        kind, _, topic = head.partition('@')
        msg_type, msg, stamped = _message(kind, spec)
        outputs.append((node.create_publisher(msg_type, topic, 10), msg, stamped))
    publish_at_rate(node, outputs, rate)


if __name__ == '__main__':
    run(float(sys.argv[1]), sys.argv[2:])
