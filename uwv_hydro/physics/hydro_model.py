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
    linear_drag          H(drag_velocity_point) nu_r, acting at drag_center
    quadratic_drag       H(drag_velocity_point) nu_r, acting at drag_center
    added_mass           H(added_mass_point) (nu_dot - nu_dot_c), about added_mass_point
    added_mass_coriolis  H(added_mass_point) nu_r, about added_mass_point

Every component is returned as a body-frame wrench about the body origin
(tau_O = H(r)^T tau_p).  nu_dot_c = [-w x v_c_body, 0, 0, 0] is the body-frame rate
of change of a constant world current (Fossen 2011 sec. 10.3: the added-mass
inertial term is -M_A nu_dot_r).  The rigid-body Coriolis term is not a hydro
wrench and is not reported (Gazebo, or :mod:`uwv_hydro.physics.dynamics`, owns it).

``params.semantics`` ('origin' or 'dsros') needs no separate code path: a dsros
block is reproduced by the reference points its loader sets (drag_velocity_point =
com, drag_center = its own centre, added_mass_point = com).  ``params.coriolis``
False zeroes ``added_mass_coriolis``; ``params.damping`` 'quadratic_only' ignores L.
"""
from dataclasses import dataclass, field
from typing import Dict

import numpy as np

from uwv_hydro.physics.added_mass import AddedMass
from uwv_hydro.physics.drag import Drag
from uwv_hydro.physics.hydrostatics import down_direction, Hydrostatics
from uwv_hydro.physics.rigid_body import rigid_body_mass_matrix
from uwv_hydro.physics.rotation import cross, quat_normalize, quat_to_matrix
from uwv_hydro.vehicle_params import COMPONENT_NAMES

_DOWN_LEVEL = np.array([0.0, 0.0, -1.0])


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
        self.coriolis = bool(params.coriolis)
        # Fossen 2011 eq. 3.44 with the parallel-axis inertia about the origin
        self._m_rb = rigid_body_mass_matrix(params.mass, params.inertia, params.com)
        # Fossen 2011 eq. 6.x: M = M_RB + M_A (both about the origin)
        self._mass = self._m_rb + self.added_mass.origin_matrix

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
        # Fossen 2011 eq. 10.x: d/dt (R^T v_c) = -S(w) R^T v_c for constant v_c
        nu_dot_c[:3] = -cross(nu[3:], v_cb)
        return nu_c, nu_dot_c

    def wrench(self, nu, position=None, quaternion=None, nu_dot=None,
               current_world=None) -> WrenchComponents:
        """
        Return the hydro wrench components for one state.

        ``nu``: body twist of the origin; ``position``: world position of the origin
        (None: fully submerged); ``quaternion``: [w, x, y, z] world <- body (None:
        level); ``nu_dot``: body twist derivative (None: added_mass is zero);
        ``current_world``: ENU current velocity (None: still water).
        """
        nu = np.array(nu, dtype=float).reshape(6)
        if quaternion is None:
            rotation = np.eye(3)
            down = _DOWN_LEVEL
        else:
            rotation = quat_to_matrix(quat_normalize(quaternion))
            down = down_direction(rotation)
        depth = None if position is None else -float(position[2])
        fraction = self.hydrostatics.fraction(depth)
        nu_c, nu_dot_c = self.current_twist(rotation, nu, current_world)
        nu_r = nu if nu_c is None else nu - nu_c
        linear, quadratic = self.drag.wrenches(nu_r)
        if nu_dot is None:
            inertial = np.zeros(6)
        else:
            nu_dot_r = np.array(nu_dot, dtype=float).reshape(6)
            if nu_dot_c is not None:
                # Fossen 2011 sec. 10.3: relative acceleration nu_dot_r = nu_dot - nu_dot_c
                nu_dot_r = nu_dot_r - nu_dot_c
            inertial = self.added_mass.inertial_wrench(nu_dot_r)
        if self.coriolis:
            coriolis = self.added_mass.coriolis_wrench(nu_r)
        else:
            coriolis = np.zeros(6)
        values = (
            self.hydrostatics.weight_wrench(down),
            self.hydrostatics.buoyancy_wrench(down, fraction),
            linear, quadratic, inertial, coriolis,
        )
        components = dict(zip(COMPONENT_NAMES, values))
        # Superposition of the component wrenches (all about the origin)
        total = values[0] + values[1] + values[2] + values[3] + values[4] + values[5]
        return WrenchComponents(components=components, total=total)

    def dynamics_wrench(self, nu, rotation, fraction: float, current_world=None) -> np.ndarray:
        """
        Return the hydro wrench for the equations of motion with implicit added mass.

        The sum of all components except ``added_mass``, plus M_A nu_dot_c (the part
        of -M_A nu_dot_r that does not depend on the unknown nu_dot, Fossen 2011
        sec. 10.3).  ``rotation`` is R(q) and ``fraction`` the surface fraction.
        """
        down = -rotation[2, :]
        nu_c, nu_dot_c = self.current_twist(rotation, nu, current_world)
        nu_r = nu if nu_c is None else nu - nu_c
        hs = self.hydrostatics
        total = hs.weight_wrench(down) + hs.buoyancy_wrench(down, fraction)
        if not self.drag.is_zero:
            linear, quadratic = self.drag.wrenches(nu_r)
            total += linear + quadratic
        if self.coriolis and not self.added_mass.is_zero:
            # Fossen 2011 eq. 6.43: -C_A(nu_r) nu_r
            total += self.added_mass.coriolis_wrench(nu_r)
        if nu_dot_c is not None and not self.added_mass.is_zero:
            # Fossen 2011 sec. 10.3: M_A nu_dot_c moved to the right-hand side
            total += self.added_mass.origin_matrix @ nu_dot_c
        return total
