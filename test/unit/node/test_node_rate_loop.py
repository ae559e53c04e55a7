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

"""RateLoop: runs the cycle on its thread, survives errors, skips rather than bursts."""

import threading
import time

import pytest

from uwv_hydro.node.rate_loop import RateLoop


def test_cycles_run_on_the_loop_thread_until_stopped():
    seen = []
    done = threading.Event()

    def cycle():
        seen.append(threading.current_thread().name)
        if len(seen) >= 20:
            done.set()

    loop = RateLoop(0.002, cycle)
    loop.start()
    assert done.wait(10.0)
    loop.stop()
    assert not loop.running
    count = len(seen)
    time.sleep(0.05)
    assert len(seen) == count, 'cycle ran after stop()'
    assert set(seen) == {'uwv_hydro_rate_loop'}


def test_an_error_in_a_cycle_is_reported_and_the_loop_continues():
    errors, calls = [], []
    done = threading.Event()

    def cycle():
        calls.append(1)
        if len(calls) == 2:
            raise ValueError('boom')
        if len(calls) >= 5:
            done.set()

    loop = RateLoop(0.002, cycle, on_error=errors.append)
    loop.start()
    assert done.wait(10.0)
    loop.stop()
    assert len(errors) == 1 and str(errors[0]) == 'boom'


def test_a_slow_cycle_skips_deadlines_instead_of_bursting():
    starts, slow_end = [], []
    done = threading.Event()

    def cycle():
        starts.append(time.perf_counter())
        if len(starts) == 3:
            time.sleep(0.05)  # 10 periods late
            slow_end.append(time.perf_counter())
        if len(starts) >= 8:
            done.set()

    loop = RateLoop(0.005, cycle)
    loop.start()
    assert done.wait(10.0)
    loop.stop()
    assert loop.late >= 1 and loop.skipped >= 9
    # the missed deadlines are not replayed back to back: after the slow cycle at most
    # one cycle starts at once, the rest keep the period
    burst = [t for t in starts if slow_end[0] <= t < slow_end[0] + 0.002]
    assert len(burst) <= 1, burst


def test_a_cycle_behind_gets_a_rest_and_a_late_one_does_not():
    """
    A cycle that returns True (behind) is not followed back to back: the thread sleeps.

    Every cycle takes 2.5 periods.  Returning True, each next cycle starts on the first
    deadline more than the spin tail after the previous one ended, and in between
    another thread can take a lock the cycle holds (as the executor takes the node's
    state lock for /diagnostics); returning None, the next starts at once (a late
    cycle catches up as before).
    """
    period = 0.004
    for behind in (True, None):
        lock, took = threading.Lock(), []
        ends, starts, gaps_ns = [], [], []
        done, stop = threading.Event(), threading.Event()

        def cycle():
            starts.append(time.monotonic_ns())
            if ends:
                gaps_ns.append(starts[-1] - ends[-1])
            with lock:
                t_end = time.monotonic() + 2.5 * period
                while time.monotonic() < t_end:  # busy, holding the lock, as an update
                    pass
            ends.append(time.monotonic_ns())
            if len(starts) >= 12:
                done.set()
            return behind

        def other():  # the executor: wants the lock now and then
            while not stop.is_set():
                with lock:
                    took.append(time.monotonic_ns())
                time.sleep(period / 4)

        loop = RateLoop(period, cycle, spin_tail=150e-6)
        helper = threading.Thread(target=other, daemon=True)
        loop.start()
        helper.start()
        assert done.wait(10.0)
        loop.stop()
        stop.set()
        helper.join(2.0)
        if behind:
            assert loop.rests >= 10, loop.rests
            # a rest: more than the spin tail, at most a period and the tail
            assert min(gaps_ns) > 150e3 and max(gaps_ns) < (period + 150e-6) * 1e9 + 2e6, \
                gaps_ns
            # the other thread got the lock between cycles
            between = sum(1 for a, b in zip(ends, starts[1:]) if any(a <= t <= b for t in took))
            assert between >= 5, (between, len(took))
        else:
            assert loop.rests == 0
            # late, not behind: the next cycle at once (well within a period)
            assert sorted(gaps_ns)[len(gaps_ns) // 2] < 0.5 * period * 1e9, gaps_ns


def test_period_must_be_positive():
    with pytest.raises(ValueError):
        RateLoop(0.0, lambda: None)


def test_deadlines_lie_on_the_period_grid():
    # the node counts its integration steps on these: whole periods from the first, and
    # a deadline skipped by a slow cycle is a whole number of periods too
    deadlines, done = [], threading.Event()

    def cycle():
        deadlines.append(loop.deadline_ns)
        if len(deadlines) == 4:
            time.sleep(0.012)  # past the next few deadlines
        if len(deadlines) >= 12:
            done.set()

    loop = RateLoop(0.003, cycle)
    loop.start()
    assert done.wait(10.0)
    loop.stop()
    gaps = [b - a for a, b in zip(deadlines, deadlines[1:])]
    assert all(g > 0 and g % loop.period_ns == 0 for g in gaps), gaps
    assert loop.skipped == sum(g // loop.period_ns - 1 for g in gaps)
