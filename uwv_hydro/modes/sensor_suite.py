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
The vehicle's navigation sensors sampled from the simulated state, each at its own rate.

A pure class that the node's simulate mode and offline tools both run: feed it every
simulated state (time in ns on the node clock, the state and its derivative nu_dot) and
it returns the samples that fell due.  Sensor k is due on the grid t = n / update_rate
(the first grid point at or after the first state); a state that reaches a grid point
late (the simulation steps at its own rate) gives the sample at the state's time.  A
sensor faster than the simulation gets one sample per state; when a state passes several
grid points at once only one sample is taken (the missed ones are counted).

A vehicle with moving links: a sensor whose link a moving body carries sits in that
body's frame and is sampled from the body's world pose, twist and acceleration (the
tree's kinematics at the state, ``bodies``); without ``bodies`` every sensor sits where
the lumped vehicle has it (its link at zero joint positions, on the base).
"""
from dataclasses import dataclass
from typing import Callable, List, Optional, Tuple

from uwv_hydro.modes.body_wrenches import body_names
from uwv_hydro.physics.sensing.dvl_terrain import TerrainDvlModel
from uwv_hydro.physics.sensing.echosounder import EchosounderModel
from uwv_hydro.physics.sensing.sensors import (
    build_sensor, sensor_body_mount, sensor_mount, SensorModel)
from uwv_hydro.physics.spatial.rotation import matrix_to_quat


@dataclass
class SensorSchedule:
    """Grid of sample times of one sensor (ns)."""

    period_ns: int
    next_ns: Optional[int] = None
    samples: int = 0
    missed: int = 0

    def due(self, t_ns: int) -> bool:
        """Return True if a sample is due at ``t_ns`` (and advance the grid)."""
        if self.next_ns is None:
            # First grid point at or after the first state: ceil(t / T) T
            self.next_ns = -(-t_ns // self.period_ns) * self.period_ns
        if t_ns < self.next_ns:
            return False
        late = (t_ns - self.next_ns) // self.period_ns
        self.missed += late
        self.next_ns += (late + 1) * self.period_ns
        self.samples += 1
        return True

    def reset(self) -> None:
        """Restart the grid at the next state (after a clock jump or a reset)."""
        self.next_ns = None


class SensorSuite:
    """
    Every sensor of a vehicle with its schedule.

    ``bodies``: None, or a function returning the kinematics of the tree's bodies at the
    state being sampled (a :class:`~uwv_hydro.physics.articulated.model.multibody.FrameKinematics`
    with
    accelerations, ``MultibodyModel.body_names`` order), called at most once per state
    and only when a sensor on a moving body is due.  ``seabed``: None (each DVL and
    echosounder over its flat ``seabed_depth``), or a :mod:`uwv_hydro.physics.environment.seabed`
    under every DVL and echosounder, whose beams are then cast to it
    (:class:`~uwv_hydro.physics.sensing.dvl_terrain.TerrainDvlModel`,
    :class:`~uwv_hydro.physics.sensing.echosounder.EchosounderModel`).
    """

    def __init__(self, params, bodies: Optional[Callable[[], object]] = None, seabed=None):
        #: index of each sensor's body in the tree's body order (0: the base)
        self.body_index: List[int] = []
        self.models: List[SensorModel] = []
        order = body_names(params.tree) if bodies is not None else []
        for spec in params.sensors:
            body, translation, rotation = ('', None, None) if bodies is None else (
                sensor_body_mount(spec, params))
            self.body_index.append(order.index(body) if body else 0)
            mount = (translation, rotation) if body else None
            if seabed is not None and spec.kind == 'dvl':
                self.models.append(TerrainDvlModel(
                    spec, *(mount or sensor_mount(spec, params)), seabed))
                continue
            if spec.kind == 'echosounder':  # over the world's seabed, else its flat one
                self.models.append(EchosounderModel(
                    spec, *(mount or sensor_mount(spec, params)), seabed))
                continue
            self.models.append(build_sensor(spec, params, mount))
        self.bodies = bodies
        self.schedules = [SensorSchedule(max(int(round(1e9 / m.spec.update_rate)), 1))
                          for m in self.models]

    def __len__(self) -> int:
        return len(self.models)

    def sample(self, t_ns: int, state, nu_dot) -> List[Tuple[SensorModel, object]]:
        """
        Return [(model, reading)] of the sensors due at ``t_ns`` for ``state``.

        ``state`` is a State or a function returning it, called at most once and only
        when a sensor is due (the node samples at every step, a sensor is due at a few);
        ``nu_dot`` is the body acceleration at ``state`` (6 floats), or a function
        returning it, called at most once and only when an IMU is due (the node
        evaluates the equations of motion at the published state only then).
        """
        out = []
        frames = None
        for model, schedule, body in zip(self.models, self.schedules, self.body_index):
            if not schedule.due(t_ns):
                continue
            if body:
                if frames is None:
                    frames = self.bodies()
                # the sensor's body: its world pose, body twist and acceleration
                reading = model.measure(t_ns * 1e-9, frames.position[body],
                                        matrix_to_quat(frames.rotation[body]),
                                        frames.twist[body], frames.acceleration[body])
                out.append((model, reading))
                continue
            if callable(state):
                state = state()
            if callable(nu_dot) and model.needs_acceleration:
                nu_dot = nu_dot()
            reading = model.measure(t_ns * 1e-9, state.position, state.quaternion,
                                    state.twist, nu_dot)
            out.append((model, reading))
        return out

    def reset(self, reseed: bool = False) -> None:
        """Restart the schedules; ``reseed`` also restarts every noise sequence."""
        for schedule in self.schedules:
            schedule.reset()
        if reseed:
            for model in self.models:
                model.reset()
