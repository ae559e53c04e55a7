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
A vehicle's sensors in words and as data: ``check``'s lines and JSON, the YAML export's tree.

:func:`sensor_tree` is what :func:`uwv_hydro.description.sensors.sensor_from_mapping`
reads back (the round trip is tested).
"""
from dataclasses import asdict
import math
from typing import Any, Dict, List

from uwv_hydro.physics.sensing.dvl_beams import boresight_cosines
from uwv_hydro.physics.sensing.sensor_params import DvlParams, NoiseParams, SensorParams
from uwv_hydro.physics.spatial.rotation import quat_to_rpy


def _finite_or_none(value: Any) -> Any:
    """Return plain data with infinite floats as None (JSON has no infinity)."""
    if isinstance(value, dict):
        return {k: _finite_or_none(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite_or_none(v) for v in value]
    if isinstance(value, float) and math.isinf(value):
        return None
    return value


def sensor_summary(sensor: SensorParams) -> Dict[str, Any]:
    """Return a sensor as plain data (``check --json``); infinite values are null."""
    data = _finite_or_none(asdict(sensor))
    data['type'] = data.pop('kind')
    return data


def _sigmas(axes) -> str:
    return '[%s]' % ', '.join('%.3g' % a.stddev for a in axes)


def describe_sensor(sensor: SensorParams) -> str:
    """Return one line naming a sensor, its frame, rate, topic and noise (``check``)."""
    m = sensor.model
    if sensor.kind == 'imu':
        detail = 'gyro sigma %s rad/s, accel sigma %s m/s^2, orientation %s' % (
            _sigmas(m.angular_velocity), _sigmas(m.linear_acceleration),
            'on' if m.enable_orientation else 'off')
    elif sensor.kind == 'fluid_pressure':
        detail = 'p_atm %.6g Pa, sigma %.3g Pa' % (m.atmospheric_pressure, m.pressure.stddev)
    elif sensor.kind == 'dvl':
        seabed = ('seabed %g m, lock at altitude %g..%g m'
                  % (m.seabed_depth, m.min_altitude, m.max_altitude)
                  if m.seabed_depth is not None else 'seabed always in range')
        beams = '4 beams at %.4g deg' % math.degrees(m.janus_angle)
        if m.beam_directions:  # a gz arrangement: each beam's angle from the DVL axis
            tilts = sorted({'%.4g' % math.degrees(math.acos(min(1.0, c)))
                            for c in boresight_cosines(m.beam_directions)})
            beams = '%d beams at %s deg' % (len(m.beam_directions), '/'.join(tilts))
        detail = '%s, sigma %s m/s, %s' % (seabed, _sigmas(m.velocity), beams)
    elif sensor.kind == 'magnetometer':
        detail = 'field %s (world ENU), sigma %s' % (
            '[%s]' % ', '.join('%.4g' % v for v in m.magnetic_field), _sigmas(m.noise))
    elif sensor.kind == 'rpt':
        detail = 'position in %s, sigma %s m' % (m.reference_frame or 'the world',
                                                 _sigmas(m.noise))
    elif sensor.kind == 'echosounder':
        seabed = ('seabed %g m (unless the world has one)' % m.seabed_depth
                  if m.seabed_depth is not None else "the world's seabed")
        detail = 'range %g..%g m along +x, cone %.4g deg, sigma %.3g m, %s%s' % (
            m.min_range, m.max_range, math.degrees(m.field_of_view), m.noise.stddev, seabed,
            ', surface echoes' if m.surface_echo else '')
    else:
        detail = ('datum %.7f, %.7f, %g m, fix above %g m depth, sigma %.3g m horizontal, '
                  '%.3g m vertical' % (m.latitude_deg, m.longitude_deg, m.elevation,
                                       m.surfaced_depth, m.horizontal.stddev,
                                       m.vertical.stddev))
    bias = any(not (a.bias_mean == a.bias_stddev == a.dynamic_bias_stddev == 0.0)
               for a in _all_noise(sensor))
    where = sensor.link if sensor.pose is None else '%s (pose %s in %s)' % (
        sensor.frame_id(), ' '.join('%g' % v for v in sensor.pose), sensor.link)
    return '%s (%s) in %s at %g Hz -> %s; %s%s' % (
        sensor.name, sensor.kind, where, sensor.update_rate, sensor.topic, detail,
        ', with bias' if bias else '')


def _all_noise(sensor: SensorParams) -> List[NoiseParams]:
    m = sensor.model
    if sensor.kind == 'imu':
        return list(m.angular_velocity + m.linear_acceleration + m.orientation)
    if sensor.kind == 'fluid_pressure':
        return [m.pressure]
    if sensor.kind == 'dvl':
        return list(m.velocity)
    if sensor.kind in ('magnetometer', 'rpt'):
        return list(m.noise)
    if sensor.kind == 'echosounder':
        return [m.noise]
    return [m.horizontal, m.vertical]


def _noise_tree(noise: NoiseParams) -> Dict[str, Any]:
    """Return the non-default fields of a noise block (an infinite time is the default)."""
    default = NoiseParams()
    return {k: v for k, v in asdict(noise).items() if v != getattr(default, k)}


def _axes_tree(axes) -> Dict[str, Any]:
    trees = [_noise_tree(a) for a in axes]
    if trees[0] == trees[1] == trees[2]:
        return {'noise': trees[0]} if trees[0] else {}
    return {a: {'noise': t} for a, t in zip('xyz', trees) if t}


def _model_tree(sensor: SensorParams) -> Dict[str, Any]:
    m = sensor.model
    if sensor.kind == 'imu':
        tree = {key: _axes_tree(getattr(m, key))
                for key in ('angular_velocity', 'linear_acceleration', 'orientation')}
        tree['enable_orientation'] = m.enable_orientation
    elif sensor.kind == 'fluid_pressure':
        tree = {'atmospheric_pressure': m.atmospheric_pressure,
                'pressure': {'noise': _noise_tree(m.pressure)}}
    elif sensor.kind == 'dvl':
        tree = {'min_altitude': m.min_altitude, 'velocity': _axes_tree(m.velocity)}
        if m.seabed_depth is not None:
            tree['seabed_depth'] = m.seabed_depth
        if math.isfinite(m.max_altitude):
            tree['max_altitude'] = m.max_altitude
        default = DvlParams()
        if m.janus_angle != default.janus_angle:
            tree['janus_angle'] = m.janus_angle
        if tuple(m.beam_azimuths) != default.beam_azimuths:
            tree['beam_azimuths'] = list(m.beam_azimuths)
        if m.beam_directions:
            tree['beam_directions'] = [list(b) for b in m.beam_directions]
    elif sensor.kind == 'magnetometer':
        tree = dict(_axes_tree(m.noise), field=list(m.magnetic_field))
        if m.covariance is not None:
            tree['covariance'] = list(m.covariance)
    elif sensor.kind == 'rpt':
        tree = dict(_axes_tree(m.noise), reference_position=list(m.reference_position),
                    reference_rpy=list(m.reference_rpy))
        if m.reference_frame:
            tree['reference_frame'] = m.reference_frame
        if m.covariance is not None:
            tree['covariance'] = list(m.covariance)
    elif sensor.kind == 'echosounder':
        tree = {'min_range': m.min_range, 'max_range': m.max_range,
                'field_of_view': m.field_of_view, 'range': {'noise': _noise_tree(m.noise)},
                'surface_echo': m.surface_echo}
        if m.seabed_depth is not None:
            tree['seabed_depth'] = m.seabed_depth
    else:
        tree = {'latitude_deg': m.latitude_deg, 'longitude_deg': m.longitude_deg,
                'elevation': m.elevation, 'surfaced_depth': m.surfaced_depth,
                'position_sensing': {'horizontal': {'noise': _noise_tree(m.horizontal)},
                                     'vertical': {'noise': _noise_tree(m.vertical)}}}
    return {k: v for k, v in tree.items() if v != {} and v != {'noise': {}}}


def sensor_tree(sensor: SensorParams, mount=None) -> Dict[str, Any]:
    """
    Return a sensor as the key tree :func:`sensor_from_mapping` reads back (YAML export).

    ``mount`` (translation, rotation wxyz in the base, e.g. from
    :func:`uwv_hydro.physics.sensing.sensors.sensor_mount`) folds the link and pose into a pose in
    the base link, for a file without the URDF's links; the frame keeps its name.
    """
    tree: Dict[str, Any] = {'type': sensor.kind, 'update_rate': sensor.update_rate,
                            'topic': sensor.topic, 'seed': sensor.seed}
    if mount is None:
        tree['link'] = sensor.link
        if sensor.pose is not None:
            tree['pose'] = list(sensor.pose)
        if sensor.frame and sensor.frame != (sensor.name if sensor.pose else ''):
            tree['frame_id'] = sensor.frame
    else:
        translation, rotation = mount
        tree['pose'] = list(translation) + list(quat_to_rpy(rotation))
        tree['frame_id'] = sensor.frame_id()
    model = _model_tree(sensor)
    if model:
        tree[sensor.kind] = model
    return tree
