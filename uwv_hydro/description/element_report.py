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
What a loader did with each element of a description: read, warned or refused.

Every reader records the equipment (thrusters, fins, sensors, buoyancy engines), links,
joints and plugins it meets in ``VehicleParams.elements`` through :func:`record`, so
that nothing a description holds is dropped without a word: ``check`` lists the records,
and :func:`warn_not_modelled` names every recognised element that is not simulated
(cameras, sonars, lights...) in one warning line per description.
"""
from typing import List, Optional
import xml.etree.ElementTree as ET

from uwv_hydro.description.xml_safe import element_line, element_path
from uwv_hydro.physics.body.vehicle_params import ELEMENT_STATUSES, ElementRecord, VehicleParams


def where(source: str, elem: Optional[ET.Element] = None) -> str:
    """Return 'file:line: element/path' for an element, as DescriptionError names places."""
    if elem is None:
        return source or '<description>'
    # an element of an <include>d SDF file carries that file (xml_safe.LineElement.source)
    text = getattr(elem, 'source', None) or source or '<description>'
    line = element_line(elem)
    if line is not None:
        text += ':%d' % line
    return text + ': ' + element_path(elem)


def record(params: VehicleParams, kind: str, name: str, place: str, status: str,
           note: str = '') -> ElementRecord:
    """Append (and return) the record of one element; ``place`` as :func:`where` makes it."""
    if status not in ELEMENT_STATUSES:
        raise ValueError('element status %r is not one of %s' % (status, ELEMENT_STATUSES))
    rec = ElementRecord(kind=kind, name=name, where=place, status=status, note=note)
    params.elements.append(rec)
    return rec


def warn_not_modelled(params: VehicleParams) -> None:
    """Add one warning naming every element recorded 'warned' as not modelled (once)."""
    names: List[str] = ['%s %r (%s)' % (r.kind, r.name, r.note) for r in params.elements
                        if r.status == 'warned' and r.note.startswith('not modelled')]
    line = 'recognised but not simulated: ' + '; '.join(names)
    if names and line not in params.warnings:  # once, however often a loader asks
        params.warnings.append(line)
