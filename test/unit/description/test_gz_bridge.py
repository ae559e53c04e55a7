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
config/gz_bridge.yaml names real message types and the topics the world publishes.

* Every entry has the keys ros_gz_bridge's config parser reads, with a valid direction.
* Each (ROS type, gz type) pair is one ros_gz_bridge converts (its mapping table,
  ros_gz_bridge/ros_gz_bridge/mappings.py, rows copied below), and the ROS type is
  importable here.
* Our ros_gz_interfaces build hashes like the real package: the type hash rclpy
  reports equals the one rosbags computes from ros_gz's .msg definitions (fields below).
* The gz topics are the ones gz-sim's OdometryPublisher and ApplyLinkWrench use for the
  model and world names in worlds/dsros_vehicle.sdf.
"""
import importlib
import xml.etree.ElementTree as ET

from conftest import REPO
import pytest
from required_modules import require
from test_ros_environment import _type_hash_of
import yaml

#: Keys ros_gz_bridge's YAML config parser reads (ros_gz_bridge/src/bridge_config.cpp).
BRIDGE_KEYS = {'topic_name', 'ros_topic_name', 'gz_topic_name', 'ros_type_name',
               'gz_type_name', 'direction', 'publisher_queue', 'subscriber_queue', 'lazy',
               'publish_optical_frame'}
DIRECTIONS = {'BIDIRECTIONAL', 'GZ_TO_ROS', 'ROS_TO_GZ'}
#: Rows of ros_gz_bridge's mapping table (ROS type -> gz type) for the types used here.
BRIDGE_MAPPINGS = {
    ('rosgraph_msgs/msg/Clock', 'gz.msgs.Clock'),
    ('nav_msgs/msg/Odometry', 'gz.msgs.Odometry'),
    ('nav_msgs/msg/Odometry', 'gz.msgs.OdometryWithCovariance'),
    ('ros_gz_interfaces/msg/Entity', 'gz.msgs.Entity'),
    ('ros_gz_interfaces/msg/EntityWrench', 'gz.msgs.EntityWrench'),
    ('geometry_msgs/msg/Wrench', 'gz.msgs.Wrench'),
}
#: The fields of ros_gz's ros_gz_interfaces/msg/{Entity,EntityWrench}.msg (what the hash
#: covers; the constants of Entity are not hashed).
UPSTREAM_ENTITY = 'uint64 id\nstring name\nuint8 type\n'
UPSTREAM_ENTITY_WRENCH = ('std_msgs/Header header\nros_gz_interfaces/Entity entity\n'
                          'geometry_msgs/Wrench wrench\n')
WORLD = REPO / 'worlds' / 'dsros_vehicle.sdf'


@pytest.fixture(scope='module')
def entries():
    return yaml.safe_load((REPO / 'config' / 'gz_bridge.yaml').read_text())


def _message_class(ros_type):
    package, _, name = ros_type.split('/')
    return getattr(importlib.import_module(package + '.msg'), name)


def test_entries_use_the_bridge_keys(entries):
    assert isinstance(entries, list) and len(entries) == 3
    for entry in entries:
        assert set(entry) <= BRIDGE_KEYS, set(entry) - BRIDGE_KEYS
        assert {'ros_topic_name', 'gz_topic_name', 'ros_type_name', 'gz_type_name',
                'direction'} <= set(entry)
        assert entry['direction'] in DIRECTIONS


def test_types_are_ones_the_bridge_converts_and_exist(entries):
    require('rosgraph_msgs')
    for entry in entries:
        pair = (entry['ros_type_name'], entry['gz_type_name'])
        assert pair in BRIDGE_MAPPINGS, pair
        cls = _message_class(entry['ros_type_name'])
        assert hasattr(cls, 'get_fields_and_field_types')


def test_entity_wrench_hashes_like_ros_gz():
    require('ros_gz_interfaces')
    from ros_gz_interfaces.msg import Entity, EntityWrench
    from rosbags.typesys import get_typestore, get_types_from_msg, Stores
    store = get_typestore(Stores.ROS2_KILTED)
    types = get_types_from_msg(UPSTREAM_ENTITY, 'ros_gz_interfaces/msg/Entity')
    types.update(get_types_from_msg(UPSTREAM_ENTITY_WRENCH,
                                    'ros_gz_interfaces/msg/EntityWrench'))
    store.register(types)
    for msg_type, name in ((Entity, 'Entity'), (EntityWrench, 'EntityWrench')):
        assert _type_hash_of(msg_type) == store.hash_rihs01('ros_gz_interfaces/msg/' + name)
    # the entity types of gz.msgs.Entity the node and ApplyLinkWrench use
    assert (Entity.NONE, Entity.MODEL, Entity.LINK) == (0, 2, 3)


def test_gz_topics_match_the_world(entries):
    world = ET.parse(WORLD).getroot().find('world')
    model = world.find('model').get('name')
    by_ros = {e['ros_topic_name']: e for e in entries}
    odom_plugin = [p for p in world.iter('plugin') if p.get('name', '').endswith(
        'OdometryPublisher')]
    assert odom_plugin and odom_plugin[0].find('odom_topic') is None  # default topic
    assert by_ros['odometry']['gz_topic_name'] == '/model/%s/odometry' % model
    assert by_ros['odometry']['direction'] == 'GZ_TO_ROS'
    wrench_plugin = [p for p in world.iter('plugin') if p.get('name', '').endswith(
        'ApplyLinkWrench')]
    assert wrench_plugin and wrench_plugin[0].find('topic') is None  # default topic
    # the one-step topic, not wrench/persistent (doc/guide/plugin_replacement.md)
    assert by_ros['hydro/entity_wrench']['gz_topic_name'] == \
        '/world/%s/wrench' % world.get('name')
    assert by_ros['hydro/entity_wrench']['direction'] == 'ROS_TO_GZ'
    assert by_ros['/clock']['gz_topic_name'] == '/world/%s/clock' % world.get('name')
