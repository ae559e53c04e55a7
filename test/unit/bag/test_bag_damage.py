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
Damaged bags: ``replay``, ``replay --simulate`` and ``fit`` refuse them naming the file.

A recording cut short (a crash, a full disk) or with damaged bytes failed deep inside
rosbags and its storage: ReaderError, the sqlite3 driver's CorruptError,
UnicodeDecodeError, a MemoryError for a corrupt MCAP record length, a ValueError in the
CDR decoders -- each a traceback.  Measured by damaging the bytes of a simulated
recording (MCAP file, rosbag2 sqlite3 directory and its metadata.yaml) at random: 37
of 60 replays raised one; after, 0 of 600.  These are their minimal forms.
"""
import pathlib
import shutil
import struct

import pytest

from uwv_hydro.bag.bag_reader import read_messages
from uwv_hydro.bag.replay import replay_wrench
from uwv_hydro.bag.replay_simulation import replay_simulate
from uwv_hydro.bag.rosbag_io import BagError, BagWriter, MessageFactory, ODOMETRY, WRENCH
from uwv_hydro.description.loader import load_vehicle

REMUS = pathlib.Path(__file__).resolve().parents[3] / 'config' / 'remus100.yaml'
N = 400


def _record(path):
    """Write N odometry and thrust messages (10 ms apart), as a node under test would."""
    factory = MessageFactory()
    with BagWriter(path, store=factory.store) as bag:
        for k in range(N):
            stamp = 1_000_000_000 + 10_000_000 * k
            odometry = factory.odometry(stamp, 'odom', 'base_link', [0.01 * k, 0, -5],
                                        [1, 0, 0, 0], [1.0, 0, 0, 0, 0, 0])
            bag.write_raw('/odometry', ODOMETRY, stamp, bytes(
                factory.store.serialize_cdr(odometry, ODOMETRY)))
            thrust = factory.wrench(stamp, 'base_link', [10.0, 0, 0, 0, 0, 0])
            bag.write_raw('/thrust', WRENCH, stamp, bytes(
                factory.store.serialize_cdr(thrust, WRENCH)))


def _readers(vehicle):
    return {
        'replay': lambda bag: replay_wrench(bag, vehicle, progress=False),
        'replay --simulate': lambda bag: replay_simulate(bag, vehicle, thrust_topics=['/thrust'],
                                                         progress=False),
        'fit (read_messages)': lambda bag: list(read_messages(bag, ['/odometry', '/thrust'])),
    }


@pytest.fixture(scope='module')
def recordings(tmp_path_factory):
    root = tmp_path_factory.mktemp('bags')
    _record(root / 'rec.mcap')
    _record(root / 'rec')
    return root


def _message_records(data: bytes):
    """
    Return the offsets of the message records in the first chunk of an MCAP file.

    MCAP (mcap.dev specification): 8 magic bytes, then records of opcode (1 byte) and
    content length (uint64 LE); a Chunk (0x06) holds start/end time, uncompressed size
    and CRC, the compression name (uint32-prefixed), the records' length (uint64) and,
    uncompressed here, the Message records (0x05).
    """
    pos = 8
    while data[pos] != 0x06:
        pos += 9 + struct.unpack_from('<Q', data, pos + 1)[0]
    pos += 9 + 28
    name = struct.unpack_from('<I', data, pos)[0]
    assert data[pos + 4:pos + 4 + name] == b'', 'a compressed chunk'
    pos += 4 + name
    end = pos + 8 + struct.unpack_from('<Q', data, pos)[0]
    pos += 8
    out = []
    while pos < end:
        if data[pos] == 0x05:
            out.append(pos)
        pos += 9 + struct.unpack_from('<Q', data, pos + 1)[0]
    return out


def _damaged(recordings, tmp_path, how):
    if how.startswith('mcap record'):
        data = bytearray((recordings / 'rec.mcap').read_bytes())
        at = _message_records(data)[N]  # the first odometry message of the second half
        length = struct.unpack_from('<Q', data, at + 1)[0]
        struct.pack_into('<Q', data, at + 1, 1 << 40 if how.endswith('past the file')
                         else length + 5)
        out = tmp_path / 'record.mcap'
        out.write_bytes(bytes(data))
        return out
    if how == 'mcap cut short':
        data = (recordings / 'rec.mcap').read_bytes()
        out = tmp_path / 'cut.mcap'
        out.write_bytes(data[:len(data) * 3 // 5])
        return out
    out = tmp_path / 'damaged'
    shutil.copytree(recordings / 'rec', out)
    if how == 'sqlite3 page zeroed':
        db = next(out.glob('*.db3'))
        data = bytearray(db.read_bytes())
        data[len(data) // 2:len(data) // 2 + 4096] = bytes(4096)
        db.write_bytes(bytes(data))
    elif how == 'metadata key missing':
        meta = out / 'metadata.yaml'
        meta.write_text(meta.read_text().replace('    name: ', '    nome: ', 1))
    return out


@pytest.mark.parametrize('how', ['mcap cut short', 'sqlite3 page zeroed',
                                 'metadata key missing', 'mcap record past the file'])
@pytest.mark.parametrize('reader', ['replay', 'replay --simulate', 'fit (read_messages)'])
def test_a_damaged_bag_is_refused_naming_it(recordings, tmp_path, how, reader):
    vehicle = load_vehicle(str(REMUS))
    for intact in (recordings / 'rec.mcap', recordings / 'rec'):
        _readers(vehicle)[reader](intact)  # the undamaged recordings read
    bag = _damaged(recordings, tmp_path, how)
    with pytest.raises(BagError) as caught:
        _readers(vehicle)[reader](bag)
    assert caught.value.source == str(bag)
    print('%s, %s: %s' % (how, reader, caught.value))


def test_a_record_five_bytes_too_long_loses_no_message_in_silence(recordings, tmp_path):
    """
    Five bytes too many in one odometry record (the next record's opcode and length).

    rosbags' deserialiser (``fit``) refuses the message's size.  Replay's own decoder
    reads its fields and leaves trailing bytes, as the ROS 2 middleware does with a
    longer buffer; but the storage's scan of the chunk then ends there without an
    error: 199 odometry messages were lost in silence.  The bag's index counts them.
    """
    bag = _damaged(recordings, tmp_path, 'mcap record 5 bytes long')
    with pytest.raises(BagError, match='/odometry message at bag time 3000000000 ns cannot '
                                       'be decoded: SerdeError'):
        list(read_messages(bag, ['/odometry', '/thrust']))
    vehicle = load_vehicle(str(REMUS))
    with pytest.raises(BagError, match=r'bag damaged after 201 messages \(the last at bag '
                                       r'time 3000000000 ns\): its index counts more messages '
                                       r'than could be read \(/odometry 201 of 400\)'):
        replay_wrench(bag, vehicle, progress=False)


def test_a_message_with_damaged_bytes_names_its_topic_and_bag_time(recordings, tmp_path):
    factory = MessageFactory()
    good = bytes(factory.store.serialize_cdr(factory.wrench(
        1, 'base_link', [1.0, 0, 0, 0, 0, 0]), WRENCH))
    odometry = bytes(factory.store.serialize_cdr(factory.odometry(
        1, 'odom', 'base_link', [0, 0, -5], [1, 0, 0, 0], [0] * 6), ODOMETRY))
    with BagWriter(tmp_path / 'bad', store=factory.store) as bag:
        bag.write_raw('/odometry', ODOMETRY, 10, odometry)
        bag.write_raw('/thrust', WRENCH, 15, good)
        # the frame id's length says 4 GB: the string runs past the message
        bag.write_raw('/thrust', WRENCH, 20, good[:12] + b'\xff\xff\xff\xff' + good[16:])
        bag.write_raw('/odometry', ODOMETRY, 30, odometry)
    vehicle = load_vehicle(str(REMUS))
    for run in (lambda: replay_simulate(tmp_path / 'bad', vehicle, thrust_topics=['/thrust'],
                                        progress=False),
                lambda: list(read_messages(tmp_path / 'bad', ['/odometry', '/thrust']))):
        with pytest.raises(BagError, match='/thrust message at bag time 20 ns cannot be '
                                           'decoded'):
            run()
