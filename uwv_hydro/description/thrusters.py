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
        <time_constant>0.1</time_constant>          (uwv_hydro extension)
      </plugin>
    </gazebo>

The joint's parent must be the base link or a link fixed to it.  gz-sim's elements for
its physics engine's propeller joint (``velocity_control``, ``p_gain``, ...,
``battery_name``) are accepted and unused; uwv_hydro's extensions (``EXTENSION_KEYS``
of :mod:`uwv_hydro.description.thruster_values`) sit next to gz-sim's.  Unknown
elements are errors.  A ds_sim ``<plugin filename="libdsros_thruster.so">`` block is
read too: named by ``<thruster_link>``, pushing along the x axis of ``<pose>``, with the
``<forward>``/``<reverse>`` polynomials (the ``dsros`` model).

YAML (``vehicle.thrusters``): a mapping joint name -> the same keys plus the joint
itself: ``xyz`` (origin), ``rpy`` and ``axis`` (in the joint frame, default
[1, 0, 0]) relative to ``parent`` (a frame of the vehicle, default the base).  That
form is also a valid ROS 2 parameters file (``vehicle.thrusters.<joint>.xyz``); a
list of mappings with ``joint_name`` is accepted too.  Every key:
doc/reference/thrusters.md.
"""
import math
from typing import Any, Dict, Optional, Tuple
import xml.etree.ElementTree as ET

import numpy as np

from uwv_hydro.description.conventions import quat_to_matrix, rpy_to_matrix
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.thruster_values import (
    check_unique, DSROS_THRUSTER_KEYS, DSROS_UNUSED_KEYS, ErrorFactory, float_list, GZ_UNUSED_KEYS,
    on_body, spec_from_values, URDF_THRUSTER_KEYS, YAML_POSE_KEYS, YAML_THRUSTER_KEYS)
from uwv_hydro.description.urdf_joint import joint_on_body
from uwv_hydro.description.xml_safe import element_error, unique_children
from uwv_hydro.physics.actuators.thruster_bank import ThrusterBank
from uwv_hydro.physics.actuators.thruster_spec import ThrusterSpec, UUV_DYNAMICS
from uwv_hydro.physics.body.vehicle_params import VehicleParams


def is_dsros_thruster_plugin(elem: ET.Element) -> bool:
    """Return True for a ds_sim dsros_thruster <plugin>."""
    return elem.tag == 'plugin' and 'dsros_thruster' in elem.get('filename', '')


def is_thruster_plugin(elem: ET.Element) -> bool:
    """Return True for a gz-sim (or Ignition Gazebo) Thruster system <plugin>."""
    filename, name = elem.get('filename', ''), elem.get('name', '')
    return elem.tag == 'plugin' and ('thruster-system' in filename
                                     or name.endswith('systems::Thruster'))


def _parent_pose(params: VehicleParams, parent: str
                 ) -> Optional[Tuple[np.ndarray, np.ndarray, str]]:
    """Return (position, rotation) of a frame in the base at zero joints, and its tree body."""
    try:
        t, q = params.frame_transform(parent)
    except KeyError:
        tree = params.tree
        body = tree.body_of(parent) if tree is not None else None
        if body is None:
            return None
        p_b, r_b = tree.zero_pose(body)
        p_l, r_l = tree.link_in_body(body, parent)
        # T_base_body(0) T_body_link
        return p_b + r_b @ p_l, r_b @ r_l, '' if body == tree.base else body
    return np.asarray(t, float), quat_to_matrix(q), ''


def _urdf_joint_pose(root: ET.Element, params: VehicleParams, name: str, source: str,
                     block: ET.Element) -> Tuple[str, tuple]:
    """Return (tree body or '', (origin, rotation, axis) in the base at zero joints)."""
    joints = [j for j in root.findall('joint') if j.get('name') == name]
    if not joints:
        raise element_error('thruster joint %r is not a joint of the robot' % name, source,
                            block)
    body, origin, rotation, axis = joint_on_body(joints[0], params, source, 'thruster')
    return body, (origin, rotation, axis)


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
    for child in unique_children(block, source, URDF_THRUSTER_KEYS, 'thruster'):
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
        body, pose = _urdf_joint_pose(root, params, values['joint_name'], source, block)
        specs.append(on_body(gz_thruster_spec(values, pose, error, params), body, params))
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
    pose = float_list((children['pose'].text or ''), 'pose', error, text=True)
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
            raise error('parent', 'unknown frame %r (the base %r, a frame fixed to it or a '
                        'link of the joint tree)' % (parent, params.base_frame))
        xyz = _vector(item.get('xyz', [0.0, 0.0, 0.0]), 'xyz', error)
        rot = rpy_to_matrix(_vector(item.get('rpy', [0.0, 0.0, 0.0]), 'rpy', error))
        axis = _vector(item.get('axis', [1.0, 0.0, 0.0]), 'axis', error)
        if frd:
            # FRD -> FLU: points and axes r' = P r, rotations R' = P R P, P = diag(1, -1, -1)
            xyz, axis, rot = flip @ xyz, flip @ axis, flip @ rot @ flip
        p_par, r_par, body = parent_pose
        pose = (p_par + r_par @ xyz, r_par @ rot, axis)
        values = {k: v for k, v in item.items() if k not in YAML_POSE_KEYS}
        specs.append(on_body(spec_from_values(values, pose, error), body, params))
    check_unique(specs, lambda key, reason: DescriptionError(reason, source, 'thrusters'))
    return tuple(specs)


def _vector(value: Any, key: str, error: ErrorFactory) -> np.ndarray:
    numbers = float_list(value, key, error, text=False)
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
        or spec.model.startswith('uuv_') else ('thrust', 'N')
        if spec.model in ('coefficient', 'propeller') else (spec.model + ' command', ''))
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
