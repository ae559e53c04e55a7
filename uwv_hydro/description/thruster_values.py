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
The thruster keys every format shares and their parsing into a ThrusterSpec.

gz-sim's Thruster system parameters (:data:`GZ_KEYS`), uwv_hydro's extensions beside them
(:data:`EXTENSION_KEYS`), uuv_simulator's and ds_sim's blocks, and the YAML pose keys;
:func:`spec_from_values` turns one thruster's values -- from XML text or YAML -- into a
:class:`~uwv_hydro.physics.actuators.thruster_spec.ThrusterSpec`, with errors naming the key.  The
readers of each format are in :mod:`uwv_hydro.description.thrusters` (URDF, ds_sim,
YAML), :mod:`uwv_hydro.description.sdf.equipment` and
:mod:`uwv_hydro.description.uuv.thruster_plugin`.
"""
from dataclasses import replace
import math
from typing import Any, Callable, Dict, List, Tuple

import numpy as np

from uwv_hydro.description.conventions import matrix_to_quat
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.physics.actuators.thruster_spec import (
    DSROS_TERMS, ThrusterSpec, UUV_CONVERSIONS, UUV_DYNAMICS)
from uwv_hydro.physics.spatial.unit_vector import unit_vector

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
    'kt_polynomial': 'propeller model: K_T(J) = sum a_i J^i, J = Va/(n D), n in rev/s '
                     '(constant term first; with use_angvel_cmd)',
    'kq_polynomial': 'propeller model: K_Q(J) of the reaction torque K_Q rho D^5 n|n|',
    'thrust_deduction': 'propeller model: t, the hull takes (1 - t) T',
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
               'time_constant', 'max_cmd_rate', 'torque_coefficient', 'torque_per_thrust',
               'thrust_deduction')
_STRING_KEYS = ('joint_name', 'namespace', 'topic')
_LIST_KEYS = ('lookup_command', 'lookup_thrust', 'kt_polynomial', 'kq_polynomial')

#: error(key, reason) -> DescriptionError pointing at the key.
ErrorFactory = Callable[[str, str], DescriptionError]


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


def float_list(value: Any, key: str, error: ErrorFactory, text: bool) -> Tuple[float, ...]:
    """Return the finite floats of a list (or, from XML text, a space-separated string)."""
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
    inputs, outputs = (float_list(value[term], '%s.%s' % (key, term), error, text)
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
            fields[key] = float_list(value, key, error, text)
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
    unit = unit_vector(axis)
    if unit is None:
        raise error('axis', 'the thrust axis is the zero vector or not finite: %s'
                    % [float(v) for v in np.ravel(axis)])
    spec = ThrusterSpec(translation=tuple(float(v) for v in origin),
                        rotation=tuple(float(v) for v in matrix_to_quat(rotation)),
                        axis=tuple(float(v) for v in unit), **fields)
    for key, reason in spec.problems():
        raise error(origin_of.get(key, key), 'thruster %r: %s' % (spec.joint_name, reason))
    return spec


def check_unique(specs: List[ThrusterSpec], error: ErrorFactory) -> None:
    """Raise (via ``error``) if a joint drives two thrusters."""
    seen = set()
    for spec in specs:
        if spec.joint_name in seen:
            raise error('joint_name', 'joint %r drives two thrusters' % spec.joint_name)
        seen.add(spec.joint_name)


def on_body(spec: ThrusterSpec, body: str, params) -> ThrusterSpec:
    """
    Return ``spec`` pushing body ``body`` of the kinematic tree ('': the base, unchanged).

    Its pose stays where it sits at zero joint positions (the lumped vehicle's); the
    articulated simulation moves it to its body (modes/body_wrenches.py), where its thrust
    reads its own link's inflow.
    """
    if not body:
        return spec
    return replace(spec, body=body)
