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
Read and write rosbag2 bags (sqlite3 and mcap) without a ROS installation.

Built on ``rosbags`` with the ROS 2 Kilted message definitions, so what is written here
plays back with ``ros2 bag play`` and what ``ros2 bag record`` wrote reads back here.
Quaternions cross this boundary as [w, x, y, z] (the core's order); ROS messages carry
x, y, z, w fields.  Reading, with its checks of damaged bags: :mod:`uwv_hydro.bag.bag_reader`.
"""

import collections
from collections import Counter
import io
import pathlib
import shutil
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.modes.messages.msg_conversions import (
    pose_to_arrays, twist_to_array, wrench_to_array)

ODOMETRY = 'nav_msgs/msg/Odometry'
WRENCH = 'geometry_msgs/msg/WrenchStamped'
TF = 'tf2_msgs/msg/TFMessage'
CLOCK = 'rosgraph_msgs/msg/Clock'
VECTOR3 = 'geometry_msgs/msg/Vector3Stamped'


def typestore():
    """Return the rosbags type store used for every bag (ROS 2 Kilted definitions)."""
    from rosbags.typesys import get_typestore, Stores
    return get_typestore(Stores.ROS2_KILTED)


class BagError(DescriptionError):
    """A bag cannot be read as asked (missing topic, wrong type, unreadable file)."""


def _time(ts, stamp_ns: int):
    t = ts.types['builtin_interfaces/msg/Time']
    return t(sec=int(stamp_ns // 1_000_000_000), nanosec=int(stamp_ns % 1_000_000_000))


def stamp_to_ns(stamp) -> int:
    """Return a builtin_interfaces/Time as integer nanoseconds."""
    return int(stamp.sec) * 1_000_000_000 + int(stamp.nanosec)


class MessageFactory:
    """Build rosbags message objects from numpy state (one typestore, reused)."""

    def __init__(self, store=None):
        self.store = store or typestore()
        t = self.store.types
        self._header = t['std_msgs/msg/Header']
        self._vec = t['geometry_msgs/msg/Vector3']
        self._point = t['geometry_msgs/msg/Point']
        self._quat = t['geometry_msgs/msg/Quaternion']
        self._pose = t['geometry_msgs/msg/Pose']
        self._twist = t['geometry_msgs/msg/Twist']
        self._wrench = t['geometry_msgs/msg/Wrench']
        self._transform = t['geometry_msgs/msg/Transform']

    def header(self, stamp_ns: int, frame_id: str):
        """Return a std_msgs/Header."""
        return self._header(stamp=_time(self.store, stamp_ns), frame_id=frame_id)

    def odometry(self, stamp_ns: int, frame_id: str, child_frame_id: str,
                 position: Sequence[float], quaternion_wxyz: Sequence[float],
                 twist: Sequence[float], pose_covariance: Optional[np.ndarray] = None,
                 twist_covariance: Optional[np.ndarray] = None):
        """Return a nav_msgs/Odometry (twist of the body origin in the child frame)."""
        t = self.store.types
        p, q, v = position, quaternion_wxyz, twist
        pose = self._pose(position=self._point(x=float(p[0]), y=float(p[1]), z=float(p[2])),
                          orientation=self._quat(x=float(q[1]), y=float(q[2]),
                                                 z=float(q[3]), w=float(q[0])))
        tw = self._twist(linear=self._vec(x=float(v[0]), y=float(v[1]), z=float(v[2])),
                         angular=self._vec(x=float(v[3]), y=float(v[4]), z=float(v[5])))
        pc = np.zeros(36) if pose_covariance is None else np.asarray(pose_covariance, float)
        tc = np.zeros(36) if twist_covariance is None else np.asarray(twist_covariance, float)
        return t[ODOMETRY](
            header=self.header(stamp_ns, frame_id), child_frame_id=child_frame_id,
            pose=t['geometry_msgs/msg/PoseWithCovariance'](pose=pose, covariance=pc),
            twist=t['geometry_msgs/msg/TwistWithCovariance'](twist=tw, covariance=tc))

    def wrench(self, stamp_ns: int, frame_id: str, w: Sequence[float]):
        """Return a geometry_msgs/WrenchStamped from [Fx, Fy, Fz, Tx, Ty, Tz]."""
        body = self._wrench(force=self._vec(x=float(w[0]), y=float(w[1]), z=float(w[2])),
                            torque=self._vec(x=float(w[3]), y=float(w[4]), z=float(w[5])))
        return self.store.types[WRENCH](header=self.header(stamp_ns, frame_id), wrench=body)

    def tf(self, stamp_ns: int, frame_id: str, child_frame_id: str,
           position: Sequence[float], quaternion_wxyz: Sequence[float]):
        """Return a tf2_msgs/TFMessage with one transform frame_id -> child_frame_id."""
        p, q = position, quaternion_wxyz
        tr = self._transform(
            translation=self._vec(x=float(p[0]), y=float(p[1]), z=float(p[2])),
            rotation=self._quat(x=float(q[1]), y=float(q[2]), z=float(q[3]), w=float(q[0])))
        ts = self.store.types['geometry_msgs/msg/TransformStamped'](
            header=self.header(stamp_ns, frame_id), child_frame_id=child_frame_id,
            transform=tr)
        return self.store.types[TF](transforms=[ts])

    def clock(self, stamp_ns: int):
        """Return a rosgraph_msgs/Clock."""
        return self.store.types[CLOCK](clock=_time(self.store, stamp_ns))


def odometry_arrays(msg) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return (position, quaternion wxyz, body twist) of a nav_msgs/Odometry."""
    # rosbags messages carry the ROS field names: the node's conversions serve both
    position, quaternion = pose_to_arrays(msg.pose.pose)
    return position, quaternion, twist_to_array(msg.twist.twist)


def wrench_array(msg) -> np.ndarray:
    """Return [Fx, Fy, Fz, Tx, Ty, Tz] of a geometry_msgs/WrenchStamped."""
    return wrench_to_array(msg.wrench)


class BagWriter:
    """
    Write a bag: ``x.mcap`` is one MCAP file, any other path a rosbag2 directory.

    A path ending in ``.mcap`` becomes that single, self-contained MCAP file (what
    ``ros2 bag play x.mcap``, Foxglove and rosbags read; rosbag2's metadata is inside
    it); it is written as a bag directory beside it and moved into place when the
    writer closes.  Other paths are a rosbag2 directory (``metadata.yaml`` and one
    storage file), sqlite3 unless ``storage='mcap'``.  Messages must be written in
    non-decreasing timestamp order for a faithful replay.
    """

    def __init__(self, path, storage: Optional[str] = None, store=None):
        from rosbags.rosbag2 import StoragePlugin, Writer
        self.path = pathlib.Path(path)
        single_file = self.path.suffix == '.mcap'
        if storage is None or single_file:
            storage = 'mcap' if single_file else 'sqlite3'
        plugin = {'mcap': StoragePlugin.MCAP, 'sqlite3': StoragePlugin.SQLITE3}[storage]
        if self.path.exists():
            raise BagError('output bag already exists; remove it or choose another path',
                           source=str(self.path))
        self.store = store or typestore()
        # x.mcap: the directory .x.mcap.partial/x holds x.mcap until the writer closes
        self._partial = (self.path.with_name('.%s.partial' % self.path.name) if single_file
                         else None)
        directory = self.path if self._partial is None else self._partial / self.path.stem
        if self._partial is not None and self._partial.exists():
            raise BagError('a partial output %s exists (an interrupted run?); remove it'
                           % self._partial, source=str(self.path))
        self._writer = Writer(directory, version=9, storage_plugin=plugin)
        self._connections: Dict[str, object] = {}
        self._pending: List[Tuple[int, int, bytes]] = []
        self._batch = False
        self._mcap_batch = False

    def __enter__(self):
        from rosbags.rosbag2.enums import CompressionMode
        self._writer.open()
        w = self._writer
        # queue_raw batches the inserts of rosbags' sqlite3 storage (same rows, same
        # order, one executemany); any other storage is written message by message
        self._batch = (type(w.storage).__name__ == 'Sqlite3Writer'
                       and hasattr(w.storage, 'cursor') and hasattr(w, 'counts')
                       and hasattr(w, 'min_timestamp') and hasattr(w, 'max_timestamp')
                       and w.compression_mode == CompressionMode.NONE)
        # write_many builds whole MCAP chunks with numpy where rosbags' McapWriter is
        # the one this was written against (0.11: uncompressed chunks, its index lists)
        self._mcap_batch = (type(w.storage).__name__ == 'McapWriter'
                            and w.compression_mode == CompressionMode.NONE
                            and getattr(w.storage, 'compression', None) == ''
                            and all(hasattr(w.storage, a) for a in (
                                'chunk', 'chunks', 'bio', 'channel_stats',
                                'message_start_time', 'message_end_time'))
                            and hasattr(w, 'counts'))
        return self

    def __exit__(self, *exc):
        try:
            self.flush()
        finally:
            self._writer.close()
            if self._partial is not None:
                # the bag directory's MCAP file becomes the output; its metadata.yaml
                # is also inside the MCAP file
                (self._partial / self.path.stem / self.path.name).replace(self.path)
                shutil.rmtree(self._partial)

    def write(self, topic: str, msgtype: str, stamp_ns: int, msg) -> None:
        """Serialise ``msg`` (a rosbags message of ``msgtype``) onto ``topic``."""
        self.write_raw(topic, msgtype, stamp_ns, self.store.serialize_cdr(msg, msgtype))

    def write_raw(self, topic: str, msgtype: str, stamp_ns: int, data: bytes) -> None:
        """Write already serialised CDR ``data`` of ``msgtype`` onto ``topic``."""
        self.flush()
        self._writer.write(self._connection(topic, msgtype), int(stamp_ns), data)

    def queue_raw(self, topic: str, msgtype: str, stamp_ns: int, data: bytes) -> None:
        """
        Write CDR ``data`` like :meth:`write_raw`, possibly batched (flushed at exit).

        With rosbags' sqlite3 storage the rows are inserted with one ``executemany``
        per batch: the same rows in the same order as message-by-message writes, and
        the bag's counts and time range updated as rosbags' ``Writer.write`` does.
        """
        conn = self._connection(topic, msgtype)
        if not self._batch:
            self._writer.write(conn, int(stamp_ns), data)
            return
        self._pending.append((conn.id, int(stamp_ns), data))
        if len(self._pending) >= 8192:
            self.flush()

    def write_many(self, topic: str, msgtype: str, stamps_ns, records: np.ndarray) -> None:
        """
        Write ``len(stamps_ns)`` messages of one topic: row i of ``records`` at stamp i.

        ``records`` is (n, size) uint8, one CDR message per row (all of one size, as
        :func:`uwv_hydro.bag.cdr_codec.repeat_message` makes them).  MCAP: the
        messages go into chunks of their own, built with numpy (a reader merges chunks
        by log time through their message indexes, as the MCAP specification allows);
        sqlite3: one ``executemany``; other storages message by message.
        """
        conn = self._connection(topic, msgtype)
        stamps = np.asarray(stamps_ns, dtype=np.int64)
        records = np.ascontiguousarray(records, dtype=np.uint8)
        if len(stamps) == 0:
            return
        if self._mcap_batch:
            self._mcap_many(conn, stamps, records)
            return
        size = records.shape[1]
        data = records.tobytes()
        messages = (data[i:i + size] for i in range(0, len(data), size))
        if not self._batch:
            for stamp, raw in zip(stamps.tolist(), messages):
                self._writer.write(conn, stamp, raw)
            return
        self.flush()
        self._pending = [(conn.id, stamp, raw) for stamp, raw in zip(stamps.tolist(), messages)]
        self.flush()

    def _mcap_many(self, conn, stamps: np.ndarray, records: np.ndarray) -> None:
        """Write fixed-size messages as whole MCAP chunks (rosbags' McapWriter state kept)."""
        w = self._writer
        st = w.storage
        size = records.shape[1]
        # MCAP Message record (op 0x05): uint64 length, uint16 channel id, uint32
        # sequence, uint64 log time, uint64 publish time, data (mcap.dev/spec#message-op0x05)
        layout = np.dtype([('op', 'u1'), ('length', '<u8'), ('channel', '<u2'),
                           ('sequence', '<u4'), ('log_time', '<u8'),
                           ('publish_time', '<u8'), ('data', 'u1', (size,))])
        # chunks of about 1 MiB of message data (rosbags closes a chunk past 1 MiB)
        per_chunk = max(1, (1 << 20) // size)
        for start in range(0, len(stamps), per_chunk):
            t = stamps[start:start + per_chunk]
            rows = np.empty(len(t), dtype=layout)
            rows['op'] = 0x05
            rows['length'] = layout.itemsize - 9
            rows['channel'] = conn.id
            rows['sequence'] = 0
            rows['log_time'] = t
            rows['publish_time'] = t
            rows['data'] = records[start:start + per_chunk]
            chunk = st.chunk
            offsets = chunk.bio.tell() + np.arange(len(t), dtype=np.int64) * layout.itemsize
            chunk.bio.write(rows.view(np.uint8))
            first, last = int(t.min()), int(t.max())
            chunk.message_start_time = min(chunk.message_start_time, first)
            chunk.message_end_time = max(chunk.message_end_time, last)
            self._close_mcap_chunk(conn.id, t, offsets)
            st.channel_stats[conn.id] += len(t)
            st.message_start_time = min(st.message_start_time, first)
            st.message_end_time = max(st.message_end_time, last)
            w.counts[conn.id] += len(t)
            w.min_timestamp = min(first, w.min_timestamp)
            w.max_timestamp = max(last, w.max_timestamp)

    def _close_mcap_chunk(self, channel: int, stamps: np.ndarray, offsets: np.ndarray) -> None:
        """Close rosbags' pending chunk with ``channel``'s messages indexed from arrays."""
        from rosbags.rosbag2.storage_mcap import (write_record, write_string, write_uint16,
                                                  write_uint32, write_uint64)
        st = self._writer.storage
        chunk = st.chunk
        index = {cid: (np.array([m[0] for m in msgs], dtype=np.int64),
                       np.array([m[1] for m in msgs], dtype=np.int64))
                 for cid, msgs in chunk.msgs.items() if msgs}
        if channel in index:
            t0, o0 = index[channel]
            stamps, offsets = np.concatenate([t0, stamps]), np.concatenate([o0, offsets])
        index[channel] = (stamps, offsets)
        # Chunk record (op 0x06): start and end time, uncompressed size, crc (0: none),
        # compression (''), records length, records
        records = chunk.bio.getbuffer()
        head = io.BytesIO()
        write_uint64(head, chunk.message_start_time)
        write_uint64(head, chunk.message_end_time)
        write_uint64(head, len(records))
        write_uint32(head, 0)
        write_string(head, '')
        write_uint64(head, len(records))
        chunk_start = st.bio.tell()
        # the record's opcode and length, its fields, then the records (not copied)
        st.bio.write(b'\x06' + (head.tell() + len(records)).to_bytes(8, 'little'))
        st.bio.write(head.getbuffer())
        st.bio.write(records)
        del records
        chunk_end = st.bio.tell()
        # Message Index records (op 0x07): per channel (log time, offset), by log time
        index_offsets = []
        for cid, (t, o) in index.items():
            order = np.argsort(t, kind='stable')
            entries = np.empty((len(t), 2), dtype='<u8')
            entries[:, 0] = t[order]
            entries[:, 1] = o[order]
            index_offsets.append((cid, st.bio.tell()))
            rec = io.BytesIO()
            write_uint16(rec, cid)
            write_uint32(rec, entries.nbytes)
            rec.write(entries.tobytes())
            write_record(st.bio, 0x07, rec)
        # Chunk Index record (op 0x08), written into the summary when the bag closes
        rec = io.BytesIO()
        write_uint64(rec, chunk.message_start_time)
        write_uint64(rec, chunk.message_end_time)
        write_uint64(rec, chunk_start)
        write_uint64(rec, chunk_end - chunk_start)
        write_uint32(rec, len(index_offsets) * 10)
        for cid, offset in index_offsets:
            write_uint16(rec, cid)
            write_uint64(rec, offset)
        write_uint64(rec, st.bio.tell() - chunk_end)
        write_string(rec, '')
        write_uint64(rec, chunk.bio.tell())
        write_uint64(rec, chunk.bio.tell())
        st.chunks.append(rec)
        st.chunk = type(chunk)(2**63 - 1, 0, io.BytesIO(), collections.defaultdict(list))

    def flush(self) -> None:
        """Insert the messages queued by :meth:`queue_raw`."""
        rows = self._pending
        if not rows:
            return
        self._pending = []
        w = self._writer
        # rosbags Sqlite3Writer.write, for many rows at once
        w.storage.cursor.executemany(
            'INSERT INTO messages (topic_id, timestamp, data) VALUES(?, ?, ?)', rows)
        for conn_id, count in Counter(r[0] for r in rows).items():
            w.counts[conn_id] += count
        stamps = [r[1] for r in rows]
        w.min_timestamp = min(min(stamps), w.min_timestamp)
        w.max_timestamp = max(max(stamps), w.max_timestamp)

    def latched(self, topic: str, msgtype: str) -> None:
        """
        Add ``topic`` offered as tf2_ros' StaticTransformBroadcaster offers /tf_static.

        Reliable, transient local, keep last 1 (recorded in the bag's
        offered_qos_profiles), so that ``ros2 bag play`` republishes it to late
        subscribers such as RViz's and tf2's static listeners.
        """
        from rosbags.interfaces import (Qos, QosDurability, QosHistory, QosLiveliness,
                                        QosReliability, QosTime)
        zero = QosTime(0, 0)  # rmw default: no deadline, lifespan or lease
        qos = Qos(QosHistory.KEEP_LAST, 1, QosReliability.RELIABLE,
                  QosDurability.TRANSIENT_LOCAL, zero, zero, QosLiveliness.AUTOMATIC, zero,
                  False)
        self._connection(topic, msgtype, (qos,))

    def _connection(self, topic: str, msgtype: str, qos=()):
        """Return the bag connection of ``topic``, adding it on first use."""
        conn = self._connections.get(topic)
        if conn is None:
            conn = self._writer.add_connection(topic, msgtype, typestore=self.store,
                                               offered_qos_profiles=qos)
            self._connections[topic] = conn
        return conn
