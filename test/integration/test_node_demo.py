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

"""``uwv-hydro demo`` (make demo) runs end to end in a short version."""
import subprocess
import sys

from conftest import REPO
import pytest


@pytest.mark.ros
def test_demo_runs_and_writes_the_plot(tmp_path, ros_env):
    plot = tmp_path / 'demo.png'
    result = subprocess.run(
        [sys.executable, '-m', 'uwv_hydro', 'demo', '--duration', '4', '--plot', str(plot),
         '--log', str(tmp_path / 'node.log'), '--domain-id', ros_env['ROS_DOMAIN_ID']],
        cwd=str(REPO), env=ros_env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert 'expected terminal' in result.stdout
    assert 'distance travelled' in result.stdout
    assert plot.stat().st_size > 10000


@pytest.mark.ros
def test_demo_summary_reports_the_node_warnings(tmp_path, ros_env):
    """A node that warns (remus100.urdf: its fin joints lumped) is named in the summary."""
    log = tmp_path / 'node.log'
    result = subprocess.run(
        [sys.executable, '-m', 'uwv_hydro', 'demo', '--vehicle', 'urdf/remus100.urdf',
         '--duration', '2', '--plot', str(tmp_path / 'demo.png'), '--log', str(log),
         '--domain-id', ros_env['ROS_DOMAIN_ID']],
        cwd=str(REPO), env=ros_env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    warned = [line for line in log.read_text().splitlines()
              if line.startswith(('[WARN]', '[ERROR]', '[FATAL]'))]
    assert any('lumped at their zero position' in line for line in warned), warned
    summary = [line for line in result.stdout.splitlines() if 'the node logged' in line]
    assert summary == ['demo: the node logged %d warning%s or error%s (log %s); the first: %s'
                       % (len(warned), 's' * (len(warned) > 1), 's' * (len(warned) > 1),
                          log, warned[0])], result.stdout


def test_demo_profile_phases():
    from uwv_hydro.cli.demo_cmd import profile
    assert profile(0.0, 20.0, 100.0, 10.0) == ('ramp', 0.0, 0.0)
    assert profile(5.0, 20.0, 100.0, 10.0) == ('hold', 50.0, 50.0)
    assert profile(12.0, 20.0, 100.0, 10.0) == ('turn', 60.0, 40.0)
    assert profile(19.0, 20.0, 100.0, 10.0) == ('stop', 0.0, 0.0)
