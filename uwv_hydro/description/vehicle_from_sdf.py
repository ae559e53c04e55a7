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
Build VehicleParams from an SDF model (``.sdf``) or world (``.world``).

* ``<include>`` elements are resolved first (:mod:`uwv_hydro.description.sdf.include`).
* Model: the one named by ``model_name``, else the one model of the document that
  carries a hydrodynamics, buoyancy or thruster plugin
  (:mod:`uwv_hydro.description.sdf.model_choice`).
* Base link: a uwv_hydro plugin's <link_name>, else the model's ``canonical_link``,
  else its first <link> (sdformat's canonical link).
* Whole model (poses composed as sdformat does: :mod:`uwv_hydro.description.sdf.frames`):
  every link's inertial is lumped into the base frame
  (:mod:`uwv_hydro.description.rigid_lumping`); links on joints that move are lumped at
  the joint's zero position with one warning, and kept with their own hydro in
  ``tree`` when they carry it (:mod:`uwv_hydro.description.tree_builder`,
  :mod:`uwv_hydro.description.sdf.tree_joints`).  A link without <inertial> has
  sdformat's default (1 kg, unit inertia), with a warning.
* ``//link/inertial``: <mass>, <pose> (I_link = R I R^T), <inertia> (SDF defaults),
  <fluid_added_mass> (SDF 1.10: 21 symmetric elements about the link origin, SDF
  letters p q r = roll pitch yaw; both halves of a pair is rejected).
* Hydrodynamics: every gz-sim Hydrodynamics and osrf/lrauv HydrodynamicsPlugin of the
  model and every <fluid_added_mass>, moved exactly to the base frame
  (:mod:`uwv_hydro.description.link_hydrodynamics`) and summed, as gz-sim applies all.
* Buoyancy: a uwv_hydro <plugin>, else gz-sim's Buoyancy system on every link
  (:mod:`uwv_hydro.description.sdf.buoyancy`; in a world only if it has that system).
* Gravity: the world's <gravity> magnitude (sdformat default ``0 0 -9.8``); hull: the
  plugin's ``<hull>``; equipment: :mod:`uwv_hydro.description.sdf.equipment`.
* Every element read is recorded (:mod:`element_report`) and checked: a typo is an
  error with "did you mean"; any other hydrodynamics or buoyancy plugin is an error.

What each SDF element gives and its defaults: doc/guide/sdf_models.md.
"""
import math
from typing import Dict, List, Optional, Tuple
import xml.etree.ElementTree as ET

import numpy as np

from uwv_hydro.description.conventions import SDF_LETTERS
from uwv_hydro.description.element_report import record, where
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.hull import finish_hull, HULL_KEYS, read_xml_hull
from uwv_hydro.description.link_hydrodynamics import combine, LinkHydro, SIGNED_RIGID_ONLY
from uwv_hydro.description.lrauv.hydrodynamics import (
    is_lrauv_hydrodynamics_plugin, LRAUV_ACCELERATION_ALPHA, read_lrauv_hydrodynamics)
from uwv_hydro.description.name_checks import check_children, foreign_plugin_error, is_hydro_plugin
from uwv_hydro.description.provenance import set_origin
from uwv_hydro.description.sdf.buoyancy import (
    GZ_BUOYANCY_DEFAULT_DENSITY, is_buoyancy_system, link_volume, read_buoyancy_system)
from uwv_hydro.description.sdf.collisions import sdf_contact_points
from uwv_hydro.description.sdf.equipment import read_sdf_equipment
from uwv_hydro.description.sdf.frames import (
    compose, FlatModel, flatten_model, inverse, Pose, read_pose)
from uwv_hydro.description.sdf.gz_hydrodynamics import (
    is_gz_hydrodynamics_plugin, read_gz_hydrodynamics)
from uwv_hydro.description.sdf.include import expand_includes
from uwv_hydro.description.sdf.model_choice import choose_model, is_uwv_plugin, unloaded_scenery
from uwv_hydro.description.sdf.rigid_body import (
    _inertial, _rigid_body, lumped_joints_warning, SDF_DEFAULT_GRAVITY)
from uwv_hydro.description.sdf.tree_joints import sdf_joint_specs
from uwv_hydro.description.tree_builder import build_tree, tree_warning
from uwv_hydro.description.validate import coefficient_indices
from uwv_hydro.description.xml_safe import (
    element_error, element_line, element_numbers, element_path, parse_xml_file, parse_xml_string)
from uwv_hydro.description.xml_values import flag_text, float_text
from uwv_hydro.physics.articulated.model.link_tree import LinkHydroPart
from uwv_hydro.physics.body.vehicle_params import SurfaceTransition, VehicleParams

#: uwv_hydro's own SDF plugin (doc/guide/sdf_models.md): its elements.
UWV_PLUGIN_CHILDREN = ('link_name', 'buoyancy_mass', 'volume', 'center_of_buoyancy',
                       'fluid_density', 'out_of_water_depth', 'fully_submerged_depth',
                       'scale_factor', 'allow_nonphysical', 'hull')


__all__ = ['is_uwv_plugin', 'read_fluid_added_mass', 'read_pose', 'sdf_from_root',
           'load_sdf_string', 'load_sdf_file', 'read_equipment']


def read_fluid_added_mass(elem: ET.Element, source: str,
                          labels: Optional[dict] = None) -> np.ndarray:
    """Read <fluid_added_mass> (21 symmetric SDF elements) into a 6x6 matrix."""
    out = np.zeros((6, 6))
    seen: Dict[tuple, str] = {}
    for child in elem:
        i, j = coefficient_indices(child.tag, SDF_LETTERS, 2, 'fluid_added_mass', seen,
                                   source, element_path(child), element_line(child))
        if (j, i) in seen and i != j:
            raise element_error(
                'asymmetric fluid_added_mass: both <%s> and <%s> given; the matrix is '
                'symmetric, give only one of them' % (seen[(j, i)], child.tag), source, child)
        value = float_text(child, source)
        out[i, j] = out[j, i] = value
        if labels is not None:
            labels[(i, j)] = labels[(j, i)] = (element_path(child), element_line(child))
    return out


def read_equipment(flat: FlatModel, link_poses: Dict[str, Pose], params: VehicleParams,
                   source: str) -> None:
    """
    Read the model's equipment (thrusters, fins, sensors, buoyancy engines) into params.

    The one place SDF equipment readers are called, once the rigid body, hydrodynamics
    and buoyancy are read: ``flat`` is the model with includes resolved and nested
    models flattened, ``link_poses`` maps every (scoped) link name to its pose
    (position, rotation matrix) in the base frame at the joints' zero position.  The
    readers are :mod:`uwv_hydro.description.sdf.equipment`'s.
    """
    read_sdf_equipment(flat, params, source, link_poses)
    shapes = sdf_contact_points(flat, link_poses, source)
    params.contact = shapes.spec('the SDF collision shapes')
    # shown where a seabed makes contact (check, simulate), not among the load warnings
    params.contact_warnings = shapes.warnings()


def _hydro_parts(flat: FlatModel, plugins, link_poses: Dict[str, Pose], params: VehicleParams,
                 source: str, warnings: List[str],
                 link_parts: Dict[str, LinkHydroPart], deferred: List[DescriptionError]
                 ) -> Tuple[Optional[float], str]:
    """
    Collect every link's drag and added mass; set params' drag.

    Return (water density, where it came from) of the first gz-sim block, or (None, '').

    Each link's own is also added to ``link_parts`` (link frame, at the link origin).
    When the links' quadratic drag cannot be combined at one point, only the links
    rigid with the base are lumped and the error is put in ``deferred``: it stands
    unless the kinematic tree keeps the moving links' own.
    """
    parts: List[LinkHydro] = []
    density, density_origin = None, ''
    drag_lines: List[str] = []
    added_lines: List[str] = []
    for name, link in flat.links.items():
        inertial = link.find('inertial')
        fam = inertial.findall('fluid_added_mass') if inertial is not None else []
        if len(fam) > 1:
            raise element_error('duplicate <fluid_added_mass>', source, fam[1])
        if fam:
            labels: dict = {}
            matrix = read_fluid_added_mass(fam[0], source, labels)
            _part(link_parts, name, where(source, fam[0])).added_mass += matrix
            parts.append(LinkHydro(name, *link_poses[name], added_mass=matrix,
                                   where=element_path(fam[0]),
                                   labels={'added_mass': labels}))
            added_lines.append('<fluid_added_mass> line %s' % element_line(fam[0]))
    for plugin, scope, kind in plugins:
        values = (read_gz_hydrodynamics(plugin, source) if kind == 'gz'
                  else read_lrauv_hydrodynamics(plugin, source))
        label = 'gz-sim Hydrodynamics' if kind == 'gz' else 'lrauv HydrodynamicsPlugin'
        link_name = values['link_name']
        if not link_name:
            raise element_error('%s without <link_name>' % label, source, plugin)
        target = flat.lookup(link_name, scope, plugin)
        if target not in flat.links:
            raise element_error('%s <link_name> %r is not a link of model %r'
                                % (label, link_name, flat.name), source, plugin)
        part = _part(link_parts, target, where(source, plugin))
        part.linear_drag += values['linear_drag']
        part.quadratic_drag += values['quadratic_drag']
        part.added_mass += values['added_mass']
        parts.append(LinkHydro(target, *link_poses[target],
                               linear_drag=values['linear_drag'],
                               quadratic_drag=values['quadratic_drag'],
                               added_mass=values['added_mass'],
                               signed_quadratic_drag=values.get(
                                   'signed_quadratic_drag', np.zeros((6, 6, 6))),
                               where=element_path(plugin), labels=values['labels']))
        drag_lines.append('%s line %s on %s' % (label, element_line(plugin), target))
        if np.any(values['added_mass']):
            added_lines.append('%s line %s' % (label, element_line(plugin)))
        params.added_mass_coriolis = (params.added_mass_coriolis
                                      and bool(values['added_mass_coriolis']))
        warnings.extend(values['warnings'])
        if values['current'] is not None:
            warnings.append('%s <default_current> is not part of the vehicle; pass it as the '
                            'world current' % label)
        if kind == 'gz':
            if density is None:
                density = float(values['fluid_density'])
                line = values['density_line']
                density_origin = (
                    '%s:%s (gz-sim Hydrodynamics <water_density>)' % (source, line)
                    if line is not None else
                    '%s (no <water_density> in the gz-sim Hydrodynamics block at line %s: its '
                    "default %g; gz-sim's buoyancy takes the world Buoyancy system's "
                    'density, default %g)' % (source, element_line(plugin), density,
                                              GZ_BUOYANCY_DEFAULT_DENSITY))
        else:
            params.acceleration_alpha = LRAUV_ACCELERATION_ALPHA
        record(params, 'plugin', plugin.get('name', '') or plugin.get('filename', ''),
               where(source, plugin), 'read', '%s on link %r' % (label, target))
    try:
        linear, quad, added, point, labels, signed = combine(parts, source)
    except DescriptionError as exc:
        # a tree may keep the moving links' own: lump only the links rigid with the base
        rigid = [p for p in parts if p.link == params.base_frame or p.link in params.frames]
        linear, quad, added, point, labels, signed = combine(rigid, source)
        deferred.append(exc)
    if drag_lines:
        set_origin(params, ('linear_drag', 'quadratic_drag', 'added_mass_coriolis', 'drag_center',
                            'drag_velocity_point', 'semantics'),
                   '%s (%s)' % (source, '; '.join(drag_lines)))
    if added_lines:
        set_origin(params, ('added_mass', 'added_mass_point'),
                   '%s (%s)' % (source, '; '.join(added_lines)))
    if any(kind == 'lrauv' for _, _, kind in plugins):
        set_origin(params, ('acceleration_alpha',), '%s (lrauv HydrodynamicsPlugin: its '
                   'fixed filter constant)' % source)
    params.linear_drag, params.quadratic_drag, params.added_mass = linear, quad, added
    params.signed_quadratic_drag = signed
    for key, value in labels.items():
        params.coefficient_labels.setdefault(key, {}).update(value)
    params.drag_center = point.copy()
    params.drag_velocity_point = point.copy()
    params.added_mass_point = np.zeros(3)
    params.semantics = 'origin'
    return density, density_origin


def _part(parts: Dict[str, LinkHydroPart], link: str, place: str) -> LinkHydroPart:
    """Return the hydro part of ``link`` in ``parts`` (a new one read at ``place``)."""
    part = parts.get(link)
    if part is None:
        part = parts[link] = LinkHydroPart(link=link, where=place)
    elif place not in part.where:
        part.where += '; ' + place
    return part


def _sdf_tree(flat: FlatModel, base: str, params: VehicleParams,
              link_parts: Dict[str, LinkHydroPart], moving: List[tuple],
              deferred: List[DescriptionError], source: str) -> List[str]:
    """
    Set ``params.tree`` (:mod:`uwv_hydro.description.tree_builder`); return the joint warnings.

    Per-link hydro in SDF: gz-sim Hydrodynamics and lrauv plugins on their link,
    ``<fluid_added_mass>``, each link's collision volume (gz-sim's Buoyancy system)
    or the uwv_hydro plugin's buoyancy on the base link.  A quadratic drag that could
    not be lumped (``deferred``) is an error unless the tree keeps it.
    """
    inertials = {}
    for name, link in flat.links.items():
        mass, com, inertia = _inertial(flat, name, link, source, [])[:3]
        inertials[name] = (mass, com, inertia)
    kept = build_tree(base, sdf_joint_specs(flat, source), inertials, link_parts)
    params.tree = kept.tree
    if kept.tree is not None and np.any(params.signed_quadratic_drag):
        raise DescriptionError(SIGNED_RIGID_ONLY, source, 'signed_quadratic_drag')
    if kept.tree is None and deferred:
        raise deferred[0]
    notes = tree_warning(kept)
    if deferred:
        notes.append('%s; the lumped vehicle fields hold the drag and added mass of the links '
                     "rigid with the base only, the tree every link's own"
                     % deferred[0].reason)
    for rec in params.elements:
        if rec.kind == 'joint' and rec.name in kept.tree_joints:
            rec.status = 'read'
            rec.note = ('%s joint kept in the kinematic tree (body %r); the lumped vehicle '
                        'has it at its zero position' % (flat.joints[rec.name].get('type'),
                                                         kept.tree_joints[rec.name]))
        elif rec.kind == 'joint' and rec.name in kept.on_axis:
            rec.note = kept.on_axis[rec.name]
    lumped = [m for m in moving
              if m[0] not in kept.tree_joints and m[0] not in kept.lumped_with_hydro]
    if lumped:
        notes.append(lumped_joints_warning(lumped, kept.tree is not None))
    return notes


def _classify_plugins(flat: FlatModel, source: str):
    """Return (uwv plugins, [(hydrodynamics plugin, scope, 'gz' | 'lrauv')])."""
    uwv, hydro = [], []
    for plugin, scope in flat.plugins:
        if is_uwv_plugin(plugin):
            uwv.append(plugin)
        elif is_lrauv_hydrodynamics_plugin(plugin):
            hydro.append((plugin, scope, 'lrauv'))
        elif is_gz_hydrodynamics_plugin(plugin):
            hydro.append((plugin, scope, 'gz'))
        elif is_buoyancy_system(plugin):
            raise element_error('the Buoyancy system is a <world> plugin (gz-sim ignores it '
                                'in a model: "Make sure this plugin is attached to a '
                                '<world>")', source, plugin)
        elif is_hydro_plugin(plugin):
            raise foreign_plugin_error(plugin, source, 'gz-sim Hydrodynamics, lrauv '
                                       'HydrodynamicsPlugin and uwv_hydro plugins in an SDF '
                                       'model')
    if len(uwv) > 1:
        raise element_error('more than one uwv_hydro plugin in the model', source, uwv[1])
    return uwv, hydro


def sdf_from_root(root: ET.Element, source: str, model_name: str = '') -> VehicleParams:
    """Build VehicleParams from a parsed <sdf> element (see module docstring)."""
    if root.tag != 'sdf':
        raise element_error('expected an SDF <sdf> root element, got <%s>' % root.tag,
                            source, root)
    warnings: List[str] = []
    expand_includes(root, source, warnings)
    model = choose_model(root, source, model_name)
    warnings.extend(unloaded_scenery(root, model))
    flat = flatten_model(model, source)
    if not flat.links:
        raise element_error('model has no <link>', source, model)
    uwv, hydro = _classify_plugins(flat, source)
    base = _base_link(flat, uwv, source)
    to_base = inverse(flat.pose(base))
    link_poses = {name: compose(to_base, flat.pose(name)) for name in flat.links}
    moving: List[tuple] = []
    params = _rigid_body(flat, base, link_poses, source, model.get('name', 'vehicle'),
                         warnings, moving)
    joint_notes_at = len(warnings)
    link_parts: Dict[str, LinkHydroPart] = {}
    deferred: List[DescriptionError] = []
    density, density_origin = _hydro_parts(flat, hydro, link_poses, params, source, warnings,
                                           link_parts, deferred)
    if not hydro and not uwv:
        warnings.append('no hydrodynamics plugin (gz-sim Hydrodynamics, lrauv, uwv_hydro): '
                        'no hull drag, as gz-sim simulates this model; under a steady '
                        'thrust or net weight its speed grows without bound')
    world = model.parent if getattr(model, 'parent', None) is not None and \
        model.parent.tag == 'world' else root.find('world')
    systems = [p for p in (world.findall('plugin') if world is not None else [])
               if is_buoyancy_system(p)]
    if len(systems) > 1:
        raise element_error('more than one Buoyancy system in the world', source, systems[1])
    system = read_buoyancy_system(systems[0], source) if systems else None
    if system is not None:
        density = system.density
        set_origin(params, ('fluid_density',), '%s:%s (world Buoyancy system)'
                   % (source, element_line(systems[0])))
        warnings.extend(system.warnings)
        record(params, 'plugin', systems[0].get('name', ''), where(source, systems[0]), 'read',
               'gz-sim Buoyancy system: %g kg/m^3' % system.density)
    elif density is not None:
        set_origin(params, ('fluid_density',), density_origin)
    if world is not None:
        gravity = world.find('gravity')
        # |g| by math.hypot: scaled, so a 1e300 component gives 1e300, not an overflow
        params.gravity = (math.hypot(*element_numbers(gravity, (3,), source))
                          if gravity is not None else SDF_DEFAULT_GRAVITY)
        set_origin(params, ('gravity',), '%s:%s (world <gravity>)' % (
            source, element_line(gravity)) if gravity is not None else
            '%s (world without <gravity>: sdformat default 0 0 -9.8)' % source)
    params.fluid_density = density if density is not None else params.fluid_density
    _buoyancy(params, flat, link_poses, uwv[0] if uwv else None, system, world, source,
              warnings, link_parts)
    warnings[joint_notes_at:joint_notes_at] = _sdf_tree(flat, base, params, link_parts,
                                                        moving, deferred, source)
    read_equipment(flat, link_poses, params, source)
    params.warnings.extend(warnings)
    hull = uwv[0].find('hull') if uwv else None
    if hull is not None:
        check_children(hull, HULL_KEYS, source)
        finish_hull(params, read_xml_hull(hull, source), where(source, hull))
    return params


def _base_link(flat: FlatModel, uwv: List[ET.Element], source: str) -> str:
    """Return the base link: uwv plugin <link_name>, canonical_link, first link."""
    for plugin in uwv:
        name_elem = plugin.find('link_name')
        wanted = (name_elem.text or '').strip() if name_elem is not None else ''
        if wanted:
            if wanted not in flat.links:
                raise element_error('link %r named by the uwv_hydro plugin does not exist'
                                    % wanted, source, name_elem)
            return wanted
    wanted = flat.element.get('canonical_link', '')
    if wanted:
        if wanted not in flat.links:
            raise element_error('canonical_link %r is not a link of the model' % wanted,
                                source, flat.element)
        return wanted
    return next(iter(flat.links))


def _buoyancy(params: VehicleParams, flat: FlatModel, link_poses: Dict[str, Pose],
              plugin: Optional[ET.Element], system, world: Optional[ET.Element],
              source: str, warnings: List[str], link_parts: Dict[str, LinkHydroPart]) -> None:
    """Set the buoyancy of params; each link's own goes to ``link_parts`` (link frame)."""
    values = {}
    if plugin is not None:
        check_children(plugin, UWV_PLUGIN_CHILDREN, source)
        set_origin(params, ('buoyancy_mass', 'cob', 'surface'), '%s:%s (uwv_hydro plugin)'
                   % (source, element_line(plugin)))
        record(params, 'plugin', plugin.get('name', ''), where(source, plugin), 'read',
               'uwv_hydro buoyancy')
        for child in plugin:
            if child.tag == 'center_of_buoyancy':
                params.cob = element_numbers(child, (3,), source)
            elif child.tag == 'allow_nonphysical':
                params.allow_nonphysical = params.allow_nonphysical or flag_text(child,
                                                                                 source)
            elif child.tag not in ('link_name', 'hull'):
                values[child.tag] = float_text(child, source)
        if 'buoyancy_mass' in values and 'volume' in values:
            raise element_error('give <buoyancy_mass> or <volume>, not both', source, plugin)
        params.fluid_density = values.get('fluid_density', params.fluid_density)
        params.surface = SurfaceTransition(
            out_of_water_depth=values.get('out_of_water_depth', 0.0),
            fully_submerged_depth=values.get('fully_submerged_depth', 0.0),
            scale_factor=values.get('scale_factor', 1.0))
        if 'buoyancy_mass' in values or 'volume' in values:
            params.buoyancy_mass = values.get('buoyancy_mass', values.get('volume', 0.0)
                                              * params.fluid_density)
            # the plugin's buoyancy is the base link's (its cob in the base frame)
            part = _part(link_parts, params.base_frame, where(source, plugin))
            part.buoyancy_mass, part.surface = params.buoyancy_mass, params.surface
            part.cob = np.asarray(params.cob, float).copy()
            return
    if world is not None and system is None:
        warnings.append('the world has no Buoyancy system (gz-sim-buoyancy-system): gz-sim '
                        'applies no buoyancy, nor does uwv_hydro')
        return
    total, moment, counted = 0.0, np.zeros(3), []
    for name, link in flat.links.items():
        if system is not None and not system.applies_to(flat.name, name):
            continue
        collisions = [(c, flat.pose_in_link(c.find('pose'), name)[0])
                      for c in link.findall('collision')]
        volume, centre = link_volume(collisions, source, warnings)
        if volume > 0.0:
            p, rot = link_poses[name]
            total += volume
            # the links' buoyancy forces are parallel: one force at sum V_i c_i / sum V_i
            moment += volume * (p + rot @ centre)
            counted.append(name)
            part = _part(link_parts, name, where(source, link))
            # Buoyancy.cc: -rho V g at the link's centre of volume
            part.buoyancy_mass, part.cob = volume * params.fluid_density, centre
            part.surface = params.surface if plugin is not None else None
    if total > 0.0:
        set_origin(params, ('buoyancy_mass', 'cob'), '%s (collision volumes of links %s)'
                   % (source, ', '.join(counted)))
        params.buoyancy_mass = total * params.fluid_density
        if plugin is None or plugin.find('center_of_buoyancy') is None:
            params.cob = moment / total


def load_sdf_string(text: str, source: str = '<sdf>', model_name: str = '') -> VehicleParams:
    """Parse SDF text safely."""
    return sdf_from_root(parse_xml_string(text, source), source, model_name)


def load_sdf_file(path: str, model_name: str = '') -> VehicleParams:
    """Parse the SDF file at ``path`` safely."""
    if not path:
        raise DescriptionError('no SDF path given')
    return sdf_from_root(parse_xml_file(path), path, model_name)
