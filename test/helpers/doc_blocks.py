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
The docs' fenced blocks and the comparison of a quoted output with a run's.

A quoted line is read token by token: ``...`` (any text: a path of the reader's machine,
a run time), words and punctuation (equal, runs of whitespace being one space), and
numbers of two kinds:

* an integer (no point, no exponent: an exit code, a count, a zero count, a line number,
  a number of messages) is compared exactly, as text;
* a float (a point or an exponent) is a measured or computed figure and must be within
  FLOAT_TOLERANCE (1 %) of the quoted value or one unit of its last quoted digit,
  whichever is larger: BLAS rounding differs by CPU, so a figure may move in its last
  digits, while a change that moves one by more than 1 % must be seen and the page
  updated.  A float printed with ``%g`` that reads as an integer (``7436``) is quoted
  with a ``~`` before it (``~7436``), which makes it a float of this kind.

Blocks: ``bash`` blocks run (``bash slow``: a minute or more, marked slow), ``bash
continues`` runs after the bash block before it on the same page, in the same shell (it
reads that block's files), ``bash node`` runs a node until stopped (the test stops it),
``sh`` blocks are shown and not run; ``sh ros2`` holds commands that need a sourced
ROS 2 and is followed by its ``venv`` equivalent (``bash venv``, ``bash node venv`` run
here; ``sh venv`` is shown only).  ``text output`` quotes what the block before it printed.
"""
import pathlib
import re

REPO = pathlib.Path(__file__).resolve().parents[2]
FENCE = re.compile(r'^```(\w*)([^\n]*)\n(.*?)^```', re.S | re.M)

#: The relative tolerance of a quoted float (module docstring).
FLOAT_TOLERANCE = 0.01
_INT = r'[-+]?\d+'
_FLOAT = r'[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?'
#: a quoted number (not part of a name such as remus100 or p99); ``~`` marks a float
_TOKEN = re.compile(r'\.\.\.|(?<![\w.~])~?%s' % _FLOAT)


def pages():
    """Return the README and every page of doc/, in a fixed order."""
    return [REPO / 'README.md'] + sorted((REPO / 'doc').rglob('*.md'))


def fences(page: pathlib.Path):
    """Return [(language, info words, body, line number)] of a page's fenced blocks."""
    text = page.read_text()
    return [(m.group(1), m.group(2).split(), m.group(3), text.count('\n', 0, m.start()) + 1)
            for m in FENCE.finditer(text)]


def blocks(page: pathlib.Path, language: str):
    """Return the bodies of a page's fenced blocks of one language."""
    return [body for lang, _, body, _ in fences(page) if lang == language]


def chains(page: pathlib.Path):
    """
    Return a page's runnable chains: [{'blocks': [(body, quote or None)], ...}].

    A chain is a bash block with the ``bash continues`` blocks after it; its keys are
    also 'line' (of its first block), 'slow' and 'node' (its last block runs a node).
    """
    result = []
    for lang, info, body, line in fences(page):
        if lang == 'bash':
            if 'continues' in info:
                assert result, '%s:%d: bash continues after no bash block' % (page, line)
                chain = result[-1]
                assert not chain['node'], '%s:%d: a node block runs until stopped' % (
                    page, line)
            else:
                chain = {'blocks': [], 'line': line, 'slow': False, 'node': False}
                result.append(chain)
            chain['blocks'].append([body, None])
            chain['slow'] |= 'slow' in info
            chain['node'] |= 'node' in info
        elif lang == 'text' and info == ['output']:
            assert result and result[-1]['blocks'][-1][1] is None, (
                '%s:%d: a text output block follows no bash block of its own' % (page, line))
            result[-1]['blocks'][-1][1] = body
    return result


def _is_float(quoted: str) -> bool:
    return quoted.startswith('~') or bool(re.search(r'[.eE]', quoted))


def figure_matches(quoted: str, printed: str) -> bool:
    """Whether a printed number is the quoted one (module docstring: the kinds)."""
    if not _is_float(quoted):
        return printed == quoted
    quoted = quoted.lstrip('~')
    mantissa, _, exponent = quoted.lower().partition('e')
    digits = len(mantissa.partition('.')[2])
    last_digit = 10.0 ** (int(exponent or 0) - digits)
    q, p = float(quoted), float(printed)
    return abs(p - q) <= max(FLOAT_TOLERANCE * abs(q), last_digit) * (1 + 1e-9)


def line_matches(quoted: str, printed: str) -> bool:
    """Whether a printed line is the quoted one, token by token (module docstring)."""
    quoted, printed = ' '.join(quoted.split()), ' '.join(printed.split())
    pattern, figures, at = '', [], 0
    for m in _TOKEN.finditer(quoted):
        pattern += re.escape(quoted[at:m.start()])
        if m.group() == '...':
            pattern += '.*?'
        else:
            # an integer matches only an integer token, a float any number
            pattern += '(%s)(?!\\d)' % (_FLOAT if _is_float(m.group()) else _INT)
            figures.append(m.group())
        at = m.end()
    pattern += re.escape(quoted[at:])
    found = re.fullmatch(pattern, printed)
    return found is not None and all(
        figure_matches(q, p) for q, p in zip(figures, found.groups()))


def quoted_output_mismatch(quoted: str, printed: str):
    """Return the first quoted line the printed text lacks (in order), or None."""
    lines = printed.splitlines()
    at = 0
    for line in quoted.splitlines():
        if not line.strip() or line.strip() == '...':
            continue
        for k in range(at, len(lines)):
            if line_matches(line, lines[k]):
                at = k + 1
                break
        else:
            return line
    return None
