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
The host the figures come from: its CPU model and a fixed reference loop's time.

``make bench`` prints this line first (benchmarks/run.py), so that every set of
figures says which machine took it, and a reader can scale a figure to another host by
the ratio of the two reference loops (CPU-bound Python, as most of the node's cycle
is).  The reference loop is :data:`REFERENCE_N` multiply-adds of Python integers in a
plain ``for`` loop, timed on the thread's CPU clock (the CPU it took, whatever else
runs), best of :data:`REFERENCE_REPEATS`.
"""
import os
import platform
import statistics
import time

#: Iterations of the reference loop.
REFERENCE_N = 1_000_000
#: The reference loop's time is the best of this many runs.
REFERENCE_REPEATS = 5


def cpu_model(path: str = '/proc/cpuinfo') -> str:
    """Return the CPU model named by /proc/cpuinfo (else the platform's processor name)."""
    try:
        with open(path) as f:
            for line in f:
                key, _, value = line.partition(':')
                if key.strip() in ('model name', 'Model', 'Hardware'):
                    return value.strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or 'unknown'


def reference_loop_s(n: int = REFERENCE_N, repeats: int = REFERENCE_REPEATS) -> tuple:
    """Return the CPU time (s) of the fixed reference loop: (best, median) of ``repeats``."""
    times = []
    for _ in range(repeats):
        start = time.thread_time()
        acc = 0
        for i in range(n):
            acc += i * i
        times.append(time.thread_time() - start)
    return min(times), statistics.median(times)


def host_line() -> str:
    """Return the line describing this host (CPU, cores, reference loop, Python)."""
    best, median = reference_loop_s()
    return ('# host: %s, %d cores; reference loop (%d Python multiply-adds, CPU time) '
            '%.1f ms best of %d (median %.1f ms); Python %s' % (
                cpu_model(), os.cpu_count() or 0, REFERENCE_N, best * 1e3,
                REFERENCE_REPEATS, median * 1e3, platform.python_version()))


if __name__ == '__main__':
    print(host_line())
