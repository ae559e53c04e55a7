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
Buoyancy engines without ROS: volume commands in, the bladders' force on the vehicle out.

gz-sim's BuoyancyEngine system (``src/systems/buoyancy_engine/BuoyancyEngine.cc``), per
step of dt: a command (m^3) is clamped to [min_volume, max_volume] and becomes the set
point; the volume moves toward it by at most ``max_inflation_rate`` dt; then the link
gets the upward world force rho_now g V - rho g V_neutral at its origin (rho_now = 0
above ``surface``).  The node (:mod:`uwv_hydro.node.buoyancy_engine_io`: std_msgs/Float64
commands on gz-sim's topic, the volume out) and offline runs use this class;
:class:`~uwv_hydro.modes.simulate_mode.SimulateMode` steps it before every step and
adds its wrench to the step's input.
"""
from typing import Sequence

import numpy as np

from uwv_hydro.physics.actuators.buoyancy_engine import (
    BuoyancyEngineSpec, clamp_set_point, engine_force_up, step_volume)
from uwv_hydro.physics.spatial.rotation import quat_to_matrix


class BuoyancyEngines:
    """The bladders of a vehicle (``params.buoyancy_engines`` order)."""

    def __init__(self, specs: Sequence[BuoyancyEngineSpec], gravity: float):
        self.specs = list(specs)
        self.gravity = float(gravity)
        self._points = np.array([s.position for s in self.specs], float).reshape(-1, 3)
        self.reset()

    def reset(self) -> None:
        """Return every bladder to its default volume (gz-sim: also the set point)."""
        self.volumes = np.array([s.initial_volume() for s in self.specs], float)
        self.set_points = self.volumes.copy()
        #: Rejected (non-finite) commands.
        self.rejected = 0

    def command(self, index: int, volume: float) -> bool:
        """Set engine ``index``'s set point (clamped to its limits); False if not finite."""
        value = float(volume)
        if not np.isfinite(value):
            self.rejected += 1
            return False
        self.set_points[index] = clamp_set_point(self.specs[index], value)
        return True

    def step(self, dt: float) -> None:
        """Pump every bladder toward its set point for ``dt`` seconds."""
        for k, spec in enumerate(self.specs):
            self.volumes[k] = step_volume(spec, self.volumes[k], self.set_points[k], dt)

    def wrench(self, x) -> np.ndarray:
        """Return the body wrench of the bladders at state ``x`` (13 floats: p, q, nu)."""
        rot = quat_to_matrix(np.asarray(x[3:7], float))  # world <- body
        out = np.zeros(6)
        for k, spec in enumerate(self.specs):
            point = self._points[k]
            world_z = float(x[2]) + float(rot[2] @ point)  # the link origin's height
            up = engine_force_up(spec, float(self.volumes[k]), self.gravity, world_z)
            # the world vertical force in the body frame, moved to the origin: [F, r x F]
            force = rot.T @ np.array([0.0, 0.0, up])
            out[:3] += force
            out[3:] += np.cross(point, force)
        return out
