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
The optional gz-sim output of wrench mode: ros_gz_interfaces/EntityWrench.

With ``gz_entity_wrench: true`` every world-frame wrench the node publishes on
``hydro/wrench_world`` is also published on ``hydro/entity_wrench`` for gz-sim's
ApplyLinkWrench (through ros_gz_bridge, config/gz_bridge.yaml): entity
``<gz_model_name>::<gz_link_name>`` (defaults: the vehicle name and base link), type
LINK, id 0 (looked up by name), the same header.  ``gz_wrench_point`` says where that
ApplyLinkWrench applies the force: ``link_origin`` (gz-sim 7-9: the numbers of
hydro/wrench_world) or ``com`` (the torque moved to the centre of mass).
ros_gz_interfaces is imported only when the output is on.
"""
import numpy as np

from uwv_hydro.description.sdf.gz_bridge import ENTITY_WRENCH_TOPIC
from uwv_hydro.modes.messages import msg_conversions as conv
from uwv_hydro.physics.spatial.point_transform import transfer_wrench
from uwv_hydro.physics.spatial.rotation import quat_to_matrix


class GzEntityWrench:
    """Publishes each world-frame hydro wrench as an EntityWrench for ApplyLinkWrench."""

    def __init__(self, node, vehicle, model_name: str = '', link_name: str = '',
                 point: str = 'link_origin', qos=10):
        try:
            from ros_gz_interfaces.msg import Entity, EntityWrench
        except ImportError as exc:
            raise ValueError(
                'gz_entity_wrench: true needs the ros_gz_interfaces messages (ROS 2: '
                'install ros-$ROS_DISTRO-ros-gz-interfaces; here: tools/bootstrap builds '
                'them): %s' % exc) from None
        self.node = node
        self._msg = EntityWrench
        self._link_type = Entity.LINK
        #: the gz-sim model of the entities
        self.model_name = model_name or vehicle.name
        self.entity_name = self.entity(link_name or vehicle.base_frame)
        #: the force is applied at the centre of mass (gz_wrench_point: com)
        self.at_com = point == 'com'
        self._com = np.asarray(vehicle.com, float) if self.at_com else None
        self.pub = node.create_publisher(EntityWrench, ENTITY_WRENCH_TOPIC, qos)

    def entity(self, link: str) -> str:
        """Return the entity name ``<model>::<link>`` of a link of the model."""
        return '%s::%s' % (self.model_name, link)

    def publish(self, header, wrench_world, quaternion) -> None:
        """Publish ``wrench_world`` (world frame, about the link origin) with ``header``."""
        com = None if self._com is None else quat_to_matrix(quaternion) @ self._com
        self.publish_entity(header, self.entity_name, wrench_world, com)

    def publish_entity(self, header, entity_name: str, wrench_world, com_world=None) -> None:
        """
        Publish ``wrench_world`` (world frame, about the link origin) for ``entity_name``.

        ``com_world``: the link's CoM offset from its origin in world axes, when the
        force goes to the centre of mass (``gz_wrench_point: com``), else None.
        """
        msg = self._msg()
        msg.header = header
        msg.entity.name = entity_name
        msg.entity.type = self._link_type
        if com_world is not None:
            # T_c = T_o + (o - c) x F: the wrench about the CoM at world offset R c
            wrench_world = transfer_wrench(wrench_world, -np.asarray(com_world, float))
        conv.fill_wrench(msg.wrench, wrench_world)
        self.node.outbox.publish(self.pub, msg)
