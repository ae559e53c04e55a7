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
Inputs handed from the executor's callbacks to the update without the state lock.

With the wall-clock update thread (:mod:`uwv_hydro.node.rate_loop`), an input callback
that took the node's state lock waited for a running update (a whole update, longer
when the update was late).  The frequent inputs (thrust wrenches,
per-thruster and fin commands) instead check their message on the executor thread and
leave the accepted value in a :class:`LatestSlots` slot; the update takes the slots at
its start, under its own lock, and applies them to the mode's state (the thrust mux,
the thruster watchdog, the fin servos) with the time each value was received.  Those
keep the latest value of each input anyway, so the update sees what it saw before:
the latest complete value of every input received before it started.

A slot is written by one dict store and taken by one ``dict.pop``; each is a single
operation under CPython's interpreter lock, so a value is either taken by this update
or left whole for the next, never torn or lost.
"""
from typing import Hashable, List, Tuple

_MISSING = object()


class LatestSlots:
    """The latest value per key, written by callbacks and taken by the update."""

    def __init__(self):
        self._slots = {}

    def put(self, key: Hashable, value) -> None:
        """Leave ``value`` (a complete, immutable record) as the latest of ``key``."""
        self._slots[key] = value  # one store: atomic under the interpreter lock

    def take(self) -> List[Tuple[Hashable, object]]:
        """Return and remove every (key, latest value) left since the last take."""
        slots = self._slots
        taken = []
        for key in list(slots):  # list(dict) runs in C: a snapshot of the keys
            value = slots.pop(key, _MISSING)  # one atomic pop per key
            if value is not _MISSING:
                taken.append((key, value))
        return taken

    def clear(self) -> None:
        """Forget every value not taken yet (reset: a value from before it never applies)."""
        self.take()
