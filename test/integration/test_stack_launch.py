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
The stacks' example launch files start a node that speaks the stacks' topics.

launch_ros is not installed here, so each launch file is read as an AST (as
test_launch_command.py does): the argument defaults and the uwv_hydro Node's
parameters give the node's command line (params files, then ``-p`` overrides), which
is started for real; the node must then subscribe to the stack's command topic and
publish what the stack reads.  The files the launch files name must be shipped.
"""
import ast
import os

from nodes.harness import node_command, Probe, read_log
import pytest
from test_launch_command import _call_name, _calls, _default, _launch_config

from uwv_hydro.description.loader import load_vehicle
from uwv_hydro.node.launch_commands import launch_command as lc

pytestmark = pytest.mark.ros


def _kwargs(call):
    return {k.arg: k.value for k in call.keywords}


def _path(value: str) -> str:
    return str(lc.share_directory() / value[len('$share/'):]) if value.startswith(
        '$share/') else value


def _node_command(name):
    """Return (arguments' defaults, the uwv_hydro node's command-line arguments)."""
    tree = ast.parse((lc.share_directory() / 'launch' / name).read_text())
    defaults = {c.args[0].value: _path(_default(_kwargs(c)['default_value']))
                for c in _calls(tree, 'DeclareLaunchArgument')}
    (node,) = [n for n in _calls(tree, 'Node') if _kwargs(n)['package'].value == lc.PACKAGE]
    assert _kwargs(node)['executable'].value == lc.EXECUTABLE
    files, overrides = [], []

    def value_of(v):
        if isinstance(v, ast.Constant):
            return v.value
        if _call_name(v) == 'ParameterValue':
            kind = {'bool': lambda s: s == 'true', 'str': str, 'int': int,
                    'float': float}[_kwargs(v)['value_type'].id]
            return kind(value_of(v.args[0]))
        return defaults[_launch_config(v)]

    for item in _kwargs(node)['parameters'].elts:
        if isinstance(item, ast.Dict):
            for k, v in zip(item.keys, item.values):
                if isinstance(v, ast.Name):  # a variable: its assignment
                    (v,) = [a.value for a in ast.walk(tree) if isinstance(a, ast.Assign)
                            and any(getattr(t, 'id', None) == v.id for t in a.targets)]
                value = value_of(v)
                text = str(value).lower() if isinstance(value, bool) else str(value)
                overrides += ['-p', '%s:=%s' % (k.value, text)]
        else:
            files += ['--params-file', value_of(item)]
    return defaults, files + overrides


def _run(spawn, rclpy_context, tmp_path, name, check):
    defaults, args = _node_command(name)
    ns = '/launch_%d' % os.getpid()
    log = tmp_path / 'node.log'
    with open(log, 'w') as out:
        proc = spawn(node_command(ns=ns) + args, stdout=out, stderr=out)
    probe = Probe(rclpy_context)
    try:
        assert probe.spin_until(lambda: check(probe.node, ns), timeout=60.0, proc=proc,
                                log=log), read_log(log)
    finally:
        probe.close()
        lc.stop_node(proc, timeout=5)
    return defaults, read_log(log)


def test_ardusub_launch(spawn, rclpy_context, tmp_path):
    def check(node, ns):
        return (node.count_subscribers(ns + '/mavros/rc/override') > 0
                and node.count_publishers(ns + '/dvl/data') > 0
                and node.count_publishers(ns + '/odometry') > 0)
    defaults, log = _run(spawn, rclpy_context, tmp_path, 'ardusub_hil.launch.py', check)
    assert defaults['input'] == 'override'
    for config in ('ardusub_bluerov2.yaml', 'ardusub_bluerov2_heavy.yaml'):
        assert len(load_vehicle(str(lc.share_directory() / 'config' / config)).thrusters) in (
            6, 8)
    # the config is the vehicle file too: its vehicle keys are no "unread parameters"
    assert 'vehicle keys the node does not read' not in log
    assert 'servo 6 -> thruster6_joint' in log


def test_ardusub_sitl_launch(spawn, rclpy_context, tmp_path):
    """The launch file's node answers ArduPilot's servo packet (on a free port here)."""
    import socket
    from ardupilot_json_peer import Peer
    defaults, args = _node_command('ardusub_sitl.launch.py')
    assert defaults['port'] == '9002' and defaults['rate'] == '1200.0'
    assert 'ardusub_input:=sitl_json' in args and 'sitl_json_port:=9002' in args
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(('127.0.0.1', 0))
        port = s.getsockname()[1]
    args[args.index('sitl_json_port:=9002')] = 'sitl_json_port:=%d' % port
    ns = '/launch_%d' % os.getpid()
    log = tmp_path / 'node.log'
    with open(log, 'w') as out:
        proc = spawn(node_command(ns=ns) + args, stdout=out, stderr=out)
    probe = Probe(rclpy_context)
    peer = Peer(port, timeout=0.5)

    def answered():
        if not (probe.node.count_publishers(ns + '/odometry') > 0
                and probe.node.count_publishers('/clock') > 0
                and probe.node.count_publishers(ns + '/dvl/data') > 0):
            return False
        try:
            reply = peer.frame(0)[0]
        except OSError:
            return False
        # one step of 1/1200 s from the surface (the default initial position)
        return abs(reply['timestamp'] - 1 / 1200) < 1e-9 and abs(reply['position'][2]) < 1e-3
    try:
        assert probe.spin_until(answered, timeout=60.0, proc=proc, log=log), read_log(log)
    finally:
        peer.close()
        probe.close()
        lc.stop_node(proc, timeout=5)
    text = read_log(log)
    assert 'servo 6 -> thruster6_joint' in text and "ArduPilot SITL's frames" in text


def test_ros2_control_launch(spawn, rclpy_context, tmp_path):
    def check(node, ns):
        return (node.count_subscribers('/robot_joint_commands') > 0
                and node.count_publishers('/robot_joint_states') > 0)
    defaults, _ = _run(spawn, rclpy_context, tmp_path, 'ros2_control_hil.launch.py', check)
    for key in ('vehicle', 'description', 'controllers'):
        assert os.path.isfile(defaults[key]), defaults[key]
    # the <ros2_control> block names the joints of the vehicle uwv_hydro simulates
    import xml.etree.ElementTree as ET
    import xacro
    urdf = ET.fromstring(xacro.process_file(defaults['description']).toxml())
    (block,) = urdf.findall('ros2_control')
    assert block.find('hardware/plugin').text == 'topic_based_ros2_control/TopicBasedSystem'
    joints = {j.get('name'): [c.get('name') for c in j.findall('command_interface')]
              for j in block.findall('joint')}
    vehicle = load_vehicle(defaults['vehicle'])
    assert joints == dict({t.joint_name: ['effort'] for t in vehicle.thrusters},
                          **{f.name: ['position'] for f in vehicle.fins})
