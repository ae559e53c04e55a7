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
The real-time factor of a lock-step physics backend: physics time per wall time run.

ArduPilot's JSON SITL drives the node one frame at a time.  The factor counts only the
time the two ran together: each frame adds the wall time since the frame before and
the physics step it ran, unless the gap is a silence (at least the peer timeout: the
vehicle waited, nothing ran) or the frame starts a run (the first frame, or the first
after a restart, whose physics time went back to 0).  A restart forgets what went
before, as the physics time does.  Pure: the caller passes the wall times.
"""
from typing import Optional


class RealTimeFactor:
    """Physics seconds per wall second over the frames run since the last (re)start."""

    def __init__(self, silence_ns: int):
        self.silence_ns = int(silence_ns)
        self.restart()

    def restart(self) -> None:
        """Forget the runs so far (start, or ArduPilot restarted)."""
        self.physics_ns = 0
        self.wall_ns = 0
        self._last_wall_ns: Optional[int] = None

    def frame(self, wall_ns: int, step_ns: int) -> None:
        """Count one frame received at ``wall_ns`` that ran a step of ``step_ns``."""
        last, self._last_wall_ns = self._last_wall_ns, int(wall_ns)
        if last is None:
            return  # a run starts here: no time ran before this frame
        gap = int(wall_ns) - last
        if 0 <= gap < self.silence_ns:
            self.wall_ns += gap
            self.physics_ns += int(step_ns)

    def factor(self) -> Optional[float]:
        """Return physics time / wall time run (None before two frames of one run)."""
        if self.wall_ns <= 0:
            return None
        return self.physics_ns / self.wall_ns
