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
A vehicle too heavy for the rate asked is named at start.

Before its first update the simulate-mode node times a few of its own update cycles
(:func:`measure_cycle_cost`: :meth:`HydroNode._update`, what the update thread runs
every period under the state lock: the inputs handed over, one step of the vehicle as
an update runs it, with its fin servos, buoyancy engines and thrusters' per-step
model, the sensors sampled, odometry, TF, joint states and every other output
serialised and handed to the outbox), each on the thread's CPU clock (what the cycle
costs, whatever else runs on the machine), a period apart as the loop runs them (at
most :data:`SPACING_S`: 0.2 s of start-up), and takes the median: the figure
/diagnostics reports as ``cycle_cpu_p50_us`` once the node runs.  The timed cycles'
messages are held in the outbox (:meth:`uwv_hydro.node.outbox.Outbox.hold`) and
discarded, so no subscriber sees a state the reset below takes back; the middleware's
own publish calls are therefore not in the figure.
The physics alone (:func:`measure_step_cost`: the mode's step) is timed too: before
issue 51 only the physics was, and it understated what a cycle costs (the figures:
doc/guide/performance.md).  Both figures are logged and kept for
/diagnostics (``step_cost_us``, ``step_physics_cost_us``).  A cycle costing more than
:data:`STEP_BUDGET_SHARE` of the period leaves too little of it for the publishing,
the callbacks and the wake-up: the node warns, naming the vehicle, the cost and the
period, and what it does when it cannot keep up (the simulated time falls behind the
clock, the stamps with it).  The counters the timed cycles moved are restored and the
node resets the state after this (node_setup.start_reports, then HydroNode.reset_state),
so they leave no trace but the figures.
"""
import copy
import statistics
import time

#: A step over this share of the period is named in a warning at start.
STEP_BUDGET_SHARE = 0.5
#: Steps timed at start ...
TIMED_STEPS = 20
#: ... or fewer when they take more than this much CPU time together (s).
TIMING_BUDGET_S = 0.25
#: The timed update cycles are a period apart, at most this much (s).
SPACING_S = 0.01


def _silent(level: str, key: str, text: str) -> None:
    """Drop a log line of the timed steps."""


def measure_step_cost(mode, thrusters=None, steps: int = TIMED_STEPS,
                      budget_s: float = TIMING_BUDGET_S) -> float:
    """
    Return the median CPU time (s) of one step of ``mode``, as an update runs it.

    ``thrusters``: the node's ThrusterIO (or None), whose per-step model drives the
    steps.  The mode's state and clock move: the caller resets them.  Event counts
    and log lines of the timed steps (a divergence) are not kept.
    """
    events, log = dict(mode.events), mode._log
    mode._log = _silent  # a divergence of the timed steps is not the run's
    period = mode.period_ns
    now = mode.state_ns if mode.state_ns is not None else mode.advance(0)
    costs = []
    spent = 0
    clock = time.thread_time_ns
    while len(costs) < steps and (not costs or spent < budget_s * 1e9):
        now += period
        start = clock()
        per_step = None if thrusters is None else thrusters.per_step(now, None)
        mode.advance(now, thrust=per_step)
        cost = clock() - start
        costs.append(cost)
        spent += cost
    mode.events.clear()
    mode.events.update(events)
    mode._log = log
    return statistics.median(costs) * 1e-9


def measure_cycle_cost(node, cycles: int = TIMED_STEPS,
                       budget_s: float = TIMING_BUDGET_S) -> float:
    """
    Return the median CPU time (s) of the node's update cycle, one step due in each.

    Runs :meth:`HydroNode._update` on a pacing grid one period apart from now, under
    the state lock, its outputs held in the outbox and discarded.  The state moves
    (the caller resets it); the loop statistics, event counts, sensor counts and the
    clock-jump detector are restored, log lines of the mode (a divergence) dropped.
    """
    io = node.io
    mode = io.mode
    saved = (copy.deepcopy(node.loop_stats), dict(node.events), dict(mode.events),
             copy.deepcopy(vars(node.jumps)), node._last_tick_ns, node.tick_pace_ns,
             None if io.sensors is None else copy.deepcopy(io.sensors.status))
    log, mode._log = mode._log, _silent
    pace = node.pace_ns()
    costs = []
    spent = 0
    clock = time.thread_time_ns
    node.outbox.hold()
    try:
        with node.lock:
            node._update(pace)  # the first update starts the state's clock: no step
        while len(costs) < cycles and (not costs or spent < budget_s * 1e9):
            pace += node.period_ns
            # a period apart (at most SPACING_S), as the loop runs them: back to back, the
            # caches stay warm and a cycle costs half of what it does in the run (bluerov2
            # at 100 Hz: 0.13 ms against 0.33 ms in /diagnostics; spaced, 0.41 and 0.42)
            time.sleep(min(node.period_ns * 1e-9, SPACING_S))
            start = clock()
            with node.lock:  # as HydroNode._on_timer runs it
                node._update(pace)
            cost = clock() - start
            costs.append(cost)
            spent += cost
    finally:
        node.outbox.held = None  # discarded: the timed states are not the run's
        mode._log = log
        (loop_stats, events, mode_events, jumps, node._last_tick_ns, node.tick_pace_ns,
         sensors) = saved
        node.loop_stats.clear()
        node.loop_stats.update(loop_stats)
        node.events.clear()
        node.events.update(events)
        mode.events.clear()
        mode.events.update(mode_events)
        vars(node.jumps).update(jumps)
        if sensors is not None:
            io.sensors.status.clear()
            io.sensors.status.update(sensors)
    return statistics.median(costs) * 1e-9


def report_step_cost(node) -> None:
    """Time the node's cycle (simulate mode), log it, warn when it is too heavy for the rate."""
    io = node.io
    physics = measure_step_cost(io.mode, node.thrusters)
    io.reset()  # the cycles start from the initial state
    cost = measure_cycle_cost(node)
    io.step_cost_s, io.step_physics_cost_s = cost, physics
    period = node.period_ns * 1e-9
    share = cost / period
    node.get_logger().info('one simulation step of vehicle %r costs %.4g ms of CPU as the '
                           'node runs it (median of its update cycles timed at start: '
                           'inputs, the step, sensors, outputs; the physics alone %.4g ms): '
                           '%.3g %% of the %.4g ms period'
                           % (node.vehicle.name, cost * 1e3, physics * 1e3, share * 100.0,
                              period * 1e3))
    if share > STEP_BUDGET_SHARE:
        node.get_logger().warning(
            'vehicle %r is too heavy for rate_hz %g: one simulation step costs %.4g ms of CPU '
            '(measured at start), over %d %% of the %.4g ms period (the update cycle '
            'of one step; the physics alone %.4g ms).  When an update cannot '
            'keep up, the node slows down: it runs at most max_catchup_steps steps per '
            'update and the simulated time, which stamps odometry and every output, falls '
            'behind the clock (a warning with the real-time factor; simulated_time_factor '
            'and simulated_lag_s in /diagnostics).  Lower rate_hz to keep real time'
            % (node.vehicle.name, node.cfg['rate_hz'], cost * 1e3,
               round(STEP_BUDGET_SHARE * 100), period * 1e3, physics * 1e3))
