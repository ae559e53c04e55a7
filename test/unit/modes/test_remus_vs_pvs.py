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
config/remus100.yaml flown beside Fossen's PythonVehicleSimulator (PVS) remus100.

PVS's remus100 (PythonVehicleSimulator, src/python_vehicle_simulator/vehicles/
remus100.py, 2024 revision: +-15 deg fins, 0.1 s servo lag; lib/gnc.py for the cross-flow
drag, hull lift/drag, Coriolis and restoring terms) is re-derived below from its
equations (Fossen 2021, Handbook of Marine Craft Hydrodynamics, ch. 8 and sec. 6.7):
prolate spheroid of 1.6 m x 0.19 m, Lamb's k-factors for its added mass, the Munk terms
of C_A removed, linear damping from time constants, Beard & McLain's lift/drag of the
hull in the vertical plane, 21-point strip cross-flow drag with Hoerner's coefficient,
single tail rudder and stern-plane pair with lift L = 1/2 rho U^2 A C_L delta, and the
Wageningen-fitted propeller.  NED/FRD, forward Euler at the sample time as PVS does.

Both vehicles fly the same manoeuvres (uwv_hydro.modes.manoeuvres.manoeuvre: the same rudder laws,
the same stern-plane depth hold at 5 m, 0.02 s steps) from 1.5 m/s, each at the propeller
speed that holds 1.5 m/s straight (the REMUS file's propeller has PVS's open-water curves,
so its thrust grows as it slows in a turn).  The figures (turning circles at two rudder
angles: diameters, advance, transfer, yaw rate, speed; the 10/10 zig-zag: overshoots,
period, time to the first reversal) must agree within 25 %, the speed in the turn within
10 % (at fixed thrust it lost 15-20 % where PVS loses 1 %).

The drift angle is compared with PVS given its own hull lift in the horizontal plane
too: PVS's lift (Beard & McLain) acts on the angle of attack only and its fins do not see
the sideslip, so nothing but the cross-flow drag resists sway in its turns.  The REMUS
file's linear sway and yaw derivatives are Fodrea's planar-motion-mechanism values
(Sgarioto's REMUS set in Hall & Anstee 2011, DSTO-TR-2576), checked here too.
"""
import math

import numpy as np
import pytest

from uwv_hydro.description.loader import load_vehicle
from uwv_hydro.modes.manoeuvres.manoeuvre import DepthHold, Flight, Manoeuvre
from uwv_hydro.physics.hydro.hydro_model import HydroModel

import pathlib  # noqa: I100

REMUS = pathlib.Path(__file__).resolve().parents[3] / 'config' / 'remus100.yaml'
D2R = math.pi / 180.0


def _skew(a):
    """Return S(a): S(a) b = a x b."""
    return np.array([[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]])


def _cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def _coriolis_force(m, nu):
    """C(nu) nu of a symmetric mass matrix (Fossen 2021 eq. 3.46): [w x p1, v x p1 + w x p2]."""
    p = (m @ nu).tolist()  # [p1, p2] = M nu, the momenta
    v, w = nu[:3].tolist(), nu[3:].tolist()
    a, b, c = _cross(w, p[:3]), _cross(v, p[:3]), _cross(w, p[3:])
    return [a[0], a[1], a[2], b[0] + c[0], b[1] + c[1], b[2] + c[2]]


class PvsRemus100:
    """PVS remus100 (2024): parameters and nu_dot, written from its equations."""

    rho, g = 1026.0, 9.81
    length, diam = 1.6, 0.19
    delta_max, t_delta = 15 * D2R, 0.1

    def __init__(self):
        a, b = self.length / 2, self.diam / 2
        self.a = a
        m = 4.0 / 3.0 * math.pi * self.rho * a * b * b  # displaced spheroid, neutral
        ix, iy = 0.4 * m * b * b, 0.2 * m * (a * a + b * b)
        r_g = np.array([0.0, 0.0, 0.02])
        h = np.eye(6)
        h[:3, 3:] = -_skew(r_g)  # Fossen eq. 7.x: M_RB at CO = H^T M_CG H
        self.m_rb = h.T @ np.diag([m, m, m, ix, iy, iy]) @ h
        # Lamb's k-factors of a prolate spheroid (Lamb 1932; Fossen 2021 sec. 8.4.2)
        e = math.sqrt(1.0 - (b / a) ** 2)
        log = math.log((1 + e) / (1 - e))
        alpha0 = 2.0 * (1 - e * e) / e ** 3 * (0.5 * log - e)
        beta0 = 1.0 / e ** 2 - (1 - e * e) / (2 * e ** 3) * log
        k1, k2 = alpha0 / (2 - alpha0), beta0 / (2 - beta0)
        kp = e ** 4 * (beta0 - alpha0) / ((2 - e * e) * (2 * e * e - (2 - e * e)
                                                         * (beta0 - alpha0)))
        self.m_a = np.diag([m * k1, m * k2, m * k2, 0.3 * ix, kp * iy, kp * iy])
        self.mass = self.m_rb + self.m_a
        self.m_inv = np.linalg.inv(self.mass)
        self.weight = m * self.g
        self.z_g = 0.02
        w_roll = math.sqrt(self.weight * self.z_g / self.mass[3, 3])
        w_pitch = math.sqrt(self.weight * self.z_g / self.mass[4, 4])
        mm = np.diag(self.mass)
        # linear damping from time constants and damping ratios (PVS remus100)
        self.xs = np.linspace(-self.length / 2, self.length / 2, 21)
        self.d_lin = np.array([mm[0] / 20, mm[1] / 20, mm[2] / 20, mm[3] * 2 * 0.3 * w_roll,
                               mm[4] * 2 * 0.8 * w_pitch, mm[5] / 1.0])
        self.s_ref = 0.7 * self.length * self.diam
        self.cd0 = 0.42 * math.pi * b * b / self.s_ref  # Allen et al. 2000 C_d = 0.42
        s_fin = 0.00665
        self.rudder = (0.5, 2 * s_fin)  # (C_L delta, area), at x = -a
        self.stern = (0.7, 2 * s_fin)
        # Hoerner's 2-D cross-flow coefficient at B/2T = 0.5 (Leite et al. 1998 table)
        self.cd_2d = float(np.interp(0.5, [0.4933, 0.5585], [1.2108, 1.0836]))
        self.k_cf = 0.5 * self.rho * self.diam * self.cd_2d * self.length / 20

    def lift_coefficient(self, angle):
        """Hull lift coefficient C_L of PVS's forceLiftDrag (Beard & McLain 2012)."""
        ar = self.diam ** 2 / self.s_ref
        return math.pi * ar / (1 + math.sqrt(1 + (ar / 2) ** 2)) * angle

    def propeller(self, n_rpm, speed):
        """(thrust X, roll torque K) of the 0.14 m Wageningen B-3.72 fit (Allen 2000)."""
        d, n = 0.14, n_rpm / 60.0
        va, j_max = 0.944 * speed, 0.6632
        kt0, kq0, kt1, kq1 = 0.4566, 0.0700, 0.1798, 0.0312
        if n > 0:
            x = self.rho * d ** 4 * (kt0 * abs(n) * n + (kt1 - kt0) / j_max * va / d * abs(n))
            k = self.rho * d ** 5 * (kq0 * abs(n) * n + (kq1 - kq0) / j_max * va / d * abs(n))
        else:
            x = self.rho * d ** 4 * kt0 * abs(n) * n
            k = self.rho * d ** 5 * kq0 * abs(n) * n
        return x, k

    def nu_dot(self, eta, nu, delta_r, delta_s, n_rpm):
        """Return the body acceleration (FRD) of PVS's remus100 in still water."""
        u, v, w = nu[:3]
        speed = math.sqrt(u * u + v * v + w * w)
        alpha = math.atan2(w, u)
        delta_r = max(-self.delta_max, min(self.delta_max, delta_r))
        delta_s = max(-self.delta_max, min(self.delta_max, delta_s))
        x_prop, k_prop = self.propeller(n_rpm, speed)
        # C_A(nu) nu without the entries PVS sets to zero (the Munk terms: C_A[4, 0],
        # [0, 4], [4, 2], [2, 4], [5, 0], [0, 5], [5, 1], [1, 5] of the diagonal M_A)
        m11, m22, m33 = self.m_a[0, 0], self.m_a[1, 1], self.m_a[2, 2]
        p, q, r = nu[3:]
        munk = [m33 * w * q - m22 * v * r, m11 * u * r, -m11 * u * q, 0.0,
                m11 * u * w - m33 * w * u, m22 * v * u - m11 * u * v]
        c_full = _coriolis_force(self.m_rb + self.m_a, nu)  # C_RB + C_A: linear in M
        c_nu = [c_full[i] - munk[i] for i in range(6)]
        d = self.d_lin.copy()
        d[:2] *= math.exp(-3.0 * speed)  # surge/sway linear damping fades with speed
        # hull lift and drag in the vertical plane (Beard & McLain 2012, e = 0.7)
        ar = self.diam ** 2 / self.s_ref
        cl = self.lift_coefficient(alpha)
        cd = self.cd0 + cl * cl / (math.pi * 0.7 * ar)
        q_s = 0.5 * self.rho * speed * speed * self.s_ref
        f_d, f_l = q_s * cd, q_s * cl
        tau_ld = [-math.cos(alpha) * f_d + math.sin(alpha) * f_l, 0.0,
                  -math.sin(alpha) * f_d - math.cos(alpha) * f_l, 0.0, 0.0, 0.0]
        # 21 strips of L/20 from -L/2 to L/2 (PVS crossFlowDrag)
        xs = self.xs
        cf = v + xs * nu[5]
        k_cf = self.k_cf
        y_h = -k_cf * float(np.sum(np.abs(cf) * cf))
        n_h = -k_cf * float(np.sum(xs * np.abs(cf) * cf))
        tau_cf = [0.0, y_h, 0.0, 0.0, 0.0, n_h]
        phi, theta = eta[3], eta[4]
        # restoring forces, W = B, CB at the CO (Fossen 2021 eq. 4.6)
        gv = [0.0, 0.0, 0.0, self.z_g * self.weight * math.cos(theta) * math.sin(phi),
              self.z_g * self.weight * math.sin(theta), 0.0]
        u_h2, u_v2 = u * u + v * v, u * u + w * w
        kr = 0.5 * self.rho * self.rudder[1] * self.rudder[0]
        ks = 0.5 * self.rho * self.stern[1] * self.stern[0]
        y_r, z_s = -kr * u_h2 * delta_r, -ks * u_v2 * delta_s
        tau = [0.9 * x_prop - kr * u_h2 * delta_r ** 2 - ks * u_v2 * delta_s ** 2,
               y_r, z_s, k_prop / 10.0, self.a * z_s, -self.a * y_r]
        total = [tau[i] + tau_ld[i] + tau_cf[i] - c_nu[i] - d[i] * nu[i] - gv[i]
                 for i in range(6)]
        return self.m_inv @ np.array(total)

    def trim_rpm(self, speed):
        """Propeller rpm holding ``speed`` straight and level (bisection on X = 0)."""
        lo, hi = 0.0, 1525.0
        nu = np.array([speed, 0, 0, 0, 0, 0.0])
        for _ in range(60):
            mid = 0.5 * (lo + hi)
            if self.nu_dot(np.zeros(6), nu, 0.0, 0.0, mid)[0] > 0:
                hi = mid
            else:
                lo = mid
        return 0.5 * (lo + hi)


class PvsSwayLift(PvsRemus100):
    """PVS remus100 with its hull lift (Beard & McLain) on the sideslip angle as well."""

    def nu_dot(self, eta, nu, delta_r, delta_s, n_rpm):
        """Return PVS's nu_dot plus its forceLiftDrag lift turned into the horizontal plane."""
        u, v, w = nu[:3]
        speed = math.sqrt(u * u + v * v + w * w)
        beta = math.atan2(v, u)
        f_l = 0.5 * self.rho * speed * speed * self.s_ref * self.lift_coefficient(beta)
        lift = np.array([math.sin(beta) * f_l, -math.cos(beta) * f_l, 0, 0, 0, 0.0])
        return super().nu_dot(eta, nu, delta_r, delta_s, n_rpm) + self.m_inv @ lift


def _rzyx(phi, theta, psi):
    """R(Theta) world NED <- body FRD (Fossen 2021 eq. 2.18)."""
    cphi, sphi, cth, sth, cpsi, spsi = (math.cos(phi), math.sin(phi), math.cos(theta),
                                        math.sin(theta), math.cos(psi), math.sin(psi))
    return np.array([
        [cpsi * cth, -spsi * cphi + cpsi * sth * sphi, spsi * sphi + cpsi * cphi * sth],
        [spsi * cth, cpsi * cphi + sphi * sth * spsi, -cpsi * sphi + sth * spsi * cphi],
        [-sth, cth * sphi, cth * cphi]])


class PvsManoeuvre(Manoeuvre):
    """The manoeuvres of uwv_hydro.modes.manoeuvres.manoeuvre flown by the PVS model above."""

    def __init__(self, speed=1.5, depth=5.0, dt=0.02, model=PvsRemus100):
        self.pvs = model()
        self.speed, self.depth, self.dt, self.depth_hold = speed, depth, dt, True
        self.max_rudder = self.pvs.delta_max
        self.rpm = self.pvs.trim_rpm(speed)
        self.propellers = None  # Manoeuvre's own propeller bank: PVS flies its own

    def fly(self, rudder, duration, stop=None):
        """Fly PVS with the same laws; return the track in ENU / FLU like Manoeuvre.fly."""
        pvs, dt = self.pvs, self.dt
        eta = np.array([0.0, 0.0, self.depth, 0.0, 0.0, 0.0])
        nu = np.array([self.speed, 0, 0, 0, 0, 0.0])
        fins = np.zeros(2)  # actual rudder and stern angles
        hold = DepthHold(self.depth, dt)
        flu = np.array([1.0, -1.0, -1.0, 1.0, -1.0, -1.0])
        n = int(round(duration / dt))
        t_out, pos, yaw, pitch, twist, rud = [], [], [], [], [], []
        for k in range(n + 1):
            t = k * dt
            change = -eta[5]  # FLU heading change: yaw to port positive
            t_out.append(t)
            pos.append([eta[1], eta[0], -eta[2]])
            yaw.append(math.pi / 2 - eta[5])
            pitch.append(-eta[4])
            twist.append(flu * nu)
            rud.append(-fins[0])
            if k == n or (stop is not None and stop(t, change)):
                break
            c = min(max(rudder(t, change, -nu[5]), -self.max_rudder), self.max_rudder)
            stern = hold(eta[2], -eta[4], -nu[4])
            command = np.array([-c, stern])  # PVS: +delta_r turns to starboard
            nu_dot = pvs.nu_dot(eta, nu, fins[0], fins[1], self.rpm)
            fins = fins + dt * (command - fins) / pvs.t_delta
            nu = nu + dt * nu_dot
            # PVS attitudeEuler with the new nu (Fossen 2021 eqs. 2.18, 2.29)
            phi, theta = eta[3], eta[4]
            t_mat = np.array([
                [1, math.sin(phi) * math.tan(theta), math.cos(phi) * math.tan(theta)],
                [0, math.cos(phi), -math.sin(phi)],
                [0, math.sin(phi) / math.cos(theta), math.cos(phi) / math.cos(theta)]])
            eta = eta + dt * np.concatenate([_rzyx(*eta[3:]) @ nu[:3], t_mat @ nu[3:]])
        return Flight(np.array(t_out), np.array(pos), np.unwrap(yaw), np.array(pitch),
                      np.array(twist), np.array(rud))


#: Figures compared and the agreement asked for (issue 22): 25 %.
TOLERANCE = 0.25
TURN_FIGURES = ('steady_diameter_m', 'tactical_diameter_m', 'advance_m', 'transfer_m',
                'yaw_rate_deg_s', 'steady_speed_m_s')
#: Figures within 10 % (issue 32): the speed in the turn, at fixed propeller rpm.
TIGHT = {'steady_speed_m_s': 0.10}
ZIGZAG_FIGURES = ('overshoot_1_deg', 'overshoot_2_deg', 'period_s', 'time_to_first_reversal_s')


@pytest.fixture(scope='module')
def flights():
    """Both vehicles' turning circles at 10 and 15 deg and their 10/10 zig-zags."""
    ours, pvs = Manoeuvre(load_vehicle(str(REMUS))), PvsManoeuvre()
    out = {'pvs_sway_lift': {
        key: PvsManoeuvre(model=PvsSwayLift).turn(angle * D2R, max_time=400.0).values
        for key, angle in (('turn10', 10), ('turn15', 15))}}
    for name, vehicle in (('uwv_hydro', ours), ('pvs', pvs)):
        out[name] = {'turn10': vehicle.turn(10 * D2R, max_time=400.0).values,
                     'turn15': vehicle.turn(15 * D2R, max_time=400.0).values,
                     'zigzag': vehicle.zigzag(10 * D2R, max_time=200.0).values}
    return out


def _table(flights, key, names, reference='pvs'):
    for name in names:
        a, b = flights['uwv_hydro'][key][name], flights[reference][key][name]
        print('%-8s %-26s uwv_hydro %8.3f  %s %8.3f  (%+.1f %%)'
              % (key, name, a, reference, b, 100.0 * (a / b - 1.0)))


def test_the_pvs_rederivation_flies_as_pvs(flights):
    """The re-derived PVS gives the figures issue 22 measured with PVS itself (to 1 %)."""
    pvs = flights['pvs']
    assert pvs['turn10']['steady_diameter_m'] == pytest.approx(56.3, rel=0.01)
    assert pvs['turn10']['yaw_rate_deg_s'] == pytest.approx(3.0, rel=0.02)
    assert pvs['turn10']['drift_angle_deg'] == pytest.approx(5.2, rel=0.02)
    assert pvs['zigzag']['overshoot_1_deg'] == pytest.approx(0.73, abs=0.01)
    assert pvs['zigzag']['overshoot_2_deg'] == pytest.approx(0.59, abs=0.01)


@pytest.mark.parametrize('key', ['turn10', 'turn15'])
def test_turning_circles_match_pvs(flights, key):
    """Diameters, advance, transfer, yaw rate within 25 % of PVS's, the speed within 10 %."""
    _table(flights, key, TURN_FIGURES + ('drift_angle_deg', 'speed_loss'))
    for name in TURN_FIGURES:
        assert flights['uwv_hydro'][key][name] == pytest.approx(
            flights['pvs'][key][name], rel=TIGHT.get(name, TOLERANCE)), name
    # a steady circle: the fitted diameter is the kinematic 2 U / r (to 3 %)
    ours = flights['uwv_hydro'][key]
    assert ours['steady_diameter_m'] == pytest.approx(
        2 * ours['steady_speed_m_s'] / math.radians(ours['yaw_rate_deg_s']), rel=0.03)


def test_zigzag_overshoots_match_pvs(flights):
    """10/10 zig-zag: overshoots, period and first reversal within 25 % of PVS's."""
    _table(flights, 'zigzag', ZIGZAG_FIGURES + ('overshoot_3_deg',))
    for name in ZIGZAG_FIGURES:
        assert flights['uwv_hydro']['zigzag'][name] == pytest.approx(
            flights['pvs']['zigzag'][name], rel=TOLERANCE), name


@pytest.mark.parametrize('key', ['turn10', 'turn15'])
def test_drift_angle_matches_pvs_with_its_lift_in_both_planes(flights, key):
    """
    The drift angle within 25 % of PVS's once PVS's hull lift acts on the sideslip too.

    PVS itself drifts more: its lift acts on the angle of attack only.
    """
    _table(flights, key, ('drift_angle_deg',), reference='pvs_sway_lift')
    drift = {name: flights[name][key]['drift_angle_deg']
             for name in ('uwv_hydro', 'pvs', 'pvs_sway_lift')}
    assert drift['pvs_sway_lift'] < 0.75 * drift['pvs']
    assert drift['uwv_hydro'] == pytest.approx(drift['pvs_sway_lift'], rel=TOLERANCE)


def test_linear_sway_derivatives_are_fodreas():
    """
    Y_v and N_v at 1.5 m/s (hull lift, fins, Munk moment) are Fodrea's measured values.

    Sgarioto's REMUS set (Hall & Anstee 2011): Y_v = Z_wc + Z_wl + Z_wf with Fodrea's
    Z_wc = -15.7 N s/m and Prestero's body lift and fin terms at U0 = 1.5 m/s (S_fin =
    0.00665 m^2, c_L_alpha = 3.12, d = 0.191 m, c_yd_beta = 1.2, rho = 1030); N_v = -4.47
    N s.  Derivatives are the same in FRD and FLU (y and N both change sign).
    """
    params = load_vehicle(str(REMUS))
    model, h, u0, rho = HydroModel(params), 1e-4, 1.5, 1030.0

    def wrench(v):
        return np.asarray(model.wrench([u0, v, 0, 0, 0, 0],
                                       fin_angles=np.zeros(len(params.fins))).total)

    d = (wrench(h) - wrench(-h)) / (2 * h)
    y_v = (-15.7 - 0.5 * rho * 0.191 ** 2 * 1.2 * u0
           - 0.5 * rho * 3.12 * 0.00665 * u0)
    print('Y_v %.3f (Fodrea %.3f), N_v %.3f (Fodrea -4.47)' % (d[1], y_v, d[5]))
    # N_v to the file's 3 decimals (0.5 %); Y_v within 3 %: x_cp is kept on the hull
    # (its tail end), which asks 3 % more lift than Fodrea's Y_v for his N_v
    assert d[5] == pytest.approx(-4.47, rel=0.005)
    assert d[1] == pytest.approx(y_v, rel=0.03)


@pytest.mark.parametrize('kick', [[0, 0.1, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0.1],
                                  [0, 1e-6, 0, 0, 0, 0]])
def test_remus_is_directionally_stable(kick):
    """
    A sway or yaw kick in straight flight (rudder centred) decays; so does 1 um/s.

    The kick's effect is the difference from the same flight without it: the propeller's
    roll reaction heels the vehicle a little and it sidles steadily (mm/s) with or without
    a kick.
    """
    manoeuvre = Manoeuvre(load_vehicle(str(REMUS)))
    flight = manoeuvre.fly(lambda t, change, r: 0.0, 40.0, kick=kick)
    calm = manoeuvre.fly(lambda t, change, r: 0.0, 40.0)
    size = max(abs(k) for k in kick)
    late = flight.t > 30.0
    v, r = (np.abs(flight.twist[late, k] - calm.twist[late, k]).max() for k in (1, 5))
    print('kick %s: |v|, |r| after 30 s %.3g, %.3g (of %.3g); unkicked |v| %.3g'
          % (kick, v, r, size, np.abs(calm.twist[late, 1]).max()))
    assert v < 0.01 * size
    assert r < 0.01 * size
    assert np.degrees(np.abs(flight.yaw - flight.yaw[0])).max() < 90.0
