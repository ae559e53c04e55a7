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
Build VehicleParams from a YAML file (ROS 2 parameters file or bare mapping).

Accepted layouts: ``uwv_hydro: {ros__parameters: {...}}`` (any node name, or
``/**``), or a bare mapping.  Vehicle keys live under ``vehicle:`` (also accepted
directly in ``ros__parameters``; ``vehicle`` wins); dotted keys (``vehicle.mass``)
are expanded.  Unknown keys under ``vehicle:`` are errors; other top-level keys
belong to the node and are ignored.

Keys (SI units; all optional except ``mass`` and ``inertia`` without a ``base``):

* ``mass``; ``inertia`` about the CoM as ``{ixx, iyy, izz, ixy, ixz, iyz}``, a 3x3
  nested list or a flat 9-list; ``com``, ``cob``, ``drag_center`` as [x, y, z].
* ``buoyancy_mass`` (kg displaced) or ``volume`` (m^3, times ``fluid_density``).
* ``surface: {out_of_water_depth, fully_submerged_depth, scale_factor, model}``.
* ``linear_drag``, ``added_mass``: 6x6 nested list, flat 36-list (row-major), flat
  6-list (the diagonal) or a sparse map ``{xx: 1.0, yh: 0.5}`` with letters
  ``x y z r p h`` (r = roll, p = pitch, h = heading); first letter = output axis.
* ``quadratic_drag``: 6x6x6 nested, flat 216, flat 6 (Q[i, i, i]) or sparse
  ``{xxx: 1.0}``: letters = output axis, ABS velocity, SIGNED velocity.
* ``drag_velocity_point``, ``added_mass_point``: [x, y, z] or ``com``, ``origin``,
  ``drag_center``; ``semantics: origin | dsros`` (dsros makes both points default
  to ``com``); ``damping``, ``coriolis``, ``gravity``, ``fluid_density``,
  ``acceleration_alpha``, ``name``, ``base_frame``.
* ``base``: path (relative to this file) of a URDF/xacro/SDF/YAML whose
  VehicleParams this file extends and overrides (``load_vehicle(..., base=)`` too).
* ``sensors``: name -> navigation sensor (:mod:`uwv_hydro.description.sensors`); a
  sensor named as one of the ``base``'s replaces it, the others are kept.
* ``convention: flu | frd`` (default flu).  Coefficients are ALWAYS positive for
  dissipation and added mass (negate Fossen/SNAME derivatives such as X_u|u|).

FRD to FLU (``convention: frd``).  With T = diag(1, -1, -1, 1, -1, -1), a rotation
of pi about x (REP-103 vs SNAME), wrenches and twists map as F' = T F, nu' = T nu,
and T^-1 = T.  Linear terms: F' = T F = -T L nu = -(T L T) nu', so L' = T L T and
likewise M_A' = T M_A T.  Quadratic: F'_a = T_a F_a = -sum T_a Q_abc |nu_b| nu_c
= -sum (T_a T_c Q_abc) |nu'_b| nu'_c because |nu'_b| = |T_b nu_b| = |nu_b| and
nu_c = T_c nu'_c; so Q'_abc = T_a T_c Q_abc.  Points r' = P r and inertia
I' = P I P with P = diag(1, -1, -1).
"""
import copy
import os
from typing import Any, Callable, Dict, Optional

import numpy as np

from uwv_hydro.description.conventions import (
    DSROS_LETTERS, frd_to_flu_inertia, frd_to_flu_matrix, frd_to_flu_quadratic,
    frd_to_flu_vector)
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.sensors import check_sensor_links, merge_sensors, sensors_from_yaml
from uwv_hydro.description.validate import coefficient_indices
from uwv_hydro.description.xml_safe import read_text_file
from uwv_hydro.physics.vehicle_params import SurfaceTransition, VehicleParams
import yaml

#: Largest YAML file accepted (bytes).
MAX_YAML_BYTES = 5 * 1024 * 1024

#: load_base(path, mappings, base) -> VehicleParams: loads a ``base:`` file (unvalidated)
BaseLoader = Callable[[str, Optional[Dict[str, str]], Optional[VehicleParams]], VehicleParams]

VEHICLE_KEYS = (
    'mass', 'inertia', 'com', 'buoyancy_mass', 'volume', 'cob', 'surface', 'linear_drag',
    'quadratic_drag', 'added_mass', 'drag_center', 'drag_velocity_point',
    'added_mass_point', 'semantics', 'damping', 'coriolis', 'gravity', 'fluid_density',
    'acceleration_alpha', 'name', 'base_frame', 'convention', 'base', 'sensors')
SURFACE_KEYS = ('out_of_water_depth', 'fully_submerged_depth', 'scale_factor', 'model')
_INERTIA_KEYS = ('ixx', 'iyy', 'izz', 'ixy', 'ixz', 'iyz')
_BLOCK_NAMES = {'linear_drag': 'linear drag', 'added_mass': 'added mass',
                'quadratic_drag': 'quadratic drag'}


class _NoAliasLoader(yaml.SafeLoader):
    """SafeLoader that rejects aliases (no exponential "billion laughs" graphs)."""

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.YAMLError('YAML aliases (*%s) are not supported, line %d'
                                 % (event.anchor, event.start_mark.line + 1))
        return super().compose_node(parent, index)


class _Ctx:
    """Where errors point: the file and the key path."""

    def __init__(self, source: str):
        self.source = source

    def error(self, key: str, reason: str) -> DescriptionError:
        return DescriptionError(reason, self.source, key)


def _expand_dotted(data: Dict[str, Any]) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for key, value in data.items():
        key = str(key)
        if isinstance(value, dict):
            value = _expand_dotted(value)
        head, dot, rest = key.partition('.')
        if dot:
            value = _expand_dotted({rest: value})
            key = head
        _merge(out, key, value)
    return out


def _merge(out: Dict[str, Any], key: str, value: Any) -> None:
    if key in out and isinstance(out[key], dict) and isinstance(value, dict):
        for sub_key, sub_value in value.items():
            _merge(out[key], sub_key, sub_value)
    else:
        out[key] = value


def find_vehicle_mapping(data: Any, ctx: _Ctx) -> Dict[str, Any]:
    """Return the vehicle key mapping of a ROS 2 params file or bare mapping."""
    if not isinstance(data, dict):
        raise ctx.error('', 'expected a YAML mapping at the top level')
    params = data
    nodes = {k: v for k, v in data.items()
             if isinstance(v, dict) and 'ros__parameters' in v}
    if nodes:
        for preferred in ('uwv_hydro', '/**'):
            if preferred in nodes:
                params = nodes[preferred]['ros__parameters']
                break
        else:
            params = next(iter(nodes.values()))['ros__parameters']
        if not isinstance(params, dict):
            raise ctx.error('ros__parameters', 'expected a mapping')
    params = _expand_dotted(params)
    vehicle = {k: v for k, v in params.items() if k in VEHICLE_KEYS}
    nested = params.get('vehicle')
    if nested is not None:
        if not isinstance(nested, dict):
            raise ctx.error('vehicle', 'expected a mapping')
        for key in nested:
            if key not in VEHICLE_KEYS:
                raise ctx.error('vehicle.%s' % key, "unknown key '%s'; expected one of %s"
                                % (key, ', '.join(VEHICLE_KEYS)))
        vehicle.update(nested)
    return vehicle


def _number(value: Any, key: str, ctx: _Ctx) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ctx.error(key, 'expected a number, got %r' % (_short(value),))
    try:
        number = float(value)  # a YAML integer may exceed the float range
    except OverflowError:
        number = float('inf')
    if not np.isfinite(number):
        raise ctx.error(key, 'non-finite number %s' % _short(value))
    return number


def _short(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + '...'


def _leaves(value: Any):
    if isinstance(value, (list, tuple)):
        for item in value:
            yield from _leaves(item)
    else:
        yield value


def _array(value: Any, key: str, ctx: _Ctx) -> np.ndarray:
    if not isinstance(value, (list, tuple)):
        raise ctx.error(key, 'expected a list, got %r' % (value,))
    if any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in _leaves(value)):
        raise ctx.error(key, 'expected a (nested) list of numbers')
    try:
        arr = np.array(value, dtype=float)
    except OverflowError:
        raise ctx.error(key, 'non-finite number in list') from None
    except (TypeError, ValueError):
        raise ctx.error(key, 'expected a regular (nested) list of numbers') from None
    if not np.all(np.isfinite(arr)):
        raise ctx.error(key, 'non-finite number in list')
    return arr


def _vector3(value: Any, key: str, ctx: _Ctx) -> np.ndarray:
    arr = _array(value, key, ctx)
    if arr.shape != (3,):
        raise ctx.error(key, 'expected [x, y, z], got shape %s' % (arr.shape,))
    return arr


def _inertia(value: Any, ctx: _Ctx) -> np.ndarray:
    if isinstance(value, dict):
        for k in value:
            if k not in _INERTIA_KEYS:
                raise ctx.error('inertia.%s' % k, "unknown key '%s'; expected %s"
                                % (k, ', '.join(_INERTIA_KEYS)))
        v = {k: _number(value.get(k, 0.0), 'inertia.' + k, ctx) for k in _INERTIA_KEYS}
        return np.array([[v['ixx'], v['ixy'], v['ixz']], [v['ixy'], v['iyy'], v['iyz']],
                         [v['ixz'], v['iyz'], v['izz']]])
    arr = _array(value, 'inertia', ctx)
    if arr.size != 9:
        raise ctx.error('inertia', 'expected a {ixx: ..} map, 3x3 or flat 9-list')
    arr = arr.reshape(3, 3)
    if not np.allclose(arr, arr.T, rtol=1e-9, atol=1e-12):
        raise ctx.error('inertia', 'inertia matrix is not symmetric')
    return arr


def coefficient_array(value: Any, key: str, order: int, ctx: _Ctx) -> np.ndarray:
    """Parse a 6**order coefficient set from nested/flat lists or a sparse map."""
    shape = (6,) * order
    if isinstance(value, dict):
        out = np.zeros(shape)
        seen: Dict[tuple, str] = {}
        for tag, coeff in value.items():
            idx = coefficient_indices(str(tag), DSROS_LETTERS, order, _BLOCK_NAMES[key],
                                      seen, ctx.source, '%s.%s' % (key, tag))
            out[idx] = _number(coeff, '%s.%s' % (key, tag), ctx)
        return out
    arr = _array(value, key, ctx)
    if arr.size == 6 ** order:
        return arr.reshape(shape)
    if arr.shape == (6,):
        out = np.zeros(shape)
        for i in range(6):
            out[(i,) * order] = arr[i]
        return out
    raise ctx.error(key, 'expected %s nested, a flat %d-list, a flat 6-list (diagonal) or a '
                    'sparse map; got shape %s' % ('x'.join('6' * order), 6 ** order, arr.shape))


def _point(value: Any, key: str, ctx: _Ctx):
    """Return a 3-vector or one of the names 'com', 'origin', 'drag_center'."""
    if isinstance(value, str):
        if value not in ('com', 'origin', 'drag_center'):
            raise ctx.error(key, "expected [x, y, z], 'com', 'origin' or 'drag_center'")
        return value
    return _vector3(value, key, ctx)


def vehicle_from_mapping(vehicle: Dict[str, Any], source: str, base_dir: str = '',
                         base: Optional[VehicleParams] = None,
                         mappings: Optional[Dict[str, str]] = None,
                         load_base: Optional[BaseLoader] = None) -> VehicleParams:
    """
    Build (or extend ``base``) VehicleParams from a vehicle key mapping.

    A ``base:`` file is loaded with ``load_base(path, mappings, base)`` (the loader
    passes its own file loader, so that this module does not import it back).
    """
    ctx = _Ctx(source)
    if 'base' in vehicle:
        if not isinstance(vehicle['base'], str):
            raise ctx.error('base', 'expected a file path')
        if load_base is None:
            raise ctx.error('base', "a 'base' file cannot be used here (text given without "
                            'a file loader)')
        path = os.path.join(base_dir, os.path.expanduser(vehicle['base']))
        base = load_base(path, mappings, base)
    convention = vehicle.get('convention', 'flu')
    if convention not in ('flu', 'frd'):
        raise ctx.error('convention', "expected 'flu' or 'frd', got %r" % (convention,))
    frd = convention == 'frd'
    vec = frd_to_flu_vector if frd else np.asarray
    if base is None:
        for key in ('mass', 'inertia'):
            if key not in vehicle:
                raise ctx.error(key, "missing '%s' (or give a 'base' description)" % key)
        params = VehicleParams(mass=1.0, inertia=np.eye(3))
    else:
        params = copy.deepcopy(base)
        params.warnings = list(base.warnings)
    params.source = source
    if 'mass' in vehicle:
        params.mass = _number(vehicle['mass'], 'mass', ctx)
    if 'inertia' in vehicle:
        inertia = _inertia(vehicle['inertia'], ctx)
        params.inertia = frd_to_flu_inertia(inertia) if frd else inertia
    for key in ('com', 'cob'):
        if key in vehicle:
            setattr(params, key, vec(_vector3(vehicle[key], key, ctx)))
    for key in ('gravity', 'fluid_density', 'acceleration_alpha'):
        if key in vehicle:
            setattr(params, key, _number(vehicle[key], key, ctx))
    if 'buoyancy_mass' in vehicle and 'volume' in vehicle:
        raise ctx.error('volume', "give 'buoyancy_mass' or 'volume', not both")
    if 'buoyancy_mass' in vehicle:
        params.buoyancy_mass = _number(vehicle['buoyancy_mass'], 'buoyancy_mass', ctx)
    if 'volume' in vehicle:
        params.buoyancy_mass = _number(vehicle['volume'], 'volume', ctx) * params.fluid_density
    if 'surface' in vehicle:
        surf = vehicle['surface']
        if not isinstance(surf, dict):
            raise ctx.error('surface', 'expected a mapping')
        old = params.surface
        values = {k: getattr(old, k) for k in SURFACE_KEYS}
        for k, v in surf.items():
            if k not in SURFACE_KEYS:
                raise ctx.error('surface.%s' % k, "unknown key '%s'; expected %s"
                                % (k, ', '.join(SURFACE_KEYS)))
            values[k] = v if k == 'model' else _number(v, 'surface.' + k, ctx)
        params.surface = SurfaceTransition(**values)
    for key, order in (('linear_drag', 2), ('added_mass', 2), ('quadratic_drag', 3)):
        if key in vehicle:
            arr = coefficient_array(vehicle[key], key, order, ctx)
            if frd:
                arr = frd_to_flu_quadratic(arr) if order == 3 else frd_to_flu_matrix(arr)
            setattr(params, key, arr)
    if 'drag_center' in vehicle:
        params.drag_center = vec(_vector3(vehicle['drag_center'], 'drag_center', ctx))
    for key in ('name', 'base_frame', 'semantics', 'damping'):
        if key in vehicle:
            if not isinstance(vehicle[key], str):
                raise ctx.error(key, 'expected a string')
            setattr(params, key, vehicle[key])
    if 'coriolis' in vehicle:
        if not isinstance(vehicle['coriolis'], bool):
            raise ctx.error('coriolis', 'expected true or false')
        params.coriolis = vehicle['coriolis']
    default_point = 'com' if params.semantics == 'dsros' else None
    for key in ('drag_velocity_point', 'added_mass_point'):
        point = _point(vehicle[key], key, ctx) if key in vehicle else default_point
        if isinstance(point, str):
            point = {'com': params.com, 'origin': np.zeros(3),
                     'drag_center': params.resolved_drag_center()}[point]
        elif point is not None:
            point = vec(point)
        if point is not None:
            setattr(params, key, np.array(point, float))
    if 'sensors' in vehicle:
        params.sensors = merge_sensors(params.sensors,
                                       sensors_from_yaml(vehicle['sensors'], source,
                                                         params.base_frame))
        check_sensor_links(params.sensors, params, source)
    return params


def load_yaml_string(text: str, source: str = '<yaml>', base: Optional[VehicleParams] = None,
                     base_dir: str = '', mappings: Optional[Dict[str, str]] = None,
                     load_base: Optional[BaseLoader] = None) -> VehicleParams:
    """Parse YAML text into VehicleParams (unvalidated)."""
    ctx = _Ctx(source)
    try:
        data = yaml.load(text, Loader=_NoAliasLoader)  # noqa: S506 -- safe loader
    except yaml.YAMLError as exc:
        mark = getattr(exc, 'problem_mark', None)
        raise DescriptionError('malformed YAML: %s' % getattr(exc, 'problem', exc), source,
                               line=mark.line + 1 if mark is not None else None) from None
    vehicle = find_vehicle_mapping(data, ctx)
    return vehicle_from_mapping(vehicle, source, base_dir, base, mappings, load_base)


def load_yaml_file(path: str, base: Optional[VehicleParams] = None,
                   mappings: Optional[Dict[str, str]] = None,
                   load_base: Optional[BaseLoader] = None) -> VehicleParams:
    """Parse the YAML file at ``path`` into VehicleParams (unvalidated)."""
    text = read_text_file(path, MAX_YAML_BYTES)
    return load_yaml_string(text, path, base, os.path.dirname(os.path.abspath(path)),
                            mappings, load_base)
