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

"""Numbers and flags in XML text, as every simulator's plugin block writes them."""
from typing import Optional
import xml.etree.ElementTree as ET

import numpy as np

from uwv_hydro.description.xml_safe import element_error


def _finite_number(text: str, what: str, source: str, elem: ET.Element) -> float:
    """Return ``text`` as a finite float or raise DescriptionError (``what`` prefixes it)."""
    try:
        value = float(text)
    except ValueError:
        raise element_error('%sexpected a number, got %r' % (what, text), source,
                            elem) from None
    if not np.isfinite(value):
        raise element_error('%snon-finite number %r' % (what, text), source, elem)
    return value


def float_text(elem: ET.Element, source: str) -> float:
    """Return the text of ``elem`` as a float or raise DescriptionError naming it."""
    return _finite_number((elem.text or '').strip(), '', source, elem)


def float_attr(elem: ET.Element, name: str, source: str,
               default: Optional[float] = 0.0) -> float:
    """Return attribute ``name`` of ``elem`` as a float (``default`` if absent; None: required)."""
    text = elem.get(name)
    if text is None:
        if default is None:
            raise element_error('missing attribute %s' % name, source, elem)
        return default
    return _finite_number(text, 'attribute %s: ' % name, source, elem)


def flag_text(elem: ET.Element, source: str) -> bool:
    """Return the boolean text of ``elem`` (true/false/1/0) or raise DescriptionError."""
    text = (elem.text or '').strip().lower()
    if text not in ('true', 'false', '1', '0'):
        raise element_error('expected true or false, got %r' % elem.text, source, elem)
    return text in ('true', '1')
