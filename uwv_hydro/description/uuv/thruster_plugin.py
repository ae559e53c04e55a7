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
Read uuv_simulator thruster plugins (``libuuv_thruster_ros_plugin.so``) in a URDF.

Elements and defaults as uuv_simulator's ``uuv_gazebo_plugins/src/ThrusterPlugin.cc``
(``ThrusterPlugin::Load``) reads them; the rexrov/lauv xacros write them through
``uuv_gazebo_ros_plugins/urdf/thruster_snippets.xacro``: ``<linkName>`` (required, where
the force acts), ``<jointName>`` (its axis the thrust direction), ``<thrusterID>``
(required), ``<gain>``, ``<clampMin>``/``<clampMax>``, ``<thrustMin>``/``<thrustMax>``,
``<thrust_efficiency>``, ``<propeller_efficiency>``, ``<dynamics>`` and ``<conversion>``.

uuv's update (``ThrusterPlugin::Update``): x = propeller_efficiency * dynamics(gain *
clamp(u, clampMin, clampMax)), T = clamp(thrust_efficiency * conversion(x), thrustMin,
thrustMax), along the joint axis at the thruster link's centre of mass (``AddRelativeForce``).

The result is the :class:`ThrusterSpec` the YAML ``dynamics``/``conversion`` blocks give
(:func:`uwv_hydro.description.thrusters.spec_from_values`), with the scale factors folded
into the model's own terms (exact, the conversion being homogeneous in x):

* gain: into the command of ZeroOrder/FirstOrder, into ``beta`` (Yoerger) or ``Kt``
  (Bessa) otherwise (a negative gain mirrors the rotor state);
* s = propeller_efficiency (times the gain for a linear rotor): Basic: rotorConstant
  s|s|; Bessa: rotorConstantL/R s^2, deltaL/R / s^2; LinearInterp: inputValues / s;
  thrust_efficiency multiplies rotorConstant(s) or outputValues;
* thrustMin/thrustMax: a lookup table is clipped (breakpoints added); for Basic/Bessa
  the limit becomes the command whose steady thrust it is (exact in transients too:
  the rotor state never overshoots its steady state from rest).

Commands: ``/{robot name}/thrusters/id_{thrusterID}/input`` (Plankton's topic: uuv's
``thrusters/0/input`` is no valid ROS 2 name), std_msgs/Float64.  Defaults and the
dynamics/conversion types: doc/guide/uuv_dave_dssim.md.
"""
import math
from typing import Any, Dict, List, Tuple
import xml.etree.ElementTree as ET

import numpy as np

from uwv_hydro.description.element_report import record, where
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.plugin_number import plugin_float
from uwv_hydro.description.thruster_values import on_body, spec_from_values
from uwv_hydro.description.urdf_joint import joint_on_body, origin_of
from uwv_hydro.description.uuv.blocks import one, typed_block
from uwv_hydro.description.xml_safe import element_error
from uwv_hydro.physics.actuators.thruster_spec import ThrusterSpec, UUV_CONVERSIONS, UUV_DYNAMICS
from uwv_hydro.physics.body.vehicle_params import VehicleParams

#: Elements of the plugin (ThrusterPlugin.cc Load) and what they mean.
UUV_THRUSTER_KEYS = {
    'linkName': 'thruster link (force applied at it)', 'jointName': 'thruster joint (axis)',
    'thrusterID': 'topic thrusters/id_<id>/input', 'gain': 'command gain (1)',
    'clampMin': 'smallest command', 'clampMax': 'largest command',
    'thrustMin': 'smallest thrust (N)', 'thrustMax': 'largest thrust (N)',
    'thrust_efficiency': 'thrust factor in [0, 1]',
    'propeller_efficiency': 'rotor state factor in [0, 1]',
    'dynamics': 'rotor dynamics block', 'conversion': 'rotor state -> thrust block',
}
#: uuv's rotor models without parameters of their own in UUV_DYNAMICS (Dynamics.cc).
_LINEAR_DYNAMICS = {'ZeroOrder': (), 'FirstOrder': ('timeConstant',)}
#: Parameters of every conversion (ThrusterConversionFcn.cc).
_CONVERSIONS = dict(UUV_CONVERSIONS, LinearInterp=('inputValues', 'outputValues'))


def is_uuv_thruster_plugin(elem: ET.Element) -> bool:
    """Return True for a uuv_simulator thruster <plugin> (ROS or plain)."""
    return elem.tag == 'plugin' and 'uuv_thruster' in elem.get('filename', '')


def _odd_sqrt(b: float) -> float:
    """Return x with x|x| = b."""
    return math.copysign(math.sqrt(abs(b)), b)


def _clip_table(inputs, outputs, low: float, high: float) -> Tuple[tuple, tuple]:
    """Return the table of clip(interp(c), low, high): crossings added, values clipped."""
    c, t = list(inputs), list(outputs)
    out_c, out_t = [c[0]], [t[0]]
    for k in range(len(c) - 1):
        for level in sorted((low, high), reverse=t[k + 1] < t[k]):
            if math.isfinite(level) and min(t[k], t[k + 1]) < level < max(t[k], t[k + 1]):
                # linear interpolation: the command where the segment reaches the limit
                out_c.append(c[k] + (level - t[k]) * (c[k + 1] - c[k]) / (t[k + 1] - t[k]))
                out_t.append(level)
        out_c.append(c[k + 1])
        out_t.append(t[k + 1])
    return tuple(out_c), tuple(min(max(v, low), high) for v in out_t)


def _limited(block: ET.Element, low_tag: str, high_tag: str, source: str,
             notes: List[str]) -> Tuple[float, float]:
    """Return (min, max) of a uuv limit pair; min >= max resets both (ThrusterPlugin.cc)."""
    values = []
    for tag, default in ((low_tag, -math.inf), (high_tag, math.inf)):
        elem = one(block, tag, source)
        values.append(plugin_float(elem, source, notes) if elem is not None else default)
    if not values[0] < values[1]:
        notes.append('%s %g >= %s %g: no limit (uuv_simulator resets both)'
                     % (low_tag, values[0], high_tag, values[1]))
        return -math.inf, math.inf
    return values[0], values[1]


def _efficiency(block: ET.Element, tag: str, source: str, notes: List[str]) -> float:
    elem = one(block, tag, source)
    if elem is None:
        return 1.0
    value = plugin_float(elem, source, notes)
    if not 0.0 <= value <= 1.0:  # ThrusterPlugin.cc: "setting it to 100%"
        notes.append('%s %g outside [0, 1]: 1 (as uuv_simulator)' % (tag, value))
        return 1.0
    return value


Folded = Tuple[Dict[str, Any], Dict[str, Any], Tuple[float, float], str]


def _fold(block: ET.Element, source: str, notes: List[str]) -> Folded:
    """
    Return (dynamics, conversion, command limits, what was folded) with the factors folded in.

    The last item names the factors other than 1 and the thrust limits, for the record.
    """
    dyn_names = dict(_LINEAR_DYNAMICS, **UUV_DYNAMICS)
    dyn_kind, dyn, _ = typed_block(block, 'dynamics', dyn_names, source, 'thruster',
                                   warnings=notes)
    conv_kind, conv, conv_elem = typed_block(block, 'conversion', _CONVERSIONS, source,
                                             'thruster', ('inputValues', 'outputValues'),
                                             notes)
    gain_elem = one(block, 'gain', source)
    gain = plugin_float(gain_elem, source, notes) if gain_elem is not None else 1.0
    clamp = _limited(block, 'clampMin', 'clampMax', source, notes)
    thrust = _limited(block, 'thrustMin', 'thrustMax', source, notes)
    te = _efficiency(block, 'thrust_efficiency', source, notes)
    pe = _efficiency(block, 'propeller_efficiency', source, notes)
    if gain == 0.0 or te == 0.0 or pe == 0.0:
        raise element_error('gain, thrust_efficiency or propeller_efficiency is zero: this '
                            'thruster never pushes; remove it', source, block)
    if dyn_kind in _LINEAR_DYNAMICS:
        s = gain * pe  # x = pe * lag(gain u): the lag is linear in its input
    else:
        # J w' = k_u g u - ...: w -> sign(g) w keeps the model with k_u |g| (odd in w)
        dyn['beta' if dyn_kind == 'Yoerger' else 'Kt'] *= abs(gain)
        s = math.copysign(pe, gain)
    if conv_kind == 'Basic':
        # T = te k (s x)|s x| = (te k s|s|) x|x|
        conv['rotorConstant'] *= te * s * abs(s)
    elif conv_kind == 'Bessa':
        if s < 0.0:
            raise element_error('a negative gain mirrors a Bessa dead-zone conversion, which '
                                'the Bessa form cannot hold', source, gain_elem)
        # T = te kL ((s x)|s x| - dL) = (te kL s^2)(x|x| - dL / s^2), likewise R
        for side in 'LR':
            conv['rotorConstant' + side] *= te * s * s
            conv['delta' + side] /= s * s
    else:
        if len(conv['inputValues']) != len(conv['outputValues']):
            raise element_error('LinearInterp: %d outputValues for %d inputValues'
                                % (len(conv['outputValues']), len(conv['inputValues'])),
                                source, conv_elem)
        # T = te interp(s x): the table at inputs / s (re-sorted), outputs times te
        pairs = sorted(zip((v / s for v in conv['inputValues']),
                           (te * v for v in conv['outputValues'])))
        conv = {'inputValues': tuple(p[0] for p in pairs),
                'outputValues': tuple(p[1] for p in pairs)}
    limits = clamp
    if math.isfinite(thrust[0]) or math.isfinite(thrust[1]):
        if not thrust[0] <= 0.0 <= thrust[1]:
            raise element_error('thrust limits [%g, %g] N exclude zero thrust: the thruster '
                                'could never stop' % thrust, source, block)
        if conv_kind == 'LinearInterp':
            if len(conv['inputValues']) == len(conv['outputValues']) > 1:
                conv['inputValues'], conv['outputValues'] = _clip_table(
                    conv['inputValues'], conv['outputValues'], *thrust)
        elif _invertible(dyn_kind, dyn, conv_kind, conv):  # else the spec check refuses it
            bounds = sorted(_command_for(t, upper, dyn_kind, dyn, conv_kind, conv)
                            for t, upper in zip(thrust, (False, True)))
            limits = (max(clamp[0], bounds[0]), min(clamp[1], bounds[1]))
    dyn = dict(dyn, type=dyn_kind)
    conv = dict(conv, type=conv_kind)
    folded = ['%s %g' % pair for pair in (('gain', gain), ('thrust_efficiency', te),
                                          ('propeller_efficiency', pe)) if pair[1] != 1.0]
    folded += ['thrust limits [%g, %g] N' % thrust] if thrust != (-math.inf, math.inf) else []
    return dyn, conv, limits, ', '.join(folded)


def _invertible(dyn_kind: str, dyn: Dict[str, float], conv_kind: str,
                conv: Dict[str, float]) -> bool:
    """Return True if the steady thrust of the models is monotone in the command."""
    if conv_kind == 'Basic' and conv['rotorConstant'] == 0.0:
        return False
    if conv_kind == 'Bessa' and not (conv['rotorConstantL'] >= 0.0
                                     and conv['rotorConstantR'] >= 0.0):
        return False
    divisor = {'Yoerger': ('beta', 'alpha'), 'Bessa': ('Kt', 'Rm')}.get(dyn_kind, ())
    return all(dyn[key] > 0.0 for key in divisor)


def _command_for(thrust: float, upper: bool, dyn_kind: str, dyn: Dict[str, float],
                 conv_kind: str, conv: Dict[str, float]) -> float:
    """
    Return the command whose steady thrust is ``thrust`` (monotone models; +-inf kept).

    Zero thrust in a Bessa dead zone: its upper edge for an ``upper`` limit, else its lower.
    """
    if conv_kind == 'Basic':
        k = conv['rotorConstant']
        # Basic: T = k x|x|
        x = _odd_sqrt(thrust / k) if math.isfinite(thrust) else math.copysign(
            math.inf, thrust * k)
    else:
        side = 'R' if thrust > 0.0 or (thrust == 0.0 and upper) else 'L'
        k, delta = conv['rotorConstant' + side], conv['delta' + side]
        if math.isinf(thrust) or (k == 0.0 and thrust != 0.0):
            x = math.copysign(math.inf, thrust)
        else:
            # Bessa: T = k (x|x| - delta) on this side of the dead zone
            x = _odd_sqrt(thrust / k + delta if k else delta)
    if dyn_kind in _LINEAR_DYNAMICS or math.isinf(x):
        return x
    if dyn_kind == 'Yoerger':
        # steady Yoerger rotor: beta u = alpha x|x|
        return dyn['alpha'] * x * abs(x) / dyn['beta']
    # steady Bessa rotor: Kt/Rm u = Kv1 x + Kv2 x|x|
    return (dyn['Kv1'] * x + dyn['Kv2'] * x * abs(x)) * dyn['Rm'] / dyn['Kt']


def _joint_of(root: ET.Element, block: ET.Element, link: str, source: str) -> ET.Element:
    name_elem = one(block, 'jointName', source)
    joints = root.findall('joint')
    if name_elem is not None:
        name = (name_elem.text or '').strip()
        found = [j for j in joints if j.get('name') == name]
        if not found:
            raise element_error('thruster joint %r is not a joint of the robot' % name,
                                source, name_elem)
        child = found[0].find('child')
        if child is None or child.get('link') != link:
            raise element_error('uuv thruster: joint %r does not carry the thruster link %r'
                                % (name, link), source, name_elem)
        return found[0]
    found = [j for j in joints if j.find('child') is not None
             and j.find('child').get('link') == link]
    if not found:  # uuv's thruster axis is the joint's
        raise element_error('uuv thruster link %r is the child of no joint (its axis is the '
                            'thrust direction)' % link, source, block)
    return found[0]


def _pose(root, block, link, params, source):
    """Return (point, rotation base <- link, axis in the link, joint, tree body or '')."""
    joint = _joint_of(root, block, link, source)
    body, origin, rotation, axis = joint_on_body(joint, params, source, 'thruster')
    links = [e for e in root.findall('link') if e.get('name') == link]
    com = np.zeros(3)
    if links and links[0].find('inertial') is not None:
        com = origin_of(links[0].find('inertial'), source)[0]
    # the force at the link's CoM
    return origin + rotation @ com, rotation, axis, joint, body


def read_uuv_thrusters(root: ET.Element, params: VehicleParams, source: str
                       ) -> List[ThrusterSpec]:
    """Return the ThrusterSpecs of every uuv_simulator thruster plugin (records each)."""
    specs = []
    by_note: Dict[str, List[str]] = {}
    for block in (e for e in root.iter('plugin') if is_uuv_thruster_plugin(e)):
        notes: List[str] = []
        for child in block:
            if child.tag not in UUV_THRUSTER_KEYS:
                notes.append('unknown element <%s> ignored (as uuv_simulator)' % child.tag)
        link_elem = one(block, 'linkName', source)
        id_elem = one(block, 'thrusterID', source)
        if link_elem is None or not (link_elem.text or '').strip() or id_elem is None:
            raise element_error('a uuv_simulator thruster needs <linkName> and <thrusterID> '
                                '(uuv asserts them)', source, block)
        link = link_elem.text.strip()
        thruster_id = (id_elem.text or '').strip()
        try:
            number = int(thruster_id)
        except ValueError:
            raise element_error('thrusterID: expected an integer, got %r' % thruster_id,
                                source, id_elem) from None
        point, rotation, axis, joint, body = _pose(root, block, link, params, source)
        dyn, conv, limits, folded = _fold(block, source, notes)
        # ThrusterPlugin.cc: /<model>/thrusters/<id>/input; a ROS 2 name token may not
        # start with a digit, so Plankton (uuv_simulator's ROS 2 port) writes id_<id>
        values: Dict[str, Any] = {'joint_name': joint.get('name', ''), 'dynamics': dyn,
                                  'conversion': conv, 'namespace': '/' + params.name,
                                  'topic': 'thrusters/id_%d/input' % number}
        if math.isfinite(limits[0]):
            values['min_thrust_cmd'] = limits[0]
        if math.isfinite(limits[1]):
            values['max_thrust_cmd'] = limits[1]

        def error(key: str, reason: str, _block=block) -> DescriptionError:
            tag = {'dynamics': 'dynamics', 'conversion': 'conversion'}.get(key.split('.')[0])
            elem = _block.find(tag) if tag else None
            return element_error('%s: %s' % (key, reason), source,
                                 elem if elem is not None else _block)

        spec = on_body(spec_from_values(values, (point, rotation, axis), error, text=False),
                       body, params)
        specs.append(spec)
        record(params, 'thruster', spec.joint_name, where(source, block),
               'warned' if notes else 'read',
               'uuv_simulator %s/%s -> %s model%s, topic %s%s'
               % (dyn['type'], conv['type'], spec.model,
                  ' (%s folded into its terms)' % folded if folded else '', values['topic'],
                  ''.join('; ' + n for n in notes)))
        for note in notes:
            by_note.setdefault(note, []).append(spec.joint_name)
    for note, names in by_note.items():  # one line per finding, naming every thruster
        params.warnings.append('uuv_simulator thrusters %s: %s' % (', '.join(names), note))
    return specs
