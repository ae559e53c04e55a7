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
Noise-free sensor models against analytic values and finite differences of a trajectory.

The references are independent of the models' formulas: the IMU's specific force is
checked against the second time derivative (central differences) of the sensor point's
world position along a smooth trajectory, the DVL against the first derivative, the
pressure against rho g d at a depth placed by construction, the orientation by rotating
the measured specific force back into the world (it must be +g up at rest).
"""
import math

import numpy as np
import pytest

from uwv_hydro.physics.body.vehicle_params import FixedFrame, VehicleParams
from uwv_hydro.physics.sensing.sensor_params import (
    DvlParams, FluidPressureParams, ImuParams, NavSatParams, NoiseParams, SensorParams)
from uwv_hydro.physics.sensing.sensors import build_sensor
from uwv_hydro.physics.spatial.rotation import (
    quat_conjugate, quat_from_rpy, quat_multiply, quat_normalize, quat_to_matrix)

G = 9.80665
RHO = 1027.0


def _vehicle(r, rpy) -> VehicleParams:
    params = VehicleParams(mass=10.0, inertia=np.eye(3), gravity=G, fluid_density=RHO)
    params.frames['sensor_link'] = FixedFrame(np.asarray(r, float), quat_from_rpy(*rpy))
    return params


def _spec(kind, model, name='s', rate=10.0, seed=1) -> SensorParams:
    return SensorParams(name=name, kind=kind, link='sensor_link', update_rate=rate,
                        topic=name, seed=seed, model=model)


def _trajectory(t):
    """Return (p, q) of a smooth, turning, pitching, accelerating motion at time t."""
    p = np.array([1.5 * t + 0.3 * t * t, 2.0 * math.sin(0.7 * t), -10.0 - 0.4 * t])
    q = quat_from_rpy(0.3 * math.sin(1.1 * t), 0.2 * math.cos(0.9 * t), 0.5 * t + 0.1 * t * t)
    return p, q


def _body_state(t, h=1e-4):
    """Return (p, q, nu, nu_dot) of the trajectory by central differences (body axes)."""
    def twist(s):
        p0, q0 = _trajectory(s)
        p1, q1 = _trajectory(s + h)
        pm, qm = _trajectory(s - h)
        v_world = (p1 - pm) / (2 * h)
        q_dot = (q1 - qm) / (2 * h)
        # Body angular velocity: [0, w] = 2 q* (x) q_dot
        w = 2.0 * quat_multiply(quat_conjugate(q0), q_dot)[1:]
        return quat_to_matrix(q0).T @ v_world, w
    p, q = _trajectory(t)
    v, w = twist(t)
    vp, wp = twist(t + h)
    vm, wm = twist(t - h)
    nu = np.concatenate((v, w))
    nu_dot = np.concatenate(((vp - vm) / (2 * h), (wp - wm) / (2 * h)))
    return p, q, nu, nu_dot


def _sensor_world(t, r, q_bs):
    """Return (world position, world <- sensor rotation) of the sensor at time t."""
    p, q = _trajectory(t)
    rot = quat_to_matrix(q)
    return p + rot @ r, rot @ quat_to_matrix(q_bs)


@pytest.mark.parametrize('seed', range(5))
def test_imu_at_rest_reads_plus_g_up_and_zero_rate_in_any_attitude(seed):
    """At rest the specific force is g R_s^T z (reaction to gravity, up) and the rate zero."""
    rng = np.random.default_rng(seed)
    r, rpy_s = rng.normal(size=3), rng.uniform(-math.pi, math.pi, 3)
    imu = build_sensor(_spec('imu', ImuParams()), _vehicle(r, rpy_s))
    q = quat_normalize(rng.normal(size=4))
    reading = imu.measure(0.0, rng.normal(size=3), q, np.zeros(6), np.zeros(6))
    r_ws = quat_to_matrix(q) @ quat_to_matrix(quat_from_rpy(*rpy_s))
    assert np.max(np.abs(reading.linear_acceleration - G * r_ws.T @ [0, 0, 1])) < 1e-12
    assert np.max(np.abs(reading.angular_velocity)) == 0.0
    # The reported orientation carries the reading back to world up
    up = quat_to_matrix(reading.orientation) @ reading.linear_acceleration
    assert np.max(np.abs(up - [0.0, 0.0, G])) < 1e-12
    assert reading.linear_acceleration_covariance == (0.0,) * 9


def test_imu_specific_force_at_lever_arm_equals_second_derivative_of_its_position():
    """Specific force a_P - g at the lever arm, a_P by differentiating the point's track."""
    r, rpy_s = np.array([0.8, -0.3, 0.25]), (math.pi, 0.1, math.pi / 2)
    q_bs = quat_from_rpy(*rpy_s)
    imu = build_sensor(_spec('imu', ImuParams()), _vehicle(r, rpy_s))
    h = 1e-3
    worst_f = worst_w = 0.0
    for t in np.linspace(0.0, 4.0, 9):
        p, q, nu, nu_dot = _body_state(t)
        reading = imu.measure(t, p, q, nu, nu_dot)
        x0, r_ws = _sensor_world(t, r, q_bs)
        xp, _ = _sensor_world(t + h, r, q_bs)
        xm, _ = _sensor_world(t - h, r, q_bs)
        a_world = (xp - 2 * x0 + xm) / (h * h)
        expected = r_ws.T @ (a_world + [0.0, 0.0, G])
        worst_f = max(worst_f, np.max(np.abs(reading.linear_acceleration - expected)))
        worst_w = max(worst_w, np.max(np.abs(
            reading.angular_velocity - quat_to_matrix(q_bs).T @ nu[3:])))
        assert np.allclose(reading.orientation, quat_multiply(q, q_bs), atol=1e-12) or \
            np.allclose(reading.orientation, -quat_multiply(q, q_bs), atol=1e-12)
    # Central differences: O(h^2) truncation ~1e-6 and rounding eps/h^2 ~2e-10 * |x|
    assert worst_f < 2e-5, worst_f
    assert worst_w < 1e-12, worst_w
    # Without the lever-arm terms the error would be of the order of |w|^2 |r|, far larger
    assert np.linalg.norm(r) * 0.5 ** 2 > 100 * 2e-5


def test_pressure_at_ten_metres_and_above_the_surface():
    """Pressure p_atm + rho g 10 m at 10 m (lever arm, tilt); p_atm above the water."""
    r, rpy = np.array([0.5, 0.2, -0.4]), (0.3, -0.2, 1.0)
    model = FluidPressureParams(atmospheric_pressure=101325.0)
    sensor = build_sensor(_spec('fluid_pressure', model), _vehicle(r, (0.0, 0.0, 0.0)))
    q = quat_from_rpy(*rpy)
    # Place the origin so that the sensor point p + R r is exactly at z = -10 m
    position = np.array([3.0, -4.0, -10.0]) - quat_to_matrix(q) @ r
    reading = sensor.measure(0.0, position, q, np.zeros(6), np.zeros(6))
    assert reading.fluid_pressure == pytest.approx(101325.0 + RHO * G * 10.0, abs=1e-8)
    assert reading.depth == pytest.approx(10.0, abs=1e-12)
    assert reading.variance == 0.0
    dry = sensor.measure(0.1, position + [0.0, 0.0, 12.0], q, np.zeros(6), np.zeros(6))
    assert dry.fluid_pressure == 101325.0


def test_dvl_at_lever_arm_during_a_turn_equals_the_point_velocity_in_sensor_axes():
    """Bottom track = d/dt of the transducer's world position, in the sensor frame."""
    r, rpy_s = np.array([0.9, 0.0, -0.35]), (math.pi, 0.0, math.pi / 4)
    q_bs = quat_from_rpy(*rpy_s)
    dvl = build_sensor(_spec('dvl', DvlParams(seabed_depth=60.0, max_altitude=80.0)),
                       _vehicle(r, rpy_s))
    h = 1e-5
    worst = 0.0
    for t in np.linspace(0.0, 4.0, 9):
        p, q, nu, nu_dot = _body_state(t)
        reading = dvl.measure(t, p, q, nu, nu_dot)
        assert reading.valid
        xp, _ = _sensor_world(t + h, r, q_bs)
        xm, r_ws = _sensor_world(t - h, r, q_bs)
        _, r_ws = _sensor_world(t, r, q_bs)
        expected = r_ws.T @ ((xp - xm) / (2 * h))
        worst = max(worst, np.max(np.abs(reading.velocity - expected)))
        assert reading.altitude == pytest.approx(60.0 + _sensor_world(t, r, q_bs)[0][2])
    assert worst < 1e-6, worst
    # The turn makes the lever-arm term w x r matter: the origin's velocity differs
    p, q, nu, nu_dot = _body_state(2.0)
    assert np.linalg.norm(np.cross(nu[3:], r)) > 0.1


def test_dvl_bottom_lock_window():
    """Lock only within [min_altitude, max_altitude] above the seabed and in the water."""
    model = DvlParams(seabed_depth=100.0, max_altitude=50.0, min_altitude=0.5)
    dvl = build_sensor(_spec('dvl', model), _vehicle(np.zeros(3), (0.0, 0.0, 0.0)))
    nu = np.array([1.0, 0.0, 0.0, 0.0, 0.0, 0.0])
    q = np.array([1.0, 0.0, 0.0, 0.0])
    cases = {20.0: False, 49.0: False, 50.0: True, 99.5: True, 99.6: False, -1.0: False}
    for depth, locked in cases.items():
        reading = dvl.measure(0.0, [0.0, 0.0, -depth], q, nu, np.zeros(6))
        assert reading.valid is locked, depth
        assert reading.altitude == pytest.approx(100.0 - depth)
        assert (reading.velocity is not None) is locked


def test_navsat_fix_only_at_the_surface_and_from_the_datum():
    """The antenna at the world origin reads the datum; submerged below the threshold: none."""
    model = NavSatParams(latitude_deg=41.52, longitude_deg=-70.67, elevation=0.0,
                         surfaced_depth=0.3)
    gps = build_sensor(_spec('navsat', model), _vehicle([0.0, 0.0, 0.5], (0.0, 0.0, 0.0)))
    q = np.array([1.0, 0.0, 0.0, 0.0])
    fix = gps.measure(0.0, [0.0, 0.0, -0.5], q, np.zeros(6), np.zeros(6))
    assert fix.valid
    assert (fix.latitude, fix.longitude) == pytest.approx((41.52, -70.67), abs=1e-12)
    assert fix.altitude == pytest.approx(0.0, abs=1e-6)
    under = gps.measure(0.1, [0.0, 0.0, -0.81], q, np.zeros(6), np.zeros(6))
    assert not under.valid and under.depth == pytest.approx(0.31)


def test_noise_free_sensors_are_exact_and_noise_seeded():
    """Zero parameters give exact values; a seed repeats the noise, another seed differs."""
    noisy = ImuParams(angular_velocity=tuple(NoiseParams(stddev=0.01) for _ in range(3)))
    params = _vehicle([0.1, 0.0, 0.0], (0.0, 0.0, 0.0))
    a = build_sensor(_spec('imu', noisy, seed=5), params)
    b = build_sensor(_spec('imu', noisy, seed=5), params)
    c = build_sensor(_spec('imu', noisy, seed=6), params)
    args = ([0.0, 0.0, -5.0], [1.0, 0.0, 0.0, 0.0], np.zeros(6), np.zeros(6))
    ra, rb, rc = (s.measure(0.0, *args) for s in (a, b, c))
    assert np.array_equal(ra.angular_velocity, rb.angular_velocity)
    assert not np.array_equal(ra.angular_velocity, rc.angular_velocity)
    # The accelerometer of the same IMU has no noise: exact
    assert np.array_equal(ra.linear_acceleration, [0.0, 0.0, G])
    a.reset()
    assert np.array_equal(a.measure(0.0, *args).angular_velocity, ra.angular_velocity)
    assert ra.angular_velocity_covariance == pytest.approx(
        [1e-4, 0, 0, 0, 1e-4, 0, 0, 0, 1e-4])


def test_state_acceleration_fast_path_equals_the_term_by_term_derivative():
    """Simulator.state_acceleration (what the IMU uses) equals derivative().twist."""
    from uwv_hydro.description.loader import load_vehicle
    from uwv_hydro.physics.body.dynamics import Simulator, State
    import pathlib
    vehicle = load_vehicle(str(pathlib.Path(__file__).resolve().parents[3] / 'urdf'
                               / 'dsros_vehicle.urdf.xacro'))
    sim = Simulator(vehicle, dt=0.01)
    rng = np.random.default_rng(4)
    for depth in (-20.0, -0.1, 0.3):
        state = State(position=[1.0, 2.0, depth], quaternion=quat_normalize(rng.normal(size=4)),
                      twist=rng.normal(size=6))
        tau, current = rng.normal(size=6) * 100.0, rng.normal(size=3) * 0.3
        x = state.position.tolist() + state.quaternion.tolist() + state.twist.tolist()
        fast = np.array(sim.state_acceleration(x, tau, current))
        reference = sim.derivative(state, tau, current).twist
        assert np.max(np.abs(fast - reference)) < 1e-12 * max(1.0, np.max(np.abs(reference)))
