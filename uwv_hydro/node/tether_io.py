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
Tether I/O (simulate mode): the cable's tension and shape out.

With a tethered vehicle (``vehicle.tether``) the node hangs the cable
(:func:`uwv_hydro.modes.tether.start_tether`) from the vehicle's initial state, the
world's seabed under it (``seabed_file``: :func:`~uwv_hydro.modes.tether.cable_seabed_depth`),
and
:class:`~uwv_hydro.modes.simulate_mode.SimulateMode` steps it with the vehicle.  After
every update it publishes

* ``tether/tension`` geometry_msgs/WrenchStamped in the odometry frame: the cable's
  force on the vehicle at its attachment (torque zero);
* ``tether/marker`` visualization_msgs/Marker, a LINE_STRIP through the cable's nodes
  in the odometry frame (``publish_tether``).

After a MoorDyn failure (logged with its values by the mode) the tether is dropped:
nothing more is published (never a NaN) and ~/reset hangs a new cable.
"""
from geometry_msgs.msg import Point, WrenchStamped
from uwv_hydro.modes.messages import msg_conversions as conv
from uwv_hydro.modes.tether import cable_seabed_depth, start_tether
from uwv_hydro.node.node_part import NodePart
from uwv_hydro.node.seabed_source import node_seabed
from visualization_msgs.msg import Marker

#: the cable's colour (RGBA) and line width (m), as the bag's (bag/tether_bag.py)
COLOUR, WIDTH = (1.0, 0.8, 0.1, 1.0), 0.02


class TetherIO(NodePart):
    """The tether's publishers and the cable hung in the simulate mode."""

    def __init__(self, node, io):
        super().__init__(node)
        self.io = io  # the mode's part (node.io), whose mode holds the cable
        self.markers = bool(node.cfg['publish_tether'])
        self.tension_pub = node.create_publisher(WrenchStamped, 'tether/tension', 10)
        self.marker_pub = (node.create_publisher(Marker, 'tether/marker', 1)
                           if self.markers else None)
        self._hang()
        spec = node.vehicle.tether
        self.logger.info('tether: %g m, %d segments, MoorDyn step %.3g s'
                         % (spec.length, spec.segments, io.mode.tether.dt_m))

    def _hang(self) -> None:
        mode = self.io.mode
        if mode.tether is not None:
            mode.tether.close()

        def log(level, key, text):
            getattr(self.logger, 'warning' if level == 'warning' else 'info')(text)
        seabed = node_seabed(self.node)
        depth = cable_seabed_depth(self.node.vehicle.tether, seabed[0] if seabed else None,
                                   log=log)
        mode.tether = start_tether(mode, self.node.vehicle, mode.field, depth, log)
        mode.tether_error = None

    def reset(self) -> None:
        """Hang a new cable after a MoorDyn failure (the mode's reset re-hangs a live one)."""
        if self.io.mode.tether is None:
            self._hang()

    def update(self, now: int) -> None:
        """Publish the tension and the cable (nothing once MoorDyn failed)."""
        tether = self.io.mode.tether
        if tether is None:
            return
        force = tether.force
        msg = WrenchStamped()
        conv.ns_to_stamp(msg.header.stamp, now)
        msg.header.frame_id = self.node.odom_frame
        msg.wrench.force.x, msg.wrench.force.y, msg.wrench.force.z = (float(v) for v in force)
        self.node.outbox.publish(self.tension_pub, msg)
        if self.marker_pub is not None:
            marker = Marker()
            marker.header = msg.header
            marker.ns, marker.id = 'tether', 0
            marker.type, marker.action = Marker.LINE_STRIP, Marker.ADD
            marker.pose.orientation.w = 1.0
            marker.scale.x = WIDTH
            marker.color.r, marker.color.g, marker.color.b, marker.color.a = COLOUR
            marker.points = [Point(x=float(p[0]), y=float(p[1]), z=float(p[2]))
                             for p in tether.nodes()]
            self.node.outbox.publish(self.marker_pub, marker)

    def snapshot(self, snap: dict) -> None:
        """Add the tension, the coupling's work mismatch and a failure, if any."""
        mode = self.io.mode
        tether = mode.tether
        snap['tether'] = {'error': mode.tether_error} if tether is None else {
            'tension': tether.tension_at_vehicle(), 'work_mismatch': tether.work_mismatch,
            'error': None}
