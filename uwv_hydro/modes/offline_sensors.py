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
The vehicle's navigation sensors sampled along an offline trajectory, as the node does.

The simulate-mode node hands every published state to
:class:`uwv_hydro.modes.sensor_suite.SensorSuite` (``node/sensor_io.py``); here the
states of a :class:`~uwv_hydro.modes.offline_simulation.Trajectory` are handed over in
the same order with the same body acceleration: the equations of motion at the state
under the thrust and current of the step that led to it (none at the first state).
A vehicle with moving links (``joints``: the trajectory's
:class:`~uwv_hydro.modes.offline_articulated.JointTrajectory`) takes the accelerations
its articulated simulation kept, and its sensors on moving links read their bodies'
frames from the tree's kinematics, as the node's do.
"""
from typing import List, Optional, Sequence, Tuple

import numpy as np

from uwv_hydro.modes.sensor_suite import SensorSuite
from uwv_hydro.physics.body.dynamics import Simulator, State
from uwv_hydro.physics.body.vehicle_params import VehicleParams

#: (sensor model, stamps ns, readings) of one sensor; readings with ``valid`` False
#: (no DVL bottom lock, no GNSS fix) are kept: the caller publishes nothing for them.
SensorSeries = Tuple[object, List[int], List[object]]


def sample_sensors(params: VehicleParams, stamps_ns: Sequence[int], position: np.ndarray,
                   quaternion: np.ndarray, twist: np.ndarray, taus: Optional[np.ndarray],
                   current_world: Optional[Sequence[float]] = None,
                   fin_angles: Optional[Sequence[float]] = None,
                   joints=None, seabed=None) -> List[SensorSeries]:
    """
    Return every sensor's samples along the states (stamps in ns, arrays (n, 3/4/6)).

    ``taus`` (n, 6): the body wrench of the step that starts at each state (None: no
    thrust); the state k > 0 was reached under ``taus[k - 1]`` and ``current_world``.
    ``joints``: the JointTrajectory of a vehicle with moving links (module docstring);
    ``seabed``: the seabed under the DVLs (SensorSuite), None for their flat one.
    """
    if joints is not None and params.tree is not None and joints.acceleration is not None:
        return _articulated_samples(params, stamps_ns, position, quaternion, twist, joints,
                                    seabed)
    suite = SensorSuite(params, seabed=seabed)
    series = [(model, [], []) for model in suite.models]
    if not suite.models:
        return series
    sim = Simulator(params, dt=0.01)
    if fin_angles is not None:
        sim.set_fin_angles(np.asarray(fin_angles, dtype=float))
    current = None if current_world is None else np.asarray(current_world, dtype=float)
    index = {id(model): k for k, model in enumerate(suite.models)}
    rows = np.column_stack([position, quaternion, twist]).tolist()
    for k, t_ns in enumerate(np.asarray(stamps_ns, dtype=np.int64).tolist()):
        x = rows[k]
        state = State._wrap(np.array(x[:3]), np.array(x[3:7]), np.array(x[7:]))

        def acceleration(x=x, k=k):
            # SimulateMode.acceleration: the inputs of the step that led to the state
            if k == 0:
                return np.array(sim.state_acceleration(x, None, None))
            tau = None if taus is None else taus[k - 1]
            return np.array(sim.state_acceleration(x, tau, current))
        for model, reading in suite.sample(t_ns, state, acceleration):
            _, stamps, readings = series[index[id(model)]]
            stamps.append(t_ns)
            readings.append(reading)
    return series


def _articulated_samples(params: VehicleParams, stamps_ns, position, quaternion, twist,
                         joints, seabed=None) -> List[SensorSeries]:
    """Return the samples of a vehicle with moving links along its trajectory."""
    from uwv_hydro.physics.articulated.model.multibody import (  # Pinocchio: tree vehicles only
        MultibodyModel)
    multibody = MultibodyModel(params.tree)
    state_k = {}

    def bodies():
        k = state_k['k']
        quat = np.asarray(quaternion[k], float)
        return multibody.kinematics(
            position[k], quat / np.linalg.norm(quat), twist[k], joints.position[k],
            joints.velocity[k], base_acceleration=joints.base_acceleration[k],
            qddot=joints.acceleration[k], links=False).bodies

    suite = SensorSuite(params, bodies, seabed)
    series = [(model, [], []) for model in suite.models]
    index = {id(model): k for k, model in enumerate(suite.models)}
    for k, t_ns in enumerate(np.asarray(stamps_ns, dtype=np.int64).tolist()):
        state_k['k'] = k
        state = State._wrap(np.asarray(position[k], float), np.asarray(quaternion[k], float),
                            np.asarray(twist[k], float))
        for model, reading in suite.sample(t_ns, state, joints.base_acceleration[k]):
            _, stamps, readings = series[index[id(model)]]
            stamps.append(t_ns)
            readings.append(reading)
    return series
