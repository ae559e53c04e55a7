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
N vehicles stepped together (Monte Carlo runs, parameter sweeps), vectorised over N.

The same equations and integrator as :class:`uwv_hydro.physics.dynamics.Simulator`
(RK4, implicit added mass, quaternion renormalised after every sub-step), with a
leading batch dimension on every array.  nu_dot is evaluated through the feature
forms of :mod:`uwv_hydro.physics.features` (premultiplied by (M_RB + M_A)^-1)::

    nu_dot = A_lin [z, d, f d, tau] + A_zz vec(z z^T) + A_q vec(|nu_p| nu_p^T)

with z = [nu, R^T v_c] and nu_p = P z, premultiplied into one matrix per parameter set.
Vehicles with equal parameters are grouped automatically (sorted internally; the
caller's order is kept), and each group costs one matrix product (BLAS) per RK4 stage.
A parameter sweep where most vehicles differ would pay one product per vehicle: above
:data:`MAX_GROUP_PRODUCTS` groups the matrices are stacked per vehicle instead and
applied in one contraction over N (about 8.6 kB of coefficients per vehicle).
Internally the states are feature-major, (13, N), so elementwise work runs over N.
Fins (:mod:`uwv_hydro.physics.fins`) are evaluated per RK4 stage for each group that
has them (vectorised over its vehicles) and enter through tau, as in Simulator.
"""
from dataclasses import dataclass, field, fields
from typing import List

import numpy as np

from uwv_hydro.physics.dynamics import Simulator
from uwv_hydro.physics.hydrostatics import transition_fractions

# R(q / |q|) = C^T vec(q q^T) / |q|^2 (Fossen 2011 eq. 2.72, homogeneous form)
_ROT = np.zeros((16, 9))
for (_i, _j), _terms in {
        (0, 0): ((0, 0, 1), (1, 1, 1), (2, 2, -1), (3, 3, -1)),
        (0, 1): ((1, 2, 2), (0, 3, -2)), (0, 2): ((1, 3, 2), (0, 2, 2)),
        (1, 0): ((1, 2, 2), (0, 3, 2)),
        (1, 1): ((0, 0, 1), (1, 1, -1), (2, 2, 1), (3, 3, -1)),
        (1, 2): ((2, 3, 2), (0, 1, -2)), (2, 0): ((1, 3, 2), (0, 2, -2)),
        (2, 1): ((2, 3, 2), (0, 1, 2)),
        (2, 2): ((0, 0, 1), (1, 1, -1), (2, 2, -1), (3, 3, 1))}.items():
    for _a, _b, _c in _terms:
        _ROT[4 * _a + _b, 3 * _i + _j] = _c

# q_dot = 1/2 q (x) [0, w] = vec(q w^T) @ _QDOT (Fossen 2011 eq. 2.86)
_QDOT = np.zeros((12, 4))
for _row, _terms in enumerate((
        ((1, 0, -1), (2, 1, -1), (3, 2, -1)),
        ((0, 0, 1), (2, 2, 1), (3, 1, -1)),
        ((0, 1, 1), (1, 2, -1), (3, 0, 1)),
        ((0, 2, 1), (1, 1, 1), (2, 0, -1)))):
    for _a, _k, _c in _terms:
        _QDOT[3 * _a + _k, _row] = 0.5 * _c

_ROT_T = np.ascontiguousarray(_ROT.T)
_QDOT_T = np.ascontiguousarray(_QDOT.T)

#: Most parameter groups stepped with one matrix product each; more use per-vehicle
#: coefficients (one product costs ~15 us, the stacked contraction ~160 us at N = 1000;
#: measured crossover 16-24 groups).
MAX_GROUP_PRODUCTS = 16

#: VehicleParams fields that do not change the dynamics (ignored when grouping; the
#: thrusters act through the wrench the caller passes).
_IGNORED_FIELDS = {'name', 'base_frame', 'source', 'semantics', 'frames', 'warnings',
                   'acceleration_alpha', 'thrusters', 'allow_nonphysical', 'origins',
                   'coefficient_labels'}


def _params_key(params):
    """Return a hashable key equal for vehicles with identical dynamics parameters."""
    key = []
    for f in fields(params):
        if f.name in _IGNORED_FIELDS:
            continue
        value = getattr(params, f.name)
        if f.name == 'fins':
            key.append(tuple(_params_key(fin) for fin in value))
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


def _upper(b: np.ndarray, m: int) -> np.ndarray:
    """Return the (6, m (m + 1) / 2) coefficients of z_j z_k, j <= k < m, of sum B_ijk z_j z_k."""
    cols = []
    for j in range(m):
        for k in range(j, m):
            cols.append(b[:, j, k] + b[:, k, j] if k != j else b[:, j, j])
    return np.array(cols).T


class _Group:
    """The precomputed matrices of the vehicles sharing one parameter set."""

    def __init__(self, sim: Simulator, rows: slice):
        from uwv_hydro.physics.features import FeatureForms
        self.rows = rows
        forms = FeatureForms(sim.model)
        m_inv = sim._m_inv
        bilinear = forms.rigid_body_coriolis + forms.added_mass_coriolis + forms.current_inertia
        # nu_dot = M^-1 (affine + bilinear terms), Fossen 2011 eq. 10.x
        a_lin = np.hstack(
            (m_inv @ forms.linear, m_inv @ forms.weight, m_inv @ forms.buoyancy, m_inv))
        a_zz = np.einsum('ia,ajk->ijk', m_inv, bilinear)
        a_q = np.einsum('ia,abc->ibc', m_inv, forms.quadratic_point).reshape(6, 36)
        # One matrix per feature layout (_features): z z^T enters through its upper
        # triangle (B_jk + B_kj for j < k); without current only nu (6 of the 9 z) varies
        self.a = {m: np.hstack((a_lin, _upper(a_zz, m), a_q)) for m in (6, 9)}
        surface = sim.model.hydrostatics.surface
        self.surface = (float(surface.fully_submerged_depth),
                        float(surface.out_of_water_depth), float(surface.scale_factor),
                        surface.model == 'continuous')
        self.velocity_point = sim.model.drag.velocity_point
        self.fins = sim.model.fins


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
        for i, p in enumerate(plist):
            k = _params_key(p)
            if k not in keys:
                keys[k] = len(first)
                first.append(p)
            labels[i] = keys[k]
        # Internal order: vehicles grouped by parameter set (stable)
        order = np.argsort(labels, kind='stable')
        self._order = None if np.array_equal(order, np.arange(self.n)) else order
        self._inverse = None if self._order is None else np.argsort(order)
        counts = np.bincount(labels, minlength=len(first))
        sims = [Simulator(p, dt=dt, substeps=substeps) for p in first]
        self.dt = sims[0].dt
        self.substeps = sims[0].substeps
        self._h = sims[0]._h
        self.simulators: List[Simulator] = sims
        self._groups = []
        start = 0
        for sim, count in zip(sims, counts):
            self._groups.append(_Group(sim, slice(start, start + int(count))))
            start += int(count)
        # Per-vehicle constants of the elementwise terms (internal order)
        per_vehicle = np.repeat(np.arange(len(sims)), counts)
        surf = np.array([g.surface for g in self._groups])[per_vehicle]
        self._full, self._out, self._scale = surf[:, 0], surf[:, 1], surf[:, 2]
        self._continuous = surf[:, 3].astype(bool)
        self._r_v = np.array([g.velocity_point for g in self._groups])[per_vehicle].T.copy()
        self._per_vehicle_index = per_vehicle if len(self._groups) > MAX_GROUP_PRODUCTS else None
        self._stacked = {}
        counts = {g.fins.count for g in self._groups if g.fins is not None}
        if len(counts) > 1:
            raise ValueError('vehicles with fins must all have the same number of fins '
                             '(got %s) to share one fin_angles array'
                             % ', '.join(str(c) for c in sorted(counts)))
        #: Fins per vehicle (0: none has fins).
        self.fin_count = counts.pop() if counts else 0
        self._fin_angles = None

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
        # Feature-major layout (13, N): every elementwise operation runs over N
        x = np.empty((13, n))
        x[:3] = np.asarray(state.position, dtype=float).T
        x[3:7] = np.asarray(state.quaternion, dtype=float).T
        x[7:] = np.asarray(state.twist, dtype=float).T
        tau = np.zeros((6, n)) if tau is None else np.broadcast_to(
            np.asarray(tau, dtype=float), (n, 6)).T
        cur = None
        if current_world is not None:
            cur = np.asarray(current_world, dtype=float)
            if cur.shape not in ((3,), (n, 3)):
                raise ValueError('current_world must be (3,) or (%d, 3)' % n)
            if cur.ndim == 2:
                cur = cur.T
        angles = None
        if self.fin_count:
            angles = np.zeros((n, self.fin_count)) if fin_angles is None else np.broadcast_to(
                np.asarray(fin_angles, dtype=float), (n, self.fin_count))
            if not np.all(np.isfinite(angles)):
                raise ValueError('fin angles must be finite')
        if self._order is not None:
            x = x[:, self._order]
            tau = tau[:, self._order]
            angles = None if angles is None else angles[self._order]
            if cur is not None and cur.ndim == 2:
                cur = cur[:, self._order]
        self._fin_angles = angles
        self._normalise(x)
        h = self._h
        f = self._derivative
        for _ in range(self.substeps):
            # Classic RK4 (uwv_dynamic_model): x += h/6 (k1 + 2 k2 + 2 k3 + k4)
            k1 = f(x, tau, cur)
            k2 = f(x + (0.5 * h) * k1, tau, cur)
            k3 = f(x + (0.5 * h) * k2, tau, cur)
            k4 = f(x + h * k3, tau, cur)
            x = x + (h / 6.0) * (k1 + 2.0 * (k2 + k3) + k4)
            # Renormalise the quaternion after every sub-step
            self._normalise(x)
        if self._inverse is not None:
            x = x[:, self._inverse]
        return BatchState(x[:3].T.copy(), x[3:7].T.copy(), x[7:].T.copy())

    @staticmethod
    def _normalise(x: np.ndarray) -> None:
        """Scale the quaternions x[3:7] (4, N) to unit norm in place."""
        q = x[3:7]
        norm = np.sqrt(np.einsum('in,in->n', q, q))
        if not (np.all(norm > 0.0) and np.all(np.isfinite(norm))):
            raise ValueError('cannot normalise a zero or non-finite quaternion')
        # Unit quaternion: q / |q|
        q /= norm

    def _fraction(self, depth: np.ndarray):
        """Return the surface fraction per vehicle (hydrostatics.surface_fraction) or 1.0."""
        if np.all(depth >= self._full):
            return 1.0
        return transition_fractions(depth, self._full, self._out, self._scale,
                                    self._continuous)

    def _derivative(self, x: np.ndarray, tau: np.ndarray, cur) -> np.ndarray:
        """Return d/dt of the flat states x (13, N): [p_dot, q_dot, nu_dot]."""
        n = x.shape[1]
        q = x[3:7]
        nu = x[7:]
        # R(q / |q|) from vec(q q^T), Fossen 2011 eq. 2.72
        qq = (q[:, None, :] * q[None, :, :]).reshape(16, n)
        rot = (_ROT_T @ qq) / np.einsum('in,in->n', q, q)
        r3 = rot.reshape(3, 3, n)
        out = np.empty((13, n))
        # Fossen 2011 eq. 2.83: p_dot = R(q) v
        out[:3] = r3[:, 0] * nu[0] + r3[:, 1] * nu[1] + r3[:, 2] * nu[2]
        # Fossen 2011 eq. 2.86: q_dot = 1/2 q (x) [0, w]
        out[3:7] = _QDOT_T @ (q[:, None, :] * nu[None, 3:, :]).reshape(12, n)
        m = 6 if cur is None else 9
        # Features [z (9), d, f d, tau, z_j z_k (j <= k < m), |nu_p| nu_p^T (36)]
        feats = np.empty((21 + m * (m + 1) // 2 + 36, n))
        feats[:6] = nu
        if cur is None:
            feats[6:9] = 0.0
        elif cur.ndim == 1:
            # Body-frame current v_cb = R^T v_c (Fossen 2011 sec. 10.3)
            feats[6:9] = r3[0] * cur[0] + r3[1] * cur[1] + r3[2] * cur[2]
        else:
            feats[6:9] = r3[0] * cur[0] + r3[1] * cur[1] + r3[2] * cur[2]
        # Down direction d = -R[2, :] (hydrostatics.down_direction)
        np.negative(rot[6:9], out=feats[9:12])
        feats[15:21] = tau
        for g in self._groups:
            if g.fins is not None:
                cols = g.rows
                # Fins see the twist relative to the water: nu_r = nu - [v_cb, 0]
                nu_r = feats[:6, cols].T.copy()
                nu_r[:, :3] -= feats[6:9, cols].T
                feats[15:21, cols] += g.fins.wrench_many(nu_r, self._fin_angles[cols]).T
        z = feats[:9]
        row = 21
        for j in range(m):
            np.multiply(z[j], z[j:m], out=feats[row:row + m - j])
            row += m - j
        # Buoyancy feature f d
        np.multiply(self._fraction(-x[2]), feats[9:12], out=feats[12:15])
        # Drag velocity-point twist nu_p = H(r_v) nu_r: v_r + w x r_v, w (Fossen 2011
        # eq. 7.236)
        nu_p = np.empty((6, n))
        w, r = nu[3:], self._r_v
        np.subtract(nu[:3], feats[6:9], out=nu_p[:3])
        nu_p[0] += w[1] * r[2] - w[2] * r[1]
        nu_p[1] += w[2] * r[0] - w[0] * r[2]
        nu_p[2] += w[0] * r[1] - w[1] * r[0]
        nu_p[3:] = w
        np.multiply(np.abs(nu_p)[:, None, :], nu_p[None, :, :],
                    out=feats[row:].reshape(6, 6, n))
        if self._per_vehicle_index is None:
            for g in self._groups:
                cols = g.rows
                out[7:, cols] = g.a[m] @ feats[:, cols]
        else:
            # nu_dot_v = A_v feats_v for every vehicle v in one contraction over N
            out[7:] = np.einsum('ifn,fn->in', self._stacked_matrices(m), feats)
        return out

    def _stacked_matrices(self, m: int) -> np.ndarray:
        """Return the (6, features, N) per-vehicle matrices of layout ``m`` (built once)."""
        stacked = self._stacked.get(m)
        if stacked is None:
            per_group = np.stack([g.a[m] for g in self._groups])
            stacked = np.ascontiguousarray(
                per_group[self._per_vehicle_index].transpose(1, 2, 0))
            self._stacked[m] = stacked
        return stacked
