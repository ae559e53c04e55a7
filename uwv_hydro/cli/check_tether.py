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
``check``'s tether: its numbers and the figures that follow from them.

Figures (the vehicle at the world origin, level, as ``simulate`` starts it): the
weight in water per metre w = (m' - rho pi d^2 / 4) g, the drag per metre across a
1 m/s flow 1/2 rho Cd d, the span and rise from the anchor to the attachment, and
where the cable sinks the elastic catenary across that span (Irvine 1981: horizontal
tension, sag below the chord, the angle at the vehicle); a cable that floats or is
neutral has no catenary, and ends farther apart than the length are taut.
"""
import math
from typing import Any, Dict, List

import numpy as np

from uwv_hydro.physics.environment.catenary import solve_catenary
from uwv_hydro.physics.environment.tether_spec import (
    normal_drag_per_length, taut_strain, TetherSpec, weight_in_water)


def tether_summary(spec: TetherSpec, rho: float, gravity: float) -> Dict[str, Any]:
    """Return the tether's numbers and figures (module docstring) as a JSON-safe dict."""
    near = np.asarray(spec.attachment, float)  # the vehicle at the origin, level
    delta = near - np.asarray(spec.anchor, float)
    span, rise = float(math.hypot(delta[0], delta[1])), float(delta[2])
    w = weight_in_water(spec, rho, gravity)
    out = {
        'length': spec.length, 'attachment': np.asarray(spec.attachment, float).tolist(),
        'anchor': np.asarray(spec.anchor, float).tolist(), 'vessel_topic': spec.vessel_topic,
        'diameter': spec.diameter, 'mass_per_length': spec.mass_per_length,
        'axial_stiffness': spec.axial_stiffness, 'cd_normal': spec.cd_normal,
        'cd_tangential': spec.cd_tangential, 'segments': int(spec.segments),
        'source': spec.source, 'weight_in_water_per_m': w,
        'drag_per_m_at_1_m_s': normal_drag_per_length(spec, rho, 1.0),
        'span': span, 'rise': rise, 'taut_strain': taut_strain(spec, near), 'catenary': None,
    }
    if w > 0 and span > 0 and out['taut_strain'] == 0:
        c = solve_catenary(span, rise, spec.length, w, spec.axial_stiffness)
        out['catenary'] = {'horizontal_tension': c.horizontal_tension,
                           'tension_at_vehicle': c.tension_b(), 'sag': c.sag(),
                           'angle_at_vehicle_deg': math.degrees(c.end_angles()[1])}
    return out


def tether_lines(t: Dict[str, Any]) -> List[str]:
    """Return ``check``'s text lines for a tether summary."""
    far = ('following %s (starts at %s m)' % (t['vessel_topic'], t['anchor'])
           if t['vessel_topic'] else 'fixed at %s m' % t['anchor'])
    lines = ['tether:         %g m, %d segments, from %s m on the vehicle, far end %s'
             % (t['length'], t['segments'], t['attachment'], far),
             '  section: d %g m, %g kg/m in air, EA %g N, Cd %g normal, %g tangential (%s)'
             % (t['diameter'], t['mass_per_length'], t['axial_stiffness'], t['cd_normal'],
                t['cd_tangential'], t['source']),
             '  weight in water %.4g N/m (%s); drag across 1 m/s %.4g N/m'
             % (t['weight_in_water_per_m'], 'sinks' if t['weight_in_water_per_m'] > 0
                else 'floats or neutral', t['drag_per_m_at_1_m_s'])]
    if t['taut_strain'] > 0:
        lines.append('  taut: the ends are farther apart than the length (stretched %.3g %%, '
                     '%.4g N)' % (100 * t['taut_strain'],
                                  t['taut_strain'] * t['axial_stiffness']))
    elif t['catenary'] is not None:
        c = t['catenary']
        lines.append('  catenary at span %.4g m, rise %.4g m: sag %.4g m, horizontal tension '
                     '%.4g N, %.4g N at the vehicle, %.3g deg below horizontal'
                     % (t['span'], t['rise'], c['sag'], c['horizontal_tension'],
                        c['tension_at_vehicle'], c['angle_at_vehicle_deg']))
    else:
        lines.append('  no catenary: the cable does not sink (it rises or drifts with the water)')
    return lines
