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
Navigation sensors of a vehicle description (URDF ``<gazebo>`` sensors or YAML ``sensors:``).

URDF, as gz-sim / SDF write sensors (the sensor sits on the referenced link, which must
be the base or rigidly attached to it through fixed joints)::

    <gazebo reference="imu_link">
      <sensor name="imu" type="imu">
        <update_rate>100</update_rate>
        <topic>imu/data</topic>
        <imu>
          <angular_velocity>
            <x><noise type="gaussian"><stddev>2e-4</stddev>
                 <dynamic_bias_stddev>1e-5</dynamic_bias_stddev></noise></x>
            ...
          </angular_velocity>
          <linear_acceleration>...</linear_acceleration>
        </imu>
      </sensor>
    </gazebo>

YAML (``vehicle: sensors:``): a mapping sensor name -> the same tree, plus ``link``::

    sensors:
      imu: {type: imu, link: imu_link, update_rate: 100,
            imu: {angular_velocity: {noise: {stddev: 2.0e-4}}}}

An axis block (``angular_velocity``, ``linear_acceleration``, ``orientation``, DVL
``velocity``) holds ``x``/``y``/``z`` each with a ``noise``, or one ``noise`` for all
three axes.  ``noise`` keys are SDF's: ``type`` (gaussian | none), ``mean``, ``stddev``,
``bias_mean``, ``bias_stddev``, ``dynamic_bias_stddev``, ``dynamic_bias_correlation_time``.
Per type (:data:`SENSOR_SCHEMA` lists every key):

* ``imu``: ``angular_velocity``, ``linear_acceleration``, ``orientation`` (axis blocks),
  ``enable_orientation`` (gz name);
* ``fluid_pressure``: ``atmospheric_pressure`` (Pa), ``pressure: {noise}`` (Pa);
* ``dvl``: ``seabed_depth``, ``max_altitude``, ``min_altitude`` (m), ``velocity`` (axis),
  ``janus_angle`` and four ``beam_azimuths`` (rad; default the Water Linked A50's,
  :mod:`uwv_hydro.physics.dvl_beams`), or ``beam_directions`` (three or more unit
  vectors [x, y, z] in the sensor frame; a gz ``<arrangement>`` is read into them);
* ``navsat``: datum ``latitude_deg``, ``longitude_deg``, ``elevation`` (gz
  ``<spherical_coordinates>`` names), ``surfaced_depth``, ``position_sensing:
  {horizontal: {noise}, vertical: {noise}}`` (gz names; metres).

Common keys: ``name`` (XML attribute), ``type``, ``link`` (YAML; default the base),
``update_rate`` (Hz, required), ``topic`` (default the sensor name), ``seed`` (default a
CRC-32 of the name, so runs repeat), ``pose`` (x y z roll pitch yaw in the link, as gz and
ds_sim sensor xacros write it; ``degrees="true"`` accepted): the sensor then measures in
a frame of its own, ``frame_id`` (default the sensor name), which the node publishes on
/tf_static; without a pose the sensor frame is the link.  gz's ``always_on`` and
``visualize`` are accepted and ignored.

XML ``<sensor>`` elements (URDF ``<gazebo reference>`` blocks, SDF links) are read
through a table of types, :data:`SENSOR_READERS`: ours, SDF ``navsat`` and Gazebo
classic ``gps`` (navsat), gz-sensors' ``custom`` ``gz:type="dvl"`` (dvl, bottom
tracking).  Types recognised but not simulated (cameras, lidars, sonars, altimeter,
magnetometer, air_pressure...: :data:`NOT_MODELLED_SENSORS`) and unknown types are
recorded 'warned' as not modelled in ``params.elements`` (one warning line names
them all); an unknown key inside one of ours is an error naming it.
"""
import math
from typing import Any, Callable, Dict, List, Optional, Tuple
import xml.etree.ElementTree as ET
import zlib

import numpy as np

from uwv_hydro.description.conventions import matrix_to_quat, rpy_to_matrix
from uwv_hydro.description.element_report import record, where
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.xml_safe import element_line, element_path
from uwv_hydro.physics.dvl_beams import gz_beam_axis
from uwv_hydro.physics.rotation import quat_to_rpy
from uwv_hydro.physics.sensor_params import (
    DvlParams, FluidPressureParams, ImuParams, NavSatParams, NoiseParams, SENSOR_TYPES,
    SensorParams)

#: Accepted sensor rates (Hz): a period of at most a day, at least a microsecond.
MIN_RATE_HZ = 1.0 / 86400.0
MAX_RATE_HZ = 1e6
#: Keys of a ``noise`` block (SDF <noise>).
NOISE_KEYS = {'type': None, 'mean': None, 'stddev': None, 'bias_mean': None,
              'bias_stddev': None, 'dynamic_bias_stddev': None,
              'dynamic_bias_correlation_time': None}
_NOISE = {'noise': NOISE_KEYS}
#: Keys of an axis block: one noise for all axes, or one per axis.
AXIS_KEYS = {'noise': NOISE_KEYS, 'x': _NOISE, 'y': _NOISE, 'z': _NOISE}
#: Keys of each sensor type's block (nested dicts; None marks a leaf).
TYPE_KEYS = {
    'imu': {'angular_velocity': AXIS_KEYS, 'linear_acceleration': AXIS_KEYS,
            'orientation': AXIS_KEYS, 'enable_orientation': None},
    'fluid_pressure': {'atmospheric_pressure': None, 'pressure': _NOISE},
    'dvl': {'seabed_depth': None, 'max_altitude': None, 'min_altitude': None,
            'velocity': AXIS_KEYS, 'janus_angle': None, 'beam_azimuths': None,
            'beam_directions': None},
    'navsat': {'latitude_deg': None, 'longitude_deg': None, 'elevation': None,
               'surfaced_depth': None,
               'position_sensing': {'horizontal': _NOISE, 'vertical': _NOISE}},
}
#: Keys common to every sensor (the type's own block is keyed by the type name).
COMMON_KEYS = {'name': None, 'type': None, 'link': None, 'pose': None, 'frame_id': None,
               'update_rate': None, 'topic': None, 'seed': None, 'always_on': None,
               'visualize': None}
#: Every key a sensor may have, per type: the schema unknown-key checks use.
SENSOR_SCHEMA = {t: dict(COMMON_KEYS, **{t: TYPE_KEYS[t]}) for t in SENSOR_TYPES}


class _Ctx:
    """
    Error location: the source and, for XML, the element of every key path.

    ``outer`` (the YAML loader's context: ``error(key, reason)`` with the key's line)
    takes the YAML errors, under ``prefix``.
    """

    def __init__(self, source: str, prefix: str, elements: Optional[Dict[str, Any]] = None,
                 outer=None):
        self.source = source
        self.prefix = prefix
        self.elements = elements
        self.outer = outer
        self.xml = elements is not None

    def error(self, path: str, reason: str) -> DescriptionError:
        if self.outer is not None:
            return self.outer.error(self.prefix + path, reason)
        if self.elements is not None:
            elem = self.elements.get(path)
            while elem is None and '.' in path:
                path = path.rsplit('.', 1)[0]
                elem = self.elements.get(path)
            if elem is None:
                return DescriptionError(reason, self.source, path)
            return DescriptionError(reason, self.source, element_path(elem), element_line(elem))
        return DescriptionError(reason, self.source, self.prefix + path)


def _join(path: str, key: str) -> str:
    return key if not path else path + '.' + key


def _check_keys(value: Any, schema: Dict[str, Any], path: str, ctx: _Ctx) -> Dict[str, Any]:
    """Return ``value`` (a mapping) after checking its keys against ``schema``, recursively."""
    if not isinstance(value, dict):
        raise ctx.error(path, 'expected a mapping, got %r' % (value,))
    for key, sub in value.items():
        if key not in schema:
            raise ctx.error(_join(path, str(key)), "unknown key '%s'; expected one of %s"
                            % (key, ', '.join(schema)))
        if schema[key] is not None:
            _check_keys(_mapping(sub), schema[key], _join(path, key), ctx)
    return value


def _mapping(value: Any) -> Any:
    """Return {} for an empty block (YAML ``key:`` or an empty XML element), else value."""
    return {} if value is None or value == '' else value


def _number(value: Any, path: str, ctx: _Ctx, minimum: Optional[float] = None,
            positive: bool = False, allow_inf: bool = False) -> float:
    if isinstance(value, str) and ctx.xml:
        try:
            value = float(value.strip())
        except ValueError:
            raise ctx.error(path, 'expected a number, got %r' % value) from None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ctx.error(path, 'expected a number, got %r' % (value,))
    number = float(value)
    if math.isnan(number) or (math.isinf(number) and not allow_inf):
        raise ctx.error(path, 'expected a finite number, got %r' % (value,))
    if positive and not number > 0.0:
        raise ctx.error(path, 'must be positive, got %r' % (value,))
    if minimum is not None and number < minimum:
        raise ctx.error(path, 'must be >= %g, got %r' % (minimum, value))
    return number


def _bool(value: Any, path: str, ctx: _Ctx) -> bool:
    if isinstance(value, str) and ctx.xml and value.strip() in ('true', '1', 'false', '0'):
        return value.strip() in ('true', '1')
    if not isinstance(value, bool):
        raise ctx.error(path, 'expected true or false, got %r' % (value,))
    return value


def _string(value: Any, path: str, ctx: _Ctx) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ctx.error(path, 'expected a non-empty string, got %r' % (value,))
    return value.strip()


def _noise(block: Optional[Dict[str, Any]], path: str, ctx: _Ctx) -> NoiseParams:
    """Return the NoiseParams of a ``noise`` block (absent or empty: noise free)."""
    block = _mapping(block)
    if not block:
        return NoiseParams()
    kind = block.get('type', 'gaussian')
    if kind not in ('gaussian', 'none'):
        raise ctx.error(_join(path, 'type'), "expected 'gaussian' or 'none', got %r" % (kind,))
    if kind == 'none':
        return NoiseParams()
    values = {}
    for key in ('mean', 'bias_mean'):
        if key in block:
            values[key] = _number(block[key], _join(path, key), ctx)
    for key in ('stddev', 'bias_stddev', 'dynamic_bias_stddev'):
        if key in block:
            values[key] = _number(block[key], _join(path, key), ctx, minimum=0.0)
    key = 'dynamic_bias_correlation_time'
    if key in block:
        values[key] = _number(block[key], _join(path, key), ctx, positive=True,
                              allow_inf=True)
    return NoiseParams(**values)


def _axes(block: Optional[Dict[str, Any]], path: str, ctx: _Ctx) -> Tuple[NoiseParams, ...]:
    """Return three NoiseParams (x, y, z) of an axis block."""
    block = _mapping(block)
    if not block:
        return (NoiseParams(), NoiseParams(), NoiseParams())
    if 'noise' in block and any(a in block for a in 'xyz'):
        raise ctx.error(path, "give one 'noise' for all axes or 'x'/'y'/'z', not both")
    if 'noise' in block:
        common = _noise(block['noise'], _join(path, 'noise'), ctx)
        return (common, NoiseParams(**vars(common)), NoiseParams(**vars(common)))
    return tuple(_noise(_mapping(block.get(a)).get('noise'), _join(path, a + '.noise'), ctx)
                 for a in 'xyz')


def _imu(block: Dict[str, Any], path: str, ctx: _Ctx) -> ImuParams:
    out = ImuParams(angular_velocity=_axes(block.get('angular_velocity'),
                                           _join(path, 'angular_velocity'), ctx),
                    linear_acceleration=_axes(block.get('linear_acceleration'),
                                              _join(path, 'linear_acceleration'), ctx),
                    orientation=_axes(block.get('orientation'),
                                      _join(path, 'orientation'), ctx))
    if 'enable_orientation' in block:
        out.enable_orientation = _bool(block['enable_orientation'],
                                       _join(path, 'enable_orientation'), ctx)
    return out


def _fluid_pressure(block: Dict[str, Any], path: str, ctx: _Ctx) -> FluidPressureParams:
    out = FluidPressureParams()
    if 'atmospheric_pressure' in block:
        out.atmospheric_pressure = _number(block['atmospheric_pressure'],
                                           _join(path, 'atmospheric_pressure'), ctx,
                                           minimum=0.0)
    out.pressure = _noise(_mapping(block.get('pressure')).get('noise'),
                          _join(path, 'pressure.noise'), ctx)
    return out


def _dvl(block: Dict[str, Any], path: str, ctx: _Ctx) -> DvlParams:
    out = DvlParams(velocity=_axes(block.get('velocity'), _join(path, 'velocity'), ctx))
    if 'seabed_depth' in block:
        out.seabed_depth = _number(block['seabed_depth'], _join(path, 'seabed_depth'), ctx,
                                   positive=True)
    if 'max_altitude' in block:
        out.max_altitude = _number(block['max_altitude'], _join(path, 'max_altitude'), ctx,
                                   positive=True, allow_inf=True)
    if 'min_altitude' in block:
        out.min_altitude = _number(block['min_altitude'], _join(path, 'min_altitude'), ctx,
                                   minimum=0.0)
    if out.min_altitude > out.max_altitude:
        raise ctx.error(_join(path, 'min_altitude'), 'min_altitude %g is above max_altitude %g'
                        % (out.min_altitude, out.max_altitude))
    if 'janus_angle' in block:
        out.janus_angle = _number(block['janus_angle'], _join(path, 'janus_angle'), ctx,
                                  minimum=0.0)
        if out.janus_angle >= math.pi / 2:
            raise ctx.error(_join(path, 'janus_angle'), 'janus_angle %g rad: a beam must '
                            'tilt less than 90 deg from the boresight' % out.janus_angle)
    if 'beam_azimuths' in block:
        items = block['beam_azimuths']
        if not isinstance(items, list) or len(items) != 4:
            raise ctx.error(_join(path, 'beam_azimuths'), 'beam_azimuths: four angles (rad), '
                            'one per beam (marine_acoustic_msgs/Dvl has four beams)')
        out.beam_azimuths = tuple(_number(v, _join(path, 'beam_azimuths'), ctx)
                                  for v in items)
    if 'beam_directions' in block:
        out.beam_directions = _beam_vectors(block, _join(path, 'beam_directions'), ctx)
    if out.seabed_depth is None and 'max_altitude' in block:
        raise ctx.error(_join(path, 'max_altitude'),
                        'max_altitude needs seabed_depth (the depth of the flat seabed)')
    return out


def _beam_vectors(block: Dict[str, Any], path: str, ctx: _Ctx) -> Tuple[Tuple[float, ...]]:
    """Return the unit beam vectors of a dvl ``beam_directions`` (three or more)."""
    items = block['beam_directions']
    if 'janus_angle' in block or 'beam_azimuths' in block:
        raise ctx.error(path, 'give beam_directions or janus_angle/beam_azimuths, not both')
    if not isinstance(items, list) or len(items) < 3 or not all(
            isinstance(v, list) and len(v) == 3 for v in items):
        raise ctx.error(path, 'beam_directions: three or more [x, y, z] vectors')
    out = []
    for vector in items:
        v = np.array([_number(x, path, ctx) for x in vector])
        norm = float(np.linalg.norm(v))
        if not norm > 0.0:
            raise ctx.error(path, 'beam direction %r has no length' % (vector,))
        out.append(tuple(float(x) for x in v / norm))
    return tuple(out)


def _navsat(block: Dict[str, Any], path: str, ctx: _Ctx) -> NavSatParams:
    out = NavSatParams()
    if 'latitude_deg' in block:
        out.latitude_deg = _number(block['latitude_deg'], _join(path, 'latitude_deg'), ctx)
        if abs(out.latitude_deg) > 90.0:
            raise ctx.error(_join(path, 'latitude_deg'), 'latitude must be within [-90, 90]')
    if 'longitude_deg' in block:
        out.longitude_deg = _number(block['longitude_deg'], _join(path, 'longitude_deg'), ctx)
        if abs(out.longitude_deg) > 180.0:
            raise ctx.error(_join(path, 'longitude_deg'),
                            'longitude must be within [-180, 180]')
    if 'elevation' in block:
        out.elevation = _number(block['elevation'], _join(path, 'elevation'), ctx)
    if 'surfaced_depth' in block:
        out.surfaced_depth = _number(block['surfaced_depth'], _join(path, 'surfaced_depth'),
                                     ctx)
    sensing = _mapping(block.get('position_sensing'))
    out.horizontal = _noise(_mapping(sensing.get('horizontal')).get('noise'),
                            _join(path, 'position_sensing.horizontal.noise'), ctx)
    out.vertical = _noise(_mapping(sensing.get('vertical')).get('noise'),
                          _join(path, 'position_sensing.vertical.noise'), ctx)
    return out


_TYPE_PARSERS = {'imu': _imu, 'fluid_pressure': _fluid_pressure, 'dvl': _dvl,
                 'navsat': _navsat}


def default_seed(name: str) -> int:
    """Return the default noise seed of a sensor: CRC-32 of its name (repeatable runs)."""
    # CRC-32 (zlib): a stable hash across Python runs, unlike hash()
    return zlib.crc32(name.encode('utf-8'))


def sensor_from_mapping(name: str, block: Any, ctx: _Ctx, base_frame: str) -> SensorParams:
    """Return the SensorParams of one sensor's key tree (YAML mapping or converted XML)."""
    if not isinstance(block, dict):
        raise ctx.error(name, 'expected a mapping, got %r' % (block,))
    kind = block.get('type')
    if kind not in SENSOR_TYPES:
        raise ctx.error(_join(name, 'type'), 'unknown sensor type %r; expected one of %s'
                        % (kind, ', '.join(SENSOR_TYPES)))
    schema = SENSOR_SCHEMA[kind]
    for key in block:
        if key not in schema:
            raise ctx.error(_join(name, str(key)),
                            "unknown key '%s' for sensor type %s; expected one of %s"
                            % (key, kind, ', '.join(schema)))
    for key, sub in schema.items():
        if sub is not None and key in block:
            _check_keys(_mapping(block[key]), sub, _join(name, key), ctx)
    if 'update_rate' not in block:
        raise ctx.error(name, "missing 'update_rate' (Hz)")
    rate = _number(block['update_rate'], _join(name, 'update_rate'), ctx, positive=True)
    if not MIN_RATE_HZ <= rate <= MAX_RATE_HZ:
        raise ctx.error(_join(name, 'update_rate'), 'must be within [%g, %g] Hz, got %g'
                        % (MIN_RATE_HZ, MAX_RATE_HZ, rate))
    link = _string(block['link'], _join(name, 'link'), ctx) if 'link' in block else base_frame
    topic = _string(block['topic'], _join(name, 'topic'), ctx) if 'topic' in block else name
    if 'seed' in block:
        seed = block['seed']
        if ctx.xml and isinstance(seed, str) and seed.strip().isdigit():
            seed = int(seed.strip())
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ctx.error(_join(name, 'seed'), 'expected a non-negative integer, got %r'
                            % (seed,))
    else:
        seed = default_seed(name)
    pose = _pose(block['pose'], _join(name, 'pose'), ctx) if 'pose' in block else None
    frame = name if pose is not None else ''
    if 'frame_id' in block:
        frame = _string(block['frame_id'], _join(name, 'frame_id'), ctx)
    model = _TYPE_PARSERS[kind](_mapping(block.get(kind)), _join(name, kind), ctx)
    return SensorParams(name=name, kind=kind, link=link, update_rate=rate, topic=topic,
                        seed=seed, model=model, pose=pose, frame=frame)


def _pose(value: Any, path: str, ctx: _Ctx) -> Tuple[float, ...]:
    """Return (x, y, z, roll, pitch, yaw) of a pose: 6 numbers (list, or XML text)."""
    if isinstance(value, str) and ctx.xml:
        value = value.split()
    if not isinstance(value, (list, tuple)) or len(value) != 6:
        raise ctx.error(path, 'expected 6 numbers x y z roll pitch yaw, got %r' % (value,))
    return tuple(_number(v, path, ctx) for v in value)


def sensors_from_yaml(value: Any, source: str, base_frame: str, outer=None
                      ) -> List[SensorParams]:
    """Return the sensors of a YAML ``sensors:`` mapping (name -> sensor)."""
    ctx = _Ctx(source, 'sensors.', outer=outer)
    if not isinstance(value, dict):
        raise ctx.error('', 'expected a mapping sensor name -> sensor')
    return [sensor_from_mapping(str(name), block, ctx, base_frame)
            for name, block in value.items()]


def read_yaml_sensors(value: Any, ctx, params) -> None:
    """
    Read a YAML vehicle's ``sensors:`` section into ``params`` (a YAML_SECTIONS reader).

    The base description's sensors are kept; one of the same name is replaced.
    """
    sensors = merge_sensors(params.sensors, sensors_from_yaml(
        value, ctx.source, params.base_frame, outer=ctx))
    check_sensor_links(sensors, params, ctx.source, error=ctx.error)
    params.sensors = sensors


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
    (``xmlns:gz`` declared, or the literal prefix).
    """
    kind = (sensor.get('type') or '').strip()
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
    'magnetometer': 'the magnetic field; no field model here',
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
    elements[_join(name, 'link')] = getattr(sensor, 'parent', None) or sensor
    out = sensor_from_mapping(name, tree, ctx, base_frame)
    if params is not None:
        record(params, 'sensor', name, place, 'warned' if notes else 'read',
               '; '.join(['%s model' % kind] + notes))
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


def merge_sensors(base: List[SensorParams], overlay: List[SensorParams]
                  ) -> List[SensorParams]:
    """Return ``base``'s sensors with those of ``overlay`` replacing same-named ones."""
    names = {s.name for s in overlay}
    return [s for s in base if s.name not in names] + list(overlay)


def check_sensor_links(sensors: List[SensorParams], params, source: str,
                       error=None) -> None:
    """
    Raise DescriptionError for a repeated name or topic, or a link not fixed to the base.

    ``error(key, reason)`` builds the error (default: one naming ``source`` and the key).
    """
    if error is None:
        def error(key, reason):
            return DescriptionError(reason, source, key)
    names, topics = set(), {}
    for sensor in sensors:
        key = 'sensors.' + sensor.name
        if sensor.name in names:
            raise error(key, 'duplicate sensor name %r' % sensor.name)
        names.add(sensor.name)
        if sensor.topic in topics:
            raise error(key + '.topic', 'sensors %r and %r publish on the same topic %r'
                        % (topics[sensor.topic], sensor.name, sensor.topic))
        topics[sensor.topic] = sensor.name
        if sensor.link != params.base_frame and sensor.link not in params.frames:
            raise error(key + '.link',
                        'sensor %r: link %r is not the base link %r nor rigidly attached to '
                        'it through fixed joints (known frames: %s)'
                        % (sensor.name, sensor.link, params.base_frame,
                           ', '.join(sorted(params.frames)) or 'none'))
