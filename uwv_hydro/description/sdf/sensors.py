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
Sensors of an SDF <model>: every link's ``<sensor>`` and DAVE's sea-pressure plugin.

A link sensor is read by the <sensor> type table of
:mod:`uwv_hydro.description.sensors` (the reader URDF ``<gazebo reference>`` sensors
use), on the base at the link's pose times the sensor's ``<pose>``; a sensor on a link
that moves relative to the base (a propeller, a fin) is recorded as not modelled.  A
``navsat``/``gps`` sensor without a datum takes the world's
``<spherical_coordinates>`` (latitude_deg, longitude_deg, elevation), as gz-sim does.
A ``magnetometer`` measures the world's ``<magnetic_field>`` (tesla, world frame; SDF
default 5.5645e-6 22.8758e-6 -42.3884e-6 in a world that leaves it out), as gz-sim's
Magnetometer system gives it to gz-sensors.  With ``<spherical_coordinates>`` in the
world, gz-sim (Magnetometer.cc, Update) replaces it with a field from its
declination/inclination/strength tables at the sensor's latitude and longitude: not
modelled here, a warning says so.

DAVE's ``dave_gz_sensor_plugins::SubseaPressureSensorPlugin`` (a model <plugin>;
DAVE ``gazebo/dave_gz_sensor_plugins/src/sea_pressure_sensor.cc``: ``standard_pressure``
kPa, default 101.325; ``kPa_per_meter`` default 9.80638; ``saturation``,
``estimate_depth_on``, ``noise_sigma``) is a fluid_pressure sensor at the model origin
(the pose DAVE reads), published in Pa (DAVE writes kPa into the Pa field), every
physics step (DAVE publishes on every PostUpdate), noise free (DAVE adds none).
"""
from typing import Dict, List, Optional, Set
import xml.etree.ElementTree as ET

from uwv_hydro.description.element_report import record, where
from uwv_hydro.description.overflow_bounds import beyond, MAX_MAGNETIC_FIELD
from uwv_hydro.description.sdf.frames import FlatModel, Pose
from uwv_hydro.description.sensor_elements import DEFAULT_STEP_RATE_HZ, read_sensor_element
from uwv_hydro.description.sensors import default_seed
from uwv_hydro.description.xml_safe import element_error, element_numbers
from uwv_hydro.description.xml_values import float_text
from uwv_hydro.physics.body.vehicle_params import VehicleParams
from uwv_hydro.physics.sensing.sensor_params import (
    FluidPressureParams, SDF_DEFAULT_MAGNETIC_FIELD, SensorParams)

#: DAVE sea_pressure_sensor.cc defaults.
DAVE_STANDARD_PRESSURE_KPA = 101.325
DAVE_KPA_PER_METER = 9.80638
#: Elements DAVE's SubseaPressureSensorPlugin reads or documents.
DAVE_PRESSURE_KEYS = frozenset(('saturation', 'estimate_depth_on', 'standard_pressure',
                                'kPa_per_meter', 'noise_sigma', 'noise_amplitude',
                                'update_rate', 'namespace', 'topic'))


def _root(elem: ET.Element) -> ET.Element:
    while getattr(elem, 'parent', None) is not None:
        elem = elem.parent
    return elem


def world_datum(model: ET.Element) -> Dict[str, str]:
    """Return the world's <spherical_coordinates> datum as navsat keys (may be empty)."""
    out = {}
    coords = _root(model).find('.//world/spherical_coordinates')
    if coords is not None:
        for key in ('latitude_deg', 'longitude_deg', 'elevation'):
            text = coords.findtext(key)
            if text is not None and text.strip():
                out[key] = text.strip()
    return out


def world_magnetic_field(model: ET.Element, source: str = '') -> Dict[str, List[str]]:
    """Return {'field': the world's <magnetic_field> or SDF's default}; {} without a world."""
    world = _root(model).find('.//world')
    if world is None:
        return {}
    elem = world.find('magnetic_field')
    if elem is None or not (elem.text or '').strip():
        return {'field': [repr(v) for v in SDF_DEFAULT_MAGNETIC_FIELD]}
    field = element_numbers(elem, (3,), source)
    for value in field:  # refused here, naming the world's element and its line
        reason = beyond(float(value), MAX_MAGNETIC_FIELD, '<magnetic_field> component', ' T')
        if reason is not None:
            raise element_error(reason, source, elem)
    return {'field': [repr(float(v)) for v in field]}


def physics_rate(model: ET.Element, source: str) -> float:
    """Return the world's physics step rate (Hz): 1 / <max_step_size>, SDF default 1 ms."""
    step = _root(model).find('.//world/physics/max_step_size')
    if step is None:
        return DEFAULT_STEP_RATE_HZ
    value = float_text(step, source)
    if not value > 0.0:
        raise element_error('max_step_size must be positive', source, step)
    return 1.0 / value


def read_link_sensors(flat: FlatModel, params: VehicleParams, source: str,
                      poses: Dict[str, Pose], fixed: Set[str]) -> List[SensorParams]:
    """Return the modelled sensors of every link; record every link and joint <sensor>."""
    sensors = []
    defaults = {'navsat': world_datum(flat.element),
                'magnetometer': world_magnetic_field(flat.element, source)}
    tree = params.tree  # a link of a moving body: the sensor moves with that body
    for name, link in flat.links.items():
        for sensor in link.findall('sensor'):
            on_tree = tree is not None and tree.body_of(name) is not None
            if (name not in fixed and not on_tree) or name not in poses:
                record(params, 'sensor', sensor.get('name', ''), where(source, sensor),
                       'warned', 'not modelled: %s sensor on link %r, which moves '
                       'relative to the base %r' % (sensor.get('type', ''), name,
                                                    params.base_frame))
                continue
            # the sensor's <pose> in its link, relative_to resolved as sdformat does
            in_link = flat.pose_in_link(sensor.find('pose'), name)
            # on the base at link pose times sensor pose, or on its link of a moving body
            found = read_sensor_element(sensor, name, source, params.base_frame, params,
                                        link_pose=poses[name] if name in fixed else None,
                                        defaults=defaults, sensor_pose=in_link)
            if found is not None:
                sensors.append(found)
                if found.kind == 'magnetometer' and defaults['navsat']:
                    params.warnings.append(
                        "sensor %s: gz-sim's Magnetometer system takes the field from its "
                        "declination/inclination tables at the world's "
                        '<spherical_coordinates>; here the world <magnetic_field> (or '
                        "SDF's default) is used" % found.name)
    for joint_name, joint in flat.joints.items():  # SDF joint sensors (force_torque)
        for sensor in joint.findall('sensor'):
            note = 'not modelled: %s sensor on joint %r' % (sensor.get('type', ''), joint_name)
            record(params, 'sensor', sensor.get('name', ''), where(source, sensor), 'warned',
                   note)
    return sensors


def is_dave_pressure_plugin(plugin: ET.Element) -> bool:
    """Return True for DAVE's gz SubseaPressureSensorPlugin <plugin>."""
    return 'SubseaPressureSensorPlugin' in plugin.get('name', '') + plugin.get('filename', '')


def dave_pressure_sensor(plugin: ET.Element, model: ET.Element, params: VehicleParams,
                         source: str) -> Optional[SensorParams]:
    """Return the fluid_pressure sensor of a DAVE SubseaPressureSensorPlugin; record it."""
    values: Dict[str, ET.Element] = {}
    for child in plugin:
        if not isinstance(child.tag, str):
            continue
        if child.tag not in DAVE_PRESSURE_KEYS:
            raise element_error('unknown SubseaPressureSensorPlugin element <%s>; expected '
                                'one of %s' % (child.tag, ', '.join(sorted(DAVE_PRESSURE_KEYS))),
                                source, child)
        values[child.tag] = child
    kpa = float_text(values['standard_pressure'], source) if 'standard_pressure' in values \
        else DAVE_STANDARD_PRESSURE_KPA
    per_meter = float_text(values['kPa_per_meter'], source) if 'kPa_per_meter' in values \
        else DAVE_KPA_PER_METER
    notes = ['fluid_pressure model at the model origin, in Pa (DAVE publishes kPa)']
    # hydrostatic gradient rho g (Pa/m) against DAVE's kPa_per_meter
    gradient = params.fluid_density * params.gravity
    if abs(per_meter * 1000.0 - gradient) > 0.01 * gradient:
        notes.append('kPa_per_meter %g differs from rho g = %g kPa/m of the vehicle, '
                     'which is used' % (per_meter, gradient / 1000.0))
    for key in ('saturation', 'noise_sigma', 'noise_amplitude', 'estimate_depth_on'):
        if key in values:
            notes.append('%s ignored (DAVE does not apply it)' % key)
    rate = physics_rate(model, source)
    if 'update_rate' in values:
        notes.append('update_rate ignored: DAVE publishes every physics step (%g Hz)' % rate)
    topic = (values['topic'].text or '').strip() if 'topic' in values else 'sea_pressure'
    sensor = SensorParams(name='sea_pressure', kind='fluid_pressure', link=params.base_frame,
                          update_rate=rate, topic=topic or 'sea_pressure',
                          seed=default_seed('sea_pressure'),
                          model=FluidPressureParams(atmospheric_pressure=kpa * 1000.0))
    record(params, 'sensor', plugin.get('name', 'SubseaPressureSensorPlugin'),
           where(source, plugin), 'warned', '; '.join(notes))
    return sensor
