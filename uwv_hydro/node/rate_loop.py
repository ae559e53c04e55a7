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
A precisely paced wall-clock loop thread for high cycle rates.

rclpy's executor spends a few hundred microseconds of CPU per timer tick, which is most
of a 1 kHz budget and makes the period jitter depend on everything else the executor
does.  For wall-clock operation (hardware in the loop) the node can instead run its
cycle on this thread: deadlines are absolute (k * period from the start, so no drift),
the thread sleeps until shortly before each deadline and spins the last
``spin_tail`` seconds, and a late cycle is not repeated in a burst — the caller's cycle
catches up on the missed integration steps itself.  The cycle reads its deadline in
:attr:`RateLoop.deadline_ns` (monotonic ns, exactly k periods from the start).
Subscriptions, services and parameters stay on the executor; the caller guards shared
state with a lock.

With :attr:`RateLoop.profiled` set before :meth:`RateLoop.start` (``cycle_profile``),
the thread also records when its coarse sleep should have ended
(:attr:`RateLoop.sleep_until_ns`) and when it returned (:attr:`RateLoop.woke_ns`).

A cycle that returns True asks for a rest: it is behind (simulate mode could not run
every step due: node/simulate_io.py), and back-to-back cycles would hold the state lock
nearly all the time, starving the executor's /diagnostics, services and parameters.
The next cycle then starts at the first deadline more than the spin tail ahead
(:attr:`RateLoop.rests` counts them); a cycle that is only late is followed at once.

With ``timer_slack_ns`` the thread asks Linux for that timer slack
(``prctl(PR_SET_TIMERSLACK)``, per thread) when it starts, so the kernel does not defer
a sleep's end by its default 50 us; elsewhere, or if the call fails, the default stays
(:attr:`RateLoop.timer_slack_set` False).  Why: doc/guide/node_timing.md.  Under sim
time (``use_sim_time``) the node uses an ordinary node-clock timer instead.
"""

import ctypes
import ctypes.util
import sys
import threading
import time
from typing import Callable, Optional


class RateLoop:
    """
    Call ``cycle()`` every ``period`` seconds of monotonic time on its own thread.

    ``cycle()`` returns True to ask for a rest before the next cycle (see the module
    docstring), anything else to go on.
    """

    def __init__(self, period: float, cycle: Callable[[], None],
                 on_error: Optional[Callable[[BaseException], None]] = None,
                 spin_tail: float = 150e-6, name: str = 'uwv_hydro_rate_loop',
                 timer_slack_ns: Optional[int] = None):
        if not period > 0:
            raise ValueError('period must be > 0')
        self.period = float(period)
        self.period_ns = max(1, int(round(self.period * 1e9)))
        self.cycle = cycle
        self.on_error = on_error
        self.spin_tail = min(float(spin_tail), self.period / 2)
        self.timer_slack_ns = timer_slack_ns
        #: Whether the thread's timer slack was set to ``timer_slack_ns``.
        self.timer_slack_set = False
        self.cycles = 0
        #: Cycles that started more than one period after their deadline.
        self.late = 0
        #: Deadlines skipped because a cycle ran past them.
        self.skipped = 0
        #: Rests taken after a cycle that asked for one (it was behind).
        self.rests = 0
        #: The deadline of the running cycle (``time.monotonic_ns``): start + k periods.
        self.deadline_ns: Optional[int] = None
        #: Record the sleep's asked and actual end (set before start; cycle_profile.py).
        self.profiled = False
        #: When the running cycle's coarse sleep should have ended, and when it did (ns;
        #: equal when there was no sleep).  Recorded only when :attr:`profiled`.
        self.sleep_until_ns = 0
        self.woke_ns = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> None:
        """Start the thread."""
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Ask the thread to stop and wait for it."""
        self._stop.set()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout)

    @property
    def running(self) -> bool:
        """Return whether the thread is alive."""
        return self._thread.is_alive()

    def _set_timer_slack(self) -> None:
        if not self.timer_slack_ns or not sys.platform.startswith('linux'):
            return
        try:
            libc = ctypes.CDLL(ctypes.util.find_library('c'), use_errno=True)
            # prctl(2): PR_SET_TIMERSLACK = 29, for the calling thread
            self.timer_slack_set = libc.prctl(29, int(self.timer_slack_ns), 0, 0, 0) == 0
        except (OSError, AttributeError):
            self.timer_slack_set = False

    def _run(self) -> None:
        self._set_timer_slack()
        clock = time.monotonic_ns  # the node's pacing clock in wall time
        period = self.period_ns
        tail = int(self.spin_tail * 1e9)
        stopped = self._stop.is_set
        profiled = self.profiled
        deadline = clock()
        rest = False
        while not stopped():
            deadline += period
            delay = deadline - clock()
            if rest and delay <= tail:
                # behind: not back to back; the first deadline beyond a spin tail ahead,
                # the thread asleep (the state lock free) until shortly before it
                missed = (tail - delay) // period + 1
                self.rests += 1
                self.skipped += missed
                deadline += missed * period
                delay = deadline - clock()
            if delay > tail:
                # coarse sleep, then spin: time.sleep overshoots by tens of microseconds
                self._stop.wait((delay - tail) * 1e-9)
                if profiled:
                    self.sleep_until_ns, self.woke_ns = deadline - tail, clock()
            elif profiled:
                self.sleep_until_ns = self.woke_ns = clock()
            while clock() < deadline and not stopped():
                pass
            if stopped():
                break
            lateness = clock() - deadline
            if lateness > period:
                self.late += 1
                missed = lateness // period
                self.skipped += missed
                # no burst of back-to-back cycles; the cycle catches up itself
                deadline += missed * period
            self.deadline_ns = deadline
            try:
                rest = self.cycle() is True
            except Exception as exc:  # noqa: B902 - a cycle error must not end the loop
                rest = False
                if self.on_error is not None:
                    self.on_error(exc)
            self.cycles += 1
