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
Replay evaluates CHUNK messages at a time; the result must be message-by-message exact.

The reference is the node's rules applied one message at a time (unit_quaternion,
StampGuard, WrenchMode.evaluate), with faults placed on the chunk boundaries: a stale
stamp, a restart (stamp jump), a repeated stamp, non-finite and unusable quaternions.
"""
import math
import sys

from conftest import REPO
import numpy as np
import pytest

from uwv_hydro.bag.bag_reader import read_messages
from uwv_hydro.bag.replay import CHUNK, output_topics, replay_wrench
from uwv_hydro.bag.rosbag_io import BagError, BagWriter, MessageFactory, ODOMETRY, wrench_array
from uwv_hydro.modes.input_guard import StampGuard
from uwv_hydro.modes.wrench_mode import unit_quaternion, world_wrench, WrenchMode
from uwv_hydro.physics.body.vehicle_params import COMPONENT_NAMES
from uwv_hydro.physics.hydro.hydro_model import HydroModel

sys.path.insert(0, str(REPO / 'benchmarks'))
from naive_reference import full_vehicle  # noqa: E402, I100


def _samples(n):
    """Return [(stamp ns, position, quaternion wxyz, twist)] with faults at the boundaries."""
    rng = np.random.default_rng(5)
    out = []
    for k in range(n):
        stamp = 1_000_000_000 + 10_000_000 * k
        quat = np.array([1.0, 0.05, -0.05, 0.1]) + 0.02 * rng.normal(size=4)
        quat /= np.linalg.norm(quat)
        twist = np.array([0.8, 0.1, -0.05, 0.02, -0.01, 0.1]) + 0.05 * rng.normal(size=6)
        position = [0.01 * k, 0.0, -0.2 - 0.001 * k]  # starts in the surface transition
        out.append([stamp, position, quat, twist])
    out[CHUNK - 1][0] = out[CHUNK - 2][0]                  # repeated stamp (dt = 0)
    out[CHUNK][0] = out[CHUNK - 1][0] - 20_000_000         # 20 ms back: stale, dropped
    out[CHUNK + 1][2] = np.zeros(4)                        # unusable quaternion
    out[CHUNK + 2][3] = np.full(6, np.nan)                 # non-finite twist
    out[CHUNK + 3][2] = 1.7 * out[CHUNK + 3][2]            # normalised and used
    out[2 * CHUNK][0] = out[2 * CHUNK - 1][0] - 5_000_000_000  # 5 s back: a restart
    return out


def _reference(params, samples):
    """Apply the node's rules and WrenchMode.evaluate one message at a time."""
    mode = WrenchMode(params, added_mass='lagged')
    guard = StampGuard(1.0)
    kept, comps, counts = [], [], [0, 0, 0]
    for k, (stamp, position, quat, twist) in enumerate(samples):
        if not all(map(math.isfinite, list(position) + list(quat) + list(twist))):
            counts[0] += 1
            continue
        unit, _ = unit_quaternion(quat)
        if unit is None:
            counts[1] += 1
            continue
        verdict = guard.check('odometry', stamp)
        if verdict == 'stale_stamp':
            counts[2] += 1
            continue
        if verdict == 'stamp_jump':
            mode.reset()
        wc = mode.evaluate(stamp * 1e-9, position, unit, twist, [0.1, 0.2, 0.0])
        kept.append(k)
        comps.append([wc.components[name] for name in COMPONENT_NAMES])
    return kept, np.array(comps), counts


def test_chunked_replay_equals_message_by_message(tmp_path):
    params = full_vehicle()
    samples = _samples(2 * CHUNK + 300)
    factory = MessageFactory()
    with BagWriter(tmp_path / 'in', store=factory.store) as bag:
        for k, (stamp, position, quat, twist) in enumerate(samples):
            bag.write('/odometry', ODOMETRY, 1_000_000_000 + k, factory.odometry(
                stamp, 'odom', 'base_link', position, quat, twist))
    res = replay_wrench(tmp_path / 'in', params, out_bag=tmp_path / 'out', progress=False,
                        added_mass='lagged', current_world=[0.1, 0.2, 0.0])
    kept, comps, counts = _reference(params, samples)
    stamps = [samples[k][0] for k in kept]
    assert counts == [1, 1, 1]
    assert [res.skipped_non_finite, res.skipped_bad_quaternion,
            res.skipped_stale_stamp] == counts
    assert res.stamps_ns.tolist() == stamps
    for k, name in enumerate(COMPONENT_NAMES):
        np.testing.assert_allclose(res.components[name], comps[:, k], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(res.total, comps.sum(axis=1), rtol=1e-12, atol=1e-12)
    # the restart reset the acceleration estimate: only the current's M_A nu_dot_c is left
    restart = kept.index(2 * CHUNK)
    _, position, quat, twist = samples[2 * CHUNK]
    at_rest = HydroModel(params).wrench(twist, position, quat, nu_dot=np.zeros(6),
                                        current_world=[0.1, 0.2, 0.0])
    np.testing.assert_allclose(res.components['added_mass'][restart],
                               at_rest.components['added_mass'], rtol=1e-12, atol=1e-12)
    assert np.max(np.abs(res.components['added_mass'][restart + 1]
                         - at_rest.components['added_mass'])) > 1.0
    # what was written is what was computed, on the node's topics
    topics = output_topics()
    written = {}
    for topic, _, msg in read_messages(tmp_path / 'out', [topics['wrench'],
                                                          topics['wrench_world']]):
        written.setdefault(topic, []).append(wrench_array(msg))
    np.testing.assert_array_equal(np.array(written[topics['wrench']]), res.total)
    world = np.array(written[topics['wrench_world']])
    for row, k in enumerate(kept):
        unit = samples[k][2] / np.linalg.norm(samples[k][2])
        np.testing.assert_allclose(world[row], world_wrench(res.total[row], unit), atol=1e-9)


def test_a_truncated_odometry_message_names_its_bag_time(tmp_path):
    factory = MessageFactory()
    with BagWriter(tmp_path / 'bad', store=factory.store) as bag:
        good = factory.store.serialize_cdr(factory.odometry(
            1, 'odom', 'base_link', [0, 0, -5], [1, 0, 0, 0], [0] * 6), ODOMETRY)
        bag.write_raw('/odometry', ODOMETRY, 10, bytes(good))
        bag.write_raw('/odometry', ODOMETRY, 20, bytes(good)[:120])
    with pytest.raises(BagError, match='bag time 20 ns cannot be decoded: truncated '
                                       'nav_msgs/Odometry'):
        replay_wrench(tmp_path / 'bad', full_vehicle(), progress=False)
