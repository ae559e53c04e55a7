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
The vehicle of test/helpers/nodes/arm_equipment.urdf and its arm sensor frame, by hand.

:func:`arm_sensor_frame` gives the DVL velocity, depth, angular rate and specific force
of the sensor frame fixed to the arm from the base state (position, quaternion, twist,
nu_dot), the joint angle, rate and acceleration: rigid-body transport written in world
axes, independent of the kinematic tree's code.
"""
import math
import pathlib

import numpy as np

URDF = pathlib.Path(__file__).parent / 'nodes' / 'arm_equipment.urdf'
#: The arm: shoulder origin in the base, arm thruster and sensor link in the arm frame.
SHOULDER = np.array([0.5, 0.0, -0.1])
ARM_THRUSTER = np.array([0.4, 0.0, 0.05])
ARM_SENSORS = np.array([0.3, 0.1, -0.05])
SENSORS_RPY = (math.pi, 0.0, 0.4)


def rot_z(angle: float) -> np.ndarray:
    """Return the rotation about z by ``angle``."""
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def urdf_rpy(roll, pitch, yaw):
    """Return URDF's fixed-axis rotation Rz(yaw) Ry(pitch) Rx(roll)."""
    cr, sr, cp, sp = math.cos(roll), math.sin(roll), math.cos(pitch), math.sin(pitch)
    rx = np.array([[1.0, 0.0, 0.0], [0.0, cr, -sr], [0.0, sr, cr]])
    ry = np.array([[cp, 0.0, sp], [0.0, 1.0, 0.0], [-sp, 0.0, cp]])
    return rot_z(yaw) @ ry @ rx


def quat_matrix(q) -> np.ndarray:
    """Return the rotation of a unit quaternion [w, x, y, z] (Hamilton)."""
    w, x, y, z = np.asarray(q, float) / np.linalg.norm(q)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def arm_sensor_frame(x, nu_dot, q, qd, qdd, gravity):
    """Return the arm sensor frame's (velocity, depth, rate, specific force), by hand."""
    x = np.asarray(x, float)
    r_wb = quat_matrix(x[3:7])
    v_b, w_b = x[7:10], x[10:13]
    r_wa = r_wb @ rot_z(q)
    r_ws = r_wa @ urdf_rpy(*SENSORS_RPY)
    e = r_wa @ np.array([0.0, 0.0, 1.0])
    d_o, d_s = r_wb @ SHOULDER, r_wa @ ARM_SENSORS
    # world angular velocities: the arm's adds the joint rate about its axis
    big_w_b = r_wb @ w_b
    big_w_a = big_w_b + e * qd
    velocity = r_wb @ v_b + np.cross(big_w_b, d_o) + np.cross(big_w_a, d_s)
    depth = -(x[2] + d_o[2] + d_s[2])
    # world accelerations: d/dt (R v) = R (v_dot + w x v); d/dt (e qd) = W_b x e qd + e qdd
    acc_b = r_wb @ (nu_dot[:3] + np.cross(w_b, v_b))
    alpha_b = r_wb @ nu_dot[3:]
    alpha_a = alpha_b + np.cross(big_w_b, e) * qd + e * qdd
    acc_o = acc_b + np.cross(alpha_b, d_o) + np.cross(big_w_b, np.cross(big_w_b, d_o))
    acc_s = acc_o + np.cross(alpha_a, d_s) + np.cross(big_w_a, np.cross(big_w_a, d_s))
    force = r_ws.T @ (acc_s + [0.0, 0.0, gravity])
    return r_ws.T @ velocity, depth, r_ws.T @ big_w_a, force
