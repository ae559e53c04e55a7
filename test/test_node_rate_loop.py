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
