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
A tethered trajectory's cable in the bag, on the node's tether topics.

* ``/tether/tension`` geometry_msgs/WrenchStamped in the world frame (``odom``): the
  cable's force on the vehicle at its attachment (torque zero: a point force);
* ``/tether/marker`` visualization_msgs/Marker, a LINE_STRIP through the cable's
  nodes in the world frame (far end first), at every sample.
"""
import numpy as np

from uwv_hydro.bag.rosbag_io import WRENCH

MARKER = 'visualization_msgs/msg/Marker'
#: the tether topics (the node publishes the same)
TENSION_TOPIC, MARKER_TOPIC = '/tether/tension', '/tether/marker'
#: the cable's colour (RGBA) and line width (m)
COLOUR, WIDTH = (1.0, 0.8, 0.1, 1.0), 0.02


def cable_marker(store, make, stamp_ns: int, frame_id: str, nodes):
    """Return the LINE_STRIP Marker through ``nodes`` ((N + 1, 3), world)."""
    t = store.types
    point = t['geometry_msgs/msg/Point']
    return t[MARKER](
        header=make.header(stamp_ns, frame_id), ns='tether', id=0, type=4, action=0,
        pose=t['geometry_msgs/msg/Pose'](
            position=point(x=0.0, y=0.0, z=0.0),
            orientation=t['geometry_msgs/msg/Quaternion'](x=0.0, y=0.0, z=0.0, w=1.0)),
        scale=t['geometry_msgs/msg/Vector3'](x=WIDTH, y=0.0, z=0.0),
        color=t['std_msgs/msg/ColorRGBA'](r=COLOUR[0], g=COLOUR[1], b=COLOUR[2], a=COLOUR[3]),
        lifetime=t['builtin_interfaces/msg/Duration'](sec=0, nanosec=0), frame_locked=False,
        points=[point(x=float(p[0]), y=float(p[1]), z=float(p[2])) for p in nodes],
        colors=[], texture_resource='',
        texture=t['sensor_msgs/msg/CompressedImage'](
            header=make.header(0, ''), format='', data=np.zeros(0, dtype=np.uint8)),
        uv_coordinates=[], text='', mesh_resource='',
        mesh_file=t['visualization_msgs/msg/MeshFile'](
            filename='', data=np.zeros(0, dtype=np.uint8)),
        mesh_use_embedded_materials=False)


def write_tether(bag, store, make, tether: dict, stamps, frame_id: str) -> None:
    """Write the tension and the cable's marker at every stamp (module docstring)."""
    tension, nodes = np.asarray(tether['tension'], float), np.asarray(tether['nodes'], float)
    for k, stamp in enumerate(stamps):
        stamp = int(stamp)
        bag.write(TENSION_TOPIC, WRENCH, stamp,
                  make.wrench(stamp, frame_id, list(tension[k]) + [0.0, 0.0, 0.0]))
        bag.write(MARKER_TOPIC, MARKER, stamp,
                  cable_marker(store, make, stamp, frame_id, nodes[k]))
