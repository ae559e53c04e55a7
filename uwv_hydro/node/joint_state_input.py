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
A sensor_msgs/JointState subscription taken as serialised bytes (``raw=True``).

rclpy builds a Python message of every JointState it receives (a string per name, a
list per array) before the callback sees it; at 1 kHz from an engine that alone was
most of wrench mode's update budget (issue 43).  :class:`JointStateInput` subscribes
with ``raw=True`` and reads the bytes with
:class:`~uwv_hydro.modes.messages.joint_state_cdr.JointStateReader`: the names once per layout,
then the float64 arrays as views at their offsets.  The first message of every new
layout is also read by rclpy's deserialiser and the two readings compared: a layout
they disagree on (a CDR variant the reader does not know), big-endian bytes and bytes
the reader cannot parse are read by rclpy's deserialiser, message by message.  Bytes
neither can read are dropped (``malformed``).
"""
from typing import Any, Callable, Optional, Sequence, Tuple

import numpy as np
from rclpy.serialization import deserialize_message
from sensor_msgs.msg import JointState

from uwv_hydro.modes.messages.joint_state_cdr import JointStateLayout, JointStateReader

#: (names, position, velocity, effort, prepared); prepared is None for a message read
#: by rclpy's deserialiser (no layout kept).
Reading = Tuple[Sequence[str], Sequence[float], Sequence[float], Sequence[float], Any]


def _same(layout: JointStateLayout, arrays, msg: JointState) -> bool:
    """Return whether the reader's and rclpy's readings of one message agree."""
    return tuple(msg.name) == layout.names and msg.header.frame_id == layout.frame_id and all(
        np.array_equal(mine, np.asarray(theirs, dtype=float), equal_nan=True)
        for mine, theirs in zip(arrays, (msg.position, msg.velocity, msg.effort)))


class JointStateInput:
    """Read raw JointState bytes; ``prepare(layout)`` is kept per layout (e.g. rows)."""

    def __init__(self, prepare: Optional[Callable[[JointStateLayout], Any]] = None):
        self._prepare = prepare
        self.reader = JointStateReader(self._checked)
        #: messages read by rclpy's deserialiser, and layouts found to disagree with it
        self.deserialized = 0
        self.disagreed = 0

    def _checked(self, layout: JointStateLayout, raw) -> Any:
        """Return (prepared,) for a layout rclpy reads alike, else None (deserialise)."""
        try:
            msg = deserialize_message(raw, JointState)
        except Exception:  # noqa: B902 - rclpy's deserialiser raises plain exceptions
            msg = None
        if msg is None or not _same(layout, layout.arrays(raw), msg):
            self.disagreed += 1
            return None
        return (None if self._prepare is None else self._prepare(layout),)

    def read_or_drop(self, raw, node, topic: str) -> Optional[Reading]:
        """Return :meth:`read`'s reading, or None with the message counted as malformed."""
        reading = self.read(raw)
        if reading is None:
            node.drop(topic, 'malformed', ' (%d bytes that are no sensor_msgs/JointState)'
                      % len(raw))
        return reading

    def read(self, raw) -> Optional[Reading]:
        """Return the message's names, arrays and prepared value; None: unreadable."""
        try:
            layout, checked = self.reader.read(raw)
        except ValueError:
            layout = checked = None
        if checked is not None:
            position, velocity, effort = layout.arrays(raw)
            return layout.names, position, velocity, effort, checked[0]
        try:
            msg = deserialize_message(raw, JointState)
        except Exception:  # noqa: B902 - rclpy's deserialiser raises plain exceptions
            return None
        self.deserialized += 1
        return msg.name, msg.position, msg.velocity, msg.effort, None
