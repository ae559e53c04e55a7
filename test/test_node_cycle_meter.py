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

"""CycleMeter: nearest-rank percentiles over one window, then a fresh window."""
import numpy as np

from uwv_hydro.node.cycle_meter import CycleMeter


def test_percentiles_are_nearest_rank_of_the_window():
    rng = np.random.default_rng(3)
    cpu = rng.integers(1_000, 900_000, 777)
    meter = CycleMeter(capacity=1000)
    for c in cpu:
        meter.add(int(c), int(c) + 5_000)
    got = meter.window()
    # numpy's 'inverted_cdf' is the nearest-rank definition
    for q in (50, 99):
        want = np.percentile(cpu, q, method='inverted_cdf') * 1e-3
        assert got['cycle_cpu_p%d_us' % q] == want
        assert got['cycle_wall_p%d_us' % q] == want + 5.0
    assert meter.window() == {}, 'a window restarts empty'


def test_a_full_ring_keeps_the_latest_cycles():
    meter = CycleMeter(capacity=100)
    for k in range(250):  # 0..149 overwritten: the window is 150..249
        meter.add(k * 1000, k * 1000)
    got = meter.window()
    kept = np.arange(150, 250) * 1e-3 * 1000
    assert got['cycle_cpu_p50_us'] == np.percentile(kept, 50, method='inverted_cdf')
    assert got['cycle_cpu_p99_us'] == np.percentile(kept, 99, method='inverted_cdf')
