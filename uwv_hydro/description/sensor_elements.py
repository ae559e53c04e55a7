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
Sensors of `<sensor>` elements (SDF and URDF `<gazebo>`): types, noise, pose.

A `<sensor>` is the same element in a gz-sim SDF and in a URDF's `<gazebo>`
block, so the core reads it for both formats; `sensors.py` holds the records
and their YAML mapping.
"""
import math
from typing import Any, Callable, Dict, List, Optional, Tuple
import xml.etree.ElementTree as ET

import numpy as np

from uwv_hydro.description.conventions import matrix_to_quat, rpy_to_matrix
from uwv_hydro.description.element_report import record, where
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.gazebo_range import range_plugin, read_gazebo_range
from uwv_hydro.description.sensors import (
    _bool, _Ctx, _join, _mapping, _number, _pose, sensor_from_mapping)
from uwv_hydro.description.xml_safe import element_line, element_path
from uwv_hydro.physics.sensing.dvl_beams import gz_beam_axis
from uwv_hydro.physics.sensing.sensor_params import SensorParams
from uwv_hydro.physics.spatial.rotation import quat_to_rpy


def _xml_tree(elem: ET.Element, path: str, elements: Dict[str, Any],
              skip: Tuple[str, ...] = ()) -> Any:
    """Return an element's children as a nested mapping (leaf text as str), recording paths."""
    elements[path] = elem
    children = [c for c in elem if isinstance(c.tag, str) and c.tag not in skip]  # no comments
    attributes = {k: v for k, v in elem.attrib.items() if k != 'name'}
    text = (elem.text or '').strip()
    if not children and not attributes and text:
        return text
    for key in attributes:
        elements[_join(path, key)] = elem
    if _local(elem.tag) == 'arrangement':  # gz DVL: repeated <beam>, kept in order
        beams = [c for c in children if c.tag == 'beam']
        children = [c for c in children if c.tag != 'beam']
        attributes['beam'] = [_xml_tree(c, _join(path, 'beam[%d]' % i), elements)
                              for i, c in enumerate(beams)]
    for child in children:
        if child.tag in attributes:
            raise DescriptionError('duplicate <%s>' % child.tag, '', element_path(child),
                                   element_line(child))
        attributes[child.tag] = _xml_tree(child, _join(path, child.tag), elements)
    return attributes


def _xml_pose(elem: ET.Element, source: str, link: str = '') -> List[float]:
    """
    Return the 6 numbers of an SDF-style <pose> (radians; degrees="true" converted).

    The pose is in the sensor's ``link``: ``relative_to`` may only name that link.
    """
    def fail(reason):
        return DescriptionError(reason, source, element_path(elem), element_line(elem))
    for key, value in elem.attrib.items():
        if key not in ('degrees', 'frame', 'relative_to'):
            raise fail('unknown <pose> attribute %r' % key)
        if key in ('frame', 'relative_to') and value.strip() and value.strip() != link:
            raise fail('a sensor <pose> is relative to its link; %s=%r is not supported'
                       % (key, value))
    try:
        values = [float(v) for v in (elem.text or '').split()]
    except ValueError:
        values = []
    if len(values) != 6 or not all(math.isfinite(v) for v in values):
        raise fail('expected 6 finite numbers x y z roll pitch yaw, got %r' % (elem.text,))
    if elem.get('degrees', 'false').strip() in ('true', '1'):
        values[3:] = [math.radians(v) for v in values[3:]]
    return values


def _local(name: str) -> str:
    """Return an XML name without its namespace ('{uri}dvl' or 'gz:dvl' -> 'dvl')."""
    return name.rsplit('}', 1)[-1].rsplit(':', 1)[-1]


def _namespaced(mapping: Dict[str, Any], local: str) -> Optional[str]:
    """Return the key of ``mapping`` that is ``local`` in a namespace (gz:type, {uri}type)."""
    for key in mapping:
        if key != local and _local(key) == local:
            return key
    return None


def sensor_type_key(sensor: ET.Element) -> str:
    """
    Return the key of a <sensor> in :data:`SENSOR_READERS`: its type, 'custom:<gz:type>'.

    gz-sim custom sensors carry their kind in a namespaced ``gz:type`` attribute
    (``xmlns:gz`` declared, or the literal prefix); a ``ray`` / ``gpu_ray`` sensor with
    a plugin publishing sensor_msgs/Range is 'ray:range' / 'gpu_ray:range'
    (:mod:`uwv_hydro.description.gazebo_range`).
    """
    kind = (sensor.get('type') or '').strip()
    if kind in ('ray', 'gpu_ray') and range_plugin(sensor) is not None:
        return kind + ':range'
    if kind != 'custom':
        return kind
    attr = _namespaced(dict(sensor.attrib), 'type')
    sub = (sensor.get(attr) or '').strip() if attr else ''
    return 'custom:' + sub if sub else kind


#: SDF / Gazebo sensor types recognised and not simulated, with what they measure
#: (SDFormat sensor.sdf type list; gz-sim and Gazebo classic names).
NOT_MODELLED_SENSORS = {
    'camera': 'images', 'multicamera': 'images', 'wide_angle_camera': 'images',
    'depth_camera': 'depth images', 'depth': 'depth images', 'rgbd_camera': 'RGB-D images',
    'rgbd': 'RGB-D images', 'thermal_camera': 'thermal images', 'thermal': 'thermal images',
    'segmentation_camera': 'segmentation images', 'segmentation': 'segmentation images',
    'boundingbox_camera': 'bounding boxes', 'boundingbox': 'bounding boxes',
    'logical_camera': 'poses of the models in view', 'gpu_lidar': 'ranges',
    'gpu_ray': 'ranges', 'lidar': 'ranges', 'ray': 'ranges', 'sonar': 'ranges',
    'contact': 'contacts', 'force_torque': 'joint wrenches', 'rfid': 'RFID tags',
    'rfidtag': 'RFID tags', 'wireless_receiver': 'radio signal strength',
    'wireless_transmitter': 'radio signal strength',
    'altimeter': 'altitude above a reference and vertical velocity',
    'air_pressure': "the standard atmosphere's pressure at the altitude, not the water "
                    'pressure (use a fluid_pressure sensor)',
    'custom': 'a custom sensor of no gz:type modelled here',
}

#: Sensor elements gz-sim and Gazebo classic know that change nothing here.
_DROPPED_COMMON = {
    'plugin': 'its Gazebo classic plugin (topic remapping) is not run; the sensor '
              'publishes on its <topic>',
    'enable_metrics': 'enable_metrics ignored',
}


def _noise_fixes(tree: Any, path: str, notes: List[str]) -> None:
    """Drop SDF noise elements without a model here (precision; quantised Gaussian)."""
    if not isinstance(tree, dict):
        return
    for key, sub in list(tree.items()):
        if key == 'noise' and isinstance(sub, dict):
            if 'precision' in sub:
                sub.pop('precision')
                notes.append('%s: noise precision (quantisation) ignored' % _join(path, key))
            if sub.get('type') == 'gaussian_quantized':
                sub['type'] = 'gaussian'
                notes.append('%s: gaussian_quantized read as gaussian' % _join(path, key))
        else:
            _noise_fixes(sub, _join(path, key), notes)


def _as_is(kind: str, block: str = '', unused: Tuple[str, ...] = ()):
    """Return a reader of a sensor already in the project's schema (``block`` renamed)."""
    def read(tree: Dict[str, Any], ctx: _Ctx, name: str):
        notes: List[str] = []
        if block and block in tree:
            tree[kind] = tree.pop(block)
        own = _mapping(tree.get(kind))
        if isinstance(own, dict):
            for key in unused:
                if key in own:
                    own.pop(key)
                    notes.append('%s.%s not modelled' % (kind, key))
        tree['type'] = kind
        return kind, tree, notes, None
    return read


def _gz_beams(arrangement: Any, path: str, ctx: _Ctx, notes: List[str]) -> np.ndarray:
    """
    Return the (N, 3) beam axes of a gz DVL ``<arrangement>`` in the sensor frame.

    gz DopplerVelocityLog ``InitializeBeamArrangement``: angles in radians unless
    ``degrees="true"``; each ``<beam>`` has ``<aperture>`` (default 90 deg, the cone is
    not modelled here: the beam is its axis), ``<rotation>`` and ``<tilt>`` (default 0,
    |tilt| < 90 deg), an ``id`` attribute (default the previous id + 1, only named in
    gz's log); at least three beams.  What gz refuses (no arrangement, fewer than three
    beams, a tilt out of range) raises here; :func:`_gz_dvl` warns and keeps the
    default beams, as gz logs the error and runs the world without that DVL.
    """
    if not isinstance(arrangement, dict):
        raise ctx.error(path, 'a gz DVL needs an <arrangement> of beams (gz-sensors '
                        'refuses the sensor without one)')
    unknown = [k for k in arrangement if k not in ('beam', 'degrees')]
    if unknown:
        raise ctx.error(_join(path, unknown[0]), "unknown arrangement element '%s'"
                        % unknown[0])
    unit = math.pi / 180.0 if _bool(arrangement.get('degrees', 'false'),
                                    _join(path, 'degrees'), ctx) else 1.0
    beams = arrangement['beam'] if 'beam' in arrangement else []
    if len(beams) < 3:
        raise ctx.error(path, 'a gz DVL needs at least three beams, got %d' % len(beams))
    axes = []
    for i, beam in enumerate(beams):
        where = _join(path, 'beam[%d]' % i)
        beam = beam if isinstance(beam, dict) else {}
        for item in beam:
            if item not in ('id', 'aperture', 'rotation', 'tilt'):
                raise ctx.error(_join(where, item), "unknown beam element '%s'" % item)
        angles = {k: _number(beam.get(k, '0'), _join(where, k), ctx) * unit
                  for k in ('rotation', 'tilt')}
        # gz Angle::Normalized: into (-pi, pi]
        tilt = math.atan2(math.sin(angles['tilt']), math.cos(angles['tilt']))
        if abs(tilt) >= math.pi / 2:
            raise ctx.error(_join(where, 'tilt'), 'tilt %g deg is not in the (-90, 90) deg '
                            'interval gz-sensors requires' % math.degrees(tilt))
        axes.append(gz_beam_axis(angles['rotation'], tilt))
    if len(beams) > 4:
        notes.append('%d beams: marine_acoustic_msgs/Dvl carries the first four'
                     % len(beams))
    if any('aperture' in b for b in beams if isinstance(b, dict)):
        notes.append('beam aperture not modelled (each beam is its axis)')
    return np.array(axes)


def _gz_dvl(tree: Dict[str, Any], ctx: _Ctx, name: str):
    """
    Return a gz-sensors DopplerVelocityLog (``custom`` ``gz:type="dvl"``) as a dvl sensor.

    gz-sensors DopplerVelocityLog.cc: ``<gz:dvl>`` holds ``type`` (piston |
    phased_array), ``arrangement`` (beams), ``tracking`` (``bottom_mode`` and/or
    ``water_mass_mode``, each with ``when`` never | always | best, default always,
    and a Gaussian ``noise``), ``resolution``, ``maximum_range``, ``minimum_range``
    and ``reference_frame`` (a pose whose rotation R gives the axes the velocity is
    reported in: v_ref = R^T v_sensor, the sensor's velocity relative to the bottom).
    Bottom tracking maps onto the dvl model (velocity of the sensor over the seabed,
    the beam noise on every axis); the ``<arrangement>`` gives the beam directions
    (:func:`_gz_beams`), which are not traced against terrain.
    """
    key = _namespaced(tree, 'dvl')
    block = _mapping(tree.pop(key, None)) if key else {}
    if not isinstance(block, dict):
        raise ctx.error(_join(name, key or 'dvl'), 'expected a <gz:dvl> block')
    notes = []
    tracking = _mapping(block.pop('tracking', None))
    bottom = _mapping(tracking.get('bottom_mode')) if isinstance(tracking, dict) else {}
    when = bottom.get('when', 'always') if isinstance(bottom, dict) else 'always'
    if not isinstance(tracking, dict) or 'bottom_mode' not in tracking or when == 'never':
        return None, tree, ['not modelled: gz DVL without bottom tracking (water-mass '
                            'tracking needs environmental data)'], None
    if 'water_mass_mode' in tracking:
        notes.append('water_mass_mode not modelled')
    if when not in ('always', 'best'):
        raise ctx.error(_join(name, '%s.tracking.bottom_mode.when' % key),
                        'expected never, always or best, got %r' % (when,))
    rotation = None
    reference = block.pop('reference_frame', None)
    if reference is not None:
        values = _pose(reference, _join(name, '%s.reference_frame' % key), ctx)
        rotation = rpy_to_matrix(values[3:])
        if any(values[:3]):
            notes.append('reference_frame translation ignored (gz uses its rotation)')
    arrangement = '%s.%s.arrangement' % (name, key)
    try:
        directions = _gz_beams(block.pop('arrangement', None), arrangement, ctx, notes)
    except DescriptionError as exc:  # gz logs it and runs without the sensor
        notes.append('<arrangement>: gz-sensors would not start this DVL (%s); the '
                     'default beams (Water Linked A50) are used' % exc.reason)
        directions = None
    if directions is not None and rotation is not None:
        directions = directions @ rotation  # in the measurement axes: R^T b (gz)
    for item in ('resolution', 'maximum_range', 'minimum_range', 'type'):
        if item in block:
            block.pop(item)
            notes.append('%s not modelled (flat-seabed bottom lock)' % item)
    for item in block:
        raise ctx.error(_join(name, '%s.%s' % (key, item)),
                        "unknown gz:dvl element '%s'" % item)
    velocity = {'noise': bottom['noise']} if bottom.get('noise') else {}
    tree['dvl'] = {'velocity': velocity}
    if directions is not None:
        tree['dvl']['beam_directions'] = directions.tolist()
    tree['type'] = 'dvl'
    return 'dvl', tree, notes, rotation


#: How each <sensor> type is read: key (:func:`sensor_type_key`) -> reader(tree, ctx,
#: name) returning (kind of SENSOR_TYPES or None if not modelled, tree, notes, extra
#: rotation sensor <- measurement axes or None).  Another description family adds its
#: types here.
SENSOR_READERS = {
    'imu': _as_is('imu', unused=('orientation_reference_frame',)),
    'fluid_pressure': _as_is('fluid_pressure'),
    'dvl': _as_is('dvl'),
    'navsat': _as_is('navsat', unused=('velocity_sensing',)),
    'gps': _as_is('navsat', 'gps', unused=('velocity_sensing',)),  # Gazebo classic name
    'custom:dvl': _gz_dvl,
    'magnetometer': _as_is('magnetometer'),
    'echosounder': _as_is('echosounder'),
    'ray:range': read_gazebo_range,  # a Gazebo range finder: uuv's and DAVE's altimeters
    'gpu_ray:range': read_gazebo_range,
}

#: Sensor rate when a description gives none (SDF: every physics step, 1 ms default).
DEFAULT_STEP_RATE_HZ = 1000.0


def _is_zero_rate(value: Any) -> bool:
    """Return True for an absent or zero SDF update_rate (gz: every physics step)."""
    try:
        return value is None or float(value) == 0.0
    except (TypeError, ValueError):
        return False  # sensor_from_mapping names the bad value


def _compose(p_a, r_a, p_b, r_b):
    # Pose composition: T_a T_b = (p_a + R_a p_b, R_a R_b)
    return p_a + r_a @ p_b, r_a @ r_b


def read_sensor_element(sensor: ET.Element, link: str, source: str, base_frame: str,
                        params=None, link_pose=None,
                        defaults: Optional[Dict[str, Dict[str, Any]]] = None,
                        sensor_pose=None) -> Optional[SensorParams]:
    """
    Return the SensorParams of one <sensor> on ``link``, or None if it is not modelled.

    The type is dispatched through :data:`SENSOR_READERS`; a recognised type that is
    not simulated (:data:`NOT_MODELLED_SENSORS`) or an unknown one is recorded
    'warned' (``params.elements``) with a 'not modelled' note.  ``link_pose`` (p, R in
    the base frame) puts the sensor on the base at link pose times sensor pose (SDF
    links); without it the sensor stays on ``link`` (a URDF frame).  ``defaults``
    fills a type's block where the sensor leaves a key out (the world's datum).
    ``sensor_pose`` (p, R in the link) is the sensor's <pose> already resolved by the
    caller (SDF ``relative_to`` any frame, :meth:`sdf_frames.FlatModel.pose_in_link`);
    without it the <pose> is read here and may only be relative to ``link``.
    """
    name = sensor.get('name')
    if not name:
        raise DescriptionError('<sensor> without a name attribute', source,
                               element_path(sensor), element_line(sensor))
    key = sensor_type_key(sensor)
    place = where(source, sensor)
    reader = SENSOR_READERS.get(key)
    if reader is None:
        what = NOT_MODELLED_SENSORS.get(key, NOT_MODELLED_SENSORS['custom']
                                        if key.startswith('custom') else 'unknown type')
        if params is not None:
            record(params, 'sensor', name, place, 'warned',
                   'not modelled: %s sensor (%s)' % (key or 'untyped', what))
        return None
    if sensor.find('link') is not None:
        raise DescriptionError(
            '<link> inside a sensor is not supported: the sensor is on the '
            '<gazebo reference> link', source, element_path(sensor.find('link')),
            element_line(sensor.find('link')))
    notes = [note for tag, note in _DROPPED_COMMON.items() if sensor.find(tag) is not None]
    elements: Dict[str, Any] = {}
    try:
        tree = _xml_tree(sensor, name, elements, skip=tuple(_DROPPED_COMMON))
    except DescriptionError as exc:
        raise DescriptionError(exc.reason, source, exc.element, exc.line) from None
    ctx = _Ctx(source, '', elements)
    for attr in [k for k in tree if k != 'type' and _local(k) == 'type']:
        tree.pop(attr)  # gz:type, read above
    for frame_key in ('gz_frame_id', 'ignition_frame_id'):
        if frame_key in tree:  # gz-sim's frame_id of the messages
            tree['frame_id'] = tree.pop(frame_key)
    if key.endswith(':range'):  # its plugin is read, not dropped
        tree['_range_plugin'] = range_plugin(sensor)
        notes = [n for n in notes if n != _DROPPED_COMMON['plugin']]
    kind, tree, more, rotation = reader(tree, ctx, name)
    notes += more
    if kind is None:
        if params is not None:
            record(params, 'sensor', name, place, 'warned', '; '.join(notes))
        return None
    _noise_fixes(tree, name, notes)
    for item, value in ((defaults or {}).get(kind) or {}).items():
        block = tree.setdefault(kind, {})
        if isinstance(block, dict):
            block.setdefault(item, value)
    if kind == 'magnetometer' and 'field' not in _mapping(tree.get(kind)):
        notes.append("the world's <magnetic_field> is not known here: SDF's default "
                     '5.5645e-6 22.8758e-6 -42.3884e-6 T')
    if _is_zero_rate(tree.get('update_rate')):
        tree['update_rate'] = DEFAULT_STEP_RATE_HZ
        notes.append('no update_rate: every 1 ms physics step (SDF default), %g Hz'
                     % DEFAULT_STEP_RATE_HZ)
    pose_elem = sensor.find('pose')
    p, r = np.zeros(3), np.eye(3)
    values, composed = None, False
    if pose_elem is not None and sensor_pose is not None:
        p, r = np.asarray(sensor_pose[0], float), np.asarray(sensor_pose[1], float)
        composed = True
    elif pose_elem is not None:
        values = _xml_pose(pose_elem, source, link)
        p, r = np.array(values[:3]), rpy_to_matrix(values[3:])
    if rotation is not None:  # measurement axes turned in the sensor frame
        p, r = _compose(p, r, np.zeros(3), rotation)
        composed = True
    if link_pose is not None and link != base_frame:  # onto the base: T_base_link T_link_sensor
        p, r = _compose(np.asarray(link_pose[0], float), np.asarray(link_pose[1], float),
                        p, r)
        composed, link = True, base_frame
    if composed:
        values = [float(v) for v in p] + [float(v) for v in quat_to_rpy(matrix_to_quat(r))]
    if values is not None:
        tree['pose'] = values
    tree['link'] = link
    # `is not None`, not an element's truth value (its child count; deprecated, Python 3.12)
    parent = getattr(sensor, 'parent', None)
    elements[_join(name, 'link')] = parent if parent is not None else sensor
    out = sensor_from_mapping(name, tree, ctx, base_frame)
    if params is not None:
        record(params, 'sensor', name, place, 'warned' if notes else 'read',
               '; '.join(['%s model' % kind] + notes))
        if key.endswith(':range'):  # what differs from the peer's range finder
            params.warnings.extend('sensor %s (Gazebo %s -> echosounder): %s'
                                   % (name, key.split(':')[0], n) for n in notes)
    return out


def sensors_from_urdf(root: ET.Element, source: str, base_frame: str, params=None,
                      skip: Optional[Callable[[ET.Element], bool]] = None
                      ) -> List[SensorParams]:
    """
    Return the sensors of our types in ``<gazebo reference="link"><sensor>`` elements.

    Every <sensor> is recorded in ``params.elements`` (when given): cameras, sonars and
    other types not simulated are 'warned' as not modelled.  A sensor for which
    ``skip(sensor)`` is True belongs to another reader (ds_sim, uuv_simulator
    plugins), which reads and records it: it is left alone here.
    """
    sensors: List[SensorParams] = []
    for gazebo in root.iter('gazebo'):
        link = gazebo.get('reference') or base_frame
        for sensor in gazebo.findall('sensor'):
            if skip is not None and skip(sensor):
                continue
            found = read_sensor_element(sensor, link, source, base_frame, params)
            if found is not None:
                sensors.append(found)
    return sensors
