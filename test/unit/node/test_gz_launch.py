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
launch/gz_sim.launch.py and node.launch_commands.gz_launch_command agree (as test_launch_command).

gz-sim, ros_gz and launch_ros are not installed here: the launch file is read as an
AST (arguments and defaults, the gz-sim include, the bridge and node actions and where
each parameter comes from) and compared with the constants of gz_launch_command; the
node command line it builds is started for real (it must publish the EntityWrench the
bridge forwards, on sim time from /clock).
"""
import ast

import pytest
from test_launch_command import _call_name, _calls, _default, _launch_config, \
    _parameter_source, launch_node

from uwv_hydro.node.launch_commands import gz_launch_command as gz
from uwv_hydro.node.launch_commands import launch_command as lc

LAUNCH_FILE = lc.share_directory() / 'launch' / 'gz_sim.launch.py'


@pytest.fixture(scope='module')
def tree():
    return ast.parse(LAUNCH_FILE.read_text())


def _kwargs(call):
    return {k.arg: k.value for k in call.keywords}


def _node(tree, package):
    (node,) = [n for n in _calls(tree, 'Node') if _kwargs(n)['package'].value == package]
    return _kwargs(node)


def test_launch_arguments_match(tree):
    declared = {c.args[0].value: _default(_kwargs(c)['default_value'])
                for c in _calls(tree, 'DeclareLaunchArgument')}
    assert declared == gz.GZ_LAUNCH_ARGUMENTS
    for name in ('vehicle', 'world', 'bridge_config', 'params_file'):
        assert (lc.share_directory() / gz.GZ_LAUNCH_ARGUMENTS[name][len('$share/'):]).is_file()


def test_gz_sim_is_started_on_the_world(tree):
    (include,) = _calls(tree, 'IncludeLaunchDescription')
    (source,) = _calls(include, 'PathJoinSubstitution')
    parts = source.args[0].elts
    assert _call_name(parts[0]) == 'FindPackageShare'
    assert [parts[0].args[0].value] + [p.value for p in parts[1:]] == \
        ['ros_gz_sim', 'launch', 'gz_sim.launch.py']
    arguments = _kwargs(include)['launch_arguments'].func.value
    (key,), (value,) = arguments.keys, arguments.values
    assert key.value == 'gz_args'
    pieces = [_launch_config(e) or e.value for e in value.elts]
    assert pieces == ['gz_args', ' ', 'world']
    assert gz.gz_command() == ['gz', 'sim', '-r', gz.default_path('world')]


def test_bridge_matches(tree):
    kwargs = _node(tree, gz.BRIDGE_PACKAGE)
    assert kwargs['executable'].value == gz.BRIDGE_EXECUTABLE
    assert kwargs['name'].value == gz.BRIDGE_NODE_NAME
    assert _launch_config(kwargs['namespace']) == 'namespace'
    (params,) = kwargs['parameters'].elts
    assert [k.value for k in params.keys] == ['config_file']
    assert _launch_config(params.values[0]) == 'bridge_config'
    assert gz.bridge_command(namespace='auv') == [
        'parameter_bridge', '--ros-args', '-r', '__node:=uwv_hydro_gz_bridge',
        '-r', '__ns:=/auv', '-p', 'config_file:=' + gz.default_path('bridge_config')]


def test_node_matches(tree):
    assert [_kwargs(n)['package'].value for n in _calls(tree, 'Node')] == [gz.BRIDGE_PACKAGE]
    kwargs, first, params = launch_node(tree)
    assert kwargs['package'].value == lc.PACKAGE
    assert kwargs['executable'].value == lc.EXECUTABLE
    assert kwargs['name'].value == lc.NODE_NAME
    assert _launch_config(kwargs['namespace']) == 'namespace'
    assert _launch_config(first) == 'params_file', 'params_file must come first'
    sources, fixed = {}, {}
    for k, v in params.items():
        if isinstance(v, ast.Constant):
            fixed[k] = v.value
        else:
            sources[k] = _parameter_source(v)
    assert sources == gz.GZ_NODE_PARAMETERS
    assert fixed == gz.GZ_NODE_FIXED


def test_node_command_carries_every_parameter(tmp_path):
    desc = str(tmp_path / 'description.yaml')
    argv = gz.build_node_command('<robot name="x"/>', model='auv', rate_hz=500,
                                 namespace='ns', params_file='/p.yaml',
                                 description_file=desc, executable='hydro_node')
    assert argv == ['hydro_node', '--ros-args', '-r', '__node:=uwv_hydro', '-r', '__ns:=/ns',
                    '--params-file', '/p.yaml', '--params-file', desc,
                    '-p', 'mode:=wrench', '-p', 'use_sim_time:=true', '-p', 'rate_hz:=500.0',
                    '-p', 'gz_model_name:=auv', '-p', 'added_mass:=implicit',
                    '-p', 'gz_entity_wrench:=true']
    default = gz.build_node_command('<robot/>', description_file=desc, executable='x')
    assert 'rate_hz:=1000.0' in default and 'gz_model_name:=dsros_vehicle' in default


def test_launch_file_runs_where_launch_ros_exists():
    pytest.importorskip('launch_ros')
    import runpy
    description = runpy.run_path(str(LAUNCH_FILE))['generate_launch_description']()
    declared = {a.name for a in description.entities if hasattr(a, 'default_value')}
    assert declared == set(gz.GZ_LAUNCH_ARGUMENTS)
