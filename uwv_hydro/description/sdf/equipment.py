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
Equipment of an SDF <model>: thrusters, fins, buoyancy engines, sensors, other plugins.

One entry, :func:`read_sdf_equipment`, called through the SDF reader's
:func:`uwv_hydro.description.vehicle_from_sdf.read_equipment` hook, with the model
flattened (nested and included models, scoped names) and the link poses in
the base frame (:mod:`uwv_hydro.description.sdf.frames`).  A plugin of a nested model
names its joints and links in its own scope first (sdformat scoping):

* gz-sim ``Thruster`` plugins (gz-sim ``src/systems/thruster/Thruster.cc``): the same
  block as in a URDF ``<gazebo>`` (:func:`uwv_hydro.description.thrusters.gz_thruster_values`),
  at the pose of the SDF joint ``<joint_name>`` (its parent the base or fixed to it);
* gz-sim ``LiftDrag`` plugins (gz-sim ``src/systems/lift_drag/LiftDrag.cc``): fins as
  the URDF reader makes them (:func:`uwv_hydro.description.fins.liftdrag_coefficients`),
  ``cp``/``forward``/``upward`` in the ``<link_name>`` link's frame, the revolute
  ``<control_joint_name>`` (``<axis><limit>``) the deflection joint; without it, a
  link carried by a revolute joint is deflected by that joint (gz-sim takes the angle
  of attack from the link's own pose), ``control_joint_rad_to_cl`` then unused;
* gz-sim ``BuoyancyEngine`` plugins (gz-sim ``src/systems/buoyancy_engine/
  BuoyancyEngine.cc``) into
  :class:`uwv_hydro.physics.actuators.buoyancy_engine.BuoyancyEngineSpec`;
* link ``<sensor>`` elements and DAVE's pressure plugin
  (:mod:`uwv_hydro.description.sdf.sensors`);
* gz-sim ``JointPositionController`` plugins driving a fin's joint give the fin its
  command topic (:mod:`uwv_hydro.description.sdf.joint_controller`; the PID is named
  in a warning as not simulated);
* every other model plugin (OdometryPublisher, JointPositionController of other
  joints, ...) is recorded 'warned' as not modelled (the hull's Hydrodynamics,
  Buoyancy and uwv_hydro plugins are the model reader's).  Every element is recorded in
  ``params.elements``; what each gives: doc/guide/sdf_equipment.md.
"""
from typing import Dict, List, Tuple
import xml.etree.ElementTree as ET

import numpy as np

from uwv_hydro.description.element_report import record, where
from uwv_hydro.description.fins import (
    check_fin_names, GZ_CONTROL_JOINT_RAD_TO_CL, is_liftdrag_plugin, liftdrag_coefficients,
    liftdrag_names)
from uwv_hydro.description.name_checks import is_hydro_plugin
from uwv_hydro.description.sdf.frames import compose, FlatModel, inverse, joint_axis, Pose
from uwv_hydro.description.sdf.gz_hydrodynamics import is_gz_hydrodynamics_plugin
from uwv_hydro.description.sdf.joint_controller import (
    controller_joints, controller_topic, controller_warning, is_joint_position_controller)
from uwv_hydro.description.sdf.model_choice import is_uwv_plugin
from uwv_hydro.description.sdf.sensors import (
    dave_pressure_sensor, is_dave_pressure_plugin, read_link_sensors)
from uwv_hydro.description.sensor_links import check_sensor_links, merge_sensors
from uwv_hydro.description.thruster_values import check_unique, on_body
from uwv_hydro.description.thrusters import (
    gz_thruster_spec, gz_thruster_values, is_thruster_plugin)
from uwv_hydro.description.xml_safe import element_error, unique_children
from uwv_hydro.description.xml_values import float_text
from uwv_hydro.physics.actuators.buoyancy_engine import BuoyancyEngineSpec
from uwv_hydro.physics.body.vehicle_params import Fin, VehicleParams

#: Elements of a gz-sim BuoyancyEngine <plugin> (BuoyancyEngine.cc Configure).
BUOYANCY_ENGINE_KEYS = frozenset(('link_name', 'namespace', 'min_volume', 'max_volume',
                                  'default_volume', 'neutral_volume', 'max_inflation_rate',
                                  'fluid_density', 'surface'))
#: Model plugins that are not equipment, with what they do in gz-sim (the note).
OTHER_PLUGIN_NOTES = {
    'jointcontroller': 'joint velocity control',
    'odometrypublisher': 'odometry publisher (simulate mode publishes odometry)',
    'posepublisher': 'pose publisher (simulate mode publishes /tf)',
    'jointstatepublisher': 'joint state publisher',
    'sensors': 'sensor system (the sensors are read from the links)',
    'imu': 'IMU system (the IMU sensors are read from the links)',
    'navsat': 'NavSat system (the navsat sensors are read from the links)',
    'magnetometer': 'magnetometer system',
    'airpressure': 'air pressure system',
    'altimeter': 'altimeter system',
    'contact': 'contact system',
    'usercommands': 'user commands',
    'scenebroadcaster': 'scene broadcaster',
    'batteryplugin': 'battery model (linear_battery)',
    'linearbattery': 'battery model',
    'detachablejoint': 'detachable joint',
    'triggeredpublisher': 'triggered publisher',
    'velocitycontrol': 'velocity control',
    'applylinkwrench': 'link wrench input',
}


def _is_buoyancy_engine(plugin: ET.Element) -> bool:
    text = (plugin.get('filename', '') + ' ' + plugin.get('name', '')).lower()
    return 'buoyancy-engine' in text or 'buoyancyengine' in text


def _plugin_label(plugin: ET.Element) -> str:
    return plugin.get('name') or plugin.get('filename') or 'plugin'


def read_sdf_equipment(flat: FlatModel, params: VehicleParams, source: str,
                       poses: Dict[str, Pose]) -> None:
    """
    Read the equipment of an SDF model into ``params`` and record every element.

    ``flat`` is the model with its nested models flattened (scoped names,
    :func:`uwv_hydro.description.sdf.frames.flatten_model`); ``poses`` maps every
    scoped link name to (position, rotation 3x3) in the base frame at zero joint
    positions, as the SDF reader lumped them.  ``params.frames`` holds the links
    rigidly attached to the base (the SDF reader's rigid set).  Thrusters, fins and
    sensors are added to those ``params`` holds; buoyancy engines set
    ``params.buoyancy_engines``.
    """
    fixed = {params.base_frame} | set(params.frames)
    to_base = inverse(flat.pose(params.base_frame))
    thrusters = list(params.thrusters)
    fins: List[Fin] = list(params.fins)
    engines = []
    sensors = []
    controllers = []
    for plugin, scope in flat.plugins:
        place = where(source, plugin)
        if is_thruster_plugin(plugin):
            values, error = gz_thruster_values(plugin, source)
            joint = _joint(flat, values['joint_name'], scope, plugin, 'thruster')
            body = _carrying_body(flat, joint, fixed, params, source, 'thruster')
            spec = on_body(gz_thruster_spec(values, _joint_pose(flat, joint, to_base), error,
                                            params), body, params)
            thrusters.append(spec)
            record(params, 'thruster', spec.joint_name, place, 'read', '%s model%s' % (
                spec.model, ', on moving body %r' % body if body else ''))
        elif is_liftdrag_plugin(plugin):
            fin = _liftdrag_fin(plugin, scope, flat, poses, fixed, to_base, params, source)
            fins.append(fin)
            record(params, 'fin', fin.name, place, 'read', '%s model' % fin.model)
        elif _is_buoyancy_engine(plugin):
            engine = _buoyancy_engine(plugin, scope, flat, poses, params, source)
            engines.append(engine)
            record(params, 'buoyancy_engine', engine.link_name, place, 'read',
                   'bladder force rho g (V - V_neutral) at the link in simulate mode; '
                   'volume commands on %s' % engine.command_topic())
        elif is_joint_position_controller(plugin):
            controllers.append((plugin, scope, place))  # once the fins are known
        elif is_dave_pressure_plugin(plugin):
            sensors.append(dave_pressure_sensor(plugin, flat.element, params, source))
        elif is_gz_hydrodynamics_plugin(plugin) or is_hydro_plugin(plugin) or \
                is_uwv_plugin(plugin):
            continue  # the hull: the model reader's (recorded there)
        else:
            key = _plugin_label(plugin).rsplit(':', 1)[-1].lower()
            key = key.replace('gz-sim-', '').replace('-system', '').replace('-', '')
            note = OTHER_PLUGIN_NOTES.get(key, 'model plugin %r' % _plugin_label(plugin))
            record(params, 'plugin', _plugin_label(plugin), place, 'warned',
                   'not modelled: ' + note)
    for plugin, scope, place in controllers:
        _joint_controller(plugin, scope, place, flat, fins, params)
    sensors += read_link_sensors(flat, params, source, poses, fixed)
    check_unique(thrusters, lambda key, reason: element_error(reason, source, flat.element))
    check_fin_names(fins, source)
    params.thrusters = tuple(thrusters)
    params.fins = fins
    params.buoyancy_engines = tuple(params.buoyancy_engines) + tuple(engines)
    merged = merge_sensors(params.sensors, sensors)
    check_sensor_links(merged, params, source)
    params.sensors = merged


def _scoped(names, name: str, scope: str) -> str:
    """Return the scoped name ``name`` refers to from ``scope`` (sdformat scoping), or ''."""
    for candidate in (scope + name, name):
        if candidate in names:
            return candidate
    return ''


def _joint(flat: FlatModel, name: str, scope: str, elem: ET.Element, what: str) -> str:
    """Return the scoped name of the joint ``name`` that ``elem`` (in ``scope``) names."""
    found = _scoped(flat.joints, name, scope)
    if not found:
        raise element_error('%s joint %r is not a joint of the model' % (what, name),
                            flat.source, elem)
    return found


def _joint_pose(flat: FlatModel, joint: str, to_base: Pose
                ) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return (origin, rotation base <- joint, axis in the joint frame) of a scoped joint."""
    origin, rotation = compose(to_base, flat.pose(joint))
    return origin, rotation, joint_axis(flat, joint)


def _end(flat: FlatModel, joint: str, tag: str) -> str:
    """Return the scoped frame a joint's <parent> or <child> names ('' if none)."""
    elem = flat.joints[joint].find(tag)
    text = (elem.text or '').strip() if elem is not None else ''
    return flat.lookup(text, flat.scope_of(joint), elem) if text else ''


def _check_parent(flat: FlatModel, joint: str, fixed, params: VehicleParams, source: str,
                  what: str) -> None:
    parent = _end(flat, joint, 'parent')
    if parent not in fixed:
        raise element_error('%s joint %r hangs from link %r, which is not the base link %r '
                            'nor fixed to it' % (what, joint, parent, params.base_frame),
                            source, flat.joints[joint])


def _carrying_body(flat: FlatModel, joint: str, fixed, params: VehicleParams, source: str,
                   what: str) -> str:
    """Return '' for a joint hanging from the base (or fixed to it), else its tree body."""
    parent = _end(flat, joint, 'parent')
    tree = params.tree
    body = tree.body_of(parent) if tree is not None and parent not in fixed else None
    if body is None:
        _check_parent(flat, joint, fixed, params, source, what)
        return ''
    return '' if body == tree.base else body


def _liftdrag_fin(plugin: ET.Element, scope: str, flat: FlatModel, poses: Dict[str, Pose],
                  fixed, to_base: Pose, params: VehicleParams, source: str) -> Fin:
    """Return the Fin of one SDF LiftDrag block (gz-sim LiftDrag.cc element names)."""
    name, link_elem, joint_elem = liftdrag_names(plugin, source)
    link = _scoped(poses, name, scope)
    if not link:
        raise element_error('LiftDrag link %r is not a link of the model whose pose is '
                            'known' % name, source, link_elem)
    p_link, r_link = poses[link]
    fin = Fin(name=link, source=source)
    if joint_elem is not None:
        joint = _joint(flat, (joint_elem.text or '').strip(), scope, joint_elem, 'fin control')
        if _end(flat, joint, 'child') != link:
            raise element_error('LiftDrag <link_name> %r must be the child link of its '
                                'control joint %r' % (name, joint), source, link_elem)
        origin = _fin_joint(flat, joint, fin, fixed, to_base, params, source, 'control')
        fin.control_joint_rad_to_cl = GZ_CONTROL_JOINT_RAD_TO_CL
    elif link in fixed:
        origin = p_link
        fin.lower = fin.upper = 0.0
    else:
        # gz-sim LiftDrag takes alpha from the link's own pose: the link's joint deflects it
        carrying = [j for j in flat.joints if _end(flat, j, 'child') == link]
        if not carrying:
            raise element_error('LiftDrag link %r has no <control_joint_name>, is not the '
                                'base link or fixed to it and no joint carries it'
                                % link, source, link_elem)
        origin = _fin_joint(flat, carrying[0], fin, fixed, to_base, params, source,
                            'carrying')
    fin.position = np.array(origin, float)
    fin = liftdrag_coefficients(plugin, fin, r_link, params, source)
    # cp is in the link frame about the link origin; the Fin's about the joint origin
    fin.cp = np.asarray(fin.cp, float) + (p_link - fin.position)
    return fin


def _fin_joint(flat: FlatModel, joint: str, fin: Fin, fixed, to_base: Pose,
               params: VehicleParams, source: str, what: str) -> np.ndarray:
    """Make ``fin`` the deflection of revolute ``joint``; return the joint origin."""
    elem = flat.joints[joint]
    if elem.get('type') not in ('revolute', 'continuous'):
        raise element_error('fin %s joint %r must be revolute or continuous, not %r'
                            % (what, joint, elem.get('type')), source, elem)
    _check_parent(flat, joint, fixed, params, source, 'fin')
    origin, rotation, axis = _joint_pose(flat, joint, to_base)
    fin.name = joint
    fin.axis = rotation @ axis
    fin.lower, fin.upper, fin.velocity = _limits(elem, fin, source)
    return origin


def _limits(joint: ET.Element, fin: Fin, source: str) -> Tuple[float, float, float]:
    """Return (lower, upper, velocity) of an SDF joint's <axis><limit> (default: none)."""
    limit = joint.find('axis/limit')
    lower, upper, velocity = fin.lower, fin.upper, fin.velocity
    if limit is not None and joint.get('type') == 'revolute':
        if limit.find('lower') is not None:
            lower = float_text(limit.find('lower'), source)
        if limit.find('upper') is not None:
            upper = float_text(limit.find('upper'), source)
    if limit is not None and limit.find('velocity') is not None:
        value = float_text(limit.find('velocity'), source)
        velocity = value if value > 0.0 else float('inf')  # SDF: -1 = no limit
    return lower, upper, velocity


def _joint_controller(plugin: ET.Element, scope: str, place: str, flat: FlatModel,
                      fins: List[Fin], params: VehicleParams) -> None:
    """Give the fins a JointPositionController drives its topic; record the plugin."""
    by_name = {fin.name: fin for fin in fins}
    joints = [_scoped(flat.joints, name, scope) for name in controller_joints(plugin)]
    driven = [by_name[j] for j in joints if j in by_name]
    label = _plugin_label(plugin)
    if not driven:
        record(params, 'plugin', label, place, 'warned', 'not modelled: joint position '
               'control of %s (no fin)' % (', '.join(controller_joints(plugin)) or 'no joint'))
        return
    topic = controller_topic(plugin, params.name)
    for fin in driven:
        fin.command_topic = topic or ''
        params.warnings.append(controller_warning(plugin, fin.name, fin.velocity))
    note = 'fin %s: deflection commands on %s' % (
        ', '.join(f.name for f in driven),
        topic or "Actuators messages (not read: the fin's own topic instead)")
    record(params, 'plugin', label, place, 'read', note)


def _buoyancy_engine(plugin: ET.Element, scope: str, flat: FlatModel, poses: Dict[str, Pose],
                     params: VehicleParams, source: str) -> BuoyancyEngineSpec:
    """Return the BuoyancyEngineSpec of a gz-sim BuoyancyEngine <plugin>."""
    values: Dict[str, ET.Element] = {
        child.tag: child
        for child in unique_children(plugin, source, BUOYANCY_ENGINE_KEYS, 'BuoyancyEngine')}
    link = (values['link_name'].text or '').strip() if 'link_name' in values else ''
    if not link:  # gz-sim: "Buoyancy Engine must be attached to some link."
        raise element_error('a BuoyancyEngine plugin needs a <link_name>', source, plugin)
    if not _scoped(poses, link, scope):
        raise element_error('BuoyancyEngine link %r is not a link of the model whose pose '
                            'is known' % link, source, values['link_name'])
    link = _scoped(poses, link, scope)
    spec = BuoyancyEngineSpec(link_name=link, position=tuple(float(v) for v in poses[link][0]))
    if 'namespace' in values:
        spec.namespace = (values['namespace'].text or '').strip()
    for key in ('min_volume', 'max_volume', 'default_volume', 'neutral_volume',
                'max_inflation_rate', 'fluid_density', 'surface'):
        if key in values:
            setattr(spec, key, float_text(values[key], source))
    for key, reason in spec.problems():
        raise element_error('BuoyancyEngine %r: %s' % (link, reason), source,
                            values.get(key, plugin))
    return spec
