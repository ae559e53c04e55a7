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


"""SDF equipment: gz-sim Thruster / LiftDrag / BuoyancyEngine plugins and link sensors."""
import json
import math
import pathlib
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from uwv_hydro.cli.main import main
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.loader import load_vehicle, load_vehicle_string
from uwv_hydro.physics.actuators.thruster_bank import ThrusterBank
from uwv_hydro.physics.hydro.hydro_model import HydroModel
from uwv_hydro.physics.sensing.sensors import sensor_mount
from uwv_hydro.physics.spatial.rotation import quat_to_matrix

CORPUS = pathlib.Path(__file__).resolve().parents[2] / 'corpus' / 'gz_sim'
ROV = CORPUS / 'bluerov_like.sdf'
AUV = CORPUS / 'finned_auv.sdf'


def _rx(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def _ry(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def _rz(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def _rpy(r, p, y):
    # SDF rpy: fixed axes x, y, z -> R = Rz(y) Ry(p) Rx(r)
    return _rz(y) @ _ry(p) @ _rx(r)


def _model_poses(path):
    """Link poses (model frame) straight from the file: {name: (p, R)}."""
    out = {}
    for link in ET.parse(path).getroot().iter('link'):
        pose = link.find('pose')
        v = [float(x) for x in pose.text.split()] if pose is not None else [0.0] * 6
        out[link.get('name')] = (np.array(v[:3]), _rpy(*v[3:]))
    return out


def test_six_thrusters_at_their_joint_poses_in_the_base_frame():
    """Each Thruster plugin is a thruster at its joint: base <- model <- link (<- joint)."""
    params = load_vehicle(str(ROV))
    poses = _model_poses(ROV)
    p_b, r_b = poses['base_link']
    # joint axes from the file: <xyz> in the joint frame, thruster5's in the model frame
    axes = {1: [0, 0, -1], 2: [0, 0, -1], 3: [0, 0, -1], 4: [0, 0, -1], 6: [0, 0, 1]}
    specs = {s.joint_name: s for s in params.thrusters}
    assert sorted(specs) == ['thruster%d_joint' % k for k in range(1, 7)]
    for k in range(1, 7):
        p_l, r_l = poses['thruster%d' % k]
        offset = np.array([0.0, 0.0, 0.01]) if k == 5 else np.zeros(3)  # joint <pose>
        point = r_b.T @ (p_l + r_l @ offset - p_b)
        direction = r_b.T @ (np.array([0.0, 0.0, 1.0]) if k == 5 else r_l @ axes[k])
        spec = specs['thruster%d_joint' % k]
        assert np.allclose(spec.point(), point, rtol=0, atol=1e-12), k
        assert np.allclose(spec.direction(), direction, rtol=0, atol=1e-12), k
    assert specs['thruster1_joint'].use_angvel_cmd
    assert specs['thruster3_joint'].thrust_coefficient == -0.02
    assert (specs['thruster6_joint'].min_thrust_cmd,
            specs['thruster6_joint'].max_thrust_cmd) == (-30.0, 40.0)


def test_thrust_is_gz_sims_formula_and_the_wrench_its_sum():
    """T = Ct rho D^4 omega|omega| (gz-sim Thruster.cc) per thruster, tau = sum [T d, p x T d]."""
    params = load_vehicle(str(ROV))
    bank = ThrusterBank(params.thrusters, params.fluid_density)
    omega = np.array([60.0, -45.0, 30.5, -80.0, 12.0])
    commands = np.concatenate([omega, [55.0]])  # thruster6 takes thrust (N), max 40
    tau = bank.step(commands, 0.01, np.zeros(6))
    force = np.zeros(3)
    torque = np.zeros(3)
    for k, spec in enumerate(params.thrusters):
        if k < 5:
            # gz-sim: thrust = Ct rho D^4 omega |omega|, rho and D of the plugin
            expected = spec.thrust_coefficient * 1000.0 * 0.1 ** 4 * omega[k] * abs(omega[k])
        else:
            expected = 40.0  # the command clamped to max_thrust_cmd
        assert bank.thrust[k] == pytest.approx(expected, rel=1e-12, abs=0.0), k
        f = expected * spec.direction()
        force += f
        torque += np.cross(spec.point(), f)
    scale = np.abs(bank.thrust).sum()
    assert np.allclose(tau, np.concatenate([force, torque]), rtol=0, atol=1e-12 * scale)


def _rotate(v, k, angle):
    # Rodrigues: v' = v cos a + (k x v) sin a + k (k.v)(1 - cos a)
    return (v * math.cos(angle) + np.cross(k, v) * math.sin(angle)
            + k * (k @ v) * (1.0 - math.cos(angle)))


def _gz_liftdrag(v_cp, forward, upward, area, cla, cda, alpha_stall, cla_stall, cda_stall,
                 a0, rad_to_cl, delta, rho):
    """gz-sim LiftDrag.cc's force, re-derived: two-line model with stall and sweep."""
    speed = np.linalg.norm(v_cp)
    if speed <= 0.01:
        return np.zeros(3)
    span = np.cross(forward, upward)
    span /= np.linalg.norm(span)
    sin_sweep = np.clip(span @ (v_cp / speed), -1.0, 1.0)
    cos_sweep = 1.0 - sin_sweep ** 2  # gz-sim scales by 1 - sin^2(sweep)
    v_plane = v_cp - (v_cp @ span) * span
    drag_dir = -v_plane / np.linalg.norm(v_plane)
    lift_dir = np.cross(span, v_plane)
    lift_dir /= np.linalg.norm(lift_dir)
    acos = math.acos(np.clip(lift_dir @ upward, -1.0, 1.0))
    alpha = a0 + acos if lift_dir @ forward >= 0.0 else a0 - acos
    while abs(alpha) > 0.5 * math.pi:
        alpha = alpha - math.pi if alpha > 0 else alpha + math.pi
    q = 0.5 * rho * (v_plane @ v_plane)
    if alpha > alpha_stall:
        cl = max(0.0, (cla * alpha_stall + cla_stall * (alpha - alpha_stall)) * cos_sweep)
        cd = (cda * alpha_stall + cda_stall * (alpha - alpha_stall)) * cos_sweep
    elif alpha < -alpha_stall:
        cl = min(0.0, (-cla * alpha_stall + cla_stall * (alpha + alpha_stall)) * cos_sweep)
        cd = (-cda * alpha_stall + cda_stall * (alpha + alpha_stall)) * cos_sweep
    else:
        cl = cla * alpha * cos_sweep
        cd = cda * alpha * cos_sweep
    cl += rad_to_cl * delta
    return (cl * lift_dir + abs(cd) * drag_dir) * q * area


# The fins of finned_auv.sdf written out from the file: joint origin and axis, cp point,
# forward and upward in the body frame at zero deflection, and the LiftDrag values
# (gz-sim defaults where the block gives none: cla_stall 0, cda_stall 1, a0 0,
# alpha_stall pi/2, control_joint_rad_to_cl 4 with a control joint, else none).
_ELEVATOR_R = _rx(math.pi / 2.0)
FINS = {
    'rudder_joint': {
        'joint': np.array([-0.44, 0.0, 0.05]), 'axis': np.array([0.0, 0, 1]),
        'cp': np.array([-0.47, 0.0, 0.05]), 'forward': np.array([1.0, 0, 0]),
        'upward': np.array([0.0, 1, 0]), 'area': 0.01, 'cla': 4.1, 'cda': 0.2,
        'alpha_stall': 0.35, 'cla_stall': -1.5, 'cda_stall': 1.2, 'a0': 0.0,
        'rad_to_cl': 4.0},
    'elevator_joint': {
        'joint': np.array([-0.45, 0.0, 0.0]), 'axis': _ELEVATOR_R @ [0.0, 0, 1],
        'cp': np.array([-0.45, 0.0, 0.0]), 'forward': _ELEVATOR_R @ [1.0, 0, 0],
        'upward': _ELEVATOR_R @ [0.0, 1, 0], 'area': 0.012, 'cla': 3.5, 'cda': 0.3,
        'alpha_stall': 0.3, 'cla_stall': 0.0, 'cda_stall': 1.0, 'a0': 0.0,
        'rad_to_cl': 1.5},
    'keel': {
        'joint': np.array([0.0, 0.0, -0.1]), 'axis': np.array([0.0, 0, 1]),
        'cp': np.array([0.05, 0.0, -0.1]), 'forward': np.array([1.0, 0, 0]),
        'upward': np.array([0.0, 1, 0]), 'area': 0.02, 'cla': 2.0, 'cda': 0.1,
        'alpha_stall': 0.5 * math.pi, 'cla_stall': 0.0, 'cda_stall': 1.0, 'a0': 0.0,
        'rad_to_cl': 0.0},
}


@pytest.mark.parametrize('nu,angles', [
    ([1.5, 0.1, -0.05, 0.02, 0.05, -0.1], [0.2, -0.15, 0.0]),
    ([1.0, -0.3, 0.2, 0.1, -0.2, 0.3], [0.0, 0.0, 0.0]),
    ([0.8, 0.6, -0.4, 0.0, 0.1, 0.4], [-0.45, 0.35, 0.0]),  # the rudder past its stall
])
def test_fin_forces_are_liftdrags_equations(nu, angles):
    """Every LiftDrag fin's wrench equals gz-sim LiftDrag.cc re-derived, to 1e-12."""
    params = load_vehicle(str(AUV))
    assert [f.name for f in params.fins] == list(FINS)
    nu = np.array(nu)
    expected = np.zeros(6)
    for (name, fin), delta in zip(FINS.items(), angles):
        k = fin['axis']
        cp = fin['joint'] + _rotate(fin['cp'] - fin['joint'], k, delta)
        v_cp = nu[:3] + np.cross(nu[3:], cp)  # velocity of the point (Fossen 2011 eq. 7.236)
        f = _gz_liftdrag(v_cp, _rotate(fin['forward'], k, delta),
                         _rotate(fin['upward'], k, delta), fin['area'], fin['cla'],
                         fin['cda'], fin['alpha_stall'], fin['cla_stall'], fin['cda_stall'],
                         fin['a0'], fin['rad_to_cl'], delta, params.fluid_density)
        expected += np.concatenate([f, np.cross(cp, f)])
    got = HydroModel(params).wrench(nu, fin_angles=angles).components['fins']
    assert np.linalg.norm(expected) > 1.0
    assert np.allclose(got, expected, rtol=0, atol=1e-12 * np.linalg.norm(expected))


def test_fin_limits_from_the_joint_axis():
    """<axis><limit> gives the deflection range and servo rate; a fixed surface has none."""
    by_name = {f.name: f for f in load_vehicle(str(AUV)).fins}
    assert (by_name['rudder_joint'].lower, by_name['rudder_joint'].upper,
            by_name['rudder_joint'].velocity) == (-0.5, 0.5, 2.0)
    assert by_name['elevator_joint'].velocity == math.inf
    assert by_name['keel'].lower == by_name['keel'].upper == 0.0


def test_sensors_at_link_pose_times_sensor_pose():
    """IMU, gz DVL (with its reference_frame), navsat (world datum), DAVE pressure."""
    params = load_vehicle(str(AUV))
    sensors = {s.name: s for s in params.sensors}
    assert sorted(sensors) == ['compass', 'dvl', 'gps', 'imu', 'sea_pressure']
    cases = {
        'imu': (np.array([0.1, 0.0, 0.02]), _rx(math.pi)),
        # dvl_link (0.2 0 -0.08) x sensor pose (yaw 90 deg) x reference_frame (roll 180 deg)
        'dvl': (np.array([0.2, 0.0, -0.08]), _rz(math.pi / 2.0) @ _rx(math.pi)),
        'gps': (np.array([-0.3, 0.0, 0.12]), np.eye(3)),
    }
    for name, (p, r) in cases.items():
        t, q = sensor_mount(sensors[name], params)
        assert np.allclose(t, p, rtol=0, atol=1e-12), name
        assert np.allclose(quat_to_matrix(q), r, rtol=0, atol=1e-12), name
    assert [a.stddev for a in sensors['dvl'].model.velocity] == [0.003] * 3
    assert sensors['dvl'].topic == 'dvl/velocity' and sensors['dvl'].update_rate == 5.0
    gps = sensors['gps'].model
    assert (gps.latitude_deg, gps.longitude_deg, gps.horizontal.stddev) == (41.5, -70.7, 1.5)
    pressure = sensors['sea_pressure']
    # DAVE publishes every physics step: 1 / 0.002 s; 101.325 kPa at the surface, in Pa
    assert pressure.update_rate == pytest.approx(500.0, rel=1e-12)
    assert pressure.model.atmospheric_pressure == pytest.approx(101325.0, rel=1e-12)


def _sdf_names(path, tag):
    return [e.get('name') for e in ET.parse(path).getroot().iter(tag)]


@pytest.mark.parametrize('path,unmodelled', [
    (ROV, ['front_camera', 'ping360', 'thruster6_load',
           'gz::sim::systems::OdometryPublisher', 'gz::sim::systems::JointPositionController']),
    (AUV, ['baro', 'alt', 'sidescan', 'bottom_camera']),
])
def test_nothing_dropped_silently(path, unmodelled):
    """Every sensor and plugin is recorded; one warning line names the unmodelled ones."""
    params = load_vehicle(str(path))
    recorded = {r.name for r in params.elements}
    plugins = [p for p in _sdf_names(path, 'plugin') if 'LiftDrag' not in p and
               'Thruster' not in p and 'BuoyancyEngine' not in p and 'Pressure' not in p]
    for name in _sdf_names(path, 'sensor') + plugins:
        assert name in recorded, name
    lines = [w for w in params.warnings if w.startswith('recognised but not simulated')]
    assert len(lines) == 1
    for name in unmodelled:
        assert repr(name) in lines[0], name
    for rec in params.elements:
        assert rec.status in ('read', 'warned') and rec.where.startswith(str(path)), rec


URDF = """<robot name="urdf_auv">
  <link name="base_link"><inertial><mass value="20"/>
    <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <gazebo reference="base_link">
    <sensor name="cam" type="depth_camera"><update_rate>10</update_rate></sensor>
    <sensor name="fix" type="gps"><update_rate>2</update_rate>
      <gps><position_sensing><horizontal><noise type="gaussian"><stddev>2</stddev></noise>
      </horizontal></position_sensing></gps>
      <plugin name="gps_ros" filename="libgazebo_ros_gps_sensor.so"/>
    </sensor>
    <sensor name="dvl" type="custom" gz:type="dvl" xmlns:gz="http://gazebosim.org/schema">
      <update_rate>4</update_rate>
      <gz:dvl><tracking><bottom_mode><noise type="gaussian"><stddev>0.01</stddev></noise>
      </bottom_mode></tracking></gz:dvl>
    </sensor>
    <sensor name="echo" type="sonar"><update_rate>10</update_rate></sensor>
  </gazebo>
</robot>"""


def test_urdf_gazebo_sensors_use_the_same_table():
    """URDF <gazebo> sensors: classic gps -> navsat, gz DVL -> dvl, cameras/sonars named."""
    params = load_vehicle_string(URDF)
    sensors = {s.name: s for s in params.sensors}
    assert sorted(sensors) == ['dvl', 'fix']
    assert sensors['fix'].kind == 'navsat' and sensors['fix'].model.horizontal.stddev == 2.0
    assert sensors['dvl'].kind == 'dvl' and sensors['dvl'].pose is None
    (line,) = [w for w in params.warnings if w.startswith('recognised but not simulated')]
    assert "'cam'" in line and "'echo'" in line and 'depth_camera' in line
    notes = {r.name: r.note for r in params.elements}
    assert 'plugin' in notes['fix']  # the Gazebo classic ROS plugin is named as not run


def test_check_lists_topics_and_the_buoyancy_engine(capsys):
    """Check --json: gz-sim command topics of thrusters, the engine, the element records."""
    assert main(['check', str(ROV), '--json']) == 0
    rov = json.loads(capsys.readouterr().out)
    topics = {t['joint_name']: t['command_topic'] for t in rov['thrusters']}
    assert topics['thruster1_joint'] == '/model/rov/joint/thruster1_joint/cmd_vel'
    assert topics['thruster5_joint'] == '/model/rov/joint/thruster5_joint/cmd_vel'
    assert main(['check', str(AUV), '--json']) == 0
    auv = json.loads(capsys.readouterr().out)
    (engine,) = auv['buoyancy_engines']
    assert engine['command_topic'] == '/model/glider/buoyancy_engine/'
    assert (engine['volume_range'], engine['neutral_volume'], engine['surface']) == (
        [0.0, 0.003], 0.002, 0.0)
    kinds = {(r['kind'], r['name']) for r in auv['elements']}
    assert ('buoyancy_engine', 'base_link') in kinds and ('fin', 'keel') in kinds


@pytest.mark.parametrize('path,change,words', [
    (ROV, ('<joint_name>thruster2_joint', '<joint_name>nope'), 'not a joint of the model'),
    (ROV, ('<parent>base_link</parent><child>thruster3',
           '<parent>thruster4</parent><child>thruster3'), 'not the base link'),
    (AUV, ('<max_volume>0.003', '<max_volume>-0.003'), 'max_volume'),
    (AUV, ('<neutral_volume>0.002</neutral_volume>', '<neutral_vol>0.002</neutral_vol>'),
     'unknown BuoyancyEngine element'),
    (AUV, ('<link_name>rudder</link_name>', '<link_name>keel</link_name>'), 'child link'),
    (AUV, ('<when>best</when>', '<when>sometimes</when>'), 'never, always or best'),
])
def test_bad_equipment_is_refused_naming_it(path, change, words):
    """A thruster on a missing or moving joint, a bad engine or fin: DescriptionError."""
    text = path.read_text().replace(*change)
    with pytest.raises(DescriptionError) as err:
        load_vehicle_string(text, source=str(path))
    assert words in str(err.value)
    assert err.value.line is not None


GLIDER = """<sdf version="1.9"><model name="glider">
  <link name="base_link">
    <inertial><mass>50</mass><inertia><ixx>1</ixx><iyy>10</iyy><izz>10</izz></inertia>
    </inertial>
  </link>
  <link name="bladder"><pose>0.3 0 0 0 0 0</pose>
    <inertial><mass>2</mass></inertial></link>
  <joint name="bladder_joint" type="fixed"><parent>base_link</parent><child>bladder</child>
  </joint>
  <plugin filename="uwv_hydro" name="uwv_hydro"><buoyancy_mass>52</buoyancy_mass></plugin>
  <plugin filename="gz-sim-buoyancy-engine-system" name="gz::sim::systems::BuoyancyEngine">
    <link_name>bladder</link_name><namespace>glider</namespace>
    <min_volume>0</min_volume><neutral_volume>0.002</neutral_volume>
    <default_volume>0.002</default_volume><max_volume>0.003</max_volume>
    <max_inflation_rate>0.0001</max_inflation_rate>%s
  </plugin>
</model></sdf>"""


def test_bladder_volume_follows_the_command_at_the_inflation_rate():
    """gz-sim: the set point is clamped, the volume moves at most rate dt per step."""
    from uwv_hydro.modes.buoyancy_engines import BuoyancyEngines
    params = load_vehicle_string(GLIDER % '', source='glider.sdf')
    (spec,) = params.buoyancy_engines
    assert np.allclose(spec.position, [0.3, 0.0, 0.0], rtol=0, atol=1e-15)
    engines = BuoyancyEngines(params.buoyancy_engines, params.gravity)
    assert engines.command(0, 0.01)  # above max_volume: clamped to 0.003
    assert not engines.command(0, float('nan'))
    volumes = []
    for _ in range(15):
        engines.step(0.1)
        volumes.append(engines.volumes[0])
    # V_k = min(0.002 + k rate dt, 0.003): 1e-5 m^3 per 0.1 s step, 100 steps to the top
    expected = [min(0.002 + (k + 1) * 1e-5, 0.003) for k in range(15)]
    assert np.allclose(volumes, expected, rtol=0, atol=1e-15)


def test_bladder_force_lifts_a_neutral_vehicle_as_archimedes_says():
    """A neutral, drag-free vehicle rises with v = sum_k rho g (V_k - V_n) dt / m (RK4 exact)."""
    from uwv_hydro.modes.buoyancy_engines import BuoyancyEngines
    from uwv_hydro.modes.simulate_mode import SimulateMode
    from uwv_hydro.physics.body.dynamics import State
    # the bladder at the origin: a pure heave, integrated exactly by RK4
    text = (GLIDER % '').replace('<pose>0.3 0 0 0 0 0</pose>', '<pose>0 0 0 0 0 0</pose>')
    params = load_vehicle_string(text, source='glider.sdf')
    dt, n = 0.05, 40
    start = State(position=np.array([0.0, 0, -50.0]), quaternion=np.array([1.0, 0, 0, 0]),
                  twist=np.zeros(6))
    mode = SimulateMode(params, dt, max_catchup_steps=n, initial=start)
    mode.engines = BuoyancyEngines(params.buoyancy_engines, params.gravity)
    mode.engines.command(0, 0.003)
    mode.advance(0)
    mode.advance(n * mode.period_ns)
    rho, g, m = 1000.0, params.gravity, params.mass
    # step k (1-based) holds V_k = 0.002 + k rate dt; F_k = rho g (V_k - V_n) (gz-sim)
    impulse = sum(rho * g * (k * 1e-4 * dt) * dt for k in range(1, n + 1))
    nu = mode.state.twist
    assert nu[2] == pytest.approx(impulse / m, rel=1e-12)
    assert np.allclose(nu[[0, 1, 3, 4, 5]], 0.0, rtol=0, atol=1e-15)
    assert mode.engines.volumes[0] == pytest.approx(0.002 + n * 1e-4 * dt, rel=1e-12)


def test_bladder_above_the_surface_displaces_nothing():
    """Above <surface> (world z) only the oil's weight rho g V_neutral remains (gz-sim)."""
    from uwv_hydro.modes.buoyancy_engines import BuoyancyEngines
    params = load_vehicle_string(GLIDER % '<surface>0</surface>', source='glider.sdf')
    engines = BuoyancyEngines(params.buoyancy_engines, params.gravity)
    below = engines.wrench([0.0, 0.0, -1.0, 1.0, 0.0, 0.0, 0.0] + [0.0] * 6)
    above = engines.wrench([0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0] + [0.0] * 6)
    g = params.gravity
    assert below[2] == pytest.approx(0.0, abs=1e-12)  # V = V_neutral: no net force
    assert above[2] == pytest.approx(-1000.0 * g * 0.002, rel=1e-12)
    # at the bladder 0.3 m ahead: torque r x F = (0.3, 0, 0) x (0, 0, F) = (0, -0.3 F, 0)
    assert np.allclose(above[3:], [0.0, -0.3 * above[2], 0.0], rtol=0,
                       atol=1e-12 * abs(above[2]))
    # pitched 90 deg nose-up the world vertical is body +x: F_body = R^T [0, 0, F]
    half = math.sqrt(0.5)
    tilted = engines.wrench([0.0, 0.0, 1.0, half, 0.0, -half, 0.0] + [0.0] * 6)
    assert np.allclose(tilted[:3], [above[2], 0.0, 0.0], rtol=0, atol=1e-12 * abs(above[2]))


def test_undeclared_gz_prefix_is_read_as_sdformat_reads_it():
    """gz:type / <gz:dvl> without xmlns:gz (tinyxml2 accepts it): read, lines kept."""
    text = AUV.read_text().replace(' xmlns:gz="http://gazebosim.org/schema"', '')
    text = text.replace('<pose>-0.3 0 0.12 0 0 0</pose>',
                        '<pose relative_to="base_link">-0.3 0 0.12 0 0 0</pose>')
    params = load_vehicle_string(text, source='auv.sdf')
    assert {s.name: s for s in params.sensors}['gps'].pose[:3] == (-0.3, 0.0, 0.12)
    dvl = {s.name: s for s in params.sensors}['dvl']
    assert dvl.kind == 'dvl' and [a.stddev for a in dvl.model.velocity] == [0.003] * 3
    bad = text.replace('<when>best</when>', '<when>sometimes</when>')
    with pytest.raises(DescriptionError) as err:
        load_vehicle_string(bad, source='auv.sdf')
    line = next(k for k, row in enumerate(bad.splitlines(), 1) if 'sometimes' in row)
    assert err.value.line == line


def test_offline_simulate_applies_the_bladder_at_its_default_volume():
    """Offline simulate(): default_volume above neutral lifts a neutral vehicle, v = F t / m."""
    from uwv_hydro.modes.offline_simulation import simulate
    from uwv_hydro.physics.body.dynamics import State
    text = (GLIDER % '').replace('<pose>0.3 0 0 0 0 0</pose>', '<pose>0 0 0 0 0 0</pose>')
    text = text.replace('<default_volume>0.002', '<default_volume>0.0025')
    params = load_vehicle_string(text, source='glider.sdf')
    start = State(position=np.array([0.0, 0, -50.0]), quaternion=np.array([1.0, 0, 0, 0]),
                  twist=np.zeros(6))
    traj = simulate(params, 2.0, dt=0.05, initial=start)
    force = 1000.0 * params.gravity * 0.0005  # rho g (V - V_neutral), gz-sim
    assert np.allclose(traj.twist[:, 2], force * traj.t / params.mass, rtol=1e-12, atol=0)
    assert np.allclose(traj.twist[:, [0, 1, 3, 4, 5]], 0.0, rtol=0, atol=1e-15)


NESTED = """<sdf version="1.9"><model name="sub">
  <link name="base_link"><pose>0.5 0 0 0 0 0</pose>
    <inertial><mass>40</mass></inertial>
    <sensor name="imu" type="imu"><update_rate>50</update_rate>
      <pose relative_to="mount">0 0 0.05 0 0 0</pose></sensor>
  </link>
  <frame name="mount" attached_to="base_link"><pose>0.2 0.1 0 0 0 %(yaw)r</pose></frame>
  <model name="pod"><pose>0 0 -0.2 0 0 %(yaw)r</pose>
    <link name="prop"><pose>-1 0 0 0 0 0</pose><inertial><mass>2</mass></inertial></link>
    <joint name="j" type="revolute"><parent>base_link</parent><child>prop</child>
      <axis><xyz>1 0 0</xyz></axis></joint>
    <plugin filename="gz-sim-thruster-system" name="gz::sim::systems::Thruster">
      <joint_name>j</joint_name><thrust_coefficient>0.01</thrust_coefficient>
      <fluid_density>1000</fluid_density><propeller_diameter>0.1</propeller_diameter>
    </plugin>
  </model>
</model></sdf>""" % {'yaw': math.pi / 2}


def test_equipment_of_a_nested_model_and_a_sensor_relative_to_a_frame():
    """Poses by sdformat's rules, composed by hand: X_base = X_model_base^-1 X_model_elem."""
    params = load_vehicle_string(NESTED, source='nested.sdf')
    rz = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])  # yaw pi/2
    base = np.array([0.5, 0.0, 0.0])
    # pod::j sits at pod::prop (its child): pod pose + Rz (-1, 0, 0), axis Rz (1, 0, 0)
    origin = np.array([0.0, 0.0, -0.2]) + rz @ [-1.0, 0.0, 0.0] - base
    axis = rz @ [1.0, 0.0, 0.0]
    (spec,) = params.thrusters
    assert spec.joint_name == 'j'  # as the plugin names it (gz-sim's topic uses it)
    bank = ThrusterBank(params.thrusters, params.fluid_density)
    column = bank.allocation[:, 0]  # base wrench of 1 N: (a, r x a)
    assert np.max(np.abs(column[:3] - axis)) < 1e-12
    assert np.max(np.abs(column[3:] - np.cross(origin, axis))) < 1e-12
    # imu: frame 'mount' attached to base_link (its pose in base_link), sensor in 'mount'
    (imu,) = params.sensors
    t, q = sensor_mount(imu, params)
    assert np.max(np.abs(t - (np.array([0.2, 0.1, 0.0]) + rz @ [0.0, 0.0, 0.05]))) < 1e-12
    assert np.max(np.abs(quat_to_matrix(q) - rz)) < 1e-12
    kinds = {(r.kind, r.name, r.status) for r in params.elements}
    assert ('thruster', 'j', 'read') in kinds and ('sensor', 'imu', 'read') in kinds
