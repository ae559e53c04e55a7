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
First estimates of added mass and drag from simple geometry (body x axis = long axis).

* Sphere: 1/2 rho V on each translation, zero rotational added mass (potential flow).
* Prolate spheroid (Lamb 1932, sec. 373; Newman 1977 table 4.2): with eccentricity
  e = sqrt(1 - (b/a)^2),
  alpha0 = 2 (1 - e^2)/e^3 (1/2 ln((1 + e)/(1 - e)) - e),
  beta0 = 1/e^2 - (1 - e^2)/(2 e^3) ln((1 + e)/(1 - e)),
  k1 = alpha0/(2 - alpha0), k2 = beta0/(2 - beta0),
  k' = e^4 (beta0 - alpha0)/((2 - e^2)(2 e^2 - (2 - e^2)(beta0 - alpha0))),
  added masses k1 m_f (surge), k2 m_f (sway, heave), k' I_f (pitch, yaw), with m_f
  the displaced fluid mass and I_f its transverse moment of inertia.
* Slender cylinder (strip theory): pi rho r^2 per unit length transverse.
* Quadratic drag: 1/2 rho Cd A.
"""
import math
from typing import Tuple

import numpy as np

# Below this eccentricity the closed forms cancel badly; use their power series.
_SERIES_E = 0.5
_SERIES_TERMS = 80


def _s_function(e: float) -> float:
    """Return (atanh(e) - e)/e^3 = sum_{n>=1} e^(2n-2)/(2n+1), stable for small e."""
    if e < _SERIES_E:
        e2 = e * e
        # Taylor series of atanh: atanh(e) - e = sum_{n>=1} e^(2n+1)/(2n+1)
        return sum(e2 ** (n - 1) / (2 * n + 1) for n in range(1, _SERIES_TERMS))
    return (math.atanh(e) - e) / e ** 3


def _difference_over_e2(e: float) -> float:
    """Return (beta0 - alpha0)/e^2, stable for small e."""
    if e < _SERIES_E:
        e2 = e * e
        # Series of 1 - 3 (1 - e^2) S(e) divided by e^2
        return sum(6.0 * e2 ** (n - 1) / ((2 * n + 1) * (2 * n + 3))
                   for n in range(1, _SERIES_TERMS))
    s = _s_function(e)
    return (1.0 - 3.0 * (1.0 - e * e) * s) / (e * e)


def lamb_coefficients(e: float) -> Tuple[float, float, float]:
    """
    Return Lamb's (alpha0, beta0) for a prolate spheroid of eccentricity e in [0, 1).

    Lamb 1932 sec. 373: alpha0 = 2 (1 - e^2)(atanh(e) - e)/e^3, beta0 = 1/e^2 -
    (1 - e^2) atanh(e)/e^3 (= 1 - (1 - e^2) S(e) with S = (atanh(e) - e)/e^3).
    """
    e = float(e)
    if not 0.0 <= e < 1.0:
        raise ValueError('eccentricity must be in [0, 1), got %r' % (e,))
    s = _s_function(e)
    # Lamb 1932 sec. 373: alpha0 = 2 (1 - e^2)/e^3 (atanh(e) - e)
    alpha0 = 2.0 * (1.0 - e * e) * s
    # Lamb 1932 sec. 373: beta0 = 1/e^2 - (1 - e^2)/e^3 atanh(e) = 1 - (1 - e^2) S
    beta0 = 1.0 - (1.0 - e * e) * s
    return alpha0, beta0


def lamb_k_factors(e: float) -> Tuple[float, float, float]:
    """Return Lamb's added-mass coefficients (k1, k2, k') of a prolate spheroid."""
    alpha0, beta0 = lamb_coefficients(e)
    e2 = float(e) ** 2
    # Lamb 1932 sec. 373: k1 = alpha0/(2 - alpha0), k2 = beta0/(2 - beta0)
    k1 = alpha0 / (2.0 - alpha0)
    k2 = beta0 / (2.0 - beta0)
    d = _difference_over_e2(float(e))
    # Lamb 1932 sec. 373: k' = e^4 (b0 - a0)/((2 - e^2)(2 e^2 - (2 - e^2)(b0 - a0))),
    # numerator and denominator divided by e^2 (b0 - a0 = e^2 d)
    k_rot = e2 * e2 * d / ((2.0 - e2) * (2.0 - (2.0 - e2) * d))
    return k1, k2, k_rot


def spheroid_eccentricity(length: float, diameter: float) -> float:
    """Return e = sqrt(1 - (b/a)^2) of a prolate spheroid (length >= diameter)."""
    a, b = 0.5 * float(length), 0.5 * float(diameter)
    if not (a > 0.0 and b > 0.0 and a >= b):
        raise ValueError('need length >= diameter > 0 for a prolate spheroid')
    # Eccentricity of the meridian ellipse
    return math.sqrt(max(0.0, 1.0 - (b / a) ** 2))


def sphere_added_mass(radius: float, fluid_density: float) -> np.ndarray:
    """Return the 6x6 added-mass matrix of a sphere: 1/2 rho V translation, 0 rotation."""
    volume = 4.0 / 3.0 * math.pi * float(radius) ** 3
    # Potential flow around a sphere: A = 1/2 rho V (Newman 1977 eq. 4.132)
    return np.diag([0.5 * float(fluid_density) * volume] * 3 + [0.0] * 3)


def prolate_spheroid_added_mass(length: float, diameter: float,
                                fluid_density: float) -> np.ndarray:
    """Return the 6x6 added-mass matrix of a prolate spheroid with its long axis along x."""
    a, b = 0.5 * float(length), 0.5 * float(diameter)
    rho = float(fluid_density)
    k1, k2, k_rot = lamb_k_factors(spheroid_eccentricity(length, diameter))
    # Displaced fluid mass m_f = rho 4/3 pi a b^2
    m_f = rho * 4.0 / 3.0 * math.pi * a * b * b
    # Displaced fluid transverse moment of inertia I_f = m_f (a^2 + b^2)/5
    i_f = m_f * (a * a + b * b) / 5.0
    # Lamb 1932 sec. 373: A11 = k1 m_f, A22 = A33 = k2 m_f, A55 = A66 = k' I_f
    return np.diag([k1 * m_f, k2 * m_f, k2 * m_f, 0.0, k_rot * i_f, k_rot * i_f])


def slender_cylinder_added_mass(radius: float, length: float,
                                fluid_density: float) -> np.ndarray:
    """
    Return the strip-theory 6x6 added mass of a slender cylinder along x (centred).

    Transverse pi rho r^2 L, pitch/yaw pi rho r^2 L^3/12, surge and roll zero.
    """
    r, h, rho = float(radius), float(length), float(fluid_density)
    # Strip theory (Newman 1977, Marine Hydrodynamics): 2-D circle added mass pi rho r^2 per length
    per_length = math.pi * rho * r * r
    # Integrate over the length: A22 = A33 = pi rho r^2 L, A55 = A66 = pi rho r^2 L^3/12
    return np.diag([0.0, per_length * h, per_length * h, 0.0, per_length * h ** 3 / 12.0,
                    per_length * h ** 3 / 12.0])


def quadratic_drag_coefficient(drag_coefficient: float, area: float,
                               fluid_density: float) -> float:
    """Return the quadratic drag coefficient 1/2 rho Cd A (force = coefficient |v| v)."""
    # Drag equation: F = 1/2 rho Cd A |v| v
    return 0.5 * float(fluid_density) * float(drag_coefficient) * float(area)


def diagonal_quadratic_drag(coefficients) -> np.ndarray:
    """Return the 6x6x6 tensor Q with Q[a, a, a] = coefficients[a] (decoupled model)."""
    q = np.zeros((6, 6, 6))
    idx = np.arange(6)
    # Decoupled quadratic drag: F_a = -Q_aaa |nu_a| nu_a
    q[idx, idx, idx] = np.asarray(coefficients, dtype=float).reshape(6)
    return q
