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
One current field through the four entry points: the same wrench and states.

The node (wrench and simulate mode) over DDS, ``wrench``, ``replay``, ``simulate`` and
``replay --simulate``.

The field is a gz-sim current CSV (EnvironmentPreload columns, Hydrodynamics
``lookup_current_*``) varying in x, y, z and time, so that the current, its gradient
and its time rate all enter.
"""
import json

from nodes.harness import odometry_msg, Probe, REPO, start_node
import numpy as np
import pytest

VEHICLE = str(REPO / 'config' / 'remus100.yaml')
POSITION = [3.0, 6.0, -7.0]
Q = [0.95, 0.1, -0.2, 0.2]
SAMPLES = [([0.7, -0.2, 0.1, 0.05, -0.03, 0.2], 10 ** 9),
           ([0.75, -0.18, 0.09, 0.06, -0.03, 0.18], 10 ** 9 + 25 * 10 ** 7)]


def write_field(tmp_path):
    """Write a 2 x 2 x 2 grid at t = 0 and t = 1 s and its current description."""
    rows = ['time,px,py,pz,east,north,up']
    for t in (0.0, 1.0):
        for x in (0.0, 10.0):
            for y in (0.0, 10.0):
                for z in (-10.0, 0.0):
                    # any values: trilinear in space, linear in time
                    e = 0.2 + 0.02 * x - 0.01 * y + 0.005 * x * y * (1 + t) + 0.01 * z
                    n = -0.1 + 0.03 * y + 0.002 * x * z - 0.2 * t
                    u = 0.01 * z * (1 - t) + 0.001 * x * y * z
                    rows.append('%g,%g,%g,%g,%r,%r,%r' % (t, x, y, z, e, n, u))
    (tmp_path / 'grid.csv').write_text('\n'.join(rows) + '\n')
    path = tmp_path / 'current.yaml'
    path.write_text('current:\n  type: csv\n  data: grid.csv\n  dimensions:\n'
                    '    time: time\n    space: {reference: global, x: px, y: py, z: pz}\n'
                    '  lookup_current_x: east\n  lookup_current_y: north\n'
                    '  lookup_current_z: up\n')
    return str(path)


def cli_wrench(capsys, field_file, nu, t):
    """Return the ``wrench`` command's total for one sample at field time t."""
    from uwv_hydro.cli.main import main
    argv = ['wrench', VEHICLE, '--velocity', *map(repr, nu), '--position',
            *map(repr, POSITION), '--orientation', *map(repr, Q), '--json',
            '--current-file', field_file, '--time', repr(t)]
    assert main(argv) == 0
    return np.array(json.loads(capsys.readouterr().out)['total'])


def _close(a, b, rel=1e-12):
    """Return |a - b| <= rel max(1, |a|): equal up to the rounding of a few operations."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    return float(np.max(np.abs(a - b))) <= rel * max(1.0, float(np.max(np.abs(a))))


def test_wrench_command_sees_the_grid_current_and_its_rates(tmp_path, capsys):
    """The current changes the wrench, and its time rate enters (t = 0.25 vs 0.75 differ)."""
    field_file = write_field(tmp_path)
    nu = SAMPLES[0][0]
    a, b = cli_wrench(capsys, field_file, nu, 0.25), cli_wrench(capsys, field_file, nu, 0.75)
    assert np.max(np.abs(a - b)) > 1e-3


def test_wrench_json_lists_the_current_file_warnings(tmp_path, capsys):
    """A lookup column the CSV lacks warns on stderr and in the JSON "warnings" list."""
    from uwv_hydro.cli.main import main
    field_file = write_field(tmp_path)
    text = open(field_file).read().replace('lookup_current_z: up', 'lookup_current_z: vz')
    open(field_file, 'w').write(text)
    argv = ['wrench', VEHICLE, '--velocity', *map(repr, SAMPLES[0][0]), '--json',
            '--current-file', field_file]
    assert main(argv) == 0
    captured = capsys.readouterr()
    warnings = json.loads(captured.out)['warnings']
    assert any('vz' in w for w in warnings), warnings
    assert 'vz' in captured.err


def test_replay_gives_the_wrench_command_s_wrench(tmp_path, capsys):
    """``replay`` over a bag of the samples (field time from the first) = ``wrench`` at t."""
    from uwv_hydro.bag.replay import replay_wrench
    from uwv_hydro.bag.trajectory_bag import write_bag
    from uwv_hydro.description.current_file import load_current_file
    from uwv_hydro.description.loader import load_vehicle
    from uwv_hydro.modes.offline_simulation import Trajectory
    field_file = write_field(tmp_path)
    t = np.array([s[1] for s in SAMPLES]) * 1e-9
    q = np.array(Q) / np.linalg.norm(Q)
    traj = Trajectory(t, np.tile(POSITION, (2, 1)), np.tile(q, (2, 1)),
                      np.array([s[0] for s in SAMPLES]))
    write_bag(traj, tmp_path / 'in.mcap')
    field, _ = load_current_file(field_file)
    res = replay_wrench(tmp_path / 'in.mcap', load_vehicle(VEHICLE), progress=False,
                        current_field=field)
    for k, (nu, stamp) in enumerate(SAMPLES):
        expected = cli_wrench(capsys, field_file, nu, (stamp - SAMPLES[0][1]) * 1e-9)
        assert _close(expected, res.total[k]), (expected, res.total[k])


def test_simulate_and_replay_simulate_agree_in_the_field(tmp_path):
    """``simulate`` in the field, recorded; ``replay --simulate`` of it: the same states."""
    from uwv_hydro.bag.replay_simulation import replay_simulate
    from uwv_hydro.bag.trajectory_bag import write_bag
    from uwv_hydro.description.current_file import load_current_file
    from uwv_hydro.description.loader import load_vehicle
    from uwv_hydro.modes.offline_simulation import simulate
    from uwv_hydro.physics.body.dynamics import State
    field_file = write_field(tmp_path)
    params = load_vehicle(VEHICLE)
    initial = State(POSITION, [1.0, 0.0, 0.0, 0.0], [1.0, 0.1, 0.0, 0.0, 0.0, 0.05])
    field, _ = load_current_file(field_file)
    traj = simulate(params, 1.0, dt=0.01, initial=initial, current_field=field)
    still, _ = load_current_file(field_file)
    alone = simulate(params, 1.0, dt=0.01, initial=initial)
    # the field moves the body (vs still water) by far more than the agreement below
    assert np.max(np.abs(traj.position - alone.position)) > 1e-3
    write_bag(traj, tmp_path / 'sim.mcap')
    field, _ = load_current_file(field_file)
    res = replay_simulate(tmp_path / 'sim.mcap', params, progress=False,
                          current_field=field)
    assert res.samples == len(traj.t)
    # the same steps from the recorded start (stamps in ns: dt rounds to 1e-17 s)
    assert res.final_position_error < 1e-9, res.final_position_error
    assert res.rms_velocity_error < 1e-9, res.rms_velocity_error


@pytest.mark.ros
def test_node_wrench_mode_publishes_the_wrench_command_s_wrench(
        rclpy_context, spawn, tmp_path, capsys):
    """Over DDS: the node's hydro/wrench and current_velocity = the offline ones (1e-12)."""
    from geometry_msgs.msg import TwistStamped, WrenchStamped
    from nav_msgs.msg import Odometry
    from uwv_hydro.description.current_file import load_current_file
    field_file = write_field(tmp_path)
    proc, log = start_node(spawn, tmp_path, {
        'vehicle_file': VEHICLE, 'mode': 'wrench', 'rate_hz': 50.0, 'odometry_timeout': 600.0,
        'publish_on': 'odometry', 'current_file': field_file, 'current_publish_period': 0.0})
    probe = Probe(rclpy_context)
    body = probe.collect(WrenchStamped, 'hydro/wrench')
    water = probe.collect(TwistStamped, 'hydrodynamics/current_velocity')
    pub = probe.publisher(Odometry, 'odometry')
    assert probe.wait_matched(pub, proc=proc, log=log)

    def by_stamp(messages):  # a sample sent again is answered again, the same
        return {m.header.stamp.sec * 10 ** 9 + m.header.stamp.nanosec: m for m in messages}

    for k, (nu, stamp) in enumerate(SAMPLES):
        assert probe.publish_until(
            pub, odometry_msg(POSITION, Q, nu, stamp),
            lambda stamp=stamp: stamp in by_stamp(body) and stamp in by_stamp(water),
            proc=proc, log=log), 'no wrench for sample %d' % k
    probe.close()
    body, water = by_stamp(body), by_stamp(water)
    field, _ = load_current_file(field_file)
    for k, (nu, stamp) in enumerate(SAMPLES):
        t = (stamp - SAMPLES[0][1]) * 1e-9
        w = body[stamp].wrench
        got = [w.force.x, w.force.y, w.force.z, w.torque.x, w.torque.y, w.torque.z]
        expected = cli_wrench(capsys, field_file, nu, t)
        assert _close(expected, got), (k, expected, got)
        v = water[stamp].twist.linear
        assert _close(field.velocity(POSITION, t), [v.x, v.y, v.z])


@pytest.mark.ros
def test_node_simulate_mode_feels_the_field_at_its_position_and_time(
        rclpy_context, spawn, tmp_path):
    """Over DDS: the published current is the field at each odometry's position and time."""
    from geometry_msgs.msg import TwistStamped
    from nav_msgs.msg import Odometry
    from std_srvs.srv import Trigger
    from uwv_hydro.description.current_file import load_current_file
    field_file = write_field(tmp_path)
    proc, log = start_node(spawn, tmp_path, {
        'vehicle_file': VEHICLE, 'mode': 'simulate', 'rate_hz': 50.0,
        'current_file': field_file, 'current_publish_period': 0.0,
        'initial_position': POSITION,
        'initial_velocity': [1.0, 0.1, 0.0, 0.0, 0.0, 0.05]})
    probe = Probe(rclpy_context)
    odom = probe.collect(Odometry, 'odometry')
    water = probe.collect(TwistStamped, 'hydrodynamics/current_velocity')
    assert probe.spin_until(lambda: len(water) > 2, timeout=30.0, proc=proc, log=log)

    def started():
        return [m for m in odom if [m.pose.pose.position.x, m.pose.pose.position.y,
                                    m.pose.pose.position.z] == POSITION]
    before = len(started())
    # a reset restarts the state and the field's clock: the next initial state is t = 0
    client = probe.node.create_client(Trigger, 'uwv_hydro/reset')
    assert probe.spin_until(client.service_is_ready, timeout=30.0, proc=proc, log=log)
    future = client.call_async(Trigger.Request())
    assert probe.spin_until(future.done, timeout=30.0, proc=proc, log=log)
    assert future.result().success
    assert probe.spin_until(lambda: len(started()) > before, timeout=30.0, proc=proc, log=log)
    n_water = len(water)
    assert probe.spin_until(lambda: len(water) > n_water + 40, timeout=30.0, proc=proc,
                            log=log)
    probe.close()
    field, _ = load_current_file(field_file)
    by_stamp = {(m.header.stamp.sec, m.header.stamp.nanosec): m for m in odom}
    start = started()[-1].header.stamp
    checked = 0
    for w in water:
        m = by_stamp.get((w.header.stamp.sec, w.header.stamp.nanosec))
        # the node's field time: steps of 0.02 s since the start (stamps: ns on that grid)
        k = round(((w.header.stamp.sec - start.sec) * 10 ** 9
                   + w.header.stamp.nanosec - start.nanosec) / 2e7)
        t = k * 0.02
        if m is None or not 0 < k < 45:  # inside the data (t < 1 s): not at its edge
            continue
        p = m.pose.pose.position
        v = w.twist.linear
        assert _close(field.velocity([p.x, p.y, p.z], t), [v.x, v.y, v.z]), t
        checked += 1
    assert checked >= 10
    # the body moved through the field: a real test of the sampling position
    assert abs(odom[-1].pose.pose.position.x - POSITION[0]) > 0.05
    # and the node's states are the offline simulate's, step for step
    from uwv_hydro.description.loader import load_vehicle
    from uwv_hydro.modes.offline_simulation import simulate
    from uwv_hydro.physics.body.dynamics import State
    steps = {}
    for m in odom:
        k = round(((m.header.stamp.sec - start.sec) * 10 ** 9
                   + m.header.stamp.nanosec - start.nanosec) / 2e7)
        if k >= 0:
            p = m.pose.pose.position
            steps[k] = [p.x, p.y, p.z]
    field, _ = load_current_file(field_file)
    offline = simulate(load_vehicle(VEHICLE), max(steps) * 0.02, dt=0.02, initial=State(
        POSITION, [1.0, 0.0, 0.0, 0.0], [1.0, 0.1, 0.0, 0.0, 0.0, 0.05]), current_field=field)
    assert len(steps) >= 10
    for k, position in steps.items():
        assert _close(offline.position[k], position), (k, offline.position[k], position)


@pytest.mark.ros
def test_node_with_a_bad_current_file_exits_naming_file_key_and_line(tmp_path, ros_env):
    import subprocess
    from nodes.harness import node_command, write_params
    bad = tmp_path / 'bad_current.yaml'
    bad.write_text('current:\n  type: tide\n  constituents: [{amplitude: [1, 0], period: 5}]\n')
    params = write_params(tmp_path / 'params.yaml', {
        'vehicle_file': VEHICLE, 'mode': 'simulate', 'current_file': str(bad)})
    result = subprocess.run(node_command(params), env=ros_env, capture_output=True,
                            text=True, timeout=60.0)
    assert result.returncode == 2, result.stderr
    assert '%s:3: current.constituents[0].amplitude: must be 3 finite numbers' % bad \
        in result.stderr, result.stderr
    assert 'Traceback' not in result.stderr


def test_simulate_and_replay_commands_take_the_current_file(tmp_path, capsys):
    """The CLI options reach the same functions; --current with --current-file is refused."""
    from uwv_hydro.cli.main import main
    from uwv_hydro.description.current_file import load_current_file
    from uwv_hydro.description.loader import load_vehicle
    from uwv_hydro.modes.offline_simulation import read_csv, simulate
    from uwv_hydro.physics.body.dynamics import State
    field_file = write_field(tmp_path)
    out = tmp_path / 'run.csv'
    assert main(['simulate', VEHICLE, '--duration', '0.5', '--initial-position',
                 *map(repr, POSITION), '--initial-velocity', '1', '0', '0', '0', '0', '0',
                 '--current-file', field_file, '--out', str(out)]) == 0
    field, _ = load_current_file(field_file)
    expected = simulate(load_vehicle(VEHICLE), 0.5, initial=State(
        POSITION, [1, 0, 0, 0], [1, 0, 0, 0, 0, 0]), current_field=field)
    got = read_csv(out)
    assert np.max(np.abs(got.position - expected.position)) < 1e-12
    bag = tmp_path / 'run.mcap'
    assert main(['simulate', VEHICLE, '--duration', '0.5', '--initial-position',
                 *map(repr, POSITION), '--initial-velocity', '1', '0', '0', '0', '0', '0',
                 '--thrust', '20', '0', '0', '0', '0', '0', '--current-file', field_file,
                 '--out', str(bag)]) == 0
    capsys.readouterr()
    assert main(['replay', str(bag), '--vehicle', VEHICLE, '--simulate', '--current-file',
                 field_file, '--out', str(tmp_path / 'pred.mcap')]) == 0
    assert 'final position error 0.000000 m' in capsys.readouterr().out
    assert main(['wrench', VEHICLE, '--velocity', '1', '0', '0', '0', '0', '0', '--current',
                 '0.1', '0', '0', '--current-file', field_file]) == 2
    assert 'not both' in capsys.readouterr().err
