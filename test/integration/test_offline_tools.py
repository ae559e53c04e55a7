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
Offline tools: ``simulate`` and ``replay`` (wrench mode and --simulate), through the CLI.

Checked against analytic results (terminal speed), against the physics core evaluated
independently per message, and for determinism (byte-identical outputs).
"""

import math
import re
import subprocess
import sys

from conftest import REPO
import numpy as np
import pytest

# Neutrally buoyant body, CoB = CoM = origin, only quadratic surge drag and surge added
# mass: under constant surge thrust F the terminal speed is sqrt(F / Q_xxx).
BODY_YAML = """
uwv_hydro:
  ros__parameters:
    vehicle:
      name: test_body
      mass: 50.0
      inertia: {ixx: 2.0, iyy: 5.0, izz: 5.0}
      buoyancy_mass: 50.0
      linear_drag: {xx: 0.0, yy: 30.0, zz: 30.0, rr: 5.0, pp: 5.0, hh: 5.0}
      quadratic_drag: {xxx: 40.0}
      added_mass: {xx: 10.0, yy: 40.0, zz: 40.0, rr: 0.5, pp: 2.0, hh: 2.0}
"""


def run_cli(*args, check=True):
    proc = subprocess.run([sys.executable, '-m', 'uwv_hydro', *map(str, args)],
                          capture_output=True, text=True, cwd=str(REPO), timeout=300)
    if check and proc.returncode != 0:
        raise AssertionError('exit %d\n%s\n%s' % (proc.returncode, proc.stdout, proc.stderr))
    return proc


@pytest.fixture
def body(tmp_path):
    path = tmp_path / 'body.yaml'
    path.write_text(BODY_YAML)
    return path


def load(path):
    from uwv_hydro.description.loader import load_vehicle
    return load_vehicle(str(path))


def test_simulate_csv_header_rows_and_terminal_speed(body, tmp_path):
    out = tmp_path / 'traj.csv'
    run_cli('simulate', body, '--duration', 60, '--dt', 0.02, '--thrust', 90, 0, 0, 0, 0, 0,
            '--initial-position', 0, 0, -20, '--out', out)
    lines = out.read_text().splitlines()
    assert lines[0] == 't,x,y,z,qw,qx,qy,qz,u,v,w,p,q,r'
    assert len(lines) == 1 + 3001
    data = np.loadtxt(out, delimiter=',', skiprows=1)
    assert data[0, 0] == 0.0 and math.isclose(data[-1, 0], 60.0)
    np.testing.assert_allclose(data[0, 1:4], [0, 0, -20])
    u_terminal = math.sqrt(90 / 40.0)  # F = Q u|u|
    assert abs(data[-1, 8] - u_terminal) < 1e-6 * u_terminal
    # position integrates the velocity: x(60) < u_terminal * 60 and close to it
    assert 0.9 * u_terminal * 60 < data[-1, 1] < u_terminal * 60
    np.testing.assert_allclose(np.linalg.norm(data[:, 4:8], axis=1), 1.0, atol=1e-12)


def test_simulate_is_byte_identical_across_runs(body, tmp_path):
    outs = []
    for i in range(2):
        (tmp_path / str(i)).mkdir()
        csv_out = tmp_path / str(i) / 'a.csv'
        bag_out = tmp_path / str(i) / 'a.mcap'
        for out in (csv_out, bag_out):
            run_cli('simulate', body, '--duration', 2, '--thrust', 10, 5, 0, 0, 0, 1,
                    '--initial-velocity', 0.1, 0, 0, 0, 0, 0.05, '--out', out)
        outs.append((csv_out.read_bytes(), bag_out.read_bytes()))
    assert outs[0] == outs[1]


def test_simulate_out_mcap_writes_that_one_file(body, tmp_path):
    """``--out x.mcap`` is the MCAP file x.mcap; another path is a rosbag2 directory."""
    from uwv_hydro.bag.bag_reader import bag_topics, message_count
    out = tmp_path / 'run.mcap'
    proc = run_cli('simulate', body, '--duration', 1, '--thrust', 10, 0, 0, 0, 0, 0,
                   '--out', out)
    assert out.is_file(), 'not a file: %s' % sorted(p.name for p in tmp_path.iterdir())
    assert out.read_bytes()[:8] == b'\x89MCAP0\r\n'  # the MCAP magic
    assert sorted(p.name for p in tmp_path.iterdir()) == ['body.yaml', 'run.mcap']
    assert 'wrote %s (MCAP file)' % out in proc.stdout
    assert set(bag_topics(out)) == {'/odometry', '/tf', '/tf_static', '/thrust'}
    assert message_count(out, ['/odometry']) == 101
    directory = tmp_path / 'run_bag'
    proc = run_cli('simulate', body, '--duration', 1, '--out', directory)
    assert (directory / 'metadata.yaml').is_file()
    assert 'rosbag2 directory' in proc.stdout
    # an existing output is never overwritten
    proc = run_cli('simulate', body, '--duration', 1, '--out', out, check=False)
    assert proc.returncode == 2 and 'already exists' in proc.stderr


def test_cli_round_trip_simulate_bag_then_replay_simulate(body, tmp_path):
    prof = tmp_path / 'profile.csv'
    prof.write_text('t,fx,fy,fz,tx,ty,tz\n0,60,5,-3,0,0,2\n4,10,-8,0,0.5,0,-1\n'
                    '9,0,0,0,0,0,0\n')
    run_cli('simulate', body, '--duration', 12, '--dt', 0.02, '--thrust-profile', prof,
            '--initial-position', 0, 0, -15, '--out', tmp_path / 'rec.mcap')
    proc = run_cli('replay', tmp_path / 'rec.mcap', '--vehicle', body, '--simulate',
                   '--out', tmp_path / 'pred')
    rms = float(proc.stdout.split('RMS position error ')[1].split()[0])
    assert rms < 1e-9, proc.stdout
    from uwv_hydro.bag.bag_reader import bag_topics
    assert set(bag_topics(tmp_path / 'pred')) == {'/odometry', '/predicted/odometry'}


def test_simulate_writes_a_readable_bag(body, tmp_path):
    from uwv_hydro.bag.bag_reader import bag_topics, read_messages
    from uwv_hydro.bag.rosbag_io import odometry_arrays
    out = tmp_path / 'traj_bag'
    run_cli('simulate', body, '--duration', 1, '--thrust', 10, 0, 0, 0, 0, 0, '--out', out)
    assert bag_topics(out) == {'/odometry': 'nav_msgs/msg/Odometry',
                               '/tf': 'tf2_msgs/msg/TFMessage',
                               '/tf_static': 'tf2_msgs/msg/TFMessage',
                               '/thrust': 'geometry_msgs/msg/WrenchStamped'}
    msgs = [m for _, _, m in read_messages(out, ['/odometry'])]
    assert len(msgs) == 101
    assert msgs[-1].header.frame_id == 'odom' and msgs[-1].child_frame_id == 'base_link'
    assert odometry_arrays(msgs[-1])[2][0] > 0


def test_thrust_profile_is_held_and_bad_profiles_are_named(body, tmp_path):
    prof = tmp_path / 'profile.csv'
    prof.write_text('t,fx,fy,fz,tx,ty,tz\n0,90,0,0,0,0,0\n30,0,0,0,0,0,0\n')
    out = tmp_path / 'p.csv'
    run_cli('simulate', body, '--duration', 60, '--thrust-profile', prof, '--out', out)
    data = np.loadtxt(out, delimiter=',', skiprows=1)
    u30 = data[np.argmin(abs(data[:, 0] - 30.0)), 8]
    assert abs(u30 - math.sqrt(90 / 40.0)) < 1e-3
    # after thrust stops, quadratic coast: u(t) = u0 / (1 + Q u0 t / (m + A))
    u_end = u30 / (1 + 40.0 * u30 * 30.0 / (50.0 + 10.0))
    assert abs(data[-1, 8] - u_end) < 1e-4 * u30
    bad = tmp_path / 'bad.csv'
    bad.write_text('t,fx,fy,fz,tx,ty,tz\n0,1,2,3,4,5,6\n1,1,2,oops,4,5,6\n')
    proc = run_cli('simulate', body, '--duration', 1, '--thrust-profile', bad, '--out',
                   tmp_path / 'x.csv', check=False)
    assert proc.returncode == 2
    assert 'bad.csv:3' in proc.stderr and 'not a number' in proc.stderr
    # a finite wrench whose arithmetic would overflow (issue 51, item 3): refused by line
    huge = tmp_path / 'huge.csv'
    huge.write_text('t,fx,fy,fz,tx,ty,tz\n0,1,2,3,4,5,6\n1,1e308,0,0,0,0,0\n')
    proc = run_cli('simulate', body, '--duration', 1, '--thrust-profile', huge, '--out',
                   tmp_path / 'y.csv', check=False)
    assert proc.returncode == 2
    assert 'huge.csv:3' in proc.stderr and 'fx = 1e+308 is beyond 1e+09' in proc.stderr


def _record_bag(params, path, duration=20.0, dt=0.05, frame=''):
    """Simulate a manoeuvre and record odometry + the thrust that drove it."""
    from uwv_hydro.modes.offline_simulation import simulate
    from uwv_hydro.bag.rosbag_io import BagWriter, MessageFactory, ODOMETRY, WRENCH
    from uwv_hydro.modes.thrust_profile import ThrustProfile
    profile = ThrustProfile([0.0, 5.0, 12.0], np.array(
        [[60, 0, 5, 0, 0, 3], [20, 10, 0, 1, 0, -2], [0, 0, 0, 0, 0, 0]], float))
    traj = simulate(params, duration, dt=dt, thrust=profile)
    factory = MessageFactory()
    with BagWriter(path, store=factory.store) as bag:
        for k, t in enumerate(traj.t):
            ns = int(round(t * 1e9))
            bag.write('/thrust', WRENCH, ns, factory.wrench(ns, frame, profile(t)))
            bag.write('/odometry', ODOMETRY, ns, factory.odometry(
                ns, 'odom', 'base_link', traj.position[k], traj.quaternion[k],
                traj.twist[k]))
    return traj


def test_round_trip_simulate_bag_replay_simulate(body, tmp_path):
    params = load(body)
    traj = _record_bag(params, tmp_path / 'rec')
    proc = run_cli('replay', tmp_path / 'rec', '--vehicle', body, '--simulate',
                   '--out', tmp_path / 'pred', '--plot', tmp_path / 'pred.png')
    assert 'RMS position error' in proc.stdout
    from uwv_hydro.bag.replay_simulation import replay_simulate
    res = replay_simulate(tmp_path / 'rec', params, thrust_topics=['/thrust'],
                          progress=False)
    assert res.rms_position_error < 1e-9 and res.rms_velocity_error < 1e-9
    np.testing.assert_allclose(res.predicted.position, traj.position, atol=1e-9)
    assert traj.position[-1, 0] > 1.0  # the manoeuvre went somewhere
    assert (tmp_path / 'pred.png').stat().st_size > 10000


def test_replay_wrench_equals_the_core_model_per_message(body, tmp_path):
    from uwv_hydro.physics.hydro.hydro_model import HydroModel
    from uwv_hydro.physics.spatial.rotation import quat_to_matrix
    from uwv_hydro.bag.bag_reader import read_messages
    from uwv_hydro.bag.rosbag_io import stamp_to_ns, wrench_array
    params = load(body)
    traj = _record_bag(params, tmp_path / 'rec', duration=5.0)
    run_cli('replay', tmp_path / 'rec', '--vehicle', body, '--out', tmp_path / 'out',
            '--current', 0.2, -0.1, 0, '--components')
    model = HydroModel(params)
    got = {}
    wanted = ['/hydro/wrench', '/hydro/wrench_world', '/hydro/components/weight']
    for topic, bag_ns, msg in read_messages(tmp_path / 'out', wanted):
        assert stamp_to_ns(msg.header.stamp) == bag_ns
        got.setdefault(topic, []).append(wrench_array(msg))
    assert len(got['/hydro/wrench']) == len(traj.t)
    for k in range(len(traj.t)):
        wc = model.wrench(traj.twist[k], position=traj.position[k],
                          quaternion=traj.quaternion[k], current_world=[0.2, -0.1, 0],
                          engine_added_mass=True)  # replay's default added_mass: implicit
        expected = wc.total - wc.components['weight']  # simulators apply gravity
        np.testing.assert_allclose(got['/hydro/wrench'][k], expected, rtol=0, atol=1e-9)
        rot = quat_to_matrix(traj.quaternion[k])
        np.testing.assert_allclose(got['/hydro/wrench_world'][k][:3], rot @ expected[:3],
                                   atol=1e-9)
        assert not np.any(got['/hydro/components/weight'][k])
    plain = tmp_path / 'plain'
    run_cli('replay', tmp_path / 'rec', '--vehicle', body, '--out', plain)
    from uwv_hydro.bag.bag_reader import bag_topics
    assert set(bag_topics(plain)) == {'/hydro/wrench', '/hydro/wrench_world'}


def test_replay_lagged_added_mass_recovers_a_constant_acceleration(body, tmp_path):
    """Surge u = a t: the lagged estimate converges to a, so added_mass -> -A_xx a."""
    from uwv_hydro.bag.replay import replay_wrench
    from uwv_hydro.bag.rosbag_io import BagWriter, MessageFactory, ODOMETRY
    params = load(body)
    factory = MessageFactory()
    a = 0.4
    with BagWriter(tmp_path / 'acc', store=factory.store) as bag:
        for k in range(200):
            t = k * 0.01
            ns = int(round(t * 1e9))
            bag.write('/odometry', ODOMETRY, ns, factory.odometry(
                ns, 'odom', 'base_link', [0.5 * a * t * t, 0, -10], [1, 0, 0, 0],
                [a * t, 0, 0, 0, 0, 0]))
    res = replay_wrench(tmp_path / 'acc', params, added_mass='lagged', progress=False)
    assert res.components['added_mass'][0][0] == 0.0  # no history on the first sample
    np.testing.assert_allclose(res.components['added_mass'][-1][0], -10.0 * a, rtol=1e-6)


def test_replay_drops_what_the_node_drops(body, tmp_path):
    """
    Skip what the node drops, by the node's rules (input_guard, wrench_mode).

    Non-finite covariance, a zero quaternion and a stale stamp are skipped; |q| = 1.3 is
    normalised and used.
    """
    from uwv_hydro.physics.hydro.hydro_model import HydroModel
    from uwv_hydro.bag.replay import replay_wrench
    from uwv_hydro.bag.rosbag_io import BagWriter, MessageFactory, ODOMETRY
    params = load(body)
    factory = MessageFactory()
    nu = [0.5, 0.1, 0.0, 0.0, 0.02, 0.1]
    q = np.array([0.95, 0.1, -0.2, 0.2])
    q /= np.linalg.norm(q)
    bad_cov = np.zeros(36)
    bad_cov[7] = np.nan
    cases = [  # (stamp ns, quaternion, twist covariance)
        (1_000_000_000, q, None),
        (1_100_000_000, q, bad_cov),          # non-finite covariance: dropped
        (1_200_000_000, [0, 0, 0, 0], None),   # zero quaternion: dropped
        (1_300_000_000, 1.3 * q, None),        # normalised and used
        (1_250_000_000, q, None),              # 50 ms back: stale, dropped
        (1_400_000_000, q, None),
    ]
    with BagWriter(tmp_path / 'faults', store=factory.store) as bag:
        for k, (ns, quat, cov) in enumerate(cases):
            bag.write('/odometry', ODOMETRY, 1_000_000_000 + k, factory.odometry(
                ns, 'odom', 'base_link', [0, 0, -10], quat, nu, twist_covariance=cov))
    res = replay_wrench(tmp_path / 'faults', params, progress=False)
    assert (res.skipped_non_finite, res.skipped_bad_quaternion,
            res.skipped_stale_stamp) == (1, 1, 1)
    assert res.stamps_ns.tolist() == [1_000_000_000, 1_300_000_000, 1_400_000_000]
    wc = HydroModel(params).wrench(nu, [0, 0, -10], q, engine_added_mass=True)
    np.testing.assert_allclose(res.total[1], wc.total - wc.components['weight'],
                               rtol=0, atol=1e-9)


def test_replay_names_a_missing_topic_and_lists_the_topics(body, tmp_path):
    params = load(body)
    _record_bag(params, tmp_path / 'rec', duration=1.0)
    proc = run_cli('replay', tmp_path / 'rec', '--vehicle', body, '--out', tmp_path / 'o',
                   '--odometry-topic', '/nav/odom', check=False)
    assert proc.returncode == 2
    assert '/nav/odom not in bag' in proc.stderr
    assert '/odometry (nav_msgs/msg/Odometry)' in proc.stderr
    assert '/thrust (geometry_msgs/msg/WrenchStamped)' in proc.stderr


def test_replay_is_byte_identical_across_runs(body, tmp_path):
    params = load(body)
    _record_bag(params, tmp_path / 'rec', duration=2.0)
    blobs = []
    for i in range(2):
        (tmp_path / str(i)).mkdir()
        out = tmp_path / str(i) / 'o'
        run_cli('replay', tmp_path / 'rec', '--vehicle', body, '--out', out,
                '--added-mass', 'lagged')
        blobs.append(b''.join(p.read_bytes() for p in sorted(out.iterdir())))
    assert blobs[0] == blobs[1]


@pytest.mark.parametrize('roll_damping', [1.0e4, 1.0e12])
def test_simulate_reports_the_sub_steps_it_used_and_every_restored_step(
        tmp_path, roll_damping):
    """
    Linear roll damping D on roll inertia I + K_pdot = 2.5 kg m^2: |lambda| = D / 2.5 1/s.

    The printed sub-steps are those the stiffness rule chose (|lambda| h <= 2.5, RK4),
    not the --substeps asked.  Past 1000 sub-steps the run warns before it starts, and
    steps that stay non-finite are counted, not passed over in silence.
    """
    path = tmp_path / 'stiff.yaml'
    path.write_text(BODY_YAML.replace('rr: 5.0', 'rr: %r' % roll_damping))
    proc = run_cli('simulate', path, '--duration', 0.1, '--dt', 0.02, '--out',
                   tmp_path / 'out.csv', '--initial-velocity', 0, 0, 0, 0.1, 0, 0)
    lam, dt = roll_damping / 2.5, 0.02
    used = int(re.search(r'dt 0\.02, (\d+) substeps', proc.stdout).group(1))
    if lam * dt / 1000 <= 2.5:
        assert math.ceil(lam * dt / 2.5) <= used <= math.ceil(lam * dt / 2.5) + 1
        assert 'warning' not in proc.stderr, proc.stderr
        data = np.loadtxt(tmp_path / 'out.csv', delimiter=',', skiprows=1)
        # roll rate p(t) = p0 exp(-lambda t): gone within the first step
        assert abs(data[-1, 11]) < 1e-6
    else:
        assert used == 1000
        lines = proc.stderr.splitlines()
        assert lines[0].startswith('warning: stiffest mode |lambda| = 4e+11 1/s needs more '
                                   'than 1000 sub-steps at 0.02 s'), proc.stderr
        assert re.search(r'warning: (\d+) steps went non-finite and were recomputed with '
                         r'more sub-steps; \1 stayed non-finite', proc.stderr), proc.stderr
