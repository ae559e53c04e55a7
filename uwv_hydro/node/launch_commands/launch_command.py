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
The command line ``launch/uwv_hydro.launch.py`` builds, in one place.

launch/launch_ros are not installable everywhere (not in this repository's test
environment), so tests, the demo and the docs start the node with the command line
the launch file would produce; ``test/integration/test_launch_command.py`` parses the launch
file and checks it agrees with the constants here.

What launch_ros does, and :func:`build_command` reproduces::

    hydro_node --ros-args -r __node:=uwv_hydro [-r __ns:=/<namespace>]
               --params-file <params_file>
               --params-file <tmp>/robot_description.yaml
               -p mode:=<mode> -p use_sim_time:=<bool> -p rate_hz:=<float>

The URDF (the xacro output) is written to a temporary params YAML rather than passed
with ``-p robot_description:=...``: a long XML string with quotes, colons and
newlines is not a safe command-line YAML value (launch_ros writes every parameter
dict to a temporary params file for the same reason).  Later sources override
earlier ones, so the launch arguments override ``params_file`` as in the launch file
(``parameters=[params_file, {...}]``).
"""
import os
import pathlib
import signal
import subprocess
import tempfile
from typing import Dict, List, Optional, Tuple

import yaml

PACKAGE = 'uwv_hydro'
EXECUTABLE = 'hydro_node'
NODE_NAME = 'uwv_hydro'
#: Package-share-relative default files of the launch arguments.
DEFAULT_VEHICLE = 'urdf/dsros_vehicle.urdf.xacro'
DEFAULT_PARAMS_FILE = 'config/node_defaults.yaml'
#: Launch arguments and their defaults ('$share/...' = in the package share directory).
LAUNCH_ARGUMENTS: Dict[str, str] = {
    'vehicle': '$share/' + DEFAULT_VEHICLE,
    'mode': 'simulate',
    'use_sim_time': 'false',
    'rate_hz': '100.0',
    'namespace': '',
    'params_file': '$share/' + DEFAULT_PARAMS_FILE,
}
#: Node parameter -> (launch argument it comes from, value type).
NODE_PARAMETERS: Dict[str, Tuple[str, type]] = {
    'robot_description': ('vehicle', str),
    'mode': ('mode', str),
    'use_sim_time': ('use_sim_time', bool),
    'rate_hz': ('rate_hz', float),
}


def share_directory() -> pathlib.Path:
    """Return the package share directory (installed, else the source tree)."""
    try:
        from ament_index_python.packages import get_package_share_directory
        return pathlib.Path(get_package_share_directory(PACKAGE))
    except Exception:  # noqa: B902 - not installed / no ament index: the source tree
        return pathlib.Path(__file__).resolve().parents[3]


def default_path(argument: str) -> str:
    """Return the default of a file-valued launch argument as an absolute path."""
    value = LAUNCH_ARGUMENTS[argument]
    if value.startswith('$share/'):
        return str(share_directory() / value[len('$share/'):])
    return value


def expand_vehicle(path: str, mappings: Optional[Dict[str, str]] = None) -> str:
    """Return the URDF text of ``path`` (xacro run as the launch file's Command does)."""
    if path.endswith('.xacro'):
        from uwv_hydro.description.urdf.xacro_file import expand_xacro
        return expand_xacro(path, mappings)
    return pathlib.Path(path).read_text()


def executable_path() -> str:
    """Return the hydro_node executable (the colcon install, else the one on PATH)."""
    installed = share_directory().parents[1] / 'lib' / PACKAGE / EXECUTABLE
    if installed.is_file():
        return str(installed)
    here = pathlib.Path(__file__).resolve().parents[3] / 'install' / PACKAGE / 'lib' / \
        PACKAGE / EXECUTABLE
    return str(here) if here.is_file() else EXECUTABLE


def write_description_params(vehicle_urdf: str, path: Optional[str] = None) -> str:
    """Write ``robot_description`` to a params YAML (for every node); return its path."""
    if path is None:
        fd, path = tempfile.mkstemp(prefix='uwv_hydro_description_', suffix='.yaml')
        os.close(fd)
    with open(path, 'w') as f:
        yaml.safe_dump({'/**': {'ros__parameters': {'robot_description': vehicle_urdf}}}, f)
    return str(path)


def bool_text(value) -> str:
    """Return a launch boolean ('true', 1, True...) as a ROS parameter value text."""
    if isinstance(value, str):
        value = value.strip().lower() in ('true', '1', 'yes', 'on')
    return 'true' if value else 'false'


def build_command(vehicle_urdf: str, mode: str = 'simulate', use_sim_time=False,
                  rate_hz=100.0, namespace: str = '', params_file: str = '',
                  description_file: Optional[str] = None,
                  executable: Optional[str] = None) -> List[str]:
    """
    Return the argv launch/uwv_hydro.launch.py runs for these launch arguments.

    ``vehicle_urdf`` is the URDF text (xacro already expanded, see
    :func:`expand_vehicle`); it is written to ``description_file`` (a new temporary
    file when None).  ``params_file`` '' means the package's node_defaults.yaml.
    """
    argv = [executable or executable_path(), '--ros-args', '-r', '__node:=' + NODE_NAME]
    namespace = namespace.strip('/')
    if namespace:
        argv += ['-r', '__ns:=/' + namespace]
    argv += ['--params-file', params_file or default_path('params_file')]
    argv += ['--params-file', write_description_params(vehicle_urdf, description_file)]
    argv += ['-p', 'mode:=' + str(mode),
             '-p', 'use_sim_time:=' + bool_text(use_sim_time),
             '-p', 'rate_hz:=' + repr(float(rate_hz))]
    return argv


def stop_node(proc, timeout: float = 10.0) -> int:
    """
    Stop a node process as ``ros2 launch`` does (SIGINT, then SIGKILL); return its code.

    Does nothing to a process that has already exited.
    """
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return proc.returncode
