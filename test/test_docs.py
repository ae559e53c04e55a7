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
The documentation builds clean and its commands run.

``doc/`` is built with Sphinx (MyST Markdown) as rosdoc2 builds a ROS 2 package's docs,
with warnings as errors.  Every fenced ``bash`` block of the README and of each page is
run from the repository root, whole, with ``bash -e``: a block is what a reader copies
and runs here.  Commands that need a ROS 2 installation, gz-sim or a placeholder path of
the reader's stand in ``sh`` blocks, which are shown and not run; a test keeps ``bash``
blocks free of those.
"""
import os
import pathlib
import re
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[1]
FENCE = re.compile(r'^```(\w*)[^\n]*\n(.*?)^```', re.S | re.M)
#: Commands a reader runs outside this checkout (an installed ROS 2, gz-sim, the suite
#: itself): they belong in ``sh`` blocks.
NOT_HERE = re.compile(r'^\s*(make|ros2|source|colcon|rosdep|sudo|gz)\b|/path/to/', re.M)


def _pages():
    return [REPO / 'README.md'] + sorted((REPO / 'doc').rglob('*.md'))


def _blocks(page: pathlib.Path, language: str):
    return [m.group(2) for m in FENCE.finditer(page.read_text()) if m.group(1) == language]


def _bash_blocks():
    cases = []
    for page in _pages():
        for k, block in enumerate(_blocks(page, 'bash')):
            cases.append(pytest.param(block, id='%s#%d' % (page.relative_to(REPO), k)))
    return cases


def test_sphinx_builds_without_warnings(tmp_path):
    """sphinx-build -W: a broken link, a page outside every toctree, bad markup all fail."""
    proc = subprocess.run(
        [sys.executable, '-m', 'sphinx', '-W', '--keep-going', '-q', '-b', 'html',
         str(REPO / 'doc'), str(tmp_path / 'html')],
        capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / 'html' / 'index.html').is_file()
    pages = {p.relative_to(REPO / 'doc').with_suffix('.html')
             for p in (REPO / 'doc').rglob('*.md')}
    missing = [str(p) for p in pages if not (tmp_path / 'html' / p).is_file()]
    assert not missing, missing


def test_bash_blocks_hold_only_commands_that_run_here():
    """ROS 2 installation, gz-sim and placeholder commands stand in sh blocks."""
    wrong = ['%s: %s' % (page.relative_to(REPO), m.group(0).strip())
             for page in _pages() for block in _blocks(page, 'bash')
             for m in NOT_HERE.finditer(block)]
    assert not wrong, wrong


def test_readme_links_resolve():
    """Every relative link of the README names a file of the repository."""
    text = (REPO / 'README.md').read_text()
    targets = re.findall(r'\]\(([^)#\s]+)(?:#[^)]*)?\)', text)
    local = [t for t in targets if '://' not in t]
    assert local, 'the README links to no page'
    missing = [t for t in local if not (REPO / t).exists()]
    assert not missing, missing


@pytest.mark.parametrize('block', _bash_blocks())
def test_bash_block_runs(block, tmp_path):
    """Each bash block runs to exit 0 from the repository root, as a reader runs it."""
    env = dict(os.environ, HOME=str(tmp_path), MPLBACKEND='Agg')
    proc = subprocess.run(['bash', '-euo', 'pipefail', '-c', block], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, 'exit %d\n%s\n%s' % (
        proc.returncode, proc.stdout[-3000:], proc.stderr[-3000:])
