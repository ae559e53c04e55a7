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

"""CycleMeter and CycleProfile: nearest-rank percentiles over one window, then a fresh one."""
import numpy as np
import pytest

from uwv_hydro.node.cycle_meter import CycleMeter

# the reference: numpy's nearest-rank percentile, method= since numpy 1.22
pytestmark = pytest.mark.skipif(
    not hasattr(np.lib, 'NumpyVersion') or np.lib.NumpyVersion(np.__version__) < '1.22.0',
    reason="numpy %s has no np.percentile(method='inverted_cdf') (numpy >= 1.22), the "
           'nearest-rank reference of these tests: the percentiles are not checked with it'
           % np.__version__)


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


def test_profile_stages_are_nearest_rank_per_stage_and_windows_restart():
    from uwv_hydro.node.cycle_profile import CycleProfile, UPDATE_STAGES
    rng = np.random.default_rng(5)
    values = rng.integers(0, 50_000, (333, len(UPDATE_STAGES)))
    profile = CycleProfile(capacity=1000)
    for row in values:
        profile.add_cycle(*(int(v) for v in row))
    got = profile.window()
    assert got['profile.cycles'] == 333
    for k, name in enumerate(UPDATE_STAGES):
        column = values[:, k]
        for q in (50, 99):
            want = np.percentile(column, q, method='inverted_cdf') * 1e-3
            assert got['profile.%s_p%d_us' % (name, q)] == want
        assert got['profile.%s_max_us' % name] == column.max() * 1e-3
    again = profile.window()
    assert again['profile.cycles'] == 0 and 'profile.cycle_p50_us' not in again


def test_profile_counts_late_wakes_against_the_section_running():
    from uwv_hydro.node.cycle_profile import CycleProfile, LATE_WAKE_NS, SECTIONS
    profile = CycleProfile()
    late, on_time = LATE_WAKE_NS + 1, LATE_WAKE_NS
    plan = [('input', late), ('input', late), ('diagnostics', late),
            (None, late), ('gc', on_time), (None, on_time)]
    for section, overshoot in plan:
        profile.section = section
        profile.add_cycle(0, overshoot, 0, 0, 0, 0)
    profile.enter('input')
    profile.leave()  # ended just before the next late wake: counted after it
    profile.add_cycle(0, late, 0, 0, 0, 0)
    got = profile.window()
    assert got['profile.late_wakes'] == 5
    assert got['profile.late_wakes_during_input'] == 2
    assert got['profile.late_wakes_during_diagnostics'] == 1
    assert got['profile.late_wakes_during_none'] == 2
    assert got['profile.late_wakes_during_gc'] == 0
    assert sum(got['profile.late_wakes_during_' + s] for s in SECTIONS) == 5
    assert got['profile.late_wakes_after_none'] == 4
    assert got['profile.late_wakes_after_input'] == 1
    assert profile.window()['profile.late_wakes'] == 0, 'a window restarts the counts'


def test_profile_times_publishes_per_registered_topic_and_gc_passes():
    import gc
    import time
    from uwv_hydro.node.cycle_profile import CycleProfile
    profile = CycleProfile()
    odom, other = object(), object()
    profile.register_publisher(odom, 'publish_odometry')
    assert profile.publish_stage(odom) == 'publish_odometry'
    assert profile.publish_stage(other) == 'publish_other'
    with pytest.raises(ValueError):
        profile.register_publisher(other, 'publish_nothing')
    for ns in (4_000, 1_000, 3_000):
        profile.add(profile.publish_stage(odom), ns)
    profile.watch_gc(time.monotonic_ns)
    try:
        gc.collect()
        gc.collect()
    finally:
        profile.unwatch_gc()
    gc.collect()  # no longer watched
    got = profile.window()
    assert got['profile.publish_odometry_p50_us'] == 3.0
    assert got['profile.publish_odometry_max_us'] == 4.0
    assert 'profile.publish_other_p50_us' not in got, 'no value: no figure'
    assert got['profile.gc_runs'] == 2
    assert 0.0 <= got['profile.gc_p50_us'] <= got['profile.gc_max_us']
    assert profile.section is None, 'a gc pass ends its section'
