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
uuv_simulator's ``cylinder`` hydrodynamic model (HMCylinder), as Gazebo classic runs it.

uuv_manipulators' arms (``oberon7_hydro_model``) give each link
``<hydrodynamic_model><type>cylinder</type><axis>i</axis>``.  HMCylinder is HMFossen
(explicit ``added_mass`` / damping elements are read first) whose diagonal terms are
then overwritten from the cylinder's radius r and length L:

* r = ``<radius>``, else the SMALLEST edge of the link's bounding box (uuv's
  ``<box>``: x = width, y = length, z = height) -- an edge, not half of one, as
  HMCylinder writes it; L = ``<length>``, else the largest edge.
* axis ``i``/``j``/``k`` = x/y/z (default: the direction of the largest edge).
* Added mass along the axis rho pi r^2 (no length factor, as written there), across
  it rho pi r^2 L, about the two cross axes rho pi r^2 L^3 / 12 (Schjolberg 1994).
* Quadratic drag (pressure drag 0.5 rho C_d A): along the axis
  0.5 C_circ pi r^2 rho, across 0.5 C_len r L rho, with C_d from the length ratio
  L / (2 r) (HMCylinder's tables).  Beyond a ratio of 7 HMCylinder leaves C_circ
  uninitialised: refused here.
* rho is 1028 kg/m^3 whatever ``<fluid_density>`` says: HMCylinder's constructor runs
  before UnderwaterObjectPlugin calls SetFluidDensity, so it sees BuoyantObject's
  default (the buoyancy does use ``<fluid_density>``).

All terms are diagonal, hence unchanged by the NED <-> FLU flip; uwv_hydro's
positive signs are the negation of HMCylinder's (it stores -M and -D).
"""
from typing import Optional, Sequence
import xml.etree.ElementTree as ET

import numpy as np

from uwv_hydro.description.xml_safe import element_error
from uwv_hydro.description.xml_values import float_text

#: The density HMCylinder computes with (BuoyantObject's default, kg/m^3).
HMCYLINDER_DENSITY = 1028.0
#: Elements HMCylinder reads beside HMFossen's.
CYLINDER_CHILDREN = ('radius', 'length', 'axis')


def _band(ratio: float, bands) -> Optional[float]:
    """Return the value of the first band (upper bound, value) holding ``ratio``."""
    for upper, value in bands:
        if ratio <= upper:
            return value
    return None


# HMCylinder's tables: (upper bound of L / 2r, C_d); the circular face, the side.
_CD_CIRCULAR = ((1.0, 0.91), (2.0, 0.85), (4.0, 0.87), (7.0, 0.99))
_CD_LENGTH = ((1.0, 0.63), (2.0, 0.68), (5.0, 0.74), (10.0, 0.82), (np.inf, 0.98))


def cylinder_coefficients(model: ET.Element, box: Optional[Sequence[float]], source: str):
    """
    Return (added-mass diagonal {index: value}, quadratic diagonal {index: value}).

    ``box``: the uuv ``<box>`` edges (width x, length y, height z) or None.
    """
    radius_elem, length_elem = model.find('radius'), model.find('length')
    if box is None and (radius_elem is None or length_elem is None):
        raise element_error('uuv_simulator cylinder model without <radius> and <length> '
                            'takes them from the link bounding box: give <box> '
                            '(width, length, height) in the <link> block', source, model)
    radius = float_text(radius_elem, source) if radius_elem is not None else min(box)
    length = float_text(length_elem, source) if length_elem is not None else max(box)
    if not (radius > 0.0 and length > 0.0):
        raise element_error('uuv_simulator cylinder: radius %g m and length %g m must be '
                            'positive' % (radius, length), source, model)
    axis_elem = model.find('axis')
    if axis_elem is not None:
        axis = (axis_elem.text or '').strip()
        if axis not in ('i', 'j', 'k'):
            raise element_error("uuv_simulator cylinder <axis> %r: expected 'i', 'j' or 'k'"
                                % axis, source, axis_elem)
        along = 'ijk'.index(axis)
    elif box is not None:
        along = int(np.argmax(box))  # HMCylinder: the direction of the biggest edge
    else:
        raise element_error('uuv_simulator cylinder without <axis> takes the direction of '
                            'the bounding box: give <axis> or <box>', source, model)
    ratio = length / (2.0 * radius)
    cd_circ, cd_len = _band(ratio, _CD_CIRCULAR), _band(ratio, _CD_LENGTH)
    if cd_circ is None:
        raise element_error('uuv_simulator cylinder with length / diameter %.3g > 7: '
                            'HMCylinder leaves its axial drag coefficient uninitialised'
                            % ratio, source, model)
    rho = HMCYLINDER_DENSITY
    # Added mass (Schjolberg 1994, as HMCylinder writes it): along rho pi r^2,
    # across rho pi r^2 L, about the cross axes rho pi r^2 L^3 / 12
    along_mass = rho * np.pi * radius ** 2
    across_mass = rho * np.pi * radius ** 2 * length
    cross_rot = rho * np.pi * radius ** 2 * length ** 3 / 12.0
    # Pressure drag 0.5 rho C_d A: end face A = pi r^2, side A = r L (HMCylinder)
    along_drag = 0.5 * cd_circ * np.pi * radius ** 2 * rho
    across_drag = 0.5 * cd_len * radius * length * rho
    added, quad = {}, {}
    for i in range(3):
        added[i] = along_mass if i == along else across_mass
        quad[i] = along_drag if i == along else across_drag
        if i != along:
            added[3 + i] = cross_rot
    return added, quad
