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
The /clock watch of a node under ``use_sim_time``.

A /clock that jumps back (a looping bag) resets the node's state and inputs, like a
tf2 buffer; a /clock that stops advancing for ``clock_stall_timeout`` seconds of wall
time is reported at once as "clock stalled" (WARN in /diagnostics, with the silent
time, and a log line every :data:`CLOCK_STALL_LOG_S` while it lasts).
"""
import time

from rclpy.clock import JumpThreshold
from rclpy.duration import Duration

from uwv_hydro.node.node_part import locked, NodePart

#: Period of the /clock watch (s, steady clock).
CLOCK_WATCH_PERIOD_S = 0.1
#: Seconds between two "clock stalled" log lines while it stays stalled.
CLOCK_STALL_LOG_S = 10.0


class ClockWatch(NodePart):
    """The node's /clock jump callback and stall watch (a steady-clock timer)."""

    def __init__(self, node, steady_clock):
        super().__init__(node)
        #: True while /clock has not advanced for clock_stall_timeout s of wall time.
        self.stalled = False
        self._seen = (node.now_ns(), time.monotonic())
        self._logged = -CLOCK_STALL_LOG_S
        self._jump_handle = node.get_clock().create_jump_callback(
            JumpThreshold(min_forward=None, min_backward=Duration(nanoseconds=-1),
                          on_clock_change=True),
            post_callback=self._on_clock_jump)
        self._timer = node.create_timer(CLOCK_WATCH_PERIOD_S, self._on_clock_watch,
                                        clock=steady_clock)

    @locked
    def _on_clock_jump(self, jump) -> None:
        # Called from the /clock subscription, in the node's executor, before any
        # message that follows the jump is processed.
        if jump.delta.nanoseconds < 0:
            self.node.clock_reset()
            self.node.jumps.forget()

    @locked
    def _on_clock_watch(self) -> None:
        now, wall = self.node.now_ns(), time.monotonic()
        if now != self._seen[0]:
            if self.stalled:
                self.logger.info('clock resumed after %.3g s of wall time'
                                 % (wall - self._seen[1]))
            self._seen = (now, wall)
            self.stalled = False
            return
        silent = wall - self._seen[1]
        if now == 0 or silent <= self.cfg['clock_stall_timeout']:
            return  # /clock never started ("no update yet"), or not silent for long
        if wall - self._logged >= CLOCK_STALL_LOG_S:
            self._logged = wall
            self.logger.warning(
                'clock stalled: /clock has not advanced for %.3g s of wall time (sim time '
                'stays at %.9f s): nothing is updated or published' % (silent, now * 1e-9))
        if not self.stalled:
            self.stalled = True
            self.node.diagnostics.publish()  # at once, not at the next period

    def snapshot(self, snap: dict) -> None:
        """Add the stall state (and how long /clock has been silent) to the loop status."""
        snap['loop']['clock_stalled'] = self.stalled
        if self.stalled:
            snap['loop']['clock_silent_s'] = time.monotonic() - self._seen[1]
