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
A DVL sample as marine_acoustic_msgs/Dvl, the message DVL drivers publish.

:func:`fill_dvl` writes a :class:`uwv_hydro.physics.sensing.sensors.DvlReading` into a Dvl
message object (no ROS import here: the node passes the message).  Field by field
(marine_acoustic_msgs/msg/Dvl.msg):

* ``velocity_mode`` DVL_MODE_BOTTOM (bottom track), ``dvl_type`` DVL_TYPE_PISTON (one
  transducer per beam, as the A50);
* ``velocity``, ``velocity_covar``: the bottom-track velocity in the DVL frame and its
  covariance (the noise model's variances); without bottom lock zero velocity and
  covariance -1 ("not known", the message's convention);
* ``altitude``: cos(theta) * mean range of the good beams (the message's definition),
  else the transducer's height above the seabed; ``course_gnd`` = atan2(vy, vx),
  ``speed_gnd`` = hypot(vx, vy);
* ``num_good_beams``: beams with bottom lock; ``beam_unit_vec``: the beam directions;
  ``range``: slant range of each locked beam (0 for a beam without return, its
  ``range_covar`` -1; a locked beam's range is exact: covariance 0);
  ``beam_quality`` 1 locked, 0 not;
* ``beam_velocity``: velocity along each locked beam, b_i . v (the sensor's velocity
  over the ground projected on the beam), ``beam_velocity_covar`` b_i^T S b_i (-1 for a
  beam without lock);
* ``sound_speed``: :data:`SOUND_SPEED` (the simulation has no sound-speed error).

The message has four beam slots: a three-beam arrangement (gz-sensors accepts three or
more) leaves the fourth empty (zero vector, quality 0, covariances -1); beyond four
only the first four are written (the loader says so).  With a tilt per beam the
altitude is the mean of r_i cos(theta_i) over the good beams (theta_i from the DVL's
axis, :func:`uwv_hydro.physics.sensing.dvl_beams.boresight_cosines`).
"""
import math

#: Nominal speed of sound (m/s) reported in the message.
SOUND_SPEED = 1500.0


#: Beam slots of marine_acoustic_msgs/Dvl.
MESSAGE_BEAMS = 4


def _slots(values, fill):
    """Return ``values`` cut or padded with ``fill`` to the message's four beams."""
    values = list(values)[:MESSAGE_BEAMS]
    return values + [fill] * (MESSAGE_BEAMS - len(values))


def fill_dvl(msg, reading, beam_cosines) -> None:
    """
    Fill a marine_acoustic_msgs/Dvl ``msg`` (not its header) from a DvlReading.

    ``beam_cosines``: cos of each beam's angle from the DVL axis (DvlModel.beam_cosines).
    """
    msg.velocity_mode = msg.DVL_MODE_BOTTOM
    msg.dvl_type = msg.DVL_TYPE_PISTON
    # plain floats: four beams, cheaper than numpy element by element (every DVL sample)
    locked = _slots((bool(x) for x in reading.beam_locked), False)
    ranges = _slots(reading.ranges.tolist(), math.inf)
    cosines = _slots(beam_cosines, 0.0)
    good = [lk and math.isfinite(r) for lk, r in zip(locked, ranges)]
    good_ranges = [r * c for r, c, g in zip(ranges, cosines, good) if g]
    valid = bool(reading.valid)
    v = msg.velocity
    if valid:
        v.x, v.y, v.z = reading.velocity.tolist()
        msg.velocity_covar[:] = reading.covariance
        msg.course_gnd = math.atan2(v.y, v.x)
        msg.speed_gnd = math.hypot(v.x, v.y)
    else:
        v.x = v.y = v.z = 0.0
        msg.velocity_covar[:] = -1.0
        msg.course_gnd = msg.speed_gnd = 0.0
    # marine_acoustic_msgs: altitude = cos(theta) sum(range) / num_good_beams
    msg.altitude = (sum(good_ranges) / len(good_ranges) if good_ranges
                    else float(reading.altitude))
    msg.num_good_beams = sum(locked)
    msg.sound_speed = SOUND_SPEED
    msg.beam_ranges_valid = bool(good_ranges)
    msg.beam_velocities_valid = valid and any(locked)
    for vec, b in zip(msg.beam_unit_vec, _slots(reading.beam_directions.tolist(),
                                                [0.0, 0.0, 0.0])):
        vec.x, vec.y, vec.z = b
    msg.range[:] = [r if g else 0.0 for r, g in zip(ranges, good)]
    msg.range_covar[:] = [0.0 if g else -1.0 for g in good]
    msg.beam_quality[:] = [1.0 if lk else 0.0 for lk in locked]
    if valid:
        msg.beam_velocity[:] = [x if lk else 0.0 for x, lk in zip(
            _slots(reading.beam_velocities.tolist(), 0.0), locked)]
        msg.beam_velocity_covar[:] = [x if lk else -1.0 for x, lk in zip(
            _slots(reading.beam_variances.tolist(), -1.0), locked)]
    else:
        msg.beam_velocity[:] = 0.0
        msg.beam_velocity_covar[:] = -1.0
