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
Hardware in the loop for a ros2_control stack: uwv_hydro behind TopicBasedSystem.

Starts controller_manager (ros2_control_node) with ``robot_description`` = the xacro
output of ``description`` (urdf/remus100_ros2_control.urdf.xacro: REMUS 100 with a
<ros2_control> block using topic_based_ros2_control/TopicBasedSystem) and the
controllers of ``controllers`` (config/ros2_control_remus100.yaml), their spawners,
robot_state_publisher, and hydro_node in simulate mode with ``ros2_control: true`` on
``vehicle`` (config/remus100.yaml): JointState commands in on /robot_joint_commands,
JointState out on /robot_joint_states.  On the real vehicle only the URDF's hardware
plugin changes.  The node's own fin JointState goes to uwv_hydro/fin_states, so that
/joint_states stays joint_state_broadcaster's.  Needs ros2_control, ros2_controllers and
topic_based_ros2_control; test/integration/test_stack_launch.py starts the uwv_hydro command line
this file produces.
"""
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.substitutions import Command, LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue
from launch_ros.substitutions import FindPackageShare


def generate_launch_description():
    """Return controller_manager, its controllers and uwv_hydro standing in for the robot."""
    arguments = [
        DeclareLaunchArgument(
            'vehicle',
            default_value=PathJoinSubstitution(
                [FindPackageShare('uwv_hydro'), 'config', 'remus100.yaml']),
            description='vehicle of uwv_hydro (thrusters and fins)'),
        DeclareLaunchArgument(
            'description',
            default_value=PathJoinSubstitution(
                [FindPackageShare('uwv_hydro'), 'urdf', 'remus100_ros2_control.urdf.xacro']),
            description='URDF/xacro with the <ros2_control> block (TopicBasedSystem)'),
        DeclareLaunchArgument(
            'controllers',
            default_value=PathJoinSubstitution(
                [FindPackageShare('uwv_hydro'), 'config', 'ros2_control_remus100.yaml']),
            description='controller_manager parameters'),
        DeclareLaunchArgument('use_sim_time', default_value='false',
                              description='follow /clock'),
    ]
    use_sim_time = ParameterValue(LaunchConfiguration('use_sim_time'), value_type=bool)
    robot_description = ParameterValue(Command(['xacro ', LaunchConfiguration('description')]),
                                       value_type=str)
    hydro = Node(
        package='uwv_hydro',
        executable='hydro_node',
        name='uwv_hydro',
        output='screen',
        parameters=[{
            'vehicle_file': LaunchConfiguration('vehicle'),
            'mode': 'simulate',
            'ros2_control': True,
            'fin_joint_state_topic': 'uwv_hydro/fin_states',
            'use_sim_time': use_sim_time,
        }],
    )
    controller_manager = Node(
        package='controller_manager',
        executable='ros2_control_node',
        output='screen',
        parameters=[{'robot_description': robot_description, 'use_sim_time': use_sim_time},
                    LaunchConfiguration('controllers')],
    )
    state_publisher = Node(
        package='robot_state_publisher',
        executable='robot_state_publisher',
        parameters=[{'robot_description': robot_description, 'use_sim_time': use_sim_time}],
    )
    spawners = [Node(package='controller_manager', executable='spawner', arguments=[name])
                for name in ('joint_state_broadcaster', 'thrust_controller', 'fin_controller')]
    return LaunchDescription(arguments + [hydro, controller_manager, state_publisher]
                             + spawners)
