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
``--help`` text from the subcommands' docstrings: plain text, lists kept, defaults shown.

The docstrings are reStructuredText for the API reference; a terminal shows them without
the markup (``simulate`` as simulate, :mod:`x` as x), with each paragraph and each
``*`` item wrapped on its own.  An option whose help does not state its default gets
``(default: VALUE)``.
"""
import argparse
import re
import textwrap

#: ``literal``, :role:`target` and `interpreted` text: the text without the markup.
_MARKUP = re.compile(r'``(.+?)``|:[\w:]+:`~?(.+?)`|`([^`]+)`')
_ITEM = re.compile(r'^\s*[*-]\s+')


def plain_text(text: str) -> str:
    """Return reStructuredText ``text`` without its inline markup."""
    return _MARKUP.sub(lambda m: next(g for g in m.groups() if g is not None), text)


def _default_text(default) -> str:
    if isinstance(default, (list, tuple)):
        return ' '.join(str(v) for v in default)
    if isinstance(default, float):
        return '%g' % default
    return str(default)


class DocHelpFormatter(argparse.HelpFormatter):
    """Plain-text paragraphs and list items; each option's default when it has one."""

    def _fill_text(self, text, width, indent):
        paragraphs = []
        for paragraph in re.split(r'\n\s*\n', plain_text(textwrap.dedent(text)).strip()):
            lines = []
            for item in re.split(r'\n(?=\s*[*-]\s)', paragraph):
                bullet = _ITEM.match(item)
                body = ' '.join(item[bullet.end():].split() if bullet else item.split())
                lines.append(textwrap.fill(
                    body, width, initial_indent=indent + ('* ' if bullet else ''),
                    subsequent_indent=indent + ('  ' if bullet else '')))
            paragraphs.append('\n'.join(lines))
        return '\n\n'.join(paragraphs)

    def _get_help_string(self, action):
        text = plain_text(action.help or '')
        default = action.default
        if (not action.option_strings or 'default' in text.lower()
                or default is None or default is False or default is argparse.SUPPRESS
                or default == '' or default == []):
            return text
        return '%s (default: %s)' % (text, _default_text(default).replace('%', '%%'))
