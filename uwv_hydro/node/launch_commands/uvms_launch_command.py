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
The command line ``launch/uvms.launch.py`` runs, in one place (as launch_command.py).

A vehicle with an arm (uuv_simulator's RexROV + Oberon7, doc/guide/uvms.md) is given
as ``vehicle_file``: the node runs xacro itself, resolving ``$(find pkg)`` of ROS 1
packages through ``ROS_PACKAGE_PATH`` (ROS 2's xacro only looks in the ament index).
launch_ros is not installable here: ``test/integration/test_uvms_launch.py`` reads the launch file
as an AST, checks it against the constants below and starts the command line::

    hydro_node --ros-args -r __node:=uwv_hydro [-r __ns:=/<namespace>]
               --params-file <params_file> -p vehicle_file:=<vehicle>
               -p mode:=<mode> -p joint_states_topic:=<joint_states>
               -p gz_entity_wrench:=<bool> -p use_sim_time:=<bool> -p rate_hz:=<float>
"""
from typing import Dict, List, Optional, Tuple

from uwv_hydro.node.launch_commands import launch_command as lc

#: Launch arguments and their defaults (None: required; '$share/...' as in lc).
UVMS_LAUNCH_ARGUMENTS: Dict[str, Optional[str]] = {
    'vehicle': None,
    'mode': 'simulate',
    'joint_states': 'joint_states',
    'gz_entity_wrench': 'false',
    'use_sim_time': 'false',
    'rate_hz': '100.0',
    'namespace': '',
    'params_file': '$share/' + lc.DEFAULT_PARAMS_FILE,
}
#: Node parameter -> (launch argument it comes from, value type), in command-line order.
UVMS_NODE_PARAMETERS: Dict[str, Tuple[str, type]] = {
    'vehicle_file': ('vehicle', str),
    'mode': ('mode', str),
    'joint_states_topic': ('joint_states', str),
    'gz_entity_wrench': ('gz_entity_wrench', bool),
    'use_sim_time': ('use_sim_time', bool),
    'rate_hz': ('rate_hz', float),
}


def build_command(vehicle: str, params_file: str = '', namespace: str = '',
                  executable: Optional[str] = None, **arguments) -> List[str]:
    """
    Return the argv launch/uvms.launch.py runs for these launch arguments.

    ``arguments``: the other launch arguments by name (defaults as the launch file's);
    ``params_file`` '' means the package's node_defaults.yaml.
    """
    unknown = set(arguments) - set(UVMS_LAUNCH_ARGUMENTS)
    if unknown:
        raise TypeError('not launch arguments of uvms.launch.py: %s' % sorted(unknown))
    values = dict(UVMS_LAUNCH_ARGUMENTS, vehicle=vehicle, **arguments)
    argv = [executable or lc.executable_path(), '--ros-args', '-r', '__node:=' + lc.NODE_NAME]
    namespace = namespace.strip('/')
    if namespace:
        argv += ['-r', '__ns:=/' + namespace]
    argv += ['--params-file', params_file or lc.default_path('params_file')]
    for name, (argument, kind) in UVMS_NODE_PARAMETERS.items():
        value = values[argument]
        text = lc.bool_text(value) if kind is bool else repr(float(value)) \
            if kind is float else str(value)
        argv += ['-p', '%s:=%s' % (name, text)]
    return argv
