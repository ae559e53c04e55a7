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

``--duration -5`` is refused as ``argument --duration: must be > 0, got -5`` by the
parser itself, naming the option and the value, before any file is read.
"""
import argparse
import math


class Number:
    """An argparse ``type``: a finite int or float with an optional bound on each side."""

    def __init__(self, kind=float, above=None, at_least=None, at_most=None):
        self.kind = kind
        self.above = above
        self.at_least = at_least
        self.at_most = at_most
        self.__name__ = kind.__name__  # argparse names the type in its own messages

    def __call__(self, text: str):
        """Return the number of ``text``; raise ArgumentTypeError naming the bad value."""
        try:
            value = self.kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                'expected %s, got %r' % ('an integer' if self.kind is int else 'a number',
                                         text)) from None
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError('must be finite, got %s' % text)
        for ok, rule in ((self.above is None or value > self.above, '> %g' % (self.above or 0)),
                         (self.at_least is None or value >= self.at_least,
                          '>= %g' % (self.at_least or 0)),
                         (self.at_most is None or value <= self.at_most,
                          '<= %g' % (self.at_most or 0))):
            if not ok:
                raise argparse.ArgumentTypeError('must be %s, got %s' % (rule, text))
        return value


#: A duration, step or speed: a finite float > 0.
POSITIVE = Number(float, above=0.0)
#: A finite float >= 0.
NON_NEGATIVE = Number(float, at_least=0.0)
#: A finite float (any sign).
FINITE = Number(float)
#: A count of one or more (sub-steps).
COUNT = Number(int, at_least=1)
#: A count that may be zero (bootstrap resamples, workers).
NON_NEGATIVE_INT = Number(int, at_least=0)
