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
A sweep's chunks as dask.distributed tasks: resumable, the same numbers as serial.

Each missing chunk is one task, ``run_chunk(plan, index)`` (the plan scattered to the
workers once); results come back to the client, which writes each chunk's Parquet file
as it finishes (so workers need no shared file system and an interrupted sweep keeps
every finished chunk).  Chunks already on disk are not submitted.  A worker that dies
loses its running task; the scheduler runs it again on another worker (dask's
``distributed.scheduler.allowed-failures``), and its file is written once, when its
one result arrives.  :func:`run_serial` runs the same tasks in this process.
"""

from dataclasses import dataclass
from typing import Callable, List, Optional

from uwv_hydro.sweep.chunk_store import finished, write_chunk
from uwv_hydro.sweep.chunk_task import run_chunk


@dataclass
class SweepRun:
    """What a run of the sweep did: chunks computed now and found on disk."""

    computed: List[int]
    skipped: List[int]


def _pending(plan, out_dir):
    done = finished(out_dir, plan.spec_hash, plan.spec.chunks)
    todo = [i for i in range(plan.spec.chunks) if i not in set(done)]
    return done, todo


def run_serial(plan, out_dir, on_chunk: Optional[Callable[[int, int], None]] = None
               ) -> SweepRun:
    """Run the missing chunks here, one after another (``on_chunk(index, runs)`` after each)."""
    done, todo = _pending(plan, out_dir)
    for index in todo:
        columns = run_chunk(plan, index)
        write_chunk(out_dir, plan.spec_hash, index, columns)
        if on_chunk is not None:
            on_chunk(index, len(columns['run']))
    return SweepRun(todo, done)


def run_distributed(plan, out_dir, client,
                    on_chunk: Optional[Callable[[int, int], None]] = None) -> SweepRun:
    """Run the missing chunks on the dask ``client``'s cluster; write each as it finishes."""
    from distributed import as_completed
    done, todo = _pending(plan, out_dir)
    if not todo:
        return SweepRun([], done)
    remote_plan = client.scatter(plan, broadcast=True)
    futures = {client.submit(run_chunk, remote_plan, index, pure=False,
                             key='uwv-sweep-%s-%06d' % (plan.spec_hash[:16], index)): index
               for index in todo}
    for future in as_completed(futures):
        index = futures[future]
        columns = future.result()
        write_chunk(out_dir, plan.spec_hash, index, columns)
        future.release()
        if on_chunk is not None:
            on_chunk(index, len(columns['run']))
    return SweepRun(todo, done)
