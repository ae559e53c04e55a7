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
The node lands the vehicle on the seabed (seabed_file: a flat seabed), over DDS.

A vehicle 20 kg in air, 15 kg displaced, on four contact_points 0.15 m below its
origin is dropped 5 cm above a flat seabed 12 m deep: under the /clock it comes to rest
level with its points W_water / (k n) below the seabed, k = m g / (delta N) the
default stiffness per point (Drake's penetration allowance delta = 1 mm, N = n = 4), and
on the way it never penetrates deeper than the damped impact allows.
"""
from nodes import lock_step
import numpy as np
import pytest

pytestmark = pytest.mark.ros

G = 9.80665
DEPTH = 12.0
MASS, DISPLACED, BELOW = 20.0, 15.0, 0.15

VEHICLE = """vehicle:
  name: lander
  mass: %r
  inertia: {ixx: 0.5, iyy: 0.6, izz: 0.7}
  buoyancy_mass: %r
  linear_drag: [20, 20, 20, 5, 5, 5]
  contact_points: [[0.3, 0.2, -%r], [0.3, -0.2, -%r], [-0.3, 0.2, -%r], [-0.3, -0.2, -%r]]
""" % (MASS, DISPLACED, BELOW, BELOW, BELOW, BELOW)


def test_the_node_lands_the_vehicle_on_the_seabed(spawn, rclpy_context, tmp_path, python):
    vehicle = tmp_path / 'lander.yaml'
    vehicle.write_text(VEHICLE)
    seabed = tmp_path / 'seabed.yaml'
    seabed.write_text('seabed:\n  depth: %r\n' % DEPTH)
    params = {'vehicle_file': str(vehicle), 'mode': 'simulate', 'seabed_file': str(seabed),
              'initial_position': [1.0, 2.0, -DEPTH + BELOW + 0.05]}
    states, _, _ = lock_step.run(spawn, rclpy_context, tmp_path, python, 'contact', params,
                                 [], [], 200)
    final = states[-1]
    # W_water / (k n) with k = m g / (delta N), N = n = 4: (W_water / (m g)) delta
    k = MASS * G / (1e-3 * 4)
    d = (MASS - DISPLACED) * G / (k * 4)
    assert final[2] == pytest.approx(-DEPTH + BELOW - d, abs=0.02 * d)
    # at rest, level, where it was dropped
    assert np.linalg.norm(final[7:]) < 1e-4
    assert final[:2] == pytest.approx([1.0, 2.0], abs=1e-9)
    assert abs(final[3]) == pytest.approx(1.0, abs=1e-9)
    # the impact: the damped heave x'' + 2 zeta w x' + w^2 x = g_eff from x = 0 at the
    # speed v0 (free fall of 5 cm, no drag: an upper bound) overshoots at most
    # 2 d + v0 / w, w = sqrt(k n / m) (step and impulse responses; the guide's bound)
    v0 = np.sqrt(2.0 * (MASS - DISPLACED) / MASS * G * 0.05)
    omega = np.sqrt(k * 4 / MASS)
    bound = 2.0 * d + v0 / omega
    deepest = -DEPTH + BELOW - np.min(states[:, 2])
    assert d < deepest <= bound
