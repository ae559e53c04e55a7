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
Offline 6-DOF simulation: the node's simulate mode without ROS, faster than real time.

The node's :class:`uwv_hydro.modes.simulate_mode.SimulateMode` (same sub-steps, checked
steps, retry and restore) is stepped here once per ``dt``; the trajectory is kept as
arrays (world ENU position, world <- body quaternion [w, x, y, z], body FLU twist of the
body origin).  Buoyancy engines hold their default volumes (no commands offline) and
push as the node's do (:class:`uwv_hydro.modes.buoyancy_engines.BuoyancyEngines`).
A vehicle with moving links runs
:class:`~uwv_hydro.modes.articulated_simulate_mode.ArticulatedSimulateMode` step by
step (:func:`~uwv_hydro.modes.offline_articulated.run_articulated`): its joints take
the commands of a :class:`~uwv_hydro.modes.joint_profiles.JointCommandProfile` (else
they hold their initial positions) and the trajectory keeps their states
(:attr:`Trajectory.joints`).
"""

from dataclasses import dataclass, field
from typing import Callable, Dict, Optional, Sequence

import numpy as np

from uwv_hydro.modes.buoyancy_engines import BuoyancyEngines
from uwv_hydro.modes.messages.csv_text import write_rows
from uwv_hydro.modes.seabed_landing import land
from uwv_hydro.modes.simulate_mode import SimulateMode
from uwv_hydro.physics.body.dynamics import State
from uwv_hydro.physics.body.vehicle_params import VehicleParams

#: The CSV columns every trajectory file starts with, in this order.
CSV_COLUMNS = ('t', 'x', 'y', 'z', 'qw', 'qx', 'qy', 'qz', 'u', 'v', 'w', 'p', 'q', 'r')


@dataclass
class Trajectory:
    """A simulated or recorded trajectory sampled at times ``t``."""

    t: np.ndarray            # (n,)
    position: np.ndarray     # (n, 3) world ENU
    quaternion: np.ndarray   # (n, 4) world <- body, [w, x, y, z]
    twist: np.ndarray        # (n, 6) body FLU twist of the body origin
    #: RK4 sub-steps per step the mode chose (its stiffness rule; 0: not simulated)
    substeps: int = 0
    #: The mode's counters: divergences (steps recomputed with more sub-steps) and
    #: state_restores (steps that stayed non-finite: the state before them kept)
    events: Dict[str, int] = field(default_factory=dict)
    #: A vehicle with moving links: the joints' states and link transforms per sample
    #: (:class:`~uwv_hydro.modes.offline_articulated.JointTrajectory`), else None
    joints: Optional[object] = None
    #: A tethered vehicle: 'tension' (n, 3) the cable's force on the vehicle (world, N),
    #: 'nodes' (n, N + 1, 3) the cable's nodes (world, m), 'error' a MoorDyn failure
    tether: Optional[dict] = None

    def rows(self) -> np.ndarray:
        """Return the (n, 14) table in CSV_COLUMNS order."""
        return np.column_stack([self.t, self.position, self.quaternion, self.twist])


def simulate(params: VehicleParams, duration: float, dt: float = 0.01, substeps: int = 1,
             thrust: Optional[Callable[[float], np.ndarray]] = None,
             initial: Optional[State] = None,
             current_world: Optional[Sequence[float]] = None,
             fin_angles: Optional[Sequence[float]] = None, current_field=None,
             log=None, joint_commands=None,
             joint_positions: Optional[Sequence[float]] = None, seabed=None,
             tether_out: Optional[dict] = None) -> Trajectory:
    """
    Integrate ``duration`` seconds in steps of ``dt`` and return every state.

    ``thrust(t)`` gives the body wrench applied during the step that starts at t
    (zero when None); ``fin_angles`` (rad, in ``params.fins`` order) are held
    throughout; ``current_field`` (a physics current field, instead of
    ``current_world``) is sampled at every step (its time from 0).  Row 0 is the
    initial state at t = 0.  A vehicle with moving links starts with its joints at
    ``joint_positions`` (tree order; default zero clamped to the limits) and takes
    ``joint_commands`` (a JointCommandProfile) as the node takes its joint commands.
    ``seabed`` (physics.environment.seabed; None: none): the vehicle lands on it at its contact
    points (:func:`uwv_hydro.modes.seabed_landing.land`).
    A tethered vehicle (``params.tether``) pulls its MoorDyn cable; ``tether_out``, a
    dict, receives the cable ('tether') and its failure, if any ('error'); the cable
    rests on ``seabed`` (:func:`uwv_hydro.modes.tether.cable_seabed_depth`).
    """
    if not dt > 0 or not duration >= 0:
        raise ValueError('dt must be > 0 and duration >= 0')
    n = int(round(duration / dt))
    # the node's simulate mode: same sub-step choice, checked steps, retry and restore
    if params.tree is None:
        mode = SimulateMode(params, dt=dt, substeps=substeps, initial=initial, log=log)
    else:
        # moving links; Pinocchio is loaded only for such a vehicle
        from uwv_hydro.modes.articulated_simulate_mode import ArticulatedSimulateMode
        mode = ArticulatedSimulateMode(params, dt=dt, substeps=substeps, initial=initial,
                                       log=log, joint_positions=joint_positions)
    land(mode, params, seabed, log or (lambda level, key, text: None))
    if current_field is not None:
        mode.field = current_field
        mode.reset()
    if fin_angles is not None:
        mode.sim.set_fin_angles(np.asarray(fin_angles, dtype=float))
    current = None if current_world is None else np.asarray(current_world, float)
    t = np.arange(n + 1) * dt
    rows = np.empty((n + 1, 13))
    rows[0] = mode.x
    taus = None
    if thrust is not None and n > 0:
        # the wrench of each step depends on its start time only: all of them first
        sample = getattr(thrust, 'sample', None)
        taus = np.ascontiguousarray(
            sample(t[:n]) if sample is not None else [thrust(v) for v in t[:n].tolist()],
            dtype=float).reshape(n, 6)
    joints = None
    if params.tree is not None and params.tether is not None and log is not None:
        log('warning', 'tether_not_modelled', 'the tether is modelled on a rigid vehicle '
            'only: not on this vehicle, whose links move')
    if params.tree is not None:
        from uwv_hydro.modes.offline_articulated import run_articulated
        engines = (BuoyancyEngines(params.buoyancy_engines, params.gravity)
                   if params.buoyancy_engines else None)
        joints = run_articulated(mode, n, dt, rows, taus, current, joint_commands, engines)
    elif n > 0 and params.tether is not None:
        # the tether's cable (MoorDyn, modes.tether): one coupled step at a time
        from uwv_hydro.modes.tether import cable_seabed_depth, start_tether
        depth = cable_seabed_depth(params.tether, seabed, log=log)
        mode.tether = start_tether(mode, params, current_field, depth, log=log)
        tension, cable = np.zeros((n + 1, 3)), []
        tension[0] = mode.tether.force
        cable.append(mode.tether.nodes())
        for k in range(n):
            mode.tether_step(None if taus is None else taus[k], current)
            rows[k + 1] = mode.x
            if mode.tether is not None:  # dropped after a MoorDyn failure (logged)
                tension[k + 1] = mode.tether.force
                cable.append(mode.tether.nodes())
            else:
                tension[k + 1] = 0.0
                cable.append(cable[-1])
        tether_out = {} if tether_out is None else tether_out
        tether_out.update(tether=mode.tether, error=mode.tether_error, tension=tension,
                          nodes=np.array(cable))
    elif n > 0 and params.buoyancy_engines:
        # gz-sim buoyancy engines (no commands offline: the default volumes): their force
        # follows the attitude and depth, so one step at a time, as the node runs them
        engines = BuoyancyEngines(params.buoyancy_engines, params.gravity)
        for k in range(n):
            engines.step(dt)
            tau = engines.wrench(mode.x) + (0.0 if taus is None else taus[k])
            mode.run(np.ascontiguousarray(tau, dtype=float), 1, current,
                     rows=rows[k + 1:k + 2], stop_on_restore=False)
    elif n > 0:
        # every step checked in the compiled core; a restored step keeps the state
        mode.run(taus, n, current, rows=rows[1:], stop_on_restore=False)
    pos, quat, twist = rows[:, :3].copy(), rows[:, 3:7].copy(), rows[:, 7:].copy()
    return Trajectory(t, pos, quat, twist, substeps=mode.substeps, events=dict(mode.events),
                      joints=joints, tether=tether_out)


def write_csv(trajectory: Trajectory, path) -> None:
    """Write the trajectory as CSV (header CSV_COLUMNS, round-trip exact floats)."""
    with open(path, 'w', newline='\n') as f:
        write_rows(f, CSV_COLUMNS, trajectory.rows())


def read_csv(path) -> Trajectory:
    """Read a trajectory CSV written by :func:`write_csv` (extra columns ignored)."""
    with open(path) as f:
        header = f.readline().strip().split(',')
    if tuple(header[:len(CSV_COLUMNS)]) != CSV_COLUMNS:
        raise ValueError('%s: header must start with %s' % (path, ','.join(CSV_COLUMNS)))
    data = np.loadtxt(path, delimiter=',', skiprows=1, ndmin=2)[:, :len(CSV_COLUMNS)]
    return Trajectory(data[:, 0], data[:, 1:4], data[:, 4:8], data[:, 8:14])
