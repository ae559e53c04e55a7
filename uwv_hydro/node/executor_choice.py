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
Which rclpy executor serves the node's callbacks: the ``executor`` parameter.

rclpy's EventsExecutor (``rclpy.experimental``: wait, dispatch and timers in C++) is in
rclpy from Kilted, in Jazzy from rclpy 7.1.4, and not in Humble.  The node takes what the
installed rclpy has, found by importing it (feature detection, not a distribution name):

* ``auto`` (default): the EventsExecutor when the updates run on a thread of the node's
  own (``loop: thread``, ArduPilot SITL's frames) and rclpy has it; the
  SingleThreadedExecutor otherwise (under ``loop: timer`` the update is an executor
  timer on the ROS clock, which it serves; and on an rclpy without the EventsExecutor).
* ``events``: the EventsExecutor, an error (naming what is missing) where rclpy has none
  or the update is an executor timer.
* ``single_threaded``: rclpy's SingleThreadedExecutor (every distribution).

The choice and its reason go to the start-up log and to /diagnostics (``executor``,
``executor_reason`` of the update loop); doc/guide/node_timing.md has what each costs.
"""
from typing import Optional, Tuple

EXECUTORS = ('auto', 'events', 'single_threaded')
#: The EventsExecutor's spin_once timeout (s): it returns at once when idle without one.
EVENTS_SPIN_TIMEOUT_S = 0.5


def events_executor_class():
    """Return rclpy's EventsExecutor class, or None where this rclpy has none."""
    try:
        from rclpy.experimental import EventsExecutor
    except ImportError:
        return None
    return EventsExecutor


def choose(requested: str, own_thread: bool) -> Tuple[str, str]:
    """
    Return (executor, reason) for the ``executor`` parameter ``requested``.

    ``own_thread``: the updates run on a thread of the node's own.  Raises ValueError
    for a choice this rclpy or this loop cannot serve (the message names why).
    """
    available = events_executor_class() is not None
    missing = 'this rclpy has no EventsExecutor (rclpy.experimental: Kilted, Jazzy from ' \
        'rclpy 7.1.4, not Humble)'
    if requested == 'single_threaded':
        return 'single_threaded', 'executor: single_threaded'
    if requested == 'events':
        if not available:
            raise ValueError('executor: events, but %s' % missing)
        if not own_thread:
            raise ValueError('executor: events needs the updates on a thread of their own '
                             '(loop: thread); loop: timer is served by single_threaded')
        return 'events', 'executor: events'
    if requested != 'auto':
        raise ValueError('executor: %r is not one of %s' % (requested, ', '.join(EXECUTORS)))
    if not own_thread:
        return 'single_threaded', 'auto: the update is an executor timer (loop: timer)'
    if not available:
        return 'single_threaded', 'auto: ' + missing
    return 'events', 'auto: the updates on their own thread, rclpy has the EventsExecutor'


def make(name: str) -> Tuple[object, Optional[float]]:
    """Return (executor, spin_once timeout) of a chosen executor name."""
    if name == 'events':
        return events_executor_class()(), EVENTS_SPIN_TIMEOUT_S
    from rclpy.executors import SingleThreadedExecutor
    return SingleThreadedExecutor(), None
