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

* Model: the first <model> carrying a uwv_hydro or Hydrodynamics plugin, else the
  first <model>.  Canonical link: the one named by that plugin's <link_name>,
  else the model's ``canonical_link`` attribute, else its first <link>.
* ``//link/inertial``: <mass>, <pose> (centre of mass ``x y z`` and the rotation
  ``roll pitch yaw`` of the inertia axes: I_link = R I R^T), <inertia> (SDF
  defaults: ixx = iyy = izz = 1, products 0), <fluid_added_mass> (SDF 1.10):
  21 symmetric elements ``xx xy .. rr`` with SDF letters p q r = roll pitch yaw,
  expressed about the link origin (so ``rr`` is the yaw-yaw term).  Giving both
  halves of a pair (``<xy>`` and ``<yx>``) is rejected as asymmetric.
* A gz-sim Hydrodynamics <plugin> adds its drag and added mass
  (:mod:`uwv_hydro.description.gz_hydrodynamics`); added mass from both sources
  is summed, as gz-sim applies both.
* Buoyancy: a uwv_hydro <plugin> (``<buoyancy_mass>`` kg or ``<volume>`` m^3,
  ``<center_of_buoyancy>x y z</center_of_buoyancy>``, ``<fluid_density>``,
  ``<out_of_water_depth>``, ``<fully_submerged_depth>``, ``<scale_factor>``), else
  like gz-sim's Buoyancy system: fluid density times the volume of the canonical
  link's box/sphere/cylinder/capsule/ellipsoid collisions, acting at their centroid
  (fluid density from the world's Buoyancy <uniform_fluid_density>, else the
  Hydrodynamics water density, else 1025).
* Hull: a ``<hull>`` block in the uwv_hydro <plugin> (:mod:`uwv_hydro.description.hull`).
* Gravity: the magnitude of the world's <gravity> if present.
* Elements read are checked against the known sets (``//inertial``, ``<inertia>``,
  the uwv_hydro plugin): a typo is an error with "did you mean".  Any other
  hydrodynamics or buoyancy plugin in the model is an error naming it.
"""
from typing import Dict, List, Optional
import xml.etree.ElementTree as ET

import numpy as np

from uwv_hydro.description.conventions import (
    quat_to_matrix, rpy_to_matrix, SDF_LETTERS)
from uwv_hydro.description.dsros_block import flag_text, float_text
from uwv_hydro.description.element_report import where
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.gz_hydrodynamics import (
    apply_gz_hydrodynamics, is_gz_hydrodynamics_plugin)
from uwv_hydro.description.hull import finish_hull, read_xml_hull
from uwv_hydro.description.known_names import (
    check_children, foreign_plugin_error, is_hydro_plugin)
from uwv_hydro.description.sources import RIGID_BODY_FIELDS, set_origin
from uwv_hydro.description.validate import coefficient_indices
from uwv_hydro.description.xml_safe import (
    element_error, element_line, element_numbers, element_path, parse_xml_file,
    parse_xml_string)
from uwv_hydro.physics.vehicle_params import SurfaceTransition, VehicleParams

_INERTIA_DEFAULTS = {'ixx': 1.0, 'iyy': 1.0, 'izz': 1.0, 'ixy': 0.0, 'ixz': 0.0, 'iyz': 0.0}


def is_uwv_plugin(elem: ET.Element) -> bool:
    """Return True for a uwv_hydro <plugin> element."""
    return elem.tag == 'plugin' and 'uwv_hydro' in (
        elem.get('filename', '') + ' ' + elem.get('name', ''))


def read_pose(elem: Optional[ET.Element], source: str):
    """Return (xyz, R) of an SDF <pose> (``x y z roll pitch yaw`` or quat_xyzw)."""
    if elem is None:
        return np.zeros(3), np.eye(3)
    rel = elem.get('relative_to', '')
    parent = getattr(elem, 'parent', None)
    owner = parent.parent.get('name', '') if parent is not None and \
        parent.tag == 'inertial' and parent.parent is not None else ''
    if rel and rel != owner:
        raise element_error('pose relative_to=%r is not supported here' % rel, source, elem)
    if elem.get('rotation_format', 'euler_rpy') == 'quat_xyzw':
        v = element_numbers(elem, (7,), source)
        return v[:3], quat_to_matrix([v[6], v[3], v[4], v[5]])
    v = element_numbers(elem, (6,), source)
    rpy = np.radians(v[3:]) if elem.get('degrees', 'false').lower() == 'true' else v[3:]
    return v[:3], rpy_to_matrix(rpy)


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


def _collision_volume(collision: ET.Element, source: str):
    """Return (volume, centroid in link frame) of a collision, or None if unsupported."""
    geometry = collision.find('geometry')
    if geometry is None or len(geometry) == 0:
        return None
    shape = geometry[0]
    tag = shape.tag

    def num(name):
        child = shape.find(name)
        if child is None:
            raise element_error('<%s> without <%s>' % (tag, name), source, shape)
        return float_text(child, source)

    if tag == 'box':
        volume = float(np.prod(element_numbers(shape.find('size'), (3,), source)))
    elif tag == 'sphere':
        volume = 4.0 / 3.0 * np.pi * num('radius') ** 3
    elif tag == 'cylinder':
        volume = np.pi * num('radius') ** 2 * num('length')
    elif tag == 'capsule':
        r = num('radius')
        volume = np.pi * r * r * num('length') + 4.0 / 3.0 * np.pi * r ** 3
    elif tag == 'ellipsoid':
        radii = element_numbers(shape.find('radii'), (3,), source)
        volume = 4.0 / 3.0 * np.pi * float(np.prod(radii))
    else:
        return None
    xyz, _ = read_pose(collision.find('pose'), source)
    return volume, xyz


def _pick_model(root: ET.Element, source: str) -> ET.Element:
    models = list(root.iter('model'))
    if not models:
        raise element_error('no <model> in the SDF document', source, root)
    for model in models:
        if any(is_uwv_plugin(p) or is_gz_hydrodynamics_plugin(p)
               for p in model.findall('plugin')):
            return model
    return models[0]


def sdf_from_root(root: ET.Element, source: str) -> VehicleParams:
    """Build VehicleParams from a parsed <sdf> element."""
    if root.tag != 'sdf':
        raise element_error('expected an SDF <sdf> root element, got <%s>' % root.tag,
                            source, root)
    model = _pick_model(root, source)
    plugins = model.findall('plugin')
    uwv = [p for p in plugins if is_uwv_plugin(p)]
    gz = [p for p in plugins if is_gz_hydrodynamics_plugin(p)]
    for plugin in plugins:
        if plugin not in uwv + gz and is_hydro_plugin(plugin):
            raise foreign_plugin_error(plugin, source, 'a gz-sim Hydrodynamics and a '
                                       'uwv_hydro plugin in an SDF model')
    for group in (uwv, gz):
        if len(group) > 1:
            raise element_error('more than one such plugin in the model', source, group[1])
    links = model.findall('link')
    if not links:
        raise element_error('model has no <link>', source, model)
    wanted = ''
    for plugin in uwv + gz:
        name_elem = plugin.find('link_name')
        if name_elem is not None and (name_elem.text or '').strip():
            wanted = wanted or (name_elem.text or '').strip()
    wanted = wanted or model.get('canonical_link', '')
    link = links[0]
    if wanted:
        named = [lk for lk in links if lk.get('name') == wanted]
        if not named:
            raise element_error('link %r named by the plugin or canonical_link does not '
                                'exist' % wanted, source, model)
        link = named[0]
    inertial = link.find('inertial')
    if inertial is None or inertial.find('mass') is None:
        raise element_error('canonical link has no <inertial><mass>', source,
                            inertial if inertial is not None else link)
    check_children(inertial, 'sdf/inertial', source)
    mass = float_text(inertial.find('mass'), source)
    com, rot = read_pose(inertial.find('pose'), source)
    values = dict(_INERTIA_DEFAULTS)
    inertia_elem = inertial.find('inertia')
    if inertia_elem is not None:
        check_children(inertia_elem, 'sdf/inertia', source)
        for child in inertia_elem:
            values[child.tag] = float_text(child, source)
    v = values
    inertia = np.array([[v['ixx'], v['ixy'], v['ixz']], [v['ixy'], v['iyy'], v['iyz']],
                        [v['ixz'], v['iyz'], v['izz']]])
    params = VehicleParams(mass=mass, inertia=rot @ inertia @ rot.T, com=com,
                           name=model.get('name', 'vehicle'),
                           base_frame=link.get('name', 'base_link'), source=source)
    set_origin(params, RIGID_BODY_FIELDS, '%s (SDF <inertial> of link %s)'
               % (source, link.get('name', '')))
    fam = inertial.findall('fluid_added_mass')
    if len(fam) > 1:
        raise element_error('duplicate <fluid_added_mass>', source, fam[1])
    if fam:
        params.added_mass = read_fluid_added_mass(
            fam[0], source, params.coefficient_labels.setdefault('added_mass', {}))
        set_origin(params, ['added_mass'], '%s:%s (SDF <fluid_added_mass>)'
                   % (source, element_line(fam[0])))
    warnings: List[str] = []
    density = apply_gz_hydrodynamics(gz[0], params, source) if gz else None
    params.drag_center = np.zeros(3)
    params.drag_velocity_point = np.zeros(3)
    params.added_mass_point = np.zeros(3)
    params.semantics = 'origin'
    for world_plugin in root.iter('plugin'):
        dens = world_plugin.find('uniform_fluid_density')
        if dens is not None and 'buoyancy' in (world_plugin.get('filename', '')
                                               + world_plugin.get('name', '')).lower():
            density = float_text(dens, source)
    gravity = root.find('.//world/gravity')
    if gravity is not None:
        params.gravity = float(np.linalg.norm(element_numbers(gravity, (3,), source)))
    params.fluid_density = density if density is not None else params.fluid_density
    _buoyancy(params, link, uwv[0] if uwv else None, source, warnings)
    params.warnings.extend(warnings)
    hull = uwv[0].find('hull') if uwv else None
    if hull is not None:
        check_children(hull, 'hull', source)
        finish_hull(params, read_xml_hull(hull, source), where(source, hull))
    return params


def _buoyancy(params: VehicleParams, link: ET.Element, plugin: Optional[ET.Element],
              source: str, warnings: List[str]) -> None:
    values = {}
    if plugin is not None:
        check_children(plugin, 'sdf/uwv_plugin', source)
        set_origin(params, ('buoyancy_mass', 'cob', 'surface'), '%s:%s (uwv_hydro plugin)'
                   % (source, element_line(plugin)))
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
        if 'buoyancy_mass' in values:
            params.buoyancy_mass = values['buoyancy_mass']
            return
        if 'volume' in values:
            params.buoyancy_mass = values['volume'] * params.fluid_density
            return
    shapes = []
    for collision in link.findall('collision'):
        found = _collision_volume(collision, source)
        if found is None:
            warnings.append('collision %r: only box, sphere, cylinder, capsule and '
                            'ellipsoid volumes count for buoyancy'
                            % collision.get('name', ''))
        else:
            shapes.append(found)
    total = sum(s[0] for s in shapes)
    if total > 0.0:
        set_origin(params, ('buoyancy_mass', 'cob'), '%s (collision volumes of link %s)'
                   % (source, link.get('name', '')))
        params.buoyancy_mass = total * params.fluid_density
        if plugin is None or plugin.find('center_of_buoyancy') is None:
            params.cob = sum(s[0] * s[1] for s in shapes) / total


def load_sdf_string(text: str, source: str = '<sdf>') -> VehicleParams:
    """Parse SDF text safely."""
    return sdf_from_root(parse_xml_string(text, source), source)


def load_sdf_file(path: str) -> VehicleParams:
    """Parse the SDF file at ``path`` safely."""
    if not path:
        raise DescriptionError('no SDF path given')
    return sdf_from_root(parse_xml_file(path), path)
