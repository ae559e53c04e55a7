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
Bounds on numbers that would overflow: descriptions' and the command line's.

The numbers of gz-sim's signed quadratic terms, magnetometers, uuv's RPT and the
command line's options.

Each is far beyond any real value and far inside the float range once the arithmetic
done on it is counted: a noise stddev is squared into a covariance and multiplied by a
Gaussian sample; a field or a reference position is rotated (sums of three products)
and subtracted from a pose; a signed quadratic coefficient S is moved from its link to
the base (products with offsets and rotations) and multiplied by two velocities.  A
number beyond its bound is refused at load naming its key or element and line (as the
hull's lengths, :mod:`uwv_hydro.description.hull`), not left to overflow in ``wrench``
or ``simulate``.  The command line's number options are bounded the same way where
the work they cause would overflow or exhaust memory (:mod:`uwv_hydro.cli.number_options`):
the steps an offline run holds, speeds, wrenches, positions, times and counts.

:func:`too_many_steps` is the one check of a run's steps (a duration at a step) for the
command line, the manoeuvres, the ROV hold and the sweep specification: each raises its
own error with the message, which names its own option or key.
"""
import math
from typing import Optional

#: Largest |stddev|, |mean| or |bias| of a sensor noise, and a uuv ``noise_sigma`` /
#: ``noise_amplitude`` / ``noise_xy`` / ``noise_z`` / ``turn_on_bias``: squared (the
#: covariance) 1e12, far inside the float range.
MAX_SENSOR_NOISE = 1.0e6
#: Largest |component| of a magnetic field and a uuv magnetometer's ``intensity`` (any
#: unit the file uses: Earth's field is 5e-5 T, 0.5 G, 5e4 nT).
MAX_MAGNETIC_FIELD = 1.0e6
#: Largest |angle| (rad) of a uuv magnetometer's heading, declination and inclination and
#: of an RPT reference_rpy (a hundred turns and more: cos and sin keep their digits).
MAX_ANGLE = 1.0e3
#: Largest |component| (m) of an RPT reference_position (beyond the Earth's radius).
MAX_REFERENCE_METRES = 1.0e7
#: Longest echosounder range and seabed depth (m): the deepest ocean (11 km) twice over.
MAX_ECHO_RANGE = 2.2e4
#: Largest |coefficient| of gz-sim's signed quadratic terms (N s^2/m^2 and kin): real
#: vehicles write 1e0 to 1e4 (gz-sim's test world 94.2475); with 1e9, S nu nu and its
#: moves to the base stay finite for any speed and offset the loader accepts.
MAX_SIGNED_QUADRATIC = 1.0e9
#: Most steps (or samples) an offline run holds: 13 floats a step, 1 GB at 1e7.
MAX_STEPS = 1.0e7
#: Shortest step (s): a microsecond, the node's period at 1 MHz.
MIN_STEP = 1.0e-6
#: Longest step (s): its 1000 RK4 sub-steps (MAX_SUBSTEPS) keep |lambda| h <= 2.5 up to
#: |lambda| = 250 1/s, stiffer than the modes of real vehicles (remus100: 15 1/s).
MAX_STEP = 10.0
#: Largest |speed| (m/s) and |angular rate| (rad/s) of a twist, a current or a manoeuvre
#: speed: two-thirds of the speed of sound in water; the drag's u^2 terms stay finite
#: and the RK4 sub-steps a step needs (2 Q |u| dt / m) stay countable.
MAX_SPEED = 1.0e3
#: Largest |component| of a wrench (N, N m), beyond any ship's propulsion (1e7 N).
MAX_WRENCH = 1.0e9
#: Largest |component| of an acceleration (m/s^2, rad/s^2).
MAX_ACCELERATION = 1.0e6
#: Largest |time| (s) a command line takes: thirty years.
MAX_TIME = 1.0e9
#: Largest |component| of a quaternion before it is normalised (its squares stay finite).
MAX_QUATERNION = 1.0e6
#: Most RK4 sub-steps per step (as simulate_mode.MAX_SUBSTEPS).
MAX_SUBSTEPS = 1000
#: Most worker processes and bootstrap resamples a command starts.
MAX_WORKERS = 1024
MAX_RESAMPLES = 100000
#: Highest Savitzky-Golay order (a window of order + 1 samples at least).
MAX_ORDER = 20
#: Most runs of a sweep: each keeps one row of figures (a Parquet row), and at 1e7 the
#: table is about 1 GB, as MAX_STEPS bounds one run's trajectory.
MAX_RUNS = 1.0e7
#: Why a bound on the work a number causes exists (in messages).
WORK = 'the work it causes would overflow or exhaust memory'
#: Largest seed (numpy seeds: 64 bits).
MAX_SEED = 2 ** 64 - 1
#: Largest ROS_DOMAIN_ID (ROS 2 docs, "The ROS_DOMAIN_ID": 0 to 232 with Fast DDS).
MAX_DOMAIN_ID = 232


def beyond(value: float, bound: float, what: str, unit: str = '') -> Optional[str]:
    """Return why ``value`` is refused (``what`` beyond ``bound``), or None if within."""
    if abs(value) <= bound:  # NaN compares False: refused as well
        return None
    shown = '%g' % value if math.isfinite(value) else repr(value)
    return ('%s %s is beyond %g%s in magnitude (the arithmetic on it would overflow)'
            % (what, shown, bound, unit))


def too_many_steps(duration: float, dt: float, duration_name: str = 'duration',
                   dt_name: str = 'dt') -> Optional[str]:
    """
    Return why ``duration`` at ``dt`` is refused (more than MAX_STEPS steps), or None.

    ``duration_name`` and ``dt_name`` are the option or key each value came from (the
    message names them).  ``dt`` > 0 and both finite, as every caller has checked.
    """
    steps = duration / dt
    if steps <= MAX_STEPS:  # NaN compares False: refused as well
        return None
    return ('%s %g at %s %g is %.3g steps, more than the %g an offline run holds (13 floats '
            'a step): shorten %s or lengthen %s'
            % (duration_name, duration, dt_name, dt, steps, MAX_STEPS, duration_name, dt_name))
