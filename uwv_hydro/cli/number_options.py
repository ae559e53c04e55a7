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
Number options checked where argparse reads them.

``--duration -5`` is refused as ``argument --duration: must be >= 0, got -5`` by the
parser itself, naming the option and the value, before any file is read.  Every number
option is bounded where the work it causes would overflow or exhaust memory (the bounds
and why: :mod:`uwv_hydro.description.overflow_bounds`): ``--speed 1e308`` is refused as
``argument --speed: must be at most 1000 in magnitude (m/s) ..., got 1e308``; the steps of
a duration at a step (:func:`check_steps`) are checked once both are read.
"""
import argparse
import math

from uwv_hydro.description import overflow_bounds as bounds
from uwv_hydro.description.errors import DescriptionError


class Number:
    """An argparse ``type``: a finite int or float with optional bounds (and on |value|)."""

    def __init__(self, kind=float, above=None, at_least=None, at_most=None,
                 magnitude=None, unit='', why=None):
        self.kind = kind
        self.above = above
        self.at_least = at_least
        self.at_most = at_most
        self.magnitude = magnitude
        self.unit = unit
        self.why = why
        self.__name__ = kind.__name__  # argparse names the type in its own messages

    def __call__(self, text: str):
        """Return the number of ``text``; raise ArgumentTypeError naming the bad value."""
        try:
            value = self.kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                'expected %s, got %r' % ('an integer' if self.kind is int else 'a number',
                                         text)) from None
        if self.kind is float and not math.isfinite(value):  # an int is finite
            raise argparse.ArgumentTypeError('must be finite, got %s' % text)
        unit = ' %s' % self.unit if self.unit else ''
        why = ' (%s)' % self.why if self.why else ''

        def shown(bound):
            return str(bound) if isinstance(bound, int) else '%g' % bound

        for ok, rule in ((self.above is None or value > self.above,
                          '> %s' % shown(self.above or 0)),
                         (self.at_least is None or value >= self.at_least,
                          '>= %s' % shown(self.at_least or 0)),
                         (self.at_most is None or value <= self.at_most,
                          '<= %s%s%s' % (shown(self.at_most or 0), unit, why)),
                         (self.magnitude is None or abs(value) <= self.magnitude,
                          'at most %s%s in magnitude (the arithmetic on it would overflow)'
                          % (shown(self.magnitude or 0), unit))):
            if not ok:
                raise argparse.ArgumentTypeError('must be %s, got %s' % (rule, text))
        return value


def check_steps(duration: float, dt: float, duration_name: str, dt_name: str) -> int:
    """Return the steps of ``duration`` at ``dt``; refuse more than MAX_STEPS (exit 2)."""
    why = bounds.too_many_steps(duration, dt, duration_name, dt_name)
    if why is not None:
        raise DescriptionError(why, element=duration_name)
    return int(round(duration / dt))


#: Why a bound on the work is there.
WORK = bounds.WORK
#: A duration (s) of an offline run, >= 0 (its steps at its step: check_steps).
DURATION = Number(float, at_least=0.0, at_most=bounds.MAX_STEPS * bounds.MAX_STEP, unit='s',
                  why=WORK)
#: A positive duration (s).
POSITIVE_DURATION = Number(float, above=0.0, at_most=bounds.MAX_STEPS * bounds.MAX_STEP,
                           unit='s', why=WORK)
#: A time step (s): MIN_STEP to MAX_STEP.
STEP = Number(float, at_least=bounds.MIN_STEP, at_most=bounds.MAX_STEP, unit='s', why=WORK)
#: A rate (Hz): at most one step per MIN_STEP.
RATE = Number(float, above=0.0, at_most=1.0 / bounds.MIN_STEP, unit='Hz',
              why='a period of at least 1e-06 s')
#: A time (s) of either sign, or a timeout (s) > 0.
TIME = Number(float, magnitude=bounds.MAX_TIME, unit='s')
TIMEOUT = Number(float, above=0.0, at_most=bounds.MAX_TIME, unit='s', why=WORK)
#: A speed (m/s) > 0; a twist, current or speed component (m/s, rad/s) of either sign.
SPEED = Number(float, above=0.0, at_most=bounds.MAX_SPEED, unit='m/s', why=WORK)
VELOCITY = Number(float, magnitude=bounds.MAX_SPEED, unit='m/s or rad/s')
#: A wrench component (N, N m), an acceleration component (m/s^2, rad/s^2).
WRENCH = Number(float, magnitude=bounds.MAX_WRENCH, unit='N or N m')
ACCELERATION = Number(float, magnitude=bounds.MAX_ACCELERATION, unit='m/s^2 or rad/s^2')
#: A position or depth component (m); a quaternion component (normalised after).
POSITION = Number(float, magnitude=bounds.MAX_REFERENCE_METRES, unit='m')
QUATERNION = Number(float, magnitude=bounds.MAX_QUATERNION)
#: An angle in degrees; a joint position (rad or m).
DEGREES = Number(float, magnitude=math.degrees(bounds.MAX_ANGLE), unit='deg')
JOINT_POSITION = Number(float, magnitude=bounds.MAX_ANGLE, unit='rad or m')
#: A count of RK4 sub-steps per step.
SUBSTEPS = Number(int, at_least=1, at_most=bounds.MAX_SUBSTEPS, why=WORK)
#: Worker processes: one or more, or zero or more (0: in this process).
WORKERS = Number(int, at_least=1, at_most=bounds.MAX_WORKERS, why=WORK)
WORKERS_OR_NONE = Number(int, at_least=0, at_most=bounds.MAX_WORKERS, why=WORK)
#: Bootstrap resamples, a seed, a polynomial order, a ROS domain id.
RESAMPLES = Number(int, at_least=0, at_most=bounds.MAX_RESAMPLES, why=WORK)
SEED = Number(int, at_least=0, at_most=bounds.MAX_SEED, why='a 64-bit seed')
ORDER = Number(int, at_least=1, at_most=bounds.MAX_ORDER,
               why='its window of order + 1 samples or more')
#: A distance around the world origin to read a grid by (m): its window of nodes.
RADIUS = Number(float, at_least=0.0, at_most=bounds.MAX_REFERENCE_METRES, unit='m', why=WORK)
#: A count of messages or events to wait for (no work per unit beyond the wait).
COUNT = Number(int, at_least=0, at_most=bounds.MAX_STEPS, why=WORK)
DOMAIN_ID = Number(int, at_least=0, at_most=bounds.MAX_DOMAIN_ID,
                   why="DDS's UDP port of a higher domain is beyond 65535")
#: A threshold only compared with (no arithmetic that could overflow): > 0, or >= 0.
POSITIVE = Number(float, above=0.0)
NON_NEGATIVE = Number(float, at_least=0.0)
#: A finite float (any sign).
FINITE = Number(float)
