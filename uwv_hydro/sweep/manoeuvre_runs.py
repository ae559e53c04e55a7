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
A chunk of a manoeuvre sweep: each run flies the scenario's manoeuvre with its vehicle.

:class:`uwv_hydro.modes.manoeuvres.manoeuvre.Manoeuvre` flies one vehicle (it is not batched), so
a chunk loops over its runs: run i builds the drawn VehicleParams, flies the manoeuvre
as ``uwv-hydro manoeuvre`` does (same defaults: approach 5 s, turn until 450 deg,
zig-zag with 4 reversals) and keeps its figures, plus ``depth_deviation_m``, the
largest |depth - depth held| over the flight.  A run whose manoeuvre is refused
(:class:`ManoeuvreError`, e.g. its propellers cannot hold the speed) is recorded in the
``refused`` column with the reason, its figures NaN.
"""

import math
from typing import Dict, Tuple

import numpy as np

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.modes.manoeuvres.manoeuvre import Manoeuvre, ManoeuvreError
from uwv_hydro.sweep import draws
from uwv_hydro.sweep.spec import manoeuvre_outputs


def _commands(manoeuvre, scenario):
    """Return (rudder, check, spiral commands) in the Manoeuvre's units (the CLI's rule)."""
    if manoeuvre.differential is not None:   # differential thrust: fractions, not angles
        rudder = scenario.differential
        spiral = list(scenario.angles or ())
        check = math.radians(10.0 if scenario.check is None else scenario.check)
        return rudder, check, spiral
    check = None if scenario.check is None else math.radians(scenario.check)
    return (math.radians(scenario.rudder), check,
            [math.radians(a) for a in scenario.angles or ()])


def check_nominal(spec, params) -> None:
    """Raise DescriptionError when the nominal vehicle cannot fly the scenario's manoeuvre."""
    sc = spec.scenario
    try:
        manoeuvre = Manoeuvre(params, speed=sc.speed, depth=sc.depth, dt=sc.dt,
                              depth_hold=sc.depth_hold)
    except ManoeuvreError as exc:
        raise DescriptionError(str(exc), source=spec.source,
                               element='scenario.manoeuvre') from None
    if manoeuvre.differential is not None:
        for value in sc.angles or ():
            if not abs(value) <= 1.0:
                raise DescriptionError('differential %g is outside [-1, 1]' % value,
                                       source=spec.source, element='scenario.angles')
        return
    limit = math.degrees(manoeuvre.max_rudder)
    for key, angle in [('rudder', sc.rudder)] + [('angles', a) for a in sc.angles or ()]:
        if abs(angle) > limit + 1e-9:
            raise DescriptionError("rudder angle %g deg is beyond the fins' limit %.3g deg"
                                   % (angle, limit), source=spec.source,
                                   element='scenario.' + key)


def fly(params, scenario) -> Tuple[Dict[str, float], bool]:
    """
    Fly the manoeuvre with ``params``; return (figures, the state stayed finite).

    Raises ManoeuvreError when the vehicle cannot fly it.
    """
    manoeuvre = Manoeuvre(params, speed=scenario.speed, depth=scenario.depth,
                          dt=scenario.dt, depth_hold=scenario.depth_hold)
    rudder, check, spiral = _commands(manoeuvre, scenario)
    if scenario.kind == 'turn':
        figures = manoeuvre.turn(rudder)
    elif scenario.kind == 'zigzag':
        figures = manoeuvre.zigzag(rudder, check)
    elif scenario.kind == 'pullout':
        figures = manoeuvre.pullout(rudder, settle=scenario.settle)
    else:
        figures = manoeuvre.spiral(spiral)
        values = {}
        for angle, (_, rate, speed) in zip(scenario.angles, figures.table):
            values['yaw_rate_deg_s_at_%g' % angle] = rate
            values['speed_m_s_at_%g' % angle] = speed
        return values, bool(np.all(np.isfinite(figures.table)))
    values = dict(figures.values)
    # depth = -z (ENU)
    values['depth_deviation_m'] = float(np.max(np.abs(
        -figures.flight.position[:, 2] - scenario.depth)))
    flight = figures.flight
    return values, bool(np.all(np.isfinite(flight.position))
                        and np.all(np.isfinite(flight.twist)))


def run_chunk(plan, index: int) -> Dict[str, np.ndarray]:
    """Run chunk ``index`` of a manoeuvre sweep, run after run; return its columns."""
    spec = plan.spec
    start, stop = spec.chunk_range(index)
    values = draws.draw_runs(spec, plan.params, start, stop)
    names = manoeuvre_outputs(spec.scenario)
    figures = {name: np.full(stop - start, np.nan) for name in names}
    reasons = []
    diverged = np.zeros(stop - start, dtype=bool)
    for row, drawn in enumerate(values):
        params = draws.apply(spec, plan.params, drawn)[0]
        why = draws.refusal(plan.params, params)
        if not why:
            try:
                got, finite = fly(params, spec.scenario)
            except ManoeuvreError as exc:
                why = 'manoeuvre refused: %s' % exc
            else:
                diverged[row] = not finite
                for name in names:
                    figures[name][row] = got.get(name, math.nan)
        reasons.append(why)
    columns = {'run': np.arange(start, stop, dtype=np.int64)}
    for k, v in enumerate(spec.vary):
        columns[v.target] = values[:, k].copy()
    for name in spec.output_columns():
        columns[name] = figures[name]
    columns['diverged'] = diverged
    columns['refused'] = reasons
    return columns
