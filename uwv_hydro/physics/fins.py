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
Lift and drag of control surfaces (fins), each a revolute joint with a lift/drag model.

Per fin and state (gz-sim LiftDrag's geometry, all vectors in the body frame):

* the deflection delta rotates the fin's ``cp``, ``forward`` f and ``upward`` u about
  its joint ``axis`` k (Rodrigues: v' = v cos d + (k x v) sin d + k (k.v)(1 - cos d));
* the fin's velocity through the water at its centre of pressure r = position + cp' is
  v = v_r + w x r, with nu_r = nu - nu_c the body twist relative to the water
  (Fossen 2011 eq. 7.236: the twist moved to the point);
* s = f' x u' (spanwise), v_p = v - (v.s) s the flow in the fin's lift/drag plane;
  alpha = a0 + atan2(-v.u', v.f') wrapped into [-pi/2, pi/2] (so alpha = delta + the
  flow angle when k = s), dynamic pressure q = 1/2 rho |v_p|^2;
* lift acts along s x v_p / |v_p| (perpendicular to the flow), drag along -v_p / |v_p|;
* model ``two_line`` (gz-sim LiftDrag): below the stall C_L = cla alpha, C_D = |cda alpha|;
  past +-alpha_stall the slopes become cla_stall and cda_stall (C_L kept on its side of
  zero); both are scaled by 1 - sin^2(sweep) like gz-sim, plus
  control_joint_rad_to_cl * delta on C_L; L = C_L q area, D = C_D q area;
* model ``quadratic`` (uuv_simulator): L = lift_constant alpha |v_p|^2,
  D = drag_constant alpha^2 |v_p|^2;
* no force below 1 cm/s (gz-sim) or without in-plane flow;
* the force F acting at r is moved to the body origin: [F, r x F] (Fossen 2011
  eq. 7.x, tau_O = H(r)^T tau_r).

Fin rates (delta_dot) are not in the flow: a quasi-steady model, as gz-sim and uuv.
"""
import math
from typing import Sequence, Tuple

import numpy as np

from uwv_hydro.physics.vehicle_params import Fin, FIN_MODELS

#: Below this fin speed through the water (m/s) the fin has no force (gz-sim LiftDrag).
MIN_SPEED = 0.01


def _unit_rows(a: np.ndarray, what: str, names: Sequence[str]) -> np.ndarray:
    """Return the rows of (K, 3) ``a`` scaled to unit length (ValueError if zero)."""
    norm = np.linalg.norm(a, axis=1)
    bad = [n for n, v in zip(names, norm) if not v > 1e-12 or not np.isfinite(v)]
    if bad:
        raise ValueError('fin %s: %s must be a nonzero finite vector' % (bad[0], what))
    return a / norm[:, None]


class FinSet:
    """The fins of one vehicle, evaluated together (vectorised over states and fins)."""

    def __init__(self, fins: Sequence[Fin], fluid_density: float):
        self.names = [f.name for f in fins]
        names = self.names
        for f in fins:
            if f.model not in FIN_MODELS:
                raise ValueError("fin %s: model must be one of %s, got '%s'"
                                 % (f.name, ', '.join(FIN_MODELS), f.model))
        self.count = len(fins)
        self.rho = float(fluid_density)

        def rows(attr):
            return np.array([np.asarray(getattr(f, attr), float).reshape(3) for f in fins]
                            ).reshape(-1, 3)

        def column(attr):
            return np.array([float(getattr(f, attr)) for f in fins])

        k = _unit_rows(rows('axis'), 'axis', names)
        forward = _unit_rows(rows('forward'), 'forward', names)
        upward = _unit_rows(rows('upward'), 'upward', names)
        dots = np.abs(np.einsum('ki,ki->k', forward, upward))
        if np.any(dots > 1e-6):
            bad = names[int(np.argmax(dots))]
            raise ValueError('fin %s: forward and upward must be perpendicular' % bad)
        span = np.cross(forward, upward)
        #: Joint origins, component-major (3, K).
        self.position = rows('position').T.copy()
        # Rodrigues split v(d) = par + perp cos d + kxv sin d, component-major (3, 3, K)
        self._rot = {}
        for key, v in (('cp', rows('cp')), ('f', forward), ('u', upward), ('s', span)):
            par = k * np.einsum('ki,ki->k', k, v)[:, None]
            self._rot[key] = np.array([par.T, (v - par).T, np.cross(k, v).T])
        self.two_line = np.array([f.model == 'two_line' for f in fins])
        self.area = column('area')
        self.cla, self.cda = column('cla'), column('cda')
        self.alpha_stall = column('alpha_stall')
        self.cla_stall, self.cda_stall = column('cla_stall'), column('cda_stall')
        self.a0 = column('a0')
        self.k_cl = column('control_joint_rad_to_cl')
        self.lift_constant = column('lift_constant')
        self.drag_constant = column('drag_constant')
        # Per-fin floats of the one-state evaluation (:meth:`wrench`): Python floats beat
        # numpy's per-call overhead for a handful of fins
        self._one = []
        for j in range(self.count):
            vectors = [float(c) for c in self.position[:, j]]
            for key in ('cp', 'f', 'u', 's'):
                vectors += [float(c) for c in self._rot[key][:, :, j].reshape(9)]
            self._one.append((vectors, bool(self.two_line[j]), *(float(a[j]) for a in (
                self.area, self.cla, self.cda, self.alpha_stall, self.cla_stall,
                self.cda_stall, self.a0, self.k_cl, self.lift_constant, self.drag_constant))))

    def _rotated(self, key: str, cos: np.ndarray, sin: np.ndarray) -> np.ndarray:
        """Return vector ``key`` of every fin rotated by its deflection, (3, N, K)."""
        par, perp, kxv = self._rot[key]
        # Rodrigues' rotation formula about the joint axis
        return par[:, None, :] + perp[:, None, :] * cos + kxv[:, None, :] * sin

    def angles_array(self, angles, n: int) -> np.ndarray:
        """Return deflections as (n, K) (None: zero; (K,) is used for every state)."""
        if angles is None:
            return np.zeros((n, self.count))
        a = np.asarray(angles, dtype=float)
        if a.shape == (self.count,):
            return np.broadcast_to(a, (n, self.count))
        if a.shape != (n, self.count):
            raise ValueError('fin angles must be (%d,) or (%d, %d), got shape %s'
                             % (self.count, n, self.count, a.shape))
        return a

    def forces(self, nu_r, angles=None) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """
        Return the centres of pressure, forces and angles of attack for N relative twists.

        Shapes: points (N, K, 3), forces (N, K, 3), alpha (N, K).

        ``nu_r``: (N, 6) or (6,) body twists relative to the water; ``angles``: fin
        deflections (K,) or (N, K) in radians (None: zero).  Points and forces are in
        the body frame; alpha is the angle of attack of each fin.
        """
        r, force, alpha = self._forces(nu_r, angles)
        return r.transpose(1, 2, 0), force.transpose(1, 2, 0), alpha

    def _forces(self, nu_r, angles):
        """Return points and forces component-major (3, N, K) and alpha (N, K)."""
        nu_r = np.asarray(nu_r, dtype=float).reshape(-1, 6)
        delta = self.angles_array(angles, nu_r.shape[0])
        cos, sin = np.cos(delta), np.sin(delta)
        r = self.position[:, None, :] + self._rotated('cp', cos, sin)
        f = self._rotated('f', cos, sin)
        u = self._rotated('u', cos, sin)
        s = self._rotated('s', cos, sin)
        vx, vy, vz, wx, wy, wz = (c[:, None] for c in nu_r.T)
        # Velocity of the centre of pressure through the water: v_r + w x r
        v = np.array([vx + wy * r[2] - wz * r[1], vy + wz * r[0] - wx * r[2],
                      vz + wx * r[1] - wy * r[0]])
        speed2 = (v * v).sum(axis=0)
        vs = (v * s).sum(axis=0)
        # Flow in the lift/drag plane: v - (v.s) s
        v_p = v - vs * s
        p2 = (v_p * v_p).sum(axis=0)
        active = (speed2 > MIN_SPEED * MIN_SPEED) & (p2 > 1e-24)
        # gz-sim LiftDrag: alpha = a0 + angle between the in-plane flow and forward
        alpha = self.a0 + np.arctan2(-(v * u).sum(axis=0), (v * f).sum(axis=0))
        alpha = np.mod(alpha + 0.5 * np.pi, np.pi) - 0.5 * np.pi
        # gz-sim LiftDrag sweep correction 1 - sin^2(sweep), sin(sweep) = s.v / |v|
        sweep = 1.0 - np.minimum(vs * vs / np.where(active, speed2, 1.0), 1.0)
        lift, drag = self._coefficients(alpha, sweep, delta)
        # Dynamic pressure q = 1/2 rho |v_p|^2 times the area (two-line model)
        qa = 0.5 * self.rho * p2 * self.area
        lift_force = np.where(self.two_line, lift * qa, self.lift_constant * alpha * p2)
        drag_force = np.where(self.two_line, drag * qa,
                              self.drag_constant * alpha * alpha * p2)
        inv = np.where(active, 1.0 / np.sqrt(np.where(active, p2, 1.0)), 0.0)
        # Lift along s x v_p / |v_p| (perpendicular to the flow), drag along -v_p / |v_p|
        lift_dir = np.array([s[1] * v_p[2] - s[2] * v_p[1], s[2] * v_p[0] - s[0] * v_p[2],
                             s[0] * v_p[1] - s[1] * v_p[0]])
        force = (lift_force * inv) * lift_dir - (drag_force * inv) * v_p
        return r, force, alpha

    def _coefficients(self, alpha, sweep, delta):
        """Return the two-line (C_L, C_D) of gz-sim LiftDrag for alpha (N, K)."""
        a_s = self.alpha_stall
        # gz-sim LiftDrag: two lines, slope cla (cda) below the stall, cla_stall past it
        cl = np.where(
            alpha > a_s, np.maximum((self.cla * a_s + self.cla_stall * (alpha - a_s)) * sweep,
                                    0.0),
            np.where(alpha < -a_s,
                     np.minimum((-self.cla * a_s + self.cla_stall * (alpha + a_s)) * sweep,
                                0.0),
                     self.cla * alpha * sweep))
        cd = np.abs(np.where(
            alpha > a_s, self.cda * a_s + self.cda_stall * (alpha - a_s),
            np.where(alpha < -a_s, -self.cda * a_s + self.cda_stall * (alpha + a_s),
                     self.cda * alpha)) * sweep)
        # gz-sim: C_L += control_joint_rad_to_cl * joint position
        return cl + self.k_cl * delta, cd

    def wrench_many(self, nu_r, angles=None) -> np.ndarray:
        """Return the fins' body wrenches about the origin, (N, 6), for N relative twists."""
        r, f, _ = self._forces(nu_r, angles)
        out = np.empty((f.shape[1], 6))
        out[:, :3] = f.sum(axis=2).T
        # Force at r moved to the origin: torque r x F (Fossen 2011, tau_O = H(r)^T tau_r)
        out[:, 3] = (r[1] * f[2] - r[2] * f[1]).sum(axis=1)
        out[:, 4] = (r[2] * f[0] - r[0] * f[2]).sum(axis=1)
        out[:, 5] = (r[0] * f[1] - r[1] * f[0]).sum(axis=1)
        return out

    def wrench(self, nu_r, angles=None) -> np.ndarray:
        """
        Return the fins' body wrench about the origin (6,) for one relative twist.

        The same model as :meth:`wrench_many`, in plain floats (the integrator's hot path).
        """
        vx, vy, vz, wx, wy, wz = (float(v) for v in np.asarray(nu_r, dtype=float).reshape(6))
        if angles is None:
            deltas = [0.0] * self.count
        else:
            deltas = [float(a) for a in np.asarray(angles, dtype=float).reshape(self.count)]
        out = [0.0] * 6
        half_rho = 0.5 * self.rho
        for (vec, two_line, area, cla, cda, a_s, cla_s, cda_s, a0, k_cl, k_lift,
             k_drag), delta in zip(self._one, deltas):
            c, sn = math.cos(delta), math.sin(delta)
            # Rodrigues' rotation of cp, forward, upward, spanwise about the joint axis
            r0 = vec[0] + vec[3] + vec[6] * c + vec[9] * sn
            r1 = vec[1] + vec[4] + vec[7] * c + vec[10] * sn
            r2 = vec[2] + vec[5] + vec[8] * c + vec[11] * sn
            f0 = vec[12] + vec[15] * c + vec[18] * sn
            f1 = vec[13] + vec[16] * c + vec[19] * sn
            f2 = vec[14] + vec[17] * c + vec[20] * sn
            u0 = vec[21] + vec[24] * c + vec[27] * sn
            u1 = vec[22] + vec[25] * c + vec[28] * sn
            u2 = vec[23] + vec[26] * c + vec[29] * sn
            s0 = vec[30] + vec[33] * c + vec[36] * sn
            s1 = vec[31] + vec[34] * c + vec[37] * sn
            s2 = vec[32] + vec[35] * c + vec[38] * sn
            # Velocity of the centre of pressure through the water: v_r + w x r
            v0 = vx + wy * r2 - wz * r1
            v1 = vy + wz * r0 - wx * r2
            v2 = vz + wx * r1 - wy * r0
            speed2 = v0 * v0 + v1 * v1 + v2 * v2
            vs = v0 * s0 + v1 * s1 + v2 * s2
            # Flow in the lift/drag plane: v - (v.s) s
            p0, p1, p2 = v0 - vs * s0, v1 - vs * s1, v2 - vs * s2
            pp = p0 * p0 + p1 * p1 + p2 * p2
            if not (speed2 > MIN_SPEED * MIN_SPEED and pp > 1e-24):
                continue
            # gz-sim LiftDrag: alpha = a0 + angle between the in-plane flow and forward
            alpha = a0 + math.atan2(-(v0 * u0 + v1 * u1 + v2 * u2), v0 * f0 + v1 * f1 + v2 * f2)
            alpha = (alpha + 0.5 * math.pi) % math.pi - 0.5 * math.pi
            if two_line:
                # gz-sim sweep correction 1 - sin^2(sweep) and the two-line coefficients
                sweep = 1.0 - min(vs * vs / speed2, 1.0)
                if alpha > a_s:
                    cl = max((cla * a_s + cla_s * (alpha - a_s)) * sweep, 0.0)
                    cd = (cda * a_s + cda_s * (alpha - a_s)) * sweep
                elif alpha < -a_s:
                    cl = min((-cla * a_s + cla_s * (alpha + a_s)) * sweep, 0.0)
                    cd = (-cda * a_s + cda_s * (alpha + a_s)) * sweep
                else:
                    cl = cla * alpha * sweep
                    cd = cda * alpha * sweep
                # L = C_L q A, D = |C_D| q A with q = 1/2 rho |v_p|^2
                qa = half_rho * pp * area
                lift, drag = (cl + k_cl * delta) * qa, abs(cd) * qa
            else:
                # uuv_simulator quadratic model
                lift, drag = k_lift * alpha * pp, k_drag * alpha * alpha * pp
            inv = 1.0 / math.sqrt(pp)
            # Lift along s x v_p / |v_p|, drag along -v_p / |v_p|
            a, b = lift * inv, drag * inv
            g0 = a * (s1 * p2 - s2 * p1) - b * p0
            g1 = a * (s2 * p0 - s0 * p2) - b * p1
            g2 = a * (s0 * p1 - s1 * p0) - b * p2
            out[0] += g0
            out[1] += g1
            out[2] += g2
            # Force at r moved to the origin: torque r x F (Fossen 2011)
            out[3] += r1 * g2 - r2 * g1
            out[4] += r2 * g0 - r0 * g2
            out[5] += r0 * g1 - r1 * g0
        return np.array(out)
