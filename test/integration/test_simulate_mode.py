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
SimulateMode: the simulate-mode step rules, offline and in the node.

The clock rules (steps per update, catch-up limit, dropped steps, per-step callback)
are checked against counts worked out by hand; a checked step against the bare RK4
step; divergence retry and restore against the analytic quadratic-drag decay; and the
node (over DDS, /clock lock-step) against an offline SimulateMode driven through the
same fault sequence: the same states at the same stamps and the same event counts.
"""
import math
import pathlib
import time

import numpy as np
import pytest

from uwv_hydro.description.loader import load_vehicle_string
from uwv_hydro.modes.offline_simulation import simulate
from uwv_hydro.modes.simulate_mode import SimulateMode
from uwv_hydro.physics.body.dynamics import Simulator, State

DEEP = [0.0, 0.0, -10.0]


def _quadratic_vehicle(q_xxx=4.0):
    from nodes.harness import TEST_VEHICLE
    return TEST_VEHICLE.format(mass=1.0, izz=0.1, q_xxx=q_xxx, n_r=1.0)


def _state(u):
    return State(position=np.array(DEEP), quaternion=np.array([1.0, 0, 0, 0]),
                 twist=np.array([u, 0, 0, 0, 0, 0]))


def test_checked_step_equals_the_bare_rk4_step_when_nothing_diverges():
    """No divergence: SimulateMode.step is Simulator.step_flat, bit for bit."""
    params = load_vehicle_string(_quadratic_vehicle())
    mode = SimulateMode(params, dt=0.01, initial=_state(1.0))
    sim = Simulator(params, dt=0.01, substeps=mode.substeps)
    x = list(mode.x)
    tau = [3.0, 0.5, 0.0, 0.0, 0.0, 0.2]
    for _ in range(200):
        assert mode.step(tau)
        x = sim.step_flat(x, tau)
    assert mode.x == x
    assert mode.events == {'divergences': 0, 'state_restores': 0, 'lagged_steps': 0,
                           'recovered_steps': 0}


def test_advance_keeps_the_state_on_the_clock():
    """Steps per update = round(elapsed / dt), capped; behind, the lag is run at a bounded rate."""
    params = load_vehicle_string(_quadratic_vehicle())
    mode = SimulateMode(params, dt=0.01, max_catchup_steps=3, initial=_state(0.5))
    t0 = 5 * 10 ** 9
    assert mode.advance(t0) == t0  # starts the clock, no step
    assert mode.x[7] == 0.5
    assert mode.advance(t0 + 4 * 10 ** 6) is None  # 0.4 period: nothing due
    seen = []
    assert mode.advance(t0 + 2 * 10 ** 7, on_step=seen.append) == t0 + 2 * 10 ** 7
    assert seen == [t0 + 10 ** 7]  # every step but the last
    # 7 periods late with a limit of 3: 3 run, and the state time is the time simulated
    # (3 periods on), 4 periods behind the clock: never a stamp over time not simulated
    seen = []
    assert mode.advance(t0 + 9 * 10 ** 7, on_step=seen.append) == t0 + 5 * 10 ** 7
    assert mode.events['lagged_steps'] == 4 and mode.lag_ns == 4 * 10 ** 7
    assert seen == [t0 + 3 * 10 ** 7, t0 + 4 * 10 ** 7]
    # 5 steps ran in all: the same as 5 plain steps
    ref = SimulateMode(params, dt=0.01, initial=_state(0.5))
    for _ in range(5):
        ref.step()
    assert mode.x == ref.x
    assert mode.t == pytest.approx(5 * 0.01, abs=1e-15)  # the field time: simulated too
    # nu_dot is the mean acceleration over the last update (3 steps)
    assert mode.nu_dot[0] < 0.0
    # the lag is recovered at a bounded rate: one period later one step is due, and two
    # lagged steps fit under the limit of 3; each is a step run, stamped one period on
    assert mode.due(t0 + 10 * 10 ** 7) == 1
    seen = []
    assert mode.advance(t0 + 10 * 10 ** 7, on_step=seen.append) == t0 + 8 * 10 ** 7
    assert seen == [t0 + 6 * 10 ** 7, t0 + 7 * 10 ** 7]
    assert mode.lag_ns == 2 * 10 ** 7 and mode.events['recovered_steps'] == 2
    assert mode.events['lagged_steps'] == 4
    for _ in range(3):
        ref.step()
    assert mode.x == ref.x  # 8 steps ran in all, 8 periods simulated
    # the next period: one due, the last two lagged ones; back on the clock
    assert mode.advance(t0 + 11 * 10 ** 7) == t0 + 11 * 10 ** 7
    assert mode.lag_ns == 0 and mode.events['recovered_steps'] == 4
    # on the clock: one step per period again, no more
    assert mode.advance(t0 + 12 * 10 ** 7) == t0 + 12 * 10 ** 7
    # a reset forgets the lag with the clock
    mode.reset()
    assert mode.lag_ns == 0 and mode.advance(t0) == t0


@pytest.mark.parametrize('runaway', [1e9, math.nan])
def test_a_failed_step_claims_no_time(runaway):
    """
    5 steps due, the thrust runs away (1e9 N on 1 kg, or NaN) from the third: it fails.

    The third step is retried, fails and is restored: the state is the second step's
    (the same as 2 plain steps under 1 N) and the state time is 2 dt on, never 5; the
    steps not run are due again.  A vehicle that diverges at once (2000 m/s into
    Q = 4) claims none.
    """
    params = load_vehicle_string(_quadratic_vehicle(4.0))
    mode = SimulateMode(params, dt=0.01, initial=_state(0.5))
    t0 = 10 ** 9
    mode.advance(t0)
    calls = []

    def thrust(x):
        calls.append(x)
        return np.array([runaway if len(calls) >= 3 else 1.0, 0, 0, 0, 0, 0])

    seen = []
    mode.advance(t0 + 5 * mode.period_ns, thrust=thrust, on_step=seen.append)
    assert mode.events['state_restores'] == 1 and len(calls) == 3
    assert mode.state_ns == t0 + 2 * mode.period_ns  # dt per step that succeeded
    assert seen == [t0 + mode.period_ns, t0 + 2 * mode.period_ns]
    ref = SimulateMode(params, dt=0.01, initial=_state(0.5))
    for _ in range(2):
        ref.step([1.0, 0, 0, 0, 0, 0])
    assert mode.x == ref.x
    assert mode.due(t0 + 5 * mode.period_ns) == 3  # not run: due again
    diverging = SimulateMode(params, dt=0.01, initial=_state(2000.0))
    diverging.advance(t0)
    assert diverging.advance(t0 + mode.period_ns) is None
    assert diverging.events['state_restores'] == 1 and diverging.state_ns == t0


def test_reset_refuses_a_state_that_is_not_finite():
    """reset() never makes a non-finite state the state or the last good one."""
    params = load_vehicle_string(_quadratic_vehicle())
    mode = SimulateMode(params, dt=0.01, initial=_state(1.0))
    mode.step()
    before = list(mode.x)
    bad = _state(1.0)
    bad.twist[0] = math.inf
    with pytest.raises(ValueError, match='finite'):
        mode.reset(bad)
    assert mode.x == before
    mode.reset()
    assert mode.x[7] == 1.0


def test_divergence_is_retried_then_restored():
    """
    Quadratic drag Q = 4, m = 1 at dt = 0.01 (2 Q |u| dt / m = 8 at 100 m/s).

    100 m/s: the first step diverges and the 16x retry lands on the analytic decay
    u(t) = u0 / (1 + Q u0 t / m) (quadratic drag with no added mass).  2000 m/s: the
    retry fails too, the state is restored and counted, every step.
    """
    params = load_vehicle_string(_quadratic_vehicle(4.0))
    mode = SimulateMode(params, dt=0.01, initial=_state(100.0))
    assert mode.step() is True
    assert mode.events['divergences'] == 1 and mode.events['state_restores'] == 0
    exact = 100.0 / (1.0 + 4.0 * 100.0 * 0.01)  # Riccati solution of m du/dt = -Q u|u|
    assert abs(mode.x[7] - exact) / exact < 1e-3
    mode = SimulateMode(params, dt=0.01, initial=_state(2000.0))
    for k in range(1, 6):
        assert mode.step() is False
        assert mode.x == SimulateMode(params, dt=0.01, initial=_state(2000.0)).x
        assert mode.events['state_restores'] == k


def test_offline_simulate_runs_simulate_mode():
    """simulate() is SimulateMode stepped once per dt (restores included)."""
    params = load_vehicle_string(_quadratic_vehicle(4.0))
    traj = simulate(params, duration=0.1, dt=0.01, initial=_state(100.0))
    mode = SimulateMode(params, dt=0.01, initial=_state(100.0))
    for k in range(1, 11):
        mode.step()
        assert list(traj.position[k]) + list(traj.quaternion[k]) + list(traj.twist[k]) \
            == mode.x


@pytest.mark.ros
@pytest.mark.parametrize('u0', [100.0, 2000.0])
def test_node_and_offline_agree_through_the_same_faults(rclpy_context, spawn, tmp_path, u0):
    """
    The node under /clock lock-step and an offline SimulateMode, same vehicle and faults.

    100 m/s: one divergence retried; each odometry message equals the offline state at
    its stamp (1e-12) and /diagnostics reports the offline event counts.  2000 m/s: every
    step is restored, and a step restored claims no time: no odometry after the initial
    state's however far /clock goes, and /diagnostics counts the restores.
    """
    from builtin_interfaces.msg import Time
    from diagnostic_msgs.msg import DiagnosticArray
    from nav_msgs.msg import Odometry
    from nodes.harness import diag_values, Probe, start_node
    from rosgraph_msgs.msg import Clock
    urdf = _quadratic_vehicle(4.0)
    proc, log = start_node(spawn, tmp_path, {
        'robot_description': urdf, 'mode': 'simulate', 'rate_hz': 100.0,
        'use_sim_time': True, 'initial_position': DEEP,
        'initial_velocity': [u0, 0.0, 0.0, 0.0, 0.0, 0.0], 'diagnostics_period': 0.2,
        'publish_markers': False, 'publish_static_frames': False,
        'max_catchup_steps': 1000})
    probe = Probe(rclpy_context)
    odom = probe.collect(Odometry, 'odometry')
    diags = probe.collect(DiagnosticArray, '/diagnostics', keep=3)
    clock_pub = probe.publisher(Clock, '/clock')
    period = 10 ** 7
    steps = 20
    clock = {'ns': 100 * 10 ** 9}

    def publish_clock(ns):
        # /clock never goes back (that would reset the node): at least the last value
        clock['ns'] = max(clock['ns'], ns)
        ns = clock['ns']
        clock_pub.publish(Clock(clock=Time(sec=ns // 10 ** 9, nanosec=ns % 10 ** 9)))

    def stamp(m):
        return m.header.stamp.sec * 10 ** 9 + m.header.stamp.nanosec

    # until the node's first odometry (its clock starting), /clock advances a period
    # every 50 ms, so that the node is at most a few steps ahead when it arrives (a long
    # catch-up burst could overrun the depth-10 history of a loaded machine); then one
    # period per lock-step (catch-up steps are published too)
    paced = {'wall': 0.0}

    def advance_slowly():
        if time.monotonic() - paced['wall'] >= 0.05:
            paced['wall'] = time.monotonic()
            publish_clock(clock['ns'] + period)

    # the node's odometry writer matched to the probe's reader before /clock starts the
    # node's clock: a volatile reader drops what an unmatched writer sends, and a lost
    # first message (the initial state) would shift every stamp below by a step
    assert probe.spin_until(lambda: probe.node.count_publishers('odometry') > 0,
                            timeout=60.0, proc=proc, log=log)
    probe.spin_for(0.5)
    assert probe.spin_until(lambda: odom, timeout=60.0, proc=proc, log=log,
                            action=advance_slowly), 'no odometry under sim time'
    # the first message is the initial state (its clock's start)
    assert odom[0].twist.twist.linear.x == u0, 'the first odometry was not the initial state'
    start = stamp(odom[0])
    if u0 == 2000.0:
        for k in range(1, steps + 1):
            publish_clock(start + k * period)
            probe.spin_for(0.05)
        assert probe.spin_until(
            lambda: diags and int(diag_values(diags[-1], 'update loop').get(
                'state_restores', -1)) >= 1, timeout=30.0, proc=proc, log=log)
        assert all(stamp(m) == start and m.twist.twist.linear.x == u0 for m in odom)
        assert int(diag_values(diags[-1], 'update loop')['lagged_steps']) == 0
        probe.close()
        return
    for k in range(1, steps + 1):
        want = start + k * period
        assert probe.spin_until(lambda: any(stamp(m) == want for m in odom), timeout=30.0,
                                proc=proc, log=log, action=lambda: publish_clock(want)), \
            'no odometry at step %d' % k
    params = load_vehicle_string(urdf)
    mode = SimulateMode(params, dt=0.01, initial=_state(u0))
    by_stamp = {stamp(m): m for m in odom}
    for k in range(1, steps + 1):
        mode.step()
        m = by_stamp[start + k * period]
        got = [m.pose.pose.position.x, m.pose.pose.position.z, m.twist.twist.linear.x]
        want = [mode.x[0], mode.x[2], mode.x[7]]
        assert np.allclose(got, want, rtol=1e-12, atol=1e-12), (k, got, want)
    assert probe.spin_until(
        lambda: diags and int(diag_values(diags[-1], 'update loop').get('divergences', -1))
        >= mode.events['divergences'], timeout=30.0, proc=proc, log=log)
    values = diag_values(diags[-1], 'update loop')
    assert int(values['divergences']) == mode.events['divergences'] >= 1
    assert int(values['state_restores']) == mode.events['state_restores']
    assert int(values['lagged_steps']) == 0
    probe.close()


def test_offline_simulate_holds_the_fin_angles():
    """simulate(fin_angles=) is SimulateMode stepped with those deflections held."""
    from uwv_hydro.description.loader import load_vehicle
    params = load_vehicle(str(pathlib.Path(__file__).resolve().parents[2]
                              / 'config' / 'remus100.yaml'))
    angles = [0.2, 0.2, -0.1, -0.1]
    start = State([0.0, 0.0, -5.0], [1.0, 0.0, 0.0, 0.0], [1.5, 0, 0, 0, 0, 0])
    traj = simulate(params, duration=1.0, dt=0.02, initial=start, fin_angles=angles)
    mode = SimulateMode(params, dt=0.02, initial=start)
    mode.sim.set_fin_angles(np.array(angles))
    for k in range(1, 51):
        mode.step()
        assert list(traj.position[k]) + list(traj.quaternion[k]) + list(traj.twist[k]) \
            == mode.x
    centred = simulate(params, duration=1.0, dt=0.02, initial=start)
    assert abs(traj.twist[-1, 5] - centred.twist[-1, 5]) > 0.02  # the rudder turns it


def test_set_step_runs_as_a_mode_built_with_that_step():
    """A mode built at 0.01 s and set to 1/1200 s steps as one built at 1/1200 s."""
    params = load_vehicle_string(_quadratic_vehicle(q_xxx=400.0))  # stiff: sub-steps vary
    dt = round(1e9 / 1200) * 1e-9
    mode = SimulateMode(params, dt=0.01, initial=_state(1.0))
    ref = SimulateMode(params, dt=dt, initial=_state(1.0))
    mode.set_step(dt)
    assert (mode.period_ns, mode.substeps, mode.sim.substeps) == (
        ref.period_ns, ref.substeps, ref.sim.substeps)
    assert mode.sim.dt == ref.sim.dt == mode.dt
    tau = [3.0, 0.5, 0.0, 0.0, 0.0, 0.2]
    t0 = 10 ** 9
    mode.advance(t0), ref.advance(t0)
    for k in range(1, 101):
        mode.advance(t0 + k * ref.period_ns, tau=tau)
        ref.advance(t0 + k * ref.period_ns, tau=tau)
    # the same operations on the same numbers: equal up to rounding at most
    assert np.allclose(mode.x, ref.x, rtol=0, atol=1e-12)
    assert abs(mode.x[7] - 1.0) > 1e-3  # it moved
    assert mode.events['lagged_steps'] == 0
