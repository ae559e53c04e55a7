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
The equipment of uuv_simulator, DAVE and ds_sim vehicles in a URDF, added to VehicleParams.

One hook for :func:`uwv_hydro.description.vehicle_from_urdf.urdf_from_root`: uuv thrusters
(:mod:`~uwv_hydro.description.uuv.thruster_plugin`), uuv fins
(:mod:`~uwv_hydro.description.uuv.fin_plugin`), the uuv umbilical
(:mod:`~uwv_hydro.description.uuv.umbilical_plugin`), uuv sensor plugins
(:mod:`~uwv_hydro.description.uuv.sensor_plugins`), ds_sim ``<sensor type="dsros_*">``
(:mod:`~uwv_hydro.description.dsros.sensors`), then every other ``<plugin>`` recorded
(:mod:`~uwv_hydro.description.plugin_inventory`).  The ``<sensor>`` elements these
readers own (:func:`owns_sensor`) are left out by the generic sensor table
(:func:`uwv_hydro.description.sensor_elements.sensors_from_urdf`), so that each sensor is read
and recorded once; the URDF reader adds the one 'not modelled' warning at its end.
"""
import xml.etree.ElementTree as ET

from uwv_hydro.description.dsros.sensors import (
    is_dsros_sensor, is_dsros_sensor_plugin, read_dsros_sensors)
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.plugin_inventory import record_plugins
from uwv_hydro.description.uuv.fin_plugin import is_uuv_fin_plugin, read_uuv_fins
from uwv_hydro.description.uuv.sensor_plugins import is_uuv_sensor_plugin, read_uuv_sensors
from uwv_hydro.description.uuv.thruster_plugin import is_uuv_thruster_plugin, read_uuv_thrusters
from uwv_hydro.description.uuv.umbilical_plugin import (
    is_uuv_umbilical_plugin, read_uuv_umbilical)
from uwv_hydro.physics.body.vehicle_params import VehicleParams


def owns_sensor(sensor: ET.Element) -> bool:
    """Return True for a <sensor> read here: ds_sim's, or one holding a uuv sensor plugin."""
    return is_dsros_sensor(sensor) or any(is_uuv_sensor_plugin(p)
                                          for p in sensor.findall('plugin'))


def read_uuv_equipment(root: ET.Element, params: VehicleParams, source: str) -> None:
    """Add the uuv_simulator / ds_sim equipment of ``root`` to ``params``; record plugins."""
    thrusters = read_uuv_thrusters(root, params, source)
    names = [t.joint_name for t in params.thrusters] + [t.joint_name for t in thrusters]
    for name in names:
        if names.count(name) > 1:
            raise DescriptionError('joint %r drives two thrusters' % name, source, 'thrusters')
    params.thrusters = tuple(params.thrusters) + tuple(thrusters)
    fins = read_uuv_fins(root, params, source)
    names = [f.name for f in params.fins] + [f.name for f in fins]
    for name in names:
        if names.count(name) > 1:
            raise DescriptionError('two plugins describe fin %r' % name, source, 'plugin')
    params.fins = list(params.fins) + fins
    params.sensors = (list(params.sensors) + read_uuv_sensors(root, params, source)
                      + read_dsros_sensors(root, params, source))
    read_uuv_umbilical(root, params, source)
    record_plugins(root, params, source, (is_uuv_thruster_plugin, is_uuv_fin_plugin,
                                          is_uuv_sensor_plugin, is_dsros_sensor_plugin,
                                          is_uuv_umbilical_plugin))
