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
Short soak (60 simulated seconds, 60k cycles at 1 kHz under sim time) of ``make soak``.

/clock advances two periods per lock-step, so every other step is a catch-up step that
the node must still publish.

Bounds: RSS grows by at most 10 MB over the run (a leak of one 1 kB object per cycle
would be 60 MB); every one of the 60001 odometry stamps is exactly 1 ms after the
previous (no gaps, no repeats); every position step is within |v| dt (+1 %); no
lagged steps, divergences or state restores; the node is alive at the end.
"""
import json

from nodes.harness import REPO
import pytest

pytestmark = [pytest.mark.ros, pytest.mark.slow]

RSS_BOUND_MB = 10.0


def test_short_soak_bounded_rss_and_continuous_odometry(spawn, tmp_path, python):
    out = tmp_path / 'soak.json'
    proc = spawn([python, str(REPO / 'soak' / 'run_soak.py'), '--sim-seconds', '60',
                  '--clock-step-cycles', '2',
                  '--max-rss-growth-mb', str(RSS_BOUND_MB), '--json', str(out),
                  '--workdir', str(tmp_path)])
    stdout, stderr = proc.communicate(timeout=500)
    print(stdout)
    assert out.exists(), stderr[-3000:]
    s = json.loads(out.read_text())
    assert s['node_alive_at_end']
    assert s['cycles'] == 60000 and s['odometry_count'] == 60001
    assert s['clock_step_cycles'] == 2
    assert s['odometry_gaps'] == 0 and s['odometry_repeats'] == 0
    assert s['position_jumps'] == 0 and s['non_finite_odometry'] == 0
    assert s['lagged_steps'] == 0 and s['divergences'] == 0 and s['state_restores'] == 0
    assert s['rss_growth_mb'] <= RSS_BOUND_MB, s['rss_samples_mb']
    assert s['max_world_speed'] > 0.1, 'the thrust profile did not move the vehicle'
    assert proc.returncode == 0, stdout + stderr[-3000:]
