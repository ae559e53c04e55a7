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
"""
import contextlib
import io
from typing import Dict, Iterable, Optional

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.xml_safe import parse_xml_file


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


def expand_xacro(path: str, mappings: Optional[Dict[str, str]] = None) -> str:
    """Return the XML text produced by xacro for ``path`` with ``mappings``."""
    parse_xml_file(path)  # reject hostile or malformed input before xacro sees it
    import xacro  # imported lazily: pulls in ament_index machinery
    stderr = io.StringIO()
    try:
        with contextlib.redirect_stderr(stderr):
            doc = xacro.process_file(path, mappings=dict(mappings or {}))
        return doc.toprettyxml(indent='  ')
    except DescriptionError:
        raise
    except Exception as exc:  # noqa: B902 -- xacro raises many unrelated types
        detail = ' '.join(stderr.getvalue().split())
        reason = 'xacro failed: %s%s' % (exc, ' (%s)' % detail if detail else '')
        raise DescriptionError(reason, path) from None
