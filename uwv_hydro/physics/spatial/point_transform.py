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
Moving twists, wrenches and 6x6 matrices between body-fixed points.

For a point P at body-frame offset r from the body origin O (same axes):

* twist transfer: nu_P = H(r) nu_O, i.e. v_P = v_O + omega x r, omega_P = omega_O;
* wrench transfer: tau_O = H(r)^T tau_P, i.e. F_O = F_P, M_O = M_P + r x F_P;
* matrix transfer: M_O = H(r)^T M_P H(r) (kinetic energy is point-independent),

with H(r) = [[I, -S(r)], [0, I]] (Fossen's "system transformation matrix", gnc.Hmtrx
of PythonVehicleSimulator: [[I, S(r)^T], [0, I]], written with S(r)^T = -S(r)).
"""
import numpy as np

from uwv_hydro.physics.spatial.rotation import cross, skew


def transfer_matrix_h(r) -> np.ndarray:
    """Return the 6x6 twist transfer matrix H(r) = [[I, -S(r)], [0, I]]."""
    h = np.eye(6)
    # Fossen's H(r), MSS Hmtrx: H(r) = [[I, S(r)^T], [0, I]]
    h[:3, 3:] = -skew(r)
    return h


def transfer_twist(nu, r) -> np.ndarray:
    """Return the twist of the point at offset r: [v + omega x r, omega]."""
    nu = np.asarray(nu, dtype=float)
    out = nu.copy()
    # Rigid-body velocity field: v_P = v_O + omega x r
    out[:3] += cross(nu[3:], r)
    return out


def transfer_wrench(tau_point, r) -> np.ndarray:
    """Return the wrench about the origin of a wrench about the point r: H(r)^T tau_P."""
    tau_point = np.asarray(tau_point, dtype=float)
    out = tau_point.copy()
    # Moment transport: M_O = M_P + r x F_P
    out[3:] += cross(r, tau_point[:3])
    return out


def force_at_point(force, r) -> np.ndarray:
    """Return the wrench about the origin of a pure force applied at the point r."""
    force = np.asarray(force, dtype=float)
    # tau = [F, r x F] (a force at an offset carries its moment)
    return np.concatenate((force, cross(r, force)))


def transfer_matrix(matrix, r) -> np.ndarray:
    """Return H(r)^T M H(r): a 6x6 matrix about the point r re-expressed about the origin."""
    h = transfer_matrix_h(r)
    # Fossen's H(r), MSS Hmtrx: M_O = H(r)^T M_P H(r)
    return h.T @ np.asarray(matrix, dtype=float) @ h


def motion_transforms(rotation, position) -> np.ndarray:
    """
    Return X (N, 6, 6) of N frames at (``position`` (N, 3), ``rotation`` (N, 3, 3)).

    X maps a parent's twist [v, w] (parent axes, parent origin) to the frame's (its axes,
    its origin): X = [[R^T, -R^T S(p)], [0, R^T]]; X^T maps the frame's wrench back to
    the parent (the dual map) and X^T M X a 6x6 matrix.
    """
    r = np.asarray(rotation, dtype=float).reshape(-1, 3, 3)
    p = np.asarray(position, dtype=float).reshape(-1, 3)
    rt = np.swapaxes(r, 1, 2)
    s = np.zeros((len(r), 3, 3))
    # Fossen 2021 ch. 2: S(p), row by row
    s[:, 0, 1], s[:, 0, 2], s[:, 1, 2] = -p[:, 2], p[:, 1], -p[:, 0]
    s[:, 1, 0], s[:, 2, 0], s[:, 2, 1] = p[:, 2], -p[:, 1], p[:, 0]
    x = np.zeros((len(r), 6, 6))
    # rigid-body velocity field in the frame's axes: v_f = R^T (v + w x p), w_f = R^T w
    x[:, :3, :3] = x[:, 3:, 3:] = rt
    x[:, :3, 3:] = -np.matmul(rt, s)
    return x
