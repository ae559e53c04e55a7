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
What ``check`` says about a vehicle's kinematic tree (joints, bodies, per-link hydro).

``check --json`` has a ``tree`` key only for a vehicle that has one
(:class:`~uwv_hydro.physics.articulated.model.link_tree.KinematicTree`): its joints (type, parent
and
child body, the parent link in the description, axis, origin in the parent body,
limits; null for none), bodies (mass, CoM, links) and each
link's hydro (volume and displaced mass, CoB in the link frame, which of added mass,
linear and quadratic drag it has, near-surface scaling).
"""
from typing import Any, Dict, List

import numpy as np


def _vector(values) -> list:
    return np.asarray(values, float).reshape(-1).tolist()


def tree_summary(tree, fluid_density: float) -> Dict[str, Any]:
    """Return the ``tree`` entry of the check summary (plain Python data)."""
    joints = [{'name': j.name, 'type': j.kind, 'parent': j.parent,
               'parent_link': tree.parent_link(j), 'child': j.child,
               'axis': _vector(j.axis), 'origin': _vector(j.origin_position),
               'limits': {'lower': float(j.lower), 'upper': float(j.upper),
                          'velocity': float(j.velocity), 'effort': float(j.effort)},
               'where': j.where} for j in tree.joints]
    bodies, parts = [], []
    for body in tree.bodies.values():
        bodies.append({'name': body.name, 'mass': float(body.mass), 'com': _vector(body.com),
                       'links': list(body.links)})
        for part in body.parts:
            parts.append({
                'link': part.link, 'body': body.name, 'position': _vector(part.position),
                'buoyancy_mass': float(part.buoyancy_mass),
                'volume': float(part.buoyancy_mass) / fluid_density,
                'cob': _vector(part.cob),
                'added_mass': bool(np.any(part.added_mass)),
                'linear_drag': bool(np.any(part.linear_drag)),
                'quadratic_drag': bool(np.any(part.quadratic_drag)),
                'surface': part.surface is not None,
                'where': part.where})
    return {'base': tree.base, 'joints': joints, 'bodies': bodies, 'links_with_hydro': parts}


def _fmt(values) -> str:
    return '[' + ', '.join('%.6g' % v for v in values) + ']'


def _limits(joint: Dict[str, Any]) -> str:
    unit, force = ('m', 'N') if joint['type'] == 'prismatic' else ('rad', 'N m')
    lim = joint['limits']
    # JSON-safe summaries hold None where a limit is infinite
    finite = {k: v for k, v in lim.items() if v is not None and np.isfinite(v)}
    text = ('%g to %g %s' % (lim['lower'], lim['upper'], unit)
            if 'lower' in finite and 'upper' in finite else 'no position limit')
    text += ', %s' % ('%g %s/s' % (finite['velocity'], unit) if 'velocity' in finite
                      else 'no speed limit')
    text += ', %s' % ('%g %s' % (finite['effort'], force) if 'effort' in finite
                      else 'no effort limit')
    return text


def tree_lines(tree: Dict[str, Any]) -> List[str]:
    """Return the text lines of a ``tree`` summary entry."""
    lines = ['kinematic tree: %d bodies, %d joints, %d links with hydro (base %s)'
             % (len(tree['bodies']), len(tree['joints']), len(tree['links_with_hydro']),
                tree['base'])]
    for j in tree['joints']:
        parent = j['parent'] if j['parent_link'] == j['parent'] else '%s (link %s)' % (
            j['parent'], j['parent_link'])
        lines.append('  - joint %s: %s, %s -> %s, axis %s, at %s m; %s'
                     % (j['name'], j['type'], parent, j['child'], _fmt(j['axis']),
                        _fmt(j['origin']), _limits(j)))
    for b in tree['bodies']:
        lines.append('  - body %s: %.6g kg, CoM %s m, links %s'
                     % (b['name'], b['mass'], _fmt(b['com']), ', '.join(b['links'])))
    for p in tree['links_with_hydro']:
        terms = [name.replace('_', ' ') for name in ('added_mass', 'linear_drag',
                                                     'quadratic_drag') if p[name]]
        lines.append('  - link %s (body %s, at %s m): %.6g m^3 (%.6g kg displaced), CoB %s '
                     'm%s; %s' % (p['link'], p['body'], _fmt(p['position']), p['volume'],
                                  p['buoyancy_mass'], _fmt(p['cob']),
                                  ', surface scaling' if p['surface'] else '',
                                  ', '.join(terms) or 'no drag or added mass'))
    return lines
