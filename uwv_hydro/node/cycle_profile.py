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
Where one update cycle's time goes: a debug profile (parameter ``cycle_profile``).

Off by default: a cycle then pays a few ``is None`` / flag tests (the rate loop, the
cycle, the update, each publish): no clock read, no allocation.  On, every wall-clock
cycle records (``time.monotonic_ns``, the RateLoop's clock, ns):

* on the update thread (:data:`UPDATE_STAGES`, all at one index of their rings, so
  they describe the same cycles): ``wake_late``, ``sleep_overshoot``, ``lock_wait``,
  ``inputs``, ``update`` and ``cycle``;
* each publish, inside the update (:data:`PUBLISH_STAGES`, :mod:`uwv_hydro.node.outbox`):
  ``publish_odometry``, ``publish_tf``, ``publish_sensors``, ``publish_other``;
* ``gc`` pauses (``gc.callbacks``) in whatever thread triggered them.

Which thread held the interpreter: the threads' known sections (the /diagnostics
report, the thrust callbacks, a gc pass) mark themselves in
:attr:`CycleProfile.section` while they run (:meth:`CycleProfile.enter`,
:meth:`CycleProfile.leave`).  When the update thread's sleep overshoots by more than
the spin tail (:attr:`CycleProfile.late_wake_ns`), it counts the late wake against the
section running at that moment (``late_wakes_during_<section>``; ``none``: no marked
section) and against the last section that ended before it
(``late_wakes_after_<section>``).  A mark is one attribute store, not a lock: a count
is an indicator, not proof.

/diagnostics gets ``profile.<stage>_{p50,p99,max}_us`` per window (nearest rank, as
:mod:`uwv_hydro.node.cycle_meter`), the late-wake counts, ``profile.gc_runs`` and
``profile.switch_interval_us``, computed with numpy on the executor thread at report
time, outside the state lock.  What each stage spans and what a large p99 points at:
doc/guide/node_timing.md.
"""
from array import array
import gc
import sys
from typing import Dict, Optional

import numpy as np

#: Stages timed on the update thread, one index per cycle.
UPDATE_STAGES = ('wake_late', 'sleep_overshoot', 'lock_wait', 'inputs', 'update', 'cycle')
#: Each publish, timed inside the update (one value per message).
PUBLISH_STAGES = ('publish_odometry', 'publish_tf', 'publish_sensors', 'publish_other')
#: Everything but the update stages: one ring each.
OTHER_STAGES = PUBLISH_STAGES + ('gc',)
#: Sections that mark themselves while they run (``none``: no marked section).
SECTIONS = ('diagnostics', 'input', 'gc', 'none')
#: A sleep that overshoots by more than this (ns) wakes after the cycle's deadline: the
#: RateLoop's default spin tail (the node sets :attr:`CycleProfile.late_wake_ns` to its
#: loop's).
LATE_WAKE_NS = 150_000
#: Values kept per ring and window (the oldest are overwritten beyond: 10 s at 1 kHz).
CAPACITY = 10000


def _figures(values: np.ndarray, name: str) -> Dict[str, float]:
    """Return p50, p99 (nearest rank) and max of ``values`` (ns) in microseconds."""
    ordered = np.sort(values)
    out = {}
    for q in (50, 99):
        rank = max(1, int(np.ceil(q / 100.0 * len(ordered))))  # nearest-rank definition
        out['profile.%s_p%d_us' % (name, q)] = float(ordered[rank - 1]) * 1e-3
    out['profile.%s_max_us' % name] = float(ordered[-1]) * 1e-3
    return out


class _Ring:
    """Preallocated ring of int64 values of one window (a window gets fresh rings)."""

    def __init__(self, capacity: int, width: int = 1):
        self.capacity = capacity
        self.data = [array('q', bytes(8 * capacity)) for _ in range(width)]
        self.count = 0

    def values(self):
        """Return the values kept (one numpy array per column)."""
        n = min(self.count, self.capacity)
        return [np.frombuffer(column, dtype=np.int64, count=n) for column in self.data]


class CycleProfile:
    """Per-stage rings of one window and the late-wake attribution."""

    def __init__(self, capacity: int = CAPACITY):
        self.capacity = int(capacity)
        self._new_rings()
        #: publisher -> its publish stage (register_publisher); the rest is publish_other
        self._publish_stage: Dict[int, str] = {}
        #: The marked section running now (None: none), and the last one that ended.
        self.section: Optional[str] = None
        self.last_section: Optional[str] = None
        self._late = dict.fromkeys(SECTIONS, 0)
        self._late_after = dict.fromkeys(SECTIONS, 0)
        self._gc_started = 0
        self._gc_clock = None
        #: A sleep overshoot above this (ns) is a late wake (the loop's spin tail).
        self.late_wake_ns = LATE_WAKE_NS

    def _new_rings(self) -> None:
        # a window swaps in fresh rings (one store each) rather than resetting them: a
        # writer on another thread then never mixes two windows (at worst its one value
        # lands in the window just taken)
        self._cycles = _Ring(self.capacity, len(UPDATE_STAGES))
        self._other = {name: _Ring(self.capacity) for name in OTHER_STAGES}

    # ------------------------------------------------------------------ recording
    def add_cycle(self, wake_late, sleep_overshoot, lock_wait, inputs, update,
                  cycle) -> None:
        """Record one update cycle's stages (ns, :data:`UPDATE_STAGES` order)."""
        ring = self._cycles
        i = ring.count % ring.capacity
        for column, value in zip(ring.data, (wake_late, sleep_overshoot, lock_wait, inputs,
                                             update, cycle)):
            column[i] = value
        ring.count += 1
        if sleep_overshoot > self.late_wake_ns:
            self._late[self.section or 'none'] += 1
            self._late_after[self.last_section or 'none'] += 1

    def enter(self, section: str) -> None:
        """Mark ``section`` (one of :data:`SECTIONS`) as running on its thread."""
        self.section = section

    def leave(self) -> None:
        """Mark the running section as ended (the last one, for a late wake after it)."""
        self.last_section, self.section = self.section, None

    def add(self, stage: str, value_ns: int) -> None:
        """Record one value of a stage of :data:`OTHER_STAGES`."""
        ring = self._other[stage]
        ring.data[0][ring.count % ring.capacity] = value_ns
        ring.count += 1

    def register_publisher(self, publisher, stage: str) -> None:
        """Time ``publisher``'s publishes as ``stage`` (one of :data:`PUBLISH_STAGES`)."""
        if stage not in PUBLISH_STAGES:
            raise ValueError('unknown publish stage %r' % stage)
        self._publish_stage[id(publisher)] = stage

    def publish_stage(self, publisher) -> str:
        """Return the stage a publish on ``publisher`` is timed as."""
        return self._publish_stage.get(id(publisher), 'publish_other')

    # ------------------------------------------------------------------ gc pauses
    def watch_gc(self, clock) -> None:
        """Time every garbage collection with ``clock`` (ns) from now on."""
        self._gc_clock = clock
        if self._on_gc not in gc.callbacks:
            gc.callbacks.append(self._on_gc)

    def unwatch_gc(self) -> None:
        """Stop timing garbage collections."""
        if self._on_gc in gc.callbacks:
            gc.callbacks.remove(self._on_gc)

    def _on_gc(self, phase: str, info) -> None:
        if phase == 'start':
            self._gc_started = self._gc_clock()
            self.enter('gc')
        else:
            self.add('gc', self._gc_clock() - self._gc_started)
            self.leave()

    # ------------------------------------------------------------------ report
    def window(self) -> Dict[str, float]:
        """Return the figures since the last call and restart (stages with no value: none)."""
        cycles, other = self._cycles, self._other
        self._new_rings()
        late, late_after = self._late, self._late_after
        self._late = dict.fromkeys(SECTIONS, 0)
        self._late_after = dict.fromkeys(SECTIONS, 0)
        out = {}
        columns = cycles.values()
        if len(columns[0]):
            for name, values in zip(UPDATE_STAGES, columns):
                out.update(_figures(values, name))
        out['profile.cycles'] = len(columns[0])
        out['profile.gc_runs'] = other['gc'].count
        for name, ring in other.items():
            (values,) = ring.values()
            if len(values):
                out.update(_figures(values, name))
        out['profile.late_wakes'] = sum(late.values())
        for name, count in late.items():
            out['profile.late_wakes_during_' + name] = count
        for name, count in late_after.items():
            out['profile.late_wakes_after_' + name] = count
        out['profile.switch_interval_us'] = sys.getswitchinterval() * 1e6
        return out
