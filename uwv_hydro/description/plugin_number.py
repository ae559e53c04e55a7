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
A number in a uuv_simulator or gz-sim plugin block, read as sdformat reads it.

A plugin's children are not in the SDF spec: sdformat keeps their text as strings and
converts on ``Element::Get<double>``, which starts from ``double()`` (0) and keeps it
when the text does not convert, printing an error.  So an empty element -- the ECA
A9's fin macro passes ``cda_stall=""`` -- is 0 in Gazebo classic and gz-sim.  uwv_hydro
reads it as 0 too, with a warning naming the file, element and line; any other text
that is not a finite number is still an error.  dsros_hydro blocks and YAML keep their
strict reading (their readers refuse an empty value).
"""
from typing import List, Optional
import xml.etree.ElementTree as ET

from uwv_hydro.description.element_report import where
from uwv_hydro.description.xml_values import float_text


def plugin_float(elem: ET.Element, source: str, warnings: Optional[List[str]]) -> float:
    """
    Return the number in ``elem``'s text; empty is 0 with a warning in ``warnings``.

    ``warnings`` None keeps the strict reading (an empty text is an error).
    """
    if warnings is not None and not (elem.text or '').strip():
        warnings.append('%s: empty number read as 0, as sdformat reads it (Gazebo prints '
                        'an error and uses 0)' % where(source, elem))
        return 0.0
    return float_text(elem, source)
