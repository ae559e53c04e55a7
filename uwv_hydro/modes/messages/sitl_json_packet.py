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
ArduPilot's JSON SITL interface: the servo packet in, the sensor JSON out (pure, no ROS).

The layout follows ArduPilot's ``libraries/SITL/SIM_JSON.h`` (``servo_packet_16`` and
``servo_packet_32``, little-endian, packed) and the parsing rules of ``SIM_JSON.cpp``
(``JSON::recv_fdm`` and ``JSON::parse_sensors``):

* the servo packet: ``uint16 magic`` (18458 with 16 channels, 29569 with 32),
  ``uint16 frame_rate`` (Hz), ``uint32 frame_count``, ``uint16 pwm[16 or 32]`` (us):
  40 or 72 bytes;
* the reply: one JSON object between two newlines.  ArduPilot turns every newline
  into a NUL and parses the text between the last two, so the object must be
  preceded and followed by one.  It finds each key by plain string search and reads
  the value right after ``"key":``, so the JSON is compact (no spaces) and every key
  appears once: ``timestamp`` (s, physics time), ``imu`` with ``gyro`` (rad/s, body
  FRD) and ``accel_body`` (m/s^2, specific force, body FRD), ``position`` (m, NED from
  the origin), ``quaternion`` ([w, x, y, z], body FRD to NED) and ``velocity`` (m/s,
  NED).  Vectors are read with ``sscanf("[%f, %f, %f]")``, which takes ``[a,b,c]``;
* optionally ``rng_1`` .. ``rng_6``: the distance (m, ``atof``) each SITL rangefinder
  (``RNGFNDn_TYPE`` 100, AP_RangeFinder_SITL) reads.  ArduPilot keeps the last value of
  a key the reply leaves out, so once sent the key is in every reply.
"""
import struct
from typing import NamedTuple, Optional, Sequence, Tuple, Union

#: Magic numbers of the two packet layouts (SIM_JSON.h) and their channel counts.
MAGIC_16 = 18458
MAGIC_32 = 29569
CHANNELS = {MAGIC_16: 16, MAGIC_32: 32}
#: magic, frame_rate, frame_count (SIM_JSON.h servo_packet_*): '<HHI', then the pwm.
LAYOUTS = {magic: struct.Struct('<HHI%dH' % n) for magic, n in CHANNELS.items()}
#: Why a packet is refused (counted in /diagnostics).
REFUSALS = ('bad_magic', 'bad_size', 'bad_frame_rate')


class ServoPacket(NamedTuple):
    """One servo packet of ArduPilot (SIM_JSON.cpp ``JSON::output_servos``)."""

    frame_rate: int
    frame_count: int
    pwm: Tuple[int, ...]


def parse_servo_packet(data: bytes) -> Union[ServoPacket, str]:
    """Return the packet in ``data``, or why it is refused (one of :data:`REFUSALS`)."""
    if len(data) < 2:
        return 'bad_size'
    magic = struct.unpack_from('<H', data)[0]
    layout = LAYOUTS.get(magic)
    if layout is None:
        return 'bad_magic'
    if len(data) != layout.size:  # short, or more than the layout (another sender)
        return 'bad_size'
    fields = layout.unpack(data)
    if fields[1] == 0:
        return 'bad_frame_rate'  # a step of 1/0 s
    return ServoPacket(fields[1], fields[2], fields[3:])


def pack_servo_packet(frame_rate: int, frame_count: int, pwm: Sequence[int],
                      magic: Optional[int] = None) -> bytes:
    """Return the bytes ArduPilot sends (for tests, benches and tools standing in for it)."""
    if magic is None:
        magic = MAGIC_16 if len(pwm) <= 16 else MAGIC_32
    n = CHANNELS[magic]
    values = list(pwm)[:n] + [0] * max(0, n - len(pwm))
    return LAYOUTS[magic].pack(magic, frame_rate, frame_count, *values)


_REPLY = ('\n{"timestamp":%r,"imu":{"gyro":[%r,%r,%r],"accel_body":[%r,%r,%r]},'
          '"position":[%r,%r,%r],"quaternion":[%r,%r,%r,%r],"velocity":[%r,%r,%r]%s}\n')
#: SIM_JSON.h's keytable has six rangefinder keys, rng_1 .. rng_6.
MAX_RANGEFINDERS = 6


def sensor_json(timestamp_s: float, gyro_frd, accel_frd, position_ned, quaternion_wxyz,
                velocity_ned, ranges_m: Sequence[float] = ()) -> bytes:
    """
    Return the reply ArduPilot parses: ``{...}`` between two newlines, SIM_JSON.h's keys.

    ``ranges_m``: the readings of rangefinders 1, 2, ... (``rng_1`` ...; none: no key).
    Floats as their shortest round-trip text (repr).  Every value must be finite (the
    caller replies with the last good state): 'nan' and 'inf' appear in no key.
    """
    if len(ranges_m) > MAX_RANGEFINDERS:
        raise ValueError('%d rangefinder readings: SIM_JSON reads rng_1 .. rng_%d'
                         % (len(ranges_m), MAX_RANGEFINDERS))
    ranges = ''.join(',"rng_%d":%r' % (k, float(r)) for k, r in enumerate(ranges_m, 1))
    text = _REPLY % (float(timestamp_s), *map(float, gyro_frd), *map(float, accel_frd),
                     *map(float, position_ned), *map(float, quaternion_wxyz),
                     *map(float, velocity_ned), ranges)
    if 'nan' in text or 'inf' in text:
        raise ValueError('a reply value is not finite: %s' % text.strip())
    return text.encode('ascii')
