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
A base and an arm link: ArticulatedSimulateMode against MuJoCo with the same per-link hydro.

MuJoCo integrates the two bodies (free joint + hinge, RK4, gravity off); before every
MuJoCo step the test evaluates each link's hydro from MuJoCo's own state
(:class:`~uwv_hydro.physics.link_wrench.PartWrenches`: buoyancy, linear and quadratic
drag of each part) plus each body's weight and applies them with ``xfrc_applied``; the
added mass, of rigid-body form here, is folded into MuJoCo's body inertia (exact, its
Kirchhoff term included).  The arm swings under an effort command (a sine, held over
each 10 ms step in both) while a constant base wrench drives the vehicle.

MuJoCo holds the applied forces over its step: its own error is first order in the
step.  The mode's trajectory (RK4 with the forces at every stage, 10 ms) lies within
MuJoCo's step error at 10 ms (estimated as the change when MuJoCo's step is halved),
and MuJoCo's trajectory converges to it as its step is halved twice.
"""
from articulated_vehicle import two_link
import numpy as np
import pytest

mujoco = pytest.importorskip('mujoco', reason='pip install mujoco (requirements.txt)')
pytest.importorskip('pinocchio', reason='pip install pin (requirements.txt)')

DT = 0.01
DURATION = 3.0
POSITION = np.array([0.0, 0.0, -10.0])
QUATERNION = np.array([0.96, 0.1, -0.2, 0.15]) / np.linalg.norm([0.96, 0.1, -0.2, 0.15])
TWIST = np.array([0.3, 0.1, -0.1, 0.1, -0.2, 0.2])
TAU = np.array([30.0, 8.0, -5.0, 1.0, 2.0, -1.5])
Q0 = 0.3


def effort(t: float) -> float:
    """Return the arm's effort command (N m) at time t."""
    return 12.0 * np.sin(2.0 * np.pi * t / 1.2)


def _folded(body):
    """Return (mass, CoM, inertia about it) of a body with its parts' added mass folded in."""
    pieces = [(body.mass, np.asarray(body.com, float), np.asarray(body.inertia, float))]
    for part in body.parts:
        m_a = part.added_mass
        a = m_a[0, 0]
        # rigid-body form at the part origin (test/articulated_vehicle.py): a I, no coupling
        assert np.allclose(m_a[:3, :3], a * np.eye(3)) and not np.any(m_a[:3, 3:])
        r = part.rotation
        pieces.append((a, np.asarray(part.position, float), r @ m_a[3:, 3:] @ r.T))
    mass = sum(p[0] for p in pieces)
    com = sum(p[0] * p[1] for p in pieces) / mass
    inertia = np.zeros((3, 3))
    for m, c, i_c in pieces:
        d = c - com
        # parallel axes
        inertia += i_c + m * (d @ d * np.eye(3) - np.outer(d, d))
    return mass, com, inertia


def _inertial(body) -> str:
    mass, com, i = _folded(body)
    pairs = ((0, 0), (1, 1), (2, 2), (0, 1), (0, 2), (1, 2))  # MJCF fullinertia order
    full = ' '.join(repr(float(i[a, b])) for a, b in pairs)
    return '<inertial pos="%s" mass="%r" fullinertia="%s"/>' % (
        ' '.join(repr(float(v)) for v in com), float(mass), full)


def _mjcf(tree, dt):
    from uwv_hydro.physics.rotation import matrix_to_quat
    joint = tree.joints[0]
    base, arm = tree.bodies['base_link'], tree.bodies['arm_link']
    return ('<mujoco><option timestep="%r" gravity="0 0 0" integrator="RK4"/><worldbody>'
            '<body name="base_link"><freejoint/>%s'
            '<body name="arm_link" pos="%s" quat="%s">'
            '<joint name="%s" type="hinge" axis="%s" pos="0 0 0" limited="false"/>%s'
            '</body></body></worldbody></mujoco>' % (
                float(dt), _inertial(base),
                ' '.join(repr(float(v)) for v in joint.origin_position),
                ' '.join(repr(float(v)) for v in matrix_to_quat(joint.origin_rotation)),
                joint.name, ' '.join(repr(float(v)) for v in joint.axis), _inertial(arm)))


def _mujoco_run(params, dt):
    """Return (base position, quaternion, joint angle) after DURATION with MuJoCo at dt."""
    from uwv_hydro.physics.link_wrench import PartWrenches, wrench_in_parent
    from uwv_hydro.physics.multibody import attached_frames, FrameKinematics
    from uwv_hydro.physics.point_transform import motion_transforms
    from uwv_hydro.physics.rotation import quat_to_matrix
    tree = params.tree
    model = mujoco.MjModel.from_xml_string(_mjcf(tree, dt))
    data = mujoco.MjData(model)
    data.qpos[:3] = POSITION
    data.qpos[3:7] = QUATERNION
    data.qpos[7] = Q0
    data.qvel[:3] = quat_to_matrix(QUATERNION) @ TWIST[:3]  # free joint: world velocity
    data.qvel[3:6] = TWIST[3:]
    bodies = [(model.body(name).id, body, PartWrenches(body.parts, params.gravity))
              for name, body in tree.bodies.items()]
    per_command = int(round(DT / dt))
    velocity = np.zeros(6)
    for k in range(int(round(DURATION / dt))):
        mujoco.mj_forward(model, data)
        for b, body, parts in bodies:
            rot = data.xmat[b].reshape(3, 3)
            # [w, v] of the body frame origin in body axes (flg_local = 1)
            mujoco.mj_objectVelocity(model, data, mujoco.mjtObj.mjOBJ_XBODY, b, velocity, 1)
            nu = np.concatenate((velocity[3:], velocity[:3]))
            weight = (-body.mass * params.gravity) * rot[2, :]
            local = np.concatenate((weight, np.cross(body.com, weight)))
            p_rot = np.array([p.rotation for p in body.parts])
            p_pos = np.array([p.position for p in body.parts])
            frame = FrameKinematics([], data.xpos[b][None].copy(), rot[None].copy(), nu[None])
            kin = attached_frames(frame, [0] * len(body.parts), p_rot, p_pos)
            rows = parts.wrenches(kin.rotation, kin.position, kin.twist)
            # buoyancy and drag (rows 1-3); the added mass is MuJoCo's (folded)
            local += wrench_in_parent(rows[:, 1:4].sum(axis=1),
                                      motion_transforms(p_rot, p_pos)).sum(axis=0)
            if b == model.body('base_link').id:
                local += TAU
            force = rot @ local[:3]
            # xfrc_applied: world force and torque about the body's CoM (xipos)
            data.xfrc_applied[b, :3] = force
            data.xfrc_applied[b, 3:] = rot @ local[3:] + np.cross(
                data.xpos[b] - data.xipos[b], force)
        data.qfrc_applied[6] = effort((k // per_command) * DT)
        mujoco.mj_step(model, data)
    return data.qpos[:3].copy(), data.qpos[3:7].copy(), float(data.qpos[7])


def _mode_run(params, dt):
    from uwv_hydro.modes.articulated_simulate_mode import ArticulatedSimulateMode
    from uwv_hydro.physics.dynamics import State
    mode = ArticulatedSimulateMode(params, dt, joint_positions=[Q0], initial=State(
        position=POSITION, quaternion=QUATERNION, twist=TWIST))
    per_command = int(round(DT / dt))
    swing = 0.0
    for k in range(int(round(DURATION / dt))):
        mode.command(0, 'effort', effort((k // per_command) * DT))
        assert mode.step(TAU)
        swing = max(swing, abs(float(mode.q[0]) - Q0))
    x = np.array(mode.x)
    return x[:3], x[3:7], float(mode.q[0]), swing


def _difference(a, b):
    """Return the largest of the position (m), attitude (rad) and joint (rad) differences."""
    angle = 2.0 * np.arccos(min(1.0, abs(float(np.dot(a[1], b[1])))))
    return max(float(np.linalg.norm(a[0] - b[0])), angle, abs(a[2] - b[2]))


def test_two_links_follow_mujoco_within_its_step_error():
    params = two_link(rigid_form_base=True)
    ours = _mode_run(params, DT)
    ours_fine = _mode_run(params, DT / 4)
    engine = [_mujoco_run(params, DT / 2 ** k) for k in range(3)]
    errors = [_difference(e, ours) for e in engine]
    step_error = _difference(engine[0], engine[1])
    swing = ours[3]
    print("MuJoCo at 10, 5, 2.5 ms vs the mode at 10 ms: %s; MuJoCo's own step error at "
          '10 ms %.3g; the mode at 10 vs 2.5 ms %.3g; travelled %.2f m, arm moved %.2f rad'
          % (', '.join('%.3g' % e for e in errors), step_error,
             _difference(ours, ours_fine), float(np.linalg.norm(ours[0] - POSITION)), swing))
    assert float(np.linalg.norm(ours[0] - POSITION)) > 1.0 and swing > 0.2
    assert _difference(ours, ours_fine) < 0.01 * errors[0]
    assert errors[0] <= 3.0 * step_error
    assert errors[1] <= 0.7 * errors[0] and errors[2] <= 0.7 * errors[1]
