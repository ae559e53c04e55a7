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
Lock step with ArduPilot's JSON SITL: one physics step per new frame (pure, no ROS).

ArduPilot (``SIM_JSON.cpp``) sends one servo packet per frame and waits for the reply;
its ``frame_count`` rises by one per reply it parsed.  The rules here:

* a **new** frame (``frame_count`` above the last one) runs exactly one step; a count
  more than one above the last is a **gap** (frames ArduPilot counted that never reached
  us): counted, and still one step;
* a **repeated** ``frame_count`` (ArduPilot re-sends the servos after 1 s without a
  reply, or our reply was lost) gets the last reply again, without a step;
* a **lower** ``frame_count`` (ArduPilot restarted) resets the vehicle to its initial
  state and the physics time to zero, then runs the frame's step;
* the first sender is **the** ArduPilot; a packet from another address is ignored and
  counted while that one is alive, and becomes the peer when the first has been silent
  for ``peer_timeout`` (a restarted ArduPilot sends from a new port).
"""
from collections import Counter
from typing import Optional, Tuple

#: What :attr:`LockStep.counts` counts (every one shown, zero included).
COUNTS = ('frames', 'repeats', 'resets', 'gaps', 'frames_skipped', 'foreign_packets',
          'peer_changes')
#: Verdicts of :meth:`LockStep.classify`.
STEP, REPEAT, RESET, FOREIGN = 'step', 'repeat', 'reset', 'foreign'


class LockStep:
    """Frame bookkeeping of one ArduPilot peer (times in ns of any monotonic clock)."""

    def __init__(self, peer_timeout_ns: int):
        self.peer_timeout_ns = int(peer_timeout_ns)
        #: (host, port) of the ArduPilot being served (None before its first packet)
        self.peer: Optional[Tuple[str, int]] = None
        self.last_count: Optional[int] = None
        self.last_heard_ns: Optional[int] = None
        #: frames, repeats, resets, gaps, frames_skipped, foreign_packets, peer_changes
        self.counts: Counter = Counter(dict.fromkeys(COUNTS, 0))

    def classify(self, frame_count: int, sender, now_ns: int) -> str:
        """Return what to do with a valid packet: STEP, REPEAT, RESET or FOREIGN."""
        if self.peer is not None and sender != self.peer:
            if now_ns - self.last_heard_ns < self.peer_timeout_ns:
                self.counts['foreign_packets'] += 1
                return FOREIGN
            self.counts['peer_changes'] += 1
        self.peer = sender
        self.last_heard_ns = now_ns
        last, self.last_count = self.last_count, frame_count
        if last is None:
            self.counts['frames'] += 1
            return STEP
        if frame_count == last:
            self.counts['repeats'] += 1
            return REPEAT
        self.counts['frames'] += 1
        if frame_count < last:
            self.counts['resets'] += 1
            return RESET
        if frame_count > last + 1:
            self.counts['gaps'] += 1
            self.counts['frames_skipped'] += frame_count - last - 1
        return STEP

    def silent_for_ns(self, now_ns: int) -> Optional[int]:
        """Return how long the peer has been silent (None before its first packet)."""
        return None if self.last_heard_ns is None else now_ns - self.last_heard_ns
