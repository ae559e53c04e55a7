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
The sensors in the loop they serve: navigation from them recovers the simulated motion.

The default vehicle with its sensors (noise off) is driven by SimulateMode through a
surge, a turn and a dive, sampled by SensorSuite as the node does (acceleration from the
equations of motion at each published state, SimulateMode.acceleration).  A strapdown
navigator that knows only the sensor mounts integrates the IMU's specific force into the
velocity of the IMU point, and the DVL's velocity into the track of the transducer; the
pressure gives the depth.  Each must follow the simulated truth to integration accuracy,
which fails if a frame, a mount or a lever-arm term were wrong (without w x (w x r) the
velocity is 0.7 m/s off after 20 s).  The thrust is held over each step, so the acceleration jumps
at step boundaries: the IMU reads its value at the published state (the end of the step
that led to it), and the trapezoid of those samples differs from the truth by O(dt) per
change of thrust -- a few mm/s here, the bound below.
"""
import dataclasses
import pathlib

import numpy as np
import pytest

from uwv_hydro.description.loader import load_vehicle
from uwv_hydro.modes.sensor_suite import SensorSuite
from uwv_hydro.modes.simulate_mode import SimulateMode
from uwv_hydro.physics.body.dynamics import State
from uwv_hydro.physics.sensing.sensor_params import DvlParams, FluidPressureParams, ImuParams
from uwv_hydro.physics.spatial.rotation import quat_conjugate, quat_multiply, quat_to_matrix

XACRO = pathlib.Path(__file__).resolve().parents[3] / 'urdf' / 'dsros_vehicle.urdf.xacro'
DT = 0.01


def _noise_free_vehicle():
    params = load_vehicle(str(XACRO), mappings={'sensors': 'true'})
    clean = {'imu': ImuParams(), 'fluid_pressure': FluidPressureParams(),
             'dvl': DvlParams(seabed_depth=60.0, max_altitude=80.0)}
    # Every sensor sampled at the simulation rate, without noise; no GPS (submerged)
    params.sensors = [dataclasses.replace(s, update_rate=1.0 / DT, model=clean[s.kind])
                      for s in params.sensors if s.kind in clean]
    return params


def _thrust(t):
    """Surge, then a turn, then a dive with pitch (body wrench about base_link)."""
    tau = np.zeros(6)
    tau[0] = 220.0
    if t > 8.0:
        tau[5] = 60.0 * np.sin(0.4 * (t - 8.0))
    if t > 14.0:
        tau[2], tau[4] = -80.0, 30.0
    return tau


def test_strapdown_and_dvl_dead_reckoning_follow_the_simulated_motion():
    """IMU-integrated velocity and DVL-integrated track match the truth over 20 s."""
    params = _noise_free_vehicle()
    mode = SimulateMode(params, dt=DT, initial=State(position=[0.0, 0.0, -20.0]))
    suite = SensorSuite(params)
    mounts = {m.spec.kind: m for m in suite.models}
    r_imu, q_imu = mounts['imu'].r, mounts['imu'].q_bs
    r_dvl, r_bd = mounts['dvl'].r, mounts['dvl'].r_bs
    r_p = mounts['fluid_pressure'].r
    g, rho = params.gravity, params.fluid_density

    def truth(state):
        rot = quat_to_matrix(state.quaternion)
        w = state.twist[3:]
        return {'imu_v': rot @ (state.twist[:3] + np.cross(w, r_imu)),
                'dvl_p': state.position + rot @ r_dvl,
                'p_depth': -(state.position + rot @ r_p)[2]}

    nav_v = nav_p = None
    prev = {}
    worst_depth = 0.0
    speed_peak = 0.0
    for k in range(2001):
        t = k * DT
        tau = _thrust(t)
        if k:
            mode.step(tau)
        state = mode.state
        if k == 1500:
            # The IMU's acceleration: the equations of motion at the state, under its step
            assert np.allclose(mode.acceleration(), mode.sim.derivative(state, tau).twist,
                               rtol=0.0, atol=1e-12)
        samples = suite.sample(int(round(t * 1e9)), state, mode.acceleration)
        readings = {m.spec.kind: r for m, r in samples}
        assert set(readings) == {'imu', 'fluid_pressure', 'dvl'}, t
        imu, dvl = readings['imu'], readings['dvl']
        assert dvl.valid
        # World <- body from the IMU's orientation and its known mount
        r_wb = quat_to_matrix(quat_multiply(imu.orientation, quat_conjugate(q_imu)))
        # Strapdown: a = R_ws f - g z (the specific force minus the gravity reaction)
        a_world = r_wb @ quat_to_matrix(q_imu) @ imu.linear_acceleration - [0.0, 0.0, g]
        v_dvl_world = r_wb @ r_bd @ dvl.velocity
        true = truth(state)
        if nav_v is None:
            nav_v, nav_p = true['imu_v'].copy(), true['dvl_p'].copy()
        else:
            # Trapezoidal integration of the measured rates
            nav_v = nav_v + 0.5 * DT * (a_world + prev['a'])
            nav_p = nav_p + 0.5 * DT * (v_dvl_world + prev['v'])
        prev = {'a': a_world, 'v': v_dvl_world}
        depth = (readings['fluid_pressure'].fluid_pressure - 101325.0) / (rho * g)
        worst_depth = max(worst_depth, abs(depth - true['p_depth']))
        speed_peak = max(speed_peak, float(np.linalg.norm(true['imu_v'])))
    true = truth(mode.state)
    travelled = np.linalg.norm(true['dvl_p'] - [0.0, 0.0, -20.0])
    assert speed_peak > 0.8 and travelled > 5.0 and abs(true['p_depth'] - 19.75) > 0.3
    # Held thrust: dt/2 x (thrust change / mass) per step; far below the lever-arm terms
    assert np.max(np.abs(nav_v - true['imu_v'])) < 5e-3, nav_v - true['imu_v']
    assert np.max(np.abs(nav_p - true['dvl_p'])) < 1e-4, nav_p - true['dvl_p']
    assert worst_depth == pytest.approx(0.0, abs=1e-9)
