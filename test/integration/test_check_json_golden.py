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
`check --json` of every vehicle file equals its golden summary (test/golden/check_json/).

The goldens were written by the code before a restructure (issue 31: the description
package split by format), so that a move of code cannot change what a vehicle loads to.
A change meant to alter a summary regenerates them (test/helpers/check_json_golden.py) and the
diff is read in review.  Numbers compare within 1e-9 relative or 1e-12 absolute: the
same arithmetic, where only a BLAS kernel's summation order differs between CPUs.  What
such a kernel decides is left out of the comparison: the warnings that report rounding
noise (present on one CPU, absent on another) and the principal axes' signs and their
choice inside a repeated moment (compared as one projector per distinct moment).
"""
import json
import math
import re

from check_json_golden import check_json, golden_path, vehicles
import numpy as np
import pytest


#: a number inside a message (warnings print values to 6-9 significant digits)
NUMBER = re.compile(r'[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?')


def _same_text(a, b):
    """Whether two messages are the same, their numbers within print precision."""
    if NUMBER.sub('#', a) != NUMBER.sub('#', b):
        return False
    return all(math.isclose(float(x), float(y), rel_tol=1e-6, abs_tol=1e-12)
               for x, y in zip(NUMBER.findall(a), NUMBER.findall(b)))


#: what a warning says when it reports rounding noise, whose presence depends on the CPU's
#: BLAS kernel (an asymmetry of 1e-35 on one machine is exactly 0 on another)
ROUNDING_NOTE = 'at rounding level'


def _projectors(summary):
    """Return the principal axes as one projector per distinct principal moment."""
    moments = np.array(summary['principal_inertia'], dtype=float)
    axes = np.array(summary['principal_axes'], dtype=float)
    groups = []
    for i, moment in enumerate(moments):
        for group in groups:
            if math.isclose(moment, moments[group[0]], rel_tol=1e-9, abs_tol=1e-12):
                group.append(i)
                break
        else:
            groups.append([i])
    # an eigenvector's sign, and its direction inside a repeated moment's plane, are
    # the eigen-solver's choice: the projector sum v v^T of each group is not
    return [np.einsum('ki,kj->ij', axes[g], axes[g]).tolist() for g in groups]


def _canonical(summary):
    """Return the summary without what an eigen-solver or BLAS kernel may choose."""
    stdout = summary.get('stdout')
    if isinstance(stdout, dict):
        stdout = dict(stdout)
        if 'warnings' in stdout:
            stdout['warnings'] = [w for w in stdout['warnings'] if ROUNDING_NOTE not in w]
        if 'principal_axes' in stdout:
            stdout['principal_axes'] = _projectors(stdout)
    stderr = ''.join(line for line in summary.get('stderr', '').splitlines(True)
                     if ROUNDING_NOTE not in line)
    return dict(summary, stdout=stdout, stderr=stderr)


def _same(a, b, where=''):
    """Yield where a and b differ (numbers within 1e-9 relative or 1e-12 absolute)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                yield '%s.%s: only in %s' % (where, key, 'golden' if key in a else 'now')
            else:
                yield from _same(a[key], b[key], '%s.%s' % (where, key))
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            yield '%s: %d items golden, %d now' % (where, len(a), len(b))
        else:
            for i, (x, y) in enumerate(zip(a, b)):
                yield from _same(x, y, '%s[%d]' % (where, i))
    elif isinstance(a, float) or isinstance(b, float):
        if not (isinstance(a, (int, float)) and isinstance(b, (int, float))
                and math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)):
            yield '%s: golden %r, now %r' % (where, a, b)
    elif isinstance(a, str) and isinstance(b, str):
        if not _same_text(a, b):
            yield '%s: golden %r, now %r' % (where, a, b)
    elif a != b:
        yield '%s: golden %r, now %r' % (where, a, b)


def test_every_vehicle_has_a_golden():
    """No golden is missing and none is left over."""
    expected = {golden_path(v) for v in vehicles()}
    present = set(golden_path('x').parent.glob('*.json'))
    assert expected == present, 'regenerate: tools/run python test/helpers/check_json_golden.py'


@pytest.mark.parametrize('vehicle', vehicles())
def test_check_json_equals_golden(vehicle):
    """The summary (exit code, JSON, stderr) is the golden one."""
    golden = json.loads(golden_path(vehicle).read_text(encoding='utf-8'))
    differences = list(_same(_canonical(golden), _canonical(check_json(vehicle))))
    assert not differences, '\n'.join(differences[:20])
