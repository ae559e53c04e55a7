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

"""BagWriter.queue_raw (batched sqlite3 inserts) writes the same bag as write_raw."""

import numpy as np
import pytest

from uwv_hydro.bag.bag_reader import read_messages
from uwv_hydro.bag.rosbag_io import BagWriter, MessageFactory, WRENCH


def _write(path, queued, storage=None):
    factory = MessageFactory()
    rng = np.random.default_rng(0)
    with BagWriter(path, storage=storage, store=factory.store) as bag:
        for k in range(3000):
            stamp = 1_000_000_000 + k * 10_000_000
            for topic, frame in (('/a', 'base_link'), ('/b', 'odom'), ('/c', 'x')):
                data = bytes(factory.store.serialize_cdr(
                    factory.wrench(stamp, frame, rng.normal(size=6)), WRENCH))
                (bag.queue_raw if queued else bag.write_raw)(topic, WRENCH, stamp, data)
    return path


@pytest.mark.parametrize('storage', ['sqlite3', 'mcap'])
def test_queued_writes_give_the_same_bag_bytes(tmp_path, storage):
    a = _write(tmp_path / 'direct', False, storage)
    b = _write(tmp_path / 'queued', True, storage)
    files_a = sorted(p.name.replace('direct', 'X') for p in a.iterdir())
    files_b = sorted(p.name.replace('queued', 'X') for p in b.iterdir())
    assert files_a == files_b
    for p in sorted(a.iterdir()):
        q = b / p.name.replace('direct', 'queued')
        want = p.read_bytes().replace(b'direct', b'queued')
        assert q.read_bytes() == want, p.name
    got = [(t, ns) for t, ns, _ in read_messages(b, ['/a', '/b', '/c'])]
    first = [('/a', 1_000_000_000), ('/b', 1_000_000_000), ('/c', 1_000_000_000)]
    assert len(got) == 9000 and got[:3] == first
