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
Hostile descriptions: rejected quickly, with a clear error, in bounded memory.

Each case runs in a fresh interpreter so its peak RSS and time can be measured alone.
(Billion laughs and external entities are covered in test_description_xml_safe.)
"""

import json
import subprocess
import sys

from conftest import REPO
import pytest

PROBE = """
import json, resource, sys, time
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.loader import load_vehicle
rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t0 = time.monotonic()
try:
    load_vehicle(sys.argv[1])
    outcome = 'loaded'
except DescriptionError as exc:
    outcome = str(exc)
print(json.dumps({'outcome': outcome, 'seconds': time.monotonic() - t0,
                  'rss_growth_mb': (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
                                    - rss0) / 1024.0}))
"""

#: Longer than any rejection takes on a loaded machine, far shorter than an expansion.
HANG_S = 30.0

QUADRATIC_BLOWUP = ('<?xml version="1.0"?>\n<!DOCTYPE robot [<!ENTITY a "%s">]>\n'
                    '<robot name="q"><link name="b">%s</link></robot>\n'
                    % ('x' * 100000, '&a;' * 100000))


def probe(path):
    proc = subprocess.run([sys.executable, '-c', PROBE, str(path)], capture_output=True,
                          text=True, cwd=str(REPO), timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_quadratic_blowup_is_rejected_without_expansion(tmp_path):
    path = tmp_path / 'blowup.urdf'
    path.write_text(QUADRATIC_BLOWUP)
    res = probe(path)
    assert str(path) in res['outcome'] and 'forbidden' in res['outcome']
    # the memory bound is the check; the time bound only catches a hang (not a speed target)
    assert res['seconds'] < HANG_S
    assert res['rss_growth_mb'] < 50  # 100k x 100 kB = 10 GB if it were expanded


@pytest.mark.parametrize('suffix,filler', [
    ('.urdf', '<!-- %s -->'),
    ('.sdf', '<!-- %s -->'),
    ('.yaml', '# %s'),
])
def test_50_megabyte_description_is_rejected_quickly(tmp_path, suffix, filler):
    path = tmp_path / ('huge' + suffix)
    line = (filler % ('x' * 1000)) + '\n'
    with open(path, 'w') as f:
        f.write('<robot name="big">\n' if suffix != '.yaml' else 'vehicle:\n')
        for _ in range(50 * 1024):
            f.write(line)
    assert path.stat().st_size > 50e6
    res = probe(path)
    assert str(path) in res['outcome'] and 'larger than' in res['outcome']
    assert res['seconds'] < HANG_S
    assert res['rss_growth_mb'] < 20  # never read into memory


def test_deeply_nested_xml_is_an_error_not_a_crash(tmp_path):
    path = tmp_path / 'deep.urdf'
    depth = 200000
    path.write_text('<robot name="d">' + '<a>' * depth + '</a>' * depth + '</robot>')
    res = probe(path)
    assert str(path) in res['outcome']
    assert res['seconds'] < HANG_S


def assert_check_rejects(path, words, rss_mb):
    """Load in a fresh interpreter (bounded memory) and run ``check``: exit 2, no traceback."""
    res = probe(path)
    assert str(path) in res['outcome'] and words in res['outcome'], res
    assert res['rss_growth_mb'] < rss_mb
    proc = subprocess.run([sys.executable, '-m', 'uwv_hydro', 'check', str(path)],
                          capture_output=True, text=True, cwd=str(REPO), timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert words in proc.stderr and 'Traceback' not in proc.stderr


def test_5000_nested_brackets_exit_2_without_traceback(tmp_path):
    """Issue 13: a RecursionError traceback and exit 1 before."""
    path = tmp_path / 'nested.yaml'
    path.write_text('[' * 5000)
    assert_check_rejects(path, 'nested deeper than', 20)


def test_4_megabytes_of_200000_unknown_keys_exit_2_in_bounded_memory(tmp_path):
    """Issue 13: 30 s and 350 MB before the error, before; now stopped at the key cap."""
    path = tmp_path / 'keys.yaml'
    with open(path, 'w') as f:
        f.write('uwv_hydro:\n  ros__parameters:\n')
        for i in range(200000):
            f.write('    k%06d: %d\n' % (i, i))
    assert path.stat().st_size > 3.5e6
    assert_check_rejects(path, 'keys in one YAML mapping', 50)
