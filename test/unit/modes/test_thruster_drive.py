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

"""Per-thruster commands: gz-sim topic names, watchdog to neutral, feedback, reset."""
import numpy as np
import pytest
from required_modules import require

from uwv_hydro.modes.thruster_drive import GZ_TOPIC_PATTERN, thruster_topics, ThrusterDrive
from uwv_hydro.physics.actuators.thruster_spec import ThrusterSpec

MS = 10 ** 6


def test_topics_follow_gz_sim():
    spec = ThrusterSpec(joint_name='propeller_joint')
    assert thruster_topics(spec, 'tethys') == {
        'command': '/model/tethys/joint/propeller_joint/cmd_thrust',
        'force': '/model/tethys/joint/propeller_joint/force',
        'ang_vel': '/model/tethys/joint/propeller_joint/ang_vel',
        'enable_deadband': '/model/tethys/joint/propeller_joint/enable_deadband'}
    spec = ThrusterSpec(joint_name='j', use_angvel_cmd=True, namespace='auv1')
    assert thruster_topics(spec, 'tethys')['command'] == '/model/auv1/joint/j/cmd_vel'
    spec = ThrusterSpec(joint_name='j', topic='thrusters/0/', namespace='/auv1')
    assert thruster_topics(spec, 'tethys') == {
        'command': '/auv1/thrusters/0', 'force': '/auv1/thrusters/0/force',
        'ang_vel': '/auv1/thrusters/0/ang_vel',
        'enable_deadband': '/auv1/thrusters/0/enable_deadband'}
    relative = thruster_topics(ThrusterSpec(joint_name='j'), 'rov', 'thrusters/{joint}/{cmd}')
    assert relative['command'] == 'thrusters/j/cmd_thrust'


def test_stale_command_goes_neutral_through_the_dynamics_and_recovers():
    specs = [ThrusterSpec(joint_name='a', time_constant=0.1),
             ThrusterSpec(joint_name='b', lookup_command=(1100.0, 1500.0, 1900.0),
                          lookup_thrust=(-40.0, 0.0, 50.0))]
    drive = ThrusterDrive(specs, 1000.0, timeout_s=0.2)
    wrench, stale, back = drive.step(0.01, 0)
    assert not wrench.any() and drive.state('a') == 'waiting'
    assert drive.bank.state[1] == 1500.0  # no command: the table's neutral
    drive.command('a', 10.0, 0)
    drive.command('b', 1900.0, 0)
    for k in range(1, 21):
        wrench, stale, back = drive.step(0.01, k * 10 * MS)
    assert drive.bank.thrust[0] == pytest.approx(10.0 * (1.0 - np.exp(-2.0)), rel=1e-12)
    assert drive.bank.thrust[1] == 50.0
    assert wrench[0] == drive.bank.thrust[0] + drive.bank.thrust[1]
    wrench, stale, back = drive.step(0.01, 210 * MS)  # 0.21 s since the commands
    assert stale == ['a', 'b'] and drive.state('a') == 'stale'
    assert drive.bank.state[1] == 1500.0 and drive.bank.thrust[1] == 0.0
    before = drive.bank.thrust[0]
    # decays through the first-order lag, not cut
    assert before == pytest.approx(10.0 * (1.0 - np.exp(-2.0)) * np.exp(-0.1), rel=1e-12)
    drive.command('a', -5.0, 215 * MS)
    wrench, stale, back = drive.step(0.01, 220 * MS)
    assert back == ['a'] and drive.state('b') == 'stale'
    assert list(drive.counts) == [2, 1]
    drive.reset()
    assert drive.state('a') == 'waiting' and not drive.bank.wrench().any()


def test_topic_pattern_parameter_is_checked():
    require('rcl_interfaces')
    from uwv_hydro.node.parameters import check
    assert check({'thruster_topic_pattern': GZ_TOPIC_PATTERN}) == []
    assert check({'thruster_topic_pattern': 'thrusters/{joint}/{cmd}'}) == []
    for bad in ('/x/{foo}', '/x/{cmd}', '/x/{joint'):
        (problem,) = check({'thruster_topic_pattern': bad})
        assert 'thruster_topic_pattern' in problem and bad in problem


def test_rotors_advance_once_per_integration_step_also_in_catch_up():
    from uwv_hydro.description.loader import load_vehicle
    from uwv_hydro.modes.simulate_mode import SimulateMode
    import pathlib
    params = load_vehicle(str(pathlib.Path(__file__).resolve().parents[3] / 'config'
                              / 'remus100.yaml'))
    runs = []
    for period_per_call in (1, 5):  # five updates of one step, or one update of five
        mode = SimulateMode(params, dt=0.01, max_catchup_steps=10)
        drive = ThrusterDrive(params.thrusters, params.fluid_density, timeout_s=10.0)
        drive.command('propeller_joint', 8.0, 0)
        mode.advance(0)
        for call in range(1, 5 // period_per_call + 1):
            now = call * period_per_call * 10 * MS
            mode.advance(now, thrust=lambda x, now=now: drive.step(0.01, now, x[7:13])[0])
        runs.append((np.array(mode.x), drive.bank.thrust[0]))
    np.testing.assert_array_equal(runs[0][0], runs[1][0])
    # five first-order steps of 0.01 s towards 8 N with tau = 0.2 s
    assert runs[0][1] == runs[1][1] == pytest.approx(8.0 * (1.0 - np.exp(-0.25)), rel=1e-12)
    assert runs[0][0][7] > 0.0  # and it pushed the vehicle forward
