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
N vehicles stepped together (Monte Carlo runs, parameter sweeps).

The same equations and integrator as :class:`uwv_hydro.physics.body.dynamics.Simulator`
(RK4, implicit added mass, quaternion renormalised after every sub-step, fins evaluated
at every RK4 stage with their angles held), run by the same compiled core
(:mod:`uwv_hydro.physics.kernel`, ``batch_step``) in one call per step: a loop over the
vehicles in C, each with the coefficients of its parameter set.  Vehicles with equal
parameters share one set (found automatically; each vehicle carries the index of its
set), so a sweep where every vehicle differs costs about what a fleet of one design
does per step; only the setup (one Simulator per parameter set) grows with the sets.
"""
from dataclasses import dataclass, field, fields
from typing import List

import numpy as np

from uwv_hydro.physics.body.dynamics import Simulator
from uwv_hydro.physics.kernel import core

#: VehicleParams fields that do not change the dynamics (ignored when grouping; the
#: thrusters act through the wrench the caller passes; sensors only measure).
_IGNORED_FIELDS = {'name', 'base_frame', 'source', 'semantics', 'frames', 'warnings',
                   'acceleration_alpha', 'thrusters', 'allow_nonphysical', 'origins',
                   'coefficient_labels', 'sensors', 'elements',
                   # the batch steps no seabed contact
                   'contact', 'contact_warnings'}


def _params_key(params):
    """Return a hashable key equal for vehicles with identical dynamics parameters."""
    key = []
    for f in fields(params):
        if f.name in _IGNORED_FIELDS:
            continue
        value = getattr(params, f.name)
        if f.name == 'fins':
            key.append(tuple(_params_key(fin) for fin in value))
        elif f.name == 'hull' and value is not None:
            key.append(_params_key(value))
        elif value is None or isinstance(value, (bool, int, float, str)):
            key.append(value)
        elif hasattr(value, '__dataclass_fields__'):
            key.append(tuple(getattr(value, g.name) for g in fields(value)))
        else:
            arr = np.asarray(value, dtype=float)
            key.append((arr.shape, arr.tobytes()))
    return tuple(key)


@dataclass
class BatchState:
    """States of N vehicles: positions (N, 3), quaternions [w, x, y, z] (N, 4), twists (N, 6)."""

    position: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    quaternion: np.ndarray = field(default_factory=lambda: np.zeros((0, 4)))
    twist: np.ndarray = field(default_factory=lambda: np.zeros((0, 6)))

    def __len__(self) -> int:
        return self.position.shape[0]


class BatchSimulator:
    """
    Fixed-step RK4 integrator of N vehicles at once.

    ``params``: a list of VehicleParams (one per vehicle), or one VehicleParams with
    ``n`` vehicles; ``dt`` and ``substeps`` as for Simulator.  Every vehicle matches
    ``Simulator(params_i, dt, substeps).step`` to rounding (tested to 1e-12).
    """

    def __init__(self, params, dt: float = 0.01, substeps: int = 1, n: int = None):
        if isinstance(params, (list, tuple)):
            plist = list(params)
            if n is not None and n != len(plist):
                raise ValueError('n = %d but %d parameter sets given' % (n, len(plist)))
        else:
            if n is None or int(n) < 1:
                raise ValueError('one VehicleParams needs n >= 1 vehicles')
            plist = [params] * int(n)
        if not plist:
            raise ValueError('no vehicles')
        self.n = len(plist)
        keys = {}
        labels = np.empty(self.n, dtype=np.int64)
        first = []
        by_id = {}   # the same object given for many vehicles: its key once
        for i, p in enumerate(plist):
            k = by_id.get(id(p))
            if k is None:
                k = by_id[id(p)] = _params_key(p)
            if k not in keys:
                keys[k] = len(first)
                first.append(p)
            labels[i] = keys[k]
        sims = [Simulator(p, dt=dt, substeps=substeps) for p in first]
        self.dt = sims[0].dt
        self.substeps = sims[0].substeps
        self._h = sims[0]._h
        self.simulators: List[Simulator] = sims
        # Vehicle v uses the coefficients of parameter set labels[v]
        self._models = tuple(sim.core for sim in sims)
        self._group = labels
        counts = {sim.model.fins.count for sim in sims if sim.model.fins is not None}
        if len(counts) > 1:
            raise ValueError('vehicles with fins must all have the same number of fins '
                             '(got %s) to share one fin_angles array'
                             % ', '.join(str(c) for c in sorted(counts)))
        #: Fins per vehicle (0: none has fins).
        self.fin_count = counts.pop() if counts else 0

    def initial_state(self, position=None, quaternion=None, twist=None) -> BatchState:
        """Return a BatchState; each argument is one value for all (broadcast) or per vehicle."""
        n = self.n
        pos = np.zeros(3) if position is None else np.asarray(position, dtype=float)
        quat = (np.array([1.0, 0.0, 0.0, 0.0]) if quaternion is None
                else np.asarray(quaternion, dtype=float))
        nu = np.zeros(6) if twist is None else np.asarray(twist, dtype=float)
        return BatchState(np.broadcast_to(pos, (n, 3)).copy(),
                          np.broadcast_to(quat, (n, 4)).copy(),
                          np.broadcast_to(nu, (n, 6)).copy())

    def step(self, state: BatchState, tau=None, current_world=None,
             fin_angles=None) -> BatchState:
        """
        Advance all vehicles by dt; return a new BatchState.

        ``tau``: body wrenches (N, 6) or one (6,) for all (None: zero);
        ``current_world``: ENU current (3,) for all or (N, 3) per vehicle (None: still);
        ``fin_angles``: fin deflections (rad) (N, K) or (K,) for all, held over the step
        (None: zero; ignored for vehicles without fins).
        """
        n = self.n
        pos, quat, nu = (np.ascontiguousarray(np.asarray(a, dtype=float).reshape(n, k))
                         for a, k in ((state.position, 3), (state.quaternion, 4),
                                      (state.twist, 6)))
        out = BatchState(np.empty((n, 3)), np.empty((n, 4)), np.empty((n, 6)))
        tau_stride = 0
        if tau is not None:
            tau = np.asarray(tau, dtype=float)
            if tau.shape == (6,):
                tau = np.ascontiguousarray(tau)
            else:
                tau = np.ascontiguousarray(np.broadcast_to(tau, (n, 6)))
                tau_stride = 6
        cur, cur_stride = None, 0
        if current_world is not None:
            cur = np.asarray(current_world, dtype=float)
            if cur.shape not in ((3,), (n, 3)):
                raise ValueError('current_world must be (3,) or (%d, 3)' % n)
            cur_stride = 3 if cur.ndim == 2 else 0
            cur = np.ascontiguousarray(cur)
        angles, angle_stride = None, 0
        if self.fin_count and fin_angles is not None:
            angles = np.asarray(fin_angles, dtype=float)
            if angles.shape != (self.fin_count,):
                angles = np.broadcast_to(angles, (n, self.fin_count))
                angle_stride = self.fin_count
            if not np.all(np.isfinite(angles)):
                raise ValueError('fin angles must be finite')
            angles = np.ascontiguousarray(angles)
        # RK4 of every vehicle (uwv_dynamic_model) with its parameter set, in the core
        bad = core.batch_step(self._models, self._group, pos, quat, nu, out.position,
                              out.quaternion, out.twist, tau, tau_stride, cur, cur_stride,
                              angles, angle_stride, self._h, self.substeps)
        if bad >= 0:
            raise ValueError('cannot normalise the zero or non-finite quaternion of vehicle %d'
                             % bad)
        return out
