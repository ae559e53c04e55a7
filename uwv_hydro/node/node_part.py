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
What every I/O part of the node shares: the state lock decorator and input statistics.

The node (:mod:`uwv_hydro.node.hydro_node`) owns the lock, the drop counters, the
stamp guard and the throttle; each I/O part (wrench, simulate, current, ...) gets the
node and uses them through :class:`NodePart`.
"""
import functools
import time
from typing import Optional


class InputStats:
    """Message count and last receive time of one input (both clocks), for /diagnostics."""

    def __init__(self):
        self.count = 0
        self.window_count = 0
        #: node-clock (ROS) time of the last message
        self.last_ns: Optional[int] = None
        #: monotonic time of the last message (its age in wall time)
        self.last_wall_ns: Optional[int] = None

    def received(self, now_ns: int) -> None:
        """Record one accepted message received at node-clock time ``now_ns``."""
        self.count += 1
        self.window_count += 1
        self.last_ns = now_ns
        self.last_wall_ns = time.monotonic_ns()


def locked(method):
    """
    Run ``method`` holding the node's state lock (executor callbacks vs the loop thread).

    For the rare callbacks (reset, parameters, wrench mode's odometry); the frequent
    inputs use the lock-free hand-over of :mod:`uwv_hydro.node.input_slots`.
    """
    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        with self.lock:
            return method(self, *args, **kwargs)
    return wrapper


class NodePart:
    """An I/O part of the node: publishers, subscriptions and the mode object they feed."""

    def __init__(self, node):
        self.node = node
        self.lock = node.lock
        self.cfg = node.cfg
        self.logger = node.get_logger()

    def add_input(self, name: str) -> InputStats:
        """Register an input shown in /diagnostics; return its statistics."""
        stats = InputStats()
        self.node.inputs[name] = stats
        return stats

    def reset(self) -> None:
        """Forget inputs and state (clock jump back, ~/reset)."""

    def take_inputs(self) -> None:
        """
        Apply the inputs the callbacks handed over since the last update (state lock held).

        Parts whose callbacks leave values in a :class:`uwv_hydro.node.input_slots.LatestSlots`
        (instead of taking the state lock) apply them here, at the start of every update.
        """

    def update(self, now_ns: int) -> None:
        """
        Run one update of the loop at node-clock (ROS) time ``now_ns`` (for stamps).

        Durations (timeouts, steps due) are measured on the pacing clock:
        ``node.tick_pace_ns`` for this update, ``node.pace_ns()`` when a message
        arrives (sim time under use_sim_time, else monotonic; ``node.stamp_ns``
        turns a pacing time into a stamp).
        """

    def components(self):
        """Return the latest WrenchComponents (None before the first)."""
        return None

    def snapshot(self, snap: dict) -> None:
        """Add this part's entries to a /diagnostics snapshot."""
