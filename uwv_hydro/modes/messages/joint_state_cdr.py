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
sensor_msgs/JointState read from its CDR bytes: the names once per layout, then the arrays.

A joint_states stream repeats one layout (the publisher's frame id, joint names and
array lengths) with new numbers, so reading each message as a Python message object
(rclpy's deserialiser: a string object per name, a list per array) redoes the same
work every message.  :class:`JointStateReader` parses a message's layout once
(:func:`parse_layout`) and recognises the next messages of that layout by comparing
their bytes with the layout's, field by field; the three float64 arrays are then
numpy views at known offsets.  It keeps the last few layouts (several publishers may
share a topic), so a stream alternating between them is not parsed again.

The bytes (XCDR1 / plain CDR, OMG DDS-XTypes 1.3 sec. 7.4.1, as
:mod:`uwv_hydro.bag.cdr_codec` describes): a 4-byte encapsulation header (``00 01``:
little endian), then, each field aligned to its size counted from the header's end:
int32 sec, uint32 nanosec, string frame_id, uint32 name count and that many strings
(uint32 length with the NUL, the bytes, the NUL), then position, velocity and effort,
each a uint32 count and, when not empty, that many float64 aligned to 8.  Alignment
padding is not compared (Fast CDR leaves it uninitialised), nor are bytes after the
last field (rclpy's serialised buffers may carry some).
"""
from dataclasses import dataclass
import struct
from typing import Any, Callable, List, Optional, Tuple

import numpy as np

_UINT32 = struct.Struct('<I')
_EMPTY = np.zeros(0)
_EMPTY.flags.writeable = False
#: Layouts a reader keeps (publishers sharing one topic, each with its own layout).
KEEP_LAYOUTS = 8


@dataclass(frozen=True, eq=False)
class JointStateLayout:
    """Where the fields of one JointState layout lie in its CDR bytes."""

    frame_id: str
    names: Tuple[str, ...]
    #: position, velocity and effort: their lengths and byte offsets in the message
    counts: Tuple[int, int, int]
    offsets: Tuple[int, int, int]
    #: (offset, bytes) of every byte from the frame id to the effort count but the
    #: stamp, the padding and the float64 values: what identifies the layout
    segments: Tuple[Tuple[int, bytes], ...]
    #: the message's length up to the last float64
    end: int

    def matches(self, raw) -> bool:
        """Return whether ``raw`` has this layout (its stamp and numbers aside)."""
        if len(raw) < self.end:
            return False
        for at, chunk in self.segments:
            if not raw.startswith(chunk, at):
                return False
        return True

    def arrays(self, raw) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Return the position, velocity and effort arrays of ``raw`` (read-only views)."""
        return tuple(np.frombuffer(raw, '<f8', n, at) if n else _EMPTY
                     for n, at in zip(self.counts, self.offsets))


class _Cursor:
    """A reading position in a CDR message, recording the bytes that are not padding."""

    def __init__(self, raw):
        if len(raw) < 4 or raw[0] != 0 or raw[1] not in (0, 1):
            raise ValueError('not a CDR message (encapsulation header %r)' % bytes(raw[:4]))
        self.raw = raw
        self.at = 12  # after the header and the stamp
        self.segments: List[List] = []

    def align(self, size: int) -> None:
        self.at += -(self.at - 4) % size  # counted from the header's end

    def take(self, size: int, record: bool = True) -> int:
        start = self.at
        if start + size > len(self.raw):
            raise ValueError('truncated sensor_msgs/JointState (%d bytes, field at %d)'
                             % (len(self.raw), start))
        self.at += size
        if record and size:
            if self.segments and self.segments[-1][0] + len(self.segments[-1][1]) == start:
                self.segments[-1][1] += self.raw[start:self.at]
            else:
                self.segments.append([start, bytes(self.raw[start:self.at])])
        return start

    def uint32(self) -> int:
        self.align(4)
        return _UINT32.unpack_from(self.raw, self.take(4))[0]

    def string(self) -> str:
        length = self.uint32()
        start = self.take(length)
        if length < 1 or self.raw[self.at - 1] != 0:
            raise ValueError('malformed CDR string at byte %d' % (start - 4))
        return bytes(self.raw[start:self.at - 1]).decode()


def parse_layout(raw) -> Optional[JointStateLayout]:
    """
    Return the layout of a JointState's CDR bytes.

    None for big-endian CDR (left to rclpy's deserialiser); ValueError naming the
    byte for a truncated or malformed message.
    """
    cursor = _Cursor(raw)
    if raw[1] == 0:
        return None
    frame_id = cursor.string()
    n = cursor.uint32()
    if 4 * n > len(raw):
        raise ValueError('sensor_msgs/JointState: %d names cannot fit in %d bytes'
                         % (n, len(raw)))
    names = tuple(cursor.string() for _ in range(n))
    counts, offsets = [], []
    for field in ('position', 'velocity', 'effort'):
        count = cursor.uint32()
        if count:
            cursor.align(8)
        offsets.append(cursor.take(8 * count, record=False))
        counts.append(count)
    return JointStateLayout(frame_id, names, tuple(counts), tuple(offsets),
                            tuple((at, bytes(chunk)) for at, chunk in cursor.segments),
                            cursor.at)


class JointStateReader:
    """
    Read JointState CDR bytes, keeping the last :data:`KEEP_LAYOUTS` layouts.

    ``prepare(layout, raw)``, when given, is called once per new layout with its first
    message; what it returns is kept with the layout (e.g. how its names map to a
    vehicle's joints) and returned with every message of that layout.
    """

    def __init__(self, prepare: Optional[Callable[[JointStateLayout, Any], Any]] = None,
                 keep: int = KEEP_LAYOUTS):
        self.prepare = prepare
        self.keep = int(keep)
        #: (layout, prepared) pairs, the latest used first
        self.layouts: List[Tuple[JointStateLayout, Any]] = []
        #: messages whose layout was parsed (not one kept)
        self.parsed = 0

    def read(self, raw) -> Tuple[Optional[JointStateLayout], Any]:
        """
        Return (layout, prepared) of ``raw``.

        (None, None) for big-endian CDR; ValueError for a malformed message.
        """
        layouts = self.layouts
        for k, entry in enumerate(layouts):
            if entry[0].matches(raw):
                if k:
                    layouts.insert(0, layouts.pop(k))
                return entry
        layout = parse_layout(raw)
        if layout is None:
            return None, None
        self.parsed += 1
        entry = (layout, None if self.prepare is None else self.prepare(layout, raw))
        layouts.insert(0, entry)
        del layouts[self.keep:]
        return entry
