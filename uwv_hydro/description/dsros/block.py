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
Read a dsros_hydro ``<plugin>`` block (filename libdsros_hydro.so, name dsros_hydro).

Layout (every element optional, 0 when absent; see dsros_hydro VEHICLE_MODELLING.md)::

    <plugin name="dsros_hydro" filename="libdsros_hydro.so">
      <base_link>base_link</base_link>
      <buoyancy>
        <center x="" y="" z=""/>          centre of buoyancy in the base link (m)
        <mass>453.592</mass>              vehicle mass as the plugin sees it (kg)
        <buoyancy>455.592</buoyancy>      TOTAL buoyancy as displaced mass (kg)
        <out_of_water_depth/> <fully_submerged_depth/> <scale_factor/> </buoyancy>
      <drag>
        <center x="" y="" z=""/>          centre of drag (default: centre of mass)
        <linear> <xy>..</xy> </linear>    F_a = -L_ab nu_b, tags <ab>
        <quadratic> <xyz>..</xyz> </quadratic>   F_a = -Q_abc |nu_b| nu_c, tags <abc>
        <added_mass> <xx>..</xx> </added_mass>   about the centre of mass, tags <ab>
      </drag>
      <acceleration_alpha>0.3</acceleration_alpha> <allow_nonphysical/> (uwv_hydro's)
    </plugin>

Letters x y z r p h = surge, sway, heave, roll, pitch, heading; the buoyancy force is
<buoyancy> (kg) times gravity.  dsros_hydro evaluates drag with the
centre-of-mass velocity and expresses added mass about it, so the block sets
``semantics='dsros'``, ``drag_velocity_point = com`` and ``added_mass_point = com``,
``com`` that of the base link's own Gazebo classic body (dsros_hydro.cc's
``body_link->GetInertial()->CoG()``: :mod:`uwv_hydro.description.classic_base_body`).
Every element and attribute is checked (:data:`PLUGIN_CHILDREN`): a typo is an error
with "did you mean"; a ``<buoyancy>`` without ``<center>`` is an error and a missing
``<linear>``, ``<quadratic>`` or ``<added_mass>`` a warning, as in dsros_hydro.
"""
from typing import Optional
import xml.etree.ElementTree as ET

import numpy as np

from uwv_hydro.description.conventions import DSROS_LETTERS
from uwv_hydro.description.name_checks import check_attributes, check_children
from uwv_hydro.description.provenance import HYDRO_FIELDS, set_origin
from uwv_hydro.description.validate import coefficient_indices
from uwv_hydro.description.xml_safe import element_error, element_line, element_path
from uwv_hydro.description.xml_values import flag_text, float_attr, float_text
from uwv_hydro.physics.body.vehicle_params import SurfaceTransition, VehicleParams


#: dsros_hydro's plugin elements (ds_sim dsros_hydro.cc; acceleration_alpha,
#: allow_nonphysical and hull at plugin level are uwv_hydro extensions).
PLUGIN_CHILDREN = ('base_link', 'buoyancy', 'drag', 'acceleration_alpha',
                   'allow_nonphysical', 'hull')
BUOYANCY_CHILDREN = ('center', 'mass', 'buoyancy', 'out_of_water_depth',
                     'fully_submerged_depth', 'scale_factor')
DRAG_CHILDREN = ('center', 'linear', 'quadratic', 'added_mass', 'acceleration_alpha')
CENTER_ATTRIBUTES = ('x', 'y', 'z')
_BLOCKS = (('linear', 'linear drag', 2), ('quadratic', 'quadratic drag', 3),
           ('added_mass', 'added mass', 2))
_FIELDS = {'linear': 'linear_drag', 'quadratic': 'quadratic_drag',
           'added_mass': 'added_mass'}


def is_dsros_plugin(elem: ET.Element) -> bool:
    """Return True for a <plugin> element that configures dsros_hydro."""
    filename = elem.get('filename', '')
    return elem.tag == 'plugin' and (
        'dsros_hydro' in filename or elem.get('name', '') == 'dsros_hydro')


def center_xyz(elem: ET.Element, source: str) -> np.ndarray:
    """Return the x, y, z attributes of a <center> element."""
    check_attributes(elem, CENTER_ATTRIBUTES, source)
    return np.array([float_attr(elem, k, source) for k in 'xyz'])


def _single(parent: ET.Element, tag: str, source: str):
    found = parent.findall(tag)
    if len(found) > 1:
        raise element_error('duplicate <%s>' % tag, source, found[1])
    return found[0] if found else None


def read_coefficients(block: ET.Element, what: str, order: int, letters: str,
                      source: str, labels: Optional[dict] = None) -> np.ndarray:
    """
    Read the <ab>/<abc> tags of ``block`` into a dense 6**order array.

    ``labels`` (if given) receives {index: (element path, line)} of each tag.
    """
    out = np.zeros((6,) * order)
    seen = {}
    for child in block:
        idx = coefficient_indices(child.tag, letters, order, what, seen, source,
                                  element_path(child), element_line(child))
        out[idx] = float_text(child, source)
        if labels is not None:
            labels[idx] = (element_path(child), element_line(child))
    return out


def base_link_name(plugin: ET.Element) -> str:
    """Return the <base_link> named by the block ('' when absent)."""
    elem = plugin.find('base_link')
    return (elem.text or '').strip() if elem is not None else ''


def apply_dsros_block(plugin: ET.Element, params: VehicleParams, source: str,
                      body_com=None, body_mass: Optional[float] = None) -> VehicleParams:
    """
    Fill buoyancy, surface, drag and added mass of ``params`` from the block.

    ``body_com``, ``body_mass``: CoM and mass of the base link's own Gazebo classic body
    (:mod:`uwv_hydro.description.classic_base_body`; dsros_hydro.cc takes
    ``body_link->GetInertial()->CoG()`` and turns off only that body's gravity, applying
    ``<buoyancy><mass>`` in its place), None: the lumped vehicle's.
    """
    com = np.array(params.com if body_com is None else body_com, float).reshape(3)
    check_children(plugin, PLUGIN_CHILDREN, source)
    set_origin(params, HYDRO_FIELDS, '%s:%s (dsros_hydro block)'
               % (source, element_line(plugin)))
    buoy = _single(plugin, 'buoyancy', source)
    surface = SurfaceTransition()
    if buoy is None:
        params.warnings.append('dsros_hydro block has no <buoyancy>: no buoyancy')
    else:
        check_children(buoy, BUOYANCY_CHILDREN, source)
        center = _single(buoy, 'center', source)
        if center is None:
            raise element_error('dsros_hydro <buoyancy> without <center> (the centre of '
                                'buoyancy; dsros_hydro stops on this too)', source, buoy)
        params.cob = center_xyz(center, source)
        values = {}
        for tag in ('mass', 'buoyancy', 'out_of_water_depth', 'fully_submerged_depth',
                    'scale_factor'):
            elem = _single(buoy, tag, source)
            if elem is not None:
                values[tag] = float_text(elem, source)
        params.buoyancy_mass = values.get('buoyancy', 0.0)
        surface = SurfaceTransition(
            out_of_water_depth=values.get('out_of_water_depth', 0.0),
            fully_submerged_depth=values.get('fully_submerged_depth', 0.0),
            scale_factor=values.get('scale_factor', 1.0))
        own = params.mass if body_mass is None else body_mass
        if 'mass' in values and abs(values['mass'] - own) > 1e-6 * max(1.0, own):
            # dsros_hydro.cc: <mass> g replaces the body link's gravity (SetGravityMode)
            params.warnings.append(
                "dsros_hydro <buoyancy><mass> %.6g kg differs from the base link's own body, "
                '%.6g kg (the base link and its fixed-joint children, whose gravity it '
                'replaces; the URDF masses are used)' % (values['mass'], own))
    params.surface = surface
    drag = _single(plugin, 'drag', source)
    alpha_elems = plugin.findall('acceleration_alpha')
    if drag is None:
        params.warnings.append('dsros_hydro block has no <drag>: no drag and no added mass')
    else:
        check_children(drag, DRAG_CHILDREN, source)
        center = _single(drag, 'center', source)
        # dsros_hydro.cc: no <center> -> the body link's CoG (None: the vehicle's CoM)
        own = np.any(com != np.asarray(params.com, float).reshape(3))
        params.drag_center = (center_xyz(center, source) if center is not None
                              else com if own else None)
        for tag, what, order in _BLOCKS:
            field = _FIELDS[tag]
            block = _single(drag, tag, source)
            if block is None:
                params.warnings.append('dsros_hydro <drag> has no <%s>: %s is zero'
                                       % (tag, what))
                continue
            labels = params.coefficient_labels.setdefault(field, {})
            setattr(params, field, read_coefficients(block, what, order, DSROS_LETTERS,
                                                     source, labels))
        alpha_elems += drag.findall('acceleration_alpha')
    if len(alpha_elems) > 1:
        raise element_error('duplicate <acceleration_alpha>', source, alpha_elems[1])
    if alpha_elems:
        params.acceleration_alpha = float_text(alpha_elems[0], source)
    allow = _single(plugin, 'allow_nonphysical', source)
    if allow is not None:
        params.allow_nonphysical = params.allow_nonphysical or flag_text(allow, source)
    params.semantics = 'dsros'
    params.drag_velocity_point = com.copy()
    params.added_mass_point = com.copy()
    return params
