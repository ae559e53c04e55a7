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
Seabed contact: a compliant point contact with regularised Coulomb friction.

At every body-frame contact point p_i whose world point lies below the seabed surface
z = h(x, y), the penetration along the outward normal n is d = (h - z) n_z, and the
compiled derivative (``_contact.c``, at every RK4 stage) applies

    f_n = max(0, k d + c d_dot)              (Kelvin-Voigt, ODE / gz-physics kp, kd)
    f_t = -mu f_n v_t / max(|v_t|, v_s)      (regularised Coulomb, Drake's stiction tolerance)

Defaults (Drake, ``MultibodyPlantConfig``: ``penetration_allowance`` 1 mm and
``stiction_tolerance`` 1 mm/s; ``MultibodyPlant::set_penetration_allowance`` sets the
stiffness from the weight over the allowance and critical damping): the total stiffness
k_total = m g / delta (dry weight: the impact is inertial, and a vehicle may be almost
weightless in water), shared by the N points (k = k_total / N); the damping per point
c = 2 k / omega_max, critical in the stiffest mode omega_max of the vehicle resting
level on its lowest points (C = (c / k) K, stiffness proportional: a mode omega_i gets
zeta_i = omega_i / omega_max, so RK4 sees no over-damped mode faster than omega_max);
mu = 1, the SDF ``<surface><friction><ode><mu>`` default.

Bounds: at rest on flat ground on n of the points the penetration is
d_s = W_water / (k n) (W_water = (m - rho V) g); landing level at the speed v0 it is at
most 2 d_s + v0 / omega_heave (step and impulse responses of a damped oscillator,
omega_heave = sqrt(k n / m_heave)); on a slope th below the friction angle atan(mu)
the regularised friction creeps at |v_t| = v_s tan(th) / mu < v_s (Drake's slip
estimate v_t ~ v_s f_t / (mu f_n)); above it the vehicle slides with the acceleration
g_eff (sin th - mu cos th), g_eff = W_water / (m + A).
"""
from dataclasses import dataclass, field, replace
import math
from typing import Optional

import numpy as np

#: Drake MultibodyPlantConfig.penetration_allowance (m): the static penetration the
#: default stiffness gives under the vehicle's dry weight.
PENETRATION_ALLOWANCE = 1.0e-3
#: Drake MultibodyPlantConfig.stiction_tolerance (m/s): the regularisation speed v_s.
STICTION_TOLERANCE = 1.0e-3
#: SDF <surface><friction><ode><mu> default (gz-physics / ODE): the friction coefficient.
DEFAULT_FRICTION = 1.0


@dataclass
class ContactSpec:
    """
    What a description says about contact: the points and any overridden coefficient.

    ``points`` (N, 3) body-frame (m); ``radii`` (N,) their spheres' radii (m; None: 0,
    points); ``stiffness`` (N/m) and ``damping`` (N s/m) per
    point, None for the defaults of :func:`resolve`; ``friction`` mu; ``stiction_speed``
    v_s (m/s); ``source``: where the points came from (for ``check``).
    """

    points: np.ndarray
    stiffness: Optional[float] = None
    damping: Optional[float] = None
    friction: float = DEFAULT_FRICTION
    #: None: the least speed >= STICTION_TOLERANCE that keeps the explicit integration
    #: stable at the sub-steps the rest of the dynamics needs (stable_stiction_speed)
    stiction_speed: Optional[float] = None
    source: str = ''
    #: points' labels (shape and link), parallel to ``points``
    labels: list = field(default_factory=list)
    radii: Optional[np.ndarray] = None


@dataclass
class SeabedContact:
    """The resolved contact of one vehicle: per-point coefficients and its figures."""

    points: np.ndarray
    stiffness: float
    damping: float
    friction: float
    stiction_speed: float
    #: weight in water (m - rho V) g (N, positive: sinks)
    weight_in_water: float
    #: heave mass m + A_33 (kg)
    heave_mass: float
    #: radius of each point (m; a sphere's, 0 for a point)
    radii: np.ndarray = None

    def __post_init__(self):
        if self.radii is None:
            self.radii = np.zeros(len(self.points))

    def static_penetration(self, touching: Optional[int] = None) -> float:
        """Return W_water / (k n): the penetration at rest on flat ground on n points."""
        n = len(self.points) if touching is None else int(touching)
        return max(0.0, self.weight_in_water) / (self.stiffness * n)

    def friction_angle(self) -> float:
        """Return atan(mu) (rad): the steepest slope the vehicle rests on."""
        return math.atan(self.friction)

    def creep_speed(self, slope: float) -> float:
        """Return v_s tan(th) / mu: the regularised friction's creep on a slope th (rad)."""
        return self.stiction_speed * math.tan(slope) / self.friction

    def pack(self) -> np.ndarray:
        """Return the packed contact section [n, k, c, mu, v_s, (point, radius) (4 n)]."""
        head = [float(len(self.points)), self.stiffness, self.damping, self.friction,
                self.stiction_speed]
        rows = np.column_stack((np.asarray(self.points, float), self.radii))
        return np.concatenate((np.array(head), rows.reshape(-1)))

    def with_stiction_speed(self, speed: float) -> 'SeabedContact':
        """Return a copy with the regularisation speed v_s = ``speed`` (m/s)."""
        return replace(self, stiction_speed=float(speed))

    def linear_stiffness(self, mass, friction: bool = True) -> float:
        """
        Return the largest |eigenvalue| (1/s) of the contact linearised at rest, level.

        The lowest points on flat ground (:func:`touching_points`): the springs
        K = sum k J_i^T n n^T J_i and dampers C = sum J_i^T (c n n^T + (mu f_n / v_s)
        (I - n n^T)) J_i with J_i = [I, -S(p_i)] and f_n their share W_water / n of the
        weight in water (the regularised friction is viscous below v_s), in the
        first-order system [[0, I], [-M^-1 K, -M^-1 C]].  Other attitudes and impacts are
        the checked step's (a step it rejects is retried with more sub-steps).
        """
        lowest = touching_points(self.points, self.radii)
        viscous = self.friction * max(0.0, self.weight_in_water) / len(lowest) \
            / self.stiction_speed if friction else 0.0
        k_mat = self.stiffness * _normal_form(lowest)
        c_mat = self.damping * _normal_form(lowest) + viscous * _tangent_form(lowest)
        m_inv = np.linalg.inv(np.asarray(mass, float))
        # first-order form of M x'' + C x' + K x = 0
        system = np.block([[np.zeros((6, 6)), np.eye(6)], [-m_inv @ k_mat, -m_inv @ c_mat]])
        return float(np.max(np.abs(np.linalg.eigvals(system))))


def touching_points(points, radii) -> np.ndarray:
    """Return the lowest points, level (within 1 mm): those touching flat ground at rest."""
    # a sphere touches at its centre minus its radius along z
    lowest = np.asarray(points, float) - np.outer(radii, [0.0, 0.0, 1.0])
    return lowest[lowest[:, 2] <= lowest[:, 2].min() + 1e-3]


def _jacobian(p) -> np.ndarray:
    """Return J = [I, -S(p)]: the point velocity v + w x p = J nu."""
    skew = np.array([[0.0, -p[2], p[1]], [p[2], 0.0, -p[0]], [-p[1], p[0], 0.0]])
    return np.hstack((np.eye(3), -skew))


def _normal_form(points) -> np.ndarray:
    """Return sum J_i^T n n^T J_i, n = z (the unit springs of the points, level)."""
    # J^T e_z e_z^T J: the outer product of J's z row
    rows = [_jacobian(p)[2] for p in points]
    return sum(np.outer(r, r) for r in rows)


def _tangent_form(points) -> np.ndarray:
    """Return sum J_i^T (I - n n^T) J_i, n = z (unit tangential dampers, level)."""
    return sum(np.outer(j[a], j[a]) for j in map(_jacobian, points) for a in (0, 1))


def resolve(spec: ContactSpec, params, mass_matrix) -> SeabedContact:
    """
    Return the :class:`SeabedContact` of ``spec`` for the vehicle ``params``.

    Defaults (module docstring): k = m g / (delta N), c = 2 k / omega_max.
    """
    points = np.asarray(spec.points, float).reshape(-1, 3)
    n = len(points)
    if n == 0:
        raise ValueError('seabed contact: no contact points')
    heave = float(params.mass + max(0.0, float(np.asarray(mass_matrix)[2, 2]) - params.mass))
    # Drake set_penetration_allowance: k_total = m g / delta
    k_total = params.mass * params.gravity / PENETRATION_ALLOWANCE
    k = spec.stiffness if spec.stiffness is not None else k_total / n
    radii = np.zeros(n) if spec.radii is None else np.asarray(spec.radii, float).reshape(n)
    if spec.damping is not None:
        c = spec.damping
    else:
        # stiffness-proportional damping C = (c / k) K, critical (zeta = 1) in the
        # stiffest mode of the lowest points: zeta_i = (c / k) omega_i / 2, c = 2 k / w_max
        forms = np.linalg.solve(np.asarray(mass_matrix, float),
                                k * _normal_form(touching_points(points, radii)))
        omega = math.sqrt(max(float(np.max(np.real(np.linalg.eigvals(forms)))), 0.0))
        c = 2.0 * k / omega
    return SeabedContact(points=points, stiffness=float(k), damping=float(c),
                         friction=float(spec.friction),
                         stiction_speed=float(STICTION_TOLERANCE if spec.stiction_speed
                                              is None else spec.stiction_speed),
                         weight_in_water=float(params.weight() - params.buoyancy()),
                         heave_mass=heave, radii=radii)


def stable_stiction_speed(contact: SeabedContact, mass, rate: float) -> float:
    """
    Return the least v_s >= the contact's whose linearised contact is within ``rate`` (1/s).

    Below v_s the regularised friction is a viscous damper mu f_n / v_s per point: an
    explicit RK4 sub-step h is stable for it while its rate times h stays within the
    stability region, so v_s is raised (the creep v_s tan(th) / mu grows with it) until
    the contact's stiffest mode is no faster than ``rate`` (the rest of the dynamics').
    """
    speed = contact.stiction_speed
    for _ in range(60):
        lam = contact.with_stiction_speed(speed).linear_stiffness(mass)
        if lam <= rate:
            break
        # the viscous friction's rate is ~ 1 / v_s: scale v_s by the excess, a margin on
        speed *= 1.05 * lam / rate
    return speed
