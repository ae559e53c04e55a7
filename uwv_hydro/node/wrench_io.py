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
Wrench mode I/O: link odometry in, the hydro wrench out (the dsros_hydro plugin's job).

The wrench is evaluated by :class:`uwv_hydro.modes.wrench_mode.WrenchMode`, the same
evaluator the offline ``replay`` runs, so the two agree by construction.  Each odometry
message is evaluated when it arrives.  ``publish_on: timer``: the loop publishes the
latest result at ``rate_hz`` while the odometry is younger than ``odometry_timeout``.
``publish_on: odometry``: the result is published at once, stamped with the odometry's
stamp, one wrench per accepted message (an engine stepping in lock-step with the node
never applies a stale wrench).

Topics: in ``odometry`` (nav_msgs/Odometry); out ``hydro/wrench`` (body frame, about
base) and ``hydro/wrench_world`` (world-frame force and torque about the link origin,
for gz-sim ApplyLinkWrench), and with ``gz_entity_wrench`` the same as
``hydro/entity_wrench`` (:mod:`uwv_hydro.node.gz_io`).
"""
from geometry_msgs.msg import WrenchStamped
from nav_msgs.msg import Odometry
import numpy as np

from uwv_hydro.modes.input_guard import all_finite
from uwv_hydro.modes.messages import msg_conversions as conv
from uwv_hydro.modes.odometry_frames import child_to_base, OdometryFrames
from uwv_hydro.modes.wrench_mode import unit_quaternion, world_wrench, WrenchMode
from uwv_hydro.node.gz_io import GzEntityWrench
from uwv_hydro.node.link_wrench_io import LinkWrenchIO
from uwv_hydro.node.node_part import locked, NodePart

#: ||q| - 1| above which an accepted odometry quaternion counts as normalised.
QUATERNION_TOLERANCE = 1e-3


class WrenchIO(NodePart):
    """Odometry subscription, WrenchMode, wrench publishers."""

    def __init__(self, node, current):
        super().__init__(node)
        cfg = self.cfg
        options = {'added_mass': cfg['added_mass'], 'apply_weight': cfg['apply_weight'],
                   'acceleration_alpha': cfg['acceleration_alpha']}
        tree = getattr(node.vehicle, 'tree', None)
        if tree is None:
            self.mode = WrenchMode(node.vehicle, **options)
        else:
            # Pinocchio is imported only for a vehicle whose links move
            from uwv_hydro.modes.link_wrench_mode import LinkWrenchMode
            self.mode = LinkWrenchMode(node.vehicle, **options)
        # the current description's field, sampled at every odometry (node.current)
        self.mode.field = current.field
        self.on_odometry = cfg['publish_on'] == 'odometry'
        self.stats = self.add_input('odometry')
        self.frames = OdometryFrames(node.frames, node.odom_frame,
                                     cfg['accept_any_odometry_frames'])
        self._odom = None
        self._components = None
        node.create_subscription(Odometry, 'odometry', self._on_odometry, 10)
        self.wrench_pub = node.create_publisher(WrenchStamped, 'hydro/wrench', 10)
        self.wrench_world_pub = node.create_publisher(WrenchStamped, 'hydro/wrench_world', 10)
        self.gz = GzEntityWrench(node, node.vehicle, cfg['gz_model_name'], cfg['gz_link_name'],
                                 cfg['gz_wrench_point']) if cfg['gz_entity_wrench'] else None
        #: joint states in, per-link wrenches out (a vehicle whose links move), else None
        self.links = None if tree is None else LinkWrenchIO(node, self.mode, self.gz)

    def reset(self) -> None:
        """Forget the odometry and the lagged-acceleration history."""
        self.mode.reset()
        self._odom = None
        self._components = None

    def restart_input(self) -> None:
        """Forget the acceleration history: the odometry stamps restarted (looping bag)."""
        self.mode.reset()

    def components(self):
        """Return the components of the latest published wrench (None before the first)."""
        return self._components

    @locked
    def _on_odometry(self, msg: Odometry) -> None:
        node = self.node
        position, quaternion = conv.pose_to_arrays(msg.pose.pose)
        nu = conv.twist_to_array(msg.twist.twist)
        if not (np.all(np.isfinite(position)) and np.all(np.isfinite(quaternion))
                and np.all(np.isfinite(nu)) and all_finite(msg.pose.covariance)
                and all_finite(msg.twist.covariance)):
            node.drop('odometry', 'non_finite')
            return
        unit, norm = unit_quaternion(quaternion)
        if unit is None:
            node.drop('odometry', 'bad_quaternion', ' (|q| = %g)' % norm)
            return
        child_pose, problem = self.frames.check(msg.header.frame_id, msg.child_frame_id)
        if problem:
            node.drop('odometry', 'frame_mismatch', ' (%s; accept_any_odometry_frames '
                      'would use it)' % problem)
            return
        now = node.now_ns()
        stamp_ns = node.admit('odometry', msg.header, now)
        if stamp_ns is None:
            return
        if abs(norm - 1.0) > QUATERNION_TOLERANCE:
            node.events['normalised_quaternions'] += 1
            if node.throttle.ready(('odometry', 'normalised_quaternion')):
                self.logger.warning('odometry quaternion has |q| = %g: normalised' % norm)
        if child_pose is not None:  # a fixed frame of the vehicle: the base's odometry
            position, unit, nu = child_to_base(position, unit, nu, *child_pose)
        current = node.current.world()
        try:
            wc = self.mode.evaluate(stamp_ns * 1e-9, position, unit, nu, current)
        except (ArithmeticError, ValueError):
            wc = None
        if current is None and self.mode.field is not None:
            current = self.mode.last_current[0]
        node.current.publish(stamp_ns, current)
        self._odom = (wc, unit, msg.header.frame_id)
        self._odom_pace_ns = node.pace_ns()  # its age counts on the pacing clock
        self.stats.received(now)
        if self.on_odometry:
            self._publish(wc, unit, msg.header.frame_id, stamp_ns)

    def fresh(self) -> bool:
        """Return whether the latest odometry is younger than odometry_timeout."""
        if self._odom is None:
            return False
        age_ns = self.node.tick_pace_ns - self._odom_pace_ns
        return age_ns <= self.cfg['odometry_timeout'] * 1e9

    def snapshot(self, snap: dict) -> None:
        """Odometry state: waiting, ok, or stale (older than odometry_timeout)."""
        if self.links is not None:
            self.links.snapshot(snap)
        info = snap['inputs']['odometry']
        if self._odom is None:
            info['state'] = 'waiting'
            return
        timeout = self.cfg['odometry_timeout']
        # a stalled clock stops every node-clock age: the wall-clock age tells
        stalled = self.node.clock_stalled and (info['age_wall_s'] or 0.0) > timeout
        info['state'] = 'ok' if self.fresh() and not stalled else 'stale'

    def update(self, now: int) -> None:
        """Publish the wrench of the latest odometry (if fresh; publish_on: timer)."""
        if self.on_odometry or not self.fresh():
            return
        wc, quaternion, world_frame = self._odom
        self._publish(wc, quaternion, world_frame, now)

    def _publish(self, wc, quaternion, world_frame, stamp_ns: int) -> None:
        """Publish the wrench (body and world frame) stamped stamp_ns, if it is finite."""
        node = self.node
        if wc is None or not np.all(np.isfinite(wc.total)):
            # finite but extreme input (overflow): publish nothing rather than inf/NaN
            node.events['non_finite_outputs'] += 1
            if node.throttle.ready('non_finite_output'):
                self.logger.error('hydro wrench not finite for the latest odometry: '
                                  'not published')
            return
        self._components = wc
        total = wc.total  # without the weight unless apply_weight (WrenchMode)
        msg = WrenchStamped()
        conv.ns_to_stamp(msg.header.stamp, stamp_ns)
        msg.header.frame_id = node.base_frame
        conv.fill_wrench(msg.wrench, total)
        node.outbox.publish(self.wrench_pub, msg)
        world = WrenchStamped()
        world.header.stamp = msg.header.stamp
        world.header.frame_id = world_frame or node.odom_frame
        total_world = world_wrench(total, quaternion)
        conv.fill_wrench(world.wrench, total_world)
        node.outbox.publish(self.wrench_world_pub, world)
        if self.links is not None:  # per link, and per body for gz instead of the total
            self.links.publish(wc, world.header)
        elif self.gz is not None:
            self.gz.publish(world.header, total_world, quaternion)
        node.publish_components(wc.components, stamp_ns)
