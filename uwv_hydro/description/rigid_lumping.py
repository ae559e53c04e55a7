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
Lump the inertials of several links into one rigid body in the base-link frame.

The URDF and SDF loaders both use it, so the two agree on the same vehicle.  A part
is (mass, centre of mass, inertia about that centre), all in base-link axes; a link
at pose (p, R) in the base frame contributes ``com = p + R c`` and ``I = R I_c R^T``
(:func:`part_in_base`).  The sum is Steiner's parallel-axis theorem (see
:func:`lump`).
"""
from typing import Iterable, Tuple

import numpy as np

Part = Tuple[float, np.ndarray, np.ndarray]


def part_in_base(mass: float, com: np.ndarray, inertia: np.ndarray, position: np.ndarray,
                 rotation: np.ndarray) -> Part:
    """Return a link's inertial (in its own frame) expressed in the base frame."""
    # rigid transform of a point and of a second-order tensor: c' = p + R c, I' = R I R^T
    return (float(mass), position + rotation @ com, rotation @ inertia @ rotation.T)


class LumpOverflow(ValueError):
    """A part whose contribution to the lumped sums overflows; ``index`` is its place."""

    def __init__(self, index: int, what: str):
        super().__init__('%s overflows the float range' % what)
        self.index = index


def lump(parts: Iterable[Part]) -> Tuple[float, np.ndarray, np.ndarray]:
    """
    Return (total mass, centre of mass, inertia about it) of ``parts`` (base axes).

    Raise :class:`LumpOverflow` naming the part whose terms leave the float range (a
    mass or an offset of 1e300 in a sloppy file), rather than return inf or NaN.
    """
    parts = list(parts)
    with np.errstate(over='ignore', invalid='ignore'):
        moments = [p[0] * np.asarray(p[1], float) for p in parts]
        bad = [k for k, m in enumerate(moments) if not np.all(np.isfinite(m))]
        if bad:
            raise LumpOverflow(bad[0], 'its mass times its centre of mass')
        total = sum(p[0] for p in parts)
        if not np.isfinite(total):
            raise LumpOverflow(int(np.argmax([abs(p[0]) for p in parts])), 'the total mass')
        if total <= 0.0:
            return float(total), np.zeros(3), np.zeros((3, 3))
        com = sum(moments) / total
        if not np.all(np.isfinite(com)):
            raise LumpOverflow(int(np.argmax([np.abs(m).max() for m in moments])),
                               'the sum of mass times centre of mass')
        # Parallel-axis theorem (Steiner): I_G = sum(I_i + m_i (|d|^2 1 - d d^T)).
        terms = []
        for mass, c, i_c in parts:
            d = np.asarray(c, float) - com
            terms.append(np.asarray(i_c, float) + mass * (d @ d * np.eye(3) - np.outer(d, d)))
        inertia = sum(terms)
        if not np.all(np.isfinite(inertia)):
            # the part far out (or heavy) that moved the centre of mass is to blame, not
            # an ordinary part whose offset from that centre then overflows
            raise LumpOverflow(int(np.argmax([abs(m) * np.abs(c).max() + np.abs(i).max()
                                              for m, c, i in parts])),
                               'its inertia about the lumped centre of mass')
    return float(total), com, inertia
