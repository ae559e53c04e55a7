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
The water current the node uses.

The ``current`` parameter, or the current description named by ``current_file`` (a
field sampled by the mode at the vehicle's position and time), overridden by the
``current`` (Vector3Stamped) and ``current_twist`` (TwistStamped) topics once they
publish; world frame (ENU).  The current in use is published on
``hydrodynamics/current_velocity`` (geometry_msgs/TwistStamped, linear part, frame
``odom_frame``), uuv_simulator's topic and message (UnderwaterCurrentROSPlugin.cc), at
most every ``current_publish_period`` of stamp time (uuv: 0.05 s).
"""
from typing import Optional

from geometry_msgs.msg import TwistStamped, Vector3Stamped
import numpy as np

from uwv_hydro.description.current_file import load_current_file
from uwv_hydro.modes.input_guard import all_finite
from uwv_hydro.modes.messages import msg_conversions as conv
from uwv_hydro.node.node_part import NodePart


class CurrentInput(NodePart):
    """World-frame (ENU) current from the parameter and the two current topics."""

    def __init__(self, node):
        super().__init__(node)
        self.param = np.array(self.cfg['current'], dtype=float)
        self.msg: Optional[np.ndarray] = None
        #: the current field of current_file (None: the parameter)
        self.field = None
        if self.cfg['current_file']:
            # a DescriptionError naming the file, key and line stops the start-up
            self.field, warnings = load_current_file(self.cfg['current_file'])
            for warning in warnings:
                self.logger.warning(warning)
            self.logger.info('current: %s field from %s (time origin %s)' % (
                self.field.kind, self.cfg['current_file'], self.field.time_origin))
            if np.any(self.param):
                self.logger.warning('current parameter ignored: current_file %s gives the '
                                    'current' % self.cfg['current_file'])
        self._world = self._from_param()
        self.velocity_pub = node.create_publisher(TwistStamped,
                                                  'hydrodynamics/current_velocity', 10)
        self._velocity_msg = TwistStamped()
        self._period_ns = int(round(self.cfg['current_publish_period'] * 1e9))
        self._published_ns: Optional[int] = None
        for name in ('current', 'current_twist'):
            self.add_input(name)
        node.create_subscription(Vector3Stamped, 'current', self._on_current, 10)
        node.create_subscription(TwistStamped, 'current_twist', self._on_current_twist, 10)

    def world(self) -> Optional[np.ndarray]:
        """Return the world current (latest topic value, else the parameter), None if zero."""
        return self._world  # kept when a value arrives, not tested every cycle

    @staticmethod
    def _nonzero(current: np.ndarray) -> Optional[np.ndarray]:
        return current if np.any(current) else None

    def _from_param(self) -> Optional[np.ndarray]:
        # with a current file the field gives the current (None: the mode samples it)
        return None if self.field is not None else self._nonzero(self.param)

    def set_param(self, value) -> None:
        """Take a new ``current`` parameter value."""
        self.param = np.array(value, dtype=float)
        if self.msg is None:
            self._world = self._from_param()

    def publish(self, stamp_ns: int, velocity) -> None:
        """Publish the current in use (world ENU, m/s; None: still water) at ``stamp_ns``."""
        last = self._published_ns
        if last is not None and 0 <= stamp_ns - last < self._period_ns:
            return  # at most one message per current_publish_period (stamps going back: sent)
        self._published_ns = stamp_ns
        msg = self._velocity_msg
        conv.ns_to_stamp(msg.header.stamp, stamp_ns)
        msg.header.frame_id = self.node.odom_frame
        v = (0.0, 0.0, 0.0) if velocity is None else velocity
        msg.twist.linear.x, msg.twist.linear.y, msg.twist.linear.z = (
            float(v[0]), float(v[1]), float(v[2]))
        self.velocity_pub.publish(msg)

    def _store(self, source: str, header, values, extra=()) -> None:
        # executor thread, no state lock: the update reads self._world, which is
        # replaced whole (one reference store), never changed in place
        if not (np.all(np.isfinite(values)) and all_finite(extra)):
            self.node.drop(source, 'non_finite')
            return
        if not self.node.stamp_ok(source, header):
            return
        self.msg = np.array(values, dtype=float)
        self._world = self._nonzero(self.msg)
        self.node.inputs[source].received(self.node.now_ns())

    def _on_current(self, msg: Vector3Stamped) -> None:
        self._store('current', msg.header, conv.vector3_to_array(msg.vector))

    def _on_current_twist(self, msg: TwistStamped) -> None:
        # the angular part is unused, but a message with NaN anywhere is dropped
        angular = msg.twist.angular
        self._store('current_twist', msg.header, conv.vector3_to_array(msg.twist.linear),
                    (angular.x, angular.y, angular.z))
