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
Co-simulation: MuJoCo integrates the rigid body, the running node supplies the hydro wrench.

Over DDS, lock-stepped on /clock (test/helpers/cosim: lock_step.py, mujoco_engine.py), 10 s at
5 ms, the node in wrench mode with ``publish_on: odometry``, ``use_sim_time`` and
``apply_weight`` (gravity is off in MuJoCo).  Reference: the project's own offline
simulate (implicit added mass, RK4) of the same vehicle, start and thrust.

* implicit: M_A folded into MuJoCo's mass and inertia (exact for this vehicle:
  isotropic translational, diagonal rotational added mass, CoM at the link origin);
* lagged: MuJoCo carries the bare rigid body, the node adds -M_A a_hat;
* each with and without a 0.3 m/s world current;
* lagged with the CoM 5 cm off the link origin (MuJoCo's body inertial at the CoM, the
  wrench's torque moved there; the project's M_RB about the origin by parallel axes);
* implicit with a rudder and a stern plane held deflected (std_msgs/Float64 commands
  to the node's fin servos; the reference holds the same angles).

Bars: final position within 1 cm (implicit) / 2 cm (lagged), attitude within 0.01 rad.
The only difference left between the loop and the reference is the engine's
zero-order hold of the wrench over a step.
"""
from required_modules import require

require('rclpy', checks='the co-simulation harness (cosim.scenario runs on rclpy) and the '
        'engine conventions it relies on')

from cosim.scenario import (connect_wrench_node, CURRENT, DT, START, STEPS,  # noqa: E402, I100
                            thrust)
import numpy as np  # noqa: E402
import pytest  # noqa: E402

# pinned in requirements.txt; a sourced ROS 2 installation may lack it
mujoco = require('mujoco')


VEHICLE_YAML = """
uwv_hydro:
  ros__parameters:
    vehicle:
      name: cosim_body
      mass: 50.0
      com: [0.0, 0.0, 0.0]
      inertia: {ixx: 2.0, iyy: 5.0, izz: 5.0}
      buoyancy_mass: 50.3
      cob: [0.0, 0.0, 0.04]
      linear_drag: {xx: 10.0, yy: 30.0, zz: 30.0, rr: 2.0, pp: 4.0, hh: 4.0}
      quadratic_drag: {xxx: 40.0, yyy: 80.0, zzz: 80.0, rrr: 3.0, ppp: 6.0, hhh: 6.0}
      added_mass: {xx: 25.0, yy: 25.0, zz: 25.0, rr: 0.8, pp: 3.0, hh: 3.0}
      drag_center: [-0.1, 0.0, 0.0]
"""
# Two tail fins (axis = forward x upward): deflections held at FIN_ANGLES (rad)
FIN = ('{position: %s, axis: %s, forward: [1.0, 0.0, 0.0], upward: %s, area: 0.03, '
       'cla: 3.0, cda: 0.3, alpha_stall: 0.4, cla_stall: -1.0, cda_stall: 1.0}')
FINS_YAML = ('      fins:\n        rudder: %s\n        stern_plane: %s\n' % (
    FIN % ([-0.6, 0.0, 0.1], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]),
    FIN % ([-0.6, 0.1, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, -1.0])))
FIN_ANGLES = {'rudder': 0.2, 'stern_plane': -0.15}


def _load(tmp_path, com=(0.0, 0.0, 0.0), fins=False):
    from uwv_hydro.description.loader import load_vehicle
    path = tmp_path / 'cosim_body.yaml'
    path.write_text(VEHICLE_YAML.replace('com: [0.0, 0.0, 0.0]', 'com: %s' % list(com))
                    + (FINS_YAML if fins else ''))
    return path, load_vehicle(str(path))


def _reference(params, current, fin_angles=None):
    """Run the offline simulate mode of the same vehicle, start and thrust (fins held)."""
    from uwv_hydro.modes.offline_simulation import simulate
    from uwv_hydro.physics.body.dynamics import State
    held = None if fin_angles is None else [fin_angles[f.name] for f in params.fins]
    return simulate(params, STEPS * DT, dt=DT, thrust=thrust, initial=State(**START),
                    current_world=current, fin_angles=held)


def _hold_fins(engine, angles, timeout=30.0):
    """
    Command the fin servos and let them settle before the run starts.

    /clock advances in steps of DT up to the run's start (never beyond: the run's first
    lock-step must be a clock step forward) until the node's JointState shows the angles.
    """
    from sensor_msgs.msg import JointState
    from std_msgs.msg import Float64
    pubs = {n: engine.node.create_publisher(Float64, 'fins/%s/cmd_pos' % n, 10)
            for n in angles}
    states = []
    engine.node.create_subscription(JointState, 'joint_states', states.append, 10)
    assert engine.spin_until(lambda: all(p.get_subscription_count() for p in pubs.values()),
                             timeout), 'the node has no fin command subscriptions'
    t = engine.start_ns - int(0.5e9)

    def settled():
        nonlocal t
        for name, pub in pubs.items():
            pub.publish(Float64(data=angles[name]))
        if t < engine.start_ns - int(DT * 1e9):
            t += int(DT * 1e9)
            engine.publish_clock(t)
        return states and all(abs(a - angles[n]) < 1e-12
                              for n, a in zip(states[-1].name, states[-1].position))

    assert engine.spin_until(settled, timeout), 'fin servos did not reach %s' % angles


def _attitude_error(q, q_ref):
    """Return the rotation angle between two unit quaternions [w, x, y, z] (rad)."""
    return 2.0 * np.arccos(min(1.0, abs(float(np.dot(q, q_ref)))))


def test_mujoco_conventions_the_harness_relies_on(tmp_path):
    """Free-joint qvel = [world v of the origin, body w]; xfrc_applied acts at xipos."""
    from cosim.mujoco_engine import MujocoBody
    from uwv_hydro.physics.spatial.rotation import quat_to_matrix
    _, params = _load(tmp_path)
    params.com = np.array([0.2, -0.1, 0.05])  # CoM off the link origin
    body = MujocoBody(params, 1e-6, quaternion=(0.9, 0.2, -0.3, 0.25),
                      twist=(0.3, -0.2, 0.1, 0.4, -0.5, 0.6))
    p0, q0, nu0 = body.odometry()
    rot0 = quat_to_matrix(q0)
    body.step(np.zeros(6))
    p1, q1, _ = body.odometry()
    # dp/dt of the origin = R v_body; R^T dR/dt = S(w_body)
    np.testing.assert_allclose((p1 - p0) / 1e-6, rot0 @ nu0[:3], rtol=1e-5)
    spin = (rot0.T @ quat_to_matrix(q1) - np.eye(3)) / 1e-6
    np.testing.assert_allclose([spin[2, 1], spin[0, 2], spin[1, 0]], nu0[3:], rtol=1e-4)
    # a force through the CoM (xfrc_applied, no torque) does not spin the body
    d = body.data
    d.qvel[:] = 0.0
    d.xfrc_applied[body.body] = [10.0, -5.0, 3.0, 0.0, 0.0, 0.0]
    mujoco.mj_forward(body.model, d)
    assert np.max(np.abs(d.qacc[3:])) < 1e-12 and np.max(np.abs(d.qacc[:3])) > 0.01
    # a wrench about the link origin (MujocoBody.apply) acts as MuJoCo's own mj_applyFT
    # of that force and torque at the origin
    wrench = np.array([10.0, -4.0, 2.0, 0.5, -0.3, 0.8])
    accelerations = []
    for use_apply_ft in (False, True):
        twin = MujocoBody(params, 1e-3, quaternion=(0.9, 0.2, -0.3, 0.25),
                          twist=(0.3, -0.2, 0.1, 0.4, -0.5, 0.6))
        m, d, rot = twin.model, twin.data, twin.rotation()
        if use_apply_ft:
            mujoco.mj_forward(m, d)  # mj_applyFT needs the CoM quantities
            qfrc = np.zeros(m.nv)
            mujoco.mj_applyFT(m, d, rot @ wrench[:3], rot @ wrench[3:],
                              d.xpos[twin.body].copy(), twin.body, qfrc)
            d.qfrc_applied[:] = qfrc
        else:
            twin.apply(wrench)
        mujoco.mj_forward(m, d)
        accelerations.append(d.qacc.copy())
    np.testing.assert_allclose(accelerations[0], accelerations[1], rtol=1e-12, atol=1e-12)
    assert np.max(np.abs(accelerations[0][3:])) > 0.1


@pytest.mark.ros
@pytest.mark.parametrize('added_mass,current,com,fins', [
    ('implicit', None, None, False), ('lagged', None, None, False),
    ('implicit', CURRENT, None, False), ('lagged', CURRENT, None, False),
    ('lagged', None, (0.05, 0.02, -0.04), False), ('implicit', None, None, True)],
    ids=['implicit', 'lagged', 'implicit-current', 'lagged-current', 'lagged-com-offset',
         'implicit-fins'])
def test_cosimulation_with_mujoco_matches_simulate(rclpy_context, spawn, tmp_path,
                                                   added_mass, current, com, fins):
    from cosim.mujoco_engine import MujocoBody
    path, params = _load(tmp_path, com or (0.0, 0.0, 0.0), fins)
    proc, log, engine = connect_wrench_node(spawn, tmp_path, rclpy_context, path, added_mass,
                                            current)
    if fins:
        _hold_fins(engine, FIN_ANGLES)
    body = MujocoBody(params, DT, fold_added_mass=added_mass == 'implicit', **START)
    positions, quaternions, wall = engine.run(body, STEPS, DT, thrust)
    engine.close()
    assert proc.poll() is None
    ref = _reference(params, current, FIN_ANGLES if fins else None)
    position_error = float(np.linalg.norm(positions[-1] - ref.position[-1]))
    attitude_error = _attitude_error(quaternions[-1], ref.quaternion[-1])
    travelled = float(np.linalg.norm(ref.position[-1] - ref.position[0]))
    print('%s current=%s com=%s fins=%s: final position error %.2f mm, attitude error %.2e rad, '
          'travelled %.2f m, %.2f ms wall per lock-step' % (
              added_mass, current, com, fins, position_error * 1e3, attitude_error, travelled,
              wall * 1e3))
    assert travelled > 5.0 and _attitude_error(ref.quaternion[-1], ref.quaternion[0]) > 0.5
    if fins:  # the held fins matter: centred, the reference ends far from the loop
        centred = _reference(params, current, dict.fromkeys(FIN_ANGLES, 0.0))
        fin_effect = float(np.linalg.norm(centred.position[-1] - ref.position[-1]))
        print('the held fins move the final position by %.3f m' % fin_effect)
        assert fin_effect > 0.2
    assert position_error <= (0.01 if added_mass == 'implicit' else 0.02)
    assert attitude_error <= 0.01
