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
Closed-loop flight of the REMUS-like vehicle on its fins (offline, SimulateMode + servos).

A depth and heading autopilot (test/helpers/fin_flight.py) flies config/remus100.yaml at cruise
speed for 90 s: it dives from 4 m to 5 m and turns 90 degrees (at 0.04 rad/s: the
vehicle turns at most ~3.3 deg/s, like PVS's remus100).  Held full rudder: the turn it
settles into.
"""
import math
import pathlib
import sys

import numpy as np
import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / 'helpers'))
from fin_flight import euler_zyx, fly_offline  # noqa: E402, I100

from uwv_hydro.description.loader import load_vehicle  # noqa: E402

REMUS = pathlib.Path(__file__).resolve().parents[3] / 'config' / 'remus100.yaml'


def test_autopilot_holds_depth_and_heading_and_turns_90_degrees():
    """Depth within 0.2 m and heading within 2 deg after the transients; the turn is done."""
    params = load_vehicle(str(REMUS))
    t, x, angles = fly_offline(params, 90.0, 0.02, start_depth=4.0, depth=5.0, turn_at=10.0,
                               turn=math.pi / 2)
    yaw = np.array([euler_zyx(q)[2] for q in x[:, 3:7]])
    depth = -x[:, 2]
    speed = np.linalg.norm(x[:, 7:10], axis=1)
    hold = t < 10.0
    settled = t > 60.0
    depth_error = np.abs(depth[settled] - 5.0).max()
    heading_error = np.degrees(np.abs(yaw[settled] - math.pi / 2)).max()
    print('steady depth error %.3f m, heading error %.3f deg, speed %.3f m/s'
          % (depth_error, heading_error, speed[settled].mean()))
    assert np.degrees(np.abs(yaw[hold])).max() < 2.0
    assert depth_error < 0.2
    assert heading_error < 2.0
    # The fins did the work: they moved, and stayed inside the joint limits
    assert np.abs(angles[:, :2]).max() > 0.05 and np.abs(angles[:, 2:]).max() > 0.05
    assert np.all(np.abs(angles) <= 0.2618 + 1e-12)
    assert 1.3 < speed[settled].mean() < 1.6


def test_full_rudder_turn_is_a_steady_circle_to_port():
    """
    Full rudder (15 deg) held for 90 s, the stern planes on the depth autopilot.

    The last 30 s are a steady turn: the track lies on a circle (least-squares fit) whose
    diameter equals the kinematic 2 U / r (U the speed, r the yaw rate; to 3 %), turning to
    port (r > 0, the file's sign convention).  The diameter against PVS's remus100:
    test/test_remus_vs_pvs.py.
    """
    params = load_vehicle(str(REMUS))
    rudder = max(f.upper for f in params.fins)  # the joint limit: full rudder
    t, x, _ = fly_offline(params, 90.0, 0.02, start_depth=5.0, depth=5.0, turn_at=1e9,
                          turn=0.0, rudder=rudder)
    last = t > 60.0
    xy = x[last, :2]
    # algebraic circle fit: x^2 + y^2 = 2 a x + 2 b y + c, radius^2 = c + a^2 + b^2
    design = np.column_stack([2.0 * xy[:, 0], 2.0 * xy[:, 1], np.ones(len(xy))])
    (a, b, c), *_ = np.linalg.lstsq(design, (xy ** 2).sum(axis=1), rcond=None)
    radius = math.sqrt(c + a * a + b * b)
    off_circle = np.abs(np.hypot(xy[:, 0] - a, xy[:, 1] - b) - radius).max()
    speed = np.linalg.norm(x[last, 7:10], axis=1).mean()
    yaw_rate = x[last, 12].mean()
    sideslip = math.degrees(np.arctan2(x[last, 8], x[last, 7]).mean())
    print('full rudder %.0f deg: turning diameter %.2f m (2U/r %.2f m), speed %.2f m/s, '
          'yaw rate %.3f rad/s, sideslip %.1f deg, depth %.2f m' % (
              math.degrees(rudder), 2.0 * radius, 2.0 * speed / yaw_rate, speed, yaw_rate,
              sideslip, -x[-1, 2]))
    assert yaw_rate > 0.0
    assert off_circle < 0.02 * radius
    assert 2.0 * radius == pytest.approx(2.0 * speed / yaw_rate, rel=0.03)
