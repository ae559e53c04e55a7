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
Wrench mode without ROS: odometry samples in, the hydro wrench the node publishes out.

The live node (``mode: wrench``) and the offline ``replay`` tool both run this class, so
they agree by construction.  Per sample (time t, world ENU position, world <- body
quaternion [w, x, y, z], body twist of the origin):

* ``added_mass: implicit`` — the engine carries M_A in its inertia (SDF
  fluid_added_mass in DART, added mass folded into MuJoCo's body) and so integrates
  (M_RB + M_A) nu_dot + C_A(nu) nu itself, with the absolute twist.  Emitted is only
  what it cannot compute: drag and hydrostatics of nu_r, C_A(nu) nu - C_A(nu_r) nu_r
  (``added_mass_coriolis``) and M_A nu_dot_c (``added_mass``), both zero in still
  water (HydroModel ``engine_added_mass``).  Engine + wrench = the simulate mode's
  equations.
* ``added_mass: lagged`` — the engine carries the bare rigid body; nu_dot from a
  filtered backward difference of the twist (dsros_hydro's scheme,
  LaggedAcceleration with alpha), and -M_A (nu_dot - nu_dot_c) - C_A(nu_r) nu_r is
  emitted.

``current_rate_world`` (dv_c/dt, world frame) adds R^T dv_c/dt to nu_dot_c for a
current that changes; None treats the current as constant.  With :attr:`WrenchMode.field`
set (a :class:`~uwv_hydro.physics.environment.current_field.CurrentField`) and no explicit current,
each sample sees the field at its position and time, and dv_c/dt + G p_dot (p_dot =
R v of the sample) as the rate; the field's time is the sample's time since the first
sample after a reset (``time_origin: clock``: the sample's time as it is).
* ``apply_weight`` false (the default, simulators apply gravity) — the weight
  component is reported as zero and not part of the total.

The world-frame wrench for gz-sim's ApplyLinkWrench is the same wrench about the link
origin with force and torque rotated into the world: F_w = R F_b, T_w = R T_b.
"""

from typing import Optional, Sequence, Tuple

import numpy as np

from uwv_hydro.physics.body.vehicle_params import COMPONENT_NAMES, VehicleParams
from uwv_hydro.physics.hydro.added_mass import LaggedAcceleration
from uwv_hydro.physics.hydro.hydro_model import HydroModel, WrenchComponents
from uwv_hydro.physics.spatial.rotation import quat_to_matrix, quats_to_matrices

ADDED_MASS_MODES = ('implicit', 'lagged')
#: An odometry quaternion whose norm is outside this range (e.g. all zeros) is rejected;
#: inside it, it is normalised (a sender's rounding or scaling) and used.
QUATERNION_NORM_RANGE = (0.5, 2.0)
_WEIGHT = COMPONENT_NAMES.index('weight')


def unit_quaternion(quaternion: Sequence[float]) -> Tuple[Optional[np.ndarray], float]:
    """Return (q / |q|, |q|) for a usable odometry quaternion, else (None, |q|)."""
    q = np.asarray(quaternion, float)
    with np.errstate(over='ignore'):  # |q|^2 beyond float range: inf, refused below
        norm = float(np.sqrt(q @ q)) if np.all(np.isfinite(q)) else float('nan')
    low, high = QUATERNION_NORM_RANGE
    if not low < norm < high:
        return None, norm
    return q / norm, norm


def usable_quaternions(quaternions) -> Tuple[np.ndarray, np.ndarray]:
    """Return (|q| (N,), usable (N,) bool) of N quaternions by :func:`unit_quaternion`'s rule."""
    q = np.asarray(quaternions, dtype=float).reshape(-1, 4)
    with np.errstate(invalid='ignore', over='ignore'):
        norm = np.sqrt(np.einsum('ij,ij->i', q, q))
    low, high = QUATERNION_NORM_RANGE
    # NaN (a non-finite component) fails both comparisons
    return norm, (norm > low) & (norm < high)


class WrenchMode:
    """Evaluate the published hydro wrench for a stream of odometry samples."""

    def __init__(self, params: VehicleParams, added_mass: str = 'implicit',
                 apply_weight: bool = False, acceleration_alpha: Optional[float] = None):
        if added_mass not in ADDED_MASS_MODES:
            raise ValueError("added_mass must be one of %s, got '%s'"
                             % (', '.join(ADDED_MASS_MODES), added_mass))
        self.params = params
        self.model = HydroModel(params)
        self.added_mass = added_mass
        self.apply_weight = apply_weight
        alpha = params.acceleration_alpha if acceleration_alpha is None else acceleration_alpha
        self.estimator = LaggedAcceleration(alpha)
        #: Fin deflections (rad, ``params.fins`` order) the wrench is evaluated with
        #: (None: centred); the node's fin servos set them every update.
        self.fin_angles = None
        #: A current field used when no explicit current is given (None: none).
        self.field = None
        #: the sample time the field's clock starts at (None: the first sample's)
        self.t0 = None
        #: (velocity, rate along the path) of the field at the latest sample
        self.last_current = (None, None)

    def reset(self) -> None:
        """Forget the acceleration history (e.g. after a clock jump backwards)."""
        self.estimator.reset()
        self.t0 = None
        if self.field is not None:
            self.field.reset()

    def field_time(self, t: float) -> float:
        """Return the field's time of the sample time ``t`` (see the module docstring)."""
        if self.field.time_origin == 'clock':
            return float(t)
        if self.t0 is None:
            self.t0 = float(t)
        return float(t) - self.t0

    def field_current(self, t: float, position, quaternion, twist):
        """
        Return (v_c, dv_c/dt along the path) of the field for one sample (world frame).

        A position or quaternion of None (the model's default: submerged, level) samples
        the field at the world origin with the body level.
        """
        where = np.zeros(3) if position is None else np.asarray(position, float)
        sample = self.field.sample(where, self.field_time(t))
        rot = np.eye(3) if quaternion is None else quat_to_matrix(np.asarray(quaternion, float))
        # Fossen 2021 ch. 2: p_dot = R(q) v
        p_dot = rot @ np.asarray(twist, float)[:3]
        return sample.velocity, sample.total_rate(p_dot)

    def evaluate(self, t: float, position: Sequence[float], quaternion: Sequence[float],
                 twist: Sequence[float], current_world: Optional[Sequence[float]] = None,
                 current_rate_world: Optional[Sequence[float]] = None) -> WrenchComponents:
        """Return the components and total for one odometry sample at time t [s]."""
        nu = np.asarray(twist, float)
        if current_world is None and self.field is not None:
            current_world, current_rate_world = self.field_current(t, position, quaternion,
                                                                   nu)
            self.last_current = (current_world, current_rate_world)
        lagged = self.added_mass == 'lagged'
        nu_dot = self.estimator.update(nu, t) if lagged else None
        wc = self.model.wrench(nu, position=position, quaternion=quaternion, nu_dot=nu_dot,
                               current_world=current_world,
                               current_rate_world=current_rate_world,
                               engine_added_mass=not lagged, fin_angles=self.fin_angles)
        if not self.apply_weight:
            wc.components['weight'] = np.zeros(6)
            wc.total = sum(wc.components.values())
        return wc

    def evaluate_many(self, t, position, quaternion, twist, current_world=None,
                      resets=None, current_rate_world=None) -> np.ndarray:
        """
        Return the components (N, len(COMPONENT_NAMES), 6) of N samples in time order.

        The same as N :meth:`evaluate` calls (``resets`` (N,) bool: :meth:`reset` before
        sample k); the total of sample k is ``components[k].sum(axis=0)``.
        """
        nu = np.asarray(twist, dtype=float).reshape(-1, 6)
        if current_world is None and self.field is not None:
            # the field at every sample, in time order (a reset restarts its clock)
            t_all = np.broadcast_to(np.asarray(t, dtype=float), (len(nu),))
            pos = np.broadcast_to(np.asarray(
                [0.0, 0.0, 0.0] if position is None else position, dtype=float).reshape(-1, 3),
                (len(nu), 3))
            quat = np.broadcast_to(np.asarray(
                [1.0, 0.0, 0.0, 0.0] if quaternion is None else quaternion,
                dtype=float).reshape(-1, 4), (len(nu), 4))
            current_world, current_rate_world = np.empty((len(nu), 3)), np.empty((len(nu), 3))
            for k in range(len(nu)):
                if resets is not None and resets[k]:
                    self.t0 = None
                    self.field.reset()
                current_world[k], current_rate_world[k] = self.field_current(
                    t_all[k], pos[k], quat[k], nu[k])
        nu_dot = None
        if self.added_mass == 'lagged':
            nu_dot = self.estimator.update_many(nu, t, resets)
        elif resets is not None and np.any(resets):
            self.estimator.reset()
        comps = self.model.wrench_many(nu, position=position, quaternion=quaternion,
                                       nu_dot=nu_dot, current_world=current_world,
                                       current_rate_world=current_rate_world,
                                       engine_added_mass=nu_dot is None,
                                       fin_angles=self.fin_angles)
        if not self.apply_weight:
            comps[:, _WEIGHT] = 0.0
        return comps


def world_wrench(body_wrench: Sequence[float], quaternion: Sequence[float]) -> np.ndarray:
    """Rotate a body wrench about the link origin into the world frame (ENU)."""
    rot = quat_to_matrix(np.asarray(quaternion, float))
    w = np.asarray(body_wrench, float)
    # F_w = R F_b, T_w = R T_b (same point, only the axes change)
    return np.concatenate([rot @ w[:3], rot @ w[3:]])


def world_wrenches(body_wrenches, quaternions) -> np.ndarray:
    """Return :func:`world_wrench` of N body wrenches (N, 6) and quaternions (N, 4)."""
    rot = quats_to_matrices(quaternions)
    w = np.asarray(body_wrenches, dtype=float).reshape(-1, 2, 3)
    # F_w = R F_b, T_w = R T_b for every sample
    return np.einsum('nij,nkj->nki', rot, w).reshape(-1, 6)
