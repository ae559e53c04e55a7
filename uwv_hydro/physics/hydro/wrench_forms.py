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
The hydro wrench and the equations of motion as affine and bilinear forms in a few features.

Features of one state (everything else is state-independent and precomputed)::

    z  = [nu (6), v_cb (3)]   body twist of the origin and body-frame current R^T v_c
    d  = R^T [0, 0, -1]       body-frame down direction (hydrostatics.down_direction)
    fd = f d                  f = surface fraction of the buoyancy
    e  = 6 extra inputs       tau (dynamics) or nu_dot (wrench)

With nu_r = R_z z = nu - [v_cb, 0] and the drag velocity-point twist nu_p = P z,
P = H(r_v) R_z, every term is one of (sources as in the modules that define them)::

    affine    G_w d, G_b fd               weight at com, buoyancy at cob (hydrostatics)
              L_z z                       -H(r_c)^T L nu_p (dsros linear drag)
              E e                         tau, or -M_A,O nu_dot (Fossen 2011 ch. 6)
    bilinear  sum_bk A_ibk |nu_p,b| z_k   -H(r_c)^T Q_abc |nu_p,b| nu_p,c (dsros drag)
              sum_jk B_ijk z_j z_k        uuv forward-speed drag, gz-sim signed quadratic
                                          drag, -C_RB(nu) nu (rigid_body),
                                          -H(r_a)^T C_A(nu_a) nu_a (Fossen 2011 eq. 6.43),
                                          M_A,O nu_dot_c (Fossen 2021 ch. 10)

The bilinear tensors are built numerically from the functions that define the terms
(B[:, j, k] = b(e_j, e_k), b(z, z) = the term): the same equations in another order.

Evaluation (:func:`build_kernel` layout) uses one buffer
``buf = [|nu_p| (6), 1, z (9), d (3), fd (3), e (6)]`` and two matrix-vector
products: ``y = K @ buf[7:]``, ``|nu_p| = abs(y[-6:]) -> buf[:6]``,
``out = y[:-6].reshape(n_out, 16) @ buf[:16]``, i.e. out_i = sum_j Y_ij u_j with
u = [|nu_p|, 1, z] and Y_ij linear in buf[7:].
"""
import numpy as np

from uwv_hydro.physics.spatial.point_transform import transfer_matrix_h
from uwv_hydro.physics.spatial.rotation import cross

#: Length of the feature buffer and where each feature lives in it.
BUFFER_SIZE = 28
ABS_SLICE = slice(0, 6)
ONE_INDEX = 6
Z_SLICE = slice(7, 16)
D_SLICE = slice(16, 19)
FD_SLICE = slice(19, 22)
EXTRA_SLICE = slice(22, 28)
#: Columns of the Y matrix (u = buf[:16]) and of the linear input (buf[7:]).
U_SIZE = 16
LIN_START = 7


def new_buffer() -> np.ndarray:
    """Return a zeroed feature buffer with its constant 1 set."""
    buf = np.zeros(BUFFER_SIZE)
    buf[ONE_INDEX] = 1.0
    return buf


def linear_matrix(form, n_in: int) -> np.ndarray:
    """Return the matrix A with A @ x = form(x) for a linear ``form`` of n_in inputs."""
    eye = np.eye(n_in)
    return np.array([form(eye[k]) for k in range(n_in)]).T


def bilinear_tensor(form, n_in: int) -> np.ndarray:
    """
    Return B with sum_jk B[:, j, k] x_j y_k = form(x, y) for a bilinear ``form``.

    B[:, j, k] = form(e_j, e_k) (exact: a bilinear form is fixed by the basis).
    """
    eye = np.eye(n_in)
    cols = [[form(eye[j], eye[k]) for k in range(n_in)] for j in range(n_in)]
    return np.array(cols).transpose(2, 0, 1)


def coriolis_bilinear(mass_matrix, x, y) -> np.ndarray:
    """
    Return b(x, y) = [a1 x y_w, a1 x y_v + a2 x y_w] with a = M x.

    b(nu, nu) = -C(nu) nu of Fossen 2021 Theorem 3.2 (rigid body) and Fossen 2011
    eq. 6.43 (added mass), the expression of
    :func:`uwv_hydro.physics.body.rigid_body.coriolis_wrench`.
    """
    a = mass_matrix @ x
    return np.concatenate((cross(a[:3], y[3:]), cross(a[:3], y[:3]) + cross(a[3:], y[3:])))


class FeatureForms:
    """
    The affine and bilinear coefficient arrays of every term of one HydroModel.

    Each attribute is in wrench units (N, N m) about the origin, body frame; the
    dynamics premultiplies them by (M_RB + M_A)^-1.
    """

    def __init__(self, model):
        hs = model.hydrostatics
        drag = model.drag
        am = model.added_mass
        # nu_r = R_z z = nu - [v_cb, 0] (Fossen 2021 ch. 10)
        r_z = np.zeros((6, 9))
        r_z[:, :6] = np.eye(6)
        r_z[:3, 6:] = -np.eye(3)
        # Twist of the drag velocity point: nu_p = H(r_v) nu_r (Fossen's H(r), MSS Hmtrx)
        self.p = transfer_matrix_h(drag.velocity_point) @ r_z
        h_c_t = transfer_matrix_h(drag.center).T
        # Weight and buoyancy wrenches are linear in d (and f d)
        self.weight = linear_matrix(hs.weight_wrench, 3)
        self.buoyancy = linear_matrix(lambda d: hs.buoyancy_wrench(d, 1.0), 3)
        # dsros linear drag moved to the origin: -H(r_c)^T L H(r_v) nu_r
        self.linear = -(h_c_t @ drag.linear @ self.p)
        # dsros quadratic drag at the origin: -H(r_c)^T Q_abc |nu_p,b| nu_p,c
        self.quadratic_point = -np.einsum('ia,abc->ibc', h_c_t, drag.quadratic.tensor)
        # ... and with nu_p,c = (P z)_c
        self.quadratic = np.einsum('ibc,ck->ibk', self.quadratic_point, self.p)
        p_rows = self.p
        forward = drag.forward_speed
        # uuv_simulator HMFossen forward-speed drag: -H(r_c)^T u_p L_u nu_p, u_p = (P z)_0
        self.forward_speed = bilinear_tensor(
            lambda x, y: -(h_c_t @ (forward @ (p_rows @ y))) * (p_rows[0] @ x), 9)
        signed = drag.signed
        # gz-sim signed quadratic drag: -H(r_c)^T S_abc nu_p,b nu_p,c, nu_p = P z
        self.signed_quadratic = bilinear_tensor(
            lambda x, y: -(h_c_t @ np.einsum('abc,b,c->a', signed, p_rows @ x, p_rows @ y)),
            9)
        self.coriolis = bool(model.coriolis)
        self.added_mass_origin = am.origin_matrix
        zero = np.zeros((6, 9, 9))
        m_rb = model.rigid_body_mass_matrix()
        self.rigid_body_coriolis = zero
        self.added_mass_coriolis = zero
        self.engine_added_mass_coriolis = zero
        if self.coriolis:
            # Fossen 2021 Theorem 3.2: -C_RB(nu) nu with nu = z[:6]
            self.rigid_body_coriolis = bilinear_tensor(
                lambda x, y: coriolis_bilinear(m_rb, x[:6], y[:6]), 9)
        if model.added_mass_coriolis:
            h_a = transfer_matrix_h(am.point)
            h_a_t = h_a.T
            p_a = h_a @ r_z
            # Fossen 2011 eq. 6.43: H(r_a)^T (-C_A(nu_a) nu_a), nu_a = H(r_a) nu_r
            self.added_mass_coriolis = bilinear_tensor(
                lambda x, y: h_a_t @ coriolis_bilinear(am.matrix, p_a @ x, p_a @ y), 9)
            # What an engine carrying M_A computes itself: eq. 6.43 with the ABSOLUTE
            # twist, H^T (-C_A(H nu) H nu) = -C_A,O(nu) nu (Kirchhoff's form does not
            # depend on the reference point); the same arithmetic as the block above
            # on its nu rows, so the difference is exactly zero in still water
            self.engine_added_mass_coriolis = bilinear_tensor(
                lambda x, y: h_a_t @ coriolis_bilinear(am.matrix, h_a @ x[:6], h_a @ y[:6]),
                9)
        m_a_o = am.origin_matrix

        def current_inertia(x, y):
            # Fossen 2021 ch. 10: M_A,O nu_dot_c, nu_dot_c = [-w x v_cb, 0]
            nu_dot_c = np.zeros(6)
            nu_dot_c[:3] = -cross(x[3:6], y[6:9])
            return m_a_o @ nu_dot_c
        self.current_inertia = bilinear_tensor(current_inertia, 9)


def build_kernel(linear_z, weight, buoyancy, extra, quadratic, bilinear, p) -> np.ndarray:
    """
    Return K for ``n_out`` outputs (the layout of the module docstring).

    ``linear_z`` (n_out, 9), ``weight``/``buoyancy`` (n_out, 3), ``extra`` (n_out, 6),
    ``quadratic`` (n_out, 6, 9) on (|nu_p|, z), ``bilinear`` (n_out, 9, 9) on (z, z),
    ``p`` (6, 9) with nu_p = p @ z.
    """
    n_out = linear_z.shape[0]
    k = np.zeros((n_out * U_SIZE + 6, BUFFER_SIZE - LIN_START))
    blocks = k[:n_out * U_SIZE].reshape(n_out, U_SIZE, BUFFER_SIZE - LIN_START)
    # Column j < 6 of Y: sum_k A_ijk z_k multiplies |nu_p,j|
    blocks[:, :6, :9] = quadratic
    # Column 6 of Y multiplies 1: the affine part
    blocks[:, 6, 0:9] = linear_z
    blocks[:, 6, 9:12] = weight
    blocks[:, 6, 12:15] = buoyancy
    blocks[:, 6, 15:21] = extra
    # Columns 7..15 of Y: sum_k B_ijk z_k multiplies z_j
    blocks[:, 7:, :9] = bilinear
    k[n_out * U_SIZE:, :9] = p
    return k
