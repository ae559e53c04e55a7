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
The static elastic catenary between two points (Irvine 1981, Cable Structures, ch. 2).

A cable of unstretched length L, submerged weight w per unstretched metre and axial
stiffness EA hangs from end A to end B, B at (span, rise) from A (horizontal, vertical
up).  With H the horizontal tension and V_B the vertical tension at B (upward on the
cable), V_A = V_B - w L at A, the end B sits at (Irvine eqs. 2.37-2.38, as in Jonkman
2007, NREL/TP-500-41958, eq. 2-1 with no seabed contact):

    span = H/w [asinh(V_B/H) - asinh(V_A/H)] + H L / EA
    rise = H/w [sqrt(1 + (V_B/H)^2) - sqrt(1 + (V_A/H)^2)] + (V_B L - w L^2 / 2) / EA

solved by Newton's method for (H, V_B).  The shape at unstretched arc length s from A
is the same pair with L -> s and V_B -> V_A + w s.
"""
from dataclasses import dataclass
import math

import numpy as np


@dataclass
class Catenary:
    """A solved catenary: tensions (N), and the inputs."""

    horizontal_tension: float
    vertical_tension_a: float
    vertical_tension_b: float
    span: float
    rise: float
    length: float
    weight: float
    stiffness: float

    def point(self, s):
        """Return (x, z) of the cable at unstretched arc length ``s`` from A."""
        s = np.asarray(s, dtype=float)
        h, w, ea, va = (self.horizontal_tension, self.weight, self.stiffness,
                        self.vertical_tension_a)
        vs = va + w * s
        # Irvine eq. 2.37-2.38 along the cable (arc length s, V(s) = V_A + w s)
        x = h / w * (np.arcsinh(vs / h) - np.arcsinh(va / h)) + h * s / ea
        z = (h / w * (np.sqrt(1 + (vs / h) ** 2) - math.sqrt(1 + (va / h) ** 2))
             + (va * s + w * s * s / 2) / ea)
        return x, z

    def sag(self, samples: int = 2001) -> float:
        """Return the largest vertical distance of the cable below the chord A-B (m)."""
        x, z = self.point(np.linspace(0.0, self.length, samples))
        return float(np.max(self.rise * x / self.span - z))

    def end_angles(self):
        """Return the tension's angles below the horizontal at A and at B (rad)."""
        h = self.horizontal_tension
        # the tension is tangent to the cable: tan(theta) = V / H
        return (math.atan2(-self.vertical_tension_a, h), math.atan2(self.vertical_tension_b, h))

    def tension_b(self) -> float:
        """Return the tension's magnitude at B (N)."""
        return math.hypot(self.horizontal_tension, self.vertical_tension_b)


def _ends(h, vb, length, w, ea):
    va = vb - w * length
    # Irvine eqs. 2.37-2.38 at s = L
    span = h / w * (math.asinh(vb / h) - math.asinh(va / h)) + h * length / ea
    rise = (h / w * (math.sqrt(1 + (vb / h) ** 2) - math.sqrt(1 + (va / h) ** 2))
            + (vb * length - w * length * length / 2) / ea)
    return span, rise


def solve_catenary(span: float, rise: float, length: float, weight: float,
                   stiffness: float, tolerance: float = 1e-12) -> Catenary:
    """
    Return the catenary from A to B at (span, rise) from A (module docstring).

    ValueError when the cable cannot hang there: span <= 0, or weight <= 0 (no sag:
    a cable buoyant or neutral in water has no catenary), or no solution found.
    """
    if not span > 0:
        raise ValueError('catenary: the horizontal span must be > 0, got %g m' % span)
    if not weight > 0:
        raise ValueError('catenary: the cable must sink (weight in water > 0), got %g N/m'
                         % weight)
    chord = math.hypot(span, rise)
    # start: the inextensible parabola's H = w L_h^2 / (8 sag) for a slack cable, else taut
    slack = max(length - chord, 1e-6 * length)
    h = max(weight * span * span / (8 * math.sqrt(3 * slack * length / 8) + 1e-12),
            1e-3 * weight * length)
    vb = weight * length / 2 + h * rise / span
    for _ in range(200):
        fx, fz = _ends(h, vb, length, weight, stiffness)
        rx, rz = fx - span, fz - rise
        if abs(rx) + abs(rz) < tolerance * (1 + chord):
            break
        # Newton on (H, V_B) with a central-difference Jacobian
        dh, dv = 1e-7 * max(h, 1e-9), 1e-7 * max(abs(vb), h, 1e-9)
        jx = np.array(_ends(h + dh, vb, length, weight, stiffness)) - np.array(
            _ends(h - dh, vb, length, weight, stiffness))
        jz = np.array(_ends(h, vb + dv, length, weight, stiffness)) - np.array(
            _ends(h, vb - dv, length, weight, stiffness))
        jac = np.column_stack([jx / (2 * dh), jz / (2 * dv)])
        step = np.linalg.solve(jac, -np.array([rx, rz]))
        # damped: H stays positive
        scale = 1.0
        while h + scale * step[0] <= 0:
            scale /= 2
        h, vb = h + scale * step[0], vb + scale * step[1]
    else:
        raise ValueError('catenary: no solution for span %g m, rise %g m, length %g m'
                         % (span, rise, length))
    return Catenary(h, vb - weight * length, vb, span, rise, length, weight, stiffness)
