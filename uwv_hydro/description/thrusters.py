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
Read thrusters from a URDF (gz-sim Thruster or ds_sim dsros_thruster blocks) or YAML.

URDF: a thruster is a joint -- its origin the point of application, its axis the
thrust direction -- named by the ``<joint_name>`` of a gz-sim Thruster plugin block
(usually inside ``<gazebo>``), exactly as gz-sim reads it::

    <gazebo>
      <plugin filename="gz-sim-thruster-system" name="gz::sim::systems::Thruster">
        <joint_name>propeller_joint</joint_name>
        <thrust_coefficient>0.004</thrust_coefficient>
        <propeller_diameter>0.2</propeller_diameter>
        <fluid_density>1025</fluid_density>
        <time_constant>0.1</time_constant>          (uwv_hydro extension)
      </plugin>
    </gazebo>

The joint's parent must be the base link or a link fixed to it.  gz-sim's own
elements that concern its physics engine's propeller joint (``velocity_control``,
``p_gain``, ``i_gain``, ``d_gain``, ``power_load``, ``battery_name``) are accepted
and unused; uwv_hydro's extensions (:data:`EXTENSION_KEYS`) sit next to gz-sim's,
which gz-sim ignores.  Unknown elements are errors.

A ds_sim ``<plugin filename="libdsros_thruster.so">`` block is read too: the thruster
is named by ``<thruster_link>``, pushes along the x axis of ``<pose>`` (in the base
link) at its position, with the ``<forward>``/``<reverse>`` polynomials (the
``dsros`` model); its own topic elements are accepted and unused (commands arrive as
std_msgs/Float64 on the node's thruster topics).

YAML (``vehicle.thrusters``): a mapping joint name -> the same keys plus the joint
itself: ``xyz`` (origin), ``rpy`` and ``axis`` (in the joint frame, default
[1, 0, 0]) relative to ``parent`` (a frame of the vehicle, default the base).  That
form is also a valid ROS 2 parameters file (``vehicle.thrusters.<joint>.xyz``); a
list of mappings with ``joint_name`` is accepted too.
"""
import math
from typing import Any, Callable, Dict, List, Optional, Tuple
import xml.etree.ElementTree as ET

import numpy as np

from uwv_hydro.description.conventions import matrix_to_quat, quat_to_matrix, rpy_to_matrix
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.urdf_joint import joint_frame
from uwv_hydro.description.xml_safe import element_error
from uwv_hydro.physics.thruster import (DSROS_TERMS, ThrusterBank, ThrusterSpec,
                                        UUV_CONVERSIONS, UUV_DYNAMICS)
from uwv_hydro.physics.vehicle_params import VehicleParams

#: gz-sim Thruster system parameters modelled here, with their meaning.
GZ_KEYS = {
    'joint_name': 'the thruster joint (required)',
    'namespace': 'topic namespace (default: the vehicle name)',
    'topic': 'command topic under the namespace (default /model/{ns}/joint/{joint}/cmd_thrust)',
    'use_angvel_cmd': 'commands are rotor angular velocities (rad/s)',
    'thrust_coefficient': 'Ct of T = Ct rho D^4 omega|omega|',
    'propeller_diameter': 'D (m)',
    'fluid_density': 'rho (kg/m^3, default: the vehicle fluid density)',
    'wake_fraction': 'w of Va = (1 - w) u_a',
    'alpha_1': 'Ct = alpha_1 + alpha_2 J without a thrust_coefficient',
    'alpha_2': 'Ct = alpha_1 + alpha_2 J without a thrust_coefficient',
    'max_thrust_cmd': 'largest command',
    'min_thrust_cmd': 'smallest command',
    'deadband': '|thrust| (N) below which there is no thrust',
}
#: gz-sim parameters for its physics engine's propeller joint: accepted, unused.
GZ_UNUSED_KEYS = frozenset(('velocity_control', 'p_gain', 'i_gain', 'd_gain', 'power_load',
                            'battery_name'))
#: uwv_hydro's additions (rotor dynamics, lookup table, reaction torque).
EXTENSION_KEYS = {
    'time_constant': 'first-order lag of the commanded quantity (s)',
    'max_cmd_rate': 'rate limit of the commanded quantity (units/s)',
    'lookup_command': 'table commands, strictly increasing',
    'lookup_thrust': 'table thrusts (N), monotone, crossing zero',
    'torque_coefficient': 'K_Q of the reaction torque Q = K_Q rho D^5 omega|omega|',
    'torque_per_thrust': 'reaction torque per thrust (m), table model',
    'spin_direction': '+1/-1: rotor spin about the axis under positive thrust',
    'dsros_forward': 'ds_sim thrust polynomial for commands >= 0: gain, offset, max_cmd, '
                     'quad_gain, speed_gain, speed_offset',
    'dsros_reverse': 'the same for commands < 0 (default: the forward one)',
    'propdir': 'ds_sim: <= 0 swaps the polynomials and the thrust sign (default 1)',
    'dynamics': 'uuv_simulator rotor dynamics {type: ZeroOrder | FirstOrder (timeConstant) | '
                'Yoerger (alpha, beta) | Bessa (Jmsp, Kv1, Kv2, Kt, Rm)}',
    'conversion': 'uuv_simulator rotor speed -> thrust {type: Basic (rotorConstant) | Bessa '
                  '(rotorConstantL, rotorConstantR, deltaL, deltaR) | LinearInterp '
                  '(inputValues, outputValues)}',
}
#: uuv_simulator block types that are uwv_hydro fields: their parameters -> the fields.
UUV_ALIASES = {
    ('dynamics', 'ZeroOrder'): {},
    ('dynamics', 'FirstOrder'): {'timeConstant': 'time_constant'},
    ('conversion', 'LinearInterp'): {'inputValues': 'lookup_command',
                                     'outputValues': 'lookup_thrust'},
}
#: uwv_hydro field -> the uuv_simulator block parameter that may set it.
_ALIAS_OF = {field: '%s.%s' % (block, term) for (block, _), alias in UUV_ALIASES.items()
             for term, field in alias.items()}
#: Elements of ds_sim's dsros_thruster <plugin> and what they become.
DSROS_THRUSTER_KEYS = {
    'thruster_link': 'the thruster name (joint_name)',
    'pose': 'x y z roll pitch yaw in the base link: point and orientation, thrust along x',
    'forward': 'dsros_forward', 'reverse': 'dsros_reverse',
    'propdir': 'propdir: <= 0 flips the thrust direction of a command (posIsFwd)',
}
#: dsros_thruster elements about its own ROS topics: accepted, unused (commands here
#: are std_msgs/Float64 on the thruster topic pattern).
DSROS_UNUSED_KEYS = frozenset(('cmd_topic', 'state_topic', 'viz_topic', 'updateRate',
                               'sim_param_namespace'))
#: YAML-only keys: the joint's pose and axis.
YAML_POSE_KEYS = {
    'xyz': 'joint origin [x, y, z] in the parent frame (m)',
    'rpy': 'joint frame orientation [roll, pitch, yaw] (rad)',
    'axis': 'thrust direction in the joint frame (default [1, 0, 0])',
    'parent': 'frame the joint is attached to (default: the base)',
}
#: Every key a URDF thruster block may hold.
URDF_THRUSTER_KEYS = frozenset(GZ_KEYS) | GZ_UNUSED_KEYS | frozenset(EXTENSION_KEYS)
#: Every key a YAML thruster mapping may hold.
YAML_THRUSTER_KEYS = frozenset(GZ_KEYS) | frozenset(EXTENSION_KEYS) | frozenset(YAML_POSE_KEYS)

_FLOAT_KEYS = ('thrust_coefficient', 'propeller_diameter', 'fluid_density', 'wake_fraction',
               'alpha_1', 'alpha_2', 'max_thrust_cmd', 'min_thrust_cmd', 'deadband',
               'time_constant', 'max_cmd_rate', 'torque_coefficient', 'torque_per_thrust')
_STRING_KEYS = ('joint_name', 'namespace', 'topic')
_LIST_KEYS = ('lookup_command', 'lookup_thrust')

#: error(key, reason) -> DescriptionError pointing at the key.
ErrorFactory = Callable[[str, str], DescriptionError]


def is_dsros_thruster_plugin(elem: ET.Element) -> bool:
    """Return True for a ds_sim dsros_thruster <plugin>."""
    return elem.tag == 'plugin' and 'dsros_thruster' in elem.get('filename', '')


def is_thruster_plugin(elem: ET.Element) -> bool:
    """Return True for a gz-sim (or Ignition Gazebo) Thruster system <plugin>."""
    filename, name = elem.get('filename', ''), elem.get('name', '')
    return elem.tag == 'plugin' and ('thruster-system' in filename
                                     or name.endswith('systems::Thruster'))


def _float(value: Any, key: str, error: ErrorFactory, text: bool) -> float:
    if text and isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            raise error(key, 'expected a number, got %r' % value) from None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise error(key, 'expected a number, got %r' % (value,))
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if not math.isfinite(number) and not (key == 'max_cmd_rate' and number == math.inf):
        raise error(key, 'non-finite number %r' % (value,))
    return number


def _floats(value: Any, key: str, error: ErrorFactory, text: bool) -> Tuple[float, ...]:
    if text and isinstance(value, str):
        value = value.split()
    if not isinstance(value, (list, tuple)):
        raise error(key, 'expected a list of numbers, got %r' % (value,))
    return tuple(_float(v, key, error, text) for v in value)


def _dsros_terms(value: Any, key: str, error: ErrorFactory, text: bool) -> Tuple[float, ...]:
    """Return a ds_sim polynomial (DSROS_TERMS order) from a mapping of its terms."""
    if not isinstance(value, dict):
        raise error(key, 'expected a mapping of %s' % ', '.join(DSROS_TERMS))
    for term in value:
        if term not in DSROS_TERMS:
            raise error(key, 'unknown term %r; expected %s' % (term, ', '.join(DSROS_TERMS)))
    for term in ('gain', 'offset', 'max_cmd'):  # required by dsros_thruster
        if term not in value:
            raise error(key, 'missing %r (ds_sim requires gain, offset and max_cmd)' % term)
    return tuple(_float(value.get(term, 0.0), '%s.%s' % (key, term), error, text)
                 for term in DSROS_TERMS)


def _uuv_block(value: Any, key: str, error: ErrorFactory, text: bool) -> Dict[str, Any]:
    """Return the ThrusterSpec fields of a uuv_simulator <dynamics> or <conversion> block."""
    names = dict(UUV_DYNAMICS if key == 'dynamics' else UUV_CONVERSIONS)
    names.update({kind: tuple(alias) for (block, kind), alias in UUV_ALIASES.items()
                  if block == key})
    if not isinstance(value, dict):
        raise error(key, 'expected a mapping of type and its parameters (uuv_simulator)')
    kind = value.get('type')
    if kind not in names:
        raise error(key + '.type', 'expected one of %s, got %r' % (', '.join(names), kind))
    for term in value:
        if term != 'type' and term not in names[kind]:
            raise error('%s.%s' % (key, term), 'unknown parameter %r of %s; expected %s'
                        % (term, kind, ', '.join(names[kind]) or 'none'))
    for term in names[kind]:
        if term not in value:  # uuv_simulator requires every parameter
            raise error(key, '%s needs %s' % (kind, ', '.join(names[kind])))
    alias = UUV_ALIASES.get((key, kind))
    if alias is None:
        return {key + '_type': kind,
                key + '_terms': tuple(_float(value[term], '%s.%s' % (key, term), error, text)
                                      for term in names[kind])}
    if kind != 'LinearInterp':
        return {field: _float(value[term], '%s.%s' % (key, term), error, text)
                for term, field in alias.items()}
    inputs, outputs = (_floats(value[term], '%s.%s' % (key, term), error, text)
                       for term in ('inputValues', 'outputValues'))
    if len(inputs) != len(outputs):
        raise error(key + '.outputValues', '%d output values for %d input values'
                    % (len(outputs), len(inputs)))
    # uuv_simulator keeps the pairs in a std::map: sorted by input value
    pairs = sorted(zip(inputs, outputs))
    return {'lookup_command': tuple(c for c, _ in pairs),
            'lookup_thrust': tuple(t for _, t in pairs)}


def _bool(value: Any, key: str, error: ErrorFactory, text: bool) -> bool:
    if text and isinstance(value, str) and value.strip().lower() in ('true', '1', 'false', '0'):
        return value.strip().lower() in ('true', '1')
    if not isinstance(value, bool):
        raise error(key, 'expected true or false, got %r' % (value,))
    return value


def spec_from_values(values: Dict[str, Any], pose: Tuple[np.ndarray, np.ndarray, np.ndarray],
                     error: ErrorFactory, text: bool = False) -> ThrusterSpec:
    """
    Build and validate a ThrusterSpec from raw key values.

    ``pose`` is (origin in the base, rotation base <- joint, axis in the joint frame);
    ``text`` accepts XML element text for numbers and booleans.
    """
    fields: Dict[str, Any] = {}
    blocks: Dict[str, Any] = {}
    for key, value in values.items():
        if key in _FLOAT_KEYS:
            fields[key] = _float(value, key, error, text)
        elif key in _LIST_KEYS:
            fields[key] = _floats(value, key, error, text)
        elif key in ('dsros_forward', 'dsros_reverse'):
            fields[key] = _dsros_terms(value, key, error, text)
        elif key in ('dynamics', 'conversion'):
            for field, item in _uuv_block(value, key, error, text).items():
                blocks[field] = (key, item)
        elif key in _STRING_KEYS:
            if not isinstance(value, str) or (key == 'joint_name' and not value.strip()):
                raise error(key, 'expected a non-empty string, got %r' % (value,))
            fields[key] = value.strip()
        elif key == 'use_angvel_cmd':
            fields[key] = _bool(value, key, error, text)
        elif key == 'propdir':
            number = _float(value, key, error, text)
            if number != int(number):
                raise error(key, 'expected an integer, got %r' % (value,))
            fields[key] = int(number)
        elif key == 'spin_direction':
            number = _float(value, key, error, text)
            if number not in (1.0, -1.0):
                raise error(key, 'expected 1 or -1, got %r' % (value,))
            fields[key] = int(number)
    if 'joint_name' not in fields:
        raise error('joint_name', 'a thruster needs a <joint_name>')
    origin_of = {}  # problems of a field a uuv_simulator block set name its parameter
    for field, (key, item) in blocks.items():
        if field in fields:
            raise error(key, '%s sets %s, which is given too' % (key, field))
        fields[field] = item
        if field in _ALIAS_OF:
            origin_of[field] = _ALIAS_OF[field]
    origin, rotation, axis = pose
    norm = float(np.linalg.norm(axis))
    if not norm > 0.0:
        raise error('axis', 'the thrust axis is the zero vector')
    spec = ThrusterSpec(translation=tuple(float(v) for v in origin),
                        rotation=tuple(float(v) for v in matrix_to_quat(rotation)),
                        axis=tuple(float(v) for v in np.asarray(axis) / norm), **fields)
    for key, reason in spec.problems():
        raise error(origin_of.get(key, key), 'thruster %r: %s' % (spec.joint_name, reason))
    return spec


def _parent_pose(params: VehicleParams, parent: str) -> Optional[Tuple[np.ndarray, np.ndarray]]:
    try:
        t, q = params.frame_transform(parent)
    except KeyError:
        return None
    return np.asarray(t, float), quat_to_matrix(q)


def check_unique(specs: List[ThrusterSpec], error: ErrorFactory) -> None:
    """Raise (via ``error``) if a joint drives two thrusters."""
    seen = set()
    for spec in specs:
        if spec.joint_name in seen:
            raise error('joint_name', 'joint %r drives two thrusters' % spec.joint_name)
        seen.add(spec.joint_name)


def _urdf_joint_pose(root: ET.Element, params: VehicleParams, name: str, source: str,
                     block: ET.Element) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    joints = [j for j in root.findall('joint') if j.get('name') == name]
    if not joints:
        raise element_error('thruster joint %r is not a joint of the robot' % name, source,
                            block)
    joint = joints[0]
    parent_elem = joint.find('parent')
    parent = parent_elem.get('link', '') if parent_elem is not None else ''
    parent_pose = _parent_pose(params, parent)
    if parent_pose is None:
        raise element_error('thruster joint %r hangs from link %r, which is not the base link '
                            '%r nor fixed to it' % (name, parent, params.base_frame), source,
                            joint)
    xyz, rot, axis = joint_frame(joint, source)
    p_par, r_par = parent_pose
    # Pose composition: T_base_joint = T_base_parent T_parent_joint
    return p_par + r_par @ xyz, r_par @ rot, axis


def gz_thruster_values(block: ET.Element, source: str
                       ) -> Tuple[Dict[str, Any], ErrorFactory]:
    """
    Return the raw values of a gz-sim Thruster <plugin> block and an error factory.

    The same block in a URDF ``<gazebo>`` and in an SDF ``<model>``: unknown or
    repeated elements are errors, ``<joint_name>`` is required; pass the values and
    the joint's pose to :func:`gz_thruster_spec`.
    """
    values: Dict[str, Any] = {}
    children: Dict[str, ET.Element] = {}
    for child in block:
        if not isinstance(child.tag, str):
            continue  # a comment
        if child.tag not in URDF_THRUSTER_KEYS:
            raise element_error('unknown thruster element <%s>; expected one of %s'
                                % (child.tag, ', '.join(sorted(URDF_THRUSTER_KEYS))),
                                source, child)
        if child.tag in children:
            raise element_error('<%s> given twice' % child.tag, source, child)
        children[child.tag] = child
        if child.tag in ('dsros_forward', 'dsros_reverse', 'dynamics', 'conversion'):
            values[child.tag] = {g.tag: (g.text or '').strip() for g in child}
        elif child.tag not in GZ_UNUSED_KEYS:
            values[child.tag] = (child.text or '').strip()

    def error(key: str, reason: str) -> DescriptionError:
        return element_error(reason, source, children.get(key.split('.')[0], block))

    if not values.get('joint_name'):
        raise error('joint_name', 'a gz-sim Thruster plugin needs a <joint_name>')
    return values, error


def gz_thruster_spec(values: Dict[str, Any], pose: Tuple[np.ndarray, np.ndarray, np.ndarray],
                     error: ErrorFactory, params: VehicleParams) -> ThrusterSpec:
    """Return the ThrusterSpec of :func:`gz_thruster_values`' values at the joint ``pose``."""
    spec = spec_from_values(values, pose, error, text=True)
    _warn_ignored_alphas(values, params)
    return spec


def read_urdf_thrusters(root: ET.Element, params: VehicleParams, source: str) -> tuple:
    """Return the ThrusterSpecs of every gz-sim Thruster block in a URDF document."""
    specs = []
    for block in root.iter('plugin'):
        if not is_thruster_plugin(block):
            continue
        values, error = gz_thruster_values(block, source)
        pose = _urdf_joint_pose(root, params, values['joint_name'], source, block)
        specs.append(gz_thruster_spec(values, pose, error, params))
    specs += [_dsros_thruster(block, source) for block in root.iter('plugin')
              if is_dsros_thruster_plugin(block)]
    check_unique(specs, lambda key, reason: DescriptionError(reason, source, 'thrusters'))
    return tuple(specs)


def _dsros_thruster(block: ET.Element, source: str) -> ThrusterSpec:
    """Return the thruster of a ds_sim dsros_thruster <plugin> (pose in the base link)."""
    values: Dict[str, Any] = {}
    children: Dict[str, ET.Element] = {}
    for child in block:
        if child.tag not in DSROS_THRUSTER_KEYS and child.tag not in DSROS_UNUSED_KEYS:
            raise element_error('unknown dsros_thruster element <%s>; expected one of %s'
                                % (child.tag, ', '.join(sorted(set(DSROS_THRUSTER_KEYS)
                                                               | DSROS_UNUSED_KEYS))),
                                source, child)
        children[child.tag] = child
    names = {'thruster_link': 'joint_name', 'forward': 'dsros_forward',
             'reverse': 'dsros_reverse', 'propdir': 'propdir'}

    def error(key: str, reason: str) -> DescriptionError:
        back = {v: k for k, v in names.items()}
        return element_error(reason, source, children.get(back.get(key, key), block))

    for tag, key in names.items():
        if tag in children:
            child = children[tag]
            values[key] = ({g.tag: (g.text or '').strip() for g in child}
                           if tag not in ('thruster_link', 'propdir')
                           else (child.text or '').strip())
    if 'pose' not in children or 'forward' not in children:
        raise error('pose', 'a dsros_thruster plugin needs <pose> and <forward> (ds_sim)')
    pose = _floats((children['pose'].text or ''), 'pose', error, text=True)
    if len(pose) != 6:
        raise error('pose', 'expected x y z roll pitch yaw, got %d numbers' % len(pose))
    # dsros_thruster: thrust along the pose's x axis, applied at the pose's position
    return spec_from_values(values, (np.array(pose[:3]), rpy_to_matrix(pose[3:]),
                                     np.eye(3)[0]), error, text=True)


def _warn_ignored_alphas(values: Dict[str, Any], params: VehicleParams) -> None:
    if 'thrust_coefficient' in values and ({'alpha_1', 'alpha_2'} & set(values)):
        # gz-sim warns the same way: a given thrust_coefficient wins over the alphas
        params.warnings.append('thruster %r: alpha_1/alpha_2 are ignored because a '
                               'thrust_coefficient is given (as in gz-sim)'
                               % values['joint_name'])


def read_yaml_thrusters(value: Any, params: VehicleParams, source: str,
                        frd: bool = False) -> tuple:
    """
    Return the ThrusterSpecs of a YAML ``thrusters`` entry (FRD poses converted).

    Either a mapping keyed by joint name (each value a mapping of the keys; a valid
    ROS 2 parameters file: ``vehicle.thrusters.<joint>.<key>``) or a list of mappings
    with ``joint_name``.
    """
    if isinstance(value, dict):
        items = []
        for name, item in value.items():
            if isinstance(item, dict) and item.get('joint_name', name) != name:
                raise DescriptionError('joint_name %r differs from its key %r'
                                       % (item['joint_name'], name), source,
                                       'thrusters.%s.joint_name' % name)
            entry = dict(item, joint_name=str(name)) if isinstance(item, dict) else item
            items.append(('thrusters.%s' % name, entry))
    elif isinstance(value, list):
        items = [('thrusters[%d]' % k, item) for k, item in enumerate(value)]
    else:
        raise DescriptionError('expected a mapping {joint_name: {...}} or a list of '
                               'mappings', source, 'thrusters')
    flip = np.diag([1.0, -1.0, -1.0])
    specs = []
    for where, item in items:
        def error(key: str, reason: str, _where=where) -> DescriptionError:
            return DescriptionError(reason, source, '%s.%s' % (_where, key))

        if not isinstance(item, dict):
            raise DescriptionError('expected a mapping', source, where)
        for key in item:
            if key not in YAML_THRUSTER_KEYS:
                raise error(str(key), "unknown key '%s'; expected one of %s"
                            % (key, ', '.join(sorted(YAML_THRUSTER_KEYS))))
        parent = item.get('parent', params.base_frame)
        parent_pose = _parent_pose(params, parent) if isinstance(parent, str) else None
        if parent_pose is None:
            raise error('parent', 'unknown frame %r (the base %r or a frame fixed to it)'
                        % (parent, params.base_frame))
        xyz = _vector(item.get('xyz', [0.0, 0.0, 0.0]), 'xyz', error)
        rot = rpy_to_matrix(_vector(item.get('rpy', [0.0, 0.0, 0.0]), 'rpy', error))
        axis = _vector(item.get('axis', [1.0, 0.0, 0.0]), 'axis', error)
        if frd:
            # FRD -> FLU: points and axes r' = P r, rotations R' = P R P, P = diag(1, -1, -1)
            xyz, axis, rot = flip @ xyz, flip @ axis, flip @ rot @ flip
        p_par, r_par = parent_pose
        pose = (p_par + r_par @ xyz, r_par @ rot, axis)
        values = {k: v for k, v in item.items() if k not in YAML_POSE_KEYS}
        specs.append(spec_from_values(values, pose, error))
    check_unique(specs, lambda key, reason: DescriptionError(reason, source, 'thrusters'))
    return tuple(specs)


def _vector(value: Any, key: str, error: ErrorFactory) -> np.ndarray:
    numbers = _floats(value, key, error, text=False)
    if len(numbers) != 3:
        raise error(key, 'expected [x, y, z], got %d numbers' % len(numbers))
    return np.array(numbers)


def describe_thruster(spec: ThrusterSpec, fluid_density: float) -> Dict[str, Any]:
    """Return a plain summary of one thruster (``check`` prints it)."""
    bank = ThrusterBank([spec], fluid_density)
    low, high = spec.command_limits()
    thrusts = []
    for command in (low, high):
        bank.state[:] = bank.steady_state([command])  # steady state at the command limit
        with np.errstate(invalid='ignore'):  # uuv models: unbounded commands, infinite thrust
            bank.evaluate()
        thrusts.append(float(bank.thrust[0]))
    names = UUV_DYNAMICS.get(spec.dynamics_type, ())
    terms = ', '.join('%s %g' % pair for pair in zip(names, spec.dynamics_terms))
    dynamics = [name for name, on in (('first order %g s' % spec.time_constant,
                                       spec.time_constant > 0.0),
                                      ('rate limit %g/s' % spec.max_cmd_rate,
                                       math.isfinite(spec.max_cmd_rate)),
                                      ('%s (%s)' % (spec.dynamics_type, terms),
                                       bool(spec.dynamics_type))) if on]
    # the command: rotor model input, rotor speed, thrust or the model's own command
    command, unit = {'Yoerger': ('Yoerger input', ''), 'Bessa': ('motor voltage', 'V')}.get(
        spec.dynamics_type, ('angular velocity', 'rad/s') if spec.use_angvel_cmd
        or spec.model.startswith('uuv_') else ('thrust', 'N') if spec.model == 'coefficient'
        else (spec.model + ' command', ''))
    return {
        'joint_name': spec.joint_name,
        'model': spec.model,
        'command': command,
        'command_unit': unit,
        'command_limits': [low, high],
        'thrust_range': thrusts,
        'point': spec.point().tolist(),
        'direction': (np.round(spec.direction(), 12) + 0.0).tolist(),
        'dynamics': ', '.join(dynamics) or 'none',
        'deadband': spec.deadband,
    }
