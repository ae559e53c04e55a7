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
The environment is real: rclpy, Fast DDS and a tf2_msgs of the standard type.

A node in another process echoes a WrenchStamped and a TFMessage published from this
test; the test passes only when both come back over DDS.
"""

import os
import time

from conftest import REPO
import pytest
from required_modules import require


def test_rmw_is_fast_dds():
    require('rclpy')
    from rclpy.utilities import get_rmw_implementation_identifier
    assert get_rmw_implementation_identifier() == os.environ.get(
        'RMW_IMPLEMENTATION', 'rmw_fastrtps_cpp')


def test_tf_message_is_the_standard_type():
    """Our TFMessage hashes like ROS 2's, so real tf2 listeners accept it."""
    require('tf2_msgs')
    from rosbags.typesys import get_typestore, Stores
    from tf2_msgs.msg import TFMessage
    store = get_typestore(Stores.ROS2_KILTED)
    assert _type_hash_of(TFMessage) == store.hash_rihs01('tf2_msgs/msg/TFMessage')


def _type_hash_of(msg_type):
    import rclpy
    from rclpy.node import Node
    context = rclpy.Context()
    rclpy.init(context=context, domain_id=101)
    try:
        node = Node('type_hash_probe', context=context)
        node.create_publisher(msg_type, 'type_hash_probe', 1)
        info = node.get_publishers_info_by_topic('type_hash_probe')
        return str(info[0].topic_type_hash)
    finally:
        context.try_shutdown()


@pytest.mark.ros
def test_messages_round_trip_over_dds(rclpy_context, spawn, python):
    from geometry_msgs.msg import TransformStamped, WrenchStamped
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.node import Node
    from tf2_msgs.msg import TFMessage

    proc = spawn([python, str(REPO / 'test' / 'helpers' / 'nodes' / 'dds_echo.py')])
    node = Node('env_test', context=rclpy_context)
    got = {}
    node.create_subscription(WrenchStamped, 'wrench_out',
                             lambda m: got.setdefault('wrench', m), 10)
    node.create_subscription(TFMessage, 'tf_out', lambda m: got.setdefault('tf', m), 10)
    wrench_pub = node.create_publisher(WrenchStamped, 'wrench_in', 10)
    tf_pub = node.create_publisher(TFMessage, '/tf', 10)
    executor = SingleThreadedExecutor(context=rclpy_context)
    executor.add_node(node)

    wrench = WrenchStamped()
    wrench.header.frame_id = 'thruster_port'
    wrench.wrench.force.x = 12.5
    wrench.wrench.torque.z = -0.75
    tf = TransformStamped()
    tf.header.frame_id = 'odom'
    tf.child_frame_id = 'base_link'
    tf.transform.translation.z = -3.0
    tf.transform.rotation.w = 1.0

    deadline = time.monotonic() + 30.0
    while len(got) < 2 and time.monotonic() < deadline:
        assert proc.poll() is None, 'echo node died: %s' % proc.stderr.read()
        wrench_pub.publish(wrench)
        tf_pub.publish(TFMessage(transforms=[tf]))
        executor.spin_once(timeout_sec=0.1)
    executor.shutdown()
    assert 'wrench' in got, 'no WrenchStamped came back over DDS'
    assert 'tf' in got, 'no TFMessage came back over DDS'
    assert got['wrench'].header.frame_id == 'thruster_port'
    assert got['wrench'].wrench.force.x == 12.5
    assert got['wrench'].wrench.torque.z == -0.75
    back = got['tf'].transforms[0]
    assert (back.header.frame_id, back.child_frame_id) == ('odom', 'base_link')
    assert back.transform.translation.z == -3.0
