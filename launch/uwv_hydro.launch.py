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
Start hydro_node with a xacro-processed vehicle as robot_description.

Arguments: vehicle (URDF/xacro path), mode (simulate | wrench), use_sim_time,
rate_hz, namespace, params_file.  The launch arguments override params_file.
uwv_hydro/node/launch_commands/launch_command.py builds the same command line without launch
(tests and the demo use it; test/integration/test_launch_command.py checks they agree).
The node action is uwv_hydro/node/launch_commands/launch_node.py's, shared with gz_sim.launch.py.
"""
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.parameter_descriptions import ParameterValue
from launch_ros.substitutions import FindPackageShare

from uwv_hydro.node.launch_commands.launch_node import hydro_node


def generate_launch_description():
    """Return the launch description of one uwv_hydro node."""
    arguments = [
        DeclareLaunchArgument(
            'vehicle',
            default_value=PathJoinSubstitution(
                [FindPackageShare('uwv_hydro'), 'urdf', 'dsros_vehicle.urdf.xacro']),
            description='URDF or xacro file of the vehicle'),
        DeclareLaunchArgument('mode', default_value='simulate',
                              choices=['simulate', 'wrench'],
                              description='simulate (odometry + TF) or wrench (hydro wrench '
                                          'for an external simulator)'),
        DeclareLaunchArgument('use_sim_time', default_value='false',
                              description='follow /clock'),
        DeclareLaunchArgument('rate_hz', default_value='100.0',
                              description='update rate (Hz)'),
        DeclareLaunchArgument('namespace', default_value='',
                              description='namespace of the node and its topics'),
        DeclareLaunchArgument(
            'params_file',
            default_value=PathJoinSubstitution(
                [FindPackageShare('uwv_hydro'), 'config', 'node_defaults.yaml']),
            description='further node parameters (overridden by the arguments above)'),
    ]
    node = hydro_node({
        'mode': LaunchConfiguration('mode'),
        'use_sim_time': ParameterValue(LaunchConfiguration('use_sim_time'), value_type=bool),
        'rate_hz': ParameterValue(LaunchConfiguration('rate_hz'), value_type=float),
    })
    return LaunchDescription(arguments + [node])
