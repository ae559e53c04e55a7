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
The hydrostatic and hydrodynamic wrench on a vehicle, split into named components.

Which velocity each component uses (nu = body twist of the origin, nu_c =
[R^T v_current_world, 0, 0, 0], nu_r = nu - nu_c; H(r) the twist transfer matrix)::

    weight               none (attitude only), m g at com
    buoyancy             none (attitude and origin depth), rho V g at cob
    linear_drag          H(drag_velocity_point) nu_r, acting at drag_center (also the
                         forward-speed term -u L_u nu)
    quadratic_drag       H(drag_velocity_point) nu_r, acting at drag_center
    added_mass           H(added_mass_point) (nu_dot - nu_dot_c), about added_mass_point
    added_mass_coriolis  H(added_mass_point) nu_r, about added_mass_point
    fins                 nu_r at each fin's centre of pressure, given ``fin_angles``
    hull_lift            nu_r of the origin: flow angle and speed (physics.hydro.hull_lift)
    crossflow_drag       nu_r moved to each strip of the hull (physics.hydro.crossflow_drag)

With ``engine_added_mass`` (an engine carries M_A and computes C_A(nu) nu itself) the
last two are M_A,O nu_dot_c and C_A(nu) nu - C_A(nu_r) nu_r (zero in still water).
Every component is a body-frame wrench about the body origin (tau_O = H(r)^T tau_p).
nu_dot_c = [-w x v_c_body + R^T dv_c/dt, 0, 0, 0] is the body-frame rate of the world
current (Fossen 2021 ch. 10: the added-mass inertial term is -M_A nu_dot_r).  The
rigid-body Coriolis term is no hydro wrench (:mod:`uwv_hydro.physics.body.dynamics` owns it).

:meth:`HydroModel.wrench` evaluates all components at once through the feature forms
of :mod:`uwv_hydro.physics.hydro.wrench_forms`; :meth:`HydroModel.dynamics_wrench` keeps the
term-by-term evaluation.  ``params.semantics`` ('origin' or 'dsros') needs no separate
code path: a dsros block is reproduced by the reference points its loader sets.
``params.coriolis`` or ``params.added_mass_coriolis`` False zeroes ``added_mass_coriolis``
(as gz-sim's ``<disable_coriolis>``); ``params.damping`` 'quadratic_only' ignores L.
"""
from dataclasses import dataclass, field
import math
from typing import Dict

import numpy as np

from uwv_hydro.physics.actuators.fins import FinSet
from uwv_hydro.physics.body.rigid_body import rigid_body_mass_matrix
from uwv_hydro.physics.body.vehicle_params import COMPONENT_NAMES
from uwv_hydro.physics.hydro import wrench_forms as features
from uwv_hydro.physics.hydro.added_mass import AddedMass
from uwv_hydro.physics.hydro.crossflow_drag import CrossflowDrag
from uwv_hydro.physics.hydro.drag import Drag
from uwv_hydro.physics.hydro.hull_lift import HullLift
from uwv_hydro.physics.hydro.hydrostatics import Hydrostatics, surface_fractions
from uwv_hydro.physics.spatial.rotation import cross, quats_to_matrices

#: Nonlinear components, evaluated beside the feature-form kernel (appended after it).
NONLINEAR_COMPONENTS = ('fins', 'hull_lift', 'crossflow_drag')
#: Components evaluated by the feature-form kernel (all but the nonlinear ones).
KERNEL_COMPONENTS = tuple(name for name in COMPONENT_NAMES if name not in NONLINEAR_COMPONENTS)
assert COMPONENT_NAMES[-3:] == NONLINEAR_COMPONENTS, 'nonlinear blocks follow the kernel'
_NO_FINS = np.zeros(6)


@dataclass
class WrenchComponents:
    """Named body-frame wrenches about the body origin and their sum."""

    #: Component name -> np.ndarray(6); keys are ``COMPONENT_NAMES``, all present.
    components: Dict[str, np.ndarray] = field(default_factory=dict)
    #: Sum of the components, np.ndarray(6).
    total: np.ndarray = field(default_factory=lambda: np.zeros(6))


class HydroModel:
    """
    Hydrostatic and hydrodynamic wrenches of one vehicle.

    Everything state-independent (reference points, transfer matrices, the
    origin-referenced mass matrices, nonzero drag entries) is computed once here.
    """

    def __init__(self, params):
        self.params = params
        self.hydrostatics = Hydrostatics(params)
        self.drag = Drag(params)
        self.added_mass = AddedMass(params.added_mass, params.added_mass_point)
        #: The rigid-body Coriolis -C_RB(nu) nu is on (``params.coriolis``).
        self.coriolis = bool(params.coriolis)
        #: The added-mass Coriolis -C_A(nu_r) nu_r is on (both switches).
        self.added_mass_coriolis = self.coriolis and bool(
            getattr(params, 'added_mass_coriolis', True))
        # Fossen 2021 ch. 3 with the parallel-axis inertia about the origin
        self._m_rb = rigid_body_mass_matrix(params.mass, params.inertia, params.com)
        # M = M_RB + M_A (both about the origin; added mass: Fossen 2011 ch. 6)
        self._mass = self._m_rb + self.added_mass.origin_matrix
        #: The fins (None: the vehicle has none).
        self.fins = FinSet(params.fins, params.fluid_density) if params.fins else None
        hull = getattr(params, 'hull', None)
        #: The hull's body lift and cross-flow drag (None: the vehicle has no hull model).
        self.hull_lift = None if hull is None else HullLift(hull, params.fluid_density)
        self.crossflow = None if hull is None else CrossflowDrag(hull, params.fluid_density)
        self._init_kernels()

    def _init_kernels(self):
        """Precompute the component kernels (with and without nu_dot) of :meth:`wrench`."""
        forms = features.FeatureForms(self)
        z6, z3, z69, z699 = (np.zeros((6, 9)), np.zeros((6, 3)), np.zeros((6, 6, 9)),
                             np.zeros((6, 9, 9)))
        zero6 = np.zeros((6, 6))
        # One 6-row block per kernel component, in COMPONENT_NAMES order
        blocks = {
            'weight': (z6, forms.weight, z3, zero6, z69, z699),
            'buoyancy': (z6, z3, forms.buoyancy, zero6, z69, z699),
            'linear_drag': (forms.linear, z3, z3, zero6, z69, forms.forward_speed),
            'quadratic_drag': (z6, z3, z3, zero6, forms.quadratic, forms.signed_quadratic),
            # Fossen 2021 ch. 10: -M_A,O (nu_dot - nu_dot_c) with nu_dot the extra input
            'added_mass': (z6, z3, z3, -forms.added_mass_origin, z69, forms.current_inertia),
            'added_mass_coriolis': (z6, z3, z3, zero6, z69, forms.added_mass_coriolis),
        }
        parts = [np.concatenate([blocks[name][i] for name in KERNEL_COMPONENTS])
                 for i in range(6)]
        self._kernel_dot = features.build_kernel(*parts, forms.p)
        # An engine carrying M_A integrates (M_RB + M_A) nu_dot + C_A(nu) nu itself; left
        # for the wrench: C_A(nu) nu - C_A(nu_r) nu_r and M_A,O nu_dot_c (Fossen 2021
        # ch. 10); the extra input then holds -[R^T dv_c/dt, 0] (a changing current)
        i = KERNEL_COMPONENTS.index('added_mass_coriolis')
        rows = slice(6 * i, 6 * i + 6)
        engine = [part.copy() for part in parts]
        engine[5][rows] -= forms.engine_added_mass_coriolis
        self._kernel_engine = features.build_kernel(*engine, forms.p)
        parts[3][24:30] = 0.0
        parts[5][24:30] = 0.0
        self._kernel_no_dot = features.build_kernel(*parts, forms.p)
        surface = self.hydrostatics.surface
        self._full_depth = float(surface.fully_submerged_depth)
        self._out_depth = float(surface.out_of_water_depth)

    def mass_matrix(self) -> np.ndarray:
        """Return the 6x6 M_RB + M_A referred to the body origin."""
        return self._mass.copy()

    def rigid_body_mass_matrix(self) -> np.ndarray:
        """Return the 6x6 rigid-body mass matrix M_RB about the body origin."""
        return self._m_rb.copy()

    def added_mass_matrix(self) -> np.ndarray:
        """Return the 6x6 added-mass matrix referred to the body origin (H^T M_A H)."""
        return self.added_mass.origin_matrix.copy()

    @staticmethod
    def current_twist(rotation, nu, current_world):
        """
        Return (nu_c, nu_dot_c) for a constant world-frame current.

        nu_c = [R^T v_c, 0, 0, 0]; its body-frame rate is [-w x (R^T v_c), 0, 0, 0].
        Both are None when ``current_world`` is None.
        """
        if current_world is None:
            return None, None
        v_cb = rotation.T @ np.asarray(current_world, dtype=float).reshape(3)
        nu_c = np.zeros(6)
        nu_c[:3] = v_cb
        nu_dot_c = np.zeros(6)
        # d/dt (R^T v_c) = -S(w) R^T v_c for constant v_c (R_dot = R S(w), Fossen 2021 ch. 2)
        nu_dot_c[:3] = -cross(nu[3:], v_cb)
        return nu_c, nu_dot_c

    def _kernel_for(self, nu_dot, current_rate_world, engine_added_mass):
        """Return the kernel for the given inputs (ValueError for a contradictory set)."""
        if engine_added_mass:
            if nu_dot is not None:
                raise ValueError('nu_dot is no input when the engine carries the added mass')
            return self._kernel_engine
        if nu_dot is None:
            if current_rate_world is not None:
                raise ValueError('current_rate_world needs nu_dot or engine_added_mass')
            return self._kernel_no_dot
        return self._kernel_dot

    def wrench(self, nu, position=None, quaternion=None, nu_dot=None,
               current_world=None, current_rate_world=None,
               engine_added_mass=False, fin_angles=None) -> WrenchComponents:
        """
        Return the hydro wrench components for one state.

        ``nu``: body twist of the origin; ``position``: world position of the origin
        (None: fully submerged); ``quaternion``: [w, x, y, z] world <- body (None:
        level); ``nu_dot``: body twist derivative (None: added_mass is zero);
        ``current_world``: ENU current velocity (None: still water);
        ``current_rate_world``: its time derivative (None: a constant current);
        ``fin_angles``: fin deflections (rad) in ``params.fins`` order (None: zero).

        ``engine_added_mass``: the engine integrating the body carries M_A in its
        inertia and computes C_A(nu) nu from the absolute twist itself (implicit
        added mass); ``added_mass`` is then M_A,O nu_dot_c and ``added_mass_coriolis``
        C_A(nu) nu - C_A(nu_r) nu_r, both zero in still water (no ``nu_dot``).
        """
        n = np.asarray(nu, dtype=float).reshape(6).tolist()
        if quaternion is None:
            r00, r01, r02 = 1.0, 0.0, 0.0
            r10, r11, r12 = 0.0, 1.0, 0.0
            r20, r21, r22 = 0.0, 0.0, 1.0
        else:
            qw, qx, qy, qz = np.asarray(quaternion, dtype=float).reshape(4).tolist()
            norm2 = qw * qw + qx * qx + qy * qy + qz * qz
            if not norm2 > 0.0 or not math.isfinite(norm2):
                raise ValueError('cannot normalise quaternion %r' % (quaternion,))
            # Fossen 2021 ch. 2 for q / |q|: R = I + 2/|q|^2 (w S(e) + S(e)^2)
            s = 2.0 / norm2
            xx, yy, zz = s * qx * qx, s * qy * qy, s * qz * qz
            xy, xz, yz = s * qx * qy, s * qx * qz, s * qy * qz
            wx, wy, wz = s * qw * qx, s * qw * qy, s * qw * qz
            r00, r01, r02 = 1.0 - (yy + zz), xy - wz, xz + wy
            r10, r11, r12 = xy + wz, 1.0 - (xx + zz), yz - wx
            r20, r21, r22 = xz - wy, yz + wx, 1.0 - (xx + yy)
        if position is None:
            fraction = 1.0
        else:
            depth = -float(position[2])
            if depth >= self._full_depth:
                fraction = 1.0
            elif depth <= self._out_depth:
                fraction = 0.0
            else:
                fraction = self.hydrostatics.fraction(depth)
        if current_world is None:
            c0 = c1 = c2 = 0.0
        else:
            cw = np.asarray(current_world, dtype=float).reshape(3).tolist()
            # Body-frame current v_cb = R^T v_c (Fossen 2021 ch. 10)
            c0 = r00 * cw[0] + r10 * cw[1] + r20 * cw[2]
            c1 = r01 * cw[0] + r11 * cw[1] + r21 * cw[2]
            c2 = r02 * cw[0] + r12 * cw[1] + r22 * cw[2]
        # Down direction d = R^T [0, 0, -1] = -R[2, :] (hydrostatics.down_direction)
        d0, d1, d2 = -r20, -r21, -r22
        buf = features.new_buffer()
        buf[features.Z_SLICE.start:features.FD_SLICE.stop] = (
            n[0], n[1], n[2], n[3], n[4], n[5], c0, c1, c2, d0, d1, d2,
            fraction * d0, fraction * d1, fraction * d2)
        kernel = self._kernel_for(nu_dot, current_rate_world, engine_added_mass)
        extra = buf[features.EXTRA_SLICE]
        if nu_dot is not None:
            extra[:] = np.asarray(nu_dot, dtype=float).reshape(6)
        if current_rate_world is not None:
            cr = np.asarray(current_rate_world, dtype=float).reshape(3).tolist()
            # nu_dot - nu_dot_c with the changing current's part R^T dv_c/dt (Fossen 2021 ch. 10)
            extra[0] -= r00 * cr[0] + r10 * cr[1] + r20 * cr[2]
            extra[1] -= r01 * cr[0] + r11 * cr[1] + r21 * cr[2]
            extra[2] -= r02 * cr[0] + r12 * cr[1] + r22 * cr[2]
        # Feature forms (module features): y = K buf[7:], |nu_p|, out = Y [|nu_p|, 1, z]
        y = kernel.dot(buf[features.LIN_START:])
        np.absolute(y[-6:], buf[features.ABS_SLICE])
        values = y[:-6].reshape(len(KERNEL_COMPONENTS), 6, features.U_SIZE).dot(
            buf[:features.U_SIZE])
        # Fins and hull see the twist relative to the water: nu_r = nu - [v_cb, 0]
        nu_r = [n[0] - c0, n[1] - c1, n[2] - c2, n[3], n[4], n[5]]
        fins = lift = cross = _NO_FINS
        if self.fins is not None:
            fins = self.fins.wrench(nu_r, fin_angles)
        if self.hull_lift is not None:
            lift = self.hull_lift.wrench(nu_r)
            cross = self.crossflow.wrench(nu_r)
        values = np.concatenate((values, (fins, lift, cross)))
        components = dict(zip(COMPONENT_NAMES, values))
        # Superposition of the component wrenches (all about the origin)
        total = np.add.reduce(values)
        return WrenchComponents(components=components, total=total)

    def wrench_many(self, nu, position=None, quaternion=None, nu_dot=None,
                    current_world=None, current_rate_world=None,
                    engine_added_mass=False, fin_angles=None) -> np.ndarray:
        """
        Return the components of N states at once, an (N, len(COMPONENT_NAMES), 6) array.

        Row k holds ``wrench(nu[k], position[k], quaternion[k], nu_dot[k],
        current_world, current_rate_world, engine_added_mass).components`` in
        COMPONENT_NAMES order: the same kernel over a leading batch dimension.  ``nu``
        (N, 6); ``position`` (N, 3) or None; ``quaternion`` (N, 4) [w, x, y, z] or None;
        ``nu_dot`` (N, 6) or None; ``current_world`` and ``current_rate_world`` (3,) for
        all states, (N, 3) one per state (a current field), or None; ``fin_angles``
        (K,) for all or (N, K) per state, or
        None (zero).
        """
        nu = np.asarray(nu, dtype=float).reshape(-1, 6)
        n = len(nu)
        buf = np.zeros((n, features.BUFFER_SIZE))
        buf[:, features.ONE_INDEX] = 1.0
        buf[:, features.Z_SLICE.start:features.Z_SLICE.start + 6] = nu
        if quaternion is None:
            rot = np.broadcast_to(np.eye(3), (n, 3, 3))
        else:
            rot = quats_to_matrices(np.asarray(quaternion, dtype=float).reshape(n, 4))
        # Down direction d = R^T [0, 0, -1] = -R[2, :] (hydrostatics.down_direction)
        down = buf[:, features.D_SLICE]
        np.negative(rot[:, 2, :], out=down)
        if position is None:
            buf[:, features.FD_SLICE] = down
        else:
            depth = -np.asarray(position, dtype=float).reshape(n, 3)[:, 2]
            fraction = surface_fractions(depth, self.hydrostatics.surface)
            buf[:, features.FD_SLICE] = fraction[:, None] * down
        if current_world is not None:
            # Body-frame current v_cb = R^T v_c (Fossen 2021 ch. 10)
            cw = np.broadcast_to(np.asarray(current_world, dtype=float).reshape(-1, 3), (n, 3))
            buf[:, features.Z_SLICE.start + 6:features.Z_SLICE.stop] = np.einsum(
                'nji,nj->ni', rot, cw)
        kernel = self._kernel_for(nu_dot, current_rate_world, engine_added_mass)
        if nu_dot is not None:
            buf[:, features.EXTRA_SLICE] = np.asarray(nu_dot, dtype=float).reshape(n, 6)
        if current_rate_world is not None:
            cr = np.broadcast_to(np.asarray(current_rate_world, dtype=float).reshape(-1, 3),
                                 (n, 3))
            # nu_dot - nu_dot_c with the changing current's part R^T dv_c/dt (Fossen 2021 ch. 10)
            buf[:, features.EXTRA_SLICE.start:features.EXTRA_SLICE.start + 3] -= np.einsum(
                'nji,nj->ni', rot, cr)
        # Feature forms (module features), row by row: y = K buf[7:], |nu_p|, Y [|nu_p|, 1, z]
        y = buf[:, features.LIN_START:] @ kernel.T
        np.absolute(y[:, -6:], out=buf[:, features.ABS_SLICE])
        values = np.einsum('nij,nj->ni', y[:, :-6].reshape(n, -1, features.U_SIZE),
                           buf[:, :features.U_SIZE]).reshape(n, len(KERNEL_COMPONENTS), 6)
        # Fins and hull see the twist relative to the water: nu_r = nu - [v_cb, 0]
        nu_r = nu.copy()
        nu_r[:, :3] -= buf[:, features.Z_SLICE.start + 6:features.Z_SLICE.stop]
        extra = np.zeros((n, 3, 6))
        if self.fins is not None:
            extra[:, 0] = self.fins.wrench_many(nu_r, fin_angles)
        if self.hull_lift is not None:
            extra[:, 1] = self.hull_lift.wrench_many(nu_r)
            extra[:, 2] = self.crossflow.wrench_many(nu_r)
        return np.concatenate((values, extra), axis=1)

    def dynamics_wrench(self, nu, rotation, fraction: float, current_world=None,
                        fin_angles=None) -> np.ndarray:
        """
        Return the hydro wrench for the equations of motion with implicit added mass.

        The sum of all components except ``added_mass``, plus M_A nu_dot_c (the part
        of -M_A nu_dot_r that does not depend on the unknown nu_dot, Fossen 2021
        ch. 10).  ``rotation`` is R(q), ``fraction`` the surface fraction and
        ``fin_angles`` the fin deflections (None: zero).
        """
        down = -rotation[2, :]
        nu_c, nu_dot_c = self.current_twist(rotation, nu, current_world)
        nu_r = nu if nu_c is None else nu - nu_c
        hs = self.hydrostatics
        total = hs.weight_wrench(down) + hs.buoyancy_wrench(down, fraction)
        if not self.drag.is_zero:
            linear, quadratic = self.drag.wrenches(nu_r)
            total += linear + quadratic
        if self.added_mass_coriolis and not self.added_mass.is_zero:
            # Fossen 2011 eq. 6.43: -C_A(nu_r) nu_r
            total += self.added_mass.coriolis_wrench(nu_r)
        if nu_dot_c is not None and not self.added_mass.is_zero:
            # Fossen 2021 ch. 10: M_A nu_dot_c moved to the right-hand side
            total += self.added_mass.origin_matrix @ nu_dot_c
        if self.fins is not None:
            total += self.fins.wrench(nu_r, fin_angles)
        if self.hull_lift is not None:
            total += self.hull_lift.wrench(nu_r) + self.crossflow.wrench(nu_r)
        return total
