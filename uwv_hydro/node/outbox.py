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
The update's messages, published at once on the update's own thread.

Every output of a cycle (odometry, /tf, sensors, per-thruster values, wrenches) goes
through :meth:`Outbox.publish`, in the order the update produces it.  The frequent
ones are already serialised (:mod:`uwv_hydro.node.serialized_message`), so a publish
is the middleware's own work.  A publish that raises (e.g. during shutdown) is
reported through ``on_error`` and the update carries on.

Why on the update thread: a separate publisher thread has to be woken every cycle and
then wait for the interpreter lock, which delays the outputs; publishing in the update,
as a minimal rclpy node does, keeps them at the deadline plus the update (measured in
doc/guide/node_timing.md).

With :attr:`Outbox.profile` (a :class:`uwv_hydro.node.cycle_profile.CycleProfile`,
the node's ``cycle_profile``), each publish's duration is recorded under its topic's
stage (``publish_odometry``, ``publish_tf``, ...).  Without it: one test per publish.
"""
import time
from typing import Callable, Optional


class Outbox:
    """Publish each output at once, counting what went out and reporting failures."""

    def __init__(self, on_error: Optional[Callable[[BaseException], None]] = None):
        self.on_error = on_error
        #: A CycleProfile timing every publish (the node's ``cycle_profile``), or None.
        self.profile = None
        #: Messages published.
        self.published = 0
        #: While a list (:meth:`hold`), publish() keeps (publisher, message) pairs there
        #: until :meth:`flush`: ArduPilot SITL's backend answers ArduPilot first and
        #: publishes the frame's outputs while ArduPilot computes the next frame.
        self.held = None

    def hold(self) -> None:
        """Keep what is published from now on until :meth:`flush`."""
        self.held = []

    def flush(self) -> None:
        """Publish what was held, in order, and publish at once again."""
        held, self.held = self.held, None
        for publisher, msg in held or ():
            self.publish(publisher, msg)

    def publish(self, publisher, msg) -> None:
        """Publish ``msg`` (a message or its serialised bytes) on ``publisher`` now."""
        if self.held is not None:
            self.held.append((publisher, msg))
            return
        profile = self.profile
        start = time.monotonic_ns() if profile is not None else 0
        try:
            publisher.publish(msg)
            self.published += 1
        except Exception as exc:  # noqa: B902 - a failed publish must not end the update
            if self.on_error is not None:
                self.on_error(exc)
        if profile is not None:
            profile.add(profile.publish_stage(publisher), time.monotonic_ns() - start)
