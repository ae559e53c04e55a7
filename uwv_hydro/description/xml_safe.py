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

The parser is defusedxml's expat-based ``DefusedXMLParser`` with DTDs, entity
declarations and external entities forbidden (so "billion laughs" and external
entity attacks fail before any expansion), fed through a tree builder that stores
``line`` (1-based) and ``parent`` on every element.  Inputs larger than
:data:`MAX_XML_BYTES` are rejected before parsing.
"""
import os
import re
from typing import List, Optional, Sequence
import xml.etree.ElementTree as ET

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser

import numpy as np

from uwv_hydro.description.errors import DescriptionError

#: Largest XML document accepted (bytes).
MAX_XML_BYTES = 20 * 1024 * 1024


class LineElement(ET.Element):
    """An ElementTree element that knows its source line and parent element."""

    line: Optional[int] = None
    parent: Optional['LineElement'] = None


class _LineTreeBuilder:
    """Tree builder that records the expat line number and parent of each element."""

    def __init__(self):
        self._builder = ET.TreeBuilder(element_factory=LineElement)
        self._stack: List[LineElement] = []
        self.expat = None

    def start(self, tag, attrs):
        elem = self._builder.start(tag, attrs)
        elem.line = self.expat.CurrentLineNumber if self.expat is not None else None
        elem.parent = self._stack[-1] if self._stack else None
        self._stack.append(elem)
        return elem

    def end(self, tag):
        self._stack.pop()
        return self._builder.end(tag)

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
    """Build a DescriptionError naming ``elem``'s path and line."""
    return DescriptionError(reason, source, element_path(elem), element_line(elem))


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


#: A namespace prefix used on an element or attribute name, and one declared.
_PREFIX_USE = re.compile(r'</?([A-Za-z_][\w.-]*):[A-Za-z_]'
                         r'|\s([A-Za-z_][\w.-]*):[A-Za-z_][\w.-]*\s*=')
_PREFIX_DECLARED = re.compile(r'xmlns:([A-Za-z_][\w.-]*)\s*=')
#: Markup before the root element's name: comments, processing instructions, <!...>.
_BEFORE_ROOT = re.compile(r'<!--.*?-->|<\?.*?\?>|<![^>]*>|<([A-Za-z_][\w.:-]*)', re.S)
#: The namespace an undeclared prefix is given (gz:, ignition:, experimental: ...).
UNDECLARED_NAMESPACE = 'urn:uwv-hydro:undeclared:'


def declare_prefixes(text: str) -> str:
    """
    Return ``text`` with every namespace prefix it uses but never declares declared.

    SDFormat (tinyxml2) accepts ``gz:type="dvl"``, ``<gz:dvl>`` or ``<experimental:params>``
    without an ``xmlns:gz`` declaration, which expat refuses ("unbound prefix"); the
    prefix is declared on the root element as ``urn:uwv-hydro:undeclared:<prefix>``,
    on the root's own line, so that line numbers stay those of the file.
    """
    used = {a or b for a, b in _PREFIX_USE.findall(text)} - {'xml', 'xmlns'}
    missing = sorted(used - set(_PREFIX_DECLARED.findall(text)))
    pos = 0
    while missing:
        m = _BEFORE_ROOT.search(text, pos)
        if m is None:
            break
        if m.group(1) is None:
            pos = m.end()
            continue
        declarations = ''.join(' xmlns:%s="%s%s"' % (p, UNDECLARED_NAMESPACE, p)
                               for p in missing)
        return text[:m.end(1)] + declarations + text[m.end(1):]
    return text


def parse_xml_string(text, source: str = '<string>') -> LineElement:
    """
    Parse ``text`` (str or bytes) and return the root element; raise DescriptionError.

    A document using namespace prefixes it does not declare (as SDF files do) is
    parsed with them declared (:func:`declare_prefixes`).
    """
    size = len(text.encode('utf-8') if isinstance(text, str) else text)
    if size > MAX_XML_BYTES:
        raise DescriptionError('XML document is %d bytes, larger than the %d-byte limit'
                               % (size, MAX_XML_BYTES), source)
    try:
        return _parse(text, source)
    except DescriptionError as exc:
        if 'unbound prefix' not in exc.reason:
            raise
        if not isinstance(text, str):
            try:
                text = text.decode('utf-8')
            except UnicodeDecodeError:
                raise exc from None
        fixed = declare_prefixes(text)
        if fixed == text:
            raise
        return _parse(fixed, source)


def _parse(text, source: str) -> LineElement:
    builder = _LineTreeBuilder()
    parser = DefusedXMLParser(target=builder, forbid_dtd=True, forbid_entities=True,
                              forbid_external=True)
    builder.expat = parser.parser
    try:
        parser.feed(text)
        root = parser.close()
    except DefusedXmlException as exc:
        raise DescriptionError('unsafe XML rejected (%s): DTDs and entities are forbidden'
                               % type(exc).__name__, source,
                               line=builder.expat.CurrentLineNumber) from None
    except ET.ParseError as exc:
        line = exc.position[0] if getattr(exc, 'position', None) else None
        raise DescriptionError('malformed XML: %s' % exc, source, line=line) from None
    return root


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
