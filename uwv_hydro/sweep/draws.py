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
The drawn values of every run: a function of (seed, run index) alone.

Run i draws from its own generator, ``numpy.random.Generator(PCG64(SeedSequence([seed,
i])))``, the variations in spec order, so a run's values do not depend on the chunking,
the number of workers or which other runs exist.  A relative variation multiplies the
nominal value by (1 + d) (uniform, normal) or exp(d), d ~ N(0, sigma) (log-normal); an
absolute one adds d.  The value stored (and applied) is the quantity itself, except for
a whole tensor (``quadratic_drag``: every element scaled), whose column is the factor.
A varied off-diagonal added-mass element moves its mirror too (M_A stays symmetric).
"""

import dataclasses
from typing import List, Tuple

import numpy as np

from uwv_hydro.description.conventions import DSROS_LETTERS, letters_to_indices
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.physical_checks import check_physical
from uwv_hydro.sweep.spec import SCALAR_FIELDS, TENSOR_FIELDS, VECTOR_FIELDS


def _index(target):
    name, _, suffix = target.partition('.')
    if name in VECTOR_FIELDS or name == 'current':
        return name, ('xyz'.index(suffix),)
    if name in TENSOR_FIELDS and suffix:
        return name, letters_to_indices(suffix, DSROS_LETTERS, TENSOR_FIELDS[name])
    return target, None


def nominal(spec, params, target) -> float:
    """Return the nominal value of ``target`` (1 for factors, the scenario's current)."""
    name, idx = _index(target)
    if target == 'thrust_scale' or (name in TENSOR_FIELDS and idx is None):
        return 1.0
    if name == 'current':
        return float(spec.scenario.current[idx[0]])
    if name in SCALAR_FIELDS:
        return float(getattr(params, name))
    return float(np.asarray(getattr(params, name))[idx])


def check_against(spec, params) -> List[str]:
    """Raise DescriptionError for a variation that cannot act on ``params``; return notes."""
    notes = []
    for v in spec.vary:
        if v.relative and nominal(spec, params, v.target) == 0.0:
            raise DescriptionError('the nominal value is 0, so a relative variation changes '
                                   'nothing; give relative: false (an absolute offset)',
                                   source=spec.source, element='vary.' + v.target)
    fins = len(params.fins)
    angles = getattr(spec.scenario, 'fin_angles', None)
    if angles is not None and len(angles) != fins:
        raise DescriptionError('%d fin angles given, the vehicle has %d fins (%s)'
                               % (len(angles), fins, ', '.join(f.name for f in params.fins)
                                  or 'none'),
                               source=spec.source, element='scenario.fin_angles')
    return notes


def draw_runs(spec, params, start: int, stop: int) -> np.ndarray:
    """Return the (stop - start, len(spec.vary)) values of runs [start, stop)."""
    nominals = [nominal(spec, params, v.target) for v in spec.vary]
    out = np.empty((stop - start, len(spec.vary)))
    for row, run in enumerate(range(start, stop)):
        rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([spec.seed, run])))
        for k, v in enumerate(spec.vary):
            if v.dist == 'uniform':
                d = rng.uniform(v.args[0], v.args[1])
            else:
                d = rng.normal(0.0, v.args[0])
            if v.dist == 'lognormal':
                out[row, k] = nominals[k] * np.exp(d)
            elif v.relative:
                out[row, k] = nominals[k] * (1.0 + d)
            else:
                out[row, k] = nominals[k] + d
    return out


def apply(spec, params, values) -> Tuple[object, float, np.ndarray]:
    """Return (params of the run, thrust scale, world current) for one row of draw_runs."""
    changes = {}
    scale = 1.0
    current = np.array(getattr(spec.scenario, 'current', (0.0, 0.0, 0.0)), dtype=float)
    for v, value in zip(spec.vary, values):
        name, idx = _index(v.target)
        if v.target == 'thrust_scale':
            scale = float(value)
        elif name == 'current':
            current[idx[0]] = value
        elif name in SCALAR_FIELDS:
            changes[name] = float(value)
        else:
            arr = changes.get(name)
            if arr is None:
                arr = np.array(getattr(params, name), dtype=float)
            if idx is None:
                arr = arr * value
            else:
                arr[idx] = value
                if name == 'added_mass':
                    arr[idx[::-1]] = value
            changes[name] = arr
    return dataclasses.replace(params, **changes) if changes else params, scale, current


def refusal(nominal_params, params) -> str:
    """Return '' when the drawn ``params`` are physical, else the reason (not simulated)."""
    if params is nominal_params:
        return ''
    if not params.mass > 0.0 or not params.fluid_density > 0.0:
        return 'mass and fluid_density must be > 0 (mass %g, fluid_density %g)' % (
            params.mass, params.fluid_density)
    if params.buoyancy_mass < 0.0:
        return 'buoyancy_mass %g < 0' % params.buoyancy_mass
    try:
        # the loader's own checks: drag dissipative, added mass positive and symmetric
        check_physical(dataclasses.replace(params, warnings=[]))
    except DescriptionError as exc:
        return '%s: %s' % (exc.element, exc.reason.split(' (set allow_nonphysical')[0])
    return ''
