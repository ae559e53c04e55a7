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
A message published every cycle as serialised bytes: serialised once, patched in place.

rclpy's ``publish(msg)`` converts the Python message to C field by field and Fast DDS
serialises it, every cycle, most of the work for fields that never change (frame ids,
covariances; the cost: doc/guide/performance.md).  ``publish(bytes)`` sends an already
serialised message (rcl_publish_serialized_message).  :class:`SerializedMessage` takes
the bytes of one message from rclpy's own serialiser, finds where the stamp and the
float64 blocks that change lie (by writing distinct sentinel values and searching their
bytes), and per message only packs those values into a copy.  A round trip through
rclpy's deserialiser at construction checks the layout; when it does not hold (e.g. a
big-endian host) :meth:`SerializedMessage.create` returns None and the caller keeps
publishing messages.  :class:`ValueWire` does the same for a message whose one float64
is all that changes, without a stamp (std_msgs/Float64: the thrusters' feedback).

A message may carry its stamp more than once (a TFMessage of several transforms, each
with its header: ``stamps``), every copy written per message, and its float64 blocks
may be arrays of a fixed length (a JointState's position, velocity and effort: the
names, and so the offsets, fixed at construction).
"""
import struct
from typing import Callable, Optional, Sequence

from rclpy.serialization import deserialize_message, serialize_message

_STAMP = struct.Struct('<iI')  # builtin_interfaces/Time: int32 sec, uint32 nanosec
_DOUBLE = struct.Struct('<d')
#: A stamp whose 8 bytes occur nowhere else in a message.
_SENTINEL_NS = 1_234_567_891 * 1_000_000_000 + 987_654_321

#: ``fill(msg, stamp_ns, values)``: write a stamp and the changing values into msg.
Fill = Callable[[object, int, Sequence[float]], None]


class LayoutError(ValueError):
    """The serialised message does not have the layout the patching relies on."""


def _locate(raw: bytes, packed: bytes, count: int = 1) -> list:
    """Return the offsets of ``packed`` in ``raw``, which must hold it ``count`` times."""
    found = []
    at = raw.find(packed)
    while at >= 0:
        found.append(at)
        at = raw.find(packed, at + 1)
    if len(found) != count:
        raise LayoutError('a patched field is found %d times in the serialised message, '
                          'not %d' % (len(found), count))
    return found


class SerializedMessage:
    """The CDR bytes of one message type instance with a stamp and float64 blocks to patch."""

    def __init__(self, msg, fill: Fill, blocks: Sequence[int], stamps: int = 1):
        """
        Lay out ``msg`` (its constant fields set) for patching.

        ``fill`` writes the stamp (``stamps`` times) and ``sum(blocks)`` float64 values,
        which lie in the serialised message as contiguous blocks of the sizes
        ``blocks``, in order (an empty block is allowed: nothing to patch).
        """
        n = sum(blocks)
        sentinels = [1e300 * (1.0 + k / 64.0) for k in range(n)]  # distinct, not data
        fill(msg, _SENTINEL_NS, sentinels)
        raw = serialize_message(msg)
        self._type = type(msg)
        self._buf = bytearray(raw)
        self._stamps_at = _locate(raw, _STAMP.pack(*divmod(_SENTINEL_NS, 1_000_000_000)),
                                  stamps)
        self._blocks = []
        start = 0
        for size in blocks:
            if size:
                fmt = struct.Struct('<%dd' % size)
                at = _locate(raw, fmt.pack(*sentinels[start:start + size]))[0]
                self._blocks.append((fmt, at, start, start + size))
            start += size
        # round trip: the patched bytes read back as the message fill writes
        values = [0.5 + k for k in range(n)]
        fill(msg, 1_700_000_000_123_456_789, values)
        if deserialize_message(self.pack(1_700_000_000_123_456_789, values),
                               self._type) != msg:
            raise LayoutError('patched bytes do not read back as the message')

    @classmethod
    def create(cls, msg, fill: Fill, blocks: Sequence[int],
               stamps: int = 1) -> Optional['SerializedMessage']:
        """Return the layout of ``msg``, or None when it cannot be patched in place."""
        try:
            return cls(msg, fill, blocks, stamps)
        except LayoutError:
            return None

    def pack(self, stamp_ns: int, values: Sequence[float]) -> bytes:
        """Return the serialised message with ``stamp_ns`` and ``values`` written in."""
        buf = self._buf
        stamp = divmod(stamp_ns, 1_000_000_000)
        for at in self._stamps_at:
            _STAMP.pack_into(buf, at, *stamp)
        for fmt, at, start, end in self._blocks:
            fmt.pack_into(buf, at, *values[start:end])
        return bytes(buf)


class ValueWire:
    """The CDR bytes of a message whose one float64 changes (e.g. std_msgs/Float64)."""

    def __init__(self, msg, fill: Callable[[object, float], None]):
        """Lay out ``msg``; ``fill(msg, value)`` writes the changing float64."""
        fill(msg, 1e300 * 1.015625)  # a sentinel, not data
        raw = serialize_message(msg)
        at = _locate(raw, _DOUBLE.pack(1e300 * 1.015625))[0]
        self._head, self._tail = raw[:at], raw[at + _DOUBLE.size:]
        fill(msg, -2.5)
        if deserialize_message(self.pack(-2.5), type(msg)) != msg:
            raise LayoutError('patched bytes do not read back as the message')

    @classmethod
    def create(cls, msg, fill: Callable[[object, float], None]) -> Optional['ValueWire']:
        """Return the layout of ``msg``, or None when it cannot be patched in place."""
        try:
            return cls(msg, fill)
        except LayoutError:
            return None

    def pack(self, value: float) -> bytes:
        """Return the serialised message holding ``value``."""
        return self._head + _DOUBLE.pack(value) + self._tail
