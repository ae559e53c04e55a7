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

"""Tests of uwv_hydro.physics.spatial.rotation against independent constructions."""
import math

import numpy as np
import pytest

from uwv_hydro.physics.spatial.rotation import (
    cross, matrix_to_quat, quat_conjugate, quat_derivative, quat_from_axis_angle,
    quat_from_rpy, quat_multiply, quat_normalize, quat_to_matrix, quat_to_rpy, rotate,
    rotate_inverse, skew)


def _random_quats(n, seed=1):
    rng = np.random.default_rng(seed)
    return [quat_normalize(rng.normal(size=4)) for _ in range(n)]


def _axis_rotation(axis, angle):
    """Return the elementary rotation matrix about x (0), y (1) or z (2)."""
    c, s = math.cos(angle), math.sin(angle)
    if axis == 0:
        return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])
    if axis == 1:
        return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def test_skew_is_cross_product():
    """S(a) b equals numpy's cross product and S is skew-symmetric."""
    rng = np.random.default_rng(0)
    for _ in range(20):
        a, b = rng.normal(size=3), rng.normal(size=3)
        err = np.max(np.abs(skew(a) @ b - np.cross(a, b)))
        assert err < 1e-14, err
        assert np.max(np.abs(cross(a, b) - np.cross(a, b))) < 1e-14
        assert np.array_equal(skew(a), -skew(a).T)


def test_matrix_is_proper_rotation_and_matches_axis_angle():
    """R(q) is orthonormal with det 1 and equals the elementary rotations."""
    for q in _random_quats(20):
        r = quat_to_matrix(q)
        assert np.max(np.abs(r @ r.T - np.eye(3))) < 1e-14
        assert abs(np.linalg.det(r) - 1.0) < 1e-14
    for axis in range(3):
        e = np.zeros(3)
        e[axis] = 1.0
        r = quat_to_matrix(quat_from_axis_angle(e, 0.7))
        assert np.max(np.abs(r - _axis_rotation(axis, 0.7))) < 1e-15


def test_product_composes_rotations():
    """R(p (x) q) = R(p) R(q) and q (x) q* is the identity."""
    qs = _random_quats(10)
    for p, q in zip(qs, qs[1:]):
        err = np.max(np.abs(quat_to_matrix(quat_multiply(p, q))
                            - quat_to_matrix(p) @ quat_to_matrix(q)))
        assert err < 1e-14, err
        assert np.allclose(quat_multiply(q, quat_conjugate(q)), [1, 0, 0, 0], atol=1e-15)


def test_matrix_round_trip_all_branches():
    """matrix_to_quat inverts quat_to_matrix up to sign, including 180-degree turns."""
    quats = _random_quats(30) + [
        quat_from_axis_angle([1, 0, 0], math.pi), quat_from_axis_angle([0, 1, 0], math.pi),
        quat_from_axis_angle([0, 0, 1], math.pi), np.array([1.0, 0, 0, 0])]
    for q in quats:
        back = matrix_to_quat(quat_to_matrix(q))
        err = min(np.max(np.abs(back - q)), np.max(np.abs(back + q)))
        assert err < 1e-12, err
        assert back[0] >= 0.0


def test_rotate_and_inverse():
    """Rotating is R v and rotate_inverse undoes it."""
    rng = np.random.default_rng(3)
    for q in _random_quats(10):
        v = rng.normal(size=3)
        assert np.allclose(rotate(q, v), quat_to_matrix(q) @ v, atol=1e-14)
        assert np.allclose(rotate_inverse(q, rotate(q, v)), v, atol=1e-14)
        qv = quat_multiply(quat_multiply(q, np.concatenate(([0.0], v))), quat_conjugate(q))
        assert np.allclose(qv[1:], rotate(q, v), atol=1e-14)


def test_quaternion_kinematics_match_analytic_rotation():
    """q_dot = 0.5 q (x) [0, w] is the derivative of q0 (x) exp(w t / 2) (body rate w)."""
    q0 = _random_quats(1, seed=7)[0]
    w = np.array([0.3, -0.8, 0.5])
    rate = np.linalg.norm(w)

    def q_of(t):
        return quat_multiply(q0, quat_from_axis_angle(w, rate * t))

    t, h = 0.9, 1e-5
    numeric = (q_of(t + h) - q_of(t - h)) / (2 * h)
    err = np.max(np.abs(quat_derivative(q_of(t), w) - numeric))
    assert err < 1e-9, err


def test_rpy_round_trip_and_convention():
    """quat_from_rpy is Rz(yaw) Ry(pitch) Rx(roll) and quat_to_rpy inverts it."""
    roll, pitch, yaw = 0.3, -0.4, 2.5
    r = _axis_rotation(2, yaw) @ _axis_rotation(1, pitch) @ _axis_rotation(0, roll)
    q = quat_from_rpy(roll, pitch, yaw)
    assert np.max(np.abs(quat_to_matrix(q) - r)) < 1e-14
    assert np.allclose(quat_to_rpy(q), [roll, pitch, yaw], atol=1e-13)


def test_normalize_rejects_zero():
    """A zero quaternion cannot be normalised."""
    assert np.allclose(quat_normalize([2.0, 0, 0, 0]), [1, 0, 0, 0])
    with pytest.raises(ValueError):
        quat_normalize([0.0, 0.0, 0.0, 0.0])
