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
The topics between gz-sim and the node, and the ros_gz_bridge config that joins them.

One place for the names the SDF export, the bridge config, the node's EntityWrench
output and the gz-sim launch file share:

* ``/world/<world>/clock`` (gz.msgs.Clock) -> ``/clock``: sim time for ``use_sim_time``;
* ``/model/<model>/odometry`` from gz-sim's OdometryPublisher -> the node's ``odometry``;
* the node's ``hydro/entity_wrench`` -> ``/world/<world>/wrench``: ApplyLinkWrench's
  one-step topic (each message acts during one physics step; doc/guide/plugin_replacement.md on why
  not ``wrench/persistent``).

The ROS topics are relative, so a bridge started in the node's namespace joins that
node.  :func:`bridge_yaml` writes the list ros_gz_bridge's ``config_file`` reads.
"""
from typing import Dict, List

from uwv_hydro.description.yaml_safe import yaml_string

#: The node's EntityWrench output (relative: resolved in the node's namespace).
ENTITY_WRENCH_TOPIC = 'hydro/entity_wrench'
#: The node's odometry input.
ODOMETRY_TOPIC = 'odometry'


def odometry_gz_topic(model: str) -> str:
    """Return the gz topic gz-sim's OdometryPublisher publishes on by default."""
    return '/model/%s/odometry' % model


def wrench_gz_topic(world: str) -> str:
    """Return ApplyLinkWrench's one-step wrench topic of a world."""
    return '/world/%s/wrench' % world


def clock_gz_topic(world: str) -> str:
    """Return the clock topic of a gz-sim world."""
    return '/world/%s/clock' % world


def bridge_entries(model: str, world: str) -> List[Dict[str, str]]:
    """Return the ros_gz_bridge entries (clock, odometry, wrench) for a model in a world."""
    return [
        {'ros_topic_name': '/clock', 'gz_topic_name': clock_gz_topic(world),
         'ros_type_name': 'rosgraph_msgs/msg/Clock', 'gz_type_name': 'gz.msgs.Clock',
         'direction': 'GZ_TO_ROS'},
        {'ros_topic_name': ODOMETRY_TOPIC, 'gz_topic_name': odometry_gz_topic(model),
         'ros_type_name': 'nav_msgs/msg/Odometry', 'gz_type_name': 'gz.msgs.Odometry',
         'direction': 'GZ_TO_ROS'},
        {'ros_topic_name': ENTITY_WRENCH_TOPIC, 'gz_topic_name': wrench_gz_topic(world),
         'ros_type_name': 'ros_gz_interfaces/msg/EntityWrench',
         'gz_type_name': 'gz.msgs.EntityWrench', 'direction': 'ROS_TO_GZ'},
    ]


def bridge_yaml(model: str, world: str) -> str:
    """Return the ros_gz_bridge config file text for a model in a world."""
    lines = ['# ros_gz_bridge config: gz-sim world %r, model %r <-> uwv_hydro (wrench mode).'
             % (world, model),
             '# Written by `uwv-hydro export-sdf VEHICLE --bridge-config FILE`.']
    for entry in bridge_entries(model, world):
        lines.append('- ' + '\n  '.join('%s: %s' % (key, value if key == 'direction' else
                                                    yaml_string(value))
                                        for key, value in entry.items()))
    return '\n'.join(lines) + '\n'
