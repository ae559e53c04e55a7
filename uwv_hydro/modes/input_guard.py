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
Input hygiene: finite checks, per-input stamp ordering, drop counters, clock jumps.

Nothing that arrives on a topic may crash the node or reach the state unchecked:

* a message with NaN/inf anywhere is dropped (reason ``non_finite``);
* a header stamp older than the previous one on the same input is dropped
  (``stale_stamp``), unless it is older by more than ``reset_threshold`` seconds:
  that is a source restart (a looping bag without /clock), counted as
  ``stamp_jump``, and the input's history is reset and the message accepted;
* a zero stamp (driver that does not stamp) is accepted and never compared; the
  message is used at its receipt time (:func:`message_time_ns`): the node's clock on
  arrival, the bag's record time in the offline replays.

The offline replays (:mod:`uwv_hydro.bag.replay`, :mod:`uwv_hydro.bag.replay_simulation`)
apply these rules through :meth:`StampGuard.admit`, the bag's record time standing for
the receipt time; the node applies the same rules with its clock on arrival.

:class:`ClockJumpDetector` spots the node clock going backwards (sim time of a
looping bag): the node then resets like a tf2 buffer does.
"""
from collections import Counter
import math
import time
from typing import Dict, Iterable, Optional, Tuple

#: Drop reasons reported in /diagnostics (always listed, also when zero).
DROP_REASONS = ('non_finite', 'stale_stamp', 'unknown_frame', 'bad_quaternion', 'stamp_jump')


def all_finite(values: Iterable[float]) -> bool:
    """Return True when every value is a finite float."""
    try:
        return all(math.isfinite(float(v)) for v in values)
    except (TypeError, ValueError):
        return False


def message_time_ns(stamp_ns: int, receipt_ns: int) -> int:
    """Return the time a message is used at: its header stamp, or if zero its receipt time."""
    return stamp_ns if stamp_ns != 0 else receipt_ns


class DropCounter:
    """Counts dropped (or specially handled) messages per input and reason."""

    def __init__(self):
        self._counts: Dict[str, Counter] = {}

    def count(self, source: str, reason: str) -> None:
        """Record one event of reason on input source."""
        self._counts.setdefault(source, Counter())[reason] += 1

    def total(self, reason: Optional[str] = None) -> int:
        """Return the count over all inputs (of one reason, or of all)."""
        return sum(c[reason] if reason else sum(c.values()) for c in self._counts.values())

    def by_reason(self) -> Dict[str, int]:
        """Return {reason: count} summed over inputs, every known reason present."""
        out = dict.fromkeys(DROP_REASONS, 0)
        for counts in self._counts.values():
            for reason, n in counts.items():
                out[reason] = out.get(reason, 0) + n
        return out

    def by_source(self) -> Dict[str, Dict[str, int]]:
        """Return {input: {reason: count}}."""
        return {source: dict(c) for source, c in self._counts.items()}


class StampGuard:
    """Per-input monotonic header stamps (integer nanoseconds)."""

    def __init__(self, reset_threshold_s: float = 1.0):
        self.reset_threshold_ns = int(reset_threshold_s * 1e9)
        self._last: Dict[str, int] = {}

    def check(self, source: str, stamp_ns: int) -> str:
        """
        Return 'ok', 'stale_stamp' (drop) or 'stamp_jump' (accept, history reset).

        Accepted stamps become the input's latest; zero stamps are always 'ok'.
        """
        if stamp_ns == 0:
            return 'ok'
        last = self._last.get(source)
        verdict = 'ok'
        if last is not None and stamp_ns < last:
            if last - stamp_ns <= self.reset_threshold_ns:
                return 'stale_stamp'
            verdict = 'stamp_jump'
        self._last[source] = stamp_ns
        return verdict

    def admit(self, source: str, stamp_ns: int, receipt_ns: int) -> Tuple[str, int]:
        """
        Return (:meth:`check` verdict, :func:`message_time_ns`) of a message on ``source``.

        ``receipt_ns``: when the message arrived (node clock) or was recorded (bag time).
        """
        return self.check(source, stamp_ns), message_time_ns(stamp_ns, receipt_ns)

    def reset(self) -> None:
        """Forget every input's latest stamp (after a clock jump)."""
        self._last.clear()


class ClockJumpDetector:
    """Detects the node clock going backwards between two observations."""

    def __init__(self):
        self._last_ns: Optional[int] = None

    def observe(self, now_ns: int) -> bool:
        """Record ``now_ns``; return True when the clock went back since the last call."""
        jumped = self._last_ns is not None and now_ns < self._last_ns
        self._last_ns = now_ns
        return jumped

    def forget(self) -> None:
        """Drop the last observation (the jump was already handled elsewhere)."""
        self._last_ns = None


class Throttle:
    """Per-key message throttle (rclpy throttles per call site, this per input and reason)."""

    def __init__(self, period_s: float = 2.0):
        self.period_s = period_s
        self._last: Dict[object, float] = {}

    def ready(self, key) -> bool:
        """Return True (and restart the key's period) when ``key`` may log again."""
        now = time.monotonic()
        last = self._last.get(key)
        if last is not None and now - last < self.period_s:
            return False
        self._last[key] = now
        return True
