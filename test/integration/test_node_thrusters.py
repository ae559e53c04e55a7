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
Float64 thruster commands over DDS drive the simulated vehicle as the equivalent wrenches.

A separate driver process publishes std_msgs/Float64 on gz-sim's cmd_thrust / cmd_vel
topics of two thrusters (one commanded in newtons, one in rad/s); the node runs under
/clock in lock step.  The same run driven by WrenchStamped messages carrying the
equivalent base-frame wrenches (computed here from the thruster equations, not from the
node's code) must give the same trajectory.  Then the driver dies: the thrusters go stale
(neutral, zero thrust) and /diagnostics says so.
"""
from nodes.harness import diag_values, odometry_rows, Probe, REPO, start_node
import numpy as np
import pytest

pytestmark = pytest.mark.ros

PERIOD_NS = 10 ** 7  # rate_hz 100
T0_NS = 50 * 10 ** 9
TICKS = 150
RHO, CT, D, KQ = 1000.0, 0.01, 0.1, 0.002
STERN_XYZ, SIDE_XYZ = np.array([-1.0, 0.0, 0.1]), np.array([0.3, 0.5, -0.05])
STERN_THRUST, SIDE_OMEGA = 3.0, 40.0

VEHICLE = """<?xml version="1.0"?>
<robot name="duo">
  <link name="base_link">
    <inertial><mass value="10"/>
      <inertia ixx="0.5" ixy="0" ixz="0" iyy="1.0" iyz="0" izz="1.2"/></inertial>
  </link>
  <link name="stern_prop"/>
  <link name="side_prop"/>
  <joint name="stern_joint" type="continuous">
    <parent link="base_link"/><child link="stern_prop"/>
    <origin xyz="%s" rpy="0 0 0"/><axis xyz="1 0 0"/>
  </joint>
  <joint name="side_joint" type="continuous">
    <parent link="base_link"/><child link="side_prop"/>
    <origin xyz="%s" rpy="0 0 1.5707963267948966"/><axis xyz="1 0 0"/>
  </joint>
  <gazebo>
    <plugin name="dsros_hydro" filename="libdsros_hydro.so">
      <base_link>base_link</base_link>
      <buoyancy><center x="0" y="0" z="0.05"/><buoyancy>10</buoyancy></buoyancy>
      <drag>
        <linear><xx>4</xx><yy>8</yy><zz>8</zz><rr>1</rr><pp>1</pp><hh>1</hh></linear>
        <quadratic><xxx>6</xxx><yyy>12</yyy><hhh>2</hhh></quadratic>
      </drag>
    </plugin>
    <plugin filename="gz-sim-thruster-system" name="gz::sim::systems::Thruster">
      <joint_name>stern_joint</joint_name>
      <thrust_coefficient>%g</thrust_coefficient>
      <propeller_diameter>%g</propeller_diameter>
      <fluid_density>%g</fluid_density>
      <torque_coefficient>%g</torque_coefficient>
    </plugin>
    <plugin filename="gz-sim-thruster-system" name="gz::sim::systems::Thruster">
      <joint_name>side_joint</joint_name>
      <use_angvel_cmd>true</use_angvel_cmd>
      <thrust_coefficient>%g</thrust_coefficient>
      <propeller_diameter>%g</propeller_diameter>
      <fluid_density>%g</fluid_density>
      <torque_coefficient>%g</torque_coefficient>
    </plugin>
  </gazebo>
</robot>
""" % (' '.join(map(str, STERN_XYZ)), ' '.join(map(str, SIDE_XYZ)),
       CT, D, RHO, KQ, CT, D, RHO, KQ)


def _equivalent_wrenches():
    """Return the base-frame wrench of each thruster from the gz-sim/Fossen equations."""
    omega_stern = np.sqrt(STERN_THRUST / (CT * RHO * D ** 4))  # T = Ct rho D^4 w^2
    side_thrust = CT * RHO * D ** 4 * SIDE_OMEGA ** 2
    out = []
    for xyz, axis, thrust, omega in ((STERN_XYZ, np.array([1.0, 0, 0]), STERN_THRUST,
                                      omega_stern),
                                     (SIDE_XYZ, np.array([0, 1.0, 0]), side_thrust,
                                      SIDE_OMEGA)):
        force = thrust * axis
        reaction = -KQ * RHO * D ** 5 * omega ** 2  # the hull turns against the rotor
        out.append(np.concatenate((force, np.cross(xyz, force) + reaction * axis)))
    return out, side_thrust, omega_stern


def _run(spawn, rclpy_context, tmp_path, python, name, driver_args):
    """Lock-step the node under /clock with a driver process; return (odometry, extras)."""
    from nav_msgs.msg import Odometry
    from rosgraph_msgs.msg import Clock
    from std_msgs.msg import Float64
    from builtin_interfaces.msg import Time
    from diagnostic_msgs.msg import DiagnosticArray
    from uwv_hydro.node.launch_commands.launch_command import stop_node
    vehicle = tmp_path / 'duo.urdf'
    vehicle.write_text(VEHICLE)
    proc, log = start_node(spawn, tmp_path, {
        'vehicle_file': str(vehicle), 'mode': 'simulate', 'rate_hz': 100.0,
        'use_sim_time': True, 'thrust_topics': ['thrust_stern', 'thrust_side'],
        'initial_position': [0.0, 0.0, -20.0], 'publish_markers': False}, name=name)
    probe = Probe(rclpy_context, name='probe_' + name)
    odom = probe.collect(Odometry, 'odometry')
    force = probe.collect(Float64, '/model/duo/joint/stern_joint/force')
    side_force = probe.collect(Float64, '/model/duo/joint/side_joint/force')
    stern_speed = probe.collect(Float64, '/model/duo/joint/stern_joint/ang_vel')
    diags = probe.collect(DiagnosticArray, '/diagnostics')
    clock_pub = probe.publisher(Clock, '/clock')

    def tick(ns):
        clock_pub.publish(Clock(clock=Time(sec=ns // 10 ** 9, nanosec=ns % 10 ** 9)))

    assert probe.spin_until(lambda: probe.node.count_subscribers('/clock') > 0, timeout=60.0,
                            proc=proc, log=log), 'node did not start'
    publisher = REPO / 'test' / 'helpers' / 'nodes' / 'command_publisher.py'
    driver = spawn([python, str(publisher), '500'] + driver_args)
    assert driver.stdout.readline().strip() == 'ready'
    assert probe.spin_until(lambda: all(probe.node.count_publishers(t.split('=')[0]) > 0
                                        for t in driver_args[1:]), timeout=30.0)
    # starts the node's clock: the state is stamped T0 (repeated until seen: a repeated
    # /clock time does not advance the node)
    assert probe.spin_until(lambda: odom, timeout=30.0, proc=proc, log=log,
                            action=lambda: tick(T0_NS), period=0.05)
    # the driver's commands reach the node (its clock still at T0): /diagnostics counts them
    inputs = [t.split('=')[0] for t in driver_args[1:]]

    def received():
        return diags and all(int(diag_values(diags[-1], 'input ' + name).get('count', 0)) > 0
                             for name in inputs)
    assert probe.spin_until(received, timeout=30.0, proc=proc, log=log), 'no input counted'

    def stamp(msg):
        return msg.header.stamp.sec * 10 ** 9 + msg.header.stamp.nanosec

    for k in range(1, TICKS + 1):
        ns = T0_NS + k * PERIOD_NS
        assert probe.spin_until(lambda: odom and stamp(odom[-1]) == ns, timeout=10.0,
                                proc=proc, log=log, action=lambda: tick(ns)), \
            'no odometry for tick %d' % k
    states = odometry_rows(m for m in odom if stamp(m) > T0_NS)
    extras = {'force': [m.data for m in force], 'side_force': [m.data for m in side_force],
              'stern_speed': [m.data for m in stern_speed]}
    if driver_args[0] == 'float64':
        # the driver dies: 0.6 s of node time later both thrusters are stale and neutral
        driver.kill()
        for k in range(TICKS + 1, TICKS + 61):
            tick(T0_NS + k * PERIOD_NS)
            probe.spin_for(0.005)
        assert probe.spin_until(
            lambda: diags and 'stale' in diag_values(diags[-1], 'thrust watchdog').get(
                'thruster stern_joint', ''), timeout=10.0, proc=proc, log=log), \
            'stale thruster not in /diagnostics'
        watchdog = diag_values(diags[-1], 'thrust watchdog')
        extras['watchdog'] = watchdog
        extras['force_after'] = force[-1].data
        extras['input'] = diag_values(diags[-1], 'input /model/duo/joint/stern_joint/cmd_thrust')
    probe.close()
    stop_node(proc, timeout=5)  # the next run's /clock must drive its own node only
    driver.kill()
    driver.wait()
    return states, extras


def test_float64_thruster_commands_equal_the_equivalent_wrenches(
        spawn, rclpy_context, tmp_path, python):
    wrenches, side_thrust, omega_stern = _equivalent_wrenches()
    commands, commanded = _run(spawn, rclpy_context, tmp_path, python, 'float64', [
        'float64', '/model/duo/joint/stern_joint/cmd_thrust=%r' % STERN_THRUST,
        '/model/duo/joint/side_joint/cmd_vel=%r' % SIDE_OMEGA])
    reference, _ = _run(spawn, rclpy_context, tmp_path, python, 'wrench', [
        'wrench', 'thrust_stern=%s' % ','.join(repr(float(v)) for v in wrenches[0]),
        'thrust_side=%s' % ','.join(repr(float(v)) for v in wrenches[1])])
    assert commands.shape == reference.shape == (TICKS, 13)
    # the thrusters moved the vehicle: forward, sideways and turning
    assert commands[-1, 0] > 0.01 and commands[-1, 1] > 0.005 and abs(commands[-1, 12]) > 1e-3
    diff = float(np.max(np.abs(commands - reference)))
    print('max |trajectory difference| over %d steps: %.3g' % (TICKS, diff))
    assert diff < 1e-9, diff
    # gz-sim feedback: applied thrust on .../force, rotor speed on .../ang_vel
    assert commanded['force'][-1] == STERN_THRUST
    assert commanded['side_force'][-1] == pytest.approx(side_thrust, rel=1e-12)
    assert commanded['stern_speed'][-1] == pytest.approx(omega_stern, rel=1e-12)
    # driver gone: stale, neutral, in /diagnostics
    assert commanded['watchdog']['thruster side_joint'] == 'stale'
    assert commanded['force_after'] == 0.0
    assert commanded['input']['state'] == 'stale'
