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
Read osrf/lrauv's own hydrodynamics plugin (``tethys::HydrodynamicsPlugin``).

Read against osrf/lrauv ``lrauv_gazebo_plugins/src/HydrodynamicsPlugin.cc``
(``Configure`` and ``PreUpdate``), with its element names and defaults:

* added mass ``<xDotU> <yDotV> <zDotW> <kDotP> <mDotQ> <nDotR>`` (defaults 5, 5, 0.1,
  0.1, 0.1, 1), a diagonal Ma;
* linear drag ``<xU> <yV> <zW> <kP> <mQ> <nR>`` (default 20 each) and quadratic drag
  ``<xUU> <yVV> <zWW> <kPP> <mQQ> <nRR>`` (default 0), diagonal;
* ``<enable_coriolis>`` (default true), ``<link_name>`` (required: the plugin does
  nothing without it), ``<waterDensity>`` (default 997.7735, read but used by no
  force), ``<namespace>`` (current topic), ``<default_current>``.

lrauv applies, in the link frame at the link origin, with the link twist relative to
the current: F_i = Xdot_i nu_dot_i + (X_i + X_ii |nu_i|) nu_i (+ its Coriolis), i.e.
the same forms as gz-sim Hydrodynamics.cc's ``<xDotU>``, ``<xU>`` and ``<xUabsU>``
(Fossen signs: negative for dissipation and added mass) -- so lrauv ``<xUU>`` is
|u| u, gz-sim's ``<xUabsU>``, not Garden's signed u u.  uwv_hydro's positive
coefficients are therefore L_ii = -X_i, Q_iii = -X_ii, M_A,ii = -Xdot_i, exactly as
:mod:`uwv_hydro.description.sdf.gz_hydrodynamics` maps gz-sim's.  Its defaults are positive
(energy-feeding drag, negative added mass): a defaulted coefficient is named in a
warning and the physical checks judge the result.

Differences kept: the Coriolis term (lrauv builds C from the diagonal Ma and adds
+C(nu) nu, with the (0, 5) and (5, 0) entries of Fossen's C_A replaced; uwv_hydro
computes Fossen's -C_A(nu) nu from M_A).  ``<enable_coriolis>false`` drops that
term only (HydrodynamicsPlugin.cc adds kCmatVec only when enableCoriolis): it sets
``added_mass_coriolis = False``, the rigid body's Coriolis staying on.  lrauv's fixed
acceleration filter alpha = 0.9 is uwv_hydro's ``acceleration_alpha`` form: 0.9 here.
"""
from typing import Dict, List
import xml.etree.ElementTree as ET

import numpy as np

from uwv_hydro.description.name_checks import unknown_reason
from uwv_hydro.description.xml_safe import (
    element_error, element_line, element_numbers, element_path)
from uwv_hydro.description.xml_values import float_text

#: lrauv's acceleration filter constant (HydrodynamicsPlugin.cc PreUpdate: alpha = 0.9).
LRAUV_ACCELERATION_ALPHA = 0.9
#: Element -> (kind, index, default) as lrauv's Configure reads them.
PARAMETERS = {
    'xDotU': ('added_mass', 0, 5.0), 'yDotV': ('added_mass', 1, 5.0),
    'zDotW': ('added_mass', 2, 0.1), 'kDotP': ('added_mass', 3, 0.1),
    'mDotQ': ('added_mass', 4, 0.1), 'nDotR': ('added_mass', 5, 1.0),
    'xU': ('linear_drag', 0, 20.0), 'yV': ('linear_drag', 1, 20.0),
    'zW': ('linear_drag', 2, 20.0), 'kP': ('linear_drag', 3, 20.0),
    'mQ': ('linear_drag', 4, 20.0), 'nR': ('linear_drag', 5, 20.0),
    'xUU': ('quadratic_drag', 0, 0.0), 'yVV': ('quadratic_drag', 1, 0.0),
    'zWW': ('quadratic_drag', 2, 0.0), 'kPP': ('quadratic_drag', 3, 0.0),
    'mQQ': ('quadratic_drag', 4, 0.0), 'nRR': ('quadratic_drag', 5, 0.0),
}
#: lrauv's default water density (kg/m^3), HydrodynamicsPlugin.cc.
LRAUV_DEFAULT_WATER_DENSITY = 997.7735
OTHER_ELEMENTS = ('link_name', 'enable_coriolis', 'waterDensity', 'namespace',
                  'default_current')


def is_lrauv_hydrodynamics_plugin(elem: ET.Element) -> bool:
    """Return True for osrf/lrauv's ``tethys::HydrodynamicsPlugin``."""
    name, filename = elem.get('name', ''), elem.get('filename', '')
    return elem.tag == 'plugin' and (
        name.startswith('tethys::') and 'hydrodynamics' in name.lower()
        or filename in ('HydrodynamicsPlugin', 'libHydrodynamicsPlugin.so'))


def read_lrauv_hydrodynamics(plugin: ET.Element, source: str) -> Dict[str, object]:
    """
    Return the plugin's coefficients in uwv_hydro signs (keys as gz_hydrodynamics').

    Keys: linear_drag, quadratic_drag, added_mass, link_name, added_mass_coriolis, current,
    fluid_density, warnings, labels.
    """
    values = {name: spec[2] for name, spec in PARAMETERS.items()}
    given = set()
    out: Dict[str, object] = {'link_name': '', 'added_mass_coriolis': True, 'current': None,
                              'fluid_density': LRAUV_DEFAULT_WATER_DENSITY}
    labels: Dict[str, dict] = {'linear_drag': {}, 'quadratic_drag': {}, 'added_mass': {}}
    warnings: List[str] = []
    for child in plugin:
        tag = child.tag
        if not isinstance(tag, str):
            continue
        if tag in given:
            raise element_error('duplicate <%s>' % tag, source, child)
        given.add(tag)
        if tag in PARAMETERS:
            values[tag] = float_text(child, source)
            kind, i, _ = PARAMETERS[tag]
            index = (i, i, i) if kind == 'quadratic_drag' else (i, i)
            labels[kind][index] = ('%s (lrauv %s = %s; uwv_hydro uses its negative)'
                                   % (element_path(child), tag, (child.text or '').strip()),
                                   element_line(child))
        elif tag == 'link_name':
            out['link_name'] = (child.text or '').strip()
        elif tag == 'enable_coriolis':
            on = (child.text or '').strip().lower() not in ('0', 'false')
            out['added_mass_coriolis'] = on
            if not on:
                warnings.append('lrauv <enable_coriolis>false: added-mass Coriolis (Munk) terms '
                                'disabled (added_mass_coriolis: false); the rigid-body '
                                'Coriolis stays on, as in lrauv')
        elif tag == 'waterDensity':
            out['fluid_density'] = float_text(child, source)
        elif tag == 'default_current':
            out['current'] = element_numbers(child, (3,), source)
        elif tag != 'namespace':
            raise element_error(unknown_reason('lrauv HydrodynamicsPlugin parameter', tag,
                                               list(PARAMETERS) + list(OTHER_ELEMENTS),
                                               '<%s>'), source, child)
    if not out['link_name']:
        raise element_error('lrauv HydrodynamicsPlugin without <link_name> (lrauv fails '
                            'to initialise it)', source, plugin)
    defaulted = [name for name in PARAMETERS if name not in given]
    if defaulted:
        warnings.append('lrauv HydrodynamicsPlugin: %s not given, lrauv defaults used (%s)'
                        % (', '.join(defaulted), ', '.join('%s=%g' % (n, values[n])
                                                           for n in defaulted)))
    linear, quad, added = np.zeros((6, 6)), np.zeros((6, 6, 6)), np.zeros((6, 6))
    for name, (kind, i, _) in PARAMETERS.items():
        # HydrodynamicsPlugin.cc: F_i = Xdot nu_dot_i + (X + X_q |nu_i|) nu_i -> minus signs
        if kind == 'added_mass':
            added[i, i] = -values[name]
        elif kind == 'linear_drag':
            linear[i, i] = -values[name]
        else:
            quad[i, i, i] = -values[name]
    out.update(linear_drag=linear, quadratic_drag=quad, added_mass=added,
               warnings=warnings, labels=labels)
    return out
