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
Read a uuv_simulator underwater-object block (``libuuv_underwater_object_ros_plugin``).

Layout, as uuv_gazebo_plugins' UnderwaterObjectPlugin and HydrodynamicModel read it:
``<fluid_density>``, ``<flow_velocity_topic>``, ``<use_global_current>``, ``<debug>``
and one ``<link name>`` per link with ``<volume>``, ``<neutrally_buoyant>``, ``<box>``
(surface transition), ``<center_of_buoyancy>`` (link frame, FLU) and
``<hydrodynamic_model>`` (``<type>fossen</type>``: ``<added_mass>`` 36 numbers,
``<linear_damping>`` and ``<quadratic_damping>`` 6 or 36, NEGATIVE for damping).

Semantics (HMFossen::ApplyHydrodynamicForces): the link-origin twist relative to
the current is turned into NED/FRD with T = diag(1, -1, -1, 1, -1, -1); there
tau = D_lin nu + diag(D_q) |nu| nu - M_a nu_dot - C_A(nu) nu (Fossen 2011,
C_A eq. 6.43) and the wrench is turned back with T.  In uwv_hydro's positive
convention, in FLU: L = -T D_lin T, Q[i, i, i] = -D_q[i], M_A = T M_a T, all with the
twist of the link origin; ``linear_damping_forward_speed`` is read as
``forward_speed_drag`` L_u = -T D_fwd T (``HMFossen::ComputeDampingMatrix``).  Only
the diagonal of a 36-element quadratic_damping is used (with a warning); the
surface-vessel model is an error; the acceleration filter is uuv's fixed 0.3.

Points of application (Gazebo classic applies the force at the CoM:
``drag_velocity_point`` = origin, ``drag_center`` = com, buoyancy at com +
<center_of_buoyancy>, added mass at the origin with a warning when com != 0), the
surface scaling of the volume and the per-link blocks (:func:`uuv_link_parts`, each
link's own Gazebo classic body, :mod:`uwv_hydro.description.classic_base_body`) are
explained in doc/guide/semantics.md ("uuv_simulator in Gazebo classic: forces at the
centre of mass") and doc/guide/uuv_dave_dssim.md.
``<type>cylinder</type>`` (uuv_manipulators' arms) is HMFossen with its diagonal
computed from the cylinder's size (:mod:`uwv_hydro.description.uuv.cylinder_model`).
"""
from typing import Dict, List, Optional, Tuple
import xml.etree.ElementTree as ET

import numpy as np

from uwv_hydro.description.conventions import T6
from uwv_hydro.description.element_report import record, where
from uwv_hydro.description.name_checks import check_children
from uwv_hydro.description.provenance import HYDRO_FIELDS, set_origin
from uwv_hydro.description.uuv.cylinder_model import CYLINDER_CHILDREN, cylinder_coefficients
from uwv_hydro.description.xml_safe import (
    element_error, element_line, element_numbers, element_path)
from uwv_hydro.description.xml_values import flag_text, float_text
from uwv_hydro.physics.articulated.model.link_tree import LinkHydroPart
from uwv_hydro.physics.body.vehicle_params import SurfaceTransition, VehicleParams

#: uuv_simulator's default fluid density (kg/m^3), UnderwaterObjectPlugin.
UUV_DEFAULT_FLUID_DENSITY = 1028.0
#: uuv_simulator's fixed acceleration filter constant (HMFossen::ComputeAcc).
UUV_ACCELERATION_ALPHA = 0.3

#: uuv_simulator UnderwaterObjectPlugin / HydrodynamicModel (HMFossen) elements.
PLUGIN_CHILDREN = ('fluid_density', 'flow_velocity_topic', 'use_global_current', 'debug',
                   'link')
LINK_CHILDREN = ('volume', 'center_of_buoyancy', 'box', 'neutrally_buoyant',
                 'hydrodynamic_model', 'metacentric_width', 'metacentric_length',
                 'water_level_plane_area')
BOX_CHILDREN = ('width', 'length', 'height')
MODEL_CHILDREN = ('type', 'added_mass', 'linear_damping', 'linear_damping_forward_speed',
                  'quadratic_damping')


def is_uuv_plugin(elem: ET.Element) -> bool:
    """Return True for a uuv_simulator underwater-object <plugin>."""
    text = (elem.get('filename', '') + ' ' + elem.get('name', '')).lower()
    return elem.tag == 'plugin' and 'underwater_object' in text


def _matrix(elem: ET.Element, source: str, sizes=(6, 36)) -> np.ndarray:
    """Return a 6x6 matrix from 36 numbers (row-major) or 6 (the diagonal)."""
    values = element_numbers(elem, sizes, source)
    return np.diag(values) if values.size == 6 else values.reshape(6, 6)


def _token_lines(elem: ET.Element) -> List[Optional[int]]:
    """Return the source line of each number of ``elem``'s text (None if unknown)."""
    first = element_line(elem)
    lines: List[Optional[int]] = []
    for k, row in enumerate((elem.text or '').split('\n')):
        lines += [None if first is None else first + k] * len(row.split())
    return lines


def _labels(elem: ET.Element, order: int) -> dict:
    """
    Name each coefficient as uuv_simulator holds it: row and column of its matrix.

    uuv_simulator's matrices have no letters: an entry is its (row, column), 1-based,
    in uuv's NED/FRD order (u v w p q r, the same order as ours), with the line of the
    number in the file (a matrix written over several lines names the right one).
    """
    path, line = element_path(elem), element_line(elem)
    lines = _token_lines(elem)
    out = {}
    for idx in np.ndindex(*(6,) * order):
        if order == 2:
            pos = 6 * idx[0] + idx[1] if len(lines) == 36 else (
                idx[0] if idx[0] == idx[1] and len(lines) == 6 else None)
            name = '%s[%d,%d]' % (path, idx[0] + 1, idx[1] + 1)
            if T6[idx[0]] * T6[idx[1]] < 0.0:
                name += ' (NED, value shown in FLU)'
        else:
            pos = idx[0] if len(lines) == 6 else 7 * idx[0] if len(lines) == 36 else None
            name = '%s[%d]' % (path, idx[0] + 1)
        out[idx] = (name, lines[pos] if pos is not None else line)
    return out


class _LinkValues:
    """What one ``<link>`` block gives (the attributes VehicleParams has too)."""

    def __init__(self):
        self.buoyancy_mass = 0.0
        self.cob = np.zeros(3)
        self.surface: Optional[SurfaceTransition] = None
        self.added_mass = np.zeros((6, 6))
        self.linear_drag = np.zeros((6, 6))
        self.quadratic_drag = np.zeros((6, 6, 6))
        self.forward_speed_drag = np.zeros((6, 6))
        self.drag_center = np.zeros(3)
        self.drag_velocity_point = np.zeros(3)
        self.coefficient_labels: dict = {}


def _read_model(model: ET.Element, params, source: str, warnings: List[str],
                box: Optional[List[float]] = None) -> str:
    """Read a hydrodynamic_model into ``params`` (VehicleParams or _LinkValues); its type."""
    kind = model.find('type')
    kind = (kind.text or '').strip() if kind is not None else ''
    if kind not in ('fossen', 'cylinder'):
        raise element_error('uuv_simulator hydrodynamic_model type %r is not read (only '
                            "'fossen' with explicit coefficients and 'cylinder' are)" % kind,
                            source, model)
    check_children(model, MODEL_CHILDREN + (CYLINDER_CHILDREN if kind == 'cylinder' else ()),
                   source)
    flip = np.outer(T6, T6)
    elem = model.find('added_mass')
    if elem is not None:
        # FRD -> FLU: M_A = T M_a T (T = diag(1, -1, -1, 1, -1, -1))
        params.added_mass = _matrix(elem, source, (36,)) * flip
        params.coefficient_labels['added_mass'] = _labels(elem, 2)
    elem = model.find('linear_damping')
    if elem is not None:
        # uuv force +D_lin nu (negative damps) -> L = -T D_lin T
        params.linear_drag = -_matrix(elem, source) * flip
        params.coefficient_labels['linear_drag'] = _labels(elem, 2)
    elem = model.find('quadratic_damping')
    if elem is not None:
        d_q = _matrix(elem, source)
        if np.any(d_q - np.diag(np.diag(d_q))):
            warnings.append('uuv_simulator uses only the diagonal of <quadratic_damping>; '
                            'its off-diagonal terms are ignored here too')
        quad = np.zeros((6, 6, 6))
        for i in range(6):
            # uuv force +D_q[i] |nu_i| nu_i (negative damps) -> Q[i, i, i] = -D_q[i]
            quad[i, i, i] = -d_q[i, i]
        params.quadratic_drag = quad
        params.coefficient_labels['quadratic_drag'] = _labels(elem, 3)
    elem = model.find('linear_damping_forward_speed')
    if elem is not None:
        # HMFossen::ComputeDampingMatrix: D = -D_lin - u D_fwd, force -D v = u D_fwd v
        # (u the signed NED surge = FLU surge) -> wrench -u L_u nu with L_u = -T D_fwd T
        params.forward_speed_drag = -_matrix(elem, source) * flip
        params.coefficient_labels['forward_speed_drag'] = _labels(elem, 2)
    if kind == 'cylinder':
        # HMCylinder overwrites these diagonal terms (uuv/cylinder_model.py)
        added, quad_diag = cylinder_coefficients(model, box, source)
        params.added_mass = np.array(params.added_mass, float)
        params.quadratic_drag = np.array(params.quadratic_drag, float)
        for i, value in added.items():
            params.added_mass[i, i] = value
        for i, value in quad_diag.items():
            params.quadratic_drag[i, i, i] = value
        for key in ('added_mass', 'quadratic_drag'):
            params.coefficient_labels.pop(key, None)
    return kind


def _read_link(link: ET.Element, out, com: np.ndarray, mass: float, density: float,
               source: str, warnings: List[str]) -> ET.Element:
    """
    Read one ``<link>`` block into ``out``; return its hydrodynamic_model element.

    ``com`` is the centre of mass the forces act at (Gazebo classic applies the force
    at the CoM), ``mass`` the one ``neutrally_buoyant`` balances.
    """
    check_children(link, LINK_CHILDREN, source)
    for tag in ('metacentric_width', 'metacentric_length', 'water_level_plane_area'):
        if link.find(tag) is not None:
            raise element_error('uuv_simulator surface-vessel model <%s> is not read' % tag,
                                source, link.find(tag))
    volume = link.find('volume')
    out.buoyancy_mass = float_text(volume, source) * density if volume is not None else 0.0
    neutral = link.find('neutrally_buoyant')
    if neutral is not None and flag_text(neutral, source):
        # BuoyantObject::SetNeutrallyBuoyant: volume = mass / fluid_density
        out.buoyancy_mass = mass
    cob = link.find('center_of_buoyancy')
    # AddForceAtRelativePosition (dBodyAddForceAtRelPos): position relative to the CoM
    out.cob = com + (element_numbers(cob, (3,), source) if cob is not None else np.zeros(3))
    box = link.find('box')
    height, edges = None, None
    if box is not None:
        check_children(box, BOX_CHILDREN, source)
        if box.find('height') is not None:
            height = float_text(box.find('height'), source)
        if all(box.find(tag) is not None for tag in BOX_CHILDREN):
            # HydrodynamicModel: bounding box x = width, y = length, z = height
            edges = [float_text(box.find(tag), source) for tag in BOX_CHILDREN]
    if height is not None and height > 0.0:
        # BuoyantObject::GetBuoyancyForce: V (d + h/2) / h for 0 < d < h/2, 0 for d <= 0
        out.surface = SurfaceTransition(out_of_water_depth=0.0,
                                        fully_submerged_depth=0.5 * height,
                                        scale_factor=0.5, model='dsros')
    model = link.find('hydrodynamic_model')
    if model is None:
        raise element_error('uuv_simulator <link> without <hydrodynamic_model>', source, link)
    _read_model(model, out, source, warnings, edges)
    # HMFossen: link-origin twist; AddRelativeForce (dBodyAddRelForce) acts at the CoM
    out.drag_center = np.array(com, float)
    out.drag_velocity_point = np.zeros(3)
    return model


def link_blocks(plugin: ET.Element, source: str, warnings: List[str]) -> dict:
    """
    Return {link name: <link> block} of an underwater-object plugin.

    As UnderwaterObjectPlugin::Load: a block without ``name`` is skipped (gzwarn), a
    name given twice keeps the last block (``models[link]`` is overwritten); both are
    warned about here.
    """
    blocks = {}
    for link in plugin.findall('link'):
        name = link.get('name')
        if not name:
            warnings.append('%s: uuv_simulator <link> block without a name: skipped, as '
                            'uuv_simulator skips it' % where(source, link))
            continue
        if name in blocks:
            warnings.append('%s: second uuv_simulator block for link %r: it replaces the '
                            'first, as in uuv_simulator' % (where(source, link), name))
        blocks[name] = link
    return blocks


def uuv_link_parts(plugin: ET.Element, links, inertials: dict, source: str,
                   warnings: List[str], base: str = '', bodies=None,
                   merged: Optional[Dict[str, str]] = None) -> dict:
    """
    Return {link: LinkHydroPart in its link frame} of every ``<link>`` block of ``plugin``.

    ``links``: the robot's link names; ``inertials``: {link: (mass, com, inertia)} in
    the link frame.  Semantics as the module docstring says, per link: buoyancy at the
    link's CoM + ``<center_of_buoyancy>``, drag on the link-origin twist acting at the
    link's CoM, added mass about the link origin.  ``bodies(link)`` -> (mass, CoM in the
    link frame) of the link's Gazebo classic body (the link and its fixed-joint
    descendants, :mod:`uwv_hydro.description.classic_base_body`): the CoM and the mass
    ``neutrally_buoyant`` balances; None: the link's own inertial.  A block naming no
    link of the robot, or a link Gazebo classic merged into its parent (``merged``:
    {link: the fixed joint}), is skipped with a warning, as uuv_simulator skips it
    ("Specified link not found").
    """
    density_elem = plugin.find('fluid_density')
    density = (float_text(density_elem, source) if density_elem is not None
               else UUV_DEFAULT_FLUID_DENSITY)
    parts, no_box = {}, []
    for name, block in link_blocks(plugin, source, warnings).items():
        if name not in links:
            warnings.append('%s: uuv_simulator block for link %r, which the robot does not '
                            'have: skipped, as uuv_simulator skips it'
                            % (where(source, block), name))
            continue
        if merged and name in merged:
            warnings.append('%s: uuv_simulator block for link %r, which Gazebo classic '
                            'merges into its parent across the fixed joint %r: skipped, as '
                            'uuv_simulator skips it ("Specified link not found")'
                            % (where(source, block), name, merged[name]))
            continue
        if bodies is not None:
            mass, com = bodies(name)
        else:
            mass, com = inertials.get(name, (0.0, np.zeros(3), None))[:2]
        values = _LinkValues()
        _read_link(block, values, np.asarray(com, float), mass, density, source, warnings)
        if values.surface is None and name != base:  # the base's: apply_uuv_block's
            no_box.append(name)
        if np.any(values.forward_speed_drag):
            warnings.append('%s: <linear_damping_forward_speed> of link %r is not kept in '
                            'its per-link hydrodynamics (the lumped vehicle keeps the base '
                            "link's)" % (where(source, block), name))
        parts[name] = LinkHydroPart(
            link=name, buoyancy_mass=values.buoyancy_mass, cob=values.cob,
            surface=values.surface, added_mass=values.added_mass,
            linear_drag=values.linear_drag, quadratic_drag=values.quadratic_drag,
            drag_velocity_point=values.drag_velocity_point,
            drag_center=values.drag_center, where=where(source, block))
    if no_box:
        warnings.append('uuv_simulator blocks without <box><height> (links %s): their '
                        'buoyancy is full at every depth here (uuv_simulator scales it near '
                        'the surface with the link bounding box, unknown here)'
                        % ', '.join(map(repr, no_box)))
    return parts


def _base_link_block(plugin: ET.Element, base: str, source: str,
                     tree_links=()) -> ET.Element:
    links = plugin.findall('link')
    for link in links:
        if link.get('name', '') != base and link.get('name', '') not in tree_links:
            raise element_error('uuv_simulator block for link %r: only the base link %r is '
                                'read (one rigid body; a link block is kept per link only '
                                'when a joint that moves carries links with hydro)'
                                % (link.get('name', ''), base), source, link)
    found = [link for link in links if link.get('name', '') == base]
    if not found:
        raise element_error('uuv_simulator block has no <link name=%r>' % base, source,
                            plugin)
    return found[-1]


def apply_uuv_block(plugin: ET.Element, params: VehicleParams, source: str,
                    base: Optional[str] = None, tree_links=(),
                    body: Optional[Tuple[float, np.ndarray]] = None) -> VehicleParams:
    """
    Fill buoyancy, surface, drag and added mass of ``params`` from the base link's block.

    Blocks of other links are an error unless named in ``tree_links`` (the links the
    vehicle's kinematic tree keeps with their own hydro: :func:`uuv_link_parts`).
    ``body``: (mass, CoM) of the base link's own Gazebo classic body
    (:mod:`uwv_hydro.description.classic_base_body`), where the plugin's forces act and what
    ``neutrally_buoyant`` balances; None: the lumped vehicle's.
    """
    check_children(plugin, PLUGIN_CHILDREN, source)
    link = _base_link_block(plugin, base or params.base_frame, source, tree_links)
    set_origin(params, HYDRO_FIELDS + ('fluid_density',),
               '%s:%s (uuv_simulator underwater object)' % (source, element_line(plugin)))
    warnings: List[str] = []
    density = plugin.find('fluid_density')
    params.fluid_density = (float_text(density, source) if density is not None
                            else UUV_DEFAULT_FLUID_DENSITY)
    mass, com = (params.mass, params.com) if body is None else body
    com = np.asarray(com, float).reshape(3)
    params.surface = None  # _read_link sets it from <box><height>
    model = _read_link(link, params, com, mass, params.fluid_density, source, warnings)
    if params.surface is None:
        params.surface = SurfaceTransition()
        warnings.append('uuv_simulator block without <box><height>: uuv_simulator scales '
                        'buoyancy near the surface with the link bounding box, unknown '
                        'here; full buoyancy is used at every depth')
    # (the plugin itself is recorded by plugin_inventory with the other <plugin>s)
    forward = np.any(params.forward_speed_drag)
    kind = (model.findtext('type') or '').strip()
    record(params, 'hydrodynamic_model', kind, where(source, model), 'read',
           "force at the base link's own CoM, link-origin twist (Gazebo classic)"
           + (', forward-speed damping' if forward else ''))
    params.added_mass_point = np.zeros(3)
    if np.any(com) and np.any(params.added_mass):
        warnings.append(
            'uuv_simulator block with the centre of mass at %s m: Gazebo classic applies '
            "uuv's added-mass force at the CoM (AddRelativeForce), uwv_hydro at the link "
            'origin (added_mass_point); their moments differ by com x F_A'
            % np.array2string(com, precision=4))
    params.semantics = 'origin'
    params.acceleration_alpha = UUV_ACCELERATION_ALPHA
    params.warnings.extend(warnings)
    return params
