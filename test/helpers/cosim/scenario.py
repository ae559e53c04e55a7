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
The manoeuvre both engine co-simulations fly, and the node they fly it with.

test_cosim_mujoco.py and test_cosim_dart.py start the hydro node in wrench mode over
DDS, step their engine in /clock lock-step with it (:mod:`cosim.lock_step`) for
``STEPS`` steps of ``DT`` from ``START`` under :func:`thrust`, and compare with the
project's offline simulate.
"""
from cosim.lock_step import LockStep
from nodes.harness import start_node
import numpy as np

DT = 0.005
STEPS = 2000
START = {'position': (0.0, 0.0, -10.0), 'quaternion': (1.0, 0.0, 0.0, 0.0),
         'twist': (0.2, 0.0, 0.0, 0.0, 0.0, 0.05)}
CURRENT = (0.3, 0.0, 0.0)


def thrust(t):
    """Return the thrusters' body wrench: surge and a turn, a reversed turn, coast."""
    if t < 3.0025:
        return np.array([60.0, 5.0, -4.0, 0.5, 1.0, 4.0])
    if t < 7.0025:
        return np.array([30.0, -8.0, 6.0, -0.8, -1.5, -6.0])
    return np.zeros(6)


def connect_wrench_node(spawn, tmp_path, rclpy_context, vehicle_file, added_mass, current):
    """
    Start the node in wrench mode answering every odometry at sim time; connect an engine.

    The node applies the weight (engines run with gravity off, as gz-physics does for a
    body carrying added mass).  Return (process, log, LockStep).
    """
    node_params = {'vehicle_file': str(vehicle_file), 'mode': 'wrench',
                   'added_mass': added_mass, 'apply_weight': True, 'use_sim_time': True,
                   'publish_on': 'odometry', 'rate_hz': 1.0 / DT}
    if current is not None:
        node_params['current'] = list(current)
    proc, log = start_node(spawn, tmp_path, node_params)
    engine = LockStep(rclpy_context)
    assert engine.spin_until(engine.connected, timeout=60.0), 'node not connected'
    return proc, log, engine
