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
DVL beam geometry over a flat seabed: beam directions, slant ranges, along-beam velocities.

A Janus DVL has four beams tilted by the Janus angle theta from its boresight.  In the
DVL frame of marine_acoustic_msgs/Dvl (z along the boresight, x forward) beam i points
along b_i = (sin theta cos a_i, sin theta sin a_i, cos theta) with a_i its azimuth from
+x towards +y.  The Water Linked A50 has theta = 22.5 deg (its datasheet) and its four
transducers at +-45 deg and +-135 deg from forward (the "X" layout, as the gz-sim DVL
example arranges its beams); :data:`A50_JANUS_ANGLE`, :data:`A50_AZIMUTHS`.

gz-sensors' DopplerVelocityLog (lrauv_gazebo_plugins ``DopplerVelocityLog.cc``,
``AcousticBeam``, ``InitializeBeamArrangement``) places each ``<arrangement><beam>`` by
its ``<rotation>`` psi and ``<tilt>`` phi (radians, or degrees with ``degrees="true"``;
|phi| < 90 deg): the axis R_x(psi) R_y(phi) x in a beams frame that is the sensor frame
turned by R_y(90 deg), so in the sensor frame

    b = (-sin phi cos psi, sin phi sin psi, -cos phi)        (:func:`gz_beam_axis`)

pointing down, phi from the -z boresight.  :func:`boresight_cosines` gives cos(tilt) of
each beam of a general arrangement from the DVL's axis (the Janus cos theta for a
Janus DVL; exactly cos phi for a gz arrangement whose reference frame keeps z).

Over a flat seabed at height h below the transducer a beam with world direction
d = R b (R world <- DVL frame) reaches it after the slant range r_i = h / (-d_z)
(d_z < 0: the beam points down; else no return) and measures v_i = b_i . v (v the
transducer's velocity over the ground in the DVL frame).  A velocity with covariance S
gives the beam variances b_i^T S b_i.  For a level DVL every range is h / cos theta and
the mean altitude of the good beams r_i cos theta is h (marine_acoustic_msgs:
altitude = cos theta * sum(range) / num_good_beams).
"""
import math

import numpy as np

#: Water Linked DVL A50: Janus angle (rad) and beam azimuths from forward (rad).
A50_JANUS_ANGLE = math.radians(22.5)
A50_AZIMUTHS = tuple(math.radians(a) for a in (45.0, 135.0, -45.0, -135.0))


def beam_directions(janus_angle: float, azimuths) -> np.ndarray:
    """Return the (N, 3) unit beam vectors in the DVL frame (z = boresight)."""
    a = np.asarray(azimuths, dtype=float)
    s, c = math.sin(janus_angle), math.cos(janus_angle)
    # Janus beam: b = (sin(theta) cos(a), sin(theta) sin(a), cos(theta))
    return np.column_stack((s * np.cos(a), s * np.sin(a), np.full(a.shape, c)))


def slant_ranges(directions: np.ndarray, rotation_world_dvl: np.ndarray,
                 height: float) -> np.ndarray:
    """
    Return each beam's range to a flat seabed ``height`` metres below the transducer.

    ``inf`` for a beam that points level or up (no return), or with no seabed
    (height not finite).
    """
    # -d_z of each beam: only the vertical row of the rotation is needed
    down = -(directions @ np.asarray(rotation_world_dvl, dtype=float)[2])
    if not (math.isfinite(height) and height >= 0.0):
        return np.full(len(directions), math.inf)
    # Slant range to the plane: r = h / (-d_z)
    return np.where(down > 1e-9, height / np.maximum(down, 1e-9), math.inf)


def beam_velocities(directions: np.ndarray, velocity) -> np.ndarray:
    """Return v_i = b_i . v, the velocity along each beam (m/s)."""
    return directions @ np.asarray(velocity, dtype=float)


def beam_variances(directions: np.ndarray, covariance) -> np.ndarray:
    """Return b_i^T S b_i, the variance of each along-beam velocity ((m/s)^2)."""
    s = np.asarray(covariance, dtype=float).reshape(3, 3)
    return np.einsum('ij,jk,ik->i', directions, s, directions)


def gz_beam_axis(rotation: float, tilt: float) -> np.ndarray:
    """Return a gz DVL beam's unit axis in the sensor frame (x forward, y left, z up)."""
    # gz AcousticBeam: R_y(90 deg) R_x(psi) R_y(phi) x = (-s(phi) c(psi), s(phi) s(psi), -c(phi))
    s = math.sin(tilt)
    return np.array([-s * math.cos(rotation), s * math.sin(rotation), -math.cos(tilt)])


def boresight_cosines(directions: np.ndarray) -> np.ndarray:
    """Return each beam's cos(angle) from the DVL's axis: +-z, the side the beams face."""
    d = np.asarray(directions, dtype=float)
    side = float(np.sum(d[:, 2]))
    if abs(side) > 1e-9:  # cos(tilt) = b . (+-z)
        return d[:, 2] * math.copysign(1.0, side)
    mean = d.mean(axis=0)  # beams level in this frame: their mean direction is the axis
    norm = np.linalg.norm(mean)
    return d @ (mean / norm) if norm > 1e-9 else np.ones(len(d))
