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
One chunk of a sweep: its runs stepped together in one BatchSimulator.

(A manoeuvre scenario's chunk flies its runs one after another: manoeuvre_runs.)

:func:`prepare` loads the vehicle and the thrust profile once (on the client) into a
:class:`SweepPlan`, which is sent to the workers; :func:`run_chunk` is the pure task:
(plan, chunk index) -> columns (run index, drawn values, outputs).  The serial run and
every dask worker call the same function on the same inputs.
"""

from dataclasses import dataclass
from typing import Dict, List, Optional

import numpy as np

from uwv_hydro.description.loader import load_vehicle
from uwv_hydro.modes.thrust_profile import ThrustProfile
from uwv_hydro.physics.body.batch import BatchSimulator
from uwv_hydro.physics.body.dynamics import Simulator
from uwv_hydro.physics.body.stability import stable_substeps, stiffness
from uwv_hydro.sweep import draws, manoeuvre_runs
from uwv_hydro.sweep.reductions import Reducer
from uwv_hydro.sweep.spec import ManoeuvreScenario


@dataclass
class SweepPlan:
    """Everything a worker needs: spec, nominal vehicle, per-step thrust, sub-steps."""

    spec: object
    params: object
    taus: np.ndarray          # (steps, 6) nominal body wrench of each step
    substeps: int
    spec_hash: str
    notes: Optional[List[str]] = None

    @property
    def steps(self) -> int:
        """Return the steps per run (0 for a manoeuvre: each run flies until it is done)."""
        return self.taus.shape[0]


def prepare(spec) -> SweepPlan:
    """Load the vehicle and thrust of ``spec``; check the variations against the vehicle."""
    params = load_vehicle(spec.vehicle)
    notes = draws.check_against(spec, params)
    sc = spec.scenario
    if isinstance(sc, ManoeuvreScenario):
        manoeuvre_runs.check_nominal(spec, params)
        return SweepPlan(spec, params, np.zeros((0, 6)), 1, spec.digest(), notes)
    steps = int(round(sc.duration / sc.dt))
    t = np.arange(steps) * sc.dt
    profile = (ThrustProfile.from_csv(sc.thrust_profile) if sc.thrust_profile
               else ThrustProfile.constant(sc.thrust))
    taus = np.ascontiguousarray(profile.sample(t), dtype=float).reshape(steps, 6)
    if sc.substeps is None:
        # the simulate mode's rule (|lambda| h <= 2.5) for the nominal vehicle
        substeps = stable_substeps(stiffness(Simulator(params, dt=sc.dt)), sc.dt)
    else:
        substeps = sc.substeps
    return SweepPlan(spec, params, taus, int(substeps), spec.digest(), notes)


def run_chunk(plan: SweepPlan, index: int) -> Dict[str, np.ndarray]:
    """
    Run chunk ``index`` of the plan; return its columns (one value per run).

    ``refused``: '' or why the run's draw was not simulated (its outputs NaN, broach
    False); ``diverged``: the state became non-finite.  A manoeuvre sweep's chunk flies
    its runs one after another (:mod:`uwv_hydro.sweep.manoeuvre_runs`).
    """
    spec = plan.spec
    if isinstance(spec.scenario, ManoeuvreScenario):
        return manoeuvre_runs.run_chunk(plan, index)
    sc = spec.scenario
    start, stop = spec.chunk_range(index)
    n = stop - start
    values = draws.draw_runs(spec, plan.params, start, stop)
    runs = [draws.apply(spec, plan.params, row) for row in values]
    # a draw the loader would refuse (negative drag or added mass, mass <= 0, ...) is
    # not simulated: the nominal vehicle stands in and its outputs are NaN
    reasons = [draws.refusal(plan.params, r[0]) for r in runs]
    bsim = BatchSimulator([plan.params if why else r[0] for r, why in zip(runs, reasons)],
                          dt=sc.dt, substeps=plan.substeps)
    scale = np.array([r[1] for r in runs])[:, None]
    current = np.ascontiguousarray([r[2] for r in runs], dtype=float)
    fins = None if sc.fin_angles is None else np.asarray(sc.fin_angles, dtype=float)
    state = bsim.initial_state(position=sc.initial_position, twist=sc.initial_velocity)
    red = Reducer(n, plan.steps, sc.dt, sc.target_depth)
    red.start(state.position)
    for k in range(plan.steps):
        tau = plan.taus[k][None, :] * scale
        new = bsim.step(state, tau, current_world=current, fin_angles=fins)
        red.step(k + 1, state.twist, new.twist, tau, new.position)
        state = new
    columns = {'run': np.arange(start, stop, dtype=np.int64)}
    for k, v in enumerate(spec.vary):
        columns[v.target] = values[:, k].copy()
    outputs = red.outputs()
    refused = np.array([bool(why) for why in reasons])
    for name in spec.output_columns():
        columns[name] = outputs[name]
        if columns[name].dtype != bool:
            columns[name][refused] = np.nan
    columns['diverged'] = ~(np.all(np.isfinite(state.twist), axis=1)
                            & np.all(np.isfinite(state.position), axis=1)) & ~refused
    columns['refused'] = reasons
    return columns
