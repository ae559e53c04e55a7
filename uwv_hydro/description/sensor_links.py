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

"""A vehicle's sensor list: overlays by name, and the checks of names, topics and links."""
from typing import List

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.physics.sensing.sensor_params import SensorParams


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
        tree = getattr(params, 'tree', None)
        on_tree = tree is not None and tree.body_of(sensor.link) is not None
        if sensor.link != params.base_frame and sensor.link not in params.frames \
                and not on_tree:
            raise error(key + '.link',
                        'sensor %r: link %r is not the base link %r nor rigidly attached to '
                        'it through fixed joints%s (known frames: %s)'
                        % (sensor.name, sensor.link, params.base_frame,
                           '' if tree is None else ' nor a link of the joint tree',
                           ', '.join(sorted(params.frames)) or 'none'))
