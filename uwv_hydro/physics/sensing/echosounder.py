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
A single-beam echo sounder / sonar altimeter: the range to the first echo in its beam.

The beam's axis (boresight) is the sensor frame's +x, as sensor_msgs/Range defines it
("0 angle corresponds to the x-axis of the sensor").  With ``field_of_view`` 0 the
beam is one ray; with a cone of full angle fov > 0 the sounder reports the *first
echo*, the nearest target anywhere in the cone (what a sonar altimeter's first
threshold crossing measures), found by casting a fixed pattern of rays:

    the axis, and ``RINGS`` = 4 rings k = 1..4 at the angle (fov/2) k/4 from it,
    ring k holding 6 k rays at the azimuths 2 pi j / (6 k), j = 0..6k-1, from the
    sensor's +y towards +z (61 rays; ring 4 is the cone's rim).

Every direction of the cone lies within :func:`pattern_gap` = fov / (2 RINGS) of a ray
of the pattern (rings a = fov/8 apart, rays along ring k at most (pi/3) a apart, so a
direction is within sqrt((a/2)^2 + (pi a/6)^2) < 0.73 a of one), so the nearest echo
found is at most the range of a direction up to that angle worse than the best one:
over a plane at h metres whose normal is at tilt tau from the axis the sounder reads
between h / cos(max(0, tau - fov/2)) (the exact cone minimum) and
h / cos(max(0, tau - fov/2) + fov / (2 RINGS)).

Targets: the seabed (the world's, :mod:`uwv_hydro.physics.environment.seabed`, or a flat one
``seabed_depth`` deep; none without either) and, with ``surface_echo`` (default), the
sea surface z = 0 seen from below -- the water-air interface reflects nearly all the
sound, which is what an upward-looking sounder (ice profiler, water-above gauge)
measures.  A transducer out of the water hears no echo (+inf).  The measured range
(REP 117, sensor_msgs/Range): the nearest echo r plus the noise model's noise
(:mod:`uwv_hydro.physics.sensing.sensor_noise`, one axis), limited to [min_range, max_range];
no echo within max_range: +inf; an echo nearer than min_range (the transducer's
blanking distance): -inf.  Never NaN.
"""
from dataclasses import dataclass
import math

import numpy as np

from uwv_hydro.physics.environment.seabed import FlatSeabed
from uwv_hydro.physics.sensing.sensor_noise import NoiseModel
from uwv_hydro.physics.sensing.sensor_params import EchosounderParams
from uwv_hydro.physics.sensing.sensors import _unit, point_position, SensorModel
from uwv_hydro.physics.spatial.rotation import quat_to_matrix

#: Rings of the cone's ray pattern (module docstring).
RINGS = 4
#: Rays on ring k: RAYS_PER_RING * k.
RAYS_PER_RING = 6


def beam_pattern(field_of_view: float) -> np.ndarray:
    """Return the (N, 3) unit rays of the cone in the sensor frame (axis +x; module doc)."""
    rays = [(1.0, 0.0, 0.0)]
    if field_of_view <= 0.0:
        return np.array(rays)
    for k in range(1, RINGS + 1):
        theta = 0.5 * field_of_view * k / RINGS
        n = RAYS_PER_RING * k
        phi = 2.0 * math.pi * np.arange(n) / n
        # polar angle theta from +x, azimuth phi from +y towards +z
        rays.extend(np.column_stack((np.full(n, math.cos(theta)),
                                     math.sin(theta) * np.cos(phi),
                                     math.sin(theta) * np.sin(phi))).tolist())
    return np.array(rays)


def pattern_gap(field_of_view: float) -> float:
    """Return the angle (rad) within which a ray of the pattern lies of any cone direction."""
    return 0.5 * field_of_view / RINGS


def surface_ranges(origins, directions, max_range) -> np.ndarray:
    """Return each ray's range up to the sea surface z = 0 from below, inf if none."""
    o = np.asarray(origins, dtype=float).reshape(-1, 3)
    d = np.asarray(directions, dtype=float).reshape(-1, 3)
    with np.errstate(divide='ignore', invalid='ignore'):
        # Ray-plane intersection: z0 + t d_z = 0  ->  t = -z0 / d_z, rays going up
        t = np.where(d[:, 2] > 0.0, -o[:, 2] / d[:, 2], math.inf)
    return np.where(t <= max_range, t, math.inf)


@dataclass
class EchosounderReading:
    """One sensor_msgs/Range sample: range (m, or +-inf), its variance and the limits."""

    #: the measured range (m; +inf: no echo, -inf: too close), Range's ``range``
    distance: float
    variance: float
    min_range: float
    max_range: float
    field_of_view: float
    #: the nearest echo before noise (m; inf: none within max_range)
    true_range: float
    depth: float
    valid: bool = True


class EchosounderModel(SensorModel):
    """Range along the sensor's +x to the seabed (or the surface), nearest in the cone."""

    def __init__(self, spec, translation, rotation_wxyz, seabed=None):
        super().__init__(spec, translation, rotation_wxyz)
        p: EchosounderParams = spec.model
        self.params = p
        if seabed is None and p.seabed_depth is not None:
            seabed = FlatSeabed(p.seabed_depth)
        #: the seabed the rays are cast to (None: no seabed)
        self.seabed = seabed
        self.rays = beam_pattern(p.field_of_view)
        self.noise = NoiseModel((p.noise,), self.rng)
        self.variance = float(self.noise.variance()[0])

    def _noises(self):
        return (self.noise,)

    def nearest_echo(self, position, quaternion):
        """Return (range of the nearest echo in the cone or inf, transducer depth)."""
        transducer = point_position(position, quaternion, self.r)
        depth = -float(transducer[2])
        if depth <= 0.0:
            return math.inf, depth  # in air: no acoustic return
        rotation = quat_to_matrix(_unit(quaternion)) @ self.r_bs  # world <- sensor
        directions = self.rays @ rotation.T
        origins = np.tile(transducer, (len(directions), 1))
        reach = self.params.max_range
        best = math.inf
        if self.seabed is not None:
            best = float(np.min(self.seabed.cast(origins, directions, reach)))
        if self.params.surface_echo:
            best = min(best, float(np.min(surface_ranges(origins, directions, reach))))
        return best, depth

    def measure(self, t: float, position, quaternion, nu, nu_dot) -> EchosounderReading:
        """Return the range sample at time t (s) of the state (module docstring)."""
        dt = self._dt(t)
        p = self.params
        r, depth = self.nearest_echo(position, quaternion)
        if not r <= p.max_range:
            value = math.inf  # REP 117: no detection within range
        elif r < p.min_range:
            value = -math.inf  # REP 117: detection too close to quantify
        else:
            noisy = float(self.noise.apply([r], dt)[0])
            value = min(max(noisy, p.min_range), p.max_range)
        return EchosounderReading(distance=value, variance=self.variance, min_range=p.min_range,
                                  max_range=p.max_range, field_of_view=p.field_of_view,
                                  true_range=r, depth=depth)
