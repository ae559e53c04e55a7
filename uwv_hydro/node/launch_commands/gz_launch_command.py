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
The command lines ``launch/gz_sim.launch.py`` runs, in one place (as launch_command.py).

gz-sim, ros_gz and launch are not installable here: ``test/unit/node/test_gz_launch.py`` reads
the launch file as an AST and checks it against the constants below, and starts the
node's command line for real.  What the launch file runs, and the functions build::

    gz sim <gz_args> <world>                                    (ros_gz_sim's launch)
    parameter_bridge --ros-args -r __node:=uwv_hydro_gz_bridge [-r __ns:=/<ns>]
                     -p config_file:=<bridge_config>
    hydro_node ... (launch_command.build_command, mode wrench, sim time)
               -p gz_model_name:=<model> -p added_mass:=implicit -p gz_entity_wrench:=true
"""
from typing import Dict, List, Optional, Tuple

from uwv_hydro.node.launch_commands import launch_command as lc

#: Launch arguments of gz_sim.launch.py and their defaults ('$share/...' as in lc).
GZ_LAUNCH_ARGUMENTS: Dict[str, str] = {
    'vehicle': '$share/' + lc.DEFAULT_VEHICLE,
    'world': '$share/worlds/dsros_vehicle.sdf',
    'bridge_config': '$share/config/gz_bridge.yaml',
    'model': 'dsros_vehicle',
    'rate_hz': '1000.0',
    'namespace': '',
    'params_file': '$share/' + lc.DEFAULT_PARAMS_FILE,
    'gz_args': '-r',
}
#: Node parameters that come from launch arguments: name -> (argument, value type).
GZ_NODE_PARAMETERS: Dict[str, Tuple[str, type]] = {
    'robot_description': ('vehicle', str),
    'rate_hz': ('rate_hz', float),
    'gz_model_name': ('model', str),
}
#: Node parameters the launch file fixes: wrench mode on gz-sim's clock, M_A in the SDF.
GZ_NODE_FIXED = {
    'mode': 'wrench',
    'use_sim_time': True,
    'added_mass': 'implicit',
    'gz_entity_wrench': True,
}
BRIDGE_PACKAGE = 'ros_gz_bridge'
BRIDGE_EXECUTABLE = 'parameter_bridge'
BRIDGE_NODE_NAME = 'uwv_hydro_gz_bridge'


def default_path(argument: str) -> str:
    """Return the default of a gz launch argument, share paths made absolute."""
    value = GZ_LAUNCH_ARGUMENTS[argument]
    if value.startswith('$share/'):
        return str(lc.share_directory() / value[len('$share/'):])
    return value


def _text(value) -> str:
    if isinstance(value, bool):
        return 'true' if value else 'false'
    return str(value)


def build_node_command(vehicle_urdf: str, model: Optional[str] = None, rate_hz=None,
                       namespace: str = '', params_file: str = '',
                       description_file: Optional[str] = None,
                       executable: Optional[str] = None) -> List[str]:
    """Return the hydro_node argv gz_sim.launch.py runs for these launch arguments."""
    fixed = dict(GZ_NODE_FIXED)
    argv = lc.build_command(
        vehicle_urdf, mode=fixed.pop('mode'), use_sim_time=fixed.pop('use_sim_time'),
        rate_hz=default_path('rate_hz') if rate_hz is None else rate_hz,
        namespace=namespace, params_file=params_file, description_file=description_file,
        executable=executable)
    argv += ['-p', 'gz_model_name:=' + (model or default_path('model'))]
    for name, value in fixed.items():
        argv += ['-p', '%s:=%s' % (name, _text(value))]
    return argv


def bridge_command(config_file: Optional[str] = None, namespace: str = '',
                   executable: str = BRIDGE_EXECUTABLE) -> List[str]:
    """Return the ros_gz_bridge argv of gz_sim.launch.py."""
    argv = [executable, '--ros-args', '-r', '__node:=' + BRIDGE_NODE_NAME]
    namespace = namespace.strip('/')
    if namespace:
        argv += ['-r', '__ns:=/' + namespace]
    return argv + ['-p', 'config_file:=' + (config_file or default_path('bridge_config'))]


def gz_command(world: Optional[str] = None, gz_args: Optional[str] = None) -> List[str]:
    """Return the gz-sim argv (ros_gz_sim's gz_sim.launch.py runs ``gz sim <gz_args>``)."""
    options = default_path('gz_args') if gz_args is None else gz_args
    return ['gz', 'sim'] + options.split() + [world or default_path('world')]
