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
Copyright linter.

Uses ament_copyright where ROS 2 provides it.  The PyPI wheels do not package it, so
otherwise the same rule is checked here: every Python source opens with a
'Copyright <year> <holder>' line followed by the Apache-2.0 header, and every other
source (shell, CMake, Makefile, launch) names its copyright and SPDX licence.
"""

import pathlib
import re

from lint_paths import python_sources, REPO
import pytest

APACHE_BODY = (REPO / 'tools' / 'license_header.txt').read_text().splitlines()[1:]
COPYRIGHT_LINE = re.compile(r'^# Copyright (19|20)\d\d(-\d{4})? \S.*$')
OTHER_SOURCES = ['tools/bootstrap', 'tools/run', 'tools/env.sh', 'Makefile', '.ci/run',
                 'tools/interfaces/tf2_msgs/CMakeLists.txt']


def _python_files():
    for path in map(pathlib.Path, python_sources()):
        yield from ([path] if path.is_file() else sorted(path.rglob('*.py')))


def header_problem(path: pathlib.Path):
    """Return why path lacks the project's copyright header, or None."""
    lines = path.read_text(encoding='utf-8').splitlines()
    if lines and lines[0].startswith('#!'):
        lines = lines[1:]
    if not lines or not COPYRIGHT_LINE.match(lines[0]):
        return 'first line is not "# Copyright <year> <holder>"'
    if path.suffix == '.py':
        if lines[1:1 + len(APACHE_BODY)] != APACHE_BODY:
            return 'Apache-2.0 header text missing or altered'
    elif not any('SPDX-License-Identifier: Apache-2.0' in line for line in lines[:4]):
        return 'no "SPDX-License-Identifier: Apache-2.0" line'
    return None


@pytest.mark.copyright
@pytest.mark.linter
def test_copyright():
    try:
        from ament_copyright.main import main
    except ImportError:
        main = None
    if main is not None:
        assert main(argv=python_sources()) == 0, 'Found copyright errors'
    files = list(_python_files()) + [REPO / p for p in OTHER_SOURCES]
    problems = ['%s: %s' % (p.relative_to(REPO), why) for p in files
                for why in [header_problem(p)] if why]
    assert not problems, '\n'.join(problems)


def test_header_check_rejects_a_missing_licence(tmp_path):
    bad = tmp_path / 'bad.py'
    bad.write_text('# Copyright 2026 Someone\n\nprint(1)\n')
    assert header_problem(bad) == 'Apache-2.0 header text missing or altered'
    bare = tmp_path / 'bare.py'
    bare.write_text('print(1)\n')
    assert 'Copyright' in header_problem(bare)
