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
gz-sim integrates the vehicle, uwv_hydro supplies its hydro wrench (the dsros_hydro swap).

Starts gz-sim on ``world`` (ros_gz_sim), ros_gz_bridge with ``bridge_config`` (gz
clock and odometry in, the node's EntityWrench out to ApplyLinkWrench) and hydro_node
in wrench mode on sim time with its ``gz_entity_wrench`` output for ``model``.
Arguments: vehicle, world, bridge_config, model, rate_hz, namespace, params_file,
gz_args.  Defaults: the default vehicle in worlds/dsros_vehicle.sdf (both written by
``uwv-hydro export-sdf``).  uwv_hydro/node/launch_commands/gz_launch_command.py holds the same
command lines (test/unit/node/test_gz_launch.py checks they agree); the node action is
uwv_hydro/node/launch_commands/launch_node.py's, shared with uwv_hydro.launch.py.  Needs ros_gz
(ros_gz_sim,
ros_gz_bridge, ros_gz_interfaces) and gz-sim with the DART engine.
"""
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, IncludeLaunchDescription
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue
from launch_ros.substitutions import FindPackageShare

from uwv_hydro.node.launch_commands.launch_node import hydro_node


def generate_launch_description():
    """Return gz-sim, the bridge and a wrench-mode uwv_hydro node."""
    arguments = [
        DeclareLaunchArgument(
            'vehicle',
            default_value=PathJoinSubstitution(
                [FindPackageShare('uwv_hydro'), 'urdf', 'dsros_vehicle.urdf.xacro']),
            description='URDF or xacro file of the vehicle (the hydrodynamics)'),
        DeclareLaunchArgument(
            'world',
            default_value=PathJoinSubstitution(
                [FindPackageShare('uwv_hydro'), 'worlds', 'dsros_vehicle.sdf']),
            description='gz-sim world with the vehicle (uwv-hydro export-sdf --world)'),
        DeclareLaunchArgument(
            'bridge_config',
            default_value=PathJoinSubstitution(
                [FindPackageShare('uwv_hydro'), 'config', 'gz_bridge.yaml']),
            description='ros_gz_bridge config (uwv-hydro export-sdf --bridge-config)'),
        DeclareLaunchArgument('model', default_value='dsros_vehicle',
                              description='gz model name: the wrench goes to '
                                          '<model>::<base link>'),
        DeclareLaunchArgument('rate_hz', default_value='1000.0',
                              description='wrench rate (Hz): the physics rate of the world'),
        DeclareLaunchArgument('namespace', default_value='',
                              description='namespace of the node and the bridge'),
        DeclareLaunchArgument(
            'params_file',
            default_value=PathJoinSubstitution(
                [FindPackageShare('uwv_hydro'), 'config', 'node_defaults.yaml']),
            description='further node parameters (overridden by the launch arguments)'),
        DeclareLaunchArgument('gz_args', default_value='-r',
                              description='gz sim options before the world (-r: run)'),
    ]
    gz_sim = IncludeLaunchDescription(
        PythonLaunchDescriptionSource(
            PathJoinSubstitution([FindPackageShare('ros_gz_sim'), 'launch', 'gz_sim.launch.py'])),
        launch_arguments={'gz_args': [LaunchConfiguration('gz_args'), ' ',
                                      LaunchConfiguration('world')]}.items())
    bridge = Node(
        package='ros_gz_bridge',
        executable='parameter_bridge',
        name='uwv_hydro_gz_bridge',
        namespace=LaunchConfiguration('namespace'),
        output='screen',
        parameters=[{'config_file': LaunchConfiguration('bridge_config')}],
    )
    node = hydro_node({
        'rate_hz': ParameterValue(LaunchConfiguration('rate_hz'), value_type=float),
        'gz_model_name': LaunchConfiguration('model'),
        'mode': 'wrench',
        'use_sim_time': True,
        'added_mass': 'implicit',
        'gz_entity_wrench': True,
    })
    return LaunchDescription(arguments + [gz_sim, bridge, node])
