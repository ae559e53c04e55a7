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
ArduSub SITL flies a uwv_hydro vehicle: the node as ArduPilot's JSON physics backend.

Starts hydro_node in simulate mode with ``config`` as both its parameters and its
vehicle (config/ardusub_bluerov2.yaml: the BlueROV2, FRAME_CONFIG 1, ArduSub's
sub.parm; config/ardusub_bluerov2_heavy.yaml: the BlueROV2 Heavy, FRAME_CONFIG 2,
sub-6dof.parm) and ``ardusub_input: sitl_json``: it binds UDP ``address``:``port``
(127.0.0.1:9002, where ``ardusub --model JSON`` sends its servo packets; instance I
uses 9002 + 10 I), steps once per ArduPilot frame of 1/``rate`` s (SIM_RATE_HZ, 1200
by default) and answers with the vehicle's state.  The node is the clock: it publishes
/clock (``publish_clock``) with odometry and TF at ``publish_rate`` per second of
physics time, and the vehicle's sensors (the DVL as marine_acoustic_msgs/Dvl on
dvl/data) at their rates; start RViz, MAVROS and rosbag2 with use_sim_time:=true.
doc/guide/ardusub_sitl.md ("Start it") gives the ArduPilot side;
test/integration/test_stack_launch.py starts the command line this file produces.
"""
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue
from launch_ros.substitutions import FindPackageShare


def generate_launch_description():
    """Return one uwv_hydro node serving ArduPilot's JSON SITL interface."""
    arguments = [
        DeclareLaunchArgument(
            'config',
            default_value=PathJoinSubstitution(
                [FindPackageShare('uwv_hydro'), 'config', 'ardusub_bluerov2.yaml']),
            description='vehicle and ArduSub parameters: ardusub_bluerov2.yaml (FRAME_CONFIG '
                        '1), ardusub_bluerov2_heavy.yaml (FRAME_CONFIG 2)'),
        DeclareLaunchArgument('address', default_value='127.0.0.1',
                              description='UDP address the node binds'),
        DeclareLaunchArgument('port', default_value='9002',
                              description='UDP port (ArduPilot instance I: 9002 + 10 I)'),
        DeclareLaunchArgument('rate', default_value='1200.0',
                              description="ArduPilot's frame rate (SIM_RATE_HZ)"),
        DeclareLaunchArgument('publish_rate', default_value='100.0',
                              description='/clock, odometry and TF per second of physics '
                                          'time'),
        DeclareLaunchArgument('publish_clock', default_value='true',
                              description='publish the physics time on /clock'),
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
                'ardusub_input': 'sitl_json',
                'sitl_json_address': LaunchConfiguration('address'),
                'sitl_json_port': ParameterValue(LaunchConfiguration('port'), value_type=int),
                'rate_hz': ParameterValue(LaunchConfiguration('rate'), value_type=float),
                'sitl_json_publish_rate': ParameterValue(LaunchConfiguration('publish_rate'),
                                                         value_type=float),
                'sitl_json_publish_clock': ParameterValue(
                    LaunchConfiguration('publish_clock'), value_type=bool),
            },
        ],
    )
    return LaunchDescription(arguments + [node])
