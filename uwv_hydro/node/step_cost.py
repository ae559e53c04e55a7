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

Before its first update the simulate-mode node times a few steps of its vehicle, as
an update runs them (:meth:`uwv_hydro.modes.simulate_mode.SimulateMode.advance`: the
fin servos, the buoyancy engines, the thrusters' per-step model and the checked RK4
step), each on the thread's CPU clock (what the step costs, whatever else runs on the
machine), and takes the median.  The figure is logged and kept for /diagnostics
(``step_cost_us``).  A step costing more than :data:`STEP_BUDGET_SHARE` of the period
leaves too little of it for publishing, the inputs and the wake-up: the node warns,
naming the vehicle, the cost and the period, and what it does when it cannot keep up
(the simulated time falls behind the clock, the stamps with it).  The node resets the
state after this (node_setup.create_io, then HydroNode.reset_state), so the timed steps
leave no trace but the figure.
"""
import statistics
import time

#: A step over this share of the period is named in a warning at start.
STEP_BUDGET_SHARE = 0.5
#: Steps timed at start ...
TIMED_STEPS = 20
#: ... or fewer when they take more than this much CPU time together (s).
TIMING_BUDGET_S = 0.25


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


def report_step_cost(node) -> None:
    """Time the vehicle's step (simulate mode), log it, warn when it is too heavy for the rate."""
    io = node.io
    cost = measure_step_cost(io.mode, node.thrusters)
    io.step_cost_s = cost
    period = node.period_ns * 1e-9
    share = cost / period
    node.get_logger().info('one simulation step of vehicle %r costs %.4g ms of CPU (median '
                           'of the steps timed at start): %.3g %% of the %.4g ms period'
                           % (node.vehicle.name, cost * 1e3, share * 100.0, period * 1e3))
    if share > STEP_BUDGET_SHARE:
        node.get_logger().warning(
            'vehicle %r is too heavy for rate_hz %g: one simulation step costs %.4g ms of CPU '
            '(measured at start), over %d %% of the %.4g ms period.  When an update cannot '
            'keep up, the node slows down: it runs at most max_catchup_steps steps per '
            'update and the simulated time, which stamps odometry and every output, falls '
            'behind the clock (a warning with the real-time factor; simulated_time_factor '
            'and simulated_lag_s in /diagnostics).  Lower rate_hz to keep real time'
            % (node.vehicle.name, node.cfg['rate_hz'], cost * 1e3,
               round(STEP_BUDGET_SHARE * 100), period * 1e3))
