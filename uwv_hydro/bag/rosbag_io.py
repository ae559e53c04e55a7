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
x, y, z, w fields.
"""

from collections import Counter
import pathlib
import shutil
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.modes.msg_conversions import pose_to_arrays, twist_to_array, wrench_to_array

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

    def _connection(self, topic: str, msgtype: str):
        """Return the bag connection of ``topic``, adding it on first use."""
        conn = self._connections.get(topic)
        if conn is None:
            conn = self._writer.add_connection(topic, msgtype, typestore=self.store)
            self._connections[topic] = conn
        return conn


def bag_topics(path) -> Dict[str, str]:
    """Return {topic: msgtype} of a bag, or raise BagError naming the file."""
    from rosbags.rosbag2 import Reader
    try:
        with Reader(pathlib.Path(path)) as reader:
            return {c.topic: c.msgtype for c in reader.connections}
    except Exception as exc:  # rosbags raises several types for unreadable bags
        raise BagError('cannot read bag: %s' % exc, source=str(path)) from exc


def read_messages(path, topics: Iterable[str],
                  expected_types: Optional[Dict[str, str]] = None
                  ) -> Iterator[Tuple[str, int, object]]:
    """
    Yield (topic, bag timestamp ns, message) for ``topics`` in timestamp order.

    Raise BagError naming the bag and the topics it does have when one is missing, or
    when a topic's type differs from ``expected_types``.
    """
    store = typestore()
    for topic, stamp, raw, msgtype in read_raw_messages(path, topics, expected_types):
        yield topic, stamp, store.deserialize_cdr(raw, msgtype)


def read_raw_messages(path, topics: Iterable[str],
                      expected_types: Optional[Dict[str, str]] = None
                      ) -> Iterator[Tuple[str, int, bytes, str]]:
    """Yield (topic, bag timestamp ns, CDR bytes, msgtype), checked as :func:`read_messages`."""
    from rosbags.rosbag2 import Reader
    wanted: List[str] = list(dict.fromkeys(topics))
    try:
        reader = Reader(pathlib.Path(path))
        reader.open()
    except Exception as exc:
        raise BagError('cannot read bag: %s' % exc, source=str(path)) from exc
    try:
        have = {c.topic: c.msgtype for c in reader.connections}
        missing = [t for t in wanted if t not in have]
        if missing:
            listing = ', '.join('%s (%s)' % kv for kv in sorted(have.items())) or 'none'
            raise BagError('topic %s not in bag; topics in the bag: %s'
                           % (', '.join(missing), listing), source=str(path))
        for topic, want in (expected_types or {}).items():
            if topic in have and have[topic] != want:
                raise BagError('topic %s has type %s, expected %s'
                               % (topic, have[topic], want), source=str(path))
        conns = [c for c in reader.connections if c.topic in wanted]
        for conn, stamp, raw in reader.messages(connections=conns):
            yield conn.topic, stamp, raw, conn.msgtype
    finally:
        reader.close()


def message_count(path, topics: Iterable[str]) -> int:
    """Return how many messages the bag holds on ``topics`` (for progress bars)."""
    from rosbags.rosbag2 import Reader
    wanted = set(topics)
    with Reader(pathlib.Path(path)) as reader:
        return sum(c.msgcount for c in reader.connections if c.topic in wanted)
