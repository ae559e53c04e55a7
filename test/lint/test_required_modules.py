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

"""An engine the environment's requirements name fails its tests when missing; else skips."""
import os
import pathlib
import subprocess
import sys

import pytest
from required_modules import status

REPO = pathlib.Path(__file__).resolve().parents[2]
#: The compiled ABA against Pinocchio: one of the modules that need an engine.
ENGINE_TEST = 'test/unit/physics/test_tree_dynamics.py'


def _run_without_pinocchio(tmp_path, env_name):
    """Run ENGINE_TEST's collection with pinocchio unimportable; return the process."""
    blocker = tmp_path / 'blocked' / 'pinocchio'
    blocker.mkdir(parents=True)
    (blocker / '__init__.py').write_text(
        "raise ModuleNotFoundError('No module named pinocchio (made unimportable by '\n"
        "                          'test_required_modules)', name='pinocchio')\n")
    env = dict(os.environ)
    env['PYTHONPATH'] = os.pathsep.join(
        [str(blocker.parent)] + [p for p in env.get('PYTHONPATH', '').split(os.pathsep) if p])
    env.pop('UWV_TEST_ENV', None)
    if env_name != 'kilted':
        env['UWV_TEST_ENV'] = env_name
    return subprocess.run(
        [sys.executable, '-m', 'pytest', ENGINE_TEST, '-q', '-rs', '-p', 'no:cacheprovider',
         '--collect-only' if env_name == 'kilted' else '-q'],
        cwd=str(REPO), env=env, capture_output=True, text=True, timeout=300)


def test_a_required_engine_missing_fails_the_run(tmp_path):
    proc = _run_without_pinocchio(tmp_path, 'kilted')
    out = proc.stdout + proc.stderr
    assert proc.returncode not in (0, 5), out
    assert 'made unimportable' in out and 'requirements.txt names pin' in out, out
    assert 'not checked: The compiled articulated-body algorithm' in out, out


def test_an_engine_left_out_of_an_environment_skips_saying_what_was_not_checked(tmp_path):
    proc = _run_without_pinocchio(tmp_path, 'humble')
    out = proc.stdout + proc.stderr
    assert proc.returncode in (0, 5), out  # 5: every test of the module skipped
    assert 'pinocchio not in environment humble: left out of humble' in out, out
    assert 'not checked there: The compiled articulated-body algorithm' in out, out


def test_status_reads_the_requirements_of_each_environment():
    for module in ('pinocchio', 'mujoco', 'dartpy', 'rclpy', 'geometry_msgs'):
        assert status(module, 'kilted')[0], module
    assert not status('some_engine_nobody_names', 'kilted')[0]
    assert status('mujoco', 'humble')[0] and status('dartpy', 'jazzy')[0]
    for env in ('humble', 'jazzy'):
        required, why = status('pinocchio', env)
        assert not required and 'left out of %s' % env in why
        required, why = status('rclpy', env)
        assert not required and 'no ROS 2 in %s' % env in why
    with pytest.raises(ValueError, match='no such environment'):
        status('numpy', 'melodic')
