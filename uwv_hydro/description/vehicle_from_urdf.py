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
Build VehicleParams from a URDF (file or ``robot_description`` string).

* Base link: the one named by a dsros_hydro ``<base_link>``, else the root of the
  kinematic tree.
* Rigid body: the base link ``<inertial>`` -- ``origin xyz`` is the centre of mass,
  ``origin rpy`` rotates the inertia into the link frame (I_link = R I R^T, URDF
  spec) -- lumped with the inertials of every other link of the tree by the SDF
  loader's rule (:mod:`uwv_hydro.description.rigid_lumping`): links on fixed or
  zero-range joints (:mod:`zero_range_joint`) as rigid parts, links on joints that
  move at the joint's zero position with one warning naming those joints.  Each link
  and joint is recorded (:mod:`element_report`).
* Kinematic tree: when a joint that moves carries links with their own uuv_simulator
  ``<link>`` block (or gz-sim Hydrodynamics block, one per link), ``tree`` keeps the
  joints and each link's hydro
  (:mod:`uwv_hydro.description.tree_builder`); the fields above are unchanged.
* ``frames``: every link reached from the base through consecutive rigid joints,
  with its pose composed along the chain (T_base_child = T_base_parent T_joint).
* Hydrodynamics: a dsros_hydro ``<plugin>`` anywhere in the document
  (:mod:`uwv_hydro.description.dsros.block`) or a uuv_simulator underwater-object
  block (:mod:`uwv_hydro.description.uuv.underwater_object`); without one the
  vehicle has no buoyancy or drag (use a YAML overlay with ``base:``).  Any other
  hydrodynamics or buoyancy plugin is an error naming it (its numbers would be lost).
* Hull: a ``<hull>`` block in the dsros_hydro <plugin>, a uwv_hydro extension
  (:mod:`uwv_hydro.description.hull`).
* Fins: gz-sim LiftDrag ``<plugin>`` blocks (:mod:`uwv_hydro.description.fins`).
* The elements and attributes read (robot, link, inertial, joint children; mass,
  inertia and origin attributes) are checked against the URDF spec: a typo is an
  error with "did you mean" (:mod:`uwv_hydro.description.name_checks`).
"""
from typing import Dict, List, Optional, Tuple
import xml.etree.ElementTree as ET

import numpy as np

from uwv_hydro.description.classic_base_body import classic_base_body, merged_links
from uwv_hydro.description.conventions import matrix_to_quat
from uwv_hydro.description.dsros.block import apply_dsros_block, base_link_name, is_dsros_plugin
from uwv_hydro.description.element_report import record, warn_not_modelled, where
from uwv_hydro.description.equipment_from_urdf import owns_sensor, read_uuv_equipment
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.fins import fins_from_urdf
from uwv_hydro.description.hull import finish_hull, HULL_KEYS, read_xml_hull
from uwv_hydro.description.link_hydrodynamics import SIGNED_RIGID_ONLY
from uwv_hydro.description.name_checks import (
    check_attributes, check_children, foreign_plugin_error, is_hydro_plugin, URDF_ATTRIBUTES,
    URDF_CHILDREN)
from uwv_hydro.description.provenance import RIGID_BODY_FIELDS, set_origin
from uwv_hydro.description.rigid_lumping import lump, LumpOverflow, part_in_base
from uwv_hydro.description.sdf.gz_hydrodynamics import (
    apply_gz_hydrodynamics, is_gz_hydrodynamics_plugin, read_gz_hydrodynamics)
from uwv_hydro.description.sensor_elements import sensors_from_urdf
from uwv_hydro.description.sensor_links import check_sensor_links
from uwv_hydro.description.simulator_defaults import apply_urdf_defaults
from uwv_hydro.description.thrusters import read_urdf_thrusters
from uwv_hydro.description.tree_builder import build_tree, JointSpec, tree_warning, TreeResult
from uwv_hydro.description.urdf_collisions import urdf_contact_points
from uwv_hydro.description.urdf_joint import joint_frame, origin_of
from uwv_hydro.description.uuv.underwater_object import (
    apply_uuv_block, is_uuv_plugin, uuv_link_parts)
from uwv_hydro.description.xml_safe import (
    element_error, element_line, parse_xml_file, parse_xml_string)
from uwv_hydro.description.xml_values import float_attr
from uwv_hydro.description.zero_range_joint import NOTE, rigid_motion, urdf_zero_range
from uwv_hydro.physics.articulated.model.link_tree import LinkHydroPart
from uwv_hydro.physics.body.vehicle_params import FixedFrame, VehicleParams


def read_inertial(link: ET.Element, source: str):
    """Return (mass, com, inertia about com in link axes) or None if no <inertial>."""
    inertial = link.find('inertial')
    if inertial is None:
        return None
    check_children(inertial, URDF_CHILDREN['inertial'], source)
    mass_elem = inertial.find('mass')
    if mass_elem is None:
        raise element_error('<inertial> without <mass>', source, inertial)
    check_attributes(mass_elem, URDF_ATTRIBUTES['mass'], source)
    mass = float_attr(mass_elem, 'value', source, default=None)
    com, rot = origin_of(inertial, source)
    inertia_elem = inertial.find('inertia')
    if inertia_elem is None:
        raise element_error('<inertial> without <inertia>', source, inertial)
    check_attributes(inertia_elem, URDF_ATTRIBUTES['inertia'], source)
    v = {k: float_attr(inertia_elem, k, source)
         for k in ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz')}
    inertia = np.array([[v['ixx'], v['ixy'], v['ixz']],
                        [v['ixy'], v['iyy'], v['iyz']],
                        [v['ixz'], v['iyz'], v['izz']]])
    # URDF spec: <inertial><origin rpy> gives the inertia's axes: I_link = R I R^T.
    return mass, com, rot @ inertia @ rot.T


def _rigid_joint(joint: ET.Element, source: str) -> Tuple[bool, np.ndarray, np.ndarray]:
    """
    Return (rigid, xyz, R) of a joint: T_parent_child where it rests, else at q = 0.

    Rigid: a fixed joint, or a revolute/prismatic one whose range is zero
    (:mod:`uwv_hydro.description.zero_range_joint`), held at q = lower = upper.
    """
    xyz, rot = origin_of(joint, source)
    if joint.get('type') == 'fixed':
        return True, xyz, rot
    q = urdf_zero_range(joint, source)
    if q is None:
        return False, xyz, rot
    t, r = rigid_motion(joint.get('type', ''), joint_frame(joint, source)[2], q)
    # URDF joint: T_parent_child(q) = T_origin T_motion(q)
    return True, xyz + rot @ t, rot @ r


def _fixed_chain(base: str, joints: List[ET.Element], source: str
                 ) -> Dict[str, Tuple[np.ndarray, np.ndarray]]:
    """Return {link: (p, R)} of links rigidly attached to ``base`` (base excluded)."""
    children: Dict[str, List[tuple]] = {}
    for joint in joints:
        rigid, xyz, rot = _rigid_joint(joint, source)
        if rigid:
            parent = joint.find('parent')
            if parent is not None:
                children.setdefault(parent.get('link', ''), []).append((joint, xyz, rot))
    poses = {base: (np.zeros(3), np.eye(3))}
    stack = [base]
    while stack:
        parent = stack.pop()
        p_par, r_par = poses[parent]
        for joint, xyz, rot in children.get(parent, []):
            child_elem = joint.find('child')
            if child_elem is None:
                raise element_error('joint without <child>', source, joint)
            child = child_elem.get('link', '')
            if child in poses:
                raise element_error('link %r is reached twice through fixed joints' % child,
                                    source, joint)
            poses[child] = (p_par + r_par @ xyz, r_par @ rot)
            stack.append(child)
    del poses[base]
    return poses


def _tree_poses(base: str, joints: List[ET.Element], source: str):
    """
    Return ({link: (p, R) in the base frame at zero joint positions}, {link: moving joints}).

    Every joint is followed both ways from the base (T_child = T_parent T_joint and
    back), so a base that is not the root of the tree still gets every link.
    """
    edges: Dict[str, list] = {}
    for joint in joints:
        parent, child = joint.find('parent'), joint.find('child')
        if parent is None or child is None:
            raise element_error('joint without <parent> or <child>', source, joint)
        rigid, xyz, rot = _rigid_joint(joint, source)
        a, b = parent.get('link', ''), child.get('link', '')
        moving = not rigid
        # T_parent_child (at q = 0 if it moves); the inverse walks back up
        edges.setdefault(a, []).append((b, (xyz, rot), joint, moving))
        edges.setdefault(b, []).append((a, (-rot.T @ xyz, rot.T), joint, moving))
    poses = {base: (np.zeros(3), np.eye(3))}
    moving_on_path: Dict[str, tuple] = {base: ()}
    stack = [base]
    while stack:
        here = stack.pop()
        p, r = poses[here]
        for other, (xyz, rot), joint, moving in edges.get(here, []):
            if other in poses:
                continue
            poses[other] = (p + r @ xyz, r @ rot)
            moving_on_path[other] = moving_on_path[here] + (
                (joint.get('name', ''),) if moving else ())
            stack.append(other)
    return poses, moving_on_path


def _record_joints(params: VehicleParams, joints: List[ET.Element], poses, source: str,
                   kept: TreeResult):
    """Record every joint; warnings name the moving ones lumped at zero or kept in the tree."""
    moving = []
    for joint in joints:
        name, kind = joint.get('name', ''), joint.get('type', '')
        child = joint.find('child')
        child_name = child.get('link', '') if child is not None else ''
        if kind == 'fixed':
            record(params, 'joint', name, where(source, joint), 'read', 'rigid: lumped')
        elif urdf_zero_range(joint, source) is not None:
            record(params, 'joint', name, where(source, joint), 'read',
                   (NOTE % kind) + ': lumped')
        elif name in kept.tree_joints:
            record(params, 'joint', name, where(source, joint), 'read',
                   '%s joint kept in the kinematic tree (body %r); the lumped vehicle has '
                   'it at its zero position' % (kind, kept.tree_joints[name]))
        elif child_name in poses:
            record(params, 'joint', name, where(source, joint), 'warned',
                   kept.on_axis.get(name, '%s joint lumped at its zero position: its motion '
                                    'and inertial coupling are left out' % kind))
            if name not in kept.lumped_with_hydro:  # those: tree_warning's
                moving.append('%r (%s, link %r)' % (name, kind, child_name))
    params.warnings.extend(tree_warning(kept))
    if moving:
        params.warnings.append(
            "joints that move are lumped at their zero position (the links' mass counts, as "
            "gz-sim simulates it; the joints' own motion and inertial coupling are left "
            'out%s): %s' % ('; their motion changes no hydro' if kept.tree is not None else '',
                            ', '.join(moving)))


def _limit(limit: Optional[ET.Element], name: str, source: str) -> float:
    """Return a speed or effort limit; absent, zero or negative: none (inf)."""
    value = float_attr(limit, name, source, 0.0) if limit is not None else 0.0
    return value if value > 0.0 else np.inf  # velocity="0": no limit, as Gazebo classic


def joint_spec(joint: ET.Element, source: str) -> JointSpec:
    """Return the tree builder's view of a URDF <joint> (child frame = joint frame)."""
    parent, child = joint.find('parent'), joint.find('child')
    if parent is None or child is None:
        raise element_error('joint without <parent> or <child>', source, joint)
    kind = joint.get('type', '')
    xyz, rot, axis = joint_frame(joint, source)
    rigid, r_xyz, r_rot = _rigid_joint(joint, source)
    limit = joint.find('limit')
    lower, upper = -np.inf, np.inf
    if kind in ('revolute', 'prismatic') and limit is not None:
        lower = float_attr(limit, 'lower', source, 0.0)  # urdfdom's defaults: 0
        upper = float_attr(limit, 'upper', source, 0.0)
    mimic = joint.find('mimic')
    return JointSpec(name=joint.get('name', ''), kind=kind, parent=parent.get('link', ''),
                     child=child.get('link', ''), origin_position=xyz, origin_rotation=rot,
                     axis=axis, lower=lower, upper=upper,
                     velocity=_limit(limit, 'velocity', source),
                     effort=_limit(limit, 'effort', source),
                     rigid=(r_xyz, r_rot) if rigid else None,
                     mimic=mimic.get('joint', '?') if mimic is not None else '',
                     where=where(source, joint))


def _root_link(links: Dict[str, ET.Element], joints: List[ET.Element], root: ET.Element,
               source: str) -> str:
    child_links = set()
    for joint in joints:
        child = joint.find('child')
        if child is not None:
            child_links.add(child.get('link', ''))
    roots = [name for name in links if name not in child_links]
    if len(roots) != 1:
        raise DescriptionError('cannot pick the base link: the tree has %d root links (%s); '
                               'name one with a dsros_hydro <base_link>'
                               % (len(roots), ', '.join(roots) or 'none'), source, 'robot',
                               getattr(root, 'line', None))
    return roots[0]


def _gz_link(plugin: ET.Element, source: str) -> str:
    """Return the <link_name> of a gz-sim Hydrodynamics block ('' when absent)."""
    return read_gz_hydrodynamics(plugin, source)['link_name']


def _link_tree(plugins: List[Optional[ET.Element]], base: str, links: Dict[str, ET.Element],
               joints: List[ET.Element], inertials: dict, source: str, root: ET.Element
               ) -> Tuple[TreeResult, List[str]]:
    """
    Return the kinematic tree (:mod:`tree_builder`) and the warnings of its link blocks.

    Per-link hydro in a URDF: the ``<link>`` blocks of a uuv_simulator underwater-object
    plugin, or one gz-sim Hydrodynamics block per link (each at its link origin, as in
    an SDF model; no buoyancy: gz-sim's comes from the collisions).  The warnings count
    only when the tree is kept (else the other blocks are an error, as for a rigid
    vehicle).
    """
    specs = [joint_spec(joint, source) for joint in joints]
    warnings: List[str] = []
    parts: Dict[str, LinkHydroPart] = {}
    for plugin in plugins:
        if plugin is not None and is_uuv_plugin(plugin):
            # each block acts on its link's Gazebo classic body (classic_base_body.py)
            parts = uuv_link_parts(
                plugin, set(links), inertials, source, warnings, base,
                bodies=lambda name: classic_base_body(name, root, inertials, source),
                merged=merged_links(root))
        elif plugin is not None and is_gz_hydrodynamics_plugin(plugin) and len(plugins) > 1:
            values = read_gz_hydrodynamics(plugin, source)
            name = values['link_name'] or base
            if name not in links:
                raise element_error('gz-sim Hydrodynamics <link_name> %r is not a link of '
                                    'the robot' % name, source, plugin)
            place = where(source, plugin)
            part = parts.setdefault(name, LinkHydroPart(link=name, where=place))
            part.linear_drag = part.linear_drag + values['linear_drag']
            part.quadratic_drag = part.quadratic_drag + values['quadratic_drag']
            part.added_mass = part.added_mass + values['added_mass']
            if name != base:
                warnings.extend(values['warnings'])
    kept = build_tree(base, specs, inertials, parts)
    return kept, warnings if kept.tree is not None else []


def urdf_from_root(root: ET.Element, source: str) -> VehicleParams:
    """Build VehicleParams from a parsed <robot> element."""
    if root.tag != 'robot':
        raise element_error('expected a URDF <robot> root element, got <%s>' % root.tag,
                            source, root)
    check_children(root, URDF_CHILDREN['robot'], source)
    ignored = _nested_gazebo(root, source)
    links: Dict[str, ET.Element] = {}
    for link in root.findall('link'):
        check_children(link, URDF_CHILDREN['link'], source)
        name = link.get('name', '')
        if not name:  # urdfdom refuses it ("No name given for the link")
            raise element_error('a <link> needs a name', source, link)
        if name in links:
            raise element_error('duplicate link %r' % name, source, link)
        links[name] = link
    joints = root.findall('joint')
    joint_names = set()
    for joint in joints:
        check_children(joint, URDF_CHILDREN['joint'], source)
        name = joint.get('name', '')
        if not name:  # urdfdom refuses it ("unnamed joint found")
            raise element_error('a <joint> needs a name', source, joint)
        if name in joint_names:
            raise element_error('duplicate joint %r' % name, source, joint)
        joint_names.add(name)
    plugins = hydro_plugins(root, source)
    # gz-sim's Hydrodynamics runs per link: several blocks, each on its <link_name>
    per_link = len(plugins) > 1 and all(is_gz_hydrodynamics_plugin(p) for p in plugins)
    if len(plugins) > 1 and not per_link:
        raise element_error('more than one hydrodynamics plugin (dsros_hydro, '
                            'uuv_simulator or gz-sim Hydrodynamics) block', source, plugins[1])
    plugin = plugins[0] if plugins else None
    base = base_link_name(plugin) if plugin is not None and is_dsros_plugin(plugin) else ''
    if base and base not in links:
        raise element_error('dsros_hydro <base_link> %r is not a link of the robot' % base,
                            source, plugin.find('base_link'))
    if not base:
        base = _root_link(links, joints, root, source)
    if per_link:  # the base link's block is the vehicle's
        plugin = next((p for p in plugins if _gz_link(p, source) in ('', base)), None)
    frames = _fixed_chain(base, joints, source)
    poses, moving = _tree_poses(base, joints, source)
    parts, part_links, records, inertials = [], [], [], {}
    for name in poses:
        if name not in links:
            continue
        inertial = read_inertial(links[name], source)
        if inertial is not None:
            inertials[name] = inertial
        via = moving.get(name, ())
        note = ('no <inertial>: no mass' if inertial is None else '%g kg lumped into %r (%s)'
                % (inertial[0], base, 'base link' if name == base else 'rigid' if not via
                   else 'at the zero position of joint %s' % ', '.join(via)))
        records.append((name, note))
        if inertial is None:
            continue
        mass, com, inertia = inertial
        parts.append(part_in_base(mass, com, inertia, *poses[name]))
        part_links.append(name)
    if not parts:
        raise element_error('base link %r has no <inertial> (mass, centre of mass, inertia)'
                            % base, source, links[base])
    try:
        total, com, inertia = lump(parts)
    except LumpOverflow as exc:
        name = part_links[exc.index]
        raise element_error('link %r lumped into %r: %s' % (name, base, exc), source,
                            links[name]) from None
    if total <= 0.0:
        # the <mass> of the first link that makes it so (its line), else the base link
        bad = [n for n in part_links if inertials[n][0] <= 0.0]
        mass_elem = links[bad[0]].find('inertial/mass') if bad else None
        raise element_error('mass must be positive, got %g kg' % total, source,
                            links[base] if mass_elem is None else mass_elem)
    params = VehicleParams(mass=float(total), inertia=inertia, com=com,
                           name=root.get('name', 'vehicle'), base_frame=base,
                           source=source)
    for name, note in records:
        record(params, 'link', name, where(source, links[name]), 'read', note)
    kept, tree_notes = _link_tree(plugins if per_link else [plugin], base, links, joints,
                                  inertials, source, root)
    if per_link and kept.tree is None:
        raise element_error('more than one gz-sim Hydrodynamics block: only the base link '
                            '%r is read (one rigid body; a block per link is kept only when a '
                            'joint that moves carries its link)' % base, source, plugins[1])
    params.tree = kept.tree
    _record_joints(params, joints, poses, source, kept)
    params.warnings.extend(tree_notes)
    params.frames = {name: FixedFrame(translation=p, rotation=matrix_to_quat(rot))
                     for name, (p, rot) in frames.items()}
    set_origin(params, RIGID_BODY_FIELDS, '%s (URDF <inertial> of %s and the links on its '
               'joints)' % (source, base))
    apply_urdf_defaults(params, source)
    body = classic_base_body(base, root, inertials, source)  # where classic plugins act
    if plugin is not None and is_dsros_plugin(plugin):
        apply_dsros_block(plugin, params, source, body_com=body[1], body_mass=body[0])
        hull = plugin.find('hull')
        if hull is not None:  # a uwv_hydro extension of the dsros_hydro block
            check_children(hull, HULL_KEYS, source)
            finish_hull(params, read_xml_hull(hull, source), where(source, hull))
    elif plugin is not None and is_gz_hydrodynamics_plugin(plugin):  # the base link's
        params.fluid_density = apply_gz_hydrodynamics(plugin, params, source, link=base)
        set_origin(params, ('fluid_density',), '%s:%s (gz-sim Hydrodynamics)'
                   % (source, element_line(plugin)))
        # gz-sim's Buoyancy system computes it from the collision volumes: not here
        params.warnings.append('gz-sim Hydrodynamics gives no buoyancy (gz-sim computes it '
                               'from the collision volumes): give buoyancy_mass and cob in '
                               'a YAML over this URDF')
    elif plugin is not None:
        apply_uuv_block(plugin, params, source, tree_links=(
            {block.get('name', '') for block in plugin.findall('link')} if kept.tree else ()),
            body=body)
    if params.tree is not None and np.any(params.signed_quadratic_drag):
        raise DescriptionError(SIGNED_RIGID_ONLY, source, 'signed_quadratic_drag')
    shapes = urdf_contact_points(links, poses, source)
    params.contact = shapes.spec('the URDF collision shapes')
    # shown where a seabed makes contact (check, simulate), not among the load warnings
    params.contact_warnings = shapes.warnings()
    params.fins = fins_from_urdf(root, base, frames, params, source)
    params.thrusters = read_urdf_thrusters(root, params, source)
    # generic <sensor> types; ds_sim and uuv_simulator sensors are read_uuv_equipment's
    params.sensors = sensors_from_urdf(root, source, base, params, skip=owns_sensor)
    read_uuv_equipment(root, params, source)  # uuv_simulator / ds_sim / DAVE equipment
    check_sensor_links(params.sensors, params, source)
    params.warnings.extend(ignored)
    warn_not_modelled(params)
    return params


def _nested_gazebo(root: ET.Element, source: str) -> List[str]:
    """
    Take out the <gazebo> blocks inside a <link>; return a warning naming each.

    Gazebo never reads them: sdformat's URDF2SDF::ParseSDFExtension takes only the
    ``<robot>``'s own ``<gazebo>`` children and urdfdom's link parser skips unknown
    elements, so their plugins do not run (ds_sim's sentry_dropweights.xacro).
    """
    out = []
    for link in root.findall('link'):
        for block in link.findall('gazebo'):
            link.remove(block)
            plugins = [p.get('name') or p.get('filename', '') for p in block.iter('plugin')]
            out.append('%s: <gazebo> inside link %r ignored, as Gazebo ignores it (only '
                       "<robot>'s own <gazebo> elements are read)%s"
                       % (where(source, block), link.get('name', ''),
                          '; plugin %s does not run' % ', '.join(map(repr, plugins))
                          if plugins else ''))
    return out


def hydro_plugins(root: ET.Element, source: str) -> List[ET.Element]:
    """
    Return the dsros_hydro, uuv_simulator and gz-sim Hydrodynamics blocks under ``root``.

    Any other hydrodynamics or buoyancy plugin is an error naming it.
    """
    found = []
    for elem in root.iter('plugin'):
        if is_dsros_plugin(elem) or is_uuv_plugin(elem) or is_gz_hydrodynamics_plugin(elem):
            found.append(elem)
        elif is_hydro_plugin(elem):
            raise foreign_plugin_error(elem, source, 'dsros_hydro, uuv_simulator '
                                       'underwater-object and gz-sim Hydrodynamics blocks '
                                       'in a URDF')
    return found


def load_urdf_string(text: str, source: str = '<robot_description>') -> VehicleParams:
    """Parse URDF text (e.g. a robot_description parameter) safely."""
    return urdf_from_root(parse_xml_string(text, source), source)


def load_urdf_file(path: str) -> VehicleParams:
    """Parse the URDF file at ``path`` safely."""
    return urdf_from_root(parse_xml_file(path), path)
