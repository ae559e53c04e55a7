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
Seabed contact points of a description: collision shapes, or YAML ``contact_points``.

Collision shapes of the links lumped into the vehicle body (URDF ``<collision>``, SDF
``<collision>``) give points in the base frame: a box its 8 corners, a cylinder 12
points around each rim (its lowest point is missed by at most r (1 - cos 15 deg), 3.4 %
of the radius), a sphere its centre with the radius (it touches at centre - r n).
Meshes are not used (named in a warning).  YAML::

    contact_points: [[0.2, 0.1, -0.1], [0.2, -0.1, -0.1], ...]   # body frame (m)
    contact_points: {bow_left: [0.2, 0.1, -0.1], ...}   # the same, named
    contact:                      # all optional (physics.environment.seabed_contact: the defaults)
      stiffness: 5.0e4            # N/m per point
      damping: 500.0              # N s/m per point
      friction: 0.6               # Coulomb mu
      stiction_speed: 0.001       # m/s, the regularisation v_s

``contact_points`` replace the shapes' points; ``contact`` alone keeps them.
"""
import math
from typing import Any, Callable, List, Optional

import numpy as np

from uwv_hydro.physics.environment.seabed_contact import ContactSpec

#: points around each rim of a cylinder
RIM_POINTS = 12
#: the keys of a YAML ``contact:`` block
CONTACT_KEYS = ('stiffness', 'damping', 'friction', 'stiction_speed')


class ShapePoints:
    """Contact points gathered from collision shapes (base frame), with what was skipped."""

    def __init__(self):
        self.points: List[np.ndarray] = []
        self.radii: List[float] = []
        self.labels: List[str] = []
        self.meshes: List[str] = []
        self.others: List[str] = []

    def box(self, size, position, rotation, label: str) -> None:
        """Add the 8 corners of a box of ``size`` at (position, rotation) in the base."""
        half = 0.5 * np.asarray(size, float)
        for sx in (1.0, -1.0):
            for sy in (1.0, -1.0):
                for sz in (1.0, -1.0):
                    # corner c = p + R (s * half)
                    self._add(position + rotation @ (half * [sx, sy, sz]), 0.0, label)

    def cylinder(self, radius: float, length: float, position, rotation, label: str) -> None:
        """Add RIM_POINTS points around each rim (the cylinder's axis: its z)."""
        for z in (0.5 * length, -0.5 * length):
            for k in range(RIM_POINTS):
                a = 2.0 * math.pi * k / RIM_POINTS
                # rim point p + R [r cos a, r sin a, +-l/2]
                self._add(position + rotation @ np.array(
                    [radius * math.cos(a), radius * math.sin(a), z]), 0.0, label)

    def sphere(self, radius: float, position, label: str) -> None:
        """Add a sphere: its centre with its radius."""
        self._add(np.asarray(position, float), float(radius), label)

    def _add(self, point, radius: float, label: str) -> None:
        self.points.append(np.asarray(point, float))
        self.radii.append(radius)
        self.labels.append(label)

    def warnings(self) -> List[str]:
        """Return the warnings: meshes and other shapes not used for contact."""
        out = []
        if self.meshes:
            out.append('seabed contact: collision meshes are not used (%s): %s' % (
                ', '.join(self.meshes), 'contact at the other shapes' if self.points else
                'no contact points from the collisions; give contact_points in a YAML'))
        if self.others:
            out.append('seabed contact: collision shapes not used (%s)' % ', '.join(self.others))
        return out

    def spec(self, source: str) -> Optional[ContactSpec]:
        """Return the ContactSpec of the points (None without any)."""
        if not self.points:
            return None
        return ContactSpec(points=np.array(self.points), radii=np.array(self.radii),
                           labels=list(self.labels), source=source)


def read_contact_points(value: Any, error: Callable[[str, str], Exception],
                        number: Callable[[Any, str], float], to_flu) -> ContactSpec:
    """
    Return the ContactSpec of a YAML ``contact_points``: a list of [x, y, z] or a mapping.

    The mapping (name: [x, y, z]) is the form a ROS 2 parameter file can hold: rcl's
    YAML parser refuses a list of lists.  Points in the body frame (m).
    """
    if isinstance(value, dict) and value:
        named = [('contact_points.%s' % name, str(name), p) for name, p in value.items()]
    elif isinstance(value, list) and value:
        named = [('contact_points[%d]' % i, 'contact_points[%d]' % i, p)
                 for i, p in enumerate(value)]
    else:
        raise error('contact_points', 'expected a list of [x, y, z] body-frame points (m), '
                    'or a mapping of names to them, got %r' % (value,))
    points = []
    for key, _, p in named:
        if not isinstance(p, list) or len(p) != 3:
            raise error(key, 'expected [x, y, z] (m), got %r' % (p,))
        points.append(to_flu(np.array([number(v, key) for v in p])))
    return ContactSpec(points=np.array(points), labels=[label for _, label, _ in named],
                       source='contact_points')


def read_contact_block(value: Any, spec: Optional[ContactSpec],
                       error: Callable[[str, str], Exception],
                       number: Callable[[Any, str], float]) -> dict:
    """Return the overrides of a YAML ``contact:`` mapping (validated, positive numbers)."""
    if not isinstance(value, dict):
        raise error('contact', 'expected a mapping {%s}' % ', '.join(CONTACT_KEYS))
    out = {}
    for key, v in value.items():
        path = 'contact.%s' % key
        if key not in CONTACT_KEYS:
            raise error(path, 'unknown key %r; known: %s' % (key, ', '.join(CONTACT_KEYS)))
        x = number(v, path)
        # friction may be 0 (frictionless); the others set a rate or a speed: > 0
        if x < 0.0 or (x == 0.0 and key != 'friction'):
            raise error(path, 'must be %s, got %r' % (
                '>= 0' if key == 'friction' else '> 0', v))
        out[key] = x
    return out


def apply_overrides(spec: Optional[ContactSpec], overrides: dict) -> Optional[ContactSpec]:
    """Return ``spec`` with the ``contact:`` overrides set (None stays None)."""
    if spec is None:
        return None
    for key, value in overrides.items():
        setattr(spec, key, float(value))
    return spec


def lowest_count(contact) -> int:
    """Return how many points are lowest, level (those touching flat ground at rest)."""
    lowest = np.asarray(contact.points)[:, 2] - np.asarray(contact.radii)
    # within 1 um: the same height up to the rounding of a description's poses
    return int(np.sum(lowest <= lowest.min() + 1e-6))


def contact_lines(params, contact) -> List[str]:
    """Return what ``check`` shows: the points and the figures of a resolved contact."""
    spec = params.contact
    lines = ['seabed contact:  %d points from %s' % (len(contact.points), spec.source)]
    for label, p, r in zip(spec.labels or [''] * len(contact.points), contact.points,
                           contact.radii):
        lines.append('  [% .4g, % .4g, % .4g]%s  %s' % (
            p[0], p[1], p[2], ' r %.4g' % r if r > 0.0 else '', label))
    lines.append('  stiffness %.4g N/m, damping %.4g N s/m per point; friction %.4g '
                 '(friction angle %.4g deg); stiction speed %.4g m/s' % (
                     contact.stiffness, contact.damping, contact.friction,
                     math.degrees(contact.friction_angle()), contact.stiction_speed))
    touching = lowest_count(contact)
    if contact.weight_in_water > 0.0:
        lines.append('  weight in water %.4g N; at rest on flat ground on its %d lowest '
                     'points: penetration %.4g m' % (contact.weight_in_water, touching,
                                                     contact.static_penetration(touching)))
    else:
        lines.append('  weight in water %.4g N: it floats (it rests on the seabed only when '
                     'driven onto it)' % contact.weight_in_water)
    return lines


def contact_summary(params, contact, mode=None) -> dict:
    """Return the JSON form of :func:`contact_lines` (points in m, base frame)."""
    touching = lowest_count(contact)
    return {'source': params.contact.source, 'points': np.asarray(contact.points).tolist(),
            'radii': np.asarray(contact.radii).tolist(), 'labels': list(params.contact.labels),
            'stiffness': contact.stiffness, 'damping': contact.damping,
            'friction': contact.friction, 'stiction_speed': contact.stiction_speed,
            'friction_angle_deg': math.degrees(contact.friction_angle()),
            'weight_in_water': contact.weight_in_water, 'touching_on_flat': touching,
            'static_penetration': contact.static_penetration(touching),
            'substeps_100hz': None if mode is None else mode.substeps}
