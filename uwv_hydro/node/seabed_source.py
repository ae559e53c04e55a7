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
The node's seabed (``seabed_file``, ``seabed_origin``, ``seabed_radius``), read once.

The DVLs and echosounders (node/sensor_io.py), the contact (node/simulate_io.py) and
ArduPilot SITL's rangefinder (node/sitl_json_io.py) see the same seabed: the first part
that asks reads the file and logs its summary, the others get the same grid.
"""
from uwv_hydro.description.seabed.seabed_file import (seabed_from_options, seabed_lines,
                                                      seabed_summary)


def node_seabed(node):
    """Return the node's (GridSeabed, SeabedInfo), or None without ``seabed_file``."""
    if not hasattr(node, '_seabed'):
        cfg = node.cfg
        seabed = seabed_from_options(cfg['seabed_file'], cfg['seabed_origin'],
                                     cfg['seabed_radius'] or None,
                                     ('seabed_file', 'seabed_origin'))
        if seabed is not None:
            node.get_logger().info('seabed: %s' % '; '.join(
                line.strip() for line in seabed_lines(seabed_summary(*seabed))))
        node._seabed = seabed
    return node._seabed
