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
Equipment on the moving links of an articulated vehicle: thrusters, sensors, bladders.

* test/helpers/nodes/arm_equipment.urdf: a gz-sim Thruster on the arm link and one on the base,
  an IMU, a DVL and a pressure sensor on a link fixed to the arm; they are read on their
  bodies (before, each was refused: 'not the base link nor fixed to it').
* Thrust: the per-body wrenches, moved to the base, sum to the thrusters' wrench at the
  joint angle (the thruster turned with its link, by hand: r x F); at zero joint angle
  to the lumped vehicle's allocation.  A locked arm on a base a billion times heavier
  holds the thruster's moment about the joint axis; on the real masses the step's
  state, its accelerations and the brake torque satisfy Pinocchio's inverse dynamics
  (RNEA) with the thrust as the arm's external force built here.
* Sensors: DVL velocity, depth, IMU rate and specific force of the arm sensor frame,
  against the rigid-body transport formulas from the base state, q, qdot, qddot
  (written here in world axes, independent of the tree kinematics); offline too.
* Bladders: one on the arm pushes its link origin straight up, rho g (V - V_n).
"""
import pathlib

from arm_equipment import (
    arm_sensor_frame, ARM_SENSORS, ARM_THRUSTER, SENSORS_RPY, SHOULDER, URDF, urdf_rpy)
from articulated_vehicle import JOINT_POSITION, JOINT_YAW, rot_z, two_link
import numpy as np
import pytest
from required_modules import require

require('pinocchio')

DT = 0.01


def _vehicle():
    from uwv_hydro.description.loader import load_vehicle
    return load_vehicle(str(URDF))


def _start(roll=0.0):
    from uwv_hydro.physics.body.dynamics import State
    from uwv_hydro.physics.spatial.rotation import quat_from_rpy
    return State(position=np.array([0.0, 0.0, -10.0]), quaternion=quat_from_rpy(roll, 0.1, 0.3),
                 twist=np.array([0.2, -0.1, 0.05, 0.02, -0.03, 0.1]))


def test_thrusters_and_sensors_on_the_arm_are_read_on_its_body():
    from uwv_hydro.physics.sensing.sensors import sensor_body_mount, sensor_mount
    from uwv_hydro.physics.spatial.rotation import quat_to_matrix
    vehicle = _vehicle()
    specs = {s.joint_name: s for s in vehicle.thrusters}
    assert specs['arm_thruster_joint'].body == 'arm_link'
    assert specs['stern_thruster_joint'].body == ''
    # where the lumped vehicle has it: the shoulder at zero, then the thruster joint
    np.testing.assert_allclose(specs['arm_thruster_joint'].point(), SHOULDER + ARM_THRUSTER,
                               atol=1e-12)
    for sensor in vehicle.sensors:
        body, t, q = sensor_body_mount(sensor, vehicle)
        assert body == 'arm_link'
        np.testing.assert_allclose(t, ARM_SENSORS, atol=1e-12)
        np.testing.assert_allclose(quat_to_matrix(q), urdf_rpy(*SENSORS_RPY), atol=1e-12)
        t0, _ = sensor_mount(sensor, vehicle)
        np.testing.assert_allclose(t0, SHOULDER + ARM_SENSORS, atol=1e-12)
    # check names the body; the rigid thruster has none
    from uwv_hydro.cli.check_cmd import format_summary, summarize
    summary = summarize(vehicle)
    assert [t.get('body') for t in summary['thrusters']] == ['arm_link', None]
    assert '(on moving body arm_link, at zero joints)' in format_summary(summary)


@pytest.mark.parametrize('angle', [0.0, 0.7, -2.0])
def test_body_wrenches_sum_to_the_thrusters_wrench_at_the_joint_angle(angle):
    from uwv_hydro.modes.articulated_simulate_mode import ArticulatedSimulateMode
    from uwv_hydro.modes.thruster_drive import ThrusterDrive
    vehicle = _vehicle()
    drive = ThrusterDrive(vehicle.thrusters, vehicle.fluid_density, 1.0, vehicle.tree)
    arm_thrust, stern_thrust = 12.0, -7.0
    drive.command('arm_thruster_joint', arm_thrust, 0)
    drive.command('stern_thruster_joint', stern_thrust, 0)
    rows, _, _ = drive.step(DT, 0)
    assert rows.shape == (2, 6)
    mode = ArticulatedSimulateMode(vehicle, DT, joint_positions=[angle])
    states = mode.body_states()  # the base at the origin, level: world = base frame
    total = np.zeros(6)
    for name, row in zip(mode.dynamics.multibody.body_names, rows):
        p, r, _ = states[name]
        force = r @ row[:3]
        # a body wrench moved to the base origin: [R f, R m + p x R f]
        total += np.concatenate((force, r @ row[3:] + np.cross(p, force)))
    # the arm thruster turned with the arm about z: F = T Rz(q) y at p + Rz(q) r
    force = arm_thrust * rot_z(angle) @ np.array([0.0, 1.0, 0.0])
    point = SHOULDER + rot_z(angle) @ ARM_THRUSTER
    stern = np.array([stern_thrust, 0.0, 0.0])
    expected = np.concatenate((force + stern, np.cross(point, force)
                               + np.cross([-0.5, 0.0, 0.0], stern)))
    np.testing.assert_allclose(total, expected, rtol=0.0, atol=1e-12 * 100.0)
    if angle == 0.0:  # the lumped vehicle's allocation (every thruster on the base)
        np.testing.assert_allclose(total, drive.bank.wrench(), rtol=0.0, atol=1e-12)


def _arm_thruster(point, rotation, axis, body='arm_link'):
    """Return a thrust-commanded thruster on the two-link arm (pose in the arm frame)."""
    from uwv_hydro.physics.spatial.rotation import matrix_to_quat
    from uwv_hydro.physics.actuators.thruster_spec import ThrusterSpec
    r_j = rot_z(JOINT_YAW)
    # the arm frame is the joint frame: its pose in the base at zero joint positions
    return ThrusterSpec(joint_name='arm_thruster', translation=tuple(JOINT_POSITION + r_j @ point),
                        rotation=tuple(matrix_to_quat(r_j @ rotation)), axis=tuple(axis),
                        thrust_coefficient=0.004, body=body)


def _thrust_step(params, spec, thrust, kind, initial=None):
    """Step the articulated mode once under the thruster (the node's order); return it."""
    from uwv_hydro.modes.articulated_simulate_mode import ArticulatedSimulateMode
    from uwv_hydro.modes.thruster_drive import ThrusterDrive
    mode = ArticulatedSimulateMode(params, DT, initial=initial)
    mode.command(0, kind, 0.0)
    drive = ThrusterDrive([spec], params.fluid_density, 1.0, params.tree)
    drive.command(spec.joint_name, thrust, 0)
    mode.advance(0)
    mode.advance(int(DT * 1e9), thrust=lambda x: drive.step(DT, 0)[0])
    assert mode.last_tau.shape == (2, 6)
    return mode


def test_a_locked_arm_holds_the_thrusters_moment_about_its_axis():
    params = two_link(gravity=0.0, drag=False, added_mass=0.0)
    base = params.tree.bodies['base_link']
    base.mass *= 1e9  # the base held: it takes 5e-9 of the arm's reaction
    base.inertia = base.inertia * 1e9
    point, thrust = np.array([0.3, 0.0, 0.02]), 15.0
    spec = _arm_thruster(point, np.eye(3), (0.0, 0.0, 1.0))
    mode = _thrust_step(params, spec, thrust, 'locked')
    # the brake cancels the moment about the joint axis (y): (r x F) . y = -0.3 T
    moment = np.cross(point, [0.0, 0.0, thrust])
    assert mode.efforts[0] == pytest.approx(-moment[1], rel=1e-7)


@pytest.mark.parametrize('kind', ['locked', 'effort'])
def test_the_step_satisfies_inverse_dynamics_with_the_arm_thrust(kind):
    import pinocchio as pin
    params = two_link(gravity=0.0, drag=False, added_mass=0.0)
    point, rotation, thrust = np.array([0.25, -0.05, 0.03]), rot_z(0.4), 20.0
    axis = np.array([0.0, 0.6, 0.8])
    spec = _arm_thruster(point, rotation, axis)
    mode = _thrust_step(params, spec, thrust, kind, _start())
    from uwv_hydro.physics.articulated.algorithms.articulated_dynamics import TreeDynamics
    dyn = TreeDynamics(mode.dynamics.tree, params.gravity)  # Pinocchio's model of the tree
    x = np.asarray(mode.x)
    config = dyn.configuration(x, mode.q)
    v = np.concatenate((x[7:13], mode.qd))
    a = np.concatenate((mode.acceleration(), mode.qdd))
    # the thrust on the arm's joint frame (its body frame here): [F, r x F]
    force = thrust * rotation @ axis
    fext = pin.StdVec_Force()
    for _ in range(dyn.model.njoints):
        fext.append(pin.Force.Zero())
    fext[dyn.joint_ids[1]] = pin.Force(force, np.cross(point, force))
    tau = np.array(pin.rnea(dyn.model, dyn.data, config, v, a, fext))
    scale = thrust * (1.0 + np.linalg.norm(JOINT_POSITION))
    # the base is free (no generalised force on it); the joint's is the brake or zero
    np.testing.assert_allclose(tau[:6], 0.0, atol=1e-9 * scale)
    assert tau[6] == pytest.approx(mode.efforts[0], abs=1e-9 * scale)
    if kind == 'effort':
        assert abs(mode.efforts[0]) == 0.0


def test_a_bladder_on_the_arm_pushes_its_link_origin_up():
    from uwv_hydro.modes.articulated_simulate_mode import ArticulatedSimulateMode
    from uwv_hydro.modes.buoyancy_engines import BuoyancyEngines
    from uwv_hydro.physics.actuators.buoyancy_engine import BuoyancyEngineSpec
    from uwv_hydro.physics.spatial.rotation import quat_to_matrix
    vehicle = _vehicle()
    volume, neutral = 6e-4, 2e-4
    vehicle.buoyancy_engines = (BuoyancyEngineSpec(
        link_name='arm_link', position=tuple(SHOULDER), default_volume=volume,
        neutral_volume=neutral, max_volume=1e-3),)
    engines = BuoyancyEngines(vehicle.buoyancy_engines, vehicle.gravity)
    angle = 0.9
    mode = ArticulatedSimulateMode(vehicle, DT, initial=_start(roll=0.4),
                                   joint_positions=[angle])
    rows = mode.engine_wrench(engines)
    # gz-sim BuoyancyEngine: F = rho g (V - V_n) up, at the link origin (the arm frame's)
    up = 1000.0 * vehicle.gravity * (volume - neutral)
    r_arm = quat_to_matrix(np.asarray(mode.x[3:7])) @ rot_z(angle)
    np.testing.assert_allclose(rows[0], 0.0, atol=0.0)
    np.testing.assert_allclose(rows[1], np.concatenate((r_arm.T @ [0.0, 0.0, up], np.zeros(3))),
                               atol=1e-12 * up)
    # SimulateMode.advance adds them to the step's input (gz-sim: volume first)
    mode.engines = engines
    mode.advance(0)
    mode.advance(int(DT * 1e9))
    assert mode.last_tau.shape == (2, 6)
    # on the base link: the base wrench, as the rigid vehicle's (6,)
    base = BuoyancyEngines((BuoyancyEngineSpec(
        link_name='base_link', position=(0.1, 0.0, 0.05), default_volume=volume,
        neutral_volume=neutral, max_volume=1e-3),), vehicle.gravity)
    r_base = quat_to_matrix(np.asarray(mode.x[3:7]))
    force = r_base.T @ [0.0, 0.0, up]
    np.testing.assert_allclose(mode.engine_wrench(base), np.concatenate(
        (force, np.cross([0.1, 0.0, 0.05], force))), atol=1e-12 * up)


def _check_readings(readings, expected):
    velocity, depth, rate, force = expected
    for name, reading in readings.items():
        if name == 'arm_dvl':
            np.testing.assert_allclose(reading.velocity, velocity, atol=1e-12)
        elif name == 'arm_depth':
            assert reading.depth == pytest.approx(depth, abs=1e-12)
        else:
            np.testing.assert_allclose(reading.angular_velocity, rate, atol=1e-12)
            np.testing.assert_allclose(reading.linear_acceleration, force, atol=1e-10)


def test_sensors_on_the_arm_read_the_arm_sensor_frame():
    from uwv_hydro.modes.articulated_simulate_mode import ArticulatedSimulateMode
    from uwv_hydro.modes.sensor_suite import SensorSuite
    vehicle = _vehicle()
    mode = ArticulatedSimulateMode(vehicle, DT, initial=_start())
    mode.command(0, 'velocity', 0.8)  # the arm turning at a steady rate
    suite = SensorSuite(vehicle, mode.body_frames)
    tau = np.array([30.0, -5.0, 4.0, 1.0, -2.0, 3.0])
    seen = 0
    for k in range(1, 101):
        mode.step(tau)
        out = suite.sample(int(k * DT * 1e9), mode.state, mode.acceleration)
        if k % 25:
            continue
        readings = {model.spec.name: reading for model, reading in out}
        assert set(readings) == {'arm_imu', 'arm_dvl', 'arm_depth'}
        _check_readings(readings, arm_sensor_frame(
            mode.x, mode.acceleration(), mode.q[0], mode.qd[0], mode.qdd[0], vehicle.gravity))
        seen += 1
    assert seen == 4
    assert mode.qd[0] == pytest.approx(0.8, abs=0.05)  # it did turn


def test_offline_sensors_on_the_arm_read_the_arm_sensor_frame():
    from uwv_hydro.modes.joint_profiles import JointCommandProfile
    from uwv_hydro.modes.offline_sensors import sample_sensors
    from uwv_hydro.modes.offline_simulation import simulate
    vehicle = _vehicle()
    profile = JointCommandProfile(['shoulder'])
    profile.add('shoulder', 'velocity', [0.0], [-0.6])
    traj = simulate(vehicle, 0.5, dt=DT, initial=_start(), joint_commands=profile)
    stamps = (traj.t * 1e9).round().astype(np.int64)
    series = sample_sensors(vehicle, stamps, traj.position, traj.quaternion, traj.twist, None,
                            joints=traj.joints)
    joints = traj.joints
    by_stamp = {}
    for model, times, readings in series:
        for t_ns, reading in zip(times, readings):
            by_stamp.setdefault(t_ns, {})[model.spec.name] = reading
    for k in (10, 30, 50):
        x = np.concatenate((traj.position[k], traj.quaternion[k], traj.twist[k]))
        _check_readings(by_stamp[int(stamps[k])], arm_sensor_frame(
            x, joints.base_acceleration[k], joints.position[k, 0], joints.velocity[k, 0],
            joints.acceleration[k, 0], vehicle.gravity))
    assert joints.velocity[-1, 0] < -0.3


#: Equipment added to test/corpus/gz_sim/two_link_auv.sdf, whose propeller (added mass)
#: is a moving body: a sensor link fixed to it, a thruster joint on it, a bladder on it.
SDF_EQUIPMENT = """
      <link name="prop_sensors">
        <pose relative_to="propeller">0 0.05 0.02 0 0 0.3</pose>
        <sensor name="prop_imu" type="imu"><update_rate>50</update_rate></sensor>
      </link>
      <joint name="prop_sensors_joint" type="fixed">
        <parent>propeller</parent><child>prop_sensors</child>
      </joint>
      <link name="prop_thruster"><pose relative_to="propeller">-0.05 0 0 0 0 0</pose></link>
      <joint name="prop_thruster_joint" type="revolute">
        <parent>propeller</parent><child>prop_thruster</child>
        <axis><xyz>1 0 0</xyz><limit><lower>-1e16</lower><upper>1e16</upper></limit></axis>
      </joint>
      <plugin filename="gz-sim-thruster-system" name="gz::sim::systems::Thruster">
        <joint_name>prop_thruster_joint</joint_name>
        <thrust_coefficient>0.004</thrust_coefficient>
      </plugin>
      <plugin filename="gz-sim-buoyancy-engine-system"
              name="gz::sim::systems::BuoyancyEngine">
        <link_name>propeller</link_name><default_volume>9e-4</default_volume>
      </plugin>
    </model>"""


def test_sdf_equipment_on_a_moving_link_is_on_its_body():
    from uwv_hydro.description.loader import load_vehicle_string
    from uwv_hydro.modes.articulated_simulate_mode import ArticulatedSimulateMode
    from uwv_hydro.modes.buoyancy_engines import BuoyancyEngines
    from uwv_hydro.physics.spatial.rotation import quat_to_matrix
    from uwv_hydro.physics.sensing.sensors import sensor_body_mount
    corpus = pathlib.Path(__file__).parents[2] / 'corpus' / 'gz_sim' / 'two_link_auv.sdf'
    text = corpus.read_text().replace('    </model>\n  </world>', SDF_EQUIPMENT + '\n  </world>')
    vehicle = load_vehicle_string(text, 'two_link_equipment.sdf')
    assert [j.child for j in vehicle.tree.joints] == ['propeller']
    (thruster,) = vehicle.thrusters
    assert thruster.body == 'propeller'
    # the propeller at (-0.85, 0, 0) in the base, the thruster joint 0.05 m behind it
    np.testing.assert_allclose(thruster.point(), [-0.9, 0.0, 0.0], atol=1e-12)
    (imu,) = vehicle.sensors
    body, t, q = sensor_body_mount(imu, vehicle)
    assert (imu.link, body) == ('prop_sensors', 'propeller')
    np.testing.assert_allclose(t, [0.0, 0.05, 0.02], atol=1e-12)
    np.testing.assert_allclose(quat_to_matrix(q), rot_z(0.3), atol=1e-12)
    # the bladder pushes the propeller body at its origin: rho g (V - V_n) up
    engines = BuoyancyEngines(vehicle.buoyancy_engines, vehicle.gravity)
    angle = 1.1
    mode = ArticulatedSimulateMode(vehicle, DT, initial=_start(roll=0.3),
                                   joint_positions=[angle])
    rows = mode.engine_wrench(engines)
    up = 1000.0 * vehicle.gravity * (9e-4 - 3e-4)  # gz-sim's neutral volume and density
    _, r_prop, _ = mode.body_states()['propeller']
    np.testing.assert_allclose(rows[0], 0.0, atol=0.0)
    np.testing.assert_allclose(rows[1], np.concatenate((r_prop.T @ [0.0, 0.0, up],
                                                        np.zeros(3))), atol=1e-12 * up)


def test_yaml_export_keeps_the_arm_equipment_on_its_body():
    from uwv_hydro.description.yaml.export import export_yaml
    from uwv_hydro.description.yaml.params import load_yaml_string
    from uwv_hydro.physics.sensing.sensors import sensor_body_mount
    vehicle = _vehicle()
    again = load_yaml_string(export_yaml(vehicle), 'exported.yaml')
    for old, new in zip(vehicle.thrusters, again.thrusters):
        assert (new.joint_name, new.body) == (old.joint_name, old.body)
        np.testing.assert_allclose(new.point(), old.point(), atol=1e-12)
        np.testing.assert_allclose(new.direction(), old.direction(), atol=1e-12)
    for old, new in zip(vehicle.sensors, again.sensors):
        mount_old, mount_new = sensor_body_mount(old, vehicle), sensor_body_mount(new, again)
        assert mount_new[0] == mount_old[0] == 'arm_link'
        np.testing.assert_allclose(mount_new[1], mount_old[1], atol=1e-12)
        np.testing.assert_allclose(abs(np.dot(mount_new[2], mount_old[2])), 1.0, atol=1e-12)


def test_yaml_thrusters_and_sensors_on_a_tree_link():
    from uwv_hydro.description.yaml.params import load_yaml_string
    from uwv_hydro.physics.sensing.sensors import sensor_body_mount
    corpus = pathlib.Path(__file__).parents[2] / 'corpus' / 'arm_links.yaml'
    text = corpus.read_text() + """      thrusters:
        fore_thruster:
          parent: fore
          xyz: [0.3, 0.0, 0.05]
          axis: [0.0, 0.0, 1.0]
          thrust_coefficient: 0.004
      sensors:
        fore_dvl: {type: dvl, link: fore, update_rate: 10, pose: [0.1, 0, 0, 3.14159, 0, 0]}
"""
    vehicle = load_yaml_string(text, 'arm_links_equipment.yaml')
    (thruster,) = vehicle.thrusters
    assert thruster.body == 'fore'
    # at zero joints: shoulder (0.6, 0, -0.25), elbow 0.4 m along x, then the thruster
    np.testing.assert_allclose(thruster.point(), [1.3, 0.0, -0.2], atol=1e-12)
    (dvl,) = vehicle.sensors
    body, t, _ = sensor_body_mount(dvl, vehicle)
    assert body == 'fore'
    np.testing.assert_allclose(t, [0.1, 0.0, 0.0], atol=1e-12)


def test_a_thruster_on_a_moving_body_reads_its_own_links_inflow():
    """
    gz-sim's advance-ratio thrust of the arm thruster, at the arm's own inflow.

    T = (alpha_1 + alpha_2 J) rho D^4 w|w|, J = (1 - w_f) u_a / (w D) (gz-sim Thruster),
    with u_a = (v + omega x r) . d of the arm body's twist relative to the water
    (Pinocchio's kinematics here), r and d the thruster's point and axis in the arm's
    frame (the URDF's, written out): the arm turning, the base moving, in a current.
    """
    from uwv_hydro.description.loader import load_vehicle_string
    from uwv_hydro.modes.articulated_simulate_mode import ArticulatedSimulateMode
    from uwv_hydro.modes.body_wrenches import relative_body_twists
    from uwv_hydro.modes.thruster_drive import ThrusterDrive
    from uwv_hydro.physics.articulated.model.multibody import MultibodyModel
    text = URDF.read_text().replace(
        '<thrust_coefficient>0.004</thrust_coefficient>\n      <propeller_diameter>0.1',
        '<alpha_1>0.004</alpha_1><alpha_2>-0.5</alpha_2><use_angvel_cmd>true</use_angvel_cmd>'
        '\n      <propeller_diameter>0.1', 1)
    vehicle = load_vehicle_string(text, 'arm_equipment_alpha.urdf')
    assert not [w for w in vehicle.warnings if 'inflow' in w]
    mode = ArticulatedSimulateMode(vehicle, 0.01)
    mode.reset(joint_positions=[0.3])
    mode._x[7:13] = [0.6, -0.2, 0.1, 0.05, -0.1, 0.3]
    mode.qd[:] = [0.9]
    current = np.array([0.2, 0.1, -0.05])
    drive = ThrusterDrive(vehicle.thrusters, vehicle.fluid_density, 1.0, vehicle.tree)
    k = drive.names.index('arm_thruster_joint')
    spec = vehicle.thrusters[k]
    drive.command('arm_thruster_joint', 60.0, 0)
    x = np.array(mode.x)
    twists = relative_body_twists(mode.dynamics.body_states(x, mode.q, mode.qd), current)
    drive.step(0.01, 0, None, twists)
    # the arm's twist relative to the water, by Pinocchio's forward kinematics
    multibody = MultibodyModel(vehicle.tree)
    kin = multibody.kinematics(x[:3], x[3:7] / np.linalg.norm(x[3:7]), x[7:13], mode.q,
                               mode.qd, links=False).bodies
    arm = multibody.body_names.index('arm_link')
    v = kin.twist[arm, :3] - kin.rotation[arm].T @ current
    u_a = (v + np.cross(kin.twist[arm, 3:], [0.4, 0.0, 0.05])) @ [0.0, 1.0, 0.0]
    omega, d = drive.bank.omega[k], spec.propeller_diameter
    j = (1.0 - spec.wake_fraction) * u_a / (omega * d)
    expected = (0.004 - 0.5 * j) * vehicle.fluid_density * d ** 4 * omega * abs(omega)
    assert abs(u_a) > 0.1  # the arm's inflow is not trivial
    assert drive.bank.thrust[k] == pytest.approx(expected, rel=1e-12)
