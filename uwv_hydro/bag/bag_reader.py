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
Read rosbag2 bags (sqlite3 and mcap) without a ROS installation, damaged ones included.

Every read goes through one guard (:func:`_reader`): a bag that rosbags or its storage
cannot open, read or close is refused as a :class:`~uwv_hydro.bag.rosbag_io.BagError`
naming the file; a message that does not decode names its topic and bag time; a topic
that yields fewer messages than the bag's own index counts is refused, not read short.
(Writing and the message factory: :mod:`uwv_hydro.bag.rosbag_io`.)
"""
from collections import Counter
import contextlib
import pathlib
from typing import Dict, Iterable, Iterator, List, Optional, Tuple

from uwv_hydro.bag.read_errors import error_reason as _reason, unreadable_reason
from uwv_hydro.bag.rosbag_io import BagError, typestore


@contextlib.contextmanager
def _reader(path):
    """
    Yield an open rosbags Reader of ``path``; raise BagError naming the file if it fails.

    A damaged bag fails in many ways inside rosbags and its storage (ReaderError, the
    sqlite3 driver's errors, UnicodeDecodeError, a MemoryError for a corrupt record
    length): opening, reading and closing are all turned into one BagError.
    """
    from rosbags.rosbag2 import Reader
    try:
        reader = Reader(pathlib.Path(path))
        reader.open()
    except Exception as exc:  # rosbags raises several types for unreadable bags
        raise BagError('cannot read bag: %s' % unreadable_reason(path, exc),
                       source=str(path)) from exc
    bad = [c for c in reader.connections if type(c.msgcount) is not int or c.msgcount < 0]
    if bad:  # rosbag2's metadata.yaml as written, read without a schema
        reader.close()
        raise BagError('cannot read bag: the message_count of topic %s is %r, not a count'
                       % (bad[0].topic, bad[0].msgcount), source=str(path))
    try:
        yield reader
    finally:
        try:
            reader.close()
        except Exception:  # noqa: B902 -- a damaged file; what was read stands
            pass


def bag_topics(path) -> Dict[str, str]:
    """Return {topic: msgtype} of a bag, or raise BagError naming the file."""
    with _reader(path) as reader:
        return {c.topic: c.msgtype for c in reader.connections}


def decoded(decode, raw: bytes, topic: str, bag_ns: int, source):
    """Return ``decode(raw)``, or raise BagError naming the message of a damaged bag."""
    try:
        return decode(raw)
    except Exception as exc:  # noqa: B902 -- CDR decoders fail in many ways on bad bytes
        raise BagError('%s message at bag time %d ns cannot be decoded: %s'
                       % (topic, bag_ns, _reason(exc)), source=str(source)) from exc


def read_messages(path, topics: Iterable[str],
                  expected_types: Optional[Dict[str, str]] = None
                  ) -> Iterator[Tuple[str, int, object]]:
    """
    Yield (topic, bag timestamp ns, message) for ``topics`` in timestamp order.

    Raise BagError naming the bag and the topics it does have when one is missing, or
    when a topic's type differs from ``expected_types``, or naming the message that
    cannot be decoded.
    """
    store = typestore()
    for topic, stamp, raw, msgtype in read_raw_messages(path, topics, expected_types):
        yield topic, stamp, decoded(lambda data: store.deserialize_cdr(data, msgtype), raw,
                                    topic, stamp, path)


def read_raw_messages(path, topics: Iterable[str],
                      expected_types: Optional[Dict[str, str]] = None
                      ) -> Iterator[Tuple[str, int, bytes, str]]:
    """Yield (topic, bag timestamp ns, CDR bytes, msgtype), checked as :func:`read_messages`."""
    wanted: List[str] = list(dict.fromkeys(topics))
    with _reader(path) as reader:
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
        messages = reader.messages(connections=conns)
        read = Counter()  # messages read per topic, against the bag's own counts
        count, last = 0, None
        while True:
            try:
                conn, stamp, raw = next(messages)
            except StopIteration:
                break
            except Exception as exc:  # noqa: B902 -- damaged storage, read part way
                raise BagError('bag damaged %s: %s' % (_after(count, last), _reason(exc)),
                               source=str(path)) from exc
            count, last = count + 1, stamp
            read[conn.topic] += 1
            yield conn.topic, stamp, raw, conn.msgtype
        counted = Counter()  # a topic may have several connections (split bags)
        for c in conns:
            counted[c.topic] += c.msgcount
        short = ['%s %d of %d' % (topic, read[topic], n) for topic, n in counted.items()
                 if read[topic] < n]
        if short:  # a damaged record can end the storage's scan without an error
            raise BagError('bag damaged %s: its index counts more messages than could be '
                           'read (%s)' % (_after(count, last), ', '.join(short)),
                           source=str(path))


def _after(count: int, last: Optional[int]) -> str:
    return ('after %d messages (the last at bag time %d ns)' % (count, last) if count
            else 'before its first message')


def message_count(path, topics: Iterable[str]) -> int:
    """Return how many messages the bag holds on ``topics`` (for progress bars)."""
    wanted = set(topics)
    with _reader(path) as reader:
        return sum(c.msgcount for c in reader.connections if c.topic in wanted)
