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
Rotations: skew matrices and unit quaternions [w, x, y, z] (world <- body).

A quaternion ``q`` maps body-frame vectors to the world frame:
``v_world = rotate(q, v_body) = R(q) @ v_body``.  Angular velocities ``omega``
are body-frame rates, so the attitude kinematics are ``q_dot = 0.5 q (x) [0, omega]``.
All functions accept lists or arrays and return new float arrays.
"""
import math

import numpy as np

#: Index orders of cross_rows.
_YZX, _ZXY = np.array([1, 2, 0]), np.array([2, 0, 1])
#: The identity quaternion [w, x, y, z].
IDENTITY = np.array([1.0, 0.0, 0.0, 0.0])


def skew(a) -> np.ndarray:
    """
    Return the skew-symmetric matrix S(a) with S(a) @ b = a x b.

    Fossen 2021 ch. 2: S(a) = [[0, -a3, a2], [a3, 0, -a1], [-a2, a1, 0]].
    """
    a1, a2, a3 = float(a[0]), float(a[1]), float(a[2])
    # Fossen 2021 ch. 2: cross-product operator S(a)
    return np.array([[0.0, -a3, a2], [a3, 0.0, -a1], [-a2, a1, 0.0]])


def cross(a, b) -> np.ndarray:
    """Return the cross product a x b of two 3-vectors (cheaper than np.cross)."""
    a1, a2, a3 = a[0], a[1], a[2]
    b1, b2, b3 = b[0], b[1], b[2]
    # Vector cross product a x b = S(a) b
    return np.array([a2 * b3 - a3 * b2, a3 * b1 - a1 * b3, a1 * b2 - a2 * b1])


def cross_rows(a, b) -> np.ndarray:
    """Return the cross products of (..., 3) arrays, broadcast (cheaper than np.cross)."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    # Vector cross product, row by row: a x b = a[yzx] b[zxy] - a[zxy] b[yzx]
    return a[..., _YZX] * b[..., _ZXY] - a[..., _ZXY] * b[..., _YZX]


def quat_multiply(p, q) -> np.ndarray:
    """Return the Hamilton product p (x) q of two quaternions [w, x, y, z]."""
    pw, px, py, pz = p[0], p[1], p[2], p[3]
    qw, qx, qy, qz = q[0], q[1], q[2], q[3]
    # Hamilton product: (pw qw - pv.qv, pw qv + qw pv + pv x qv)
    return np.array([
        pw * qw - px * qx - py * qy - pz * qz,
        pw * qx + px * qw + py * qz - pz * qy,
        pw * qy - px * qz + py * qw + pz * qx,
        pw * qz + px * qy - py * qx + pz * qw,
    ])


def quat_conjugate(q) -> np.ndarray:
    """Return the conjugate (the inverse of a unit quaternion)."""
    # Quaternion conjugate q* = [w, -x, -y, -z]
    return np.array([q[0], -q[1], -q[2], -q[3]], dtype=float)


def quat_normalize(q) -> np.ndarray:
    """
    Return q scaled to unit norm.

    Raises ValueError for a zero (or non-finite) quaternion.
    """
    q = np.asarray(q, dtype=float)
    # Pre-scale by the largest component so huge or tiny (but finite) inputs do not
    # overflow or underflow the squared norm
    big = float(np.max(np.abs(q))) if q.size == 4 else 0.0
    if not big > 0.0 or not math.isfinite(big):
        raise ValueError('cannot normalise quaternion %r' % (q,))
    if big > 1e150 or big < 1e-150:
        q = q / big
    # Unit quaternion: q / |q|
    n = math.sqrt(float(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]))
    if not n > 0.0 or not math.isfinite(n):
        raise ValueError('cannot normalise quaternion %r' % (q,))
    return q / n


def quat_to_matrix(q) -> np.ndarray:
    """Return the rotation matrix R(q) (world <- body) of a unit quaternion [w, x, y, z]."""
    w, x, y, z = float(q[0]), float(q[1]), float(q[2]), float(q[3])
    # Fossen 2021 ch. 2: R(q) in terms of the Euler parameters
    return np.array([
        [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - w * z), 2.0 * (x * z + w * y)],
        [2.0 * (x * y + w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - w * x)],
        [2.0 * (x * z - w * y), 2.0 * (y * z + w * x), 1.0 - 2.0 * (x * x + y * y)],
    ])


def quats_to_matrices(q) -> np.ndarray:
    """
    Return R(q_k / |q_k|) (N, 3, 3) for quaternions q (N, 4) [w, x, y, z], nonzero and finite.

    The homogeneous form used by HydroModel.wrench, so unit input gives quat_to_matrix.
    """
    q = np.asarray(q, dtype=float).reshape(-1, 4)
    w, x, y, z = q.T
    norm2 = w * w + x * x + y * y + z * z
    bad = ~(np.isfinite(norm2) & (norm2 > 0.0))
    if np.any(bad):
        k = int(np.argmax(bad))
        raise ValueError('cannot normalise quaternion %r (row %d)' % (q[k].tolist(), k))
    # Fossen 2021 ch. 2 for q / |q|: R = I + 2/|q|^2 (w S(e) + S(e)^2)
    s = 2.0 / norm2
    xx, yy, zz = s * x * x, s * y * y, s * z * z
    xy, xz, yz = s * x * y, s * x * z, s * y * z
    wx, wy, wz = s * w * x, s * w * y, s * w * z
    rot = np.empty((len(q), 3, 3))
    rot[:, 0, 0], rot[:, 0, 1], rot[:, 0, 2] = 1.0 - (yy + zz), xy - wz, xz + wy
    rot[:, 1, 0], rot[:, 1, 1], rot[:, 1, 2] = xy + wz, 1.0 - (xx + zz), yz - wx
    rot[:, 2, 0], rot[:, 2, 1], rot[:, 2, 2] = xz - wy, yz + wx, 1.0 - (xx + yy)
    return rot


def matrix_to_quat(rotation) -> np.ndarray:
    """
    Return the unit quaternion [w, x, y, z] (with w >= 0) of a rotation matrix.

    Shepperd's method: pick the largest of w, x, y, z to divide by, which keeps
    the conversion well conditioned for every rotation.
    """
    # Python floats: the nine entries read once (numpy scalars cost more than the math)
    (m00, m01, m02), (m10, m11, m12), (m20, m21, m22) = np.asarray(
        rotation, dtype=float).reshape(3, 3).tolist()
    t = m00 + m11 + m22
    # Shepperd 1978: choose the best-conditioned of the four square roots
    if t >= m00 and t >= m11 and t >= m22:
        s = 2.0 * math.sqrt(max(1.0 + t, 0.0))
        q = [0.25 * s, (m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s]
    elif m00 >= m11 and m00 >= m22:
        s = 2.0 * math.sqrt(max(1.0 + m00 - m11 - m22, 0.0))
        q = [(m21 - m12) / s, 0.25 * s, (m01 + m10) / s, (m02 + m20) / s]
    elif m11 >= m22:
        s = 2.0 * math.sqrt(max(1.0 + m11 - m00 - m22, 0.0))
        q = [(m02 - m20) / s, (m01 + m10) / s, 0.25 * s, (m12 + m21) / s]
    else:
        s = 2.0 * math.sqrt(max(1.0 + m22 - m00 - m11, 0.0))
        q = [(m10 - m01) / s, (m02 + m20) / s, (m12 + m21) / s, 0.25 * s]
    q = np.array(q)
    if q[0] < 0.0:
        q = -q
    return quat_normalize(q)


def rotate(q, v) -> np.ndarray:
    """Return R(q) @ v: a body-frame vector expressed in the world frame."""
    # v_world = R(q) v_body (Fossen 2021 ch. 2)
    return quat_to_matrix(q) @ np.asarray(v, dtype=float)


def rotate_inverse(q, v) -> np.ndarray:
    """Return R(q)^T @ v: a world-frame vector expressed in the body frame."""
    # v_body = R(q)^T v_world
    return quat_to_matrix(q).T @ np.asarray(v, dtype=float)


def quat_derivative(q, omega) -> np.ndarray:
    """
    Return q_dot = 0.5 q (x) [0, omega] for a body-frame angular velocity omega.

    Fossen 2021 ch. 2 (T(q) omega written as a quaternion product).
    """
    # Fossen 2021 ch. 2: q_dot = 1/2 q (x) [0, omega_body]
    return 0.5 * quat_multiply(q, (0.0, omega[0], omega[1], omega[2]))


def quat_from_axis_angle(axis, angle: float) -> np.ndarray:
    """Return the quaternion of a rotation by ``angle`` (rad) about ``axis``."""
    a = np.asarray(axis, dtype=float)
    n = float(np.linalg.norm(a))
    if n == 0.0:
        raise ValueError('rotation axis must be non-zero')
    # q = [cos(angle/2), sin(angle/2) * axis/|axis|]
    return np.concatenate(([math.cos(0.5 * angle)], math.sin(0.5 * angle) * a / n))


def quat_from_rpy(roll: float, pitch: float, yaw: float) -> np.ndarray:
    """Return the quaternion of roll-pitch-yaw angles: R = Rz(yaw) Ry(pitch) Rx(roll)."""
    cr, sr = math.cos(0.5 * roll), math.sin(0.5 * roll)
    cp, sp = math.cos(0.5 * pitch), math.sin(0.5 * pitch)
    cy, sy = math.cos(0.5 * yaw), math.sin(0.5 * yaw)
    # Fossen 2021 ch. 2 (zyx convention): q = q_z(yaw) (x) q_y(pitch) (x) q_x(roll)
    return np.array([
        cr * cp * cy + sr * sp * sy,
        sr * cp * cy - cr * sp * sy,
        cr * sp * cy + sr * cp * sy,
        cr * cp * sy - sr * sp * cy,
    ])


def quat_to_rpy(q) -> np.ndarray:
    """Return [roll, pitch, yaw] (rad, zyx convention) of a unit quaternion."""
    w, x, y, z = float(q[0]), float(q[1]), float(q[2]), float(q[3])
    # Fossen 2021 ch. 2: Euler angles from the Euler parameters
    roll = math.atan2(2.0 * (w * x + y * z), 1.0 - 2.0 * (x * x + y * y))
    pitch = math.asin(max(-1.0, min(1.0, 2.0 * (w * y - z * x))))
    yaw = math.atan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z))
    return np.array([roll, pitch, yaw])
