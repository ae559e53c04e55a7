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
launch/uvms.launch.py and node.launch_commands.uvms_launch_command agree (as test_launch_command).

launch_ros is not installed here: the launch file is read as an AST (arguments and
defaults, the node and where each parameter comes from) and compared with the
constants of uvms_launch_command; the command line it builds is started for real on
the vehicle-manipulator look-alike (test/corpus/uuv_simulator/uvms_like.urdf.xacro) in
simulate mode: joint_states on the topic given, /tf of the shoulder in the arm's base
link (its URDF parent) and /tf_static of the arm's base in the vehicle's base link.
"""
import ast
import os
import pathlib

from nodes.harness import Probe
import pytest
from required_modules import require
from test_launch_command import _call_name, _calls, _default, _launch_config, \
    _parameter_source

from uwv_hydro.node.launch_commands import launch_command as lc
from uwv_hydro.node.launch_commands import uvms_launch_command as uvms

LAUNCH_FILE = lc.share_directory() / 'launch' / 'uvms.launch.py'
UVMS = pathlib.Path(__file__).resolve().parents[1] / 'corpus' / 'uuv_simulator' / \
    'uvms_like.urdf.xacro'


@pytest.fixture(scope='module')
def tree():
    return ast.parse(LAUNCH_FILE.read_text())


def _kwargs(call):
    return {k.arg: k.value for k in call.keywords}


def test_launch_arguments_match(tree):
    declared = {}
    for call in _calls(tree, 'DeclareLaunchArgument'):
        default = _kwargs(call).get('default_value')
        declared[call.args[0].value] = None if default is None else _default(default)
    assert declared == uvms.UVMS_LAUNCH_ARGUMENTS
    assert (lc.share_directory() / lc.DEFAULT_PARAMS_FILE).is_file()


def test_node_matches(tree):
    (node,) = _calls(tree, 'Node')
    kwargs = _kwargs(node)
    assert (kwargs['package'].value, kwargs['executable'].value, kwargs['name'].value) == \
        (lc.PACKAGE, lc.EXECUTABLE, lc.NODE_NAME)
    assert _launch_config(kwargs['namespace']) == 'namespace'
    first, given = kwargs['parameters'].elts
    assert _launch_config(first) == 'params_file', 'params_file must come first'
    sources = {k.value: _parameter_source(v) for k, v in zip(given.keys, given.values)}
    assert sources == uvms.UVMS_NODE_PARAMETERS
    assert not _calls(tree, 'Command'), \
        'the node runs xacro itself (ROS_PACKAGE_PATH for ROS 1 packages)'
    assert [_call_name(c) for c in _calls(tree, 'Node')] == ['Node']


def test_command_line_carries_every_launch_argument():
    argv = uvms.build_command('/v/rexrov_oberon7.xacro', params_file='/p.yaml',
                              namespace='uvms', executable='hydro_node', mode='wrench',
                              joint_states='/rexrov/joint_states', gz_entity_wrench='true',
                              use_sim_time='true', rate_hz=500)
    assert argv == ['hydro_node', '--ros-args', '-r', '__node:=uwv_hydro',
                    '-r', '__ns:=/uvms', '--params-file', '/p.yaml',
                    '-p', 'vehicle_file:=/v/rexrov_oberon7.xacro', '-p', 'mode:=wrench',
                    '-p', 'joint_states_topic:=/rexrov/joint_states',
                    '-p', 'gz_entity_wrench:=true', '-p', 'use_sim_time:=true',
                    '-p', 'rate_hz:=500.0']
    default = uvms.build_command('v.urdf', executable='x')
    assert default[default.index('--params-file') + 1] == lc.default_path('params_file')
    assert 'mode:=simulate' in default and 'gz_entity_wrench:=false' in default
    assert '__ns' not in ' '.join(default)
    with pytest.raises(TypeError, match='joint_state'):
        uvms.build_command('v.urdf', joint_state='js')


def _ns(stamp):
    return stamp.sec * 10 ** 9 + stamp.nanosec


@pytest.mark.ros
def test_built_command_runs_the_arm_in_simulate_mode(rclpy_context, spawn, tmp_path):
    require('pinocchio')
    from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
    from sensor_msgs.msg import JointState
    from tf2_msgs.msg import TFMessage
    ns = 'uvms_launch_%d' % os.getpid()
    argv = uvms.build_command(str(UVMS), namespace=ns, joint_states='arm_states',
                              rate_hz=50.0)
    log = tmp_path / 'node.log'
    with open(log, 'w') as out:
        proc = spawn(argv, stdout=out, stderr=out)
    probe = Probe(rclpy_context)
    states = probe.collect(JointState, '/%s/arm_states' % ns, keep=5)
    tf = probe.collect(TFMessage, '/tf', keep=200)
    latched = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                         durability=DurabilityPolicy.TRANSIENT_LOCAL)
    static = probe.collect(TFMessage, '/tf_static', qos=latched)

    def sent(messages, child):
        return [t for m in messages for t in m.transforms if t.child_frame_id == child]

    assert probe.spin_until(lambda: states and sent(tf, 'arm/upper') and sent(
        static, 'arm/base'), timeout=60.0, proc=proc, log=log), 'no joint states or TF'
    assert list(states[-1].name) == ['arm/shoulder', 'arm/elbow']
    assert {t.header.frame_id for t in sent(tf, 'arm/upper')} == {'arm/base'}
    assert {t.header.frame_id for t in sent(tf, 'arm/fore')} <= {'arm/upper'}
    (base,) = {(t.header.frame_id, t.transform.translation.x)
               for t in sent(static, 'arm/base')}
    # the anchor's origin: 0.8 m ahead of the base link (the look-alike's numbers)
    assert base[0] == 'base_link' and abs(base[1] - 0.8) < 1e-12
    probe.close()


def test_launch_file_runs_where_launch_ros_exists():
    pytest.importorskip('launch_ros')
    import runpy
    description = runpy.run_path(str(LAUNCH_FILE))['generate_launch_description']()
    declared = {a.name for a in description.entities if hasattr(a, 'default_value')}
    assert declared == set(uvms.UVMS_LAUNCH_ARGUMENTS)
