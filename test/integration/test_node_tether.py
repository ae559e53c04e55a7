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
The tethered BlueROV2 in the node over DDS: tension and cable out, finite, consistent.

config/bluerov2_tethered.yaml at its default rate: tether/tension (WrenchStamped in
the odometry frame) and tether/marker (a LINE_STRIP of segments + 1 points) arrive;
the strip starts at the anchor and ends at the attachment of the odometry of the same
stamp, and no value is NaN.
"""
import os
import pathlib

from nodes.harness import Probe, start_node
import numpy as np
import pytest
from required_modules import require

pytestmark = pytest.mark.ros
require('moordyn')

CONFIG = pathlib.Path(__file__).resolve().parents[2] / 'config' / 'bluerov2_tethered.yaml'


def _ns(stamp):
    return stamp.sec * 10 ** 9 + stamp.nanosec


def test_tethered_bluerov2_publishes_tension_and_cable(rclpy_context, spawn, tmp_path):
    from geometry_msgs.msg import WrenchStamped
    from nav_msgs.msg import Odometry
    from visualization_msgs.msg import Marker
    from uwv_hydro.description.loader import load_vehicle
    from uwv_hydro.physics.spatial.rotation import quat_to_matrix
    spec = load_vehicle(str(CONFIG)).tether
    ns = '/tether_%d' % os.getpid()
    proc, log = start_node(spawn, tmp_path, {
        'vehicle_file': str(CONFIG), 'mode': 'simulate',
        'initial_position': [0.0, 0.0, -5.0], 'publish_markers': False}, ns)
    probe = Probe(rclpy_context)
    tension = probe.collect(WrenchStamped, ns + '/tether/tension', qos=200, keep=2000)
    marker = probe.collect(Marker, ns + '/tether/marker', qos=200, keep=2000)
    odom = probe.collect(Odometry, ns + '/odometry', qos=200, keep=2000)
    got = probe.spin_until(lambda: len(tension) >= 50 and len(marker) >= 50, timeout=90.0,
                           proc=proc, log=log)
    assert got, 'no tether output: %d tension, %d marker' % (len(tension), len(marker))
    forces = np.array([[m.wrench.force.x, m.wrench.force.y, m.wrench.force.z]
                       for m in tension])
    assert np.all(np.isfinite(forces)) and tension[-1].header.frame_id == 'odom'
    by_stamp = {_ns(m.header.stamp): m for m in odom}
    checked = 0
    for m in marker:
        points = np.array([[p.x, p.y, p.z] for p in m.points])
        assert m.type == Marker.LINE_STRIP and points.shape == (spec.segments + 1, 3)
        assert np.all(np.isfinite(points))
        np.testing.assert_allclose(points[0], spec.anchor, atol=1e-9)
        o = by_stamp.get(_ns(m.header.stamp))
        if o is None:
            continue
        p, q = o.pose.pose.position, o.pose.pose.orientation
        attach = np.array([p.x, p.y, p.z]) + quat_to_matrix(
            np.array([q.w, q.x, q.y, q.z])) @ spec.attachment
        # the cable's end moved along the predicted step: within the corrector's change
        assert np.linalg.norm(points[-1] - attach) < 1e-3
        checked += 1
    assert checked >= 10, checked
    probe.close()
