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
The block forms uuv_simulator's plugins share: single elements and typed model blocks.

uuv's thruster and fin plugins describe their models as ``<dynamics>``, ``<conversion>``
or ``<liftdrag>`` blocks holding a ``<type>`` and that type's parameters (Dynamics.cc,
ThrusterConversionFcn.cc, LiftDragModel.cc each assert the type is known and its
parameters given); both readers parse them here.
"""
from typing import Any, Dict, List, Optional, Sequence, Tuple
import xml.etree.ElementTree as ET

from uwv_hydro.description.plugin_number import plugin_float
from uwv_hydro.description.xml_safe import element_error, element_numbers


def one(block: ET.Element, tag: str, source: str) -> Optional[ET.Element]:
    """Return the ``<tag>`` child of ``block`` (None when absent); twice is an error."""
    found = block.findall(tag)
    if len(found) > 1:
        raise element_error('<%s> given twice' % tag, source, found[1])
    return found[0] if found else None


def typed_block(block: ET.Element, tag: str, types: Dict[str, Tuple[str, ...]],
                source: str, what: str, lists: Sequence[str] = (),
                warnings: Optional[List[str]] = None
                ) -> Tuple[str, Dict[str, Any], ET.Element]:
    """
    Return (type, {parameter: value}, element) of the typed ``<tag>`` block of ``block``.

    ``types`` maps each type to its parameters; ``what`` names the plugin in messages
    ('thruster', 'fin'); parameters named in ``lists`` hold a list of numbers (tuples),
    the others one number (an empty one is 0 with a note in ``warnings``, as sdformat
    reads it: :mod:`plugin_number`).  uuv asserts the block, a known type and every
    parameter.
    """
    elem = one(block, tag, source)
    if elem is None:
        raise element_error('a uuv_simulator %s needs <%s> (uuv asserts it)' % (what, tag),
                            source, block)
    type_elem = one(elem, 'type', source)
    kind = (type_elem.text or '').strip() if type_elem is not None else ''
    if kind not in types:
        raise element_error('<%s><type> %r: expected one of %s' % (tag, kind, ', '.join(types)),
                            source, type_elem if type_elem is not None else elem)
    values: Dict[str, Any] = {}
    for child in elem:
        if child.tag == 'type':
            continue
        if child.tag not in types[kind]:
            raise element_error('unknown parameter <%s> of %s %s; expected %s'
                                % (child.tag, tag, kind, ', '.join(types[kind]) or 'none'),
                                source, child)
        if child.tag in lists:
            values[child.tag] = tuple(float(v) for v in element_numbers(
                child, (len((child.text or '').split()),), source))
        else:
            values[child.tag] = plugin_float(child, source, warnings)
    missing = [name for name in types[kind] if name not in values]
    if missing:
        raise element_error('%s %s needs %s' % (tag, kind, ', '.join(missing)), source, elem)
    return kind, values, elem
