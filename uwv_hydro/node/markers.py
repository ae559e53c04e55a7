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
hydro/markers: CoM, CoB and centre-of-drag spheres, the equivalent-inertia box, force arrows.

Everything is in the (prefixed) base frame.  Arrow lengths are newtons times
``force_scale`` (m/N); the automatic scale draws the larger of weight and
buoyancy as long as the largest edge of the equivalent box.
"""
from typing import Dict, List, Optional

from geometry_msgs.msg import Point
import numpy as np
from uwv_hydro.modes.messages.msg_conversions import fill_quaternion
from uwv_hydro.physics.spatial.rotation import matrix_to_quat
from visualization_msgs.msg import Marker

_COLORS = {
    'com': (0.9, 0.2, 0.2, 1.0), 'cob': (0.2, 0.4, 0.9, 1.0), 'drag': (0.9, 0.7, 0.1, 1.0),
    'box': (0.6, 0.6, 0.6, 0.35), 'buoyancy': (0.2, 0.4, 0.9, 1.0),
    'weight': (0.9, 0.2, 0.2, 1.0), 'drag_force': (0.9, 0.7, 0.1, 1.0),
    'total': (0.1, 0.8, 0.2, 1.0),
}


def equivalent_box(params):
    """Return (size (3), rotation matrix base <- box) of the equivalent-inertia box, or None."""
    try:
        from uwv_hydro.physics.body.inertia import equivalent_box as box
        size, axes = box(params.mass, params.inertia)
    except (ImportError, ValueError):
        return None
    axes = np.array(axes, dtype=float)
    if np.linalg.det(axes) < 0.0:
        axes[:, 2] = -axes[:, 2]
    return np.asarray(size, dtype=float), axes


def auto_force_scale(params) -> float:
    """Return a scale (m/N) drawing max(weight, buoyancy) as long as the box's largest edge."""
    force = max(params.weight(), params.buoyancy(), 1e-9)
    box = equivalent_box(params)
    length = float(np.max(box[0])) if box is not None and np.max(box[0]) > 0 else 1.0
    return length / force


class MarkerBuilder:
    """Builds the MarkerArray markers of one vehicle (static geometry precomputed)."""

    def __init__(self, params, frame_id: str, force_scale: float = 0.0, ns: str = 'uwv_hydro'):
        self.params = params
        self.frame_id = frame_id
        self.ns = ns
        self.force_scale = force_scale if force_scale > 0.0 else auto_force_scale(params)
        self.box = equivalent_box(params)
        size = self.box[0] if self.box is not None else np.ones(3)
        self.sphere = max(0.05, 0.08 * float(np.max(size)))
        self.points = {'com': np.asarray(params.com, float),
                       'cob': np.asarray(params.cob, float),
                       'drag': params.resolved_drag_center()}

    def _marker(self, stamp, mid: int, kind, color: str) -> Marker:
        m = Marker()
        m.header.frame_id = self.frame_id
        m.header.stamp = stamp
        m.ns = self.ns
        m.id = mid
        m.type = kind
        m.action = Marker.ADD
        m.pose.orientation.w = 1.0
        m.color.r, m.color.g, m.color.b, m.color.a = _COLORS[color]
        return m

    def build(self, stamp, components: Optional[Dict[str, np.ndarray]]) -> List[Marker]:
        """Return the markers; force arrows only when ``components`` is given."""
        out = []
        for i, name in enumerate(('com', 'cob', 'drag')):
            m = self._marker(stamp, i, Marker.SPHERE, name)
            p = self.points[name]
            m.pose.position.x, m.pose.position.y, m.pose.position.z = (float(v) for v in p)
            m.scale.x = m.scale.y = m.scale.z = self.sphere
            m.text = name
            out.append(m)
        if self.box is not None:
            size, axes = self.box
            m = self._marker(stamp, 3, Marker.CUBE, 'box')
            com = self.points['com']
            m.pose.position.x, m.pose.position.y, m.pose.position.z = (float(v) for v in com)
            fill_quaternion(m.pose.orientation, matrix_to_quat(axes))
            m.scale.x, m.scale.y, m.scale.z = (max(float(s), 1e-3) for s in size)
            out.append(m)
        if components is None:
            return out
        arrows = (
            ('buoyancy', self.points['cob'], components['buoyancy'][:3]),
            ('weight', self.points['com'], components['weight'][:3]),
            ('drag_force', self.points['drag'],
             components['linear_drag'][:3] + components['quadratic_drag'][:3]),
            ('total', np.zeros(3), sum(c[:3] for c in components.values())),
        )
        for i, (name, start, force) in enumerate(arrows):
            m = self._marker(stamp, 10 + i, Marker.ARROW, name)
            end = start + self.force_scale * np.asarray(force, float)
            m.points = [Point(x=float(start[0]), y=float(start[1]), z=float(start[2])),
                        Point(x=float(end[0]), y=float(end[1]), z=float(end[2]))]
            m.scale.x = 0.3 * self.sphere
            m.scale.y = 0.6 * self.sphere
            m.scale.z = 0.0
            m.text = name
            out.append(m)
        return out
