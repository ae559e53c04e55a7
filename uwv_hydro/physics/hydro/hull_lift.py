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
Body lift of a slender hull (the ``hull_lift`` component).

Prestero (2001, after Hoerner 1965) gives the body lift of REMUS as
L = -1/2 rho d^2 c_yd_beta u w acting at the centre of pressure x_cp (and the same in
sway with v).  Written with the flow angle instead of the small-angle product u w, so
that it is right at any angle and in both directions of travel: with the relative
velocity of the origin [u, v, w], U its magnitude, the cross-flow v_n = [v, w] and the
flow angle a between the hull's axis (as a line) and the flow, sin a = |v_n| / U,
cos a = |u| / U::

    F_n = -1/2 rho d^2 c_yd_beta U^2 sin(a) cos(a) v_n/|v_n| = -1/2 rho d^2 c_yd_beta |u| v_n

(``prestero``: Prestero's -1/2 rho d^2 c_yd_beta u w itself going ahead; going astern it
still opposes the cross-flow, where the small-angle u w would change sign and push the
hull further sideways).
``jorgensen`` multiplies it by cos(a/2) (Jorgensen 1973, NASA TR R-474: the potential
normal force sin(2a) cos(a/2), with c_yd_beta = pi/2 (d_base/d)^2 his coefficient).
Both vanish at a = 90 deg (pure cross-flow, where ``crossflow_drag`` takes over).

The force acts at [x_cp, 0, 0] going ahead and at the point mirrored about the hull's
mid-length going astern (the flow meets the hull from the other end):
M = [x, 0, 0] x F = [0, -x F_z, x F_y].  Rotation rates are not in the lift (their
effect on a slender hull is the cross-flow drag's and the added mass's).
"""
import math

import numpy as np

from uwv_hydro.physics.body.vehicle_params import HULL_LIFT_MODELS


class HullLift:
    """The body lift of one hull: its constant, centres of pressure and model."""

    def __init__(self, hull, fluid_density):
        if hull.model not in HULL_LIFT_MODELS:
            raise ValueError("hull: model must be one of %s, got '%s'"
                             % (', '.join(HULL_LIFT_MODELS), hull.model))
        stations = np.asarray(hull.stations, dtype=float)
        diameter = (float(np.max(hull.diameters)) if hull.lift_diameter is None
                    else float(hull.lift_diameter))
        middle = 0.5 * (stations[0] + stations[-1])
        #: 1/2 rho d^2 c_yd_beta (Prestero 2001: -Z_uwl = -Y_uvl)
        self.k = 0.5 * float(fluid_density) * diameter ** 2 * float(hull.c_yd_beta)
        #: Centre of pressure ahead and astern (mirrored about the mid-length).
        self.x_ahead = middle if hull.x_cp is None else float(hull.x_cp)
        self.x_astern = 2.0 * middle - self.x_ahead
        self.jorgensen = hull.model == 'jorgensen'

    def wrench_many(self, nu_r) -> np.ndarray:
        """Return the body-lift wrenches about the origin (N, 6) for (N, 6) twists."""
        nu_r = np.asarray(nu_r, dtype=float).reshape(-1, 6)
        u, v, w = nu_r[:, 0], nu_r[:, 1], nu_r[:, 2]
        au = np.abs(u)
        # F_n = -1/2 rho d^2 c_yd_beta |u| v_n (Prestero's body lift, flow-angle form)
        gain = -self.k * au
        if self.jorgensen:
            speed = np.sqrt(u * u + v * v + w * w)
            cos_a = np.divide(au, speed, out=np.ones_like(au), where=speed > 0.0)
            # Jorgensen 1973: cos(a/2) = sqrt((1 + cos a) / 2)
            gain = gain * np.sqrt(0.5 * (1.0 + cos_a))
        fy, fz = gain * v, gain * w
        x = np.where(u >= 0.0, self.x_ahead, self.x_astern)
        out = np.zeros((nu_r.shape[0], 6))
        out[:, 1], out[:, 2] = fy, fz
        # moment about the origin of the force at [x, 0, 0]: [0, -x F_z, x F_y]
        out[:, 4], out[:, 5] = -x * fz, x * fy
        return out

    def wrench(self, nu_r) -> np.ndarray:
        """Return the body-lift wrench, 6 floats, for one relative twist."""
        n = [float(a) for a in np.asarray(nu_r, dtype=float).reshape(6)]
        u, v, w = n[0], n[1], n[2]
        gain = -self.k * abs(u)
        if self.jorgensen:
            speed = math.sqrt(u * u + v * v + w * w)
            # Jorgensen 1973: cos(a/2) = sqrt((1 + cos a) / 2)
            gain *= math.sqrt(0.5 * (1.0 + (abs(u) / speed if speed > 0.0 else 1.0)))
        x = self.x_ahead if u >= 0.0 else self.x_astern
        fy, fz = gain * v, gain * w
        # moment about the origin of the force at [x, 0, 0]: [0, -x F_z, x F_y]
        return np.array([0.0, fy, fz, 0.0, -x * fz, x * fy])
