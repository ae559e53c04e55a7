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
Fins (control surfaces) from a description: YAML ``fins:`` entries and gz-sim LiftDrag blocks.

YAML (under ``vehicle:``), one mapping per fin keyed by its name (the joint name used by
the command topic and JointState)::

    fins:
      rudder_upper:
        position: [-0.638, 0.0, 0.12]   # joint origin = centre of pressure (body frame)
        axis: [0, 0, 1]                 # deflection axis; positive = right-hand rotation
        forward: [1, 0, 0]              # chord direction at zero deflection
        upward: [0, 1, 0]               # positive lift direction at zero deflection
        area: 0.0030
        cla: 3.12
        lower: -0.5236                  # and upper: the deflection limits (rad)

Keys: :data:`FIN_KEYS` (``cp`` an extra centre-of-pressure offset from the joint
origin, ``model`` ``two_line``, ``quadratic`` or ``uuv_two_lines``, ``fluid_density`` a
two-line model's own density; the rest as gz-sim LiftDrag and uuv_simulator name them,
plus the servo's ``velocity`` and ``time_constant``).  A new fin needs at least
``position``; a YAML file with ``base:`` gives its own fins, not the base's.

URDF: a gz-sim LiftDrag ``<plugin>`` (also the Ignition and Gazebo-classic ones) with
``<control_joint_name>``: that revolute joint is the fin (origin, ``<axis>``,
``<limit lower upper velocity>``); ``<link_name>`` must be its child link, and ``cp``,
``forward``, ``upward`` are in that link's frame, as gz-sim reads them.  Without a
control joint the block is a fixed lifting surface.  Elements: :data:`LIFTDRAG_KEYS`;
``air_density`` is ignored (the vehicle's density is used); gz-sim's default
``control_joint_rad_to_cl`` of 4 applies with a control joint (the YAML default is 0).
Conventions and servos: doc/reference/physics.md; LiftDrag: doc/guide/sdf_equipment.md.
"""
import copy
from typing import Any, Callable, Dict, List, Optional, Tuple
import xml.etree.ElementTree as ET

import numpy as np

from uwv_hydro.description.element_report import where
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.plugin_number import plugin_float
from uwv_hydro.description.urdf_joint import joint_frame
from uwv_hydro.description.xml_safe import element_error, element_numbers
from uwv_hydro.physics.body.vehicle_params import Fin, FIN_MODELS, VehicleParams
from uwv_hydro.physics.spatial.unit_vector import unit_vector

#: Vector keys of a fin (YAML lists of 3, LiftDrag "x y z" text).
FIN_VECTOR_KEYS = ('position', 'axis', 'cp', 'forward', 'upward')
#: Number keys of a fin.
FIN_NUMBER_KEYS = ('area', 'cla', 'cda', 'alpha_stall', 'cla_stall', 'cda_stall', 'a0',
                   'control_joint_rad_to_cl', 'lift_constant', 'drag_constant', 'lower',
                   'upper', 'velocity', 'time_constant', 'fluid_density')
#: Every key of a YAML fin entry.
FIN_KEYS = frozenset(FIN_VECTOR_KEYS + FIN_NUMBER_KEYS + ('model',))
#: Elements of a LiftDrag <plugin> block this loader reads (gz-sim names + uwv_hydro's).
LIFTDRAG_KEYS = frozenset(
    ('link_name', 'control_joint_name', 'cla', 'cda', 'cma', 'alpha_stall', 'cla_stall',
     'cda_stall', 'cma_stall', 'air_density', 'radial_symmetry', 'area', 'a0', 'cp',
     'forward', 'upward', 'control_joint_rad_to_cl', 'model', 'lift_constant',
     'drag_constant', 'time_constant'))
#: LiftDrag elements read but without effect (gz-sim resets the moment to zero).
_IGNORED_LIFTDRAG = ('cma', 'cma_stall', 'air_density')
#: gz-sim LiftDrag's control_joint_rad_to_cl when a control joint is named.
GZ_CONTROL_JOINT_RAD_TO_CL = 4.0

#: error(key, reason) -> DescriptionError naming the file and key.
ErrorFactory = Callable[[str, str], DescriptionError]


def check_fin(fin: Fin, error: ErrorFactory) -> Fin:
    """Raise (via ``error``) if the fin's values are unusable; return it."""
    for key in ('axis', 'forward', 'upward'):  # directions: stored as unit vectors
        v = np.asarray(getattr(fin, key), float)
        unit = unit_vector(v)
        if unit is None or not np.max(np.abs(v)) > 1e-9:
            raise error(key, '%s must be a nonzero vector' % key)
        setattr(fin, key, unit)
    f, u = fin.forward, fin.upward
    if abs(f @ u) > 1e-6:
        raise error('upward', 'forward %s and upward %s must be perpendicular'
                    % (np.round(fin.forward, 6).tolist(), np.round(fin.upward, 6).tolist()))
    if fin.model not in FIN_MODELS:
        raise error('model', 'expected one of %s, got %r' % (', '.join(FIN_MODELS), fin.model))
    if fin.model in ('two_line', 'uuv_two_lines') and not fin.area > 0.0:
        raise error('area', 'area must be positive, got %g' % fin.area)
    if not fin.fluid_density >= 0.0:
        raise error('fluid_density', "fluid_density must be >= 0 (0: the vehicle's), got %g"
                    % fin.fluid_density)
    if not fin.alpha_stall > 0.0:
        raise error('alpha_stall', 'alpha_stall must be positive, got %g' % fin.alpha_stall)
    if not fin.lower <= fin.upper:
        raise error('lower', 'lower limit %g is above upper limit %g' % (fin.lower, fin.upper))
    if not fin.lower <= 0.0 <= fin.upper:
        raise error('lower', 'the limits [%g, %g] must contain zero (the centred fin)'
                    % (fin.lower, fin.upper))
    if not fin.velocity > 0.0:
        raise error('velocity', 'velocity limit must be positive, got %g' % fin.velocity)
    if not fin.time_constant >= 0.0:
        raise error('time_constant', 'time_constant must be >= 0, got %g'
                    % fin.time_constant)
    return fin


def fins_from_mapping(value: Any, existing: List[Fin], source: str, error: ErrorFactory,
                      number: Callable[[Any, str], float],
                      vector: Callable[[Any, str], np.ndarray],
                      to_flu: Callable[[np.ndarray], np.ndarray]) -> List[Fin]:
    """
    Return ``existing`` updated by a YAML ``fins:`` mapping {name: {key: value}}.

    ``number(value, key)`` and ``vector(value, key)`` parse values (raising with the key
    path); ``to_flu`` converts a vector of the file's convention to FLU.
    """
    if not isinstance(value, dict):
        raise error('fins', 'expected a mapping {fin name: {position: .., axis: .., ...}}')
    fins = [copy.deepcopy(f) for f in existing]
    by_name = {f.name: f for f in fins}
    for name, entry in value.items():
        name = str(name)
        path = 'fins.%s' % name
        if not isinstance(entry, dict):
            raise error(path, 'expected a mapping of fin keys')
        fin = by_name.get(name)
        if fin is None:
            if 'position' not in entry:
                raise error(path, 'a new fin needs a position (its centre of pressure)')
            fin = Fin(name=name, source=source)
            fins.append(fin)
            by_name[name] = fin
        for key, v in entry.items():
            key_path = '%s.%s' % (path, key)
            if key not in FIN_KEYS:
                raise error(key_path, "unknown key '%s'; expected one of %s"
                            % (key, ', '.join(sorted(FIN_KEYS))))
            if key == 'model':
                if not isinstance(v, str):
                    raise error(key_path, 'expected a string')
                fin.model = v
            elif key in FIN_VECTOR_KEYS:
                setattr(fin, key, to_flu(vector(v, key_path)))
            else:
                setattr(fin, key, number(v, key_path))
        check_fin(fin, lambda key, reason: error('%s.%s' % (path, key), reason))
    return fins


def is_liftdrag_plugin(elem: ET.Element) -> bool:
    """Return True for a gz-sim / Ignition / Gazebo-classic LiftDrag <plugin>."""
    text = (elem.get('filename', '') + ' ' + elem.get('name', '')).lower()
    return elem.tag == 'plugin' and 'liftdrag' in text.replace('-', '').replace('_', '')


def _text(block: ET.Element, tag: str, source: str) -> Optional[ET.Element]:
    found = block.findall(tag)
    if len(found) > 1:
        raise element_error('duplicate <%s>' % tag, source, found[1])
    return found[0] if found else None


Pose = Tuple[np.ndarray, np.ndarray]


def fins_from_urdf(root: ET.Element, base: str, frame_poses: Dict[str, Pose],
                   params: VehicleParams, source: str) -> List[Fin]:
    """
    Return the fins of every LiftDrag <plugin> block under ``root``.

    ``frame_poses`` maps links fixed to ``base`` to (p, R) in the base frame.  Warnings
    go to ``params.warnings``.
    """
    joints = {j.get('name', ''): j for j in root.findall('joint')}
    poses = dict(frame_poses)
    poses[base] = (np.zeros(3), np.eye(3))
    fins: List[Fin] = []
    for block in (e for e in root.iter('plugin') if is_liftdrag_plugin(e)):
        fins.append(_liftdrag_fin(block, joints, poses, params, source))
    check_fin_names(fins, source)
    return fins


def check_fin_names(fins: List[Fin], source: str) -> None:
    """Raise DescriptionError if two LiftDrag blocks describe the same fin."""
    names = [f.name for f in fins]
    for name in names:
        if names.count(name) > 1:
            raise DescriptionError('two LiftDrag blocks describe fin %r' % name, source,
                                   'plugin')


def liftdrag_names(block: ET.Element, source: str
                   ) -> Tuple[str, ET.Element, Optional[ET.Element]]:
    """
    Check a LiftDrag block's element names; return (link name, its element, control joint).

    The control joint is its ``<control_joint_name>`` element, or None.
    """
    for child in block:
        if isinstance(child.tag, str) and child.tag not in LIFTDRAG_KEYS:
            raise element_error('unknown LiftDrag element <%s>; expected one of %s'
                                % (child.tag, ', '.join(sorted(LIFTDRAG_KEYS))),
                                source, child)
    link_elem = _text(block, 'link_name', source)
    if link_elem is None or not (link_elem.text or '').strip():
        raise element_error('LiftDrag block without <link_name>', source, block)
    return link_elem.text.strip(), link_elem, _text(block, 'control_joint_name', source)


def _liftdrag_fin(block, joints, poses, params, source) -> Fin:
    """Return the Fin of one LiftDrag block."""
    link, link_elem, joint_elem = liftdrag_names(block, source)
    fin = Fin(name=link, source=source)
    if joint_elem is not None:
        joint_name = (joint_elem.text or '').strip()
        joint = joints.get(joint_name)
        if joint is None:
            raise element_error('control joint %r is not a joint of the robot' % joint_name,
                                source, joint_elem)
        if joint.get('type') not in ('revolute', 'continuous'):
            raise element_error('control joint %r must be revolute or continuous, not %r'
                                % (joint_name, joint.get('type')), source, joint)
        parent = joint.find('parent')
        child = joint.find('child')
        parent_link = parent.get('link', '') if parent is not None else ''
        if parent_link not in poses:
            raise element_error('the parent link %r of fin joint %r is not the base link or '
                                'fixed to it' % (parent_link, joint_name), source, joint)
        if child is None or child.get('link', '') != link:
            raise element_error('LiftDrag <link_name> %r must be the child link of its '
                                'control joint %r' % (link, joint_name), source, link_elem)
        p_par, r_par = poses[parent_link]
        xyz, rot, axis = joint_frame(joint, source)  # axis in the joint frame
        position, rotation = p_par + r_par @ xyz, r_par @ rot
        fin.name = joint_name
        fin.axis = rotation @ axis
        limit = joint.find('limit')
        if joint.get('type') == 'revolute':
            if limit is None:
                raise element_error('revolute fin joint %r needs <limit lower upper>'
                                    % joint_name, source, joint)
            fin.lower = limit_value(limit, 'lower', source, 0.0)
            fin.upper = limit_value(limit, 'upper', source, 0.0)
        if limit is not None and limit.get('velocity') is not None:
            fin.velocity = limit_value(limit, 'velocity', source, float('inf'))
            if fin.velocity == 0.0:  # uuv's snippets; Gazebo classic: no limit
                fin.velocity = float('inf')
                params.warnings.append('%s: <limit velocity="0"> read as no rate limit, as '
                                       'Gazebo classic and uuv_simulator run it'
                                       % where(source, limit))
        fin.control_joint_rad_to_cl = GZ_CONTROL_JOINT_RAD_TO_CL
    elif link in poses:
        position, rotation = poses[link]
        fin.lower = fin.upper = 0.0
    else:
        raise element_error('LiftDrag link %r has no <control_joint_name> and is not the '
                            'base link or fixed to it' % link, source, link_elem)
    fin.position = np.array(position, float)
    return liftdrag_coefficients(block, fin, rotation, params, source)


def liftdrag_coefficients(block: ET.Element, fin: Fin, rotation: np.ndarray,
                          params: VehicleParams, source: str) -> Fin:
    """
    Set a fin's LiftDrag coefficients and geometry from its block; check and return it.

    ``rotation`` is base <- the LiftDrag link's frame, in which ``cp``, ``forward`` and
    ``upward`` are given (gz-sim LiftDrag.cc reads them in the link frame).
    """
    values = {}
    for key in ('cla', 'cda', 'alpha_stall', 'cla_stall', 'cda_stall', 'area', 'a0',
                'control_joint_rad_to_cl', 'lift_constant', 'drag_constant', 'time_constant',
                'air_density'):
        elem = _text(block, key, source)
        if elem is not None:
            values[key] = plugin_float(elem, source, params.warnings)
    density = values.pop('air_density', None)
    if density is not None and abs(density - params.fluid_density) > 0.01 * density:
        params.warnings.append('LiftDrag %s: air_density %g ignored; the fins use the '
                               'vehicle fluid density %g'
                               % (fin.name, density, params.fluid_density))
    for key, value in values.items():
        setattr(fin, key, value)
    for key in ('cp', 'forward', 'upward'):
        elem = _text(block, key, source)
        if elem is not None:
            setattr(fin, key, rotation @ element_numbers(elem, (3,), source))
        else:
            setattr(fin, key, rotation @ np.asarray(getattr(fin, key), float))
    model = _text(block, 'model', source)
    if model is not None:
        fin.model = (model.text or '').strip()
    symmetric = _text(block, 'radial_symmetry', source)
    if symmetric is not None and (symmetric.text or '').strip().lower() in ('1', 'true'):
        raise element_error('radial_symmetry is not supported for fins', source, symmetric)

    def error(key, reason):
        return element_error('LiftDrag %s: %s' % (fin.name, reason), source, block)
    return check_fin(fin, error)


def limit_value(limit: ET.Element, attr: str, source: str,
                default: Optional[float] = None) -> Optional[float]:
    """Return a joint ``<limit>`` attribute as a finite float (``default`` when absent)."""
    text = limit.get(attr)
    if text is None:
        return default
    try:
        value = float(text)
    except ValueError:
        value = float('nan')
    if not np.isfinite(value):
        raise element_error('<limit %s=%r>: expected a finite number' % (attr, text),
                            source, limit)
    return value
