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

"""The compiled CSV text is Python's repr of every float, so a CSV reads back exactly."""

import io
import math
import struct

import numpy as np
import pytest

from uwv_hydro.modes.messages.csv_text import format_rows, write_rows


def _awkward_table():
    rng = np.random.default_rng(7)
    table = rng.normal(size=(500, 7)) * np.logspace(-300, 300, 7)
    special = [0.0, -0.0, 0.1, 1.0, -1e22, 1e16, 123456789012345680.0, 5e-324,
               2.2250738585072014e-308, 1.7976931348623157e308, math.pi, 1 / 3.0,
               float('inf'), -float('inf'), float('nan'), 2.0 ** 60, 0.30000000000000004]
    flat = table.reshape(-1)
    flat[:len(special)] = special
    # random bit patterns: every exponent and mantissa shape a double can have
    bits = rng.integers(0, 2 ** 63, size=1000, dtype=np.uint64)
    flat[len(special):len(special) + 1000] = bits.view(np.float64)
    return table


def test_same_text_as_python_repr():
    """Byte for byte what '%r' of each Python float gives, rows joined by commas and newlines."""
    table = _awkward_table()
    want = ''.join(','.join(repr(v) for v in row) + '\n' for row in table.tolist())
    assert format_rows(table) == want


def test_reads_back_to_the_same_doubles():
    """Parsing the text gives the identical bit patterns (NaN stays NaN, -0.0 keeps its sign)."""
    table = _awkward_table()
    back = [[float(v) for v in line.split(',')] for line in format_rows(table).splitlines()]
    for got_row, want_row in zip(back, table.tolist()):
        for got, want in zip(got_row, want_row):
            if math.isnan(want):
                assert math.isnan(got)
            else:
                assert struct.pack('<d', got) == struct.pack('<d', want)


def test_header_chunks_and_shapes():
    """write_rows writes the header then every row whatever the chunking; bad shapes fail."""
    table = np.arange(30.0).reshape(10, 3) / 7.0
    f = io.StringIO()
    write_rows(f, ('a', 'b', 'c'), table)
    lines = f.getvalue().splitlines()
    assert lines[0] == 'a,b,c' and len(lines) == 11
    assert lines[4] == ','.join(repr(v) for v in table[3].tolist())
    assert format_rows(np.empty((0, 3))) == ''
    with pytest.raises(ValueError):
        format_rows(np.zeros(3))
