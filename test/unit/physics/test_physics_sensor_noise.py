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
Noise statistics of the sensor models against the configured parameters.

10 000 samples estimate a standard deviation to about 0.7 % (1 sigma), so the 5 %
tolerance is 7 standard errors; the bias processes are checked across 20 000
independent axes against the variance the stochastic differential equation gives.
"""
import math

import numpy as np
import pytest

from uwv_hydro.physics.body.vehicle_params import VehicleParams
from uwv_hydro.physics.sensing.sensor_noise import NoiseModel
from uwv_hydro.physics.sensing.sensor_params import (
    DvlParams, FluidPressureParams, ImuParams, NavSatParams, NoiseParams, SensorParams)
from uwv_hydro.physics.sensing.sensors import build_sensor

N = 10000


def _sensor(kind, model, seed=3):
    params = VehicleParams(mass=1.0, inertia=np.eye(3))
    return build_sensor(SensorParams(name='s', kind=kind, link='base_link', update_rate=50.0,
                                     topic='s', seed=seed, model=model), params)


def _three(stddev):
    return tuple(NoiseParams(stddev=s) for s in stddev)


def test_imu_white_noise_matches_the_configured_stddev_per_axis():
    """Gyro and accelerometer sample std within 5 % of sigma, per axis, zero mean."""
    gyro, accel = (2e-4, 5e-4, 1e-3), (0.01, 0.02, 0.05)
    imu = _sensor('imu', ImuParams(angular_velocity=_three(gyro),
                                   linear_acceleration=_three(accel)))
    rates, forces = np.empty((N, 3)), np.empty((N, 3))
    q, nu = np.array([1.0, 0.0, 0.0, 0.0]), np.array([0.0, 0.0, 0.0, 0.1, -0.2, 0.3])
    for k in range(N):
        reading = imu.measure(k * 0.02, [0.0, 0.0, -5.0], q, nu, np.zeros(6))
        rates[k], forces[k] = reading.angular_velocity, reading.linear_acceleration
    truth_f = np.cross(nu[3:], np.cross(nu[3:], np.zeros(3))) + [0.0, 0.0, imu.gravity]
    ratios = [np.std(rates[:, a] - nu[3 + a]) / gyro[a] for a in range(3)] + [
        np.std(forces[:, a] - truth_f[a]) / accel[a] for a in range(3)]
    print('IMU sample std / sigma (gyro xyz, accel xyz): %s'
          % ' '.join('%.4f' % r for r in ratios))
    for axis in range(3):
        assert np.std(rates[:, axis] - nu[3 + axis]) == pytest.approx(gyro[axis], rel=0.05)
        assert np.std(forces[:, axis] - truth_f[axis]) == pytest.approx(accel[axis], rel=0.05)
        assert abs(np.mean(rates[:, axis] - nu[3 + axis])) < 5 * gyro[axis] / math.sqrt(N)
    # The three axes draw independent noise
    assert abs(np.corrcoef(rates[:, 0], rates[:, 1])[0, 1]) < 0.05


def test_pressure_dvl_and_navsat_noise_match_the_configured_stddev():
    """Pressure (Pa), DVL velocity (m/s), NavSat east/north/up (m): std within 5 %."""
    pressure = _sensor('fluid_pressure', FluidPressureParams(
        pressure=NoiseParams(stddev=30.0)))
    dvl = _sensor('dvl', DvlParams(velocity=_three((0.002, 0.004, 0.008))))
    gps = _sensor('navsat', NavSatParams(latitude_deg=10.0, longitude_deg=20.0,
                                         horizontal=NoiseParams(stddev=1.5),
                                         vertical=NoiseParams(stddev=3.0)))
    q, nu = np.array([1.0, 0.0, 0.0, 0.0]), np.array([1.0, 0.0, 0.0, 0.0, 0.0, 0.0])
    p, v, fix = np.empty(N), np.empty((N, 3)), np.empty((N, 3))
    for k in range(N):
        p[k] = pressure.measure(k, [0.0, 0.0, -10.0], q, nu, None).fluid_pressure
        v[k] = dvl.measure(k, [0.0, 0.0, -10.0], q, nu, None).velocity
        reading = gps.measure(k, [0.0, 0.0, 0.0], q, nu, None)
        fix[k] = reading.latitude, reading.longitude, reading.altitude
    ratios = [np.std(p) / 30.0] + [np.std(v[:, a]) / s for a, s in
                                   enumerate((0.002, 0.004, 0.008))]
    print('pressure, DVL xyz sample std / sigma: %s' % ' '.join('%.4f' % r for r in ratios))
    assert np.std(p) == pytest.approx(30.0, rel=0.05)
    for axis, sigma in enumerate((0.002, 0.004, 0.008)):
        assert np.std(v[:, axis]) == pytest.approx(sigma, rel=0.05)
    # Degrees to metres with the WGS-84 radii of curvature at 10 deg (independent of the
    # model's exact ECEF path): M = a(1-e2)/(1-e2 s^2)^1.5, N = a/(1-e2 s^2)^0.5
    a, e2, s = 6378137.0, 0.00669437999014, math.sin(math.radians(10.0))
    m_radius = a * (1 - e2) / (1 - e2 * s * s) ** 1.5
    n_radius = a / math.sqrt(1 - e2 * s * s)
    north = np.radians(fix[:, 0]) * m_radius
    east = np.radians(fix[:, 1]) * n_radius * math.cos(math.radians(10.0))
    print('NavSat east, north, up sample std / sigma: %.4f %.4f %.4f'
          % (np.std(east) / 1.5, np.std(north) / 1.5, np.std(fix[:, 2]) / 3.0))
    assert np.std(east) == pytest.approx(1.5, rel=0.05)
    assert np.std(north) == pytest.approx(1.5, rel=0.05)
    assert np.std(fix[:, 2]) == pytest.approx(3.0, rel=0.05)


def test_bias_random_walk_variance_grows_linearly_in_time():
    """Random walk (tau = inf): Var b(t) = sigma_b^2 t at 0.25, 1 and 4 s over 20k axes."""
    sigma_b, dt, axes = 0.003, 0.01, 20000
    noise = NoiseModel([NoiseParams(dynamic_bias_stddev=sigma_b)] * axes,
                       np.random.default_rng(11))
    t = 0.0
    for checkpoint in (0.25, 1.0, 4.0):
        while t < checkpoint - 1e-9:
            noise.apply(np.zeros(axes), dt)
            t += dt
        assert np.var(noise.dynamic_bias) == pytest.approx(sigma_b ** 2 * checkpoint,
                                                           rel=0.05)


def test_gauss_markov_bias_variance_saturates_at_sigma2_tau_over_2():
    """Finite tau: Var b(t) = sigma_b^2 tau/2 (1 - exp(-2 t / tau)) (Ornstein-Uhlenbeck)."""
    sigma_b, tau, dt, axes = 0.01, 0.5, 0.02, 20000
    noise = NoiseModel([NoiseParams(dynamic_bias_stddev=sigma_b,
                                    dynamic_bias_correlation_time=tau)] * axes,
                       np.random.default_rng(12))
    done = 0
    for steps in (10, 40, 150):
        for _ in range(steps - done):
            noise.apply(np.zeros(axes), dt)
        done = steps
        expected = sigma_b ** 2 * tau / 2 * (1 - math.exp(-2 * steps * dt / tau))
        assert np.var(noise.dynamic_bias) == pytest.approx(expected, rel=0.05)


def test_turn_on_bias_has_the_configured_magnitude_and_a_random_sign():
    """bias_mean with zero bias_stddev: every axis is +-bias_mean, both signs occur."""
    axes = 2000
    noise = NoiseModel([NoiseParams(bias_mean=0.05)] * axes, np.random.default_rng(5))
    out = noise.apply(np.zeros(axes), 0.01)
    assert np.allclose(np.abs(out), 0.05, rtol=0, atol=1e-15)
    assert 0.45 < np.mean(out > 0) < 0.55
    spread = NoiseModel([NoiseParams(bias_mean=0.0, bias_stddev=0.2)] * N,
                        np.random.default_rng(6))
    assert np.std(spread.turn_on_bias) == pytest.approx(0.2, rel=0.05)
