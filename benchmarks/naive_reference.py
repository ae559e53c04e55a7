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
A straightforward numpy reference of the hydro wrench and the dynamics, written independently.

Used two ways: by the benchmarks as the baseline the core must beat
(``naive_wrench_eval_us``: einsum for the 6x6x6 tensor, skew matrices and transfer
matrices built on every call; ``naive_rk4_step_us``: RK4 of :func:`naive_derivative`,
the mass matrix solved at every stage), and by the tests as an independent cross-check
of :class:`uwv_hydro.physics.hydro.hydro_model.HydroModel` and of the compiled core
(:mod:`uwv_hydro.physics.kernel`).  Only numpy is used here.
"""

import numpy as np


def skew(a):
    """Return S(a), the 3x3 cross-product matrix: S(a) b = a x b."""
    return np.array([[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]])


def transfer(r):
    """Return H(r) with [v_p, w] = H(r) [v, w], v_p = v + w x r (Fossen 2011 eq. 7.x)."""
    h = np.eye(6)
    h[:3, 3:] = -skew(r)
    return h


def rotation_matrix(q):
    """Return R (world <- body) of a quaternion [w, x, y, z]."""
    w, x, y, z = np.asarray(q, float) / np.linalg.norm(q)
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def surface_fraction(depth, surface):
    """Return the dsros / continuous surface-transition fraction of full buoyancy."""
    if depth >= surface.fully_submerged_depth:
        return 1.0
    if depth <= surface.out_of_water_depth:
        return 0.0
    frac = (depth - surface.out_of_water_depth) / (
        surface.fully_submerged_depth - surface.out_of_water_depth)
    if surface.model == 'continuous':
        return frac
    return surface.scale_factor * frac + 1.0 - surface.scale_factor


def naive_wrench(p, nu, position, quaternion, nu_dot=None, current_world=None):
    """Return {component: wrench} about the body origin for VehicleParams ``p``."""
    nu = np.asarray(nu, float)
    rot = rotation_matrix(quaternion)
    down = rot.T @ np.array([0.0, 0.0, -1.0])
    weight = p.mass * p.gravity * down
    frac = surface_fraction(-position[2], p.surface)
    buoy = -frac * p.buoyancy_mass * p.gravity * down
    out = {
        'weight': np.concatenate([weight, np.cross(p.com, weight)]),
        'buoyancy': np.concatenate([buoy, np.cross(p.cob, buoy)]),
    }
    v_c = rot.T @ np.asarray(current_world if current_world is not None else np.zeros(3))
    nu_r = nu - np.concatenate([v_c, np.zeros(3)])
    drag_center = p.com if p.drag_center is None else p.drag_center
    vel_point = drag_center if p.drag_velocity_point is None else p.drag_velocity_point
    h_v, h_d, h_a = transfer(vel_point), transfer(drag_center), transfer(p.added_mass_point)
    nu_v = h_v @ nu_r
    # uuv_simulator forward-speed damping: -u L_u nu with the signed surge u
    lin = -p.linear_drag @ nu_v - nu_v[0] * (p.forward_speed_drag @ nu_v)
    if p.damping == 'quadratic_only':
        lin = np.zeros(6)
    quad = -np.einsum('abc,b,c->a', p.quadratic_drag, np.abs(nu_v), nu_v)
    # gz-sim signed quadratic terms: -S_abc nu_b nu_c
    quad = quad - np.einsum('abc,b,c->a', p.signed_quadratic_drag, nu_v, nu_v)
    out['linear_drag'] = h_d.T @ lin
    out['quadratic_drag'] = h_d.T @ quad
    ma = p.added_mass
    if nu_dot is None:
        out['added_mass'] = np.zeros(6)
    else:
        nu_dot_c = np.concatenate([-np.cross(nu[3:], v_c), np.zeros(3)])
        out['added_mass'] = h_a.T @ (-ma @ (h_a @ (np.asarray(nu_dot, float) - nu_dot_c)))
    nu_a = h_a @ nu_r
    a1 = ma[:3, :3] @ nu_a[:3] + ma[:3, 3:] @ nu_a[3:]
    a2 = ma[3:, :3] @ nu_a[:3] + ma[3:, 3:] @ nu_a[3:]
    c_a = np.zeros((6, 6))
    c_a[:3, 3:] = -skew(a1)
    c_a[3:, :3] = -skew(a1)
    c_a[3:, 3:] = -skew(a2)
    on = p.coriolis and getattr(p, 'added_mass_coriolis', True)
    out['added_mass_coriolis'] = h_a.T @ (-c_a @ nu_a) if on else np.zeros(6)
    if getattr(p, 'hull', None) is not None:
        out['hull_lift'], out['crossflow_drag'] = naive_hull_wrench(p, nu_r)
    return out


def naive_hull_wrench(p, nu_r):
    """
    Return (body lift, cross-flow drag) wrenches of ``p.hull`` about the origin.

    Written from the flow angle: lift of magnitude 1/2 rho d^2 c U^2 sin a cos a
    (times cos(a/2) for Jorgensen) normal to the axis, opposing the cross-flow, at x_cp
    (mirrored about the mid-length astern); the cross-flow drag as strips whose point
    velocity v + w x r is taken apart into its axial and normal parts.
    """
    hull = p.hull
    nu_r = np.asarray(nu_r, float)
    vel = nu_r[:3]
    axis = np.array([1.0, 0.0, 0.0])
    stations = np.asarray(hull.stations, float)
    d_ref = np.max(hull.diameters) if hull.lift_diameter is None else hull.lift_diameter
    lift = np.zeros(6)
    normal = vel - (vel @ axis) * axis
    speed = np.linalg.norm(vel)
    if speed > 0.0 and np.linalg.norm(normal) > 0.0:
        a = np.arctan2(np.linalg.norm(normal), abs(vel @ axis))  # flow angle to the line
        magnitude = 0.5 * p.fluid_density * d_ref ** 2 * hull.c_yd_beta * speed ** 2 * (
            np.sin(a) * np.cos(a))
        if hull.model == 'jorgensen':
            magnitude *= np.cos(a / 2.0)
        force = -magnitude * normal / np.linalg.norm(normal)
        middle = 0.5 * (stations[0] + stations[-1])
        x_cp = middle if hull.x_cp is None else hull.x_cp
        if vel[0] < 0.0:
            x_cp = 2.0 * middle - x_cp
        lift = np.concatenate([force, np.cross(x_cp * axis, force)])
    cross = np.zeros(6)
    n = hull.strips
    edges = np.linspace(stations[0], stations[-1], n + 1)
    for lo, hi in zip(edges[:-1], edges[1:]):
        r = 0.5 * (lo + hi) * axis
        v_point = vel + np.cross(nu_r[3:], r)
        c = v_point - (v_point @ axis) * axis
        d = np.interp(r[0], stations, hull.diameters)
        force = -0.5 * p.fluid_density * hull.cd_crossflow * d * (hi - lo) * (
            np.linalg.norm(c) * c)
        cross += np.concatenate([force, np.cross(r, force)])
    return lift, cross


def unit(v):
    """Return v / |v|."""
    v = np.asarray(v, float)
    return v / np.linalg.norm(v)


def axis_angle_matrix(axis, angle):
    """Return the rotation by ``angle`` about ``axis``: I + sin a S(k) + (1 - cos a) S(k)^2."""
    s = skew(unit(axis))
    return np.eye(3) + np.sin(angle) * s + (1.0 - np.cos(angle)) * (s @ s)


def naive_fin_wrench(p, nu_r, angles=None):
    """Return the fins' wrench about the origin (gz-sim LiftDrag / uuv quadratic model)."""
    nu_r = np.asarray(nu_r, float)
    angles = np.zeros(len(p.fins)) if angles is None else np.asarray(angles, float)
    total = np.zeros(6)
    for fin, delta in zip(p.fins, angles):
        rot = axis_angle_matrix(fin.axis, delta)
        fwd, up = rot @ unit(fin.forward), rot @ unit(fin.upward)
        span = np.cross(fwd, up)
        r = np.asarray(fin.position, float) + rot @ np.asarray(fin.cp, float)
        v = nu_r[:3] + np.cross(nu_r[3:], r)
        v_plane = v - (v @ span) * span
        if np.linalg.norm(v) <= 0.01 or v_plane @ v_plane <= 1e-24:
            continue
        alpha = fin.a0 + np.arctan2(-(v @ up), v @ fwd)
        alpha = (alpha + np.pi / 2) % np.pi - np.pi / 2
        if fin.model == 'two_line':
            cos2_sweep = 1.0 - min((v @ span) ** 2 / (v @ v), 1.0)
            a_s = fin.alpha_stall
            if alpha > a_s:
                cl = max(fin.cla * a_s + fin.cla_stall * (alpha - a_s), 0.0)
                cd = fin.cda * a_s + fin.cda_stall * (alpha - a_s)
            elif alpha < -a_s:
                cl = min(-fin.cla * a_s + fin.cla_stall * (alpha + a_s), 0.0)
                cd = -fin.cda * a_s + fin.cda_stall * (alpha + a_s)
            else:
                cl, cd = fin.cla * alpha, fin.cda * alpha
            rho = fin.fluid_density if fin.fluid_density > 0.0 else p.fluid_density
            q_area = 0.5 * rho * (v_plane @ v_plane) * fin.area
            lift = (cl * cos2_sweep + fin.control_joint_rad_to_cl * delta) * q_area
            drag = abs(cd * cos2_sweep) * q_area
        elif fin.model == 'uuv_two_lines':
            a_s = fin.alpha_stall
            if alpha > a_s:
                cl = fin.cla * a_s + fin.cla_stall * (alpha - a_s)
                cd = fin.cda * a_s + fin.cda_stall * (alpha - a_s)
            elif alpha < -a_s:  # uuv LiftDragTwoLines: cda_stall in C_L, as written
                cl = -fin.cla * a_s + fin.cda_stall * (alpha + a_s)
                cd = -fin.cda * a_s + fin.cda_stall * (alpha + a_s)
            else:
                cl, cd = fin.cla * alpha, fin.cda * alpha
            rho = fin.fluid_density if fin.fluid_density > 0.0 else p.fluid_density
            q_area = 0.5 * rho * (v_plane @ v_plane) * fin.area
            lift, drag = cl * q_area, cd * q_area
        else:
            lift = fin.lift_constant * alpha * (v_plane @ v_plane)
            drag = fin.drag_constant * alpha ** 2 * (v_plane @ v_plane)
        e_v = unit(v_plane)
        force = lift * np.cross(span, e_v) - drag * e_v
        total += np.concatenate([force, np.cross(r, force)])
    return total


def naive_mass_matrix(p):
    """Return M_RB + M_A about the origin (parallel-axis inertia, M_A moved by H^T M_A H)."""
    s = skew(np.asarray(p.com, float))
    m_rb = np.zeros((6, 6))
    m_rb[:3, :3] = p.mass * np.eye(3)
    m_rb[:3, 3:] = -p.mass * s
    m_rb[3:, :3] = p.mass * s
    m_rb[3:, 3:] = np.asarray(p.inertia, float) - p.mass * s @ s
    h_a = transfer(p.added_mass_point)
    return m_rb, m_rb + h_a.T @ np.asarray(p.added_mass, float) @ h_a


def quat_multiply(a, b):
    """Return the Hamilton product a b of quaternions [w, x, y, z]."""
    return np.concatenate([[a[0] * b[0] - a[1:] @ b[1:]],
                           a[0] * b[1:] + b[0] * a[1:] + np.cross(a[1:], b[1:])])


def naive_derivative(p, x, tau=None, current_world=None, fin_angles=None):
    """
    Return d/dt [p (3), q (4), nu (6)] with implicit added mass, solved at every call.

    (M_RB + M_A) nu_dot = tau + (every wrench but -M_A nu_dot) - C_RB(nu) nu + fins.
    """
    x = np.asarray(x, float)
    pos, q, nu = x[:3], x[3:7], x[7:]
    rot = rotation_matrix(q)
    # nu_dot = 0 leaves the current's M_A nu_dot_c in the added-mass component
    rhs = sum(naive_wrench(p, nu, pos, q, np.zeros(6), current_world).values())
    if tau is not None:
        rhs = rhs + np.asarray(tau, float)
    m_rb, mass = naive_mass_matrix(p)
    if p.coriolis:
        a = m_rb @ nu
        c_rb = np.zeros((6, 6))
        c_rb[:3, 3:] = -skew(a[:3])
        c_rb[3:, :3] = -skew(a[:3])
        c_rb[3:, 3:] = -skew(a[3:])
        rhs = rhs - c_rb @ nu
    if p.fins:
        v_c = rot.T @ np.asarray(current_world if current_world is not None else np.zeros(3))
        rhs = rhs + naive_fin_wrench(p, nu - np.concatenate([v_c, np.zeros(3)]), fin_angles)
    return np.concatenate([rot @ nu[:3], 0.5 * quat_multiply(q, np.concatenate([[0.0], nu[3:]])),
                           np.linalg.solve(mass, rhs)])


def naive_rk4_step(p, x, dt, substeps=1, tau=None, current_world=None, fin_angles=None):
    """Return the state after dt: classic RK4 sub-steps, quaternion renormalised after each."""
    x = np.asarray(x, float).copy()
    x[3:7] /= np.linalg.norm(x[3:7])
    h = dt / substeps
    for _ in range(substeps):
        k1 = naive_derivative(p, x, tau, current_world, fin_angles)
        k2 = naive_derivative(p, x + 0.5 * h * k1, tau, current_world, fin_angles)
        k3 = naive_derivative(p, x + 0.5 * h * k2, tau, current_world, fin_angles)
        k4 = naive_derivative(p, x + h * k3, tau, current_world, fin_angles)
        x = x + h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
        x[3:7] /= np.linalg.norm(x[3:7])
    return x


def naive_field_rk4_step(p, x, dt, field, t, substeps=1, tau=None, fin_angles=None):
    """
    Return the state after dt in the current ``field`` sampled exactly at every stage.

    Each stage takes v_c(p, t) at its own position and time and adds M_A,O [R^T Dv_c/Dt, 0]
    (Dv_c/Dt = dv_c/dt + G p_dot, Fossen 2011 sec. 10.3) to the applied wrench.
    """
    h_a = transfer(p.added_mass_point)
    ma_o = h_a.T @ np.asarray(p.added_mass, float) @ h_a

    def deriv(y, s):
        rot = rotation_matrix(y[3:7] / np.linalg.norm(y[3:7]))
        sample = field.sample(y[:3], s)
        rate = sample.rate + sample.gradient @ (rot @ y[7:10])
        extra = ma_o @ np.concatenate([rot.T @ rate, np.zeros(3)])
        wrench = extra if tau is None else extra + np.asarray(tau, float)
        return naive_derivative(p, y, wrench, sample.velocity, fin_angles)

    x = np.asarray(x, float).copy()
    x[3:7] /= np.linalg.norm(x[3:7])
    h = dt / substeps
    for k in range(substeps):
        s = t + k * h
        k1 = deriv(x, s)
        k2 = deriv(x + 0.5 * h * k1, s + 0.5 * h)
        k3 = deriv(x + 0.5 * h * k2, s + 0.5 * h)
        k4 = deriv(x + h * k3, s + h)
        x = x + h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
        x[3:7] /= np.linalg.norm(x[3:7])
    return x


def full_vehicle(seed: int = 7):
    """Return a VehicleParams with every coefficient populated (dense L, Q, M_A)."""
    from uwv_hydro.physics.body.vehicle_params import SurfaceTransition, VehicleParams
    rng = np.random.default_rng(seed)
    a = rng.normal(size=(6, 6))
    m_a = a @ a.T + 6 * np.eye(6)
    m_a[:3, :3] *= 10.0
    lin = rng.uniform(0.1, 2.0, size=(6, 6)) + 20 * np.eye(6)
    quad = rng.uniform(0.0, 1.0, size=(6, 6, 6))
    for i in range(6):
        quad[i, i, i] += 40.0
    return VehicleParams(
        mass=60.0, inertia=np.array([[3.0, 0.1, -0.05], [0.1, 8.0, 0.2], [-0.05, 0.2, 8.5]]),
        com=np.array([0.05, -0.01, -0.04]), buoyancy_mass=61.0,
        cob=np.array([0.04, 0.0, 0.06]),
        surface=SurfaceTransition(0.0, 0.3, 0.8, 'dsros'),
        linear_drag=lin, quadratic_drag=quad, added_mass=m_a,
        drag_center=np.array([-0.1, 0.0, 0.01]), added_mass_point=np.array([0.02, 0.0, 0.0]))


def vehicle_variants(dsros_seed: int = 7):
    """
    Yield (name, VehicleParams) covering the model switches, for cross-checks.

    Dense vehicle; dsros reference points with a 36-term asymmetric added mass;
    quadratic-only damping without Coriolis; without the added-mass Coriolis only;
    the continuous surface transition;
    uuv_simulator's forward-speed drag with its reference points; gz-sim's signed
    quadratic terms at an offset drag point.
    """
    yield 'full', full_vehicle()
    dsros = full_vehicle(seed=dsros_seed)
    dsros.drag_velocity_point = dsros.com.copy()
    dsros.added_mass_point = dsros.com.copy()
    dsros.added_mass = dsros.added_mass + np.triu(np.ones((6, 6)))  # 36 independent terms
    yield 'dsros_asymmetric', dsros
    quad_only = full_vehicle(seed=3)
    quad_only.damping = 'quadratic_only'
    quad_only.coriolis = False
    yield 'quadratic_only_no_coriolis', quad_only
    # gz-sim <disable_coriolis>: the added-mass Coriolis off, the rigid body's on
    no_munk = full_vehicle(seed=13)
    no_munk.added_mass_coriolis = False
    yield 'no_added_mass_coriolis', no_munk
    cont = full_vehicle(seed=5)
    cont.surface.model = 'continuous'
    yield 'continuous_surface', cont
    # uuv_simulator: forward-speed drag (signed u), twist of the origin, force at the CoM
    uuv = full_vehicle(seed=9)
    uuv.forward_speed_drag = np.random.default_rng(9).uniform(0.0, 1.0, (6, 6)) + 5 * np.eye(6)
    uuv.drag_velocity_point = np.zeros(3)
    uuv.drag_center = uuv.com.copy()
    yield 'uuv_forward_speed', uuv
    # gz-sim signed quadratic terms (<xUU>...): -S_abc nu_b nu_c at offset drag points
    gz = full_vehicle(seed=17)
    gz.signed_quadratic_drag = np.random.default_rng(17).uniform(-1.0, 1.0, (6, 6, 6))
    gz.drag_center = np.array([0.2, -0.05, 0.1])
    gz.drag_velocity_point = gz.drag_center.copy()
    yield 'gz_signed_quadratic', gz


def finned_vehicle(seed: int = 11):
    """Return the dense vehicle with four fins: both lift models, offsets, a0, k_cl, sweep."""
    from uwv_hydro.physics.body.vehicle_params import Fin
    p = full_vehicle(seed=seed)
    p.fins = [
        Fin('upper', position=np.array([-0.6, 0.0, 0.13]), axis=np.array([0.0, 0.0, 1.0]),
            forward=np.array([1.0, 0.0, 0.0]), upward=np.array([0.0, 1.0, 0.0]),
            area=0.02, cla=3.1, cda=0.3, alpha_stall=0.35, cla_stall=-1.2, cda_stall=1.0),
        Fin('lower', position=np.array([-0.6, 0.0, -0.13]), axis=np.array([0.0, 0.0, 1.0]),
            cp=np.array([-0.02, 0.0, -0.03]), forward=np.array([1.0, 0.0, 0.0]),
            upward=np.array([0.0, 1.0, 0.0]), area=0.02, cla=2.5, cda=0.2, alpha_stall=0.3,
            cla_stall=-0.8, cda_stall=1.5, a0=0.02, control_joint_rad_to_cl=0.4),
        Fin('port', position=np.array([-0.6, 0.13, 0.0]), axis=np.array([0.0, 1.0, 0.2]),
            forward=np.array([1.0, 0.0, 0.0]), upward=np.array([0.0, 0.0, 1.0]),
            area=0.015, cla=2.8, cda=0.25, alpha_stall=0.4, cla_stall=-1.0, cda_stall=1.1),
        Fin('starboard', position=np.array([-0.6, -0.13, 0.0]),
            axis=np.array([0.0, -1.0, 0.0]), forward=np.array([1.0, 0.0, 0.0]),
            upward=np.array([0.0, 0.0, 1.0]), model='quadratic', lift_constant=4.0,
            drag_constant=0.6)]
    return p


def uuv_finned_vehicle(seed: int = 19):
    """Return the finned vehicle with two fins on uuv's TwoLines (one with its own rho)."""
    p = finned_vehicle(seed=seed)
    for fin, density in zip(p.fins[1:3], (0.0, 1000.0)):
        fin.model, fin.fluid_density, fin.control_joint_rad_to_cl = 'uuv_two_lines', density, 0.0
    return p


def hulled_vehicle(seed: int = 13, model: str = 'prestero'):
    """Return the finned vehicle with a slender hull (a tapered profile, x_cp aft)."""
    from uwv_hydro.physics.body.vehicle_params import Hull
    p = finned_vehicle(seed=seed)
    p.hull = Hull(stations=np.array([-0.7, -0.4, 0.3, 0.6]),
                  diameters=np.array([0.08, 0.2, 0.2, 0.05]), c_yd_beta=1.2, x_cp=-0.3,
                  cd_crossflow=1.1, model=model, strips=9)
    return p


def dynamics_variants():
    """Yield (name, VehicleParams) of :func:`vehicle_variants`, finned and hulled vehicles."""
    yield from vehicle_variants(dsros_seed=7)
    yield 'fins', finned_vehicle()
    yield 'fins_uuv_two_lines', uuv_finned_vehicle()
    yield 'hull_prestero', hulled_vehicle()
    yield 'hull_jorgensen', hulled_vehicle(seed=17, model='jorgensen')
