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
Open-loop validation on held-out data: simulate with the recorded thrust and compare.

From the first held-out sample (recorded pose, smoothed twist) the simulator is stepped
sample to sample with the thrust held at each step's start, exactly like
``replay --simulate`` (:mod:`uwv_hydro.bag.replay_simulation`); nothing recorded is fed
back, so errors accumulate and measure the model, not the filter.
"""

from dataclasses import dataclass

import numpy as np

from uwv_hydro.modes.offline_simulation import Trajectory
from uwv_hydro.physics.body.dynamics import Simulator, State
from uwv_hydro.physics.spatial.rotation import quat_normalize


@dataclass
class ValidationResult:
    """Recorded vs simulated trajectories over the held-out samples, with RMS errors."""

    recorded: Trajectory
    predicted: Trajectory
    rms_position: float          # m
    rms_velocity: float          # m/s (linear body velocity)
    rms_angular_velocity: float  # rad/s
    rms_attitude_deg: float      # deg (angle of the relative rotation)
    final_position: float        # m


def simulate_held_out(params, recording, start: int, twist0=None,
                      substeps: int = 1) -> ValidationResult:
    """Simulate samples [start, end) of ``recording`` open loop and compare."""
    rec = recording
    t = rec.t[start:]
    sim = Simulator(params, dt=rec.dt, substeps=substeps)
    q0 = quat_normalize(rec.quaternion[start])
    state = State(rec.position[start], q0,
                  rec.twist[start] if twist0 is None else twist0)
    n = t.size
    pos = np.empty((n, 3))
    quat = np.empty((n, 4))
    twist = np.empty((n, 6))
    pos[0], quat[0], twist[0] = state.position, state.quaternion, state.twist
    thrust = rec.thrust.at(t)
    for k in range(n - 1):
        state = sim.step(state, thrust[k])
        pos[k + 1], quat[k + 1], twist[k + 1] = state.position, state.quaternion, state.twist
    recorded = Trajectory(t, rec.position[start:], rec.quaternion[start:], rec.twist[start:])
    predicted = Trajectory(t, pos, quat, twist)
    dp = np.linalg.norm(pos - recorded.position, axis=1)
    dv = np.linalg.norm(twist[:, :3] - recorded.twist[:, :3], axis=1)
    dw = np.linalg.norm(twist[:, 3:] - recorded.twist[:, 3:], axis=1)
    dots = np.abs(np.sum(quat * recorded.quaternion, axis=1)
                  / np.linalg.norm(recorded.quaternion, axis=1))
    angle = np.degrees(2.0 * np.arccos(np.clip(dots, 0.0, 1.0)))

    def rms(x):
        return float(np.sqrt(np.mean(x ** 2)))

    return ValidationResult(recorded, predicted, rms(dp), rms(dv), rms(dw), rms(angle),
                            float(dp[-1]))
