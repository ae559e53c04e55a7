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

"""The seabed contact points of a URDF's collision shapes (:mod:`~.contact`)."""
from typing import Dict
import xml.etree.ElementTree as ET

from uwv_hydro.description.contact import ShapePoints
from uwv_hydro.description.urdf_joint import origin_of, parse_vector
from uwv_hydro.description.xml_values import float_attr


def urdf_contact_points(links: Dict[str, ET.Element], poses, source: str) -> ShapePoints:
    """
    Return the contact points of the ``<collision>`` shapes of the links in ``poses``.

    ``poses``: link -> (position, rotation) in the base frame (the links lumped into
    the vehicle body, moving joints at their zero position).
    """
    shapes = ShapePoints()
    for name, (p, rot) in poses.items():
        if name not in links:
            continue
        for k, collision in enumerate(links[name].findall('collision')):
            label = '%s collision %s' % (name, collision.get('name') or str(k))
            xyz, r = origin_of(collision, source)
            # the shape's pose in the base: p + R xyz, R r
            position, rotation = p + rot @ xyz, rot @ r
            geometry = collision.find('geometry')
            shape = next(iter(geometry), None) if geometry is not None else None
            if shape is None:
                shapes.others.append('%s: no geometry' % label)
            elif shape.tag == 'box':
                shapes.box(parse_vector(shape, 'size', source), position, rotation,
                           label + ' (box)')
            elif shape.tag == 'cylinder':
                shapes.cylinder(float_attr(shape, 'radius', source, None),
                                float_attr(shape, 'length', source, None), position, rotation,
                                label + ' (cylinder)')
            elif shape.tag == 'sphere':
                shapes.sphere(float_attr(shape, 'radius', source, None), position,
                              label + ' (sphere)')
            elif shape.tag == 'mesh':
                shapes.meshes.append('%s %s' % (label, shape.get('filename', '')))
            else:
                shapes.others.append('%s <%s>' % (label, shape.tag))
    return shapes
