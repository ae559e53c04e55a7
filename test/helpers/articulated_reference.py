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
Independent references for the articulated simulate tests, for any kinematic tree.

* :func:`mujoco_run`: MuJoCo integrates the tree (free joint + hinges, RK4, gravity
  off); before every MuJoCo step each body's hydro is evaluated from MuJoCo's own state
  (:class:`BodyLoads`: :class:`~uwv_hydro.physics.articulated.algorithms.link_wrench.PartWrenches`'
  buoyancy,
  linear and quadratic drag of each part, plus the body's weight), and applied with
  ``xfrc_applied``; the added mass, which must be of rigid-body form at each part's
  origin (:func:`rigid_form`), is folded into MuJoCo's body inertia (exact, its
  Kirchhoff term included).  MuJoCo holds the applied forces over its step: its error
  is first order in the step.
* :func:`dart_run`: the same with DART (dartpy, the engine under gz-sim): a FreeJoint
  base, a RevoluteJoint or PrismaticJoint per moving joint (:func:`dart_skeleton`), the
  same folded inertias, gravity off, the same :class:`BodyLoads` set as each body's
  external force before every DART step (:func:`dart_apply`).  DART's step is
  semi-implicit Euler: its error is first order in the step.
* :func:`momentum`: linear and angular momentum of bodies and fluid (Kirchhoff impulse).
* :func:`lumped`: the tree at zero joint positions as one rigid VehicleParams, summed by
  hand (parallel axes, twist transforms): exact for the rigid SimulateMode when only the
  base's parts have quadratic drag.
"""
import dataclasses

import numpy as np

from uwv_hydro.physics.body.vehicle_params import VehicleParams


def skew(v) -> np.ndarray:
    """Return S(v) with S(v) w = v x w."""
    return np.array([[0.0, -v[2], v[1]], [v[2], 0.0, -v[0]], [-v[1], v[0], 0.0]])


def twist_transform(rotation, position) -> np.ndarray:
    """Return X: the twist of a frame posed (R, p) from the twist of its parent's origin."""
    out = np.zeros((6, 6))
    out[:3, :3] = rotation.T
    out[:3, 3:] = -rotation.T @ skew(position)
    out[3:, 3:] = rotation.T
    return out


def rigid_form(m_a: np.ndarray) -> np.ndarray:
    """Return the added mass's rigid-body-form part: mean translational a I, rotational block."""
    out = np.zeros((6, 6))
    out[:3, :3] = np.trace(m_a[:3, :3]) / 3.0 * np.eye(3)
    out[3:, 3:] = 0.5 * (m_a[3:, 3:] + m_a[3:, 3:].T)
    return out


def unlimited(params):
    """
    Return ``params`` with no position limit on any joint (as the MJCF of :func:`mjcf`).

    MuJoCo's joint limits are soft constraints (solref, solimp), the mode's inelastic
    stops: the engine comparisons run both without them.
    """
    joints = [dataclasses.replace(j, lower=-np.inf, upper=np.inf) for j in params.tree.joints]
    return dataclasses.replace(params, tree=dataclasses.replace(params.tree, joints=joints))


def with_parts(tree, change):
    """Return a copy of ``tree`` whose parts are ``change(body name, part)``."""
    bodies = {name: dataclasses.replace(body, parts=[change(name, p) for p in body.parts])
              for name, body in tree.bodies.items()}
    return dataclasses.replace(tree, bodies=bodies)


def folded(body):
    """Return (mass, CoM, inertia about it) of a body with its parts' added mass folded in."""
    pieces = [(body.mass, np.asarray(body.com, float), np.asarray(body.inertia, float))]
    for part in body.parts:
        m_a = part.added_mass
        a = m_a[0, 0]
        # rigid-body form at the part origin: a I, no coupling
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


def _numbers(values) -> str:
    return ' '.join(repr(float(v)) for v in values)


def _inertial(body) -> str:
    mass, com, i = folded(body)
    pairs = ((0, 0), (1, 1), (2, 2), (0, 1), (0, 2), (1, 2))  # MJCF fullinertia order
    return '<inertial pos="%s" mass="%r" fullinertia="%s"/>' % (
        _numbers(com), float(mass), _numbers(i[a, b] for a, b in pairs))


def mjcf(tree, dt: float) -> str:
    """Return the MJCF of the tree: a free base, a hinge per joint, inertias folded."""
    from uwv_hydro.physics.spatial.rotation import matrix_to_quat

    def body_xml(name):
        inner = ''.join(
            '<body name="%s" pos="%s" quat="%s"><joint name="%s" type="hinge" axis="%s" '
            'pos="0 0 0" limited="false"/>%s</body>' % (
                j.child, _numbers(j.origin_position), _numbers(matrix_to_quat(
                    j.origin_rotation)), j.name, _numbers(j.axis),
                body_xml(j.child)[len('<body>'):-len('</body>')])
            for j in tree.joints if j.parent == name)
        return '<body>%s%s</body>' % (_inertial(tree.bodies[name]), inner)

    for joint in tree.joints:
        assert joint.kind in ('revolute', 'continuous')
        assert np.allclose(joint.child_rotation, np.eye(3))
        assert not np.any(joint.child_position)
    return ('<mujoco><option timestep="%r" gravity="0 0 0" integrator="RK4"/><worldbody>'
            '<body name="%s"><freejoint/>%s</body></worldbody></mujoco>' % (
                float(dt), tree.base, body_xml(tree.base)[len('<body>'):-len('</body>')]))


class BodyLoads:
    """
    Each body's weight, buoyancy and drag from an engine's state: what the engines apply.

    Evaluated by :class:`~uwv_hydro.physics.articulated.algorithms.link_wrench.PartWrenches`
    (buoyancy, linear
    and quadratic drag of each part; the added mass is the engine's, folded into the
    body, :func:`folded`) plus the body's weight at its CoM; :func:`mujoco_run` and
    :func:`dart_run` call it body by body before each of their steps.
    """

    def __init__(self, params):
        from uwv_hydro.physics.articulated.algorithms.link_wrench import PartWrenches
        from uwv_hydro.physics.spatial.point_transform import motion_transforms
        self.gravity = params.gravity
        #: name -> (body, PartWrenches, part rotations, part positions, their X)
        self.bodies = {}
        for name, body in params.tree.bodies.items():
            p_rot = np.array([p.rotation for p in body.parts]).reshape(-1, 3, 3)
            p_pos = np.array([p.position for p in body.parts]).reshape(-1, 3)
            self.bodies[name] = (body, PartWrenches(body.parts, params.gravity), p_rot, p_pos,
                                 motion_transforms(p_rot, p_pos) if body.parts else None)

    def __call__(self, name, position, rotation, nu) -> np.ndarray:
        """
        Return body ``name``'s wrench [F, M] about its frame's origin, in its axes.

        ``position``, ``rotation``: the body frame in the world (world <- body);
        ``nu``: the twist [v, w] of its origin in its axes.
        """
        from uwv_hydro.physics.articulated.algorithms.link_wrench import wrench_in_parent
        from uwv_hydro.physics.articulated.model.multibody import attached_frames, FrameKinematics
        body, parts, p_rot, p_pos, transforms = self.bodies[name]
        # the weight m g along the world's -z, in body axes, at the CoM
        weight = (-body.mass * self.gravity) * rotation[2, :]
        local = np.concatenate((weight, np.cross(body.com, weight)))
        if body.parts:
            frame = FrameKinematics([], np.array(position, float)[None],
                                    np.array(rotation, float)[None], np.asarray(nu)[None])
            kin = attached_frames(frame, [0] * len(body.parts), p_rot, p_pos)
            rows = parts.wrenches(kin.rotation, kin.position, kin.twist)
            # buoyancy and drag (rows 1-3); the added mass is the engine's (folded)
            local += wrench_in_parent(rows[:, 1:4].sum(axis=1), transforms).sum(axis=0)
        return local


def mujoco_run(params, dt, duration, start, efforts, base_wrench, command_dt=None):
    """
    Return (base position, quaternion, joint angles) after ``duration`` with MuJoCo at dt.

    ``start``: (position, quaternion, body twist, joint angles); ``efforts(t)``: the
    joint torques, held over each ``command_dt`` (default dt); ``base_wrench``: body axes.
    """
    import mujoco
    from uwv_hydro.physics.spatial.rotation import quat_to_matrix
    tree = params.tree
    model = mujoco.MjModel.from_xml_string(mjcf(tree, dt))
    data = mujoco.MjData(model)
    position, quaternion, twist, angles = start
    data.qpos[:3] = position
    data.qpos[3:7] = quaternion
    data.qvel[:3] = quat_to_matrix(quaternion) @ twist[:3]  # free joint: world velocity
    data.qvel[3:6] = twist[3:]
    qadr = [model.joint(j.name).qposadr[0] for j in tree.joints]
    vadr = [model.joint(j.name).dofadr[0] for j in tree.joints]
    data.qpos[qadr] = angles
    loads = BodyLoads(params)
    bodies = [(model.body(name).id, name) for name in tree.bodies]
    per_command = int(round((command_dt or dt) / dt))
    velocity = np.zeros(6)
    for k in range(int(round(duration / dt))):
        mujoco.mj_forward(model, data)
        for b, name in bodies:
            rot = data.xmat[b].reshape(3, 3)
            # [w, v] of the body frame origin in body axes (flg_local = 1)
            mujoco.mj_objectVelocity(model, data, mujoco.mjtObj.mjOBJ_XBODY, b, velocity, 1)
            local = loads(name, data.xpos[b], rot, np.concatenate((velocity[3:], velocity[:3])))
            if name == tree.base:
                local += base_wrench
            force = rot @ local[:3]
            # xfrc_applied: world force and torque about the body's CoM (xipos)
            data.xfrc_applied[b, :3] = force
            data.xfrc_applied[b, 3:] = rot @ local[3:] + np.cross(
                data.xpos[b] - data.xipos[b], force)
        data.qfrc_applied[vadr] = efforts((k // per_command) * per_command * dt)
        mujoco.mj_step(model, data)
    return data.qpos[:3].copy(), data.qpos[3:7].copy(), data.qpos[qadr].copy()


def dart_skeleton(tree):
    """
    Return (skeleton, free joint, body nodes by name, moving joints in tree order).

    A FreeJoint carries the base; a RevoluteJoint (revolute, continuous) or
    PrismaticJoint per moving joint, its frame at the joint's origin in the parent body
    and the child body at the joint's child pose in it, on the joint's unit axis, no
    limits, damping or springs; each body's inertia folded (:func:`folded`), its
    gravity off (the weight comes with the hydro, :class:`BodyLoads`).
    """
    import dartpy as dart
    from uwv_hydro.physics.articulated.model.multibody import unit_axis
    skeleton = dart.dynamics.Skeleton('tree')
    free, base = skeleton.createFreeJointAndBodyNodePair()
    nodes = {tree.base: base}
    joints = []
    for j in tree.joints:  # every parent before its child
        if j.kind == 'prismatic':
            joint, node = skeleton.createPrismaticJointAndBodyNodePair(nodes[j.parent])
        else:
            assert j.kind in ('revolute', 'continuous')
            joint, node = skeleton.createRevoluteJointAndBodyNodePair(nodes[j.parent])
        joint.setName(j.name)
        joint.setAxis(unit_axis(j))
        # DART: T_parent_child = T_ParentBodyToJoint Motion(q) T_ChildBodyToJoint^-1
        # (dart/dynamics/RevoluteJoint.cpp, PrismaticJoint.cpp: updateRelativeTransform)
        joint.setTransformFromParentBodyNode(dart.math.Isometry3(
            np.asarray(j.origin_rotation, float), np.asarray(j.origin_position, float)))
        r_c = np.asarray(j.child_rotation, float)
        joint.setTransformFromChildBodyNode(dart.math.Isometry3(
            r_c.T, -r_c.T @ np.asarray(j.child_position, float)))
        nodes[j.child] = node
        joints.append(joint)
    for name, node in nodes.items():
        node.setName(name)
        node.setGravityMode(False)
        mass, com, inertia = folded(tree.bodies[name])
        # DART's Inertia(mass, CoM in the body frame, moment about the CoM in body axes)
        node.setInertia(dart.dynamics.Inertia(mass, com, inertia))
    return skeleton, free, nodes, joints


def dart_world(skeleton, dt):
    """Return a DART world of the skeleton: its gravity off, its step ``dt``."""
    import dartpy as dart
    world = dart.simulation.World()
    world.setGravity([0.0, 0.0, 0.0])
    world.setTimeStep(float(dt))
    world.addSkeleton(skeleton)
    return world


def dart_set_state(tree, free, nodes, joints, start, joint_speeds=None):
    """Set DART's state: ``start`` as :func:`mujoco_run`'s, the joint speeds (default 0)."""
    import dartpy as dart
    from uwv_hydro.physics.spatial.rotation import quat_to_matrix
    position, quaternion, twist, angles = start
    speeds = np.zeros(len(joints)) if joint_speeds is None else joint_speeds
    for joint, angle, speed in zip(joints, angles, speeds):
        joint.setPosition(0, float(angle))
        joint.setVelocity(0, float(speed))
    free.setTransform(dart.math.Isometry3(quat_to_matrix(np.asarray(quaternion, float)),
                                          np.asarray(position, float)))
    # the body twist [w, v] of the base origin, relative to the world, in base axes
    # (not the generalised velocities: the world twist from dartpy 6.17, test_cosim_dart)
    twist = np.asarray(twist, float)
    free.setSpatialVelocity(np.concatenate((twist[3:], twist[:3])),
                            dart.dynamics.Frame.World(), nodes[tree.base])


def dart_apply(loads, base, nodes, joints, base_wrench, torques):
    """
    Set each body's :class:`BodyLoads` from DART's state, ``base_wrench`` on ``base``.

    Each as the node's external force at its origin and torque, both in its axes; the
    joint torques (or forces) as the joints' forces (actuator FORCE).  ``World.step()``
    clears both after the step: they are set before every step.
    """
    origin = np.zeros(3)
    for name, node in nodes.items():
        transform = node.getWorldTransform()
        # getSpatialVelocity(): [w, v] of the body frame origin in body axes
        velocity = np.asarray(node.getSpatialVelocity(), float)
        local = loads(name, transform.translation(), transform.rotation(),
                      np.concatenate((velocity[3:], velocity[:3])))
        if name == base:
            local += base_wrench
        # isForceLocal, isOffsetLocal: the force in body axes at the body origin; then
        # the torque (body axes) replaces the angular part, which the force left zero
        node.setExtForce(local[:3], origin, True, True)
        node.setExtTorque(local[3:], True)
    for joint, value in zip(joints, torques):
        joint.setForce(0, float(value))


def dart_run(params, dt, duration, start, efforts, base_wrench, command_dt=None):
    """
    Return (base position, quaternion, joint angles) after ``duration`` with DART at dt.

    As :func:`mujoco_run` (same arguments): the tree as :func:`dart_skeleton`, world
    gravity off; before every DART step each body's :class:`BodyLoads` and the efforts
    are set (:func:`dart_apply`).  DART's step is semi-implicit Euler (the velocities
    first, the positions with the new ones): its error is first order in the step.
    """
    from uwv_hydro.physics.spatial.rotation import matrix_to_quat
    tree = params.tree
    skeleton, free, nodes, joints = dart_skeleton(tree)
    world = dart_world(skeleton, dt)
    dart_set_state(tree, free, nodes, joints, start)
    loads = BodyLoads(params)
    per_command = int(round((command_dt or dt) / dt))
    for k in range(int(round(duration / dt))):
        dart_apply(loads, tree.base, nodes, joints, base_wrench,
                   efforts((k // per_command) * per_command * dt))
        world.step()
    transform = nodes[tree.base].getWorldTransform()
    return (transform.translation().copy(), matrix_to_quat(transform.rotation()),
            np.array([joint.getPosition(0) for joint in joints]))


#: The engines of the comparisons: name -> (their label, Python module, run function).
ENGINES = {'mujoco': ('MuJoCo', 'mujoco', mujoco_run), 'dart': ('DART', 'dartpy', dart_run)}


def engine_run(name):
    """Return (label, run function) of engine ``name`` (required_modules.require)."""
    from required_modules import require
    label, module, run = ENGINES[name]
    require(module, checks='the articulated dynamics against %s' % label)
    return label, run


def momentum(mode):
    """Return (world linear momentum, angular momentum about the system CoM, about 0)."""
    tree = mode.dynamics.tree
    states = mode.body_states()
    linear, angular, first_moment, mass = np.zeros(3), np.zeros(3), np.zeros(3), 0.0
    for name, body in tree.bodies.items():
        p, r, nu = states[name]
        v, w = nu[:3], nu[3:]
        # rigid body: m v_c and I_c w + c x m v_c (world)
        moving = r @ (body.mass * (v + np.cross(w, body.com)))
        c = p + r @ body.com
        linear += moving
        angular += r @ (body.inertia @ w) + np.cross(c, moving)
        first_moment += body.mass * c
        mass += body.mass
        for part in body.parts:
            # the fluid's impulse of the part (Kirchhoff): M_A nu_part in the part frame
            nu_p = np.concatenate((part.rotation.T @ (v + np.cross(w, part.position)),
                                   part.rotation.T @ w))
            h = part.added_mass @ nu_p
            r_p, p_p = r @ part.rotation, p + r @ part.position
            linear += r_p @ h[:3]
            angular += r_p @ h[3:] + np.cross(p_p, r_p @ h[:3])
    return linear, angular - np.cross(first_moment / mass, linear), angular


def body_poses(tree):
    """Return body -> (rotation, position) in the base frame at zero joint positions."""
    poses = {tree.base: (np.eye(3), np.zeros(3))}
    for j in tree.joints:  # every parent before its child
        r, p = poses[j.parent]
        poses[j.child] = (r @ j.origin_rotation, p + r @ j.origin_position)
    return poses


def lumped(tree, gravity: float, name: str = 'lumped') -> VehicleParams:
    """Return the tree with its joints at zero as one rigid VehicleParams (by hand)."""
    poses = body_poses(tree)
    mass = sum(b.mass for b in tree.bodies.values())
    centres = {n: poses[n][1] + poses[n][0] @ b.com for n, b in tree.bodies.items()}
    com = sum(b.mass * centres[n] for n, b in tree.bodies.items()) / mass
    inertia = np.zeros((3, 3))
    buoyancy, moment = 0.0, np.zeros(3)
    linear, added = np.zeros((6, 6)), np.zeros((6, 6))
    quadratic = np.zeros((6, 6, 6))
    for n, body in tree.bodies.items():
        r_b, p_b = poses[n]
        d = centres[n] - com
        # parallel axes
        inertia += r_b @ body.inertia @ r_b.T + body.mass * (d @ d * np.eye(3) - np.outer(d, d))
        for part in body.parts:
            r_p, p_p = r_b @ part.rotation, p_b + r_b @ part.position
            buoyancy += part.buoyancy_mass
            moment += part.buoyancy_mass * (p_p + r_p @ part.cob)
            x = twist_transform(r_p, p_p)
            # the drag force acts at the part's drag centre c: about the part origin the
            # wrench is M_c (-D nu_p), M_c = [[I, 0], [S(c), I]] (the torque gains c x F)
            m_c = np.eye(6)
            m_c[3:, :3] = skew(part.drag_center)
            # linear terms sum as X^T M_c D X (power: nu_p . D nu_p)
            linear += x.T @ m_c @ part.linear_drag @ x
            added += x.T @ part.added_mass @ x
            if np.any(part.quadratic_drag):
                # exact only for a part at the base origin, in base axes
                assert np.allclose(x, np.eye(6)) and not np.any(part.drag_velocity_point)
                quadratic += np.einsum('ai,ibc->abc', m_c, part.quadratic_drag)
    return VehicleParams(
        name=name, mass=mass, inertia=inertia, com=com, buoyancy_mass=buoyancy,
        cob=moment / buoyancy, linear_drag=linear, quadratic_drag=quadratic,
        added_mass=added, drag_center=np.zeros(3), drag_velocity_point=np.zeros(3),
        added_mass_point=np.zeros(3), gravity=gravity, tree=tree)
