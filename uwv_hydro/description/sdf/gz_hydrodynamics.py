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
Convert gz-sim Hydrodynamics system parameters to uwv_hydro coefficients.

Read against gz-sim ``src/systems/hydrodynamics/Hydrodynamics.cc`` (Garden and
later).  Names use SNAME letters: force/moment ``x y z k m n`` and velocity
``U V W P Q R`` (index 0..5 in both):

* ``<xU>`` ... ``<nR>``: linear stability derivative D_lin[i, j] (e.g. ``yR``);
* ``<xUabsU>``, ``<xUabsV>``, ...: quadratic derivative D_abs[i, j, k] named
  force i + SIGNED velocity j + ``abs`` + ABS velocity k;
* ``<xUU>``, ``<xUV>``, ...: signed quadratic D_sig[i, j, k] nu_j nu_k (gz-sim's
  ``buildDampingMatrix``; it warns such terms may be unstable, gz-sim PR 1888, and so
  does this reader);
* ``<xDotU>`` ... ``<nDotR>``: added-mass derivative Ma[i, j].

gz-sim uses Fossen's signs (negative for dissipation and added mass); uwv_hydro's
coefficients are positive, F_a = -L_ab nu_b - Q_abc |nu_b| nu_c - M_A,ab nu_dot_b:
L[i, j] = -D_lin[i, j]; Q[i, k, j] = -D_abs[i, j, k] (``xUabsV`` -> Q[x, v, u]);
S[i, j, k] = -D_sig[i, j, k] (signed_quadratic_drag); M_A[i, j] = -Ma[i, j].  All
terms act at the link origin with the link-origin twist (``semantics='origin'``);
``<water_density>`` (deprecated ``<waterDensity>``) defaults to 998 kg/m^3 as in gz-sim.
``<disable_added_mass>`` zeroes M_A; ``<disable_coriolis>`` sets
``added_mass_coriolis = False`` (the rigid body's Coriolis is the engine's, always on).

The added-mass Coriolis term is NOT copied: gz-sim builds it from the diagonal of Ma
and with the opposite sign to Fossen's -C_A(nu) nu, which uwv_hydro computes from the
full M_A, so that one component differs (doc/guide/semantics.md, "gz-sim's added-mass
Coriolis sign (2026)"; test/unit/description/test_gz_added_mass_coriolis.py).  In an SDF
model each block is moved from its link to the base
(:mod:`uwv_hydro.description.link_hydrodynamics`);
:func:`apply_gz_hydrodynamics` (URDF) requires the block's link to be the base link.
"""
import re
from typing import Dict, List, Optional
import xml.etree.ElementTree as ET

import numpy as np

from uwv_hydro.description.conventions import GZ_FORCE_LETTERS, GZ_VELOCITY_LETTERS
from uwv_hydro.description.name_checks import unknown_reason
from uwv_hydro.description.overflow_bounds import beyond, MAX_SIGNED_QUADRATIC
from uwv_hydro.description.provenance import set_origin
from uwv_hydro.description.xml_safe import (
    element_error, element_line, element_numbers, element_path)
from uwv_hydro.description.xml_values import float_text
from uwv_hydro.physics.body.vehicle_params import VehicleParams

#: gz-sim's default water density (kg/m^3).
GZ_DEFAULT_WATER_DENSITY = 998.0

_F = '([%s])' % GZ_FORCE_LETTERS
_V = '([%s])' % GZ_VELOCITY_LETTERS
_LINEAR = re.compile('^%s%s$' % (_F, _V))
_ABS = re.compile('^%s%sabs%s$' % (_F, _V, _V))
_DOT = re.compile('^%sDot%s$' % (_F, _V))
_SIGNED = re.compile('^%s%s%s$' % (_F, _V, _V))
#: gz-sim's warning on signed quadratic terms (Hydrodynamics.cc, Configure), restated.
SIGNED_WARNING = ('gz-sim Hydrodynamics signed quadratic terms %s: gz-sim applies them as '
                  'coefficient * %s (both velocities signed, not |U| U) and warns that they '
                  'may make a simulation unstable; it suggests renaming <xUU> to <xUabsU> '
                  '(and likewise for the other axes; gz-sim PR 1888)')

#: Plugin elements that are not coefficients and are understood or harmless.
OTHER_ELEMENTS = ('link_name', 'namespace', 'default_current', 'water_density',
                  'waterDensity', 'disable_coriolis', 'disable_added_mass',
                  'lookup_current_x', 'lookup_current_y', 'lookup_current_z')


def is_gz_hydrodynamics_plugin(elem: ET.Element) -> bool:
    """
    Return True for a gz-sim / ignition-gazebo Hydrodynamics <plugin>.

    gz-sim loads a system by its library (``gz-sim-hydrodynamics-system``,
    ``[lib]ignition-gazebo-hydrodynamics-system[.so]``) and class name
    (``gz::sim::systems::Hydrodynamics``, ``ignition::gazebo::systems::Hydrodynamics``);
    either one names it (LRAUV's ``tethys::HydrodynamicsPlugin`` is neither).
    """
    filename = elem.get('filename', '').lower()
    name = elem.get('name', '').lower()
    return elem.tag == 'plugin' and ('hydrodynamics-system' in filename
                                     or name.endswith('systems::hydrodynamics'))


def _flag(elem: ET.Element) -> bool:
    return (elem.text or '').strip().lower() in ('1', 'true')


def read_gz_hydrodynamics(plugin: ET.Element, source: str) -> Dict[str, object]:
    """
    Return uwv_hydro quantities from a gz-sim Hydrodynamics plugin element.

    Keys: linear_drag (6x6), quadratic_drag (6x6x6), signed_quadratic_drag (6x6x6),
    added_mass (6x6),
    fluid_density (density_line: its element's line, None for the default), link_name,
    added_mass_coriolis, current (3 or None), warnings (list),
    labels ({field: {index: (element path, line)}}).
    """
    linear = np.zeros((6, 6))
    quad = np.zeros((6, 6, 6))
    signed = np.zeros((6, 6, 6))
    signed_tags: List[str] = []
    added = np.zeros((6, 6))
    out: Dict[str, object] = {'fluid_density': GZ_DEFAULT_WATER_DENSITY, 'density_line': None,
                              'link_name': '',
                              'added_mass_coriolis': True, 'current': None}
    warnings: List[str] = []
    seen = set()
    disable_added_mass = False
    fi, vi = GZ_FORCE_LETTERS.index, GZ_VELOCITY_LETTERS.index
    labels: Dict[str, dict] = {'linear_drag': {}, 'quadratic_drag': {}, 'added_mass': {},
                               'signed_quadratic_drag': {}}
    for child in plugin:
        tag = child.tag
        if tag in seen:
            raise element_error('duplicate <%s>' % tag, source, child)
        seen.add(tag)
        where = ('%s (gz-sim %s = %s; uwv_hydro uses its negative)'
                 % (element_path(child), tag, (child.text or '').strip()), element_line(child))
        m = _LINEAR.match(tag)
        if m:
            idx = (fi(m.group(1)), vi(m.group(2)))
            linear[idx] = -float_text(child, source)  # L = -D_lin (module docstring)
            labels['linear_drag'][idx] = where
            continue
        m = _ABS.match(tag)
        if m:
            i, j, k = fi(m.group(1)), vi(m.group(2)), vi(m.group(3))
            quad[i, k, j] = -float_text(child, source)  # Q[i, k, j] = -D_abs[i, j, k]
            labels['quadratic_drag'][(i, k, j)] = where
            continue
        m = _DOT.match(tag)
        if m:
            idx = (fi(m.group(1)), vi(m.group(2)))
            added[idx] = -float_text(child, source)  # M_A = -Ma
            labels['added_mass'][idx] = where
            continue
        m = _SIGNED.match(tag)
        if m:
            i, j, k = fi(m.group(1)), vi(m.group(2)), vi(m.group(3))
            value = float_text(child, source)
            reason = beyond(value, MAX_SIGNED_QUADRATIC, '<%s>' % tag)
            if reason is not None:
                raise element_error(reason, source, child)
            signed[i, j, k] = -value  # S[i, j, k] = -D_sig[i, j, k]
            labels['signed_quadratic_drag'][(i, j, k)] = where
            signed_tags.append('<%s>' % tag)
            continue
        if tag in ('water_density', 'waterDensity'):
            out['fluid_density'] = float_text(child, source)
            out['density_line'] = element_line(child)
        elif tag == 'link_name':
            out['link_name'] = (child.text or '').strip()
        elif tag == 'disable_coriolis':
            out['added_mass_coriolis'] = not _flag(child)
            if not out['added_mass_coriolis']:
                warnings.append('gz-sim <disable_coriolis>: added-mass Coriolis (Munk) terms '
                                'disabled (added_mass_coriolis: false); the rigid-body '
                                'Coriolis stays on, as in gz-sim')
        elif tag == 'disable_added_mass':
            disable_added_mass = _flag(child)
        elif tag == 'default_current':
            out['current'] = element_numbers(child, (3,), source)
        elif tag not in OTHER_ELEMENTS:
            raise element_error(unknown_reason('gz-sim Hydrodynamics parameter', tag,
                                               known_parameters(), '<%s>'), source, child)
    if signed_tags:  # gz-sim warns whenever such an element is present, zero or not
        warnings.append(SIGNED_WARNING % (', '.join(signed_tags), 'U * U'))
    if disable_added_mass:
        added[:] = 0.0
        warnings.append('gz-sim <disable_added_mass>: added mass set to zero')
    out.update(linear_drag=linear, quadratic_drag=quad, added_mass=added,
               signed_quadratic_drag=signed,
               warnings=warnings, labels=labels)
    return out


def apply_gz_hydrodynamics(plugin: ET.Element, params: VehicleParams, source: str,
                           link: Optional[str] = None) -> float:
    """
    Set drag, added-mass Coriolis switch and reference points of ``params`` from the block.

    Its added mass is summed onto ``params.added_mass`` (gz-sim applies both an SDF
    ``<fluid_added_mass>`` and this one).  ``link``: the link the block must name (when
    it names one).  Warnings go to ``params.warnings``; returns the block's density.
    """
    values = read_gz_hydrodynamics(plugin, source)
    if link is not None and values['link_name'] and values['link_name'] != link:
        raise element_error('gz-sim Hydrodynamics <link_name> %r is not the base link %r'
                            % (values['link_name'], link), source, plugin)
    set_origin(params, ('linear_drag', 'quadratic_drag', 'signed_quadratic_drag',
                        'added_mass_coriolis')
               + (('added_mass',) if np.any(values['added_mass']) else ()),
               '%s:%s (gz-sim Hydrodynamics)' % (source, element_line(plugin)))
    for key, labels in values['labels'].items():
        params.coefficient_labels.setdefault(key, {}).update(labels)
    params.linear_drag = values['linear_drag']
    params.quadratic_drag = values['quadratic_drag']
    params.signed_quadratic_drag = values['signed_quadratic_drag']
    params.added_mass = params.added_mass + values['added_mass']
    params.added_mass_coriolis = bool(values['added_mass_coriolis'])
    # every term acts at the link origin with the link-origin twist (module docstring)
    params.drag_center = np.zeros(3)
    params.drag_velocity_point = np.zeros(3)
    params.added_mass_point = np.zeros(3)
    params.semantics = 'origin'
    params.warnings.extend(values['warnings'])
    if values['current'] is not None:
        params.warnings.append('gz-sim <default_current> is not part of the vehicle; pass '
                               'it as the world current')
    return float(values['fluid_density'])


def known_parameters() -> List[str]:
    """Return every parameter name the reader knows (for "did you mean")."""
    f, v = GZ_FORCE_LETTERS, GZ_VELOCITY_LETTERS
    names = ['%s%s' % (a, b) for a in f for b in v]
    names += ['%sDot%s' % (a, b) for a in f for b in v]
    names += ['%s%sabs%s' % (a, b, c) for a in f for b in v for c in v]
    names += ['%s%s%s' % (a, b, c) for a in f for b in v for c in v]
    return names + list(OTHER_ELEMENTS)
