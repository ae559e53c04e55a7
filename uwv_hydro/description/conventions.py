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
Letter tables, frame conventions and rotation helpers shared by the loaders.

Index letters of the 6-DOF coefficients (order [x, y, z, roll, pitch, yaw]):

* dsros_hydro and uwv_hydro YAML sparse maps: ``x y z r p h``
  (r = roll, p = pitch, h = heading/yaw).
* SDF ``<fluid_added_mass>``: ``x y z p q r`` (p = roll, q = pitch, r = yaw), so
  ``rr`` is yaw-yaw in SDF but roll-roll in dsros.
* gz-sim Hydrodynamics (SNAME 1950): forces/moments ``x y z k m n``, velocities
  ``U V W P Q R``.

FRD (SNAME/Fossen, z down) to FLU (REP-103, z up) is a rotation of pi about x:
P = diag(1, -1, -1) on 3-vectors and T = diag(1, -1, -1, 1, -1, -1) on twists and
wrenches (Fossen 2021 ch. 2; REP-103).  Because T = T^-1 = T^T:

* matrices acting on twists and giving wrenches (M_A, L): M' = T M T;
* quadratic tensor Q[a, b, c] (F_a = -Q_abc |nu_b| nu_c): Q'_abc = T_a T_c Q_abc
  since |T_b| = 1 (see :mod:`uwv_hydro.description.yaml.params` for the derivation);
* points r' = P r and inertia I' = P I P.

URDF/SDF ``rpy`` are fixed-axis roll, pitch, yaw: R = Rz(yaw) Ry(pitch) Rx(roll)
(URDF spec, ``urdf::Rotation::setFromRPY``).
"""
from typing import Optional, Sequence, Tuple

import numpy as np
from transforms3d.euler import euler2mat
from transforms3d.quaternions import mat2quat, quat2mat

#: dsros_hydro / YAML letters, index 0..5.
DSROS_LETTERS = 'xyzrph'
#: SDF fluid_added_mass letters, index 0..5.
SDF_LETTERS = 'xyzpqr'
#: gz-sim Hydrodynamics force/moment letters (SNAME), index 0..5.
GZ_FORCE_LETTERS = 'xyzkmn'
#: gz-sim Hydrodynamics velocity letters (SNAME), index 0..5.
GZ_VELOCITY_LETTERS = 'UVWPQR'

#: FRD <-> FLU on 3-vectors (rotation of pi about x).
P3 = np.diag([1.0, -1.0, -1.0])
#: FRD <-> FLU on 6-vectors (twists and wrenches).
T6 = np.array([1.0, -1.0, -1.0, 1.0, -1.0, -1.0])


def letters_to_indices(tag: str, letters: str, order: int) -> Optional[Tuple[int, ...]]:
    """Return the indices spelled by ``tag`` (``order`` letters) or None if malformed."""
    if len(tag) != order:
        return None
    out = []
    for ch in tag:
        pos = letters.find(ch)
        if pos < 0:
            return None
        out.append(pos)
    return tuple(out)


def frd_to_flu_vector(r: Sequence[float]) -> np.ndarray:
    """Convert a body-frame point or vector from FRD to FLU (r' = P r)."""
    return P3 @ np.asarray(r, float)


def frd_to_flu_inertia(inertia: np.ndarray) -> np.ndarray:
    """Convert a 3x3 inertia from FRD to FLU axes (I' = P I P)."""
    return P3 @ np.asarray(inertia, float) @ P3


def frd_to_flu_matrix(m: np.ndarray) -> np.ndarray:
    """Convert a 6x6 twist-to-wrench matrix from FRD to FLU (M' = T M T)."""
    return np.asarray(m, float) * np.outer(T6, T6)


def frd_to_flu_quadratic(q: np.ndarray) -> np.ndarray:
    """Convert a 6x6x6 quadratic-drag tensor from FRD to FLU (Q'_abc = T_a T_c Q_abc)."""
    return np.asarray(q, float) * T6[:, None, None] * T6[None, None, :]


def frd_to_flu_signed_quadratic(s: np.ndarray) -> np.ndarray:
    """Convert a 6x6x6 signed quadratic tensor from FRD to FLU (S'_abc = T_a T_b T_c S_abc)."""
    return np.asarray(s, float) * T6[:, None, None] * T6[None, :, None] * T6[None, None, :]


def rpy_to_matrix(rpy: Sequence[float]) -> np.ndarray:
    """Return R = Rz(yaw) Ry(pitch) Rx(roll) for URDF/SDF fixed-axis rpy."""
    roll, pitch, yaw = (float(v) for v in rpy)
    # URDF/SDF rpy: static axes x, then y, then z (transforms3d 'sxyz')
    return euler2mat(roll, pitch, yaw, 'sxyz')


def quat_to_matrix(q: Sequence[float]) -> np.ndarray:
    """Return the rotation matrix of a quaternion [w, x, y, z] (normalised first)."""
    q = np.asarray(q, float)
    return quat2mat(q / np.linalg.norm(q))


def matrix_to_quat(rot: np.ndarray) -> np.ndarray:
    """Return the unit quaternion [w, x, y, z] (w >= 0) of a rotation matrix."""
    q = mat2quat(np.asarray(rot, float))
    q = q / np.linalg.norm(q)
    return -q if q[0] < 0 else q


def skew(r: Sequence[float]) -> np.ndarray:
    """Return S(r) with S(r) v = r x v."""
    x, y, z = (float(v) for v in r)
    return np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])


def transport_matrix(r: Sequence[float]) -> np.ndarray:
    """
    Return H(r) mapping the origin twist to the twist of point r (PVS's gnc.Hmtrx).

    nu_r = H(r) nu_o with v_r = v_o + w x r; wrenches move back as tau_o = H(r)^T tau_r.
    """
    h = np.eye(6)
    h[0:3, 3:6] = -skew(r)
    return h


def rigid_body_mass_matrix(mass: float, inertia_com: np.ndarray,
                           com: Sequence[float]) -> np.ndarray:
    """Return the 6x6 M_RB about the body origin (Fossen 2021 ch. 3)."""
    s = skew(com)
    m_rb = np.zeros((6, 6))
    m_rb[0:3, 0:3] = mass * np.eye(3)
    m_rb[0:3, 3:6] = -mass * s
    m_rb[3:6, 0:3] = mass * s
    m_rb[3:6, 3:6] = np.asarray(inertia_com, float) - mass * s @ s
    return m_rb


def added_mass_about_origin(added_mass: np.ndarray, point: Sequence[float]) -> np.ndarray:
    """Return M_A referred to the origin from M_A about ``point`` (H^T M_A H)."""
    h = transport_matrix(point)
    return h.T @ np.asarray(added_mass, float) @ h
