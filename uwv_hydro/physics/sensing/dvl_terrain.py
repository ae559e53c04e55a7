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
The DVL over a seabed of any shape: each beam ray-cast, the velocity from the locked beams.

:class:`TerrainDvlModel` is the :class:`uwv_hydro.physics.sensing.sensors.DvlModel` of a DVL
over a :mod:`uwv_hydro.physics.environment.seabed` (a grid, or the flat plane).  Each beam is cast
from the transducer along its world direction R b_i; it locks when it returns within the
DVL's range window, r_i cos(theta_i) in [min_altitude, max_altitude] (theta_i its angle
from the DVL axis, as :meth:`DvlModel.beam_lock`).  Like a real DVL, the velocity comes
from the along-beam velocities of the locked beams, v_i = b_i . v, by least squares,

    v = argmin sum_i (b_i . v - v_i)^2 = (B^T B)^-1 B^T v_b       (Gauss normal equations)

which needs three beams not in one plane: with fewer the DVL has no bottom lock (over a
hole, a trench deeper than its range, past a cliff).  The altitude is the
marine_acoustic_msgs/Dvl one, the mean of r_i cos(theta_i) over the good beams.
"""
import math

import numpy as np

from uwv_hydro.physics.sensing.dvl_beams import beam_variances, beam_velocities
from uwv_hydro.physics.sensing.sensors import (
    _covariance, _unit, DvlModel, DvlReading, point_position)
from uwv_hydro.physics.spatial.point_transform import transfer_twist
from uwv_hydro.physics.spatial.rotation import quat_to_matrix

#: Smallest singular value of the locked beams' matrix (unit rows) for a velocity fix.
MIN_SINGULAR_VALUE = 1e-6


def least_squares_velocity(directions, velocities):
    """
    Return the velocity v minimising sum (b_i . v - v_i)^2 over the beams, or None.

    None for fewer than three beams or beams in one plane (B of rank < 3).
    """
    b = np.asarray(directions, dtype=float).reshape(-1, 3)
    if len(b) < 3:
        return None
    # Least squares by the SVD of B (Golub and Van Loan, Matrix Computations, 5.5)
    u, s, vt = np.linalg.svd(b, full_matrices=False)
    if s[-1] < MIN_SINGULAR_VALUE:
        return None
    return vt.T @ ((u.T @ np.asarray(velocities, dtype=float)) / s)


class TerrainDvlModel(DvlModel):
    """Bottom-track DVL over a seabed object with ``cast`` (ray cast) in the world."""

    def __init__(self, spec, translation, rotation_wxyz, seabed):
        super().__init__(spec, translation, rotation_wxyz)
        self.seabed = seabed
        cos = self.beam_cosines
        # the longest range a beam can lock at: r cos(theta) <= max_altitude
        with np.errstate(divide='ignore'):
            self._max_range = np.where(cos > 0.0, self.params.max_altitude / cos, 0.0)

    def terrain_beam_lock(self, position, quaternion):
        """Return (slant ranges, per-beam lock, transducer depth) at this pose."""
        n = len(self.beams)
        transducer = point_position(position, quaternion, self.r)
        depth = -float(transducer[2])
        if depth <= 0.0:
            return np.full(n, math.inf), np.zeros(n, dtype=bool), depth
        rotation = quat_to_matrix(_unit(quaternion)) @ self.r_bs  # world <- sensor
        ranges = self.seabed.cast(np.tile(transducer, (n, 1)), self.beams @ rotation.T,
                                  self._max_range)
        vertical = ranges * self.beam_cosines
        locked = (np.isfinite(ranges) & (vertical >= self.params.min_altitude)
                  & (vertical <= self.params.max_altitude))
        return ranges, locked, depth

    def measure(self, t: float, position, quaternion, nu, nu_dot) -> DvlReading:
        """Return the DVL sample at time t (s); ``valid`` False with under three beams."""
        ranges, locked, _ = self.terrain_beam_lock(position, quaternion)
        covariance = _covariance(self.noise.variance())
        # marine_acoustic_msgs: altitude = cos(theta) sum(range) / num_good_beams
        altitude = (float(np.mean(ranges[locked] * self.beam_cosines[locked]))
                    if locked.any() else math.nan)
        beams = {'beam_directions': self.beams, 'ranges': ranges, 'beam_locked': locked}
        # Bottom track: velocity over the ground at the transducer, R_bs^T (v + w x r)
        truth = self.r_bs.T @ transfer_twist(np.asarray(nu, dtype=float), self.r)[:3]
        fix = least_squares_velocity(self.beams[locked],
                                     beam_velocities(self.beams[locked], truth))
        if fix is None:
            return DvlReading(velocity=None, covariance=covariance, altitude=altitude,
                              valid=False, **beams)
        velocity = self.noise.apply(fix, self._dt(t))
        return DvlReading(velocity=velocity, covariance=covariance, altitude=altitude,
                          valid=True, beam_velocities=beam_velocities(self.beams, velocity),
                          beam_variances=beam_variances(self.beams, covariance), **beams)
