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

The ``current`` parameter, overridden by the ``current`` (Vector3Stamped) and
``current_twist`` (TwistStamped) topics once they publish; world frame (ENU).
"""
from typing import Optional

from geometry_msgs.msg import TwistStamped, Vector3Stamped
import numpy as np

from uwv_hydro.modes import msg_conversions as conv
from uwv_hydro.modes.input_guard import all_finite
from uwv_hydro.node.node_part import NodePart


class CurrentInput(NodePart):
    """World-frame (ENU) current from the parameter and the two current topics."""

    def __init__(self, node):
        super().__init__(node)
        self.param = np.array(self.cfg['current'], dtype=float)
        self.msg: Optional[np.ndarray] = None
        self._world = self._nonzero(self.param)
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

    def set_param(self, value) -> None:
        """Take a new ``current`` parameter value."""
        self.param = np.array(value, dtype=float)
        if self.msg is None:
            self._world = self._nonzero(self.param)

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
