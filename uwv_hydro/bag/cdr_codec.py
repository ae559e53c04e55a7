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
An exact CDR codec for the fixed message layouts the offline tools need, without rosbags.

ROS 2 serialises with XCDR1 / plain CDR (OMG DDS-XTypes 1.3 sec. 7.4.1; the rosbags
``serialize_cdr``): a 4-byte encapsulation header ``00 01 00 00`` (little endian),
then the fields in declaration order, each aligned to its own size counted from the
end of the header; a string is a uint32 length including the terminating NUL, the
UTF-8 bytes and the NUL.  Padding bytes are zero.  The layouts::

    geometry_msgs/msg/WrenchStamped:  int32 sec, uint32 nanosec, string frame_id,
        (align 8) float64 force.x y z, torque.x y z
    nav_msgs/msg/Odometry:  int32 sec, uint32 nanosec, string frame_id,
        (align 4) string child_frame_id, (align 8) float64 position.x y z,
        orientation.x y z w, covariance[36], twist.linear.x y z, angular.x y z,
        covariance[36]
    tf2_msgs/msg/TFMessage with one transform:  uint32 count (1), int32 sec,
        uint32 nanosec, string frame_id, (align 4) string child_frame_id, (align 8)
        float64 translation.x y z, rotation.x y z w

The encoders return exactly the bytes of rosbags' ``serialize_cdr`` and the decoders
the fields of ``deserialize_cdr`` (tested byte for byte, including odd-length frame
ids).  Big-endian input is
reported as unsupported (None) so the caller can fall back to rosbags.

:func:`repeat_message` encodes a whole series at once: one message serialised by
rosbags is the template, numpy writes every stamp and the trailing float64 block of
each copy (the fields that change along a trajectory), so a series costs a few array
operations instead of one encoder call per message.
"""

import functools
import struct
from typing import Optional, Sequence, Tuple

import numpy as np

_HEADER = b'\x00\x01\x00\x00'
_STAMP = struct.Struct('<iI')
_UINT32 = struct.Struct('<I')
_SIX_DOUBLES = struct.Struct('<6d')
_POSE = struct.Struct('<7d')
_TWIST = struct.Struct('<6d')
_COVARIANCE = struct.Struct('<36d')
#: Bytes of the float64 block of an Odometry after the child frame id (85 doubles).
ODOMETRY_DOUBLES = 8 * (7 + 36 + 6 + 36)
#: Zero padding of 0..8 bytes (NUL plus alignment).
_PAD = [b'\x00' * i for i in range(9)]


def _string(value: str, pos: int, align: int) -> Tuple[bytes, int]:
    """Return the CDR bytes of ``value`` at offset ``pos`` and the offset after it, aligned."""
    data = value.encode()
    # CDR string: uint32 length (with the NUL), bytes, NUL
    end = pos + 4 + len(data) + 1
    pad = -end % align
    return _UINT32.pack(len(data) + 1) + data + _PAD[1 + pad], end + pad


@functools.lru_cache(maxsize=256)
def _wrench_frame(frame_id: str) -> bytes:
    """Return the frame id of a WrenchStamped as CDR (at offset 8, padded to 8)."""
    return _string(frame_id, 8, 8)[0]


@functools.lru_cache(maxsize=256)
def _frame_pair(frame_id: str, child_frame_id: str, start: int) -> bytes:
    """Return frame id and child frame id as CDR from payload offset ``start`` (8-aligned)."""
    head, pos = _string(frame_id, start, 4)
    return head + _string(child_frame_id, pos, 8)[0]


_ZERO_COVARIANCE = (0.0,) * 36
_ODOMETRY_VALUES = struct.Struct('<85d')
_ONE = _UINT32.pack(1)
_TRANSFORM = struct.Struct('<7d')


def encode_odometry(sec: int, nanosec: int, frame_id: str, child_frame_id: str,
                    position: Sequence[float], orientation_xyzw: Sequence[float],
                    twist: Sequence[float], pose_covariance: Optional[Sequence[float]] = None,
                    twist_covariance: Optional[Sequence[float]] = None) -> bytes:
    """Return the CDR bytes of a nav_msgs/Odometry (covariances default to zeros)."""
    pose_cov = _ZERO_COVARIANCE if pose_covariance is None else pose_covariance
    twist_cov = _ZERO_COVARIANCE if twist_covariance is None else twist_covariance
    values = (*position, *orientation_xyzw, *pose_cov, *twist, *twist_cov)
    # Header stamp, the two frame ids (padded so the doubles start 8-aligned), 85 float64
    return b''.join((_HEADER, _STAMP.pack(sec, nanosec),
                     _frame_pair(frame_id, child_frame_id, 8),
                     _ODOMETRY_VALUES.pack(*values)))


def encode_tf_message(sec: int, nanosec: int, frame_id: str, child_frame_id: str,
                      translation: Sequence[float], rotation_xyzw: Sequence[float]) -> bytes:
    """Return the CDR bytes of a tf2_msgs/TFMessage holding one TransformStamped."""
    # Sequence length 1, then the TransformStamped: stamp, frame ids, 7 float64
    return b''.join((_HEADER, _ONE, _STAMP.pack(sec, nanosec),
                     _frame_pair(frame_id, child_frame_id, 12),
                     _TRANSFORM.pack(*translation, *rotation_xyzw)))


def encode_wrench_stamped(sec: int, nanosec: int, frame_id: str,
                          wrench: Sequence[float]) -> bytes:
    """Return the CDR bytes of a geometry_msgs/WrenchStamped ([Fx Fy Fz Tx Ty Tz])."""
    # Header stamp, frame id (padded so the doubles start 8-aligned), 6 float64
    return b''.join((_HEADER, _STAMP.pack(sec, nanosec), _wrench_frame(frame_id),
                     _SIX_DOUBLES.pack(*wrench)))


def _read_string(raw, pos: int) -> Tuple[str, int]:
    """Return (string, offset after its NUL) of the CDR string at ``pos`` (payload offset)."""
    (length,) = _UINT32.unpack_from(raw, 4 + pos)
    start = 4 + pos + 4
    if length < 1 or start + length > len(raw) or raw[start + length - 1] != 0:
        raise ValueError('malformed CDR string at offset %d' % pos)
    return bytes(raw[start:start + length - 1]).decode(), pos + 4 + length


OdometryFields = Tuple[int, int, str, str, Tuple[float, ...], Tuple[float, ...],
                       Tuple[float, ...]]


def _read_header(raw) -> Optional[Tuple[int, int, str, int]]:
    """Return (sec, nanosec, frame_id, offset after it) of a std_msgs/Header at the start."""
    # CDR encapsulation: 00 01 = little endian, 00 00 = big endian (not handled here)
    if len(raw) < 12 or raw[0] != 0 or raw[1] != 1:
        if len(raw) >= 2 and raw[0] == 0 and raw[1] == 0:
            return None
        raise ValueError('not a little-endian CDR message')
    sec, nanosec = _STAMP.unpack_from(raw, 4)
    frame_id, pos = _read_string(raw, 8)
    return sec, nanosec, frame_id, pos


def decode_wrench_stamped(raw) -> Optional[Tuple[int, int, str, Tuple[float, ...]]]:
    """
    Return (sec, nanosec, frame_id, [Fx Fy Fz Tx Ty Tz]) of a WrenchStamped's CDR bytes.

    None for big-endian CDR (use rosbags); ValueError for a truncated message.
    """
    header = _read_header(raw)
    if header is None:
        return None
    sec, nanosec, frame_id, pos = header
    pos += -pos % 8
    if 4 + pos + 48 > len(raw):
        raise ValueError('truncated geometry_msgs/WrenchStamped')
    return sec, nanosec, frame_id, _SIX_DOUBLES.unpack_from(raw, 4 + pos)


def odometry_layout(raw) -> Optional[Tuple[int, int, str, str, int]]:
    """
    Return (sec, nanosec, frame_id, child_frame_id, offset) of an Odometry's CDR bytes.

    ``offset`` is where its block of 85 float64 starts in ``raw`` (:data:`ODOMETRY_DOUBLES`
    bytes: position, orientation xyzw, pose covariance, twist, twist covariance).  None
    for big-endian CDR (use rosbags); ValueError for a truncated or malformed message.
    """
    header = _read_header(raw)
    if header is None:
        return None
    sec, nanosec, frame_id, pos = header
    pos += -pos % 4
    child, pos = _read_string(raw, pos)
    pos += -pos % 8
    if 4 + pos + ODOMETRY_DOUBLES > len(raw):
        raise ValueError('truncated nav_msgs/Odometry')
    return sec, nanosec, frame_id, child, 4 + pos


def decode_odometry(raw, covariances: bool = False) -> Optional[OdometryFields]:
    """
    Return (sec, nanosec, frame_id, child_frame_id, position, orientation xyzw, twist).

    ``twist`` is [linear x y z, angular x y z]; with ``covariances`` the pose and twist
    covariances (36 values each) follow as two more fields.  None for big-endian CDR
    (use rosbags); ValueError for a truncated or malformed message.
    """
    layout = odometry_layout(raw)
    if layout is None:
        return None
    sec, nanosec, frame_id, child, start = layout
    pose = _POSE.unpack_from(raw, start)
    # Skip the pose covariance (36 float64)
    twist = _TWIST.unpack_from(raw, start + 8 * (7 + 36))
    if covariances:
        return (sec, nanosec, frame_id, child, pose[:3], pose[3:], twist,
                _COVARIANCE.unpack_from(raw, start + 8 * 7),
                _COVARIANCE.unpack_from(raw, start + 8 * (7 + 36 + 6)))
    return sec, nanosec, frame_id, child, pose[:3], pose[3:], twist


def repeat_message(template: bytes, stamps_ns, stamp_at: Optional[int],
                   tail=None) -> np.ndarray:
    """
    Return (n, len(template)) uint8: ``template`` with each stamp and trailing float64s.

    ``template`` is the little-endian CDR of one message whose builtin_interfaces/Time
    starts at byte ``stamp_at`` (4 for a message that starts with a std_msgs/Header, 8
    for a TFMessage: after the sequence length; None for a message without a stamp,
    std_msgs/Float64) and whose last ``tail.shape[1]`` fields
    are float64 (Odometry's 85, a TransformStamped's 7, a Wrench's 6, std_msgs/Float64's
    1); row i carries ``stamps_ns[i]`` split into sec, nanosec and ``tail[i]``, the other
    bytes (frame ids, padding, constant fields) are the template's.
    """
    if template[:2] != b'\x00\x01':
        raise ValueError('the template must be little-endian CDR')
    stamps = np.asarray(stamps_ns, dtype=np.int64)
    n, size = len(stamps), len(template)
    out = np.empty((n, size), dtype=np.uint8)
    out[:] = np.frombuffer(template, dtype=np.uint8)
    # builtin_interfaces/Time: int32 sec, uint32 nanosec (floor division keeps 0 <= ns < 1e9)
    if stamp_at is not None:
        sec, nanosec = np.divmod(stamps, 1_000_000_000)
        stamp = np.empty((n, 2), dtype='<u4')
        stamp[:, 0] = sec.astype('<i4').view('<u4')
        stamp[:, 1] = nanosec
        out[:, stamp_at:stamp_at + 8] = stamp.view(np.uint8).reshape(n, 8)
    if tail is not None:
        values = np.ascontiguousarray(tail, dtype='<f8').reshape(n, -1)
        width = 8 * values.shape[1]
        if width > size - (4 if stamp_at is None else stamp_at + 8):
            raise ValueError('the float64 tail is longer than the message')
        out[:, size - width:] = values.view(np.uint8).reshape(n, width)
    return out
