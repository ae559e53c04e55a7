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
ROS messages <-> numpy at the node edge.

ROS quaternions are [x, y, z, w]; the physics core uses [w, x, y, z].  Every
helper here converts explicitly so no other module handles message layouts.
"""
import numpy as np


def xyzw_to_wxyz(q) -> np.ndarray:
    """Return a quaternion [x, y, z, w] reordered as [w, x, y, z]."""
    return np.array([q[3], q[0], q[1], q[2]], dtype=float)


def wxyz_to_xyzw(q) -> np.ndarray:
    """Return a quaternion [w, x, y, z] reordered as [x, y, z, w]."""
    return np.array([q[1], q[2], q[3], q[0]], dtype=float)


def vector3_to_array(v) -> np.ndarray:
    """Return a geometry_msgs Vector3 / Point as np.ndarray(3)."""
    return np.array([v.x, v.y, v.z], dtype=float)


def fill_vector3(msg, values) -> None:
    """Write three floats into a Vector3 / Point message."""
    msg.x, msg.y, msg.z = (float(values[0]), float(values[1]), float(values[2]))


def quaternion_msg_to_wxyz(q) -> np.ndarray:
    """Return a geometry_msgs Quaternion as [w, x, y, z]."""
    return np.array([q.w, q.x, q.y, q.z], dtype=float)


def fill_quaternion(msg, wxyz) -> None:
    """Write a [w, x, y, z] quaternion into a geometry_msgs Quaternion."""
    msg.w, msg.x, msg.y, msg.z = (float(wxyz[0]), float(wxyz[1]), float(wxyz[2]),
                                  float(wxyz[3]))


def wrench_to_array(wrench) -> np.ndarray:
    """Return a geometry_msgs Wrench as [Fx, Fy, Fz, Tx, Ty, Tz]."""
    f, t = wrench.force, wrench.torque
    return np.array([f.x, f.y, f.z, t.x, t.y, t.z], dtype=float)


def fill_wrench(msg, values) -> None:
    """Write a 6-vector [F, T] into a geometry_msgs Wrench."""
    fill_vector3(msg.force, values[:3])
    fill_vector3(msg.torque, values[3:6])


def twist_to_array(twist) -> np.ndarray:
    """Return a geometry_msgs Twist as [vx, vy, vz, wx, wy, wz]."""
    v, w = twist.linear, twist.angular
    return np.array([v.x, v.y, v.z, w.x, w.y, w.z], dtype=float)


def fill_twist(msg, values) -> None:
    """Write a 6-vector [v, w] into a geometry_msgs Twist."""
    fill_vector3(msg.linear, values[:3])
    fill_vector3(msg.angular, values[3:6])


def pose_to_arrays(pose):
    """Return (position (3), quaternion [w, x, y, z]) of a geometry_msgs Pose."""
    return vector3_to_array(pose.position), quaternion_msg_to_wxyz(pose.orientation)


def stamp_to_ns(stamp) -> int:
    """Return a builtin_interfaces Time as integer nanoseconds."""
    return int(stamp.sec) * 1000000000 + int(stamp.nanosec)


def ns_to_stamp(msg, ns: int) -> None:
    """Write integer nanoseconds into a builtin_interfaces Time message."""
    ns = int(ns)
    msg.sec, msg.nanosec = ns // 1000000000, ns % 1000000000
