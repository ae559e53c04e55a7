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
Added mass: the inertial wrench, the added-mass Coriolis wrench and dsros' lagged acceleration.

Added-mass Coriolis-centripetal matrix (Fossen 2011 eqs. 6.43-6.46, the matrix
dsros_hydro uses) for a 6x6 added-mass matrix M_A = [[A11, A12], [A21, A22]]::

    C_A(nu) = [[ 0,       -S(a1) ],
               [ -S(a1),  -S(a2) ]],   a1 = A11 v + A12 w,  a2 = A21 v + A22 w

It is skew-symmetric for any (also asymmetric, 36-term) M_A, so it does no work.

:class:`AddedMass` holds M_A about its ``added_mass_point`` r_a.  Both terms are
evaluated with the twist of that point (nu_p = H(r_a) nu) and moved to the origin
with H(r_a)^T; the inertial term equals -M_A,O nu_dot with M_A,O = H^T M_A H.

:class:`LaggedAcceleration` is the explicit acceleration estimate of dsros_hydro
(a low-pass filtered backward difference); the simulator does NOT use it (added
mass is implicit in its mass matrix), it exists for wrench mode and for comparison.
"""
import numpy as np

from uwv_hydro.physics.body.rigid_body import coriolis_matrix
from uwv_hydro.physics.spatial.point_transform import transfer_matrix, transfer_matrix_h
from uwv_hydro.physics.spatial.rotation import cross, cross_rows


def added_mass_coriolis_matrix(added_mass, nu) -> np.ndarray:
    """
    Return C_A(nu) (Fossen 2011 eq. 6.43) for a 6x6 added-mass matrix.

    Eq. 6.43 is the C of Theorem 3.2 applied to M_A (a1 = A11 v + A12 w, a2 = A21 v + A22 w,
    C_A = [[0, -S(a1)], [-S(a1), -S(a2)]]), so the rigid-body function serves both.
    """
    return coriolis_matrix(added_mass, nu)


def added_mass_coriolis_wrench(added_mass, nu) -> np.ndarray:
    """Return -C_A(nu) nu = [a1 x w, a1 x v + a2 x w] without building C_A."""
    nu = np.asarray(nu, dtype=float)
    # Fossen 2011 eqs. 6.43-6.46: [a1, a2] = M_A nu
    a = np.asarray(added_mass, dtype=float) @ nu
    a1, a2 = a[:3], a[3:]
    # Fossen 2011 eq. 6.43 applied to nu: -C_A nu = [a1 x w, a1 x v + a2 x w]
    return np.concatenate((cross(a1, nu[3:]), cross(a1, nu[:3]) + cross(a2, nu[3:])))


def added_mass_coriolis_wrench_many(added_mass, nu) -> np.ndarray:
    """Return :func:`added_mass_coriolis_wrench` of N matrices (N, 6, 6) and twists (N, 6)."""
    nu = np.asarray(nu, dtype=float).reshape(-1, 6)
    # Fossen 2011 eqs. 6.43-6.46: [a1, a2] = M_A nu, one per row
    a = np.einsum('nij,nj->ni', np.asarray(added_mass, dtype=float).reshape(-1, 6, 6), nu)
    v, w, a1, a2 = nu[:, :3], nu[:, 3:], a[:, :3], a[:, 3:]
    # Fossen 2011 eq. 6.43 applied to nu: -C_A nu = [a1 x w, a1 x v + a2 x w]
    return np.concatenate((cross_rows(a1, w), cross_rows(a1, v) + cross_rows(a2, w)), axis=1)


class AddedMass:
    """
    A 6x6 added-mass matrix about a body-fixed point, with its wrenches about the origin.

    All precomputation (H(r_a), M_A about the origin) happens here once.
    """

    def __init__(self, matrix, point=None):
        self.matrix = np.array(matrix, dtype=float).reshape(6, 6)
        self.point = np.zeros(3) if point is None else np.array(point, dtype=float)
        self._h = transfer_matrix_h(self.point)
        self._h_t = np.ascontiguousarray(self._h.T)
        self._at_origin = not np.any(self.point)
        # Fossen's H(r), MSS Hmtrx: M_A about the origin = H(r_a)^T M_A H(r_a)
        self.origin_matrix = transfer_matrix(self.matrix, self.point)
        self.is_zero = not np.any(self.matrix)

    def inertial_wrench(self, nu_dot) -> np.ndarray:
        """Return -H^T M_A H nu_dot: the added-mass wrench about the origin."""
        # tau_A = -M_A nu_dot (Fossen 2011 ch. 6), moved to the origin with H^T
        return -(self.origin_matrix @ nu_dot)

    def coriolis_wrench(self, nu_r) -> np.ndarray:
        """Return H^T (-C_A(nu_r,p) nu_r,p) with nu_r,p = H nu_r the twist of the point."""
        if self.is_zero:
            return np.zeros(6)
        if self._at_origin:
            return added_mass_coriolis_wrench(self.matrix, nu_r)
        # Twist transfer nu_p = H(r_a) nu (Fossen's H(r), MSS Hmtrx)
        nu_p = self._h @ nu_r
        # Wrench transfer tau_O = H(r_a)^T tau_p
        return self._h_t @ added_mass_coriolis_wrench(self.matrix, nu_p)


class LaggedAcceleration:
    """
    Filtered backward-difference acceleration estimate, as in dsros_hydro.

    a_k = alpha (nu_k - nu_{k-1}) / dt + (1 - alpha) a_{k-1}; zero on the first call
    (and after :meth:`reset`).  A call with dt <= 0 returns the previous estimate
    unchanged and does not replace the stored sample.  ``size``: the length of a sample
    (6, a twist; 6 + n for a floating base with n joints).
    """

    def __init__(self, alpha: float = 0.3, size: int = 6):
        if not 0.0 <= float(alpha) <= 1.0:
            raise ValueError('alpha must be in [0, 1], got %r' % (alpha,))
        self.alpha = float(alpha)
        self.size = int(size)
        self.reset()

    def reset(self) -> None:
        """Forget the history: the next :meth:`update` returns zeros."""
        self._previous = None
        self._time = None
        self._estimate = np.zeros(self.size)

    def update(self, nu, t: float) -> np.ndarray:
        """Add the sample ``nu`` taken at time ``t`` (s) and return the estimate (a copy)."""
        return self.update_many(np.reshape(nu, (1, self.size)), [t])[0]

    def update_many(self, nu, t, resets=None) -> np.ndarray:
        """
        Return the estimates (N, size) of N samples in time order, one per sample.

        ``nu`` (N, size), ``t`` (N,) in s; ``resets`` (N,) bool: :meth:`reset` before sample k.
        Split into calls anywhere, the estimates are the same.
        """
        rows = np.asarray(nu, dtype=float).reshape(-1, self.size).tolist()
        times = np.asarray(t, dtype=float).reshape(-1).tolist()
        if len(times) != len(rows):
            raise ValueError('%d samples but %d times' % (len(rows), len(times)))
        flags = [False] * len(rows) if resets is None else [bool(r) for r in resets]
        alpha, beta = self.alpha, 1.0 - self.alpha
        zero = [0.0] * self.size
        prev = None if self._previous is None else self._previous.tolist()
        t_prev = self._time
        est = self._estimate.tolist()
        out = []
        for row, tk, reset in zip(rows, times, flags):
            if reset:
                prev, est = None, zero
            if prev is None:
                prev, t_prev = row, tk
            else:
                dt = tk - t_prev
                if dt > 0.0:
                    # dsros_hydro: a_k = alpha (nu_k - nu_{k-1}) / dt + (1 - alpha) a_{k-1}
                    est = [alpha * (x - p) / dt + beta * e for x, p, e in zip(row, prev, est)]
                    prev, t_prev = row, tk
            out.append(est)
        self._previous = None if prev is None else np.array(prev)
        self._time = t_prev
        self._estimate = np.array(est)
        return np.array(out).reshape(-1, self.size)
