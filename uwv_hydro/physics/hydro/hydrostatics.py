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
Hydrostatics: weight at the centre of mass, buoyancy at the centre of buoyancy.

Both forces are vertical in the world frame (ENU, z up).  In the body frame the
world "down" direction is d_b = R(q)^T [0, 0, -1] (minus the third row of R), so

* weight   W = m g d_b            applied at r_g (com),
* buoyancy B = -f(depth) rho V g d_b applied at r_b (cob), rho V = ``buoyancy_mass``,

each carrying its moment about the origin (tau = [F, r x F], Fossen 2021 ch. 4
written as applied forces rather than the restoring vector g(eta) = -tau).

The surface transition f(depth) uses the depth d = -z of the body origin:
1 when d >= fully_submerged_depth, 0 when d <= out_of_water_depth, otherwise
``dsros``: s frac + (1 - s) and ``continuous``: frac, frac = (d - out)/(full - out).
The fully-submerged test is made first, so with full == out the transition is a
step at that depth (full buoyancy at d == full).
"""
import numpy as np

from uwv_hydro.physics.body.vehicle_params import SURFACE_MODELS, SurfaceTransition
from uwv_hydro.physics.spatial.rotation import cross


def surface_fraction(depth: float, surface: SurfaceTransition) -> float:
    """Return the fraction (0..1) of full buoyancy at ``depth`` of the body origin."""
    d = float(depth)
    if d != d:  # NaN compares false with both depths and would reach the division
        raise ValueError('depth is not a number')
    full, out = float(surface.fully_submerged_depth), float(surface.out_of_water_depth)
    # plain float arithmetic: a step in the surface band costs what a deep one does
    if d >= full:
        return 1.0
    if d <= out:
        return 0.0
    return transition_interior(d, full, out, float(surface.scale_factor),
                               1.0 if surface.model == 'continuous' else 0.0)


def surface_fractions(depths, surface: SurfaceTransition) -> np.ndarray:
    """Return :func:`surface_fraction` of every depth of an array (same rules, vectorised)."""
    d = np.asarray(depths, dtype=float)
    if np.any(np.isnan(d)):
        raise ValueError('depth is not a number (index %d)' % int(np.argmax(np.isnan(d))))
    return transition_fractions(d, float(surface.fully_submerged_depth),
                                float(surface.out_of_water_depth),
                                float(surface.scale_factor), surface.model == 'continuous')


def transition_interior(depth, full, out, scale, continuous):
    """
    Return the fraction inside the transition band (out < depth < full).

    Arithmetic only, so floats (one vehicle) and arrays (the batch) share the formula;
    ``continuous`` is 1.0 for the continuous model, 0.0 for dsros's.
    """
    # dsros_hydro VEHICLE_MODELLING.md: linear in depth between the two depths
    frac = (depth - out) / (full - out)
    # dsros_hydro: f = s frac + (1 - s); continuous: f = frac
    return continuous * frac + (1.0 - continuous) * (scale * frac + (1.0 - scale))


def transition_fractions(depth, full, out, scale, continuous) -> np.ndarray:
    """
    Return the fractions of :func:`surface_fraction` with the transition as arrays.

    Every argument is a scalar or an array (broadcast together): depths, the
    fully-submerged and out-of-water depths, the dsros scale factor and whether the
    model is ``continuous``; one vehicle per element in the batch simulator.
    """
    with np.errstate(divide='ignore', invalid='ignore'):
        frac = transition_interior(depth, full, out, scale, np.asarray(continuous, float))
    # The fully-submerged test first (a step when full == out), then out of the water
    return np.where(depth >= full, 1.0, np.where(depth <= out, 0.0, frac))


class Hydrostatics:
    """Weight and buoyancy wrenches of one vehicle (precomputed constants)."""

    def __init__(self, params):
        if params.surface.model not in SURFACE_MODELS:
            raise ValueError('unknown surface model %r (expected one of %s)'
                             % (params.surface.model, ', '.join(SURFACE_MODELS)))
        self.surface = params.surface
        self.weight = float(params.mass) * float(params.gravity)
        self.buoyancy = float(params.buoyancy_mass) * float(params.gravity)
        self.com = np.array(params.com, dtype=float).reshape(3)
        self.cob = np.array(params.cob, dtype=float).reshape(3)

    def fraction(self, depth) -> float:
        """Return the surface-transition fraction; ``None`` depth means fully submerged."""
        if depth is None:
            return 1.0
        return surface_fraction(depth, self.surface)

    def weight_wrench(self, down_body) -> np.ndarray:
        """Return the weight wrench about the origin given the body-frame down direction."""
        # Weight m g along world down, expressed in the body frame
        f = self.weight * down_body
        # Force at the CoM carries its moment: tau = [F, r_g x F]
        return np.concatenate((f, cross(self.com, f)))

    def buoyancy_wrench(self, down_body, fraction: float = 1.0) -> np.ndarray:
        """Return the buoyancy wrench about the origin (scaled by the surface fraction)."""
        # Archimedes: rho V g along world up, scaled by the surface transition
        f = (-self.buoyancy * fraction) * down_body
        # Force at the CoB carries its moment: tau = [F, r_b x F]
        return np.concatenate((f, cross(self.cob, f)))


def down_direction(rotation) -> np.ndarray:
    """Return the world down direction [0, 0, -1] expressed in the body frame: -R[2, :]."""
    # R^T [0, 0, -1] = -(third row of R)
    return -np.asarray(rotation, dtype=float)[2, :]
