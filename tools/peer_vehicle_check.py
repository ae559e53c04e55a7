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

r"""
Compare the peers' own vehicle files with the peers' formulas, re-derived here.

Not part of the test suite (the peers' packages are not in this repository): run it on
checkouts of them.  uuv_simulator and DAVE vehicles (xacro, ``$(find pkg)`` through
``ROS_PACKAGE_PATH``)::

    ROS_PACKAGE_PATH=SRC tools/run python tools/peer_vehicle_check.py --uuv \
        SRC/uuv_simulator/uuv_descriptions/robots/rexrov_default.xacro ...

osrf/lrauv's equipped tethys (``tethys/model.sdf`` rendered from ``model.sdf.in`` by
lrauv's ``scripts/description_generator.py``, the step its CMake build runs, into a
folder on ``GZ_SIM_RESOURCE_PATH``)::

    GZ_SIM_RESOURCE_PATH=MODELS tools/run python tools/peer_vehicle_check.py --lrauv \
        MODELS/tethys_equipped/model.sdf MODELS/tethys/model.sdf

Per vehicle it prints the thrusters, fins and simulated sensors the project reads and
the largest relative difference (max |ours - peer| / max |peer|) of each wrench part
from the peer's formula, written from the peer's source and the file alone:

* uuv_simulator (Gazebo classic): HMFossen / HMCylinder damping on each block link's
  origin twist, its force at that link's classic body CoG (the link and its fixed-joint
  children: AddRelativeForce), buoyancy at CoG + center_of_buoyancy
  (AddForceAtRelativePosition), gravity on every link; ThrusterPlugin (FirstOrder steady
  state, Basic conversion, AddRelativeForce along the joint axis at the thruster link's
  CoG); FinPlugin + LiftDragModel (Quadratic, TwoLines) at the fin link's CoG.  The
  twist is level, without current, with the joints at zero; the wrench is compared
  about the base origin (a vehicle whose links move through its per-link wrench mode).
* lrauv (gz-sim): HydrodynamicsPlugin's -(D nu) at the base link origin (steady: no
  added-mass inertia; its Coriolis as the file sets it), gz-sim Buoyancy rho g V of
  every collision at its centre, gravity, Thruster (coefficient model at zero inflow)
  and LiftDrag (below the stall) with the axes taken from the file.
"""
import argparse
import math
import sys
import xml.etree.ElementTree as ET

import numpy as np

from uwv_hydro.description.conventions import rpy_to_matrix
from uwv_hydro.description.loader import load_vehicle
from uwv_hydro.description.urdf.xacro_file import expand_xacro
from uwv_hydro.physics.actuators.fins import FinSet
from uwv_hydro.physics.actuators.thruster_bank import ThrusterBank
from uwv_hydro.physics.hydro.hydro_model import HydroModel

T_NED = np.array([1.0, -1.0, -1.0, 1.0, -1.0, -1.0])  # HMFossen ToNEDConvention


def rel(got, want):
    """Return max |got - want| / max |want|."""
    return float(np.abs(np.asarray(got) - want).max() / max(np.abs(want).max(), 1e-300))


def rodrigues(axis, angle):
    """Return the rotation by ``angle`` about ``axis``."""
    k = np.asarray(axis, float) / np.linalg.norm(axis)
    kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + math.sin(angle) * kx + (1 - math.cos(angle)) * kx @ kx


def urdf_origin(elem):
    """Return (xyz, R) of an element's URDF <origin> (R = Rz Ry Rx)."""
    o = elem.find('origin') if elem is not None else None
    if o is None:
        return np.zeros(3), np.eye(3)
    return (np.array([float(v) for v in o.get('xyz', '0 0 0').split()]),
            rpy_to_matrix([float(v) for v in o.get('rpy', '0 0 0').split()]))


def urdf_poses(root, fixed_only_from=None):
    """Return {link: (p, R)} in the base (joints at zero), or in ``fixed_only_from``."""
    joints = root.findall('joint')
    if fixed_only_from is None:
        children = {j.find('child').get('link') for j in joints}
        start = [lk.get('name') for lk in root.findall('link')
                 if lk.get('name') not in children][0]
    else:
        start = fixed_only_from
    poses = {start: (np.zeros(3), np.eye(3))}
    grown = True
    while grown:
        grown = False
        for j in joints:
            parent, child = j.find('parent').get('link'), j.find('child').get('link')
            if fixed_only_from is not None and j.get('type') != 'fixed':
                continue
            if parent in poses and child not in poses:
                xyz, rot = urdf_origin(j)
                poses[child] = (poses[parent][0] + poses[parent][1] @ xyz,
                                poses[parent][1] @ rot)
                grown = True
    return poses


def classic_body(root, name, links):
    """Return (mass, CoG in ``name``'s frame) of the link and its fixed-joint descendants."""
    mass, moment = 0.0, np.zeros(3)
    for n, (p, r) in urdf_poses(root, fixed_only_from=name).items():
        inertial = links[n].find('inertial')
        if inertial is not None:
            m = float(inertial.find('mass').get('value'))
            mass, moment = mass + m, moment + m * (p + r @ urdf_origin(inertial)[0])
    return mass, moment / mass


def cylinder_damping(block, rho):
    """Return HMCylinder's quadratic damping diagonal (HydrodynamicModel.cc)."""
    dims = [float(block.findtext('box/' + k)) for k in ('width', 'length', 'height')]
    model = block.find('hydrodynamic_model')
    radius = float(model.findtext('radius') or min(dims))  # the smallest box length
    length = float(model.findtext('length') or max(dims))  # the biggest
    ratio = length / (2 * radius)
    cd_circ = 0.91 if ratio <= 1 else 0.85 if ratio <= 2 else 0.87 if ratio <= 4 else 0.99
    cd_len = (0.63 if ratio <= 1 else 0.68 if ratio <= 2 else 0.74 if ratio <= 5
              else 0.82 if ratio <= 10 else 0.98)
    d_circ = -0.5 * cd_circ * math.pi * radius ** 2 * rho
    d_len = -0.5 * cd_len * radius * length * rho
    diag = {'i': (d_circ, d_len, d_len), 'j': (d_len, d_circ, d_len),
            'k': (d_len, d_len, d_circ)}[(model.findtext('axis') or '').strip()]
    return np.diag(list(diag) + [0.0, 0.0, 0.0])


def uuv_formula(root):
    """Return f(nu) -> (drag, buoyancy, weight) about the base origin, as uuv applies them."""
    links = {lk.get('name'): lk for lk in root.findall('link')}
    poses = urdf_poses(root)
    plugin = next(p for p in root.iter('plugin')
                  if 'underwater_object' in p.get('filename', ''))
    rho = float(plugin.findtext('fluid_density') or 1028.0)
    merged = {j.find('child').get('link') for j in root.findall('joint')
              if j.get('type') == 'fixed'}
    blocks = []
    for block in plugin.findall('link'):
        name = block.get('name')
        if name in merged:  # sdformat merged it: "Specified link not found"
            continue
        mass, cog = classic_body(root, name, links)
        volume = float(block.findtext('volume') or 0.0)
        if (block.findtext('neutrally_buoyant') or '0').strip() in ('1', 'true'):
            volume = mass / rho
        cob = np.array([float(v) for v in (block.findtext('center_of_buoyancy')
                                           or '0 0 0').split()])
        model = block.find('hydrodynamic_model')

        def matrix(tag, model=model):
            elem = model.find(tag)
            values = (np.array([float(v) for v in elem.text.split()]) if elem is not None
                      else np.zeros(6))
            return np.diag(values) if values.size == 6 else values.reshape(6, 6)
        lin, quad, fwd = (matrix('linear_damping'), matrix('quadratic_damping'),
                          matrix('linear_damping_forward_speed'))
        if model.findtext('type').strip() == 'cylinder':
            quad = cylinder_damping(block, rho)
        blocks.append((poses[name], cog, volume, cob, lin, quad, fwd))
    weight = np.zeros(6)
    for n, (p, r) in poses.items():
        inertial = links[n].find('inertial')
        if inertial is not None:
            f = np.array([0.0, 0.0, -float(inertial.find('mass').get('value')) * 9.8])
            weight += np.concatenate([f, np.cross(p + r @ urdf_origin(inertial)[0], f)])

    def wrench(nu):
        drag, lift = np.zeros(6), np.zeros(6)
        for (p, r), cog, volume, cob, lin, quad, fwd in blocks:
            v = T_NED * np.concatenate([r.T @ (nu[:3] + np.cross(nu[3:], p)), r.T @ nu[3:]])
            d = -lin - v[0] * fwd - np.diag(np.diag(quad) * np.abs(v))  # ComputeDamping
            f = T_NED * (-d @ v)
            fb = r @ f[:3]  # at the body's CoG; the torque pure
            drag += np.concatenate([fb, r @ f[3:] + np.cross(p + r @ cog, fb)])
            up = np.array([0.0, 0.0, volume * rho * 9.8])
            lift += np.concatenate([up, np.cross(p + r @ (cog + cob), up)])
        return drag, lift, weight
    return wrench


def _cog_in_base(root, link, poses):
    p, r = poses[link]
    inertial = {lk.get('name'): lk for lk in root.findall('link')}[link].find('inertial')
    return p + r @ (urdf_origin(inertial)[0] if inertial is not None else np.zeros(3))


def uuv_thrusters(root, params):
    """Return the largest relative difference of the thrusters' steady wrench."""
    poses = urdf_poses(root)
    specs = [p for p in root.iter('plugin') if 'thruster_ros_plugin' in p.get('filename', '')]
    worst = 0.0
    for cmd in (200.0, -150.0):
        bank = ThrusterBank(params.thrusters, params.fluid_density)
        bank.state = bank.steady_state([cmd] * len(params.thrusters))
        bank.evaluate(np.zeros(6))
        want = np.zeros(6)
        for spec in specs:
            link = spec.findtext('linkName').strip()
            joint = [j for j in root.findall('joint') if j.find('child').get('link') == link][0]
            axis = poses[link][1] @ np.array([float(v) for v in
                                              joint.find('axis').get('xyz').split()])
            conv = spec.find('conversion')
            if conv.findtext('type').strip() != 'Basic':
                return None
            x = float(spec.findtext('gain') or 1.0) * cmd  # FirstOrder steady state
            f = float(conv.findtext('rotorConstant')) * x * abs(x) * axis / np.linalg.norm(axis)
            want += np.concatenate([f, np.cross(_cog_in_base(root, link, poses), f)])
        worst = max(worst, rel(bank.wrench(), want))
    return worst


def uuv_lift_drag(ld, v):
    """Return (lift, drag) of LiftDragModel's Quadratic / TwoLines for in-plane v."""
    angle = math.atan2(v[1], v[0])
    angle = angle - math.pi if angle > math.pi / 2 else (
        angle + math.pi if angle < -math.pi / 2 else angle)
    u2 = v @ v
    if ld.findtext('type').strip() == 'Quadratic':
        return (angle * u2 * float(ld.findtext('lift_constant')),
                angle * angle * u2 * float(ld.findtext('drag_constant')))

    def g(tag):
        return float(ld.findtext(tag) or 0.0)
    alpha = angle + g('a0')
    while abs(alpha) > 0.5 * math.pi:
        alpha = alpha - math.pi if alpha > 0 else alpha + math.pi
    s = g('alpha_stall')
    if alpha > s:
        cl, cd = g('cla') * s + g('cla_stall') * (alpha - s), g('cda') * s + g('cda_stall') * (
            alpha - s)
    elif alpha < -s:  # LiftDragTwoLines writes cda_stall in C_L here
        cl, cd = -g('cla') * s + g('cda_stall') * (alpha + s), -g('cda') * s + g(
            'cda_stall') * (alpha + s)
    else:
        cl, cd = g('cla') * alpha, g('cda') * alpha
    q = 0.5 * g('fluid_density') * u2
    return cl * q * g('area'), cd * q * g('area')


def uuv_fins(root, params):
    """Return the largest relative difference of the fins' wrench (FinPlugin::OnUpdate)."""
    poses = urdf_poses(root)
    joints = {j.get('name'): j for j in root.findall('joint')}
    plugins = [p for p in root.iter('plugin') if 'fin_ros_plugin' in p.get('filename', '')]
    if not plugins:
        return None
    fins = FinSet(params.fins, params.fluid_density)
    rng, worst, z = np.random.default_rng(7), 0.0, np.array([0.0, 0.0, 1.0])
    for _ in range(10):
        nu = np.array([1.5, 0, 0, 0, 0, 0]) + rng.uniform(-0.2, 0.2, 6)
        angles = rng.uniform(-0.2, 0.2, len(params.fins))
        want = np.zeros(6)
        for plugin in plugins:
            name, link = plugin.findtext('joint_name').strip(), plugin.findtext('link_name')
            link = link.strip()
            k = [f.name for f in params.fins].index(name)
            p, r0 = poses[link]
            axis = np.array([float(v) for v in joints[name].find('axis').get('xyz').split()])
            r = r0 @ rodrigues(axis, angles[k])
            vel = r.T @ (nu[:3] + np.cross(nu[3:], p))  # the link origin, link frame
            v = np.cross(z, np.cross(vel, z))  # velInLDPlane
            lift, drag = uuv_lift_drag(plugin.find('liftdrag'), v)
            lift_dir = -np.cross(z, v) / np.linalg.norm(np.cross(z, v))
            f = r @ (lift * lift_dir - drag * v / np.linalg.norm(v))
            cog = p + r @ (urdf_origin(
                {lk.get('name'): lk for lk in root.findall('link')}[link].find('inertial'))[0])
            want += np.concatenate([f, np.cross(cog, f)])
        worst = max(worst, rel(fins.wrench(nu, angles), want))
    return worst


def check_uuv(path):
    """Print one uuv_simulator / DAVE vehicle's counts and differences."""
    root = ET.fromstring(expand_xacro(path))
    params = load_vehicle(path, allow_nonphysical=True)
    if params.tree is not None:
        from uwv_hydro.modes.link_wrench_mode import LinkWrenchMode
        mode = LinkWrenchMode(params, apply_weight=True)

        def ours(nu):
            return mode.evaluate(0.0, None, [1.0, 0.0, 0.0, 0.0], nu).components
    else:
        model = HydroModel(params)

        def ours(nu):
            return model.wrench(nu).components
    formula = uuv_formula(root)
    worst = {'drag': 0.0, 'buoyancy': 0.0, 'weight': 0.0}
    rng = np.random.default_rng(40)
    for _ in range(20):
        nu = rng.uniform(-1.0, 1.0, 6)
        w = ours(nu)
        for key, got, want in zip(('drag', 'buoyancy', 'weight'),
                                  (w['linear_drag'] + w['quadratic_drag'], w['buoyancy'],
                                   w['weight']), formula(nu)):
            worst[key] = max(worst[key], rel(got, want))
    worst['thrusters'] = uuv_thrusters(root, params)
    worst['fins'] = uuv_fins(root, params)
    report(path, params, worst)


def report(path, params, worst):
    print('%s: %d thrusters, %d fins, sensors %s%s' % (
        path.rsplit('/', 1)[-1], len(params.thrusters), len(params.fins),
        ', '.join(sorted(s.kind for s in params.sensors)),
        ', %d moving joints' % len(params.tree.joints) if params.tree is not None else ''))
    print('  largest relative difference: ' + ', '.join(
        '%s %.1e' % (k, v) for k, v in worst.items() if v is not None))


def _sdf_pose(elem):
    e = elem.find('pose') if elem is not None else None
    if e is None:
        return np.zeros(3), np.eye(3)
    v = np.array([float(x) for x in e.text.split()])
    if e.get('degrees') == 'true':
        v[3:] = np.radians(v[3:])
    return v[:3], rpy_to_matrix(v[3:])


def gz_liftdrag_force(block, rotation, vel):
    """Return gz-sim LiftDrag's force below the stall (LiftDrag.cc Update, no control joint)."""
    def vec(tag):
        v = np.array([float(x) for x in block.findtext(tag).split()])
        return rotation @ (v / np.linalg.norm(v))
    forward, upward = vec('forward'), vec('upward')
    span = np.cross(forward, upward)
    span /= np.linalg.norm(span)
    v_plane = vel - (vel @ span) * span
    lift_dir = np.cross(span, v_plane)
    lift_dir /= np.linalg.norm(lift_dir)
    alpha = math.acos(np.clip(lift_dir @ upward, -1.0, 1.0))
    alpha = alpha if lift_dir @ forward >= 0.0 else -alpha
    assert abs(alpha) < float(block.findtext('alpha_stall'))
    q = 0.5 * float(block.findtext('air_density')) * (v_plane @ v_plane)
    cos2_sweep = 1.0 - (span @ vel / np.linalg.norm(vel)) ** 2
    cla, cda, area = (float(block.findtext(t)) for t in ('cla', 'cda', 'area'))
    return cos2_sweep * (cla * alpha * q * area * lift_dir - abs(cda * alpha) * q * area
                         * v_plane / np.linalg.norm(v_plane))


def check_lrauv(equipped, base_model):
    """Print the equipped tethys' counts and differences (model frame = base_link)."""
    text = open(equipped).read().replace('experimental:', 'x_').replace('gz:', 'gz_')
    eq = ET.fromstring(text).find('model')
    base = ET.parse(base_model).getroot().find('model')
    params = load_vehicle(equipped)
    model = HydroModel(params)
    plugin = [p for p in eq.iter('plugin') if p.get('name') == 'tethys::HydrodynamicsPlugin'][0]
    assert (plugin.findtext('enable_coriolis') or '').strip() == 'false'
    lin = np.array([float(plugin.findtext(t) or 0.0)
                    for t in ('xU', 'yV', 'zW', 'kP', 'mQ', 'nR')])
    quad = np.array([float(plugin.findtext(t) or 0.0)
                     for t in ('xUU', 'yVV', 'zWW', 'kPP', 'mQQ', 'nRR')])
    worst = {'hydrodynamics': 0.0}
    rng = np.random.default_rng(4)
    for _ in range(20):
        nu = rng.uniform(-1, 1, 6) * [2, 0.5, 0.5, 0.5, 0.3, 0.3]
        w = model.wrench(nu).components
        want = np.diag(lin + quad * np.abs(nu)) @ nu  # -(Dmat nu), Dmat = diag(-xU - xUU|u|..)
        got = w['linear_drag'] + w['quadratic_drag'] + w['added_mass_coriolis']
        worst['hydrodynamics'] = max(worst['hydrodynamics'], rel(got, want))
    rho, g = params.fluid_density, params.gravity
    lift, weight = np.zeros(6), np.zeros(6)
    for link in base.findall('link'):
        p, r = _sdf_pose(link)
        for col in link.findall('collision'):
            geom = col.find('geometry')
            if geom.find('box') is not None:
                vol = np.prod([float(v) for v in geom.findtext('box/size').split()])
            elif geom.find('cylinder') is not None:
                vol = math.pi * float(geom.findtext('cylinder/radius')) ** 2 * float(
                    geom.findtext('cylinder/length'))
            else:
                vol = 4 / 3 * math.pi * float(geom.findtext('sphere/radius')) ** 3
            f = np.array([0.0, 0.0, rho * g * vol])
            lift += np.concatenate([f, np.cross(p + r @ _sdf_pose(col)[0], f)])
        f = np.array([0.0, 0.0, -float(link.findtext('inertial/mass')) * g])
        weight += np.concatenate([f, np.cross(p + r @ _sdf_pose(link.find('inertial'))[0], f)])
    w = model.wrench(np.zeros(6)).components
    worst['buoyancy'], worst['weight'] = rel(w['buoyancy'], lift), rel(w['weight'], weight)
    joints = {j.findtext('child'): j for j in base.findall('joint')}
    thruster = [p for p in eq.iter('plugin') if 'thruster' in p.get('filename', '')][0]
    joint = base.find("joint[@name='%s']" % thruster.findtext('joint_name'))
    axis = _sdf_pose(joint)[1] @ np.array([float(v) for v in joint.findtext('axis/xyz').split()])
    at = _sdf_pose(base.find("link[@name='%s']" % joint.findtext('child')))[0]
    ct, dens, diam = (float(thruster.findtext(t)) for t in
                      ('thrust_coefficient', 'fluid_density', 'propeller_diameter'))
    worst['thruster'] = 0.0
    for omega in (30.0, -45.0, 120.0):
        bank = ThrusterBank(params.thrusters, params.fluid_density)
        bank.state = bank.steady_state([omega])
        bank.evaluate(np.zeros(6))
        f = ct * dens * diam ** 4 * omega * abs(omega) * axis  # gz-sim Thruster
        worst['thruster'] = max(worst['thruster'],
                                rel(bank.wrench(), np.concatenate([f, np.cross(at, f)])))
    blocks = {p.findtext('link_name'): p for p in eq.iter('plugin')
              if 'lift-drag' in p.get('filename', '')}
    fins = FinSet(params.fins, params.fluid_density)
    worst['fins'] = 0.0
    for nu, delta in [(np.array([-1.3, 0.04, -0.03, 0.0, 0.01, 0.02]), 0.05),
                      (np.array([-0.8, -0.05, 0.06, 0.01, -0.02, 0.03]), -0.06)]:
        for k, fin in enumerate(params.fins):
            link = [lk for lk, j in joints.items() if j.get('name') == fin.name][0]
            j = joints[link]
            axis = _sdf_pose(j)[1] @ np.array([float(v) for v in j.findtext('axis/xyz').split()])
            angles = np.zeros(len(params.fins))
            angles[k] = delta
            _, forces, _ = fins.forces(nu, angles)
            cp = np.array([float(v) for v in blocks[link].findtext('cp').split()])
            turn = rodrigues(axis, delta)
            vel = nu[:3] + np.cross(nu[3:], _sdf_pose(base.find(
                "link[@name='%s']" % link))[0] + turn @ cp)
            worst['fins'] = max(worst['fins'], rel(forces[0, k],
                                                   gz_liftdrag_force(blocks[link], turn, vel)))
    report(equipped, params, worst)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--uuv', nargs='*', default=[], help='uuv_simulator/DAVE xacros')
    parser.add_argument('--lrauv', nargs=2, metavar=('EQUIPPED', 'BASE'),
                        help="tethys_equipped's model.sdf and the rendered tethys model.sdf")
    args = parser.parse_args(argv)
    for path in args.uuv:
        check_uuv(path)
    if args.lrauv:
        check_lrauv(*args.lrauv)
    return 0


if __name__ == '__main__':
    sys.exit(main())
