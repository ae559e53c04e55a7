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

"""The ``sensors:`` section of a YAML vehicle file."""
from typing import Any, List

from uwv_hydro.description.sensor_links import check_sensor_links, merge_sensors
from uwv_hydro.description.sensors import _Ctx, sensor_from_mapping
from uwv_hydro.physics.sensing.sensor_params import SensorParams


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
