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
launch/uwv_hydro.launch.py and uwv_hydro.node.launch_commands.launch_command agree.

launch_ros is not installed here, so the launch file is read as an AST: declared
arguments and defaults, the Node's package, executable, name, namespace and
parameters (and which launch argument feeds each).  The command line built by
launch_command is then started for real.  Where launch_ros is installed, the
launch file is also imported and its Node compared.
"""
import ast
import pathlib

from nodes.harness import Probe, read_log
import pytest

from uwv_hydro.node.launch_commands import launch_command as lc

LAUNCH_FILE = lc.share_directory() / 'launch' / 'uwv_hydro.launch.py'
#: the node action both launch files start
SHARED_NODE = pathlib.Path(lc.__file__).with_name('launch_node.py')


def _call_name(node) -> str:
    return node.func.id if isinstance(node.func, ast.Name) else node.func.attr


def _calls(tree, name):
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call) and _call_name(n) == name]


def _launch_config(node):
    """Return the argument name of LaunchConfiguration('x') (possibly in ParameterValue)."""
    if isinstance(node, ast.Call) and _call_name(node) == 'LaunchConfiguration':
        return node.args[0].value
    return None


def _default(node) -> str:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Call) and _call_name(node) == 'PathJoinSubstitution':
        parts = node.args[0].elts
        assert _call_name(parts[0]) == 'FindPackageShare'
        assert parts[0].args[0].value == lc.PACKAGE
        return '$share/' + '/'.join(p.value for p in parts[1:])
    raise AssertionError('unexpected default %s' % ast.dump(node))


def _resolve(tree, node):
    """Return the value assigned to a variable (``x = ...; f(x)``), else ``node``."""
    if isinstance(node, ast.Name):
        for assign in ast.walk(tree):
            if isinstance(assign, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == node.id for t in assign.targets):
                return assign.value
    return node


def _parameter_source(value):
    """Return (launch argument, value type) a launch parameter value comes from."""
    name = _launch_config(value)
    if name is not None:
        return name, str
    assert _call_name(value) == 'ParameterValue', ast.dump(value)
    kwargs = {k.arg: k.value for k in value.keywords}
    kind = {'str': str, 'bool': bool, 'float': float}[kwargs['value_type'].id]
    inner = value.args[0]
    name = _launch_config(inner)
    if name is None:
        assert _call_name(inner) == 'Command'
        parts = inner.args[0].elts
        assert parts[0].value == 'xacro ', 'robot_description must come from xacro'
        name = _launch_config(parts[1])
    return name, kind


def launch_node(tree):
    """
    Return (Node keywords, first parameters entry, {name: value}) of a launch file's node.

    The Node call is in the shared module; its parameter dict spreads ``**overrides``,
    the dict the launch file passes to ``hydro_node``.
    """
    shared = ast.parse(SHARED_NODE.read_text())
    (node,) = _calls(shared, 'Node')
    kwargs = {k.arg: k.value for k in node.keywords}
    first, entries = kwargs['parameters'].elts
    params = {}
    for key, value in zip(entries.keys, entries.values):
        if key is None:  # {**overrides}: what the launch file gives hydro_node
            (call,) = _calls(tree, 'hydro_node')
            given = call.args[0]
            params.update({k.value: _resolve(tree, v)
                           for k, v in zip(given.keys, given.values)})
        else:
            params[key.value] = _resolve(shared, value)
    return kwargs, first, params


@pytest.fixture(scope='module')
def launch_tree():
    return ast.parse(LAUNCH_FILE.read_text())


def test_launch_arguments_match(launch_tree):
    declared = {}
    for call in _calls(launch_tree, 'DeclareLaunchArgument'):
        kwargs = {k.arg: k.value for k in call.keywords}
        declared[call.args[0].value] = _default(kwargs['default_value'])
    assert declared == lc.LAUNCH_ARGUMENTS


def test_launch_node_matches(launch_tree):
    kwargs, first, params = launch_node(launch_tree)
    assert kwargs['package'].value == lc.PACKAGE
    assert kwargs['executable'].value == lc.EXECUTABLE
    assert kwargs['name'].value == lc.NODE_NAME
    assert _launch_config(kwargs['namespace']) == 'namespace'
    assert _launch_config(first) == 'params_file', 'params_file must come first'
    sources = {k: _parameter_source(v) for k, v in params.items()}
    assert sources == lc.NODE_PARAMETERS


def test_command_line_carries_every_launch_argument(tmp_path):
    desc = str(tmp_path / 'description.yaml')
    argv = lc.build_command('<robot name="x"/>', mode='wrench', use_sim_time='true',
                            rate_hz=250, namespace='auv7', params_file='/p.yaml',
                            description_file=desc, executable='hydro_node')
    assert argv == ['hydro_node', '--ros-args', '-r', '__node:=uwv_hydro',
                    '-r', '__ns:=/auv7', '--params-file', '/p.yaml', '--params-file', desc,
                    '-p', 'mode:=wrench', '-p', 'use_sim_time:=true', '-p', 'rate_hz:=250.0']
    import yaml
    assert yaml.safe_load(open(desc)) == {
        '/**': {'ros__parameters': {'robot_description': '<robot name="x"/>'}}}
    assert set(lc.NODE_PARAMETERS) == {'robot_description', 'mode', 'use_sim_time',
                                       'rate_hz'}
    default = lc.build_command('<robot/>', description_file=desc, executable='x')
    assert default[default.index('--params-file') + 1] == lc.default_path('params_file')
    assert '__ns' not in ' '.join(default)


def test_launch_defaults_exist():
    assert (lc.share_directory() / lc.DEFAULT_PARAMS_FILE).is_file()
    assert (lc.share_directory() / lc.DEFAULT_VEHICLE).is_file()


@pytest.mark.ros
def test_built_command_starts_the_node(rclpy_context, spawn, tmp_path):
    from nav_msgs.msg import Odometry
    from rcl_interfaces.srv import GetParameters
    urdf = lc.expand_vehicle(lc.default_path('vehicle'))
    argv = lc.build_command(urdf, mode='simulate', use_sim_time=False, rate_hz=40.0,
                            namespace='launched',
                            description_file=str(tmp_path / 'description.yaml'))
    log = tmp_path / 'node.log'
    with open(log, 'w') as out:
        proc = spawn(argv, stdout=out, stderr=out)
    probe = Probe(rclpy_context)
    odom = probe.collect(Odometry, '/launched/odometry', keep=2)
    assert probe.spin_until(lambda: odom, timeout=60.0, proc=proc, log=log), read_log(log)
    client = probe.node.create_client(GetParameters, '/launched/uwv_hydro/get_parameters')
    values = probe.query(client, GetParameters.Request(
        names=['rate_hz', 'mode', 'use_sim_time', 'robot_description', 'odom_frame']),
        proc=proc, log=log).values
    assert values[0].double_value == 40.0  # the launch argument overrides params_file
    assert values[1].string_value == 'simulate'
    assert values[2].bool_value is False
    assert values[3].string_value == urdf
    assert values[4].string_value == 'odom'  # from the default params_file
    probe.close()


def test_launch_file_imports_where_launch_ros_exists():
    pytest.importorskip('launch_ros')
    import importlib.util
    spec = importlib.util.spec_from_file_location('uwv_hydro_launch', str(LAUNCH_FILE))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    description = module.generate_launch_description()
    names = [a.name for a in description.entities if hasattr(a, 'default_value')]
    assert set(names) == set(lc.LAUNCH_ARGUMENTS)
