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
Buoyancy engine I/O (simulate mode): std_msgs/Float64 volume commands in, volumes out.

One subscription per gz-sim BuoyancyEngine of the vehicle on gz-sim's command topic
``/model/{namespace}/buoyancy_engine`` (gz-sim's name ends in '/', which no ROS 2 name
may: it is dropped), the volume in m^3; the volume goes out on ``.../current_volume``
after every update, as gz-sim's status.  The bladders
(:class:`uwv_hydro.modes.buoyancy_engines.BuoyancyEngines`) pump inside
:class:`~uwv_hydro.modes.simulate_mode.SimulateMode` before every integration step.
"""
import math

from std_msgs.msg import Float64

from uwv_hydro.modes.buoyancy_engines import BuoyancyEngines
from uwv_hydro.node.node_part import locked, NodePart


def ros_topic(gz_topic: str) -> str:
    """Return gz-sim's topic as a valid ROS 2 name (no trailing '/')."""
    return gz_topic.rstrip('/') or '/'


class BuoyancyEngineIO(NodePart):
    """Per-engine Float64 volume commands and current-volume publishers."""

    def __init__(self, node, io):
        super().__init__(node)
        specs = node.vehicle.buoyancy_engines
        self.engines = BuoyancyEngines(specs, node.vehicle.gravity)
        io.mode.engines = self.engines  # the mode's part (node.io)
        self.topics = []
        self._pubs = []
        for k, spec in enumerate(specs):
            topic = ros_topic(spec.command_topic())
            if topic in self.topics:
                raise ValueError('two buoyancy engines listen on %r: give them namespaces'
                                 % topic)
            self.topics.append(topic)
            self.add_input(topic)
            node.create_subscription(
                Float64, topic, lambda msg, k=k, topic=topic: self._on_command(msg, k, topic),
                10)
            self._pubs.append(node.create_publisher(Float64, ros_topic(spec.status_topic()),
                                                    10))
        self.logger.info('%d buoyancy engines: %s' % (len(specs), ', '.join(self.topics)))

    @locked
    def _on_command(self, msg: Float64, index: int, topic: str) -> None:
        if not math.isfinite(msg.data) or not self.engines.command(index, msg.data):
            self.node.drop(topic, 'non_finite')
            return
        self.node.inputs[topic].received(self.node.now_ns())

    def reset(self) -> None:
        """Return the bladders to their default volumes."""
        self.engines.reset()

    def update(self, now: int) -> None:
        """Publish each bladder's volume (m^3)."""
        for k, pub in enumerate(self._pubs):
            pub.publish(Float64(data=float(self.engines.volumes[k])))

    def snapshot(self, snap: dict) -> None:
        """Add each engine's set point and volume."""
        snap['buoyancy_engines'] = {
            spec.link_name: {'set_point': float(self.engines.set_points[k]),
                             'volume': float(self.engines.volumes[k])}
            for k, spec in enumerate(self.engines.specs)}
