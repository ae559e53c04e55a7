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

"""SensorSuite: each sensor sampled at its own rate from a simulation at another rate."""
import numpy as np

from uwv_hydro.modes.sensor_suite import SensorSchedule, SensorSuite
from uwv_hydro.physics.body.dynamics import State
from uwv_hydro.physics.body.vehicle_params import VehicleParams
from uwv_hydro.physics.sensing.sensor_params import FluidPressureParams, ImuParams, SensorParams


def test_each_sensor_keeps_its_rate_on_a_100_hz_simulation():
    """Over 10 s of 100 Hz states: 50 and 7 Hz give 500 and 70 samples, 400 Hz is capped."""
    params = VehicleParams(mass=1.0, inertia=np.eye(3))
    params.sensors = [
        SensorParams('imu', 'imu', 'base_link', 50.0, 'imu', 1, ImuParams()),
        SensorParams('p', 'fluid_pressure', 'base_link', 7.0, 'p', 2, FluidPressureParams()),
        SensorParams('fast', 'imu', 'base_link', 400.0, 'fast', 3, ImuParams()),
    ]
    suite = SensorSuite(params)
    state = State(position=[0.0, 0.0, -3.0])
    stamps = {'imu': [], 'p': [], 'fast': []}
    t0 = 1_234_000_000  # not on any grid: the first samples wait for a grid point
    for k in range(1000):
        t = t0 + k * 10_000_000
        for model, reading in suite.sample(t, state, np.zeros(6)):
            stamps[model.spec.name].append(t)
    assert len(stamps['imu']) == 500
    assert len(stamps['p']) in (69, 70)
    # Capped at one sample per state (the first state precedes the first 2.5 ms grid point)
    assert len(stamps['fast']) == 999
    assert np.all(np.diff(stamps['imu']) == 20_000_000)
    gaps = np.diff(stamps['p'])
    assert set(gaps) <= {140_000_000, 150_000_000}  # 1/7 s on a 10 ms grid
    assert abs(np.mean(gaps) - 1e9 / 7.0) < 2e6
    assert suite.schedules[2].missed > 0


def test_schedule_restarts_after_reset_and_counts_missed_samples():
    """A jump over several grid points takes one sample and counts the rest as missed."""
    schedule = SensorSchedule(period_ns=100)
    assert schedule.due(250) is False  # first grid point at 300
    assert schedule.due(300) is True
    assert schedule.due(750) is True and schedule.missed == 3
    assert schedule.due(799) is False and schedule.due(800) is True
    schedule.reset()
    assert schedule.due(5) is False and schedule.due(100) is True


def test_acceleration_is_evaluated_only_when_an_imu_is_due():
    """A callable nu_dot runs once per IMU sample and never for the other sensors."""
    params = VehicleParams(mass=1.0, inertia=np.eye(3))
    params.sensors = [
        SensorParams('imu', 'imu', 'base_link', 10.0, 'imu', 1, ImuParams()),
        SensorParams('p', 'fluid_pressure', 'base_link', 50.0, 'p', 2, FluidPressureParams()),
    ]
    suite = SensorSuite(params)
    calls = []

    def nu_dot():
        calls.append(1)
        return np.array([0.5, 0.0, 0.0, 0.0, 0.0, 0.0])

    readings = []
    for k in range(100):
        readings += suite.sample(k * 10_000_000, State(), nu_dot)
    imu = [r for m, r in readings if m.spec.name == 'imu']
    assert len(calls) == len(imu) == 10
    # The acceleration reaches the specific force: 0.5 m/s^2 forward, g up
    assert np.allclose(imu[0].linear_acceleration, [0.5, 0.0, params.gravity])
