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
The node's gz-sim output over real DDS: ros_gz_interfaces/EntityWrench for ApplyLinkWrench.

A subscriber here receives ``hydro/entity_wrench`` and ``hydro/wrench_world`` for the
same odometry: entity ``<model>::<link>`` of type LINK, the same header, the same
numbers (``gz_wrench_point: link_origin``) or the torque moved to the centre of mass
(``com``: T_c = T_o - (R c) x F, with R from transforms3d here).  The node started by
the gz-sim launch command does the same on sim time.  Without ros_gz_interfaces on
the path the node runs as before and only ``gz_entity_wrench: true`` fails, clearly.
"""
import os

from nodes.harness import node_command, Probe, read_log, start_node, write_params
import numpy as np
import pytest
from test_node_wrench import _array, _odometry, NU, VEHICLE

pytestmark = pytest.mark.ros


def _pairs(world, entity):
    """Return {stamp: (wrench_world msg, entity msg)} for stamps both lists have."""
    by_stamp = {(m.header.stamp.sec, m.header.stamp.nanosec): m for m in world}
    return {(e.header.stamp.sec, e.header.stamp.nanosec): (by_stamp[(
        e.header.stamp.sec, e.header.stamp.nanosec)], e) for e in entity if (
        e.header.stamp.sec, e.header.stamp.nanosec) in by_stamp}


def _collect_pair(probe, proc, log, odometry, tick=lambda: None):
    from geometry_msgs.msg import WrenchStamped
    from ros_gz_interfaces.msg import EntityWrench
    world = probe.collect(WrenchStamped, 'hydro/wrench_world', keep=20)
    entity = probe.collect(EntityWrench, 'hydro/entity_wrench', keep=20)
    pub = probe.publisher(type(odometry), 'odometry')
    assert probe.spin_until(lambda: _pairs(world, entity), timeout=60.0, proc=proc, log=log,
                            action=lambda: (tick(), pub.publish(odometry))), read_log(log)
    return next(iter(_pairs(world, entity).values()))


@pytest.mark.parametrize('point', ['link_origin', 'com'])
def test_entity_wrench_is_the_world_wrench(rclpy_context, spawn, tmp_path, point):
    from transforms3d.quaternions import quat2mat
    from uwv_hydro.description.loader import load_vehicle
    proc, log = start_node(spawn, tmp_path, {
        'vehicle_file': VEHICLE, 'mode': 'wrench', 'rate_hz': 50.0, 'odometry_timeout': 600.0,
        'gz_entity_wrench': True, 'gz_model_name': 'auv', 'gz_wrench_point': point})
    probe = Probe(rclpy_context)
    odometry, q = _odometry(NU, 10 ** 9)
    world, entity = _collect_pair(probe, proc, log, odometry)
    assert entity.entity.name == 'auv::base_link'
    assert entity.entity.type == 3 and entity.entity.id == 0  # LINK, looked up by name
    assert entity.header == world.header and world.header.frame_id == 'odom'
    expected = _array(world.wrench)
    if point == 'com':
        com_world = quat2mat(q) @ load_vehicle(VEHICLE).com
        assert np.linalg.norm(np.cross(com_world, expected[:3])) > 1.0, 'no torque shift'
        expected[3:] -= np.cross(com_world, expected[:3])
        np.testing.assert_allclose(_array(entity.wrench), expected, rtol=0, atol=1e-9)
    else:
        np.testing.assert_array_equal(_array(entity.wrench), expected)
    probe.close()


def test_node_of_the_gz_launch_command_publishes_on_sim_time(rclpy_context, spawn, tmp_path):
    from rosgraph_msgs.msg import Clock
    from uwv_hydro.node.launch_commands import gz_launch_command as gz
    from uwv_hydro.node.launch_commands import launch_command as lc
    argv = gz.build_node_command(lc.expand_vehicle(gz.default_path('vehicle')), rate_hz=200.0,
                                 description_file=str(tmp_path / 'description.yaml'))
    log = tmp_path / 'node.log'
    with open(log, 'w') as out:
        proc = spawn(argv, stdout=out, stderr=out)
    probe = Probe(rclpy_context)
    clock = probe.publisher(Clock, '/clock')
    ticks = iter(range(10 ** 6))

    def tick():
        msg = Clock()
        msg.clock.sec, msg.clock.nanosec = divmod(next(ticks) * 5 * 10 ** 6 + 10 ** 9, 10 ** 9)
        clock.publish(msg)

    odometry, _ = _odometry(NU, 10 ** 9)
    world, entity = _collect_pair(probe, proc, log, odometry, tick)
    assert entity.entity.name == 'dsros_vehicle::base_link'
    np.testing.assert_array_equal(_array(entity.wrench), _array(world.wrench))
    # stamped on the simulator's clock, not wall time
    assert entity.header.stamp.sec < 10 ** 6
    probe.close()


def test_without_ros_gz_interfaces_only_the_gz_output_fails(
        rclpy_context, spawn, tmp_path, ros_env):
    from geometry_msgs.msg import WrenchStamped
    hidden = dict(ros_env)
    hidden['PYTHONPATH'] = os.pathsep.join(
        p for p in ros_env.get('PYTHONPATH', '').split(os.pathsep)
        if 'ros_gz_interfaces' not in p)
    base = {'vehicle_file': VEHICLE, 'mode': 'wrench', 'rate_hz': 50.0,
            'odometry_timeout': 600.0}
    log = tmp_path / 'off.log'
    with open(log, 'w') as out:
        proc = spawn(node_command(write_params(tmp_path / 'off.yaml', base)), env=hidden,
                     stdout=out, stderr=out)
    probe = Probe(rclpy_context)
    world = probe.collect(WrenchStamped, 'hydro/wrench_world', keep=2)
    odometry, _ = _odometry(NU, 10 ** 9)
    pub = probe.publisher(type(odometry), 'odometry')
    assert probe.spin_until(lambda: world, timeout=60.0, proc=proc, log=log,
                            action=lambda: pub.publish(odometry)), read_log(log)
    log_on = tmp_path / 'on.log'
    with open(log_on, 'w') as out:
        proc_on = spawn(node_command(write_params(tmp_path / 'on.yaml', dict(
            base, gz_entity_wrench=True))), env=hidden, stdout=out, stderr=out)
    assert proc_on.wait(timeout=60) == 1
    assert 'gz_entity_wrench' in read_log(log_on) and 'ros_gz_interfaces' in read_log(log_on)
    probe.close()
