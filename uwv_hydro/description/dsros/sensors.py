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
Read ds_sim sensors (``<sensor type="dsros_*">`` in ``<gazebo reference>``) into SensorParams.

As ds_sim's xacros write them (``ds_sim/urdf/paro_sim.xacro``, ``phins_sim.xacro``,
``rdi300_sim.xacro``, ``xeos_gps_sim.xacro``; DAVE's DVL xacros use the same sensor)::

    <gazebo reference="base_link">
      <sensor name="paro_sensor" type="dsros_depth">
        <update_rate>5.0</update_rate> <pose frame="">0 0 0.1 0 0 0</pose>
        <plugin name=".." filename="libdsros_ros_depth.so"> <topicName>depth</topicName>
          <updateRateHZ>5</updateRateHZ> <gaussianNoise>0.005</gaussianNoise> </plugin>
      </sensor>
    </gazebo>

Plugin elements and defaults as ds_sim's ``src/dsros_*_plugin.cc`` (``LoadParameters``)
read them: a missing noise is 0, a missing ``updateRateHZ`` 1 Hz; the smaller of it and
the sensor's ``update_rate`` is used.  The sensor sits at its ``<pose>`` in the
reference link (its own frame, on /tf_static); ``topicName`` is the topic.  Mapping:

* ``dsros_depth`` -> ``fluid_pressure`` (``gaussianNoise`` dbar = 1e4 Pa);
* ``dsros_dvl`` -> ``dvl``: the per-beam ``gaussianNoiseBeamVel`` becomes per-axis noise
  through the four beams' least squares, Var(v_i) = sigma^2 [(B^T B)^-1]_ii;
* ``dsros_ins`` -> ``imu`` (orientation, rate and acceleration noise; the INS velocity
  and latitude outputs are warned);
* ``dsros_gps`` or a ``gps`` sensor with ``libdsros_ros_gps.so`` -> ``navsat`` (a fix
  while the altitude is at least ``minAltitude``).

Other ``dsros_*`` sensors are recorded 'warned'.  Details: doc/guide/uuv_dave_dssim.md.
"""
import math
from typing import Dict, List, Optional
import xml.etree.ElementTree as ET

import numpy as np

from uwv_hydro.description.element_report import record, where
from uwv_hydro.description.sensors import default_seed
from uwv_hydro.description.xml_safe import element_error, element_numbers
from uwv_hydro.description.xml_values import float_text
from uwv_hydro.physics.body.vehicle_params import VehicleParams
from uwv_hydro.physics.sensing.sensor_params import (
    DvlParams, FluidPressureParams, ImuParams, NavSatParams, NoiseParams, SensorParams)

#: Sensor type -> (project type, plugin filename marker).
MODELLED = {'dsros_depth': ('fluid_pressure', 'dsros_ros_depth'),
            'dsros_dvl': ('dvl', 'dsros_ros_dvl'),
            'dsros_ins': ('imu', 'dsros_ros_ins'),
            'dsros_gps': ('navsat', 'dsros_ros_gps')}
#: ds_sim's default plugin rate when ``updateRateHZ`` is missing (every LoadParameters).
DSROS_DEFAULT_RATE = 1.0
#: 1 dbar in Pa.
DBAR = 1e4
#: DVL beam geometry defaults (ds_sim rdi300 / DAVE WHN xacros).
DEFAULT_BEAM_ANGLE_DEG = 30.0
DEFAULT_AZIMUTHS_DEG = (-135.0, 135.0, 45.0, -45.0)


def _kind(sensor: ET.Element) -> Optional[str]:
    kind = sensor.get('type', '')
    if kind.startswith('dsros_'):
        return kind
    if kind == 'gps' and any('dsros_ros_gps' in p.get('filename', '')
                             for p in sensor.findall('plugin')):
        return 'dsros_gps'
    return None


def is_dsros_sensor(sensor: ET.Element) -> bool:
    """Return True for a ds_sim <sensor> (``dsros_*``, or gps with ds_sim's plugin)."""
    return sensor.tag == 'sensor' and _kind(sensor) is not None


def is_dsros_sensor_plugin(elem: ET.Element) -> bool:
    """Return True for the <plugin> of a ds_sim sensor (this module records it)."""
    parent = getattr(elem, 'parent', None)
    return (elem.tag == 'plugin' and parent is not None and parent.tag == 'sensor'
            and _kind(parent) is not None)


def _number(values: Dict[str, ET.Element], key: str, default: float, source: str) -> float:
    if key not in values:
        return default
    value = float_text(values[key], source)
    if value < 0.0 and key.startswith('gaussianNoise'):
        raise element_error('<%s> must be >= 0, got %g' % (key, value), source, values[key])
    return value


def beam_velocity_stddev(sigma: float, beam_angle_deg: float, azimuths_deg) -> np.ndarray:
    """Return the per-axis stddev of the least-squares velocity of Janus beams."""
    theta = math.radians(beam_angle_deg)
    phis = np.radians(np.asarray(azimuths_deg, float))
    # beam unit vectors in the sensor frame, tilted theta from the down axis (-z)
    beams = np.column_stack((math.sin(theta) * np.cos(phis), math.sin(theta) * np.sin(phis),
                             np.full(phis.shape, -math.cos(theta))))
    # least squares v = (B^T B)^-1 B^T r: Cov(v) = sigma^2 (B^T B)^-1
    return sigma * np.sqrt(np.diag(np.linalg.inv(beams.T @ beams)))


def _pose(sensor: ET.Element, source: str) -> Optional[tuple]:
    elem = sensor.find('pose')
    if elem is None:
        return None
    values = element_numbers(elem, (6,), source)
    if elem.get('degrees', 'false').strip() in ('true', '1'):
        values[3:] = np.radians(values[3:])
    return tuple(float(v) for v in values)


def read_dsros_sensors(root: ET.Element, params: VehicleParams, source: str
                       ) -> List[SensorParams]:
    """Return the sensors of every ds_sim <sensor type="dsros_*"> (records each)."""
    sensors: List[SensorParams] = []
    for gazebo in root.iter('gazebo'):
        link = gazebo.get('reference') or params.base_frame
        for sensor in gazebo.findall('sensor'):
            kind = _kind(sensor)
            if kind is None:
                continue
            name = sensor.get('name', '') or kind
            place = where(source, sensor)
            if kind not in MODELLED:
                record(params, 'sensor', name, place, 'warned',
                       'not modelled: ds_sim %s sensor' % kind)
                continue
            model_kind, marker = MODELLED[kind]
            plugins = [p for p in sensor.findall('plugin') if marker in p.get('filename', '')]
            if not plugins:
                record(params, 'sensor', name, place, 'warned',
                       'not modelled: ds_sim %s sensor without its %s plugin (nothing '
                       'published)' % (kind, marker))
                continue
            values = {c.tag: c for c in plugins[0] if isinstance(c.tag, str)}
            notes: List[str] = []
            rate = _number(values, 'updateRateHZ', DSROS_DEFAULT_RATE, source)
            rate_elem = sensor.find('update_rate')
            if rate_elem is not None and float_text(rate_elem, source) > 0.0:
                rate = min(rate, float_text(rate_elem, source))
            if not rate > 0.0:
                raise element_error('update rate must be positive, got %g' % rate, source,
                                    sensor)
            topic_elem = values.get('topicName', values.get('insTopicName'))
            topic = ((topic_elem.text or '').strip() if topic_elem is not None else '') or name
            model = _model(kind, values, source, notes)
            pose = _pose(sensor, source)
            sensors.append(SensorParams(name=name, kind=model_kind, link=link,
                                        update_rate=rate, topic=topic,
                                        seed=default_seed(name), model=model, pose=pose,
                                        frame=name if pose is not None else ''))
            record(params, 'sensor', name, place, 'warned' if notes else 'read',
                   'ds_sim %s -> %s on %s, topic %s' % (kind, model_kind, link, topic)
                   + ''.join('; ' + n for n in notes))
            params.warnings.extend('ds_sim sensor %s: %s' % (name, n) for n in notes)
    return sensors


def _model(kind: str, values: Dict[str, ET.Element], source: str, notes: List[str]):
    if kind == 'dsros_depth':
        # dsros_depth_plugin.cc: pressure + N(0, gaussianNoise) in dbar
        return FluidPressureParams(pressure=NoiseParams(
            stddev=DBAR * _number(values, 'gaussianNoise', 0.0, source)))
    if kind == 'dsros_dvl':
        angle = _number(values, 'beamAngleDeg', DEFAULT_BEAM_ANGLE_DEG, source)
        azimuths = [_number(values, 'beamAzimuthDeg%d' % k, d, source)
                    for k, d in zip(range(1, 5), DEFAULT_AZIMUTHS_DEG)]
        try:
            stddev = beam_velocity_stddev(_number(values, 'gaussianNoiseBeamVel', 0.0, source),
                                          angle, azimuths)
        except np.linalg.LinAlgError:
            stddev = np.full(3, np.nan)
        if not np.all(np.isfinite(stddev)):
            raise element_error('beamAngleDeg %g and beamAzimuthDeg1..4 %s: the beams do not '
                                'span three axes' % (angle, azimuths), source,
                                next(values[k] for k in ['beamAngleDeg'] + [
                                    'beamAzimuthDeg%d' % j for j in range(1, 5)]
                                    if k in values))
        if 'minRange' in values or 'maxRange' in values:
            notes.append('minRange/maxRange not applied: bottom lock needs seabed_depth '
                         '(YAML sensors: dvl: seabed_depth, max_altitude)')
        return DvlParams(velocity=tuple(NoiseParams(stddev=float(s)) for s in stddev))
    if kind == 'dsros_ins':
        pr = _number(values, 'gaussianNoisePR', 0.0, source)
        yaw = _number(values, 'gaussianNoiseY', 0.0, source)
        rate = _number(values, 'gaussianNoiseAngVel', 0.0, source)
        acc = _number(values, 'gaussianNoiseAcc', 0.0, source)
        if _number(values, 'gaussianNoiseVel', 0.0, source) or 'gaussianNoiseLat' in values:
            notes.append('not modelled: the INS velocity and latitude outputs')
        return ImuParams(angular_velocity=tuple(NoiseParams(stddev=rate) for _ in range(3)),
                         linear_acceleration=tuple(NoiseParams(stddev=acc) for _ in range(3)),
                         orientation=(NoiseParams(stddev=pr), NoiseParams(stddev=pr),
                                      NoiseParams(stddev=yaw)))
    # dsros_gps_plugin.cc: a fix while the altitude is at least minAltitude
    return NavSatParams(
        surfaced_depth=-_number_signed(values, 'minAltitude', 0.0, source),
        horizontal=NoiseParams(stddev=_number(values, 'gaussianNoiseLL_meters', 0.0, source)),
        vertical=NoiseParams(stddev=_number(values, 'gaussianNoiseAlt_meters', 0.0, source)))


def _number_signed(values, key, default, source) -> float:
    return float_text(values[key], source) if key in values else default
