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
The documentation builds clean, its commands run and print what it quotes.

``doc/`` is built with Sphinx (MyST Markdown) as rosdoc2 builds a ROS 2 package's docs,
with warnings as errors.  Every fenced ``bash`` block of the README and of each page is
run from the repository root, whole, with ``bash -e``: a block is what a reader copies
and runs here.  Commands that need a ROS 2 installation, gz-sim or a placeholder path of
the reader's stand in ``sh`` blocks, which are shown and not run; a test keeps ``bash``
blocks free of those, and ``sh`` blocks free of ``uwv-hydro`` commands that could run
here.  A block that takes a minute or more is ``bash slow`` (marked slow: ``-m 'not
slow'`` leaves it out; ``make test`` runs it).

A fenced block whose info string is ``text output`` quotes what the ``bash`` block before
it printed (stdout and stderr as they interleave), and the run is compared with it line
by line: every quoted line must match a printed line, in order (printed lines that are
not quoted are passed over; a quoted line ``...`` only marks the cut).  Within a line,
``...`` stands for any text (a path of the reader's machine, a run time), runs of
whitespace are one space, and every other number is a figure, which must be within
FIGURE_TOLERANCE (1 %) of the quoted value or one unit of its last quoted digit,
whichever is larger.  The docs quote figures as printed, rounded; BLAS rounding differs
by CPU, so a figure may move in its last digits, while a change that moves one by more
than 1 % must be seen and the page updated.  (Integers too: a float printed with %.4g
can read 7436.)
"""
import os
import pathlib
import re
import subprocess
import sys

import pytest
from required_modules import require

REPO = pathlib.Path(__file__).resolve().parents[1]
FENCE = re.compile(r'^```(\w*)([^\n]*)\n(.*?)^```', re.S | re.M)
#: Commands a reader runs outside this checkout (an installed ROS 2, gz-sim, the suite
#: itself): they belong in ``sh`` blocks.
NOT_HERE = re.compile(r'^\s*(make|ros2|source|colcon|rosdep|sudo|gz)\b|/path/to/', re.M)


def _pages():
    return [REPO / 'README.md'] + sorted((REPO / 'doc').rglob('*.md'))


#: The relative tolerance of a quoted figure (module docstring).
FIGURE_TOLERANCE = 0.01
#: A number in a quoted line (not part of a name such as remus100 or p99).
NUMBER = r'[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?'
_TOKEN = re.compile(r'\.\.\.|(?<![\w.])' + NUMBER)


def _blocks(page: pathlib.Path, language: str):
    return [m.group(3) for m in FENCE.finditer(page.read_text()) if m.group(1) == language]


def _bash_blocks_with_output(page: pathlib.Path):
    """Return [(bash block, its quoted output or None, slow)] of a page, in page order."""
    pairs = []
    for m in FENCE.finditer(page.read_text()):
        if m.group(1) == 'bash':
            pairs.append([m.group(3), None, m.group(2).split() == ['slow']])
        elif m.group(1) == 'text' and m.group(2).split() == ['output']:
            assert pairs and pairs[-1][1] is None, (
                '%s: a text output block follows no bash block of its own' % page)
            pairs[-1][1] = m.group(3)
    return [tuple(pair) for pair in pairs]


def _bash_blocks():
    cases = []
    for page in _pages():
        for k, (block, output, slow) in enumerate(_bash_blocks_with_output(page)):
            cases.append(pytest.param(block, output,
                                      id='%s#%d' % (page.relative_to(REPO), k),
                                      marks=[pytest.mark.slow] if slow else []))
    return cases


def _figure_matches(quoted: str, printed: str) -> bool:
    """Whether a printed figure is the quoted one (module docstring: the tolerance)."""
    mantissa, _, exponent = quoted.lower().partition('e')
    digits = len(mantissa.partition('.')[2])
    last_digit = 10.0 ** (int(exponent or 0) - digits)
    q, p = float(quoted), float(printed)
    return abs(p - q) <= max(FIGURE_TOLERANCE * abs(q), last_digit) * (1 + 1e-9)


def _line_matches(quoted: str, printed: str) -> bool:
    """Whether a printed line is the quoted one: same text, figures within tolerance."""
    quoted, printed = ' '.join(quoted.split()), ' '.join(printed.split())
    pattern, figures, at = '', [], 0
    for m in _TOKEN.finditer(quoted):
        pattern += re.escape(quoted[at:m.start()])
        if m.group() == '...':
            pattern += '.*?'
        else:
            pattern += '(%s)' % NUMBER
            figures.append(m.group())
        at = m.end()
    pattern += re.escape(quoted[at:])
    found = re.fullmatch(pattern, printed)
    return found is not None and all(
        _figure_matches(q, p) for q, p in zip(figures, found.groups()))


def quoted_output_mismatch(quoted: str, printed: str):
    """Return the first quoted line the printed text lacks (in order), or None."""
    lines = printed.splitlines()
    at = 0
    for line in quoted.splitlines():
        if not line.strip() or line.strip() == '...':
            continue
        for k in range(at, len(lines)):
            if _line_matches(line, lines[k]):
                at = k + 1
                break
        else:
            return line
    return None


def test_quoted_output_comparison():
    """The comparison passes a run within the tolerance and fails one outside it."""
    quoted = ('wrote ... (MCAP file)\n...\nRMS position error 10.600251 m, speed 1.54 m/s\n'
              'replayed 18001 odometry messages in ... s: ...x real time\n')
    printed = ('note: x\nwrote /tmp/a.mcap (MCAP file)\nother line\n'
               'RMS position error 10.595705 m, speed   1.55 m/s\n'
               'replayed 18001 odometry messages in 0.88 s: 205x real time\n')
    assert quoted_output_mismatch(quoted, printed) is None
    # a figure off by more than 1 % (and one unit of its last digit), other words, the
    # lines in another order
    for wrong in (printed.replace('10.595705', '10.8'), printed.replace('1.55', '1.57'),
                  printed.replace('18001', '17800'), printed.replace('MCAP', 'CSV'),
                  '\n'.join(reversed(printed.splitlines()))):
        assert quoted_output_mismatch(quoted, wrong) is not None, wrong
    assert _figure_matches('0.47', '0.474') and not _figure_matches('0.47', '0.485')
    assert _figure_matches('0', '1') and not _figure_matches('0', '2')
    assert _figure_matches('7436', '7500') and not _figure_matches('7436', '7600')
    assert _figure_matches('7.43e-05', '7.44e-05') and not _figure_matches('7.43e-05', '7.6e-05')


def test_sphinx_builds_without_warnings(tmp_path):
    """sphinx-build -W: a broken link, a page outside every toctree, bad markup all fail."""
    require('sphinx')
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


def test_sh_blocks_hold_no_command_that_runs_here():
    """A uwv-hydro command of an sh block names a file of the reader's (else: bash)."""
    runnable = []
    for page in _pages():
        for block in _blocks(page, 'sh'):
            for command in re.split(r'(?<!\\)\n', block):
                words = command.replace('\\\n', ' ').split()
                if not words or words[0] != 'uwv-hydro':
                    continue
                paths = [w for w in words[2:] if not w.startswith('-')
                         and re.search(r'\.(yaml|xacro|urdf|sdf|csv|mcap)$|/$', w)]
                if paths and all((REPO / w).exists() for w in paths):
                    runnable.append('%s: %s' % (page.relative_to(REPO), command.strip()))
    assert not runnable, runnable


@pytest.mark.parametrize('block, output', _bash_blocks())
def test_bash_block_runs(block, output, tmp_path):
    """Each bash block runs to exit 0 from the repository root and prints its quote."""
    env = dict(os.environ, HOME=str(tmp_path), MPLBACKEND='Agg')
    proc = subprocess.run(['bash', '-euo', 'pipefail', '-c', block], cwd=REPO, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=600)
    assert proc.returncode == 0, 'exit %d\n%s' % (proc.returncode, proc.stdout[-6000:])
    if output is not None:
        missing = quoted_output_mismatch(output, proc.stdout)
        assert missing is None, 'the page quotes\n  %s\nwhich the run did not print:\n%s' % (
            missing, proc.stdout[-6000:])
