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
A tether (an ROV's umbilical) as a cable: its ends, its length and its section.

:class:`TetherSpec` holds what the description gives: the attachment point on the
vehicle (body frame, FLU), the far end (a fixed world point, ENU, z up from the
surface; or a surface vessel's odometry topic, followed), the unstretched length, the
diameter, the mass per length in air, the axial stiffness EA, the drag coefficients
normal and tangential to the cable (MoorDyn's Cd on d l and CdAx on pi d l), the added
mass coefficients and the segments of the lumped-mass model.

The defaults are Blue Robotics' Fathom ROV tether (R2 data sheet: 7.6 mm, 0.043 kg/m,
neutrally buoyant in fresh water, 350+ lbf breaking strength), EA estimated from that
strength over Kevlar 49's elongation at break (1557 N / 0.024 = 65 kN; the sheet gives
no stiffness); Cd 1.2 (a circular cylinder at sub-critical Reynolds number, Hoerner
1965, ch. 3), CdAx 0.008 (MoorDyn's documented typical value for a smooth cable).
"""
from dataclasses import dataclass, field, replace
import math
from typing import Optional, Tuple

import numpy as np

#: Fathom ROV tether (R2) and the estimates above: key -> value.
FATHOM_DEFAULTS = {
    'diameter': 0.0076, 'mass_per_length': 0.043, 'axial_stiffness': 65000.0,
    'cd_normal': 1.2, 'cd_tangential': 0.008, 'ca_normal': 1.0, 'ca_tangential': 0.0,
    'segments': 20,
}
#: where the defaults come from (``check`` prints it)
DEFAULT_SOURCE = ('Blue Robotics Fathom ROV tether R2 data sheet (7.6 mm, 0.043 kg/m); '
                  'EA = breaking load / Kevlar 49 elongation at break (estimate)')

#: the positive numbers of a tether: key -> what it is
POSITIVE_KEYS = {
    'length': 'unstretched length (m)', 'diameter': 'diameter (m)',
    'mass_per_length': 'mass per length in air (kg/m)',
    'axial_stiffness': 'axial stiffness EA (N)',
}
#: the numbers that may be zero but not negative
NON_NEGATIVE_KEYS = {
    'cd_normal': 'normal drag coefficient', 'cd_tangential': 'tangential drag coefficient',
    'ca_normal': 'normal added mass coefficient',
    'ca_tangential': 'tangential added mass coefficient',
}


@dataclass
class TetherSpec:
    """A tether's ends, length and section (module docstring); SI units, FLU / ENU."""

    length: float
    #: attachment point on the vehicle, body frame (m)
    attachment: np.ndarray = field(default_factory=lambda: np.zeros(3))
    #: the far end in the world (m, ENU, z = 0 at the surface), or where the vessel starts
    anchor: np.ndarray = field(default_factory=lambda: np.zeros(3))
    #: a surface vessel's odometry topic the far end follows (None: fixed)
    vessel_topic: Optional[str] = None
    diameter: float = FATHOM_DEFAULTS['diameter']
    mass_per_length: float = FATHOM_DEFAULTS['mass_per_length']
    axial_stiffness: float = FATHOM_DEFAULTS['axial_stiffness']
    cd_normal: float = FATHOM_DEFAULTS['cd_normal']
    cd_tangential: float = FATHOM_DEFAULTS['cd_tangential']
    ca_normal: float = FATHOM_DEFAULTS['ca_normal']
    ca_tangential: float = FATHOM_DEFAULTS['ca_tangential']
    segments: int = FATHOM_DEFAULTS['segments']
    #: where the numbers come from (file:line, or the defaults' source)
    source: str = DEFAULT_SOURCE
    #: the keys the description gave (the others are defaults)
    given: Tuple[str, ...] = ()

    def problems(self):
        """Yield (key, value, reason) for every number out of its physical range."""
        for key, what in POSITIVE_KEYS.items():
            value = float(getattr(self, key))
            if not (math.isfinite(value) and value > 0):
                yield key, value, '%s must be a finite number > 0' % what
        for key, what in NON_NEGATIVE_KEYS.items():
            value = float(getattr(self, key))
            if not (math.isfinite(value) and value >= 0):
                yield key, value, '%s must be a finite number >= 0' % what
        if int(self.segments) != self.segments or self.segments < 1:
            yield 'segments', self.segments, 'the segments must be an integer >= 1'
        for key in ('attachment', 'anchor'):
            value = np.asarray(getattr(self, key), dtype=float)
            if value.shape != (3,) or not np.all(np.isfinite(value)):
                yield key, getattr(self, key), 'expected [x, y, z] finite numbers (m)'

    def moved(self, **changes) -> 'TetherSpec':
        """Return a copy with ``changes``."""
        return replace(self, **changes)


def weight_in_water(spec: TetherSpec, rho: float, gravity: float) -> float:
    """Return the submerged weight per metre w (N/m, positive sinks)."""
    # w = (m_l - rho pi d^2 / 4) g: weight less Archimedes' buoyancy of the section
    return (spec.mass_per_length - rho * math.pi * spec.diameter ** 2 / 4.0) * gravity


def normal_drag_per_length(spec: TetherSpec, rho: float, speed: float) -> float:
    """Return the drag per metre of a cable across a flow of ``speed`` (N/m)."""
    # f = 1/2 rho Cd d U^2 (Morison drag on a cylinder normal to the flow)
    return 0.5 * rho * spec.cd_normal * spec.diameter * speed * speed


def taut_strain(spec: TetherSpec, near) -> float:
    """Return the strain the tether needs to reach from its anchor to ``near`` (0: slack)."""
    chord = float(np.linalg.norm(np.asarray(near, float) - np.asarray(spec.anchor, float)))
    # a straight cable between the ends is stretched by chord / L - 1
    return max(chord / spec.length - 1.0, 0.0)


def taut_message(spec: TetherSpec, near) -> Optional[str]:
    """Return a warning when the ends are farther apart than the tether is long, else None."""
    strain = taut_strain(spec, near)
    if strain <= 0:
        return None
    chord = spec.length * (1 + strain)
    return ('tether (%s): taut: its ends are %.6g m apart, longer than its unstretched length '
            '%.6g m; it starts stretched by %.3g %% (tension EA x strain = %.6g N)'
            % (spec.source, chord, spec.length, 100 * strain, spec.axial_stiffness * strain))
