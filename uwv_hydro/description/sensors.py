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
        <update_rate>100</update_rate> <topic>imu/data</topic>
        <imu><angular_velocity><x><noise type="gaussian">...</noise></x>...
      </sensor>
    </gazebo>

YAML (``vehicle: sensors:``): a mapping sensor name -> the same tree, plus ``link``.
An axis block (``angular_velocity``, ``linear_acceleration``, ``orientation``, DVL
``velocity``) holds ``x``/``y``/``z`` each with a ``noise``, or one ``noise`` for all
three axes; ``noise`` keys are SDF's.  :data:`SENSOR_SCHEMA` lists every key per type
(imu, fluid_pressure, dvl, navsat, magnetometer, rpt, echosounder); their meaning and
the common keys (``update_rate``, ``topic``, ``seed``, ``pose``, ``frame_id``) are in
doc/guide/hil.md ("Navigation sensors (simulate mode)").

XML ``<sensor>`` elements (URDF ``<gazebo reference>`` blocks, SDF links) are read
through a table of types, :data:`SENSOR_READERS`: ours, SDF ``navsat`` and Gazebo
classic ``gps`` (navsat), gz-sensors' ``custom`` ``gz:type="dvl"`` (dvl, bottom
tracking).  Types recognised but not simulated (cameras, lidars, sonars, altimeter,
air_pressure...: :data:`NOT_MODELLED_SENSORS`) and unknown types are
recorded 'warned' as not modelled in ``params.elements`` (one warning line names
them all); an unknown key inside one of ours is an error naming it.
"""
import math
from typing import Any, Dict, Optional, Tuple
import zlib

import numpy as np

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.overflow_bounds import (
    beyond, MAX_ANGLE, MAX_ECHO_RANGE, MAX_MAGNETIC_FIELD, MAX_REFERENCE_METRES,
    MAX_SENSOR_NOISE)
from uwv_hydro.description.xml_safe import element_line, element_path
from uwv_hydro.physics.sensing.sensor_params import (
    DvlParams, EchosounderParams, FluidPressureParams, ImuParams, MagnetometerParams,
    NavSatParams, NoiseParams, RptParams, SENSOR_TYPES, SensorParams)
from uwv_hydro.physics.spatial.unit_vector import unit_vector

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
    'magnetometer': dict(AXIS_KEYS, field=None, covariance=None),
    'rpt': dict(AXIS_KEYS, covariance=None, reference_position=None, reference_rpy=None,
                reference_frame=None),
    'echosounder': {'min_range': None, 'max_range': None, 'field_of_view': None,
                    'range': _NOISE, 'seabed_depth': None, 'surface_echo': None},
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
            positive: bool = False, allow_inf: bool = False,
            bound: Optional[float] = None) -> float:
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
    reason = None if bound is None else beyond(number, bound, path.rsplit('.', 1)[-1])
    if reason is not None:
        raise ctx.error(path, reason)
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
            values[key] = _number(block[key], _join(path, key), ctx, bound=MAX_SENSOR_NOISE)
    for key in ('stddev', 'bias_stddev', 'dynamic_bias_stddev'):
        if key in block:
            values[key] = _number(block[key], _join(path, key), ctx, minimum=0.0,
                                  bound=MAX_SENSOR_NOISE)
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
        unit = unit_vector(v)
        if unit is None:
            raise ctx.error(path, 'beam direction %r has no length' % (vector,))
        out.append(tuple(float(x) for x in unit))
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


def _magnetometer(block: Dict[str, Any], path: str, ctx: _Ctx, kind=MagnetometerParams):
    own = ('field', 'covariance', 'reference_position', 'reference_rpy', 'reference_frame')
    out = kind(noise=_axes({k: v for k, v in block.items() if k not in own}, path, ctx))
    if 'reference_frame' in block:
        out.reference_frame = _string(block['reference_frame'],
                                      _join(path, 'reference_frame'), ctx)
    for key in (k for k in own[:-1] if k in block):
        value = block[key]
        value = value.split() if isinstance(value, str) and ctx.xml else value
        if not isinstance(value, (list, tuple)) or len(value) != 3:
            raise ctx.error(_join(path, key), 'expected 3 numbers, got %r' % (value,))
        numbers = tuple(_number(v, _join(path, key), ctx, minimum=0.0 if key == 'covariance'
                                else None, bound=_VECTOR_BOUNDS[key]) for v in value)
        setattr(out, 'magnetic_field' if key == 'field' else key, numbers)
    return out


#: Bounds of the magnetometer's and RPT's vectors (overflow_bounds.py): a covariance is a
#: noise stddev squared.
_VECTOR_BOUNDS = {'field': MAX_MAGNETIC_FIELD, 'covariance': MAX_SENSOR_NOISE ** 2,
                  'reference_position': MAX_REFERENCE_METRES, 'reference_rpy': MAX_ANGLE}


def _rpt(block: Dict[str, Any], path: str, ctx: _Ctx) -> RptParams:
    return _magnetometer(block, path, ctx, RptParams)  # the same axis/vector keys


def _echosounder(block: Dict[str, Any], path: str, ctx: _Ctx) -> EchosounderParams:
    out = EchosounderParams(noise=_noise(_mapping(block.get('range')).get('noise'),
                                         _join(path, 'range.noise'), ctx))
    if 'min_range' in block:
        out.min_range = _number(block['min_range'], _join(path, 'min_range'), ctx,
                                minimum=0.0, bound=MAX_ECHO_RANGE)
    if 'max_range' in block:
        out.max_range = _number(block['max_range'], _join(path, 'max_range'), ctx,
                                positive=True, bound=MAX_ECHO_RANGE)
    if out.min_range >= out.max_range:
        raise ctx.error(_join(path, 'min_range'), 'min_range %g must be below max_range %g'
                        % (out.min_range, out.max_range))
    if 'field_of_view' in block:
        out.field_of_view = _number(block['field_of_view'], _join(path, 'field_of_view'),
                                    ctx, minimum=0.0)
        if out.field_of_view >= math.pi:
            raise ctx.error(_join(path, 'field_of_view'), "field_of_view %g rad: the cone's "
                            'full angle must be below pi (180 deg)' % out.field_of_view)
    if 'seabed_depth' in block:
        out.seabed_depth = _number(block['seabed_depth'], _join(path, 'seabed_depth'), ctx,
                                   positive=True, bound=MAX_ECHO_RANGE)
    if 'surface_echo' in block:
        out.surface_echo = _bool(block['surface_echo'], _join(path, 'surface_echo'), ctx)
    return out


_TYPE_PARSERS = {'imu': _imu, 'fluid_pressure': _fluid_pressure, 'dvl': _dvl,
                 'navsat': _navsat, 'magnetometer': _magnetometer, 'rpt': _rpt,
                 'echosounder': _echosounder}


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
