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
Parse untrusted XML safely while keeping each element's line number.

The parser is expat with DTDs, entity declarations and external entities forbidden
(defusedxml's rules and exceptions, so "billion laughs" and external entity attacks
fail before any expansion), fed through a tree builder that stores ``line``
(1-based) and ``parent`` on every element.  Inputs larger than
:data:`MAX_XML_BYTES` are rejected before parsing.

Namespaces: a prefix declared with ``xmlns:p`` (and a default ``xmlns``) resolves as
ElementTree resolves it (``{uri}local``, e.g. xacro's elements).  A prefix without a
declaration (``gz:``, ``ignition:``, ``experimental:`` in SDF and URDF files) is kept
in the name (``gz:type``), as sdformat (tinyxml2, which does not check namespaces)
and Gazebo read it, instead of failing with "unbound prefix".
"""
import os
from typing import Collection, Dict, Iterator, List, Optional, Sequence
import xml.etree.ElementTree as ET
from xml.parsers import expat

from defusedxml import DefusedXmlException
from defusedxml.common import DTDForbidden, EntitiesForbidden, ExternalReferenceForbidden

import numpy as np

from uwv_hydro.description.errors import DescriptionError

#: Largest XML document accepted (bytes).
MAX_XML_BYTES = 20 * 1024 * 1024


class LineElement(ET.Element):
    """An ElementTree element that knows its source line and parent element."""

    line: Optional[int] = None
    parent: Optional['LineElement'] = None
    #: The file the element was read from when it is not the document's (an SDF
    #: <include>d model); errors then name that file.
    source: Optional[str] = None


#: The one prefix bound without a declaration (XML Namespaces 1.0, section 3).
_XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace'


def _resolve(name: str, scope: Dict[str, str], is_attribute: bool) -> str:
    """Return ``{uri}local`` for a declared prefix, ``name`` unchanged otherwise."""
    prefix, sep, local = name.rpartition(':')
    if not sep:
        uri = None if is_attribute else scope.get('')
        return '{%s}%s' % (uri, name) if uri else name
    uri = scope.get(prefix)
    return '{%s}%s' % (uri, local) if uri else name


class _LineTreeBuilder:
    """Tree builder that records the expat line number and parent of each element."""

    def __init__(self):
        self._builder = ET.TreeBuilder(element_factory=LineElement)
        self._stack: List[LineElement] = []
        self._scopes: List[Dict[str, str]] = [{'xml': _XML_NAMESPACE}]
        self.expat = None

    def start(self, tag, attrs):
        scope = dict(self._scopes[-1])
        for key, value in attrs.items():
            if key == 'xmlns' or key.startswith('xmlns:'):
                scope[key[6:]] = value
        self._scopes.append(scope)
        attrs = {_resolve(k, scope, True): v for k, v in attrs.items()
                 if k != 'xmlns' and not k.startswith('xmlns:')}
        elem = self._builder.start(_resolve(tag, scope, False), attrs)
        elem.line = self.expat.CurrentLineNumber if self.expat is not None else None
        elem.parent = self._stack[-1] if self._stack else None
        self._stack.append(elem)
        return elem

    def end(self, tag):
        self._stack.pop()
        return self._builder.end(_resolve(tag, self._scopes.pop(), False))

    def data(self, data):
        self._builder.data(data)

    def close(self):
        return self._builder.close()


def element_path(elem: ET.Element) -> str:
    """Return a readable path such as ``robot/link[@name='base']/inertial/mass``."""
    parts = []
    node = elem
    while node is not None:
        name = node.get('name')
        parts.append('%s[@name=%r]' % (node.tag, name) if name else node.tag)
        node = getattr(node, 'parent', None)
    return '/'.join(reversed(parts))


def element_line(elem: ET.Element) -> Optional[int]:
    """Return the source line of ``elem`` (None if unknown)."""
    return getattr(elem, 'line', None)


def element_error(reason: str, source: str, elem: ET.Element) -> DescriptionError:
    """Build a DescriptionError naming ``elem``'s path and line (and its own file)."""
    return DescriptionError(reason, getattr(elem, 'source', None) or source,
                            element_path(elem), element_line(elem))


def unique_children(elem: ET.Element, source: str, known: Optional[Collection[str]] = None,
                    what: str = '') -> Iterator[ET.Element]:
    """
    Yield ``elem``'s element children in document order (comments skipped).

    A tag given twice is an error; with ``known``, so is a tag not in it ("unknown
    ``what`` element", naming the known ones).  Checked child by child as they are
    yielded, so a reader's own errors on earlier children come first.
    """
    seen = set()
    for child in elem:
        if not isinstance(child.tag, str):
            continue  # a comment
        if known is not None and child.tag not in known:
            raise element_error('unknown %s element <%s>; expected one of %s'
                                % (what, child.tag, ', '.join(sorted(known))), source, child)
        if child.tag in seen:
            raise element_error('<%s> given twice' % child.tag, source, child)
        seen.add(child.tag)
        yield child


def element_numbers(elem: ET.Element, sizes: Sequence[int], source: str,
                    attr: Optional[str] = None) -> np.ndarray:
    """
    Return the finite numbers of ``elem``'s text (or of its attribute ``attr``).

    Their count must be one of ``sizes``; anything else raises a DescriptionError
    naming the element, its line and what was found.
    """
    text = elem.text if attr is None else elem.get(attr)
    try:
        values = [float(v) for v in (text or '').split()]
    except ValueError:
        values = []
    if len(values) not in sizes or not np.all(np.isfinite(values)):
        raise element_error('%sexpected %s finite numbers, got %r' % (
            '' if attr is None else 'attribute %s: ' % attr,
            ' or '.join(map(str, sizes)), (text or '')[:60]), source, elem)
    return np.array(values, dtype=float)


def parse_xml_string(text, source: str = '<string>') -> LineElement:
    """
    Parse ``text`` (str or bytes) and return the root element; raise DescriptionError.

    Namespace prefixes a document uses without declaring them (``gz:type`` in SDF
    files) are kept literally in the names (see the module docstring).
    """
    size = len(text.encode('utf-8') if isinstance(text, str) else text)
    if size > MAX_XML_BYTES:
        raise DescriptionError('XML document is %d bytes, larger than the %d-byte limit'
                               % (size, MAX_XML_BYTES), source)
    builder = _LineTreeBuilder()
    parser = _safe_expat(builder)
    try:
        parser.Parse(text, True)
        root = builder.close()
    except DefusedXmlException as exc:
        raise DescriptionError('unsafe XML rejected (%s): DTDs and entities are forbidden'
                               % type(exc).__name__, source,
                               line=parser.CurrentLineNumber) from None
    except expat.ExpatError as exc:
        raise DescriptionError('malformed XML: %s' % exc, source, line=exc.lineno) from None
    return root


def _forbid_dtd(name, sysid, pubid, has_internal_subset):
    raise DTDForbidden(name, sysid, pubid)


def _forbid_entity(name, is_parameter_entity, value, base, sysid, pubid, notation_name):
    raise EntitiesForbidden(name, value, base, sysid, pubid, notation_name)


def _forbid_unparsed_entity(name, base, sysid, pubid, notation_name):
    raise EntitiesForbidden(name, None, base, sysid, pubid, notation_name)


def _forbid_external(context, base, sysid, pubid):
    raise ExternalReferenceForbidden(context, base, sysid, pubid)


def _safe_expat(builder: _LineTreeBuilder):
    """
    Return an expat parser feeding ``builder``, without namespace processing.

    DTDs, entity declarations and external references raise defusedxml's exceptions
    (the handlers of defusedxml's DefusedXMLParser); comments and processing
    instructions are dropped as ElementTree drops them.
    """
    parser = expat.ParserCreate()
    parser.buffer_text = True
    parser.StartElementHandler = builder.start
    parser.EndElementHandler = builder.end
    parser.CharacterDataHandler = builder.data
    parser.StartDoctypeDeclHandler = _forbid_dtd
    parser.EntityDeclHandler = _forbid_entity
    parser.UnparsedEntityDeclHandler = _forbid_unparsed_entity
    parser.ExternalEntityRefHandler = _forbid_external
    builder.expat = parser
    return parser


def read_text_file(path: str, limit: int = MAX_XML_BYTES) -> str:
    """Read a UTF-8 text file no larger than ``limit``; raise DescriptionError otherwise."""
    try:
        size = os.path.getsize(path)
        if size > limit:
            raise DescriptionError('file is %d bytes, larger than the %d-byte limit'
                                   % (size, limit), path)
        with open(path, 'rb') as stream:
            data = stream.read(limit + 1)
    except OSError as exc:
        raise DescriptionError('cannot read file: %s' % exc.strerror, path) from None
    try:
        return data.decode('utf-8')
    except UnicodeDecodeError as exc:
        raise DescriptionError('file is not UTF-8: %s' % exc, path) from None


def parse_xml_file(path: str) -> LineElement:
    """Parse the XML file at ``path`` safely (size-capped) and return its root."""
    return parse_xml_string(read_text_file(path), path)
