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
CPU and wall time of the update cycles over one /diagnostics window.

Every cycle records the CPU time of the thread that ran it (``time.thread_time_ns``:
what the cycle itself costs, whatever else the machine does) and its wall time (the
CPU time plus waits: the GIL, the state lock, pre-emption).  /diagnostics reports the
median and the 99th percentile of both over the window since the last report; a
cycle costs two clock reads and two stores into preallocated rings (no allocation).
"""
from array import array
import math
from typing import Dict

#: Cycles kept per window (the oldest are overwritten beyond: 10 s at 1 kHz).
CAPACITY = 10000


def _percentile_us(values, q: float) -> float:
    """Return the ``q``-th percentile (nearest rank) of ``values`` (ns) in microseconds."""
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100.0 * len(ordered)))  # nearest-rank definition
    return ordered[rank - 1] * 1e-3


class CycleMeter:
    """Ring of per-cycle CPU and wall times (ns) since the last :meth:`window`."""

    def __init__(self, capacity: int = CAPACITY):
        self.capacity = int(capacity)
        self._cpu = array('q', bytes(8 * self.capacity))
        self._wall = array('q', bytes(8 * self.capacity))
        self._count = 0

    def add(self, cpu_ns: int, wall_ns: int) -> None:
        """Record one cycle."""
        i = self._count % self.capacity
        self._cpu[i] = cpu_ns
        self._wall[i] = wall_ns
        self._count += 1

    def window(self) -> Dict[str, float]:
        """Return the cycle figures since the last call (empty if none ran) and restart."""
        n = min(self._count, self.capacity)
        self._count = 0
        if n == 0:
            return {}
        cpu, wall = self._cpu[:n], self._wall[:n]
        return {'cycle_cpu_p50_us': _percentile_us(cpu, 50),
                'cycle_cpu_p99_us': _percentile_us(cpu, 99),
                'cycle_wall_p50_us': _percentile_us(wall, 50),
                'cycle_wall_p99_us': _percentile_us(wall, 99)}
