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
ArduPilot's side of the JSON SITL interface, written in the test from SIM_JSON.cpp's rules.

Nothing of ArduPilot is imported or copied: the packet layout is SIM_JSON.h's
``servo_packet_16`` / ``servo_packet_32`` (little-endian, packed: uint16 magic, uint16
frame_rate, uint32 frame_count, uint16 pwm[n]) and the reply is read the way
``JSON::recv_fdm`` and ``JSON::parse_sensors`` read it:

* every newline of the received bytes becomes a NUL; the text parsed is the one
  between the last two NULs (none parsed without two);
* each key is found by plain substring search -- inside its section when it has one,
  searched from just past the section name -- and its value read right after
  ``"key":`` (the key's length + 2): a double with ``atof``, a vector with
  ``sscanf("[%f, %f, %f]")`` (whitespace in the format matches any, also none), a
  quaternion with four;
* ``timestamp``, ``imu/gyro``, ``imu/accel_body``, ``position`` and ``velocity`` are
  required, and ``attitude`` or ``quaternion``;
* ``rng_1`` .. ``rng_6`` are optional, each read with ``atof`` into a ``float``
  (DATA_FLOAT: single precision) and taken as the distance (m) of SITL rangefinder
  1 .. 6 (``rangefinder_m``); :func:`rangefinder_status` is how AP_RangeFinder_SITL and
  ``update_status`` then classify it.
"""
import re
import socket
import struct

MAGIC_16, MAGIC_32 = 18458, 29569
_NUM = r'\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*'
#: (section, key, kind, required) of SIM_JSON.h's keytable (the ones a submarine uses)
KEYS = (('', 'timestamp', 'double', True), ('imu', 'gyro', 'vec3', True),
        ('imu', 'accel_body', 'vec3', True), ('', 'position', 'vec3', True),
        ('', 'attitude', 'vec3', False), ('', 'quaternion', 'quat', False),
        ('', 'velocity', 'vec3', True)) + tuple(
            ('', 'rng_%d' % k, 'float', False) for k in range(1, 7))


def servo_packet(frame_rate, frame_count, pwm, channels=16):
    """Return the bytes of one servo packet laid out as SIM_JSON.h's struct."""
    magic = MAGIC_16 if channels == 16 else MAGIC_32
    values = list(pwm) + [0] * (channels - len(pwm))
    return struct.pack('<HHI' + 'H' * channels, magic, frame_rate, frame_count, *values)


def _atof(text):
    m = re.match(_NUM, text)
    return float(m.group(1)) if m else 0.0


def _single(value):
    """Return ``value`` rounded to a C float (IEEE single), as a DATA_FLOAT key stores it."""
    return struct.unpack('<f', struct.pack('<f', value))[0]


def rangefinder_status(distance, min_m, max_m):
    """
    Return what ArduPilot's SITL rangefinder makes of a distance (m).

    AP_RangeFinder_SITL::update: NaN or inf is 'no_data'; otherwise max(0, distance),
    then AP_RangeFinder_Backend::update_status: above RNGFNDn_MAX 'out_of_range_high',
    below RNGFNDn_MIN 'out_of_range_low', else 'good'.
    """
    if distance != distance or distance in (float('inf'), float('-inf')):
        return 'no_data'
    distance = max(0.0, distance)
    if distance > max_m:
        return 'out_of_range_high'
    if distance < min_m:
        return 'out_of_range_low'
    return 'good'


def _scan(text, n):
    m = re.match(r'\[' + ','.join([_NUM] * n) + r'\]', text)
    return None if m is None else [float(g) for g in m.groups()]


def parse(buffer: bytes):
    """Return ({key: value}, leftover) as ArduPilot parses ``buffer``; ({}, ...) if nothing."""
    data = buffer.replace(b'\n', b'\0')
    p2 = data.rfind(b'\0')
    if p2 <= 0:
        return {}, buffer
    p1 = data.rfind(b'\0', 0, p2)
    if p1 < 0:
        return {}, buffer
    json = data[p1 + 1:p2].decode('ascii')
    out = {}
    for section, key, kind, required in KEYS:
        p = json.find(section)
        if p < 0:
            if required:
                return {}, buffer[p2:]
            continue
        p += len(section) + 1
        q = json.find(key, p)
        if q < 0:
            if required:
                return {}, buffer[p2:]
            continue
        text = json[q + len(key) + 2:]
        name = '%s/%s' % (section, key) if section else key
        if kind == 'double':
            out[name] = _atof(text)
        elif kind == 'float':
            out[name] = _single(_atof(text))
        else:
            value = _scan(text, 4 if kind == 'quat' else 3)
            if value is None:
                return out, buffer[p2:]
            out[name] = value
    if 'attitude' not in out and 'quaternion' not in out:
        return {}, buffer[p2:]
    return out, buffer[p2:]


class Peer:
    """A UDP socket standing in for ArduPilot: one packet out, the reply parsed."""

    def __init__(self, port, timeout=5.0):
        self.address = ('127.0.0.1', port)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(('127.0.0.1', 0))
        self.sock.settimeout(timeout)
        self.buffer = b''

    def send(self, data: bytes) -> None:
        self.sock.sendto(data, self.address)

    def reply(self):
        """Return the parsed reply to the last packet (raises socket.timeout)."""
        data, _ = self.sock.recvfrom(65536)
        state, self.buffer = parse(self.buffer + data)
        return state, data

    def frame(self, frame_count, pwm=(), frame_rate=1200, channels=16):
        """Send one frame and return its parsed reply and its bytes."""
        self.send(servo_packet(frame_rate, frame_count, pwm, channels))
        return self.reply()

    def close(self) -> None:
        self.sock.close()
