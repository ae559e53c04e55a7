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
The slender-hull section of a description: YAML ``hull:``, XML ``<hull>``.

One reader for the three routes (element and key names are the same):

* YAML: ``vehicle: hull: {length, diameter, x_center | profile, c_yd_beta, x_cp,
  cd_crossflow, model, lift_diameter, strips}`` (``profile`` a flat list
  ``[x, d, x, d, ...]``, as a ROS 2 parameter must be, or a list of pairs);
* SDF: a ``<hull>`` block inside the uwv_hydro ``<plugin>``;
* URDF: a ``<hull>`` block inside the dsros_hydro ``<plugin>`` (a uwv_hydro extension
  at plugin level, like ``acceleration_alpha``).

The hull lies along the body x axis.  A cylinder is ``length`` and ``diameter``
(centred on ``x_center``, default 0); ``profile`` lists ``[x, diameter]`` stations from
tail to nose (YAML: a list of pairs; XML: the numbers ``x d x d ...``).  Defaults:
c_yd_beta 1.2 (Hoerner, as Prestero 2001), cd_crossflow 1.1 (cylinder section,
Hoerner; Prestero's c_dc), model ``prestero``, x_cp the hull's mid-length, 40 strips.
x components are the same in FLU and FRD: no conversion.  Every length is bounded by
:data:`MAX_HULL_METRES` and c_yd_beta, cd_crossflow by :data:`MAX_HULL_COEFFICIENT`
(refused naming the key and its line): beyond, the lift and cross-flow arithmetic
leaves the float range.
"""
from typing import Any, Callable, Dict
import xml.etree.ElementTree as ET

import numpy as np

from uwv_hydro.description.element_report import record
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.xml_safe import (
    element_error, element_line, element_path, unique_children)
from uwv_hydro.physics.body.vehicle_params import Hull, HULL_LIFT_MODELS, VehicleParams

#: Keys of a hull block (YAML keys and XML element names).
HULL_KEYS = ('length', 'diameter', 'x_center', 'profile', 'c_yd_beta', 'x_cp',
             'cd_crossflow', 'model', 'lift_diameter', 'strips')
#: Most strips of the cross-flow integral (the compiled core loops over them).
MAX_STRIPS = 1000
#: Largest |length| of a hull (m) and largest lift or cross-flow coefficient: the lift
#: constant 1/2 rho d^2 c_yd_beta and the strip integrals of d x^2 stay far inside the
#: float range (a 1e308 m lift_diameter squared overflows: refused here, not in wrench).
MAX_HULL_METRES = 1.0e4
MAX_HULL_COEFFICIENT = 1.0e4
_METRES = ('length', 'diameter', 'x_center', 'lift_diameter', 'x_cp')

ErrorFactory = Callable[[str, str], DescriptionError]


def hull_from_values(values: Dict[str, Any], source: str, error: ErrorFactory) -> Hull:
    """
    Return the Hull of checked ``values`` (key -> float, ``profile`` (n, 2), ``model`` str).

    ``error(key, reason)`` builds the DescriptionError naming the key's place.
    """
    unknown = sorted(set(values) - set(HULL_KEYS))
    if unknown:
        raise error(unknown[0], "unknown hull key '%s'; expected one of %s"
                    % (unknown[0], ', '.join(HULL_KEYS)))
    _check_bounds(values, error)
    hull = Hull(source=source)
    if 'profile' in values:
        for key in ('length', 'diameter', 'x_center'):
            if key in values:
                raise error(key, 'give a profile or length/diameter, not both')
        profile = np.asarray(values['profile'], dtype=float)
        if profile.ndim != 2 or profile.shape[1] != 2 or profile.shape[0] < 2:
            raise error('profile', 'expected at least two [x, diameter] stations')
        if not np.all(np.diff(profile[:, 0]) > 0.0):
            raise error('profile', 'stations must be in increasing x (tail to nose)')
        if np.any(profile[:, 1] < 0.0) or not np.any(profile[:, 1] > 0.0):
            raise error('profile', 'diameters must be >= 0 and not all zero')
        hull.stations, hull.diameters = profile[:, 0].copy(), profile[:, 1].copy()
    else:
        for key in ('length', 'diameter'):
            if key not in values:
                raise error(key, 'a hull needs a length and a diameter, or a profile')
            if not values[key] > 0.0:
                raise error(key, '%s must be positive, got %g' % (key, values[key]))
        half, centre = 0.5 * values['length'], values.get('x_center', 0.0)
        hull.stations = np.array([centre - half, centre + half])
        hull.diameters = np.full(2, values['diameter'])
    for key in ('c_yd_beta', 'cd_crossflow'):
        if key in values:
            if not values[key] >= 0.0:
                raise error(key, '%s must be >= 0, got %g' % (key, values[key]))
            setattr(hull, key, float(values[key]))
    if 'lift_diameter' in values:
        if not values['lift_diameter'] > 0.0:
            raise error('lift_diameter', 'lift_diameter must be positive')
        hull.lift_diameter = float(values['lift_diameter'])
    if 'x_cp' in values:
        hull.x_cp = float(values['x_cp'])
    if 'model' in values:
        if values['model'] not in HULL_LIFT_MODELS:
            raise error('model', 'model must be one of %s, got %r'
                        % (', '.join(HULL_LIFT_MODELS), values['model']))
        hull.model = values['model']
    if 'strips' in values:
        strips = values['strips']
        if strips != int(strips) or not 1 <= strips <= MAX_STRIPS:
            raise error('strips', 'strips must be an integer in [1, %d], got %g'
                        % (MAX_STRIPS, strips))
        hull.strips = int(strips)
    return hull


def _check_bounds(values: Dict[str, Any], error: ErrorFactory) -> None:
    """Refuse a hull number whose arithmetic would leave the float range."""
    bounds = [(k, MAX_HULL_METRES, ' m') for k in _METRES]
    bounds += [(k, MAX_HULL_COEFFICIENT, '') for k in ('c_yd_beta', 'cd_crossflow')]
    for key, bound, unit in bounds:
        if key in values and not abs(values[key]) <= bound:
            raise error(key, '%s %g is beyond %g%s in magnitude (its products in the lift '
                        'and cross-flow terms would overflow)'
                        % (key, values[key], bound, unit))
    if 'profile' in values:
        profile = np.asarray(values['profile'], dtype=float)
        if not np.all(np.abs(profile) <= MAX_HULL_METRES):
            raise error('profile', 'profile values must be within %g m in magnitude (their '
                        'products in the lift and cross-flow terms would overflow)'
                        % MAX_HULL_METRES)


def finish_hull(params: VehicleParams, hull: Hull, place: str) -> None:
    """Set ``params.hull``, record it, and warn where it is doubtful."""
    params.hull = hull
    length = hull.stations[-1] - hull.stations[0]
    record(params, 'hull', 'hull', place, 'read',
           'body lift (%s) and cross-flow drag, %.3g m long, %d strips'
           % (hull.model, length, hull.strips))
    if hull.x_cp is not None and not hull.stations[0] <= hull.x_cp <= hull.stations[-1]:
        params.warnings.append('%s: hull x_cp %g is outside the hull [%g, %g]'
                               % (place, hull.x_cp, hull.stations[0], hull.stations[-1]))
    q = np.asarray(params.quadratic_drag)
    if q.shape == (6, 6, 6) and (q[1, 1, 1] != 0.0 or q[2, 2, 2] != 0.0):
        params.warnings.append(
            '%s: the hull adds cross-flow drag and quadratic_drag has sway/heave terms '
            '(Y_v|v| %g, Z_w|w| %g): both are applied; leave one of them out unless the '
            'quadratic terms are meant as an extra' % (place, q[1, 1, 1], q[2, 2, 2]))


def read_yaml_hull(value: Any, source: str, error: ErrorFactory,
                   number: Callable[[Any, str], float]) -> Hull:
    """Return the Hull of a YAML ``hull:`` mapping (``error``/``number`` name key paths)."""
    if not isinstance(value, dict):
        raise error('hull', 'expected a mapping {length: .., diameter: .., ...}')
    values: Dict[str, Any] = {}
    for key, v in value.items():
        path = 'hull.%s' % key
        if key == 'model':
            if not isinstance(v, str):
                raise error(path, 'expected a string')
            values[key] = v
        elif key == 'profile':
            # flat [x, d, x, d, ...] (a ROS 2 parameter: no nested lists) or [[x, d], ...]
            flat = v if isinstance(v, (list, tuple)) else None
            if flat and all(isinstance(row, (list, tuple)) and len(row) == 2 for row in v):
                flat = [a for row in v for a in row]
            if not flat or len(flat) % 2 or any(isinstance(a, (list, tuple)) for a in flat):
                raise error(path, 'expected the numbers x diameter x diameter ... (tail to '
                            'nose), or a list of [x, diameter] pairs')
            values[key] = np.reshape([number(a, path) for a in flat], (-1, 2))
        else:
            values[str(key)] = number(v, path) if key in HULL_KEYS else v
    return hull_from_values(values, source, lambda key, reason: error('hull.' + key, reason))


def read_xml_hull(elem: ET.Element, source: str) -> Hull:
    """Return the Hull of an XML ``<hull>`` block (children named as the YAML keys)."""
    values: Dict[str, Any] = {}
    children = {}
    for child in unique_children(elem, source):
        children[child.tag] = child
        text = (child.text or '').strip()
        if child.tag == 'model':
            values['model'] = text
            continue
        try:
            numbers = [float(t) for t in text.split()]
        except ValueError:
            raise element_error('expected numbers, got %r' % text[:40], source, child)
        if not numbers or not np.all(np.isfinite(numbers)):
            raise element_error('expected finite numbers, got %r' % text[:40], source, child)
        if child.tag == 'profile':
            if len(numbers) % 2:
                raise element_error('profile: expected pairs "x diameter ...", got %d numbers'
                                    % len(numbers), source, child)
            values['profile'] = np.reshape(numbers, (-1, 2))
        elif len(numbers) != 1:
            raise element_error('expected one number', source, child)
        else:
            values[child.tag] = numbers[0]

    def error(key, reason):
        node = children.get(key, elem)
        return DescriptionError(reason, source, element_path(node), element_line(node))
    return hull_from_values(values, source, error)
