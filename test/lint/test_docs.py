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
and runs here.  Each runs in its own temporary directory (``TMPDIR`` and ``HOME``; the
blocks write under ``$(mktemp -d)``, never a fixed /tmp path), so no block depends on
another's files or order, except a ``bash continues`` block, which says so: it runs in
the same shell after the block before it.  Commands that need a ROS 2 installation, gz-sim
or a placeholder path of the reader's stand in ``sh`` blocks, which are shown and not run;
a test keeps ``bash`` blocks free of those, and ``sh`` blocks free of ``uwv-hydro``
commands that could run here.  Every ``ros2`` command is in an ``sh ros2`` block (it needs a
sourced ROS 2) followed by its equivalent in this checkout's venv (``bash venv`` and ``bash
node venv`` run here, ``sh venv`` is shown).  A ``bash node`` block runs a node, which the
test stops (SIGINT) once it has printed its quote (its start lines) and kept running
NODE_RUNNING_SECONDS more.  A
block that takes a minute or more is ``bash slow`` (marked slow: ``-m 'not slow'`` leaves
it out; ``make test`` runs it).  Identical chains of blocks (the README's sweep and the
sweeps guide's) run once.

A fenced block whose info string is ``text output`` quotes what the block before it
printed (stdout and stderr as they interleave), and the run is compared with it line by
line: every quoted line must match a printed line, in order (printed lines that are not
quoted are passed over; a quoted line ``...`` only marks the cut).  Within a line the
comparison is token by token (doc_blocks.py): words exactly, integers (exit codes, counts,
line numbers) exactly, floats within 1 % or one unit of their last digit.  Figures of
tables and prose are checked in test_doc_figures.py.
"""
import os
import re
import signal
import subprocess
import sys
import threading
import time

from doc_blocks import (blocks, chains, fences, figure_matches, line_matches, pages,
                        quoted_output_mismatch, REPO)
import pytest
from required_modules import require

#: Commands a reader runs outside this checkout (an installed ROS 2, gz-sim, the suite
#: itself): they belong in ``sh`` blocks.
NOT_HERE = re.compile(r'^\s*(make|ros2|source|colcon|rosdep|sudo|gz)\b|/path/to/', re.M)
#: A ros2 command in a block (a line, or a command substitution).
ROS2_COMMAND = re.compile(r'(?:^\s*|\$\()ros2\s', re.M)
#: Seconds a ``bash node`` block may take to print its start lines (its quote), and
#: seconds it must keep running after them.
NODE_SECONDS = 60.0
NODE_RUNNING_SECONDS = 2.0


def _chains():
    cases = []
    for page in pages():
        for chain in chains(page):
            cases.append(pytest.param(
                chain, id='%s:%d' % (page.relative_to(REPO), chain['line']),
                marks=[pytest.mark.slow] if chain['slow'] else []))
    return cases


def test_quoted_output_comparison():
    """The comparison passes a run within the tolerance and fails one outside it."""
    quoted = ('wrote ... (MCAP file)\n...\nRMS position error 10.600251 m, speed 1.54 m/s\n'
              'replayed 18001 odometry messages in ... s: ...x real time\n')
    printed = ('note: x\nwrote /tmp/a.mcap (MCAP file)\nother line\n'
               'RMS position error 10.595705 m, speed   1.55 m/s\n'
               'replayed 18001 odometry messages in 0.88 s: 205x real time\n')
    assert quoted_output_mismatch(quoted, printed) is None
    # a figure off by more than 1 % (and one unit of its last digit), a count off by one,
    # other words, the lines in another order
    for wrong in (printed.replace('10.595705', '10.8'), printed.replace('1.55', '1.57'),
                  printed.replace('18001', '18002'), printed.replace('MCAP', 'CSV'),
                  '\n'.join(reversed(printed.splitlines()))):
        assert quoted_output_mismatch(quoted, wrong) is not None, wrong
    # integers are exact: exit codes, counts, zero counts, line numbers
    for quoted, wrong in (('exit 2', 'exit 1'), ('0 gaps, 0 repeats, 0 resets',
                                                 '1 gaps, 1 repeats, 1 resets'),
                          ('0 gaps, 0 repeats, 0 resets', '0 gaps, 0 repeats, 1 resets'),
                          ('error: ...:162: unknown', 'error: /tmp/a.xacro:163: unknown'),
                          ('exit 2', 'exit 2.0'), ('exit 2', 'exit 25'), ('n 100', 'n 101')):
        assert not line_matches(quoted, wrong), (quoted, wrong)
        assert line_matches(quoted, quoted.replace('...', '/tmp/a.xacro')), quoted
    assert not figure_matches('0', '1') and not figure_matches('162', '163')
    # floats: within 1 % or one unit of the last digit
    assert figure_matches('0.47', '0.474') and not figure_matches('0.47', '0.485')
    assert figure_matches('1.54', '1.55') and figure_matches('10.600251', '10.6')
    assert figure_matches('7.43e-05', '7.44e-05') and not figure_matches('7.43e-05', '7.6e-05')
    # a float printed as an integer (%g) is quoted with ~
    assert figure_matches('~7436', '7500') and not figure_matches('~7436', '7600')
    assert not figure_matches('7436', '7437')
    assert line_matches('peak ~7436 N', 'peak 7440 N')


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
             for page in pages() for block in blocks(page, 'bash')
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
    for page in pages():
        for block in blocks(page, 'sh'):
            for command in re.split(r'(?<!\\)\n', block):
                words = command.replace('\\\n', ' ').split()
                if not words or words[0] != 'uwv-hydro':
                    continue
                paths = [w for w in words[2:] if not w.startswith('-')
                         and re.search(r'\.(yaml|xacro|urdf|sdf|csv|mcap)$|/$', w)]
                if paths and all((REPO / w).exists() for w in paths):
                    runnable.append('%s: %s' % (page.relative_to(REPO), command.strip()))
    assert not runnable, runnable


def test_bash_blocks_write_no_fixed_tmp_path():
    """A block writes under $(mktemp -d): no two blocks share a file by a fixed name."""
    fixed = ['%s:%d: %s' % (page.relative_to(REPO), line, m.group(0))
             for page in pages() for lang, _, body, line in fences(page) if lang == 'bash'
             for m in re.finditer(r'/tmp/\S*', body)]
    assert not fixed, fixed


def test_ros2_commands_are_marked_with_their_venv_equivalent():
    """Every ros2 command is in an sh ros2 block, and venv blocks follow each one."""
    wrong = []
    for page in pages():
        # the quoted outputs are passed over: a venv block may follow another's output
        found = [f for f in fences(page) if not (f[0] == 'text' and f[1] == ['output'])]
        for k, (lang, info, body, line) in enumerate(found):
            where = '%s:%d' % (page.relative_to(REPO), line)
            has_ros2 = ROS2_COMMAND.search(body) is not None
            marked = lang == 'sh' and 'ros2' in info
            if has_ros2 and not marked:
                wrong.append('%s: a ros2 command outside an sh ros2 block' % where)
            if marked and not has_ros2:
                wrong.append('%s: an sh ros2 block without a ros2 command' % where)
            if marked and (k + 1 == len(found) or 'venv' not in found[k + 1][1]):
                wrong.append('%s: no venv block follows the sh ros2 block' % where)
            if 'venv' in info and (k == 0 or not {'ros2', 'venv'} & set(found[k - 1][1])):
                wrong.append('%s: a venv block follows no sh ros2 block' % where)
    assert not wrong, wrong


def test_inline_ros2_commands_say_they_need_ros2():
    """A ros2 command quoted in the text says, in its paragraph, that it needs ROS 2."""
    wrong = []
    for page in pages():
        text = re.sub(r'^```.*?^```', '', page.read_text(), flags=re.S | re.M)
        for paragraph in re.split(r'\n\s*\n', text):
            if re.search(r'`ros2 [^`]*`', paragraph) and 'sourced ROS 2' not in paragraph:
                wrong.append('%s: %s' % (page.relative_to(REPO),
                                         re.search(r'`ros2 [^`]*`', paragraph).group()))
    assert not wrong, wrong


_RUNS = {}


def _run_chain(chain, tmp_path, ros_env):
    """Run a chain of blocks in one bash; return (exit status, [output of each block])."""
    key = tuple(body for body, _ in chain['blocks'])
    if key in _RUNS:
        return _RUNS[key]
    marker = '@@ uwv_hydro docs: end of block @@'
    script = ('\necho "%s"\n' % marker).join(key)
    # a ROS domain of its own: no other test's node is seen
    env = dict(ros_env, HOME=str(tmp_path), TMPDIR=str(tmp_path), MPLBACKEND='Agg')
    if chain['node']:
        out, status = _run_node_block(script, env, chain['blocks'][-1][1])
    else:
        proc = subprocess.run(['bash', '-euo', 'pipefail', '-c', script], cwd=REPO, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              timeout=600)
        out, status = proc.stdout, proc.returncode
    _RUNS[key] = status, out.split(marker + '\n')
    return _RUNS[key]


def _run_node_block(script, env, quote):
    """
    Run a block whose last command is a node; stop it; return (output, status).

    The node runs until its quote is printed (its start lines: it has loaded the vehicle
    and started its loop), then NODE_RUNNING_SECONDS more, and must still be running then
    (at most NODE_SECONDS in all); it is then stopped as a reader stops it, with Ctrl-C.
    """
    assert quote, 'a bash node block needs a text output block (its start lines)'
    proc = subprocess.Popen(['bash', '-euo', 'pipefail', '-c', script], cwd=REPO, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    lines = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True)
    reader.start()
    deadline, started = time.monotonic() + NODE_SECONDS, None
    while time.monotonic() < deadline and proc.poll() is None:
        if started is None and quoted_output_mismatch(quote, ''.join(lines)) is None:
            started = time.monotonic()
        if started is not None and time.monotonic() > started + NODE_RUNNING_SECONDS:
            break
        time.sleep(0.1)
    running = proc.poll() is None
    if running:
        os.killpg(proc.pid, signal.SIGINT)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    reader.join(timeout=10)
    if not running:
        return ''.join(lines), 'the node exited by itself (%s)' % proc.returncode
    return ''.join(lines), 0


@pytest.mark.parametrize('chain', _chains())
def test_bash_block_runs(chain, tmp_path, ros_env):
    """Each bash block runs to exit 0 from the repository root and prints its quote."""
    status, outputs = _run_chain(chain, tmp_path, ros_env)
    assert status == 0, 'exit %s\n%s' % (status, ''.join(outputs)[-6000:])
    assert len(outputs) == len(chain['blocks'])
    for (_, quote), out in zip(chain['blocks'], outputs):
        if quote is not None:
            missing = quoted_output_mismatch(quote, out)
            assert missing is None, 'the page quotes\n  %s\nwhich the run did not print:\n%s' % (
                missing, out[-6000:])


def test_frames_are_stated_where_a_first_user_looks():
    """The README's first screen and the node reference name the frames and the depth sign."""
    first_screen = '\n'.join((REPO / 'README.md').read_text().splitlines()[:30])
    node = (REPO / 'doc' / 'reference' / 'node.md').read_text()
    for where, text in (('README.md (first 30 lines)', first_screen),
                        ('doc/reference/node.md', node)):
        for needed in ('ENU', 'z up', 'FLU', 'NED', '10 m deep'):
            assert needed in text, '%s does not say %r' % (where, needed)
