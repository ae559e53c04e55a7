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
Finished chunks on disk: one Parquet file per chunk, keyed by spec hash + chunk index.

``OUT/chunks/<hash[:16]>-<index:06d>.parquet`` (one row per run: ``run``, the drawn
values, the outputs, ``diverged``), written to a temporary name and renamed, so a file
that exists is complete; a re-run of the same spec skips the chunks that exist.
``OUT/results.parquet`` is all runs in run order.  pyarrow is imported lazily.
"""

import os
import pathlib
from typing import Dict, List

import numpy as np


def chunk_path(out_dir, spec_hash: str, index: int) -> pathlib.Path:
    """Return the file of chunk ``index`` of the spec with hash ``spec_hash``."""
    return pathlib.Path(out_dir) / 'chunks' / ('%s-%06d.parquet' % (spec_hash[:16], index))


def finished(out_dir, spec_hash: str, chunks: int) -> List[int]:
    """Return the chunk indices whose file exists."""
    return [i for i in range(chunks) if chunk_path(out_dir, spec_hash, i).is_file()]


def write_chunk(out_dir, spec_hash: str, index: int, columns: Dict[str, np.ndarray]) -> None:
    """Write one chunk's columns (atomically: temporary file, then rename)."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    path = chunk_path(out_dir, spec_hash, index)
    path.parent.mkdir(parents=True, exist_ok=True)
    table = pa.table(columns).replace_schema_metadata(
        {'uwv_hydro_spec_hash': spec_hash, 'chunk': str(index)})
    tmp = path.with_name('.%s.%d.tmp' % (path.name, os.getpid()))
    pq.write_table(table, tmp)
    os.replace(tmp, path)


def read_chunks(out_dir, spec_hash: str, chunks: int):
    """Return a pyarrow Table of every chunk's rows in run order."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    tables = [pq.read_table(chunk_path(out_dir, spec_hash, i)) for i in range(chunks)]
    table = pa.concat_tables(tables).replace_schema_metadata(
        {'uwv_hydro_spec_hash': spec_hash})
    return table.sort_by('run')


def write_results(table, path) -> None:
    """Write the combined table."""
    import pyarrow.parquet as pq
    pq.write_table(table, path)
