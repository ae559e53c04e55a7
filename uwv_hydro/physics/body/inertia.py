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
Inertia tools: principal axes, validity checks, equivalent box, shapes and scaling.

Inertia matrices are full symmetric 3x3 matrices (off-diagonal entries are the
matrix elements, i.e. Ixy = -sum m x y).  Principal decomposition:
I = axes @ diag(moments) @ axes.T with ``axes`` a proper rotation whose columns
are the principal axes (gz-math MassMatrix3, seed 003).
"""
import math
from typing import List, Tuple

import numpy as np

_NAMES = ('Ixx', 'Iyy', 'Izz')
_PRINCIPAL_NAMES = ('I1', 'I2', 'I3')


class InertiaError(ValueError):
    """An inertia matrix that no rigid body can have."""


def is_diagonal(inertia, tol: float = 0.0) -> bool:
    """Return True when the off-diagonal entries are (within ``tol``) zero."""
    i = np.asarray(inertia, dtype=float).reshape(3, 3)
    off = i - np.diag(np.diag(i))
    return bool(np.all(np.abs(off) <= tol))


def principal_moments(inertia) -> Tuple[np.ndarray, np.ndarray]:
    """
    Return (moments, axes) with inertia = axes @ diag(moments) @ axes.T.

    An already diagonal matrix is returned as is (moments in x, y, z order and
    identity axes, seed 003: "the computation can be skipped").  Otherwise the
    symmetric eigen-decomposition gives ascending moments and a right-handed
    rotation ``axes`` (columns = principal axes).
    """
    i = np.asarray(inertia, dtype=float).reshape(3, 3)
    if is_diagonal(i):
        return np.diag(i).copy(), np.eye(3)
    # Symmetric eigenproblem I = V diag(lambda) V^T (principal axes theorem)
    moments, axes = np.linalg.eigh(0.5 * (i + i.T))
    if np.linalg.det(axes) < 0.0:
        axes[:, 2] = -axes[:, 2]
    return moments, axes


def inertia_problems(inertia, mass=None, rel_tol: float = 1e-9) -> List[str]:
    """
    Return the reasons an inertia matrix is not physical (empty list if valid).

    Checks: finite, symmetric, positive definite, and the triangle inequalities
    Ixx + Iyy >= Izz (and cyclic) on the diagonal and, if not diagonal, on the
    principal moments (I1 + I2 >= I3 ...).  With ``mass`` the mass must be > 0.
    """
    problems = []
    if mass is not None and not (math.isfinite(float(mass)) and float(mass) > 0.0):
        problems.append('mass must be positive and finite (got %r)' % (mass,))
    i = np.asarray(inertia, dtype=float)
    if i.shape != (3, 3):
        return problems + ['inertia must be 3x3 (got shape %s)' % (i.shape,)]
    if not np.all(np.isfinite(i)):
        return problems + ['inertia has non-finite entries']
    scale = max(float(np.max(np.abs(i))), 1e-300)
    tol = rel_tol * scale
    if np.max(np.abs(i - i.T)) > tol:
        problems.append('inertia is not symmetric')
    sym = 0.5 * (i + i.T)
    moments = np.linalg.eigvalsh(sym)
    if moments[0] <= tol:
        problems.append('inertia is not positive definite (smallest principal moment %.6g)'
                        % moments[0])
    problems.extend(_triangle(np.diag(sym), _NAMES, tol))
    if not is_diagonal(sym, tol):
        problems.extend(_triangle(moments, _PRINCIPAL_NAMES, tol))
    return problems


def _triangle(values, names, tol) -> List[str]:
    """Return the violated triangle inequalities a + b >= c among three moments."""
    out = []
    for k in range(3):
        a, b = (k + 1) % 3, (k + 2) % 3
        # Triangle inequality of moments of inertia: I_a + I_b - I_c = 2 sum m c^2 >= 0
        if values[a] + values[b] < values[k] - tol:
            first, second = sorted((a, b))
            out.append('%s + %s >= %s violated' % (names[first], names[second], names[k]))
    return out


def validate_inertia(inertia, mass=None) -> None:
    """Raise :class:`InertiaError` naming every violated condition (see inertia_problems)."""
    problems = inertia_problems(inertia, mass)
    if problems:
        raise InertiaError('; '.join(problems))


def rotate_inertia(inertia, rotation) -> np.ndarray:
    """Return R I R^T: an inertia re-expressed in axes rotated by ``rotation`` (new <- old)."""
    r = np.asarray(rotation, dtype=float).reshape(3, 3)
    # Tensor transformation: I' = R I R^T
    return r @ np.asarray(inertia, dtype=float).reshape(3, 3) @ r.T


def equivalent_box(mass: float, inertia) -> Tuple[np.ndarray, np.ndarray]:
    """
    Return (size [dx, dy, dz], axes) of the uniform box with the same inertia.

    Seed 003: dx = sqrt(6/m (Iyy + Izz - Ixx)) and cyclic, applied to the
    principal moments; ``axes`` (columns) are the principal axes the box is
    aligned with.  Raises :class:`InertiaError` for an invalid inertia.
    """
    validate_inertia(inertia, mass)
    moments, axes = principal_moments(inertia)
    ixx, iyy, izz = moments
    m = float(mass)
    # Gazebo inertia_resize design: d_x = sqrt(6/m (Iyy + Izz - Ixx)) and cyclic
    size = np.sqrt(np.maximum(6.0 / m * np.array([iyy + izz - ixx, izz + ixx - iyy,
                                                  ixx + iyy - izz]), 0.0))
    return size, axes


def box_inertia(mass: float, size) -> np.ndarray:
    """Return the inertia of a solid box with edge lengths size = [dx, dy, dz]."""
    dx, dy, dz = (float(s) for s in size)
    m = float(mass)
    # Solid cuboid: Ixx = m/12 (dy^2 + dz^2) and cyclic
    return np.diag([m / 12.0 * (dy * dy + dz * dz), m / 12.0 * (dz * dz + dx * dx),
                    m / 12.0 * (dx * dx + dy * dy)])


def cylinder_inertia(mass: float, radius: float, length: float, axis: int = 2) -> np.ndarray:
    """Return the inertia of a solid cylinder whose axis is body axis ``axis`` (0, 1, 2)."""
    m, r, h = float(mass), float(radius), float(length)
    # Solid cylinder: I_axis = m r^2 / 2, I_transverse = m (3 r^2 + h^2) / 12
    moments = np.full(3, m * (3.0 * r * r + h * h) / 12.0)
    moments[axis] = 0.5 * m * r * r
    return np.diag(moments)


def sphere_inertia(mass: float, radius: float) -> np.ndarray:
    """Return the inertia of a solid sphere."""
    # Solid sphere: I = 2/5 m r^2
    return np.eye(3) * (0.4 * float(mass) * float(radius) ** 2)


def ellipsoid_inertia(mass: float, semi_axes) -> np.ndarray:
    """Return the inertia of a solid ellipsoid with semi-axes [a, b, c] along x, y, z."""
    a, b, c = (float(s) for s in semi_axes)
    m = float(mass)
    # Solid ellipsoid: Ixx = m/5 (b^2 + c^2) and cyclic
    return np.diag([m / 5.0 * (b * b + c * c), m / 5.0 * (c * c + a * a),
                    m / 5.0 * (a * a + b * b)])


def scale_inertia(inertia, mass_scale: float = 1.0, length_scale: float = 1.0) -> np.ndarray:
    """
    Return the inertia of the same shape with mass x mass_scale and size x length_scale.

    Uniform density scaling is mass_scale = length_scale**3.
    """
    # Dimensional analysis: I ~ m L^2
    return np.asarray(inertia, dtype=float) * (float(mass_scale) * float(length_scale) ** 2)
