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
Read uuv_simulator sensor plugins (``uuv_sensor_ros_plugins``) in a URDF into SensorParams.

uuv's navigation sensors are model plugins in ``<gazebo>`` naming their link
(``ROSBaseModelPlugin.cc``: ``link_name`` required; ``ROSBasePlugin.cc``:
``robot_namespace``, ``sensor_topic``, ``update_rate`` default 30 Hz, ``noise_sigma``
and ``noise_amplitude`` default 0, ``enable_gazebo_messages``, ``is_on``...).  Mapped
onto the project's models, measuring in the link frame, topic ``sensor_topic``
(relative: in the node's namespace, as uuv's under ``robot_namespace``):

* ``libuuv_gazebo_ros_imu_plugin.so`` (``IMUROSPlugin.cc``, ADIS16448 defaults) ->
  ``imu``: white noise stddev = noise_density sqrt(update_rate), turn-on bias, dynamic
  bias as uuv's exact Gauss-Markov step (Maybeck 4-114), ``orientation_noise``;
* ``libuuv_gazebo_ros_subsea_pressure_plugin.so`` -> ``fluid_pressure`` in Pa (the
  pressure per metre is the vehicle's rho g; a ``kPa_per_meter`` 1 % off is warned);
* ``libuuv_gazebo_ros_dvl_plugin.so`` -> ``dvl``: the link's velocity, always in lock;
* ``libuuv_gazebo_ros_gps_plugin.so`` in ``<sensor type="gps">`` -> ``navsat`` (datum
  0/0: give the world's spherical coordinates in YAML);
* ``libuuv_gazebo_ros_magnetometer_plugin.so`` -> ``magnetometer``: the world field
  I [cos i cos(h - d), cos i sin(h - d), -sin i] (ENU), published in the plugin's unit;
* ``libuuv_gazebo_ros_rpt_plugin.so`` -> ``rpt``: R_ref^T (p_link - p_ref) in
  ``static_reference_frame`` (``world`` is the odom frame; another name: the world
  origin, with a note).

uuv's other sensor plugins (pose_gt, cpc, cameras, sonar) are recorded 'warned', not
modelled.  uuv's ``enable_local_ned_frame`` (default true) is reproduced for the DVL as
a sensor pose (``<link>_ned``); the IMU measures in the link frame (FLU) and the
difference is warned.  Every plugin's keys, defaults and noise mapping:
doc/guide/uuv_dave_dssim.md.
"""
import math
from typing import Dict, List, Optional
import xml.etree.ElementTree as ET

from uwv_hydro.description.element_report import record, where
from uwv_hydro.description.overflow_bounds import (
    beyond, MAX_ANGLE, MAX_MAGNETIC_FIELD, MAX_SENSOR_NOISE)
from uwv_hydro.description.plugin_number import plugin_float
from uwv_hydro.description.sensors import default_seed
from uwv_hydro.description.xml_safe import element_error
from uwv_hydro.description.xml_values import float_text
from uwv_hydro.physics.body.vehicle_params import VehicleParams
from uwv_hydro.physics.sensing.sensor_params import (
    DvlParams, FluidPressureParams, ImuParams, MagnetometerParams, NavSatParams, NoiseParams,
    RptParams, SensorParams)

#: uuv's default update rate (Hz), ROSBasePlugin.cc.
UUV_DEFAULT_RATE = 30.0
#: IMUROSPlugin.hh defaults (ADIS16448): element -> value.
UUV_IMU_DEFAULTS = {
    'gyroscope_noise_density': 2.0 * 35.0 / 3600.0 / 180.0 * math.pi,
    'gyroscope_bias_random_walk': 2.0 * 4.0 / 3600.0 / 180.0 * math.pi,
    'gyroscope_bias_correlation_time': 1.0e3,
    'gyroscope_turn_on_bias_sigma': 0.5 / 180.0 * math.pi,
    'accelerometer_noise_density': 2.0 * 2.0e-3,
    'accelerometer_random_walk': 2.0 * 3.0e-3,
    'accelerometer_bias_correlation_time': 300.0,
    'accelerometer_turn_on_bias_sigma': 20.0e-3 * 9.8,
    'orientation_noise': 0.5,
}
#: SubseaPressureROSPlugin.cc defaults (kPa, kPa/m).
UUV_STANDARD_PRESSURE_KPA = 101.325
UUV_KPA_PER_METER = 9.80638
#: MagnetometerROSPlugin.cc defaults (rad, the field's unit).
UUV_MAGNETOMETER_DEFAULTS = {'intensity': 1.0, 'reference_heading': math.pi,
                             'declination': 0.0, 'inclination': math.radians(60.0),
                             'noise_xy': 1.0, 'noise_z': 1.4, 'turn_on_bias': 2.0}
#: Elements every uuv sensor plugin may hold (ROSBasePlugin / ROSBaseModelPlugin).
COMMON_KEYS = frozenset(('robot_namespace', 'link_name', 'sensor_topic', 'update_rate',
                         'noise_sigma', 'noise_amplitude', 'enable_gazebo_messages',
                         'enable_local_ned_frame', 'static_reference_frame',
                         'reference_link_name', 'is_on'))
#: Plugin filename marker -> (project type, its own elements).
MODELLED = {
    'uuv_gazebo_ros_imu_plugin': ('imu', frozenset(UUV_IMU_DEFAULTS)),
    'uuv_gazebo_ros_subsea_pressure_plugin': ('fluid_pressure', frozenset((
        'saturation', 'noise_stddev', 'estimate_depth_on', 'standard_pressure',
        'kPa_per_meter'))),
    'uuv_gazebo_ros_dvl_plugin': ('dvl', frozenset(
        ['beam_link_name_%d' % k for k in range(4)] + ['beam_topic_%d' % k for k in range(4)])),
    'uuv_gazebo_ros_gps_plugin': ('navsat', frozenset()),
    'uuv_gazebo_ros_magnetometer_plugin': ('magnetometer', frozenset(UUV_MAGNETOMETER_DEFAULTS)),
    'uuv_gazebo_ros_rpt_plugin': ('rpt', frozenset()),
}
#: uuv sensor plugins that are not simulated here, with what they measure.
NOT_MODELLED = {
    'uuv_gazebo_ros_pose_gt_plugin': 'ground-truth pose (pose_3d)',
    'uuv_gazebo_ros_cpc_plugin': 'chemical particle concentration',
    'uuv_gazebo_ros_camera_plugin': 'underwater camera',
    'uuv_gazebo_ros_underwater_camera': 'underwater camera',
    'image_sonar_ros_plugin': 'forward-looking sonar',
    'uuv_gazebo_ros_sonar': 'sonar',
}


def _marker(elem: ET.Element) -> Optional[str]:
    filename = elem.get('filename', '')
    for marker in list(MODELLED) + list(NOT_MODELLED):
        if marker in filename:
            return marker
    return None


def is_uuv_sensor_plugin(elem: ET.Element) -> bool:
    """Return True for a uuv_simulator sensor <plugin> (modelled or not)."""
    return elem.tag == 'plugin' and _marker(elem) is not None


def _values(block: ET.Element, keys, source: str, notes: List[str]) -> Dict[str, ET.Element]:
    out: Dict[str, ET.Element] = {}
    for child in block:
        if not isinstance(child.tag, str):
            continue
        if child.tag not in keys:
            notes.append('unknown element <%s> ignored (as uuv_simulator)' % child.tag)
        elif child.tag in out:
            raise element_error('<%s> given twice' % child.tag, source, child)
        out[child.tag] = child
    return out


def _number(values: Dict[str, ET.Element], key: str, default: float, source: str,
            notes: List[str], minimum: float = 0.0, positive: bool = False,
            bound: float = math.inf) -> float:
    if key not in values:
        return default
    value = plugin_float(values[key], source, notes)  # empty: 0, as sdformat
    if value < minimum or (positive and not value > 0.0):
        raise element_error('<%s> must be %s %g, got %g' % (key, '>' if positive else '>=',
                                                            minimum, value),
                            source, values[key])
    reason = beyond(value, bound, '<%s>' % key) if bound < math.inf else None
    if reason is not None:
        raise element_error(reason, source, values[key])
    return value


def _imu(values, rate, source, notes) -> ImuParams:
    def get(key):
        positive = key.endswith('correlation_time')  # IMUROSPlugin.cc asserts > 0
        return _number(values, key, UUV_IMU_DEFAULTS[key], source, notes, positive=positive)

    def axes(sensor):
        density = get(sensor + '_noise_density')
        walk = get(sensor + ('_bias_random_walk' if sensor == 'gyroscope'
                             else '_random_walk'))
        # uuv: white noise sigma_d = density / sqrt(dt), dt = 1 / update_rate
        noise = NoiseParams(stddev=density * math.sqrt(rate),
                            bias_stddev=get(sensor + '_turn_on_bias_sigma'),
                            dynamic_bias_stddev=walk,
                            dynamic_bias_correlation_time=get(sensor
                                                              + '_bias_correlation_time'))
        return tuple(NoiseParams(**vars(noise)) for _ in range(3))

    orientation = get('orientation_noise')
    return ImuParams(angular_velocity=axes('gyroscope'),
                     linear_acceleration=axes('accelerometer'),
                     orientation=tuple(NoiseParams(stddev=orientation) for _ in range(3)))


def _white(values, source, notes) -> float:
    """Return uuv's noise stddev: noise_amplitude * noise_sigma (GetGaussianNoise)."""
    return (_number(values, 'noise_amplitude', 0.0, source, notes, bound=MAX_SENSOR_NOISE)
            * _number(values, 'noise_sigma', 0.0, source, notes, bound=MAX_SENSOR_NOISE))


def _magnetometer(values, source, notes) -> MagnetometerParams:
    """Return uuv's magnetometer (MagnetometerROSPlugin::Load) as the project's model."""
    def get(key, minimum=-math.inf, bound=MAX_ANGLE):
        return _number(values, key, UUV_MAGNETOMETER_DEFAULTS[key], source, notes, minimum,
                       bound=bound)
    intensity, heading, declination, inclination = (
        get('intensity', 0.0, MAX_MAGNETIC_FIELD), get('reference_heading'),
        get('declination'), get('inclination'))
    # MagnetometerROSPlugin::Load: the world field from intensity, heading, declination
    # and inclination (Gazebo world frame)
    field = (intensity * math.cos(inclination) * math.cos(heading - declination),
             intensity * math.cos(inclination) * math.sin(heading - declination),
             -intensity * math.sin(inclination))
    amplitude = _number(values, 'noise_amplitude', 0.0, source, notes, bound=MAX_SENSOR_NOISE)
    xy, z, bias = (get(key, 0.0, MAX_SENSOR_NOISE)
                   for key in ('noise_xy', 'noise_z', 'turn_on_bias'))
    # GetGaussianNoise(name, amp) = amp * N(0, sigma): white noise and the turn-on bias
    noise = tuple(NoiseParams(stddev=amplitude * s, bias_stddev=amplitude * bias)
                  for s in (xy, xy, z))
    notes.append('published in the unit of <intensity> (%g), as uuv does, not converted '
                 'to tesla' % intensity)
    return MagnetometerParams(magnetic_field=field, noise=noise,
                              covariance=(xy * xy, xy * xy, z * z))


def _rpt(values, source, notes) -> RptParams:
    """Return uuv's RPT (RPTROSPlugin / ROSBasePlugin) as the project's model."""
    sigma = _number(values, 'noise_sigma', 0.0, source, notes, bound=MAX_SENSOR_NOISE)
    # GetGaussianNoise(amp) = amp * N(0, noise_sigma) per axis; covariance noise_sigma^2
    noise = tuple(NoiseParams(stddev=_white(values, source, notes)) for _ in range(3))
    out = RptParams(noise=noise, covariance=(sigma * sigma,) * 3)
    frame = (values['static_reference_frame'].text or '').strip() \
        if 'static_reference_frame' in values else 'world'
    if 'reference_link_name' in values and 'static_reference_frame' not in values:
        notes.append('reference_link_name %r: a Gazebo link is no frame here; the world is '
                     'used' % (values['reference_link_name'].text or '').strip())
    elif frame and frame != 'world':
        out.reference_frame = frame
        notes.append('static_reference_frame %r: uuv takes its pose from /tf_static (world -> '
                     '%s), unknown here: the world origin is used (set reference_position / '
                     'reference_rpy in a YAML)' % (frame, frame))
    return out


def _gps(sensor: Optional[ET.Element], source: str) -> NavSatParams:
    """Return the navsat model of a Gazebo <sensor type="gps"> (gz element names)."""
    out = NavSatParams()
    if sensor is None:
        return out
    for axis in ('horizontal', 'vertical'):
        noise = sensor.find('gps/position_sensing/%s/noise' % axis)
        if noise is None or noise.get('type', 'gaussian') == 'none':
            continue
        kw = {}
        for key in ('mean', 'stddev', 'bias_mean', 'bias_stddev'):
            elem = noise.find(key)
            if elem is not None:
                kw[key] = float_text(elem, source)
        setattr(out, axis, NoiseParams(**kw))
    return out


def read_uuv_sensors(root: ET.Element, params: VehicleParams, source: str
                     ) -> List[SensorParams]:
    """Return the sensors of every uuv_simulator sensor plugin (records each plugin)."""
    sensors: List[SensorParams] = []
    for block in (e for e in root.iter('plugin') if is_uuv_sensor_plugin(e)):
        marker = _marker(block)
        name = block.get('filename', '')
        place = where(source, block)
        if marker in NOT_MODELLED:
            record(params, 'sensor', name, place, 'warned',
                   'not modelled: %s (uuv_simulator)' % NOT_MODELLED[marker])
            continue
        kind, own = MODELLED[marker]
        notes: List[str] = []
        values = _values(block, COMMON_KEYS | own, source, notes)
        parent = getattr(block, 'parent', None)
        gps_sensor = parent if parent is not None and parent.tag == 'sensor' else None
        link = (values['link_name'].text or '').strip() if 'link_name' in values else ''
        if gps_sensor is not None and not link:
            gazebo = getattr(gps_sensor, 'parent', None)
            link = gazebo.get('reference', '') if gazebo is not None else ''
        if not link:  # ROSBaseModelPlugin.cc asserts it
            raise element_error('a uuv_simulator sensor plugin needs <link_name>', source,
                                block)
        topic = (values['sensor_topic'].text or '').strip() if 'sensor_topic' in values \
            else ''
        if not topic:  # ROSBasePlugin.cc asserts it
            raise element_error('a uuv_simulator sensor plugin needs <sensor_topic>', source,
                                block)
        rate = _number(values, 'update_rate', UUV_DEFAULT_RATE, source, notes, positive=True)
        sensor_name = topic.strip('/').replace('/', '_') or kind
        if kind == 'imu':
            model = _imu(values, rate, source, notes)
        elif kind == 'fluid_pressure':
            stddev = _white(values, source, notes)
            if 'noise_stddev' in values:  # older uuv_simulator
                stddev = _number(values, 'noise_stddev', 0.0, source, notes)
            model = FluidPressureParams(
                atmospheric_pressure=1e3 * _number(values, 'standard_pressure',
                                                   UUV_STANDARD_PRESSURE_KPA, source, notes),
                pressure=NoiseParams(stddev=1e3 * stddev))  # kPa -> Pa
            per_metre = _number(values, 'kPa_per_meter', UUV_KPA_PER_METER, source, notes)
            rho_g = params.fluid_density * params.gravity / 1e3  # hydrostatics: dp/dd = rho g
            if abs(per_metre - rho_g) > 0.01 * rho_g:
                notes.append("kPa_per_meter %g: the pressure grows by the vehicle's rho g = "
                             '%.5g kPa/m here' % (per_metre, rho_g))
        elif kind == 'dvl':
            stddev = _white(values, source, notes)
            model = DvlParams(velocity=tuple(NoiseParams(stddev=stddev) for _ in range(3)))
        elif kind == 'magnetometer':
            model = _magnetometer(values, source, notes)
        elif kind == 'rpt':
            model = _rpt(values, source, notes)
        else:
            model = _gps(gps_sensor, source)
            notes.append("datum latitude/longitude 0/0 (uuv uses the world's spherical "
                         'coordinates: set them in a YAML over this file)')
        # ROSBaseModelPlugin.cc: enable_local_ned_frame defaults to true
        ned = kind in ('imu', 'dvl', 'magnetometer') and (
            'enable_local_ned_frame' not in values
            or (values['enable_local_ned_frame'].text or '').strip().lower() in ('1', 'true'))
        pose, frame = None, ''
        if ned and kind in ('dvl', 'magnetometer'):
            # DVLROSPlugin.cc, MagnetometerROSPlugin.cc: the measurement rotated by roll pi,
            # frame_id <link>_ned: a sensor frame rotated by roll pi in the link is that
            pose, frame = (0.0, 0.0, 0.0, math.pi, 0.0, 0.0), link + '_ned'
        elif ned:
            notes.append('enable_local_ned_frame: uuv rotates the rates and accelerations '
                         'by roll pi but names the link as frame_id; here all is in the link '
                         'frame (FLU)')
        sensors.append(SensorParams(name=sensor_name, kind=kind, link=link, update_rate=rate,
                                    topic=topic, seed=default_seed(sensor_name), model=model,
                                    pose=pose, frame=frame))
        record(params, 'sensor', sensor_name, place, 'warned' if notes else 'read',
               'uuv_simulator %s -> %s on %s, topic %s' % (marker, kind, link, topic)
               + ''.join('; ' + n for n in notes))
        params.warnings.extend('uuv sensor %s: %s' % (sensor_name, n) for n in notes)
    return sensors
