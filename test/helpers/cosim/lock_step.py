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
The engine side of a lock-step co-simulation with the hydro node over ROS 2.

This is all an engine needs to use the node as its hydro wrench (the node runs in
wrench mode with ``use_sim_time`` and ``publish_on: odometry``); per step::

    t_k = k dt:  publish /clock t_k and the link odometry stamped t_k
                 (pose of the link origin in the world, twist in the body frame)
                 wait for hydro/wrench stamped t_k (the node answers every odometry)
                 apply hydro wrench + thrust about the link origin, step the engine

The engine is any object with ``odometry() -> (position, quaternion [w, x, y, z],
body twist)`` and ``step(body_wrench)`` (e.g. :class:`cosim.mujoco_engine.MujocoBody`).
"""
import time

from builtin_interfaces.msg import Time
from geometry_msgs.msg import WrenchStamped
from nav_msgs.msg import Odometry
import numpy as np
from rclpy.executors import SingleThreadedExecutor
from rclpy.node import Node
from rosgraph_msgs.msg import Clock


def _time(stamp_ns):
    sec, nanosec = divmod(int(stamp_ns), 10 ** 9)
    return Time(sec=sec, nanosec=nanosec)


class LockStep:
    """
    The engine's ROS side: ``/clock`` and ``odometry`` out, ``hydro/wrench`` in.

    Odometry: frame ``world_frame``, child ``base_link``; the wrench is body-frame
    about base_link.  Wrenches are kept by stamp until :meth:`exchange` takes them.
    """

    def __init__(self, context, world_frame='odom', start_ns=10 ** 9, name='engine'):
        self.node = Node(name, context=context)
        self.executor = SingleThreadedExecutor(context=context)
        self.executor.add_node(self.node)
        self.clock_pub = self.node.create_publisher(Clock, '/clock', 10)
        self.odom_pub = self.node.create_publisher(Odometry, 'odometry', 10)
        self.wrenches = {}
        self.node.create_subscription(WrenchStamped, 'hydro/wrench', self._on_wrench, 10)
        self.world_frame = world_frame
        self.start_ns = start_ns

    def _on_wrench(self, msg):
        stamp = msg.header.stamp.sec * 10 ** 9 + msg.header.stamp.nanosec
        f, t = msg.wrench.force, msg.wrench.torque
        self.wrenches[stamp] = np.array([f.x, f.y, f.z, t.x, t.y, t.z])

    def connected(self) -> bool:
        """Return True once the node subscribes to our inputs and publishes the wrench."""
        n = self.node
        return (self.odom_pub.get_subscription_count() > 0
                and self.clock_pub.get_subscription_count() > 0
                and n.count_publishers(n.resolve_topic_name('hydro/wrench')) > 0)

    def spin_until(self, condition, timeout):
        """Spin until condition() or timeout (s); return condition()."""
        deadline = time.monotonic() + timeout
        while not condition() and time.monotonic() < deadline:
            self.executor.spin_once(timeout_sec=0.01)
        return bool(condition())

    def publish_clock(self, stamp_ns):
        """Publish /clock = stamp_ns."""
        self.clock_pub.publish(Clock(clock=_time(stamp_ns)))

    def publish(self, stamp_ns, position, quaternion, twist, clock=True):
        """Publish /clock = stamp_ns (unless ``clock`` is false) and the odometry at stamp_ns."""
        if clock:
            self.publish_clock(stamp_ns)
        odom = Odometry()
        odom.header.stamp = _time(stamp_ns)
        odom.header.frame_id = self.world_frame
        odom.child_frame_id = 'base_link'
        pose, vel = odom.pose.pose, odom.twist.twist
        pose.position.x, pose.position.y, pose.position.z = (float(v) for v in position)
        o = pose.orientation
        o.w, o.x, o.y, o.z = (float(v) for v in quaternion)
        vel.linear.x, vel.linear.y, vel.linear.z = (float(v) for v in twist[:3])
        vel.angular.x, vel.angular.y, vel.angular.z = (float(v) for v in twist[3:])
        self.odom_pub.publish(odom)

    def exchange(self, stamp_ns, position, quaternion, twist, timeout=10.0, resend=1.0):
        """
        Publish the state at stamp_ns; return the node's wrench stamped stamp_ns.

        Without an answer within ``resend`` s the same state is published again: our
        publishers can match the node's subscriptions before the node's side has matched
        ours, and a volatile reader drops what it got from a writer it did not yet know.
        A repeated stamp is harmless at the node (it takes equal stamps, and the lagged
        acceleration estimate skips a zero time step).
        """
        deadline = time.monotonic() + timeout
        while True:
            self.publish(stamp_ns, position, quaternion, twist)
            wait = min(resend, deadline - time.monotonic())
            if self.spin_until(lambda: stamp_ns in self.wrenches, wait):
                return self.wrenches.pop(stamp_ns)
            if time.monotonic() >= deadline:
                raise TimeoutError('no hydro/wrench stamped %d ns within %g s'
                                   % (stamp_ns, timeout))

    def run(self, body, steps, dt, thrust=None):
        """
        Run ``steps`` lock-steps of ``dt`` s; return (positions, quaternions, wall s per step).

        ``thrust(t)`` is the thrusters' body wrench during the step starting at
        t = k dt (the engine applies it, as gz-sim's thruster plugins would).
        """
        positions, quaternions = [], []
        start = time.perf_counter()
        for k in range(steps):
            position, quaternion, twist = body.odometry()
            positions.append(position)
            quaternions.append(quaternion)
            hydro = self.exchange(self.start_ns + int(round(k * dt * 1e9)),
                                  position, quaternion, twist)
            body.step(hydro if thrust is None else hydro + thrust(k * dt))
        wall = (time.perf_counter() - start) / steps
        position, quaternion, _ = body.odometry()
        positions.append(position)
        quaternions.append(quaternion)
        return np.array(positions), np.array(quaternions), wall

    def close(self):
        """Destroy the node and the executor."""
        self.executor.shutdown()
        self.node.destroy_node()
