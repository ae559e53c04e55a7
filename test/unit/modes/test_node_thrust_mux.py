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

"""Thrust wrenches into the base frame through the fixed-joint chain, summed, watchdog."""
import numpy as np
import pytest

from uwv_hydro.modes.thrust_mux import FrameResolver, ThrustMux, transform_wrench
from uwv_hydro.physics.body.vehicle_params import FixedFrame, VehicleParams
from uwv_hydro.physics.spatial.rotation import quat_from_rpy


def _params():
    p = VehicleParams(mass=1.0, inertia=np.eye(3))
    p.frames = {
        'thruster_stern': FixedFrame(np.array([-1.0, 0.0, 0.0]), quat_from_rpy(0, 0, np.pi / 2)),
        'thruster_port': FixedFrame(np.array([0.0, 0.5, 0.0]), np.array([1.0, 0, 0, 0])),
    }
    return p


def test_force_is_rotated_and_lever_arm_adds_torque():
    t, q = _params().frame_transform('thruster_stern')
    w = transform_wrench([2.0, 0, 0, 0, 0, 0.5], t, q)
    # F_b = R F = (0, 2, 0); T_b = R T + t x F_b = (0, 0, 0.5) + (-1, 0, 0) x (0, 2, 0)
    np.testing.assert_allclose(w, [0, 2.0, 0, 0, 0, 0.5 - 2.0], atol=1e-12)


def test_general_transform_matches_a_point_force():
    rng = np.random.default_rng(3)
    t = rng.normal(size=3)
    q = quat_from_rpy(*rng.normal(size=3))
    f = rng.normal(size=3)
    w = transform_wrench(np.concatenate((f, np.zeros(3))), t, q)
    from uwv_hydro.physics.spatial.rotation import quat_to_matrix
    fb = quat_to_matrix(q) @ f
    np.testing.assert_allclose(w, np.concatenate((fb, np.cross(t, fb))), atol=1e-12)


def test_frame_resolver_prefix_empty_and_unknown():
    r = FrameResolver(_params(), 'auv1/')
    assert r.lookup('auv1/thruster_port')[0][1] == 0.5
    assert r.lookup('thruster_port')[0][1] == 0.5
    np.testing.assert_array_equal(r.lookup('')[0], np.zeros(3))
    np.testing.assert_array_equal(r.lookup('auv1/base_link')[0], np.zeros(3))
    assert r.lookup('auv2/thruster_port') is None
    assert r.lookup('nope') is None


def test_mux_sums_fresh_topics_and_watchdog_transitions():
    mux = ThrustMux(['a', 'b'], timeout_s=0.5)
    total, stale, back = mux.total(0)
    assert not total.any() and stale == [] and mux.state('a') == 'waiting'
    mux.update('a', np.ones(6), 0)
    mux.update('b', 2 * np.ones(6), 10 ** 8)
    np.testing.assert_array_equal(mux.total(4 * 10 ** 8)[0], 3 * np.ones(6))
    total, stale, back = mux.total(6 * 10 ** 8)  # a is 0.6 s old
    np.testing.assert_array_equal(total, 2 * np.ones(6))
    assert stale == ['a'] and mux.state('a') == 'stale'
    assert mux.total(6 * 10 ** 8)[1] == []  # reported once
    mux.update('a', np.ones(6), 7 * 10 ** 8)
    total, stale, back = mux.total(7 * 10 ** 8)
    assert back == ['a'] and mux.state('a') == 'ok'
    assert mux.age_s('b', 7 * 10 ** 8) == pytest.approx(0.6)
    mux.clear()
    assert not mux.total(7 * 10 ** 8)[0].any() and mux.state('a') == 'waiting'


def test_resolver_to_base_matches_the_transform_and_rejects_unknown_frames():
    params = _params()
    frames = FrameResolver(params, frame_prefix='auv1/')
    w = [1.0, -2.0, 0.5, 0.1, 0.2, -0.3]
    t, q = params.frame_transform('thruster_stern')
    for _ in range(2):  # the second call uses the cached rotation matrix
        np.testing.assert_allclose(frames.to_base('auv1/thruster_stern', w),
                                   transform_wrench(w, t, q), atol=1e-12)
    np.testing.assert_allclose(frames.to_base('', w), w, atol=0)
    assert frames.to_base('auv1/rudder', w) is None
