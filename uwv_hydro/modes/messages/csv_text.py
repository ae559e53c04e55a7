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
Exact CSV text of a float table, fast.

Each value is written as Python's ``repr`` writes it — the shortest text that reads back
to the same double — so a CSV read back gives the very floats that were written.  The
compiled helper ``_csv_text`` (built by setup.py beside the dynamics core, like it a
clear ImportError when the build is missing) produces the same bytes as the Python loop
``','.join(map(repr, row))``, many times faster: it finds the shortest digits in 128-bit
fixed point from a table of powers of ten that this module makes exactly with Python's
integers, and hands the rare values at a rounding boundary to Python's own formatter.
"""
from typing import Iterable, TextIO

import numpy as np

from uwv_hydro.modes.messages import _csv_text


def _powers_of_ten(qmin: int, qmax: int):
    """Return 10^q ~= m 2^e, m in [2^127, 2^128) rounded to nearest, as (hi, lo, e) arrays."""
    his, los, exps = [], [], []
    for q in range(qmin, qmax + 1):
        if q >= 0:
            p = 10 ** q
            e = p.bit_length() - 128
            m = p << -e if e <= 0 else (p + (1 << (e - 1))) >> e
        else:
            den = 10 ** -q
            e = -(127 + den.bit_length())
            m = ((1 << -e) + den // 2) // den
        if m >> 128:
            m, e = m >> 1, e + 1
        assert (1 << 127) <= m < (1 << 128)
        his.append(m >> 64)
        los.append(m & ((1 << 64) - 1))
        exps.append(e)
    return (np.array(his, dtype=np.uint64), np.array(los, dtype=np.uint64),
            np.array(exps, dtype=np.int64))


_csv_text.set_table(*_powers_of_ten(_csv_text.QMIN, _csv_text.QMAX))

#: Rows formatted per call: bounds the text held in memory (~300 bytes a row).
CHUNK_ROWS = 65536


def format_rows(table: np.ndarray) -> str:
    """Return the CSV lines of a 2-D float table (one per row, each ending in a newline)."""
    table = np.ascontiguousarray(table, dtype=np.float64)
    if table.ndim != 2:
        raise ValueError('format_rows needs a 2-D table, got shape %s' % (table.shape,))
    if table.size == 0:
        return ''
    return _csv_text.rows(table, table.shape[1]).decode('ascii')


def write_rows(f: TextIO, header: Iterable[str], table: np.ndarray) -> None:
    """Write a header line and the table's rows to the text file ``f``."""
    f.write(','.join(header) + '\n')
    for start in range(0, len(table), CHUNK_ROWS):
        f.write(format_rows(table[start:start + CHUNK_ROWS]))
