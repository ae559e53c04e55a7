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
``replay --simulate`` on recorded intervals of any length, and the node's input rules.

Bags are recorded from a reference integration that builds one Simulator per distinct
step length (what a recording of that vehicle would hold); replay must reproduce it
with one Simulator, in flat memory, whatever the stamp jitter.  A stamp going back is
dropped (time is never integrated twice), a zero stamp is used at its record time,
a gap is split into stable sub-steps, and the recorded frames and covariances are kept.
"""

import math
import tracemalloc

import numpy as np
import pytest

from uwv_hydro.bag.bag_reader import read_raw_messages
from uwv_hydro.bag.cdr_codec import decode_odometry
from uwv_hydro.bag.replay_simulation import replay_simulate
from uwv_hydro.bag.rosbag_io import BagWriter, MessageFactory, ODOMETRY, WRENCH
from uwv_hydro.physics.body.dynamics import Simulator
from uwv_hydro.physics.body.vehicle_params import VehicleParams

T0 = 5_000_000_000  # recordings start at 5 s
STEP = 10_000_000   # 100 Hz


def _vehicle():
    """Return a coupled, slightly positive body (drag, added mass, CoB above CoM)."""
    lin = np.diag([8.0, 20.0, 20.0, 2.0, 4.0, 4.0])
    lin[0, 5] = 0.5
    quad = np.zeros((6, 6, 6))
    for i, q in enumerate([30.0, 80.0, 80.0, 3.0, 6.0, 6.0]):
        quad[i, i, i] = q
    return VehicleParams(mass=40.0, inertia=np.diag([1.5, 4.0, 4.2]),
                         com=np.array([0.02, 0.0, -0.03]), buoyancy_mass=40.4,
                         cob=np.array([0.0, 0.0, 0.04]), linear_drag=lin,
                         quadratic_drag=quad,
                         added_mass=np.diag([4.0, 30.0, 30.0, 0.3, 2.0, 2.0]))


def _thrust(k):
    """Thrust held from sample k on."""
    return [60.0, 10.0, -5.0, 0.0, 0.0, 6.0] if k < 150 else [20.0, -10.0, 0.0, 0.5, 0.0, -4.0]


def _reference(params, stamps):
    """States at ``stamps`` (ns): one Simulator per distinct step, thrust held per step."""
    sims = {}
    x = [0.0, 0.0, -8.0, 0.99, 0.05, -0.05, 0.1, 0.4, 0.1, 0.0, 0.05, 0.0, 0.1]
    q = np.array(x[3:7]) / np.linalg.norm(x[3:7])
    x[3:7] = q.tolist()
    states = [x]
    for k in range(1, len(stamps)):
        dt_ns = stamps[k] - stamps[k - 1]
        sim = sims.get(dt_ns)
        if sim is None:
            sim = sims[dt_ns] = Simulator(params, dt=dt_ns * 1e-9)
        states.append(sim.step_flat(states[-1], _thrust(k - 1)))
    return np.array(states)


def _write(path, states, stamps, record=None, odometry_stamps=None, extra=(),
           frame='odom', child='base_link', covariance=None):
    """
    Write odometry + thrust (base frame) at ``record`` bag times (default: the stamps).

    ``odometry_stamps`` overrides the odometry header stamps (0: unstamped); ``extra``:
    (bag ns, topic, header stamp, payload) messages added after the sample at that time.
    """
    factory = MessageFactory()
    record = stamps if record is None else record
    odometry_stamps = stamps if odometry_stamps is None else odometry_stamps
    pose_cov, twist_cov = (None, None) if covariance is None else covariance
    extra = sorted(extra)
    with BagWriter(path, store=factory.store) as bag:
        for k, x in enumerate(states):
            bag.write('/thrust', WRENCH, record[k], factory.wrench(
                stamps[k], 'base_link', _thrust(k)))
            bag.write('/odometry', ODOMETRY, record[k], factory.odometry(
                odometry_stamps[k], frame, child, x[:3], x[3:7], x[7:],
                pose_covariance=pose_cov, twist_covariance=twist_cov))
            for bag_ns, topic, stamp, payload in [e for e in extra if e[0] == record[k]]:
                if topic == '/thrust':
                    bag.write(topic, WRENCH, bag_ns, factory.wrench(stamp, 'base_link',
                                                                    payload))
                else:
                    bag.write(topic, ODOMETRY, bag_ns, factory.odometry(
                        stamp, frame, child, payload[:3], payload[3:7], payload[7:]))


def _replay(path, params, **kwargs):
    return replay_simulate(path, params, thrust_topics=['/thrust'], progress=False,
                           **kwargs)


def _flat(traj):
    return np.column_stack([traj.position, traj.quaternion, traj.twist])


@pytest.fixture(scope='module')
def params():
    return _vehicle()


@pytest.fixture(scope='module')
def jittered(params):
    """300 samples, 10 ms +- up to 0.2 ms (five distinct steps), and the reference."""
    rng = np.random.default_rng(3)
    steps = STEP + rng.choice([-200_000, -100_000, 0, 100_000, 200_000], size=299)
    stamps = [T0] + (T0 + np.cumsum(steps)).tolist()
    return stamps, _reference(params, stamps)


def test_jittered_stamps_reproduce_the_recording_with_one_simulator(params, jittered,
                                                                    tmp_path):
    stamps, states = jittered
    _write(tmp_path / 'rec', states, stamps)
    res = _replay(tmp_path / 'rec', params)
    assert res.predicted.t.tolist() == [s * 1e-9 for s in stamps]
    np.testing.assert_allclose(_flat(res.predicted), states, rtol=0, atol=1e-12)
    assert res.rms_position_error < 1e-12


def _peak_bytes(fn):
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_stamp_jitter_does_not_grow_memory(params, tmp_path):
    """
    With +-0.2 ms of random jitter almost every step has its own length.

    One Simulator per distinct length (~220 kB each, all kept) made the peak grow by
    tens of MB for 400 messages; one Simulator stepping every length keeps it flat.
    """
    rng = np.random.default_rng(0)
    n = 400
    plain = [T0 + k * STEP for k in range(n)]
    offsets = rng.integers(-200_000, 200_000, n - 1)
    jitter = [T0] + [s + int(j) for s, j in zip(plain[1:], offsets)]
    states = np.tile([0.0, 0.0, -8.0, 1.0, 0.0, 0.0, 0.0, 0.4, 0, 0, 0, 0, 0.1], (n, 1))
    _write(tmp_path / 'plain', states, plain)
    _write(tmp_path / 'jitter', states, jitter)
    assert len(set(np.diff(jitter).tolist())) > 300
    peaks = [_peak_bytes(lambda: _replay(tmp_path / name, params))
             for name in ('plain', 'jitter')]
    assert peaks[1] < peaks[0] + 2e6, 'peak %.1f MB with jitter, %.1f MB without' % (
        peaks[1] / 1e6, peaks[0] / 1e6)


def test_memory_is_flat_in_the_bag_length(params, tmp_path):
    """
    Trajectories not kept (the CLI without --plot): the peak does not grow with N.

    (An output bag adds the writer's batch of at most 8192 messages, a constant.)
    """
    peaks = []
    for n in (300, 1500):
        stamps = [T0 + k * STEP for k in range(n)]
        states = np.tile([0.0, 0.0, -8.0, 1.0, 0.0, 0.0, 0.0, 0.4, 0, 0, 0, 0, 0.1], (n, 1))
        _write(tmp_path / str(n), states, stamps)
        peaks.append(_peak_bytes(lambda: _replay(tmp_path / str(n), params,
                                                 keep_trajectories=False)))
    assert peaks[1] < peaks[0] + 0.5e6, 'peak %.2f MB for 1500, %.2f MB for 300' % (
        peaks[1] / 1e6, peaks[0] / 1e6)


def test_a_stamp_going_back_is_dropped_and_time_is_not_integrated_twice(params, jittered,
                                                                        tmp_path):
    stamps, states = jittered
    _write(tmp_path / 'clean', states, stamps)
    k = 100
    # odometry stamped 5 ms before the previous sample; a thrust message stamped 50 ms
    # back carrying a huge wrench: the node drops both (stale_stamp)
    back = [(stamps[k], '/odometry', stamps[k] - 5_000_000, states[k - 1].tolist()),
            (stamps[k + 20], '/thrust', stamps[k + 20] - 50_000_000, [5e4, 0, 0, 0, 0, 0])]
    _write(tmp_path / 'back', states, stamps, extra=back)
    clean = _replay(tmp_path / 'clean', params)
    res = _replay(tmp_path / 'back', params)
    assert np.all(np.diff(res.predicted.t) > 0), 'predicted times go back'
    assert (res.skipped_stale_stamp, res.dropped_thrust) == (1, 1)
    np.testing.assert_array_equal(res.predicted.t, clean.predicted.t)
    np.testing.assert_array_equal(_flat(res.predicted), _flat(clean.predicted))


def test_zero_stamps_are_used_at_their_record_time(params, jittered, tmp_path):
    """An unstamped sample is used at the bag's record time, as the node uses receipt time."""
    stamps, states = jittered
    unstamped = [0 if k % 3 == 1 else s for k, s in enumerate(stamps)]
    _write(tmp_path / 'zero', states, stamps, odometry_stamps=unstamped)
    res = _replay(tmp_path / 'zero', params)
    assert res.predicted.t.tolist() == [s * 1e-9 for s in stamps]
    np.testing.assert_allclose(_flat(res.predicted), states, rtol=0, atol=1e-12)


def test_recorded_frames_and_covariances_are_kept(params, jittered, tmp_path):
    stamps, states = jittered
    pose_cov = np.diag([0.01, 0.01, 0.04, 0.001, 0.001, 0.002]).ravel()
    twist_cov = np.diag([0.002, 0.002, 0.003, 1e-4, 1e-4, 2e-4]).ravel()
    _write(tmp_path / 'rec', states[:50], stamps[:50], frame='map', child='auv1/base_link',
           covariance=(pose_cov, twist_cov))
    _replay(tmp_path / 'rec', params, out_bag=tmp_path / 'out')
    recorded = [(ns, bytes(raw)) for _, ns, raw, _ in
                read_raw_messages(tmp_path / 'rec', ['/odometry'])]
    copied = [(ns, bytes(raw)) for _, ns, raw, _ in
              read_raw_messages(tmp_path / 'out', ['/odometry'])]
    assert copied == recorded  # as recorded: stamps, frames, covariances
    predicted = [decode_odometry(raw, covariances=True) for _, _, raw, _ in
                 read_raw_messages(tmp_path / 'out', ['/predicted/odometry'])]
    assert len(predicted) == 50
    for k, (sec, nanosec, frame, child, position, _, _, _, _) in enumerate(predicted):
        assert (frame, child) == ('map', 'auv1/base_link')
        assert sec * 1_000_000_000 + nanosec == stamps[k]
        np.testing.assert_allclose(position, states[k][:3], rtol=0, atol=1e-12)


def test_a_gap_is_split_into_stable_sub_steps(tmp_path):
    """
    Surge under thrust F and linear drag d: u(t) = F/d (1 - exp(-d t / (m + A))).

    10 Hz odometry at rest, then the thrust starts and nothing is recorded for 2 s.
    One RK4 step over the gap (|lambda| h = 20) is far outside RK4's stability region;
    the sub-steps keep |lambda| h <= 2.5 (physics.body.stability), so the prediction after
    the gap is bounded and near F/d.
    """
    m, a, d, force = 8.0, 2.0, 100.0, 50.0
    params = VehicleParams(mass=m, inertia=np.diag([1.0, 2.0, 2.0]), gravity=0.0,
                           added_mass=np.diag([a, 1.0, 1.0, 0.1, 0.2, 0.2]),
                           linear_drag=np.diag([d, 1.0, 1.0, 1.0, 1.0, 1.0]))
    factory = MessageFactory()
    times = [T0 + k * 100_000_000 for k in range(11)] + [T0 + 3_000_000_000]
    with BagWriter(tmp_path / 'gap', store=factory.store) as bag:
        for ns in times:
            t = (ns - T0 - 1e9) * 1e-9
            u = force / d * (1.0 - math.exp(-d / (m + a) * t)) if t > 0 else 0.0
            bag.write('/thrust', WRENCH, ns, factory.wrench(
                ns, 'base_link', [force if t >= 0 else 0.0, 0, 0, 0, 0, 0]))
            bag.write('/odometry', ODOMETRY, ns, factory.odometry(
                ns, 'odom', 'base_link', [0, 0, -50], [1, 0, 0, 0], [u, 0, 0, 0, 0, 0]))
    res = replay_simulate(tmp_path / 'gap', params, thrust_topics=['/thrust'],
                          thrust_timeout=5.0, progress=False)
    u_after = res.predicted.twist[-1, 0]
    # 9 sub-steps at |lambda| h <= 2.5 leave < 0.65^9 = 2 % of the transient
    assert abs(u_after - force / d) < 0.05 * force / d, u_after
    # the surge mode |lambda| = d / (m + A) is the stiffest (with Coriolis at speed a bit
    # more): h <= 2.5 / |lambda|
    assert 0.9 * 2.5 / (d / (m + a)) < res.max_substep <= 2.5 / (d / (m + a))
