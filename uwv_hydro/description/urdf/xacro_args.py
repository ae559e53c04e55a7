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
The xacro arguments a load declares, so that a misspelled ``name:=value`` is refused.

xacro itself ignores a mapping no ``<xacro:arg>`` declares: ``--set drag_sacle:=0.8``
would load the unscaled vehicle without a word.  xacro looks every ``<xacro:arg>`` of
the document and its includes up in the mapping table before it applies its default
(xacro's ``eval_all``: ``if name not in substitution_args_context['arg']``);
:class:`ArgumentTable` is that table and records the names looked up.  Inside
:func:`recording`, every xacro run adds its file and its declared names to the
:class:`Declared` it yields; :func:`check_mappings` then refuses a name none declares
(with the names that are declared and the closest), and mappings given to a load
that expanded no xacro at all (a YAML, URDF or SDF vehicle).
"""
import contextlib
import difflib
from typing import Dict, Iterator, List, Set

from uwv_hydro.description.errors import DescriptionError


class ArgumentTable(dict):
    """xacro's ``arg`` table (the mappings), recording every name xacro asks about."""

    def __init__(self, mappings: Dict[str, str]):
        super().__init__(mappings)
        self.declared: Set[str] = set()

    def __contains__(self, name) -> bool:
        """Answer xacro's ``name in args`` of a ``<xacro:arg>``; remember the name."""
        self.declared.add(name)
        return super().__contains__(name)


class Declared:
    """The xacro files a load expanded and the argument names they declare."""

    def __init__(self):
        self.files: List[str] = []
        self.names: Set[str] = set()


_ACTIVE: List[Declared] = []


@contextlib.contextmanager
def recording() -> Iterator[Declared]:
    """Collect the xacro files and declared argument names of the runs in the block."""
    declared = Declared()
    _ACTIVE.append(declared)
    try:
        yield declared
    finally:
        _ACTIVE.remove(declared)


def record(path: str, table: ArgumentTable) -> None:
    """Add one xacro run (its file and the names its ``<xacro:arg>``s declared)."""
    for declared in _ACTIVE:
        declared.files.append(path)
        declared.names |= table.declared


def check_mappings(mappings: Dict[str, str], declared: Declared, vehicle: str,
                   element: str = '--set') -> None:
    """Refuse mappings no xacro of the load declares, or given to a load without xacro."""
    if not mappings:
        return
    if not declared.files:
        raise DescriptionError(
            '%s sets xacro arguments (the <xacro:arg>s of a .xacro vehicle, of a '
            '--robot-description or of a YAML base: file), and %s expands no xacro: %s '
            'would change nothing; change a YAML vehicle by editing its keys (or a copy '
            'with base: naming the original), a URDF or SDF by editing the file'
            % (element, vehicle, ', '.join('%s:=%s' % kv for kv in mappings.items())),
            element=element)
    known = sorted(declared.names)
    for name in sorted(mappings):
        if name in declared.names:
            continue
        close = difflib.get_close_matches(name, known, n=1)
        raise DescriptionError(
            '%r is declared by no <xacro:arg> of %s (and its includes): xacro would ignore '
            'it; its arguments are %s%s'
            % (name, ', '.join(declared.files), ', '.join(known) or '(none)',
               '; did you mean %r?' % close[0] if close else ''), element=element)
