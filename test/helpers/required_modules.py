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
The modules a test needs beyond numpy: present, or a failure, or a skip that says why.

``require(module)`` returns the imported module.  When it cannot be imported:

* the environment's requirements name it (requirements.txt for the Kilted .venv, that
  environment's lines of tools/other_pythons.txt under tools/test_other_python): the
  test module fails (a missing engine is a broken environment, not a skipped check);
* otherwise the test module is skipped, the reason naming the environment, why the module
  is not there (the comment of its ``missing`` line) and what was not checked (the test
  module's docstring summary, or the test's name when called in a test, or ``checks``).

ROS 2 modules (rclpy, the message packages) are required in the Kilted .venv (or a
sourced ROS 2) and absent from the other environments, which install no ROS.
"""

import importlib
import os
import pathlib
import re
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
#: The pip distribution of each engine module (as requirements.txt names it).
DISTRIBUTIONS = {'pinocchio': 'pin', 'mujoco': 'mujoco', 'dartpy': 'dartpy'}
#: Modules of ROS 2 itself (no pip distribution of the other environments has them).
ROS_PREFIXES = ('rclpy', 'rcl_interfaces', 'builtin_interfaces', 'ament_index_python',
                'launch', 'launch_ros', 'rosidl_runtime_py')


def environment():
    """Return the name of the test environment: UWV_TEST_ENV or 'kilted' (the .venv)."""
    return os.environ.get('UWV_TEST_ENV', 'kilted')


def _is_ros(module):
    top = module.split('.')[0]
    return top in ROS_PREFIXES or top.endswith(('_msgs', '_srvs', '_interfaces'))


def _requirement_names(path):
    """Return the distribution names of a requirements.txt."""
    names = set()
    for line in path.read_text().splitlines():
        line = line.split('#')[0].strip()
        if line:
            names.add(re.split(r'[<>=!~\[ ;]', line)[0].lower())
    return names


def _other_lines(env):
    """Return {name: (how, comment)} of env's lines in tools/other_pythons.txt."""
    lines = {}
    for line in (REPO / 'tools' / 'other_pythons.txt').read_text().splitlines():
        text, _, comment = line.partition('#')
        fields = text.split()
        if len(fields) >= 3 and fields[0] == env:
            name = re.split(r'[<>=!~\[ ;]', fields[2])[0].lower()
            lines[name] = (fields[1], comment.strip())
    return lines


def status(module, env=None):
    """
    Return (required, why) of module in environment env (default: this one).

    required: the environment's requirements name it; why: where that is said, or why
    the module is not in the environment.
    """
    env = env or environment()
    top = module.split('.')[0]  # a submodule is required as its package is
    name = DISTRIBUTIONS.get(top, top).lower()
    if env == 'kilted':
        if _is_ros(module):
            return True, 'ROS 2 (the Kilted wheels of requirements.txt, or a sourced ROS 2)'
        if name in _requirement_names(REPO / 'requirements.txt'):
            return True, 'requirements.txt names %s' % name
        return False, 'requirements.txt does not name %s' % name
    lines = _other_lines(env)
    if not lines:
        raise ValueError('UWV_TEST_ENV=%r: tools/other_pythons.txt has no such environment'
                         % env)
    for key in (name, top.lower()):
        how, comment = lines.get(key, (None, ''))
        if how in ('pip', 'nobuild'):
            return True, 'tools/other_pythons.txt installs %s in %s' % (key, env)
        if how == 'missing':
            return False, 'left out of %s (tools/other_pythons.txt: %s)' % (env, comment)
    if _is_ros(module):
        return False, 'no ROS 2 in %s (tools/other_pythons.txt installs libraries only)' % env
    return False, 'tools/other_pythons.txt does not install %s in %s' % (name, env)


def _summary(doc):
    lines = (doc or '').strip().splitlines()
    return lines[0].strip().rstrip('.') if lines else 'this test module'


def require(module, checks=None):
    """Return the imported module; fail if the environment requires it, else skip why."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        required, why = status(module)
        frame = sys._getframe(1)
        caller = frame.f_globals
        where = caller.get('__name__', '?')
        if frame.f_code.co_name.startswith('test'):  # called in a test: that test
            where += '::' + frame.f_code.co_name
            what = checks or frame.f_code.co_name.replace('_', ' ')
        else:
            what = checks or _summary(caller.get('__doc__'))
        if required:
            pytest.fail('%s: %s cannot be imported (%s) in environment %s, whose '
                        'requirements name it (%s): not checked: %s'
                        % (where, module, exc, environment(), why, what), pytrace=False)
        pytest.skip('%s not in environment %s: %s; not checked there: %s'
                    % (module, environment(), why, what), allow_module_level=True)
