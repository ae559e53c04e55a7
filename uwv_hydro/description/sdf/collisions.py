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

"""The seabed contact points of an SDF model's collision shapes (:mod:`..contact`)."""
from typing import Dict

from uwv_hydro.description.contact import ShapePoints
from uwv_hydro.description.xml_safe import element_error, element_numbers
from uwv_hydro.description.xml_values import float_text


def _value(shape, name: str, source: str, count: int = 0):
    child = shape.find(name)
    if child is None:
        raise element_error('<%s> without <%s>: no contact points from it' % (shape.tag, name),
                            source, shape)
    return element_numbers(child, (count,), source) if count else float_text(child, source)


def sdf_contact_points(flat, link_poses: Dict[str, tuple], source: str) -> ShapePoints:
    """
    Return the contact points of the ``<collision>`` shapes of the model's links.

    ``link_poses``: link -> (position, rotation) in the base frame at the joints' zero
    position (the links lumped into the vehicle body).
    """
    shapes = ShapePoints()
    for name, link in flat.links.items():
        if name not in link_poses:
            continue
        p, rot = link_poses[name]
        for k, collision in enumerate(link.findall('collision')):
            label = '%s collision %s' % (name, collision.get('name') or str(k))
            xyz, r = flat.pose_in_link(collision.find('pose'), name)
            # the shape's pose in the base: p + R xyz, R r
            position, rotation = p + rot @ xyz, rot @ r
            geometry = collision.find('geometry')
            shape = next(iter(geometry), None) if geometry is not None else None
            if shape is None:
                shapes.others.append('%s: no geometry' % label)
            elif shape.tag == 'box':
                shapes.box(_value(shape, 'size', source, 3), position, rotation,
                           label + ' (box)')
            elif shape.tag == 'cylinder':
                shapes.cylinder(_value(shape, 'radius', source), _value(shape, 'length', source),
                                position, rotation, label + ' (cylinder)')
            elif shape.tag == 'sphere':
                shapes.sphere(_value(shape, 'radius', source), position, label + ' (sphere)')
            elif shape.tag == 'mesh':
                uri = shape.find('uri')
                shapes.meshes.append('%s %s' % (label, (uri.text or '').strip()
                                                if uri is not None else ''))
            elif shape.tag != 'plane':
                shapes.others.append('%s <%s>' % (label, shape.tag))
    return shapes
