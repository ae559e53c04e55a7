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
Co-simulation: DART integrates the rigid body, the running node supplies the hydro wrench.

DART (the engine under gz-sim) carries a full 6x6 added mass, which MuJoCo cannot
(test_cosim_mujoco.py).  Over DDS, lock-stepped on /clock (test/helpers/cosim: lock_step.py,
dart_engine.py), 10 s at 5 ms, the node in wrench mode with ``publish_on: odometry``,
``use_sim_time`` and ``apply_weight`` (the body's gravity is off in DART).  The vehicle
has a full symmetric M_A (all 21 independent terms non-zero) and its CoM 5 cm off the
link origin:

* implicit: DART's spatial tensor is M_RB + M_A about the link origin, as gz-physics
  sets it for SDF ``<fluid_added_mass>``;
* lagged: DART carries the bare rigid body, the node adds -M_A a_hat;
* each with a 0.3 m/s world current, implicit also without.

Two references:

(a) the project's offline simulate (implicit added mass, RK4): the loop ends within
    the distance that DART's first-order step puts a semi-implicit Euler of the same
    equations from it (shown to halve when the step halves), itself under 1 cm;
(b) DART's own scheme written out here: a semi-implicit Euler of the true equations
    (implicit: simulate's derivative; lagged: the bare rigid body's Newton-Euler with
    the node's lagged wrench, its mode run in-process), from the same start with the
    same thrust: every state of the loop equals it to 1e-10.
"""
from required_modules import require

require('rclpy', checks='the co-simulation harness (cosim.scenario runs on rclpy) and the '
        'engine conventions it relies on')

from cosim.scenario import (connect_wrench_node, CURRENT, DT, START, STEPS,  # noqa: E402, I100
                            thrust)
import numpy as np  # noqa: E402
import pytest  # noqa: E402

# pinned in requirements.txt; a sourced ROS 2 installation may lack it
dart = require('dartpy')

COM = (0.05, 0.0, 0.0)

# A full symmetric positive definite M_A (about the CoM, dsros semantics): diagonal
# dominant, every coupling term present
ADDED_MASS = [[25.0, 1.5, -2.0, 0.3, -0.8, 0.6],
              [1.5, 30.0, 1.2, -0.5, 0.4, 1.5],
              [-2.0, 1.2, 35.0, 0.7, -1.2, -0.4],
              [0.3, -0.5, 0.7, 0.8, 0.05, -0.1],
              [-0.8, 0.4, -1.2, 0.05, 3.0, 0.2],
              [0.6, 1.5, -0.4, -0.1, 0.2, 3.0]]

VEHICLE_YAML = """
uwv_hydro:
  ros__parameters:
    vehicle:
      name: dart_body
      mass: 50.0
      com: %s
      inertia: {ixx: 2.0, iyy: 5.0, izz: 5.0}
      buoyancy_mass: 50.3
      cob: [0.05, 0.0, 0.04]
      linear_drag: {xx: 10.0, yy: 30.0, zz: 30.0, rr: 2.0, pp: 4.0, hh: 4.0}
      quadratic_drag: {xxx: 40.0, yyy: 80.0, zzz: 80.0, rrr: 3.0, ppp: 6.0, hhh: 6.0}
      added_mass: %s
      drag_center: [-0.1, 0.0, 0.0]
""" % (list(COM), ADDED_MASS)


def _load(tmp_path):
    from uwv_hydro.description.loader import load_vehicle
    path = tmp_path / 'dart_body.yaml'
    path.write_text(VEHICLE_YAML)
    return path, load_vehicle(str(path))


def _skew(r):
    return np.array([[0.0, -r[2], r[1]], [r[2], 0.0, -r[0]], [-r[1], r[0], 0.0]])


def _exp_rotation(phi):
    """
    Return DART's rotation of the rotation vector ``phi`` (dart/math/Geometry.cpp expMapRot).

    Rodrigues' formula; below 1e-3 rad DART keeps the series to second order, I + S + S^2/2.
    """
    theta = float(np.linalg.norm(phi))
    s = _skew(phi)
    if theta < 1e-3:
        return np.eye(3) + s + 0.5 * s @ s
    return np.eye(3) + np.sin(theta) / theta * s + (1.0 - np.cos(theta)) / theta ** 2 * s @ s


def _log_rotation(rotation):
    """Return the rotation vector of a rotation matrix (the inverse of Rodrigues' formula)."""
    theta = float(np.arccos(np.clip(0.5 * (np.trace(rotation) - 1.0), -1.0, 1.0)))
    if theta < 1e-12:
        return np.zeros(3)
    r = rotation
    return theta / (2.0 * np.sin(theta)) * np.array(
        [r[2, 1] - r[1, 2], r[0, 2] - r[2, 0], r[1, 0] - r[0, 1]])


def _euler_step(position, rotation_vector, nu, nu_dot, dt):
    """
    Return DART's semi-implicit Euler step of a free body (position, rotation vector, nu).

    The FreeJoint's generalised coordinates are [rotation vector, position], its
    generalised velocity the world twist [R w, R v] of the origin, whose rate is
    [R w_dot, R (v_dot + w x v)].  The velocity steps first, then the pose with the new
    velocity: p += v_w dt, R <- exp(w_w dt) R, stored as a rotation vector again; R is
    always read back through DART's exp of the stored vector (its second-order series
    below 1e-3 rad, hence the stored vector is modelled, not R).
    """
    rotation = _exp_rotation(rotation_vector)
    v, w = nu[:3], nu[3:]
    v_world = rotation @ v + dt * rotation @ (nu_dot[:3] + np.cross(w, v))
    w_world = rotation @ w + dt * rotation @ nu_dot[3:]
    position = position + dt * v_world
    rotation_vector = _log_rotation(_exp_rotation(dt * w_world) @ rotation)
    rotation = _exp_rotation(rotation_vector)
    return position, rotation_vector, np.concatenate([rotation.T @ v_world,
                                                      rotation.T @ w_world])


def _kirchhoff(mass_matrix, nu):
    """Return a free body's bias wrench -nu x* (M nu) (Featherstone; Kirchhoff's equations)."""
    p_h = mass_matrix @ nu
    p, h = p_h[:3], p_h[3:]
    v, w = nu[:3], nu[3:]
    return -np.concatenate([np.cross(w, p), np.cross(w, h) + np.cross(v, p)])


def _euler_reference(params, added_mass, current, dt, steps):
    """
    Integrate the true equations with DART's scheme; return (positions, rotations).

    implicit: nu_dot from simulate's derivative (M_RB + M_A, everything the node and
    the engine compute between them); lagged: the bare rigid body M_RB nu_dot = tau +
    node wrench + its Kirchhoff bias, the node's wrench from its mode run in-process
    on the same states (its acceleration estimate lags by construction).
    """
    from uwv_hydro.modes.wrench_mode import WrenchMode
    from uwv_hydro.physics.body.dynamics import Simulator, State
    from uwv_hydro.physics.hydro.hydro_model import HydroModel
    from uwv_hydro.physics.spatial.rotation import matrix_to_quat, quat_to_matrix
    sim = Simulator(params, dt=dt)
    mode = WrenchMode(params, added_mass='lagged', apply_weight=True)
    m_rb = HydroModel(params).rigid_body_mass_matrix()
    position = np.asarray(START['position'], float)
    rotation_vector = _log_rotation(quat_to_matrix(np.asarray(START['quaternion'], float)))
    nu = np.asarray(START['twist'], float)
    positions, rotations = [position], [_exp_rotation(rotation_vector)]
    per_step = int(round(DT / dt))  # the thrust is held over the loop's steps of DT
    for k in range(steps):
        tau = thrust(DT * (k // per_step))
        q = matrix_to_quat(_exp_rotation(rotation_vector))
        if added_mass == 'implicit':
            nu_dot = sim.derivative(State(position, q, nu), tau, current).twist
        else:
            hydro = mode.evaluate(1.0 + k * dt, position, q, nu, current).total
            nu_dot = np.linalg.solve(m_rb, tau + hydro + _kirchhoff(m_rb, nu))
        position, rotation_vector, nu = _euler_step(position, rotation_vector, nu, nu_dot, dt)
        positions.append(position)
        rotations.append(_exp_rotation(rotation_vector))
    return np.array(positions), np.array(rotations)


def _rotation_angle(r, r_ref):
    """Return the angle of the rotation between two rotation matrices (rad)."""
    return float(np.arccos(np.clip((np.trace(r.T @ r_ref) - 1.0) / 2.0, -1.0, 1.0)))


def test_dart_conventions_the_harness_relies_on(tmp_path):
    """Spatial order and velocity, the tensor view, force clearing, the step, the mass."""
    from cosim.dart_engine import DartBody, spatial_inertia, to_dart
    from uwv_hydro.physics.spatial.rotation import quat_to_matrix
    _, params = _load(tmp_path)
    start = {'position': (1.0, 2.0, -3.0), 'quaternion': (0.9, 0.2, -0.3, 0.25),
             'twist': (0.3, -0.2, 0.1, 0.4, -0.5, 0.6)}
    body = DartBody(params, 1e-3, carry_added_mass=True, **start)
    position, q, nu = body.odometry()
    rotation = quat_to_matrix(q)
    np.testing.assert_allclose(position, start['position'], rtol=0, atol=1e-15)
    np.testing.assert_allclose(nu, start['twist'], rtol=0, atol=1e-14)
    # the generalised velocities of dartpy >= 6.17 are the world twist [R w, R v]
    np.testing.assert_allclose(body.joint.getVelocities(),
                               np.concatenate([rotation @ nu[3:], rotation @ nu[:3]]),
                               rtol=0, atol=1e-14)
    # the spatial tensor is the full M_RB + M_A, [angular, linear]; the getter is a view
    m = spatial_inertia(params, True)
    view = body.body.getInertia().getSpatialTensor()
    np.testing.assert_allclose(view, to_dart(m), rtol=1e-14, atol=1e-12)
    assert np.all(np.abs(m[:3, 3:]) > 0.0), 'the translational-rotational coupling is full'
    # ... a read-only view that follows the Inertia: a copy keeps the value
    inertia = dart.dynamics.Inertia()
    inertia.setSpatialTensor(to_dart(m))
    view = inertia.getSpatialTensor()
    kept = np.array(view)
    inertia.setSpatialTensor(2.0 * to_dart(m))
    np.testing.assert_allclose(view, 2.0 * to_dart(m), rtol=1e-15, atol=0)
    np.testing.assert_allclose(kept, to_dart(m), rtol=1e-15, atol=0)
    assert not view.flags.writeable
    # DART reads the mass as m + M_A[0, 0]: the reason its gravity must stay off
    added_xx = m[0, 0] - params.mass
    assert added_xx > 1.0 and not body.body.getGravityMode()
    assert abs(body.body.getMass() - (params.mass + added_xx)) < 1e-12
    # one step under a body wrench is the semi-implicit Euler of Newton-Euler with M
    wrench = np.array([10.0, -4.0, 2.0, 0.5, -0.3, 0.8])
    nu_dot = np.linalg.solve(m, wrench + _kirchhoff(m, nu))
    expected = _euler_step(position, _log_rotation(rotation), nu, nu_dot, 1e-3)
    body.step(wrench)
    stepped = (body.pose()[0], body.joint.getPositions()[:3], body.odometry()[2])
    for got, want, what in zip(stepped, expected, ('position', 'rotation vector', 'twist')):
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-13, err_msg=what)
    # world.step() cleared the external force (the harness sets it before every step)
    assert not np.any(body.body.getExternalForceGlobal())


@pytest.mark.ros
@pytest.mark.parametrize('added_mass,current', [
    ('implicit', CURRENT), ('lagged', CURRENT), ('implicit', None)],
    ids=['implicit-current', 'lagged-current', 'implicit'])
def test_cosimulation_with_dart_full_added_mass(rclpy_context, spawn, tmp_path,
                                                added_mass, current):
    from cosim.dart_engine import DartBody
    from uwv_hydro.modes.offline_simulation import simulate
    from uwv_hydro.physics.body.dynamics import State
    from uwv_hydro.physics.spatial.rotation import quat_to_matrix
    path, params = _load(tmp_path)
    proc, log, engine = connect_wrench_node(spawn, tmp_path, rclpy_context, path, added_mass,
                                            current)
    body = DartBody(params, DT, carry_added_mass=added_mass == 'implicit', **START)
    positions, quaternions, wall = engine.run(body, STEPS, DT, thrust)
    engine.close()
    assert proc.poll() is None
    rotations = np.array([quat_to_matrix(q) for q in quaternions])
    # (b) DART's scheme of the true equations, every state
    euler_p, euler_r = _euler_reference(params, added_mass, current, DT, STEPS)
    scheme_error = max(float(np.max(np.abs(positions - euler_p))),
                       float(np.max(np.abs(rotations - euler_r))))
    # (a) the project's simulate (RK4), final state
    ref = simulate(params, STEPS * DT, dt=DT, thrust=thrust, initial=State(**START),
                   current_world=current)
    position_error = float(np.linalg.norm(positions[-1] - ref.position[-1]))
    ref_rotation = quat_to_matrix(ref.quaternion[-1])
    attitude_error = _rotation_angle(rotations[-1], ref_rotation)
    euler_error = float(np.linalg.norm(euler_p[-1] - ref.position[-1]))
    travelled = float(np.linalg.norm(ref.position[-1] - ref.position[0]))
    print('DART %s current=%s: final position error %.2f mm (Euler of the same equations '
          '%.2f mm), attitude error %.2e rad, travelled %.2f m; loop vs DART scheme %.2e; '
          '%.2f ms wall per lock-step' % (
              added_mass, current, position_error * 1e3, euler_error * 1e3, attitude_error,
              travelled, scheme_error, wall * 1e3))
    assert travelled > 5.0 and _rotation_angle(ref_rotation, rotations[0]) > 0.5
    assert scheme_error < 1e-10
    # DART's step is first order: the distance it puts between the loop and RK4 halves
    # with the step, and it is all of the loop's error
    assert position_error <= euler_error + 1e-9
    if added_mass == 'implicit':
        half_p, _ = _euler_reference(params, added_mass, current, DT / 2, 2 * STEPS)
        half_error = float(np.linalg.norm(half_p[-1] - ref.position[-1]))
        print('semi-implicit Euler at dt/2: %.2f mm (ratio %.2f)' % (
            half_error * 1e3, euler_error / half_error))
        assert 1.6 < euler_error / half_error < 2.4
        assert euler_error < 0.01
    else:  # and the lagged acceleration estimate
        assert euler_error < 0.02
    assert attitude_error <= 0.01
