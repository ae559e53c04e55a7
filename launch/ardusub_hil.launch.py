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
Hardware in the loop for an ArduSub (BlueROV2) stack: uwv_hydro in place of the vehicle.

Starts hydro_node in simulate mode with ``config`` as both its parameters and its
vehicle (config/ardusub_bluerov2.yaml: BlueROV2 vectored frame, T200 PWM tables, an
A50-like DVL; config/ardusub_bluerov2_heavy.yaml for the 8-thruster Heavy).  The stack
runs unchanged: thruster PWM in as mavros_msgs/OverrideRCIn on mavros/rc/override
(``input:=override``, an individual-thruster stack with the thruster servos in RC
passthrough) or mavros_msgs/RCOut on mavros/rc/out (``input:=rc_out``, the outputs of an
autopilot running as SITL); out odometry, /tf, the DVL as marine_acoustic_msgs/Dvl on
dvl/data (and a twist on dvl/twist).  doc/guide/drivers.md describes the topics;
test/integration/test_stack_launch.py starts the command line this file produces.
"""
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue
from launch_ros.substitutions import FindPackageShare


def generate_launch_description():
    """Return one uwv_hydro node fed by MAVROS messages."""
    arguments = [
        DeclareLaunchArgument(
            'config',
            default_value=PathJoinSubstitution(
                [FindPackageShare('uwv_hydro'), 'config', 'ardusub_bluerov2.yaml']),
            description='vehicle and ArduSub parameters (ardusub_bluerov2_heavy.yaml: Heavy)'),
        DeclareLaunchArgument('input', default_value='override',
                              choices=['override', 'rc_out'],
                              description='override (OverrideRCIn) or rc_out (RCOut)'),
        DeclareLaunchArgument('use_sim_time', default_value='false',
                              description='follow /clock'),
        DeclareLaunchArgument('namespace', default_value='',
                              description='namespace of the node and its topics'),
    ]
    node = Node(
        package='uwv_hydro',
        executable='hydro_node',
        name='uwv_hydro',
        namespace=LaunchConfiguration('namespace'),
        output='screen',
        parameters=[
            LaunchConfiguration('config'),
            {
                'vehicle_file': LaunchConfiguration('config'),
                'ardusub_input': LaunchConfiguration('input'),
                'use_sim_time': ParameterValue(LaunchConfiguration('use_sim_time'),
                                               value_type=bool),
            },
        ],
    )
    return LaunchDescription(arguments + [node])
