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
Rigid-body mass matrix M_RB and Coriolis-centripetal matrix C_RB about the body origin.

Mass matrix (Fossen 2021 ch. 3, r_g = centre of mass in the body frame)::

    M_RB = [[ m I,      -m S(r_g) ],
            [ m S(r_g),  I_o      ]],   I_o = I_g - m S(r_g)^2
                                            = I_g + m (|r_g|^2 I - r_g r_g^T)

The off-diagonal blocks are exactly the body matrix of the SDF fluid-added-mass
proposal (seed 000, ``Inertial::BodyMatrix``: upper right m [[0, z, -y], [-z, 0, x],
[y, -x, 0]] = -m S(r_g)).  That proposal writes the lower-right block with the
``<inertia>`` values, i.e. the inertia about the centre of mass.  An origin-referenced
spatial inertia needs the inertia about the ORIGIN, so here the lower-right block
is the parallel-axis form I_o = I_g + m (|r|^2 I - r r^T) (Steiner).  This is the
only matrix for which ``0.5 nu^T M_RB nu`` is the kinetic energy of the body moving
with the origin twist ``nu``; both forms agree when the CoM is at the origin.

Coriolis-centripetal matrix (Fossen 2021 Theorem 3.2, from the M_RB blocks)::

    C_RB(nu) = [[ 0,                -S(M11 v + M12 w) ],
                [ -S(M11 v + M12 w), -S(M21 v + M22 w) ]]

which is skew-symmetric, so nu^T C_RB(nu) nu = 0.
"""
import numpy as np

from uwv_hydro.physics.spatial.rotation import cross, skew


def rigid_body_mass_matrix(mass: float, inertia_com, com) -> np.ndarray:
    """
    Return the 6x6 rigid-body mass matrix M_RB about the body origin.

    ``inertia_com`` is the 3x3 inertia about the centre of mass in body axes and
    ``com`` the centre of mass in the body frame.
    """
    m = float(mass)
    r = np.asarray(com, dtype=float)
    i_g = np.asarray(inertia_com, dtype=float).reshape(3, 3)
    s = skew(r)
    out = np.zeros((6, 6))
    # Fossen 2021 ch. 3: M_RB = [[m I, -m S(r_g)], [m S(r_g), I_o]]
    out[:3, :3] = m * np.eye(3)
    out[:3, 3:] = -m * s
    out[3:, :3] = m * s
    # Parallel-axis theorem (Fossen 2021 ch. 3): I_o = I_g - m S(r_g)^2
    out[3:, 3:] = i_g - m * (s @ s)
    return out


def coriolis_matrix(mass_matrix, nu) -> np.ndarray:
    """
    Return the Coriolis-centripetal matrix C(nu) of a 6x6 mass matrix (skew form).

    Works for M_RB (Fossen 2021 Theorem 3.2) and, with the same formula, for
    added mass (Fossen 2011 eq. 6.43); the result is skew-symmetric for any M.
    """
    m = np.asarray(mass_matrix, dtype=float)
    nu = np.asarray(nu, dtype=float)
    # Fossen 2021 Theorem 3.2: a1 = M11 v + M12 w, a2 = M21 v + M22 w
    a1 = m[:3, :] @ nu
    a2 = m[3:, :] @ nu
    s1 = skew(a1)
    out = np.zeros((6, 6))
    # Fossen 2021 Theorem 3.2: C = [[0, -S(a1)], [-S(a1), -S(a2)]]
    out[:3, 3:] = -s1
    out[3:, :3] = -s1
    out[3:, 3:] = -skew(a2)
    return out


def coriolis_wrench(mass_matrix, nu) -> np.ndarray:
    """
    Return -C(nu) nu without building C: [a1 x w, a1 x v + a2 x w].

    Same a1, a2 as :func:`coriolis_matrix` (Fossen 2021 Theorem 3.2).
    """
    m = np.asarray(mass_matrix, dtype=float)
    nu = np.asarray(nu, dtype=float)
    # Fossen 2021 Theorem 3.2: a = M nu, split in a1 (force) and a2 (moment) parts
    a = m @ nu
    a1, a2 = a[:3], a[3:]
    v, w = nu[:3], nu[3:]
    # Kirchhoff: -C(nu) nu = [-(w x a1), -(w x a2) - (v x a1)]
    return np.concatenate((cross(a1, w), cross(a1, v) + cross(a2, w)))


def rigid_body_coriolis(mass_matrix_rb, nu) -> np.ndarray:
    """Return C_RB(nu) (Fossen 2021 Theorem 3.2) for the origin-referenced M_RB."""
    # Fossen 2021 Theorem 3.2: C_RB(nu) from the blocks of M_RB
    return coriolis_matrix(mass_matrix_rb, nu)


def kinetic_energy(mass_matrix, nu) -> float:
    """Return 0.5 nu^T M nu."""
    nu = np.asarray(nu, dtype=float)
    # Fossen 2021 ch. 3 (with M = M_RB + M_A): T = 1/2 nu^T M nu
    return 0.5 * float(nu @ np.asarray(mass_matrix, dtype=float) @ nu)
