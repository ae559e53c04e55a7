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
Expand a ``.xacro`` file with the ``xacro`` package (``name:=value`` mappings).

The top-level file is first checked with the safe parser (no DTD, no entities, size
cap) before xacro reads it; files it includes are trusted package files.  Any
xacro failure (unknown macro, bad expression, missing include, ...) becomes a
DescriptionError naming the file.

:func:`expand_xacro_tree` also points each expanded element at the line of the
written ``.xacro`` file: an element written there literally (same path, same number
of occurrences) gets its own line, one produced by a macro or an include the line of
its nearest written ancestor, so errors name a line the user can open.
"""
import collections
import contextlib
import io
from typing import Dict, Iterable, List, Optional, Sequence

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.urdf.package_paths import PackageResolver, xacro_packages
from uwv_hydro.description.urdf.xacro_args import ArgumentTable, record
from uwv_hydro.description.xml_safe import LineElement, parse_xml_file, parse_xml_string

XACRO_NS = '{http://www.ros.org/wiki/xacro}'


def parse_mappings(items: Optional[Iterable[str]]) -> Dict[str, str]:
    """Turn ``['name:=value', ...]`` into a dict; raise DescriptionError on bad items."""
    out = {}
    for item in items or ():
        name, sep, value = item.partition(':=')
        if not sep or not name.strip():
            raise DescriptionError('bad mapping %r: expected name:=value' % item,
                                   '<command line>', '--set')
        out[name.strip()] = value
    return out


def expand_xacro(path: str, mappings: Optional[Dict[str, str]] = None,
                 package_path: Sequence[str] = ()) -> str:
    """
    Return the XML text produced by xacro for ``path`` with ``mappings``.

    ``$(find pkg)`` and ``package://`` includes resolve through the ament index, then
    the ``package_path`` directories and ROS_PACKAGE_PATH (ROS 1 packages, see
    :mod:`uwv_hydro.description.urdf.package_paths`).
    """
    parse_xml_file(path)  # reject hostile or malformed input before xacro sees it
    return _run_xacro(path, mappings, package_path)


def expand_xacro_tree(path: str, mappings: Optional[Dict[str, str]] = None,
                      package_path: Sequence[str] = ()) -> LineElement:
    """Return the root of the expanded XML, its lines those of the written ``path``."""
    written = parse_xml_file(path)  # reject hostile or malformed input before xacro sees it
    root = parse_xml_string(_run_xacro(path, mappings, package_path), path)
    lines = _written_lines(written)
    keyed = [(elem, _plain_path(elem)) for elem in root.iter()]  # document order
    counts = collections.Counter(key for _, key in keyed)
    seen: Dict[str, int] = collections.Counter()
    for elem, key in keyed:
        candidates = lines.get(key, [])
        if candidates and counts[key] == len(candidates):
            elem.line = candidates[seen[key]]
            seen[key] += 1
        else:  # made by a macro or an include: its nearest written ancestor's line
            elem.line = elem.parent.line if elem.parent is not None else None
    return root


def _plain_path(elem: LineElement) -> str:
    """Return ``elem``'s path without xacro elements (xacro:if, ...) on the way."""
    parts = []
    while elem is not None:
        if not str(elem.tag).startswith(XACRO_NS):
            names = ''.join('[@%s=%r]' % (a, elem.get(a)) for a in ('name', 'reference')
                            if elem.get(a))
            parts.append(str(elem.tag) + names)
        elem = elem.parent
    return '/'.join(reversed(parts))


def _written_lines(root: LineElement) -> Dict[str, List[int]]:
    """Map each literal element's plain path to its lines (macro bodies excluded)."""
    lines: Dict[str, List[int]] = collections.defaultdict(list)
    stack = [root]  # depth first, in document order, without recursion (deep files)
    while stack:
        elem = stack.pop()
        if elem.tag == XACRO_NS + 'macro':
            continue  # a template: placed (and counted) where it is called
        if not str(elem.tag).startswith(XACRO_NS):
            lines[_plain_path(elem)].append(elem.line)
        stack.extend(reversed(list(elem)))
    return lines


def _run_xacro(path: str, mappings: Optional[Dict[str, str]],
               package_path: Sequence[str] = ()) -> str:
    import xacro  # imported lazily: pulls in ament_index machinery
    stderr = io.StringIO()
    resolver = PackageResolver(package_path)
    try:
        table = ArgumentTable(mappings or {})  # records the names <xacro:arg> declares
        with contextlib.redirect_stderr(stderr), xacro_packages(resolver):
            doc = xacro.process_file(path, mappings=table)
        record(path, table)
        return doc.toprettyxml(indent='  ')
    except DescriptionError:
        raise
    except Exception as exc:  # noqa: B902 -- xacro raises many unrelated types
        if resolver.failure is not None:  # a package not found: say where it was looked for
            raise DescriptionError('xacro: ' + resolver.failure.reason, path) from None
        detail = ' '.join(stderr.getvalue().split())
        reason = 'xacro failed: %s%s' % (exc, ' (%s)' % detail if detail else '')
        raise DescriptionError(reason, path) from None
