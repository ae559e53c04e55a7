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
``/**``), or a bare mapping; dotted keys (``vehicle.mass``) are expanded.

* Nested: vehicle keys under ``vehicle:``.  Every key there must be known; the other
  keys beside ``vehicle:`` belong to the node.
* Flat (no ``vehicle:`` section): vehicle keys directly in ``ros__parameters`` (or the
  bare mapping).  Keys that are not vehicle keys belong to the node, unless they are
  close to a vehicle key (``linear_darg``, ``vehicel``): those are errors with "did
  you mean".  A string ``added_mass`` (``implicit``/``lagged``) is the node parameter.

An unknown key is an error naming the file, line, key path and the closest known
key.  The text is parsed by :mod:`uwv_hydro.description.yaml_safe` (libyaml, size,
depth and key caps, no aliases or custom tags, line of every key).

Sections: the core keys are :data:`VEHICLE_KEYS`; a new section (thrusters, sensors,
fins, joints ...) is ONE entry in :data:`YAML_SECTIONS` (key -> reader called with
``(value, ctx, params)`` after the core keys), which also makes the key known.  The
keys, their forms (nested, flat, diagonal, sparse ``{xh: 0.5}``) and defaults are in
doc/guide/descriptions.md ("YAML vehicle keys").

Conventions: SI units; coefficients ALWAYS positive for dissipation and added mass
(negate Fossen/SNAME derivatives such as X_u|u|).  ``convention: frd`` maps FRD to FLU
with T = diag(1, -1, -1, 1, -1, -1) (a rotation of pi about x, REP-103 vs SNAME):
L' = T L T, M_A' = T M_A T, Q'_abc = T_a T_c Q_abc (|nu'_b| = |nu_b|), points
r' = P r and inertia I' = P I P with P = diag(1, -1, -1).
"""
import os
from typing import Any, Callable, Dict, Optional, Tuple

import numpy as np

from uwv_hydro.description.contact import (apply_overrides, read_contact_block,
                                           read_contact_points)
from uwv_hydro.description.conventions import (
    frd_to_flu_inertia, frd_to_flu_matrix, frd_to_flu_quadratic, frd_to_flu_signed_quadratic,
    frd_to_flu_vector)
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.fins import fins_from_mapping
from uwv_hydro.description.hull import finish_hull, read_yaml_hull
from uwv_hydro.description.name_checks import closest, unknown_reason
from uwv_hydro.description.provenance import rigid_body_of, set_origin
from uwv_hydro.description.thrusters import read_yaml_thrusters
from uwv_hydro.description.yaml.link_tree import read_joints, read_links
from uwv_hydro.description.yaml.sensors import read_yaml_sensors
from uwv_hydro.description.yaml.tether import read_yaml_tether
from uwv_hydro.description.yaml.values import (
    _Ctx, _inertia, _number, _point, _vector3, check_signed_quadratic_bound, coefficient_array,
    SURFACE_KEYS)
from uwv_hydro.description.yaml_safe import load_yaml_text_file, parse_yaml, YamlMap
from uwv_hydro.physics.body.vehicle_params import SurfaceTransition, VehicleParams

#: load_base(path, mappings, base) -> VehicleParams: loads a ``base:`` file (unvalidated)
BaseLoader = Callable[[str, Optional[Dict[str, str]], Optional[VehicleParams]], VehicleParams]

VEHICLE_KEYS = (
    'mass', 'inertia', 'com', 'buoyancy_mass', 'volume', 'cob', 'surface', 'linear_drag',
    'quadratic_drag', 'added_mass', 'drag_center', 'drag_velocity_point',
    'added_mass_point', 'semantics', 'damping', 'coriolis', 'added_mass_coriolis',
    'gravity', 'fluid_density',
    'acceleration_alpha', 'name', 'base_frame', 'convention', 'base', 'allow_nonphysical',
    'forward_speed_drag', 'signed_quadratic_drag')
#: Extra vehicle sections: key -> reader(value, ctx, params), called after the core keys
#: (filled below the readers; ``ctx.frd`` tells the convention).
YAML_SECTIONS: Dict[str, Callable[[Any, '_Ctx', VehicleParams], None]] = {}
# the joint tree first: sensors and thrusters may sit on its moving links
YAML_SECTIONS['links'] = read_links
YAML_SECTIONS['joints'] = read_joints
YAML_SECTIONS['sensors'] = read_yaml_sensors
#: difflib ratio above which a flat-layout key is taken as a misspelt vehicle key.
_FLAT_TYPO_CUTOFF = 0.8


def known_vehicle_keys() -> Tuple[str, ...]:
    """Return every key allowed under ``vehicle:`` (core keys and registered sections)."""
    return VEHICLE_KEYS + tuple(YAML_SECTIONS)


def _expand_dotted(data: dict, ctx: _Ctx, path: str = '') -> YamlMap:
    """Expand ``a.b: v`` into ``a: {b: v}``, keeping lines; a key given twice is an error."""
    out = YamlMap(getattr(data, 'line', None))
    for key, value in data.items():
        line = data.line_of(key) if isinstance(data, YamlMap) else None
        key = str(key)
        if isinstance(value, dict):
            value = _expand_dotted(value, ctx, path + key + '.')
        head, dot, rest = key.partition('.')
        if dot:
            sub = YamlMap(line)
            sub[rest], sub.key_lines[rest] = value, line
            value, key = _expand_dotted(sub, ctx, path + head + '.'), head
        _merge(out, key, value, line, ctx, path)
    return out


def _merge(out: YamlMap, key: str, value: Any, line: Optional[int], ctx: _Ctx,
           path: str) -> None:
    if key in out and isinstance(out[key], dict) and isinstance(value, dict):
        for sub_key, sub_value in value.items():
            _merge(out[key], sub_key, sub_value, value.line_of(sub_key), ctx,
                   path + key + '.')
    elif key in out:
        raise DescriptionError('%s given twice (lines %s and %s)'
                               % (path + key, out.line_of(key), line),
                               ctx.source, ctx.prefix + path + key, line)
    else:
        out[key], out.key_lines[key] = value, line


def _check_ros_parameters_spelling(data: dict, ctx: _Ctx) -> None:
    """Reject a misspelt 'ros__parameters' (it would drop the whole file silently)."""
    for node, value in data.items():
        if not isinstance(value, dict):
            continue
        for key in value:
            if key != 'ros__parameters' and closest(str(key), ('ros__parameters',)):
                raise DescriptionError(unknown_reason('key', key, ('ros__parameters',)),
                                       ctx.source, '%s.%s' % (node, key),
                                       value.line_of(key) if isinstance(value, YamlMap)
                                       else None)


def find_vehicle_mapping(data: Any, ctx: _Ctx) -> YamlMap:
    """
    Return the vehicle key mapping of a ROS 2 params file or bare mapping.

    Sets ``ctx.prefix`` (the key path of the vehicle keys) and ``ctx.mapping``.
    """
    if not isinstance(data, dict):
        raise ctx.error('', 'expected a YAML mapping at the top level')
    params, prefix = data, ''
    nodes = [k for k, v in data.items() if isinstance(v, dict) and 'ros__parameters' in v]
    if nodes:
        node = next((n for n in ('uwv_hydro', '/**') if n in nodes), nodes[0])
        params, prefix = data[node]['ros__parameters'], '%s.ros__parameters.' % node
        if not isinstance(params, dict):
            raise DescriptionError('expected a mapping', ctx.source, prefix[:-1],
                                   data[node].line_of('ros__parameters'))
    else:
        _check_ros_parameters_spelling(data, ctx)
    ctx.prefix = prefix
    params = _expand_dotted(params, ctx)
    ctx.mapping = params
    known = known_vehicle_keys()
    nested = params.get('vehicle')
    if nested is not None:
        if not isinstance(nested, dict):
            raise ctx.error('vehicle', 'expected a mapping')
        ctx.prefix, ctx.mapping = prefix + 'vehicle.', nested
        for key in nested:
            if key not in known:
                raise ctx.error(key, unknown_reason('key', key, known))
        return nested
    vehicle = YamlMap(params.line)
    for key, value in params.items():
        if key in known and not (key == 'added_mass' and isinstance(value, str)):
            vehicle[key], vehicle.key_lines[key] = value, params.line_of(key)
        elif key not in known + ('vehicle',) and closest(key, known + ('vehicle',),
                                                         _FLAT_TYPO_CUTOFF):
            raise ctx.error(key, unknown_reason('key', key, known + ('vehicle',)) +
                            '; in the flat layout a key this close to a vehicle key is '
                            'taken for a typo, not for a node parameter')
    ctx.mapping = vehicle
    return vehicle


def vehicle_from_mapping(vehicle: Dict[str, Any], source: str, base_dir: str = '',
                         base: Optional[VehicleParams] = None,
                         mappings: Optional[Dict[str, str]] = None,
                         load_base: Optional[BaseLoader] = None,
                         ctx: Optional[_Ctx] = None) -> VehicleParams:
    """
    Build VehicleParams from a vehicle key mapping, over ``base`` if given.

    A ``base:`` file is loaded with ``load_base(path, mappings, base)`` (the loader
    passes its own file loader, so that this module does not import it back).  Of a
    base only the rigid body, frames and environment are kept
    (:func:`uwv_hydro.description.provenance.rigid_body_of`).  ``ctx`` (from
    :func:`find_vehicle_mapping`) gives error lines; a fresh one is made if None.
    """
    if ctx is None:
        ctx = _Ctx(source, vehicle)
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
            if key not in vehicle and 'links' not in vehicle:  # links: give them
                raise ctx.error(key, "missing '%s' (or give a 'base' description)" % key)
        params = VehicleParams(mass=1.0, inertia=np.eye(3))
    else:
        params = rigid_body_of(base)
    params.source = source
    given = [k for k in vehicle if k not in ('base', 'convention')]
    for key in given:
        set_origin(params, [{'volume': 'buoyancy_mass'}.get(key, key)],
                   '%s (YAML)' % ctx.where(key))
    if 'allow_nonphysical' in vehicle:
        if not isinstance(vehicle['allow_nonphysical'], bool):
            raise ctx.error('allow_nonphysical', 'expected true or false')
        params.allow_nonphysical = params.allow_nonphysical or vehicle['allow_nonphysical']
    if 'mass' in vehicle:
        params.mass = _number(vehicle['mass'], 'mass', ctx)
        if not params.mass > 0.0:  # named here, at its line (validate has no lines)
            raise ctx.error('mass', 'mass must be positive, got %g kg' % params.mass)
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
                raise ctx.error('surface.%s' % k, unknown_reason('key', k, SURFACE_KEYS))
            values[k] = v if k == 'model' else _number(v, 'surface.' + k, ctx)
        params.surface = SurfaceTransition(**values)
    for key, order in (('linear_drag', 2), ('added_mass', 2), ('quadratic_drag', 3),
                       ('forward_speed_drag', 2), ('signed_quadratic_drag', 3)):
        if key in vehicle:
            labels = params.coefficient_labels.setdefault(key, {})
            arr = coefficient_array(vehicle[key], key, order, ctx, labels)
            if key == 'signed_quadratic_drag':
                check_signed_quadratic_bound(arr, labels, ctx)
            if frd and key == 'signed_quadratic_drag':
                arr = frd_to_flu_signed_quadratic(arr)  # both velocities signed
            if frd and key != 'signed_quadratic_drag':
                arr = frd_to_flu_quadratic(arr) if order == 3 else frd_to_flu_matrix(arr)
            if frd:
                for idx, (path, line) in labels.items():
                    labels[idx] = (path + ' (FRD, value shown in FLU)', line)
            setattr(params, key, arr)
    if 'drag_center' in vehicle:
        params.drag_center = vec(_vector3(vehicle['drag_center'], 'drag_center', ctx))
    for key in ('name', 'base_frame', 'semantics', 'damping'):
        if key in vehicle:
            if not isinstance(vehicle[key], str):
                raise ctx.error(key, 'expected a string')
            setattr(params, key, vehicle[key])
    for key in ('coriolis', 'added_mass_coriolis'):
        if key in vehicle:
            if not isinstance(vehicle[key], bool):
                raise ctx.error(key, 'expected true or false')
            setattr(params, key, vehicle[key])
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
            if key not in vehicle:
                set_origin(params, [key], '%s (YAML semantics)' % ctx.where('semantics'))
    ctx.frd = frd
    for key, reader in YAML_SECTIONS.items():
        if key in vehicle:
            reader(vehicle[key], ctx, params)
    return params


def _read_thrusters(value: Any, ctx: _Ctx, params: VehicleParams) -> None:
    params.thrusters = read_yaml_thrusters(value, params, ctx.source, ctx.frd)


def _read_fins(value: Any, ctx: _Ctx, params: VehicleParams) -> None:
    """Read ``fins:`` (:mod:`uwv_hydro.description.fins`) in the file's convention."""
    params.fins = fins_from_mapping(
        value, params.fins, ctx.source, ctx.error, lambda v, key: _number(v, key, ctx),
        lambda v, key: _vector3(v, key, ctx), frd_to_flu_vector if ctx.frd else np.asarray)


def _read_hull(value: Any, ctx: _Ctx, params: VehicleParams) -> None:
    """Read ``hull:`` (:mod:`uwv_hydro.description.hull`; x is the same in FRD and FLU)."""
    hull = read_yaml_hull(value, ctx.source, ctx.error, lambda v, key: _number(v, key, ctx))
    finish_hull(params, hull, '%s: %shull' % (ctx.where('hull'), ctx.prefix))


def _read_contact_points(value: Any, ctx: _Ctx, params: VehicleParams) -> None:
    """Read ``contact_points`` (:mod:`uwv_hydro.description.contact`; replace the shapes')."""
    overrides = {}
    if params.contact is not None:
        overrides = {k: getattr(params.contact, k)
                     for k in ('stiffness', 'damping', 'friction', 'stiction_speed')}
    params.contact = read_contact_points(value, ctx.error, lambda v, key: _number(v, key, ctx),
                                         frd_to_flu_vector if ctx.frd else np.asarray)
    params.contact.source = 'contact_points (%s)' % ctx.where('contact_points')
    for key, v in overrides.items():
        setattr(params.contact, key, v)


def _read_contact(value: Any, ctx: _Ctx, params: VehicleParams) -> None:
    """Read ``contact:`` (:mod:`uwv_hydro.description.contact`): the coefficients."""
    overrides = read_contact_block(value, params.contact, ctx.error,
                                   lambda v, key: _number(v, key, ctx))
    if params.contact is None:
        raise ctx.error('contact', 'no contact points: give contact_points (or collision '
                        'shapes in the base description)')
    apply_overrides(params.contact, overrides)


YAML_SECTIONS['thrusters'] = _read_thrusters
YAML_SECTIONS['fins'] = _read_fins
YAML_SECTIONS['hull'] = _read_hull
YAML_SECTIONS['contact_points'] = _read_contact_points
YAML_SECTIONS['contact'] = _read_contact
YAML_SECTIONS['tether'] = read_yaml_tether


def load_yaml_string(text: str, source: str = '<yaml>', base: Optional[VehicleParams] = None,
                     base_dir: str = '', mappings: Optional[Dict[str, str]] = None,
                     load_base: Optional[BaseLoader] = None) -> VehicleParams:
    """Parse YAML text into VehicleParams (unvalidated)."""
    return _from_document(parse_yaml(text, source), source, base, base_dir, mappings,
                          load_base)


def _from_document(data: Any, source: str, base: Optional[VehicleParams], base_dir: str,
                   mappings: Optional[Dict[str, str]],
                   load_base: Optional[BaseLoader]) -> VehicleParams:
    ctx = _Ctx(source)
    vehicle = find_vehicle_mapping(data, ctx)
    return vehicle_from_mapping(vehicle, source, base_dir, base, mappings, load_base, ctx)


def load_yaml_file(path: str, base: Optional[VehicleParams] = None,
                   mappings: Optional[Dict[str, str]] = None,
                   load_base: Optional[BaseLoader] = None) -> VehicleParams:
    """Parse the YAML file at ``path`` into VehicleParams (unvalidated)."""
    return _from_document(load_yaml_text_file(path), path, base,
                          os.path.dirname(os.path.abspath(path)), mappings, load_base)
