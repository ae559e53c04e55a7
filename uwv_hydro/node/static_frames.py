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

"""The node's /tf_static: CoM, CoB and drag-centre frames, sensor frames, fixed links."""
from geometry_msgs.msg import TransformStamped
from tf2_msgs.msg import TFMessage

from uwv_hydro.modes.messages import msg_conversions as conv


def transform_stamped(stamp, parent: str, child: str, position, wxyz) -> TransformStamped:
    """Return the transform parent -> child at ``stamp`` (position, quaternion [w, x, y, z])."""
    t = TransformStamped()
    t.header.stamp = stamp
    t.header.frame_id = parent
    t.child_frame_id = child
    conv.fill_vector3(t.transform.translation, position)
    conv.fill_quaternion(t.transform.rotation, wxyz)
    return t


def static_frames(node) -> TFMessage:
    """Return base -> base_com, base_cob, base_drag_center (and posed sensors) of ``node``."""
    msg = TFMessage()
    stamp = node.get_clock().now().to_msg()
    vehicle = node.vehicle
    for suffix, point in (('_com', vehicle.com), ('_cob', vehicle.cob),
                          ('_drag_center', vehicle.resolved_drag_center())):
        msg.transforms.append(transform_stamped(stamp, node.base_frame,
                                                node.base_frame + suffix, point, (1, 0, 0, 0)))
    sensors = getattr(node.io, 'sensors', None)  # sensor frames with a pose
    if sensors is not None:
        msg.transforms += sensors.static_transforms(stamp)
    joints = getattr(node, 'joints', None)  # the fixed links of a vehicle with moving links
    if joints is not None:
        msg.transforms += joints.static_transforms(stamp)
    return msg
