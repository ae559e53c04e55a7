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
Start hydro_node for a vehicle with an arm (moving links): doc/guide/uvms.md.

Arguments: vehicle (URDF/xacro path, required, e.g. uuv_simulator's
uuv_descriptions/robots/rexrov_oberon7.xacro), mode (simulate: joint commands in,
odometry, joint_states and TF out; wrench: per-link wrenches beside an engine, joint
states in), joint_states (the JointState topic: read in wrench mode, written in
simulate mode), gz_entity_wrench (wrench mode: one ros_gz EntityWrench per body),
use_sim_time, rate_hz, namespace, params_file (overridden by the arguments above).

The node loads ``vehicle`` itself (``vehicle_file``): its xacro resolves ``$(find pkg)``
of ROS 1 packages through ROS_PACKAGE_PATH, which ROS 2's xacro does not.
uwv_hydro/node/launch_commands/uvms_launch_command.py builds the same command line without launch
(test/integration/test_uvms_launch.py checks they agree and starts it).
"""
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue
from launch_ros.substitutions import FindPackageShare


def generate_launch_description():
    """Return the launch description of uwv_hydro for a vehicle with moving links."""
    arguments = [
        DeclareLaunchArgument('vehicle', description='URDF or xacro file of the vehicle '
                                                     'with its arm'),
        DeclareLaunchArgument('mode', default_value='simulate',
                              choices=['simulate', 'wrench'],
                              description='simulate (hardware in the loop) or wrench '
                                          '(per-link wrenches beside an engine)'),
        DeclareLaunchArgument('joint_states', default_value='joint_states',
                              description='sensor_msgs/JointState topic (wrench: in, '
                                          'simulate: out)'),
        DeclareLaunchArgument('gz_entity_wrench', default_value='false',
                              description='wrench mode: one EntityWrench per body for '
                                          "gz-sim's ApplyLinkWrench"),
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
    node = Node(
        package='uwv_hydro',
        executable='hydro_node',
        name='uwv_hydro',
        namespace=LaunchConfiguration('namespace'),
        output='screen',
        parameters=[
            LaunchConfiguration('params_file'),
            {
                'vehicle_file': LaunchConfiguration('vehicle'),
                'mode': LaunchConfiguration('mode'),
                'joint_states_topic': LaunchConfiguration('joint_states'),
                'gz_entity_wrench': ParameterValue(LaunchConfiguration('gz_entity_wrench'),
                                                   value_type=bool),
                'use_sim_time': ParameterValue(LaunchConfiguration('use_sim_time'),
                                               value_type=bool),
                'rate_hz': ParameterValue(LaunchConfiguration('rate_hz'), value_type=float),
            },
        ],
    )
    return LaunchDescription(arguments + [node])
