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
The hydro_node action both launch files start (launch/uwv_hydro.launch.py, gz_sim.launch.py).

:func:`hydro_node` returns the launch_ros Node with the launch arguments every file
declares: ``namespace``, ``params_file`` (first: the overrides win) and ``vehicle`` (run
through xacro into ``robot_description``); each launch file adds its own parameters.
Imported only by the launch files (launch and launch_ros are needed where they run);
uwv_hydro/node/launch_commands/launch_command.py builds the same command line without launch.
"""
from launch.substitutions import Command, LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue


def hydro_node(overrides: dict) -> Node:
    """Return the uwv_hydro node: params_file, then robot_description and ``overrides``."""
    robot_description = ParameterValue(Command(['xacro ', LaunchConfiguration('vehicle')]),
                                       value_type=str)
    return Node(
        package='uwv_hydro',
        executable='hydro_node',
        name='uwv_hydro',
        namespace=LaunchConfiguration('namespace'),
        output='screen',
        parameters=[
            LaunchConfiguration('params_file'),
            {'robot_description': robot_description, **overrides},
        ],
    )
