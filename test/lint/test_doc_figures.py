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
The figures of the docs' tables and prose: computed again where they can run here.

doc_figures.py names, for every table holding a float and every paragraph holding one on
the pages of its scope, where its figures come from.  The tables it marks CHECKED are
flown again here and compared cell by cell: a cell's numbers, in order, against the
flight's, each a measured figure within 1 % or one unit of its last quoted digit
(doc_blocks.figure_matches; an integer in such a cell, ``-12 %``, is a rounded measurement
too).  The REMUS 100 flights are test_remus_vs_pvs.py's (the REMUS file and the
re-derived PVS, both from 1.5 m/s at 5 m, 10 and 15 degree turns and the 10/10 zig-zag).
"""
import json
import math
import re
import subprocess
import sys

from doc_blocks import figure_matches, REPO
import doc_figures as df
import pytest

KINDS = ('CHECKED', 'ASSERTED', 'QUOTED', 'NOT_REPEATABLE', 'NOT_MEASURED')
_FLOAT_IN_TEXT = re.compile(r'(?<![\w.])\d+\.\d+')
_CELL_NUMBER = re.compile(r'(?<![\w.])[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?')


def _text(page: str) -> str:
    """Return the page without its fenced blocks (what tables and prose are made of)."""
    return re.sub(r'^```.*?^```', '', (REPO / page).read_text(), flags=re.S | re.M)


def tables(page: str):
    """Return [(header line, [[cell, ...], ...])] of a page's Markdown tables."""
    lines, found, k = _text(page).splitlines(), [], 0
    while k + 1 < len(lines):
        if lines[k].startswith('|') and re.match(r'^\|\s*:?-{3}', lines[k + 1]):
            end = k + 2
            while end < len(lines) and lines[end].startswith('|'):
                end += 1
            rows = [[c.strip() for c in re.split(r'(?<!\\)\|', line)[1:-1]]
                    for line in lines[k + 2:end]]
            found.append((lines[k], rows))
            k = end
        else:
            k += 1
    return found


def paragraphs(page: str):
    """Return the page's paragraphs that are not tables."""
    return [p for p in re.split(r'\n\s*\n', _text(page))
            if p.strip() and not p.lstrip().startswith('|')]


def _pages():
    return ['README.md'] + sorted(str(p.relative_to(REPO)) for p in (REPO / 'doc').rglob('*.md'))


def _named(page, header, keys):
    return [k for k in keys if k[0] == page and header.startswith(k[1])]


def test_every_table_with_figures_is_named_once():
    """No table with a float goes unnamed; every name finds its one table."""
    keys = list(df.CHECKED_TABLES) + list(df.OTHER_TABLES)
    unnamed, used = [], []
    for page in _pages():
        for header, rows in tables(page):
            if not any(_FLOAT_IN_TEXT.search(c) for row in rows for c in row):
                continue
            named = _named(page, header, keys)
            if len(named) != 1:
                unnamed.append('%s: %s (named by %d entries)' % (page, header, len(named)))
            used += named
    assert not unnamed, unnamed
    stale = [k for k in keys if k not in used]
    assert not stale, 'named tables not found: %s' % stale
    wrong = [k for k, why in df.OTHER_TABLES.items() if why.split(':')[0] not in KINDS]
    assert not wrong, wrong


def test_every_paragraph_with_figures_is_named_once():
    """On the prose pages, every paragraph with a float is named, and each name finds one."""
    unnamed, used = [], []
    for page in df.PROSE_PAGES:
        if page in df.WHOLE_PAGES:
            continue
        for paragraph in paragraphs(page):
            if not _FLOAT_IN_TEXT.search(paragraph):
                continue
            named = [k for k in df.PROSE if k[0] == page and k[1] in paragraph]
            if len(named) != 1:
                unnamed.append('%s: %s... (named by %d entries)' % (
                    page, paragraph.strip()[:60], len(named)))
            used += named
    assert not unnamed, unnamed
    stale = [k for k in df.PROSE if k not in used]
    assert not stale, 'named paragraphs not found: %s' % stale
    reasons = list(df.PROSE.values()) + list(df.WHOLE_PAGES.values())
    assert all(why.split(':')[0] in KINDS for why in reasons), reasons


def _cell_numbers(cell: str):
    return _CELL_NUMBER.findall(cell.replace('\u2212', '-').replace('\u00a0', ' '))


@pytest.fixture(scope='module')
def remus_flights():
    """Fly the REMUS file and PVS (test_remus_vs_pvs.py's vehicles); return the figures."""
    from test_remus_vs_pvs import D2R, PvsManoeuvre, PvsSwayLift, REMUS
    from uwv_hydro.description.loader import load_vehicle
    from uwv_hydro.modes.manoeuvres.manoeuvre import Manoeuvre
    out = {}
    for name, vehicle in (('uwv_hydro', Manoeuvre(load_vehicle(str(REMUS)))),
                          ('pvs', PvsManoeuvre())):
        out[name] = {'turn10': vehicle.turn(10 * D2R, max_time=400.0).values,
                     'turn15': vehicle.turn(15 * D2R, max_time=400.0).values,
                     'zigzag': vehicle.zigzag(10 * D2R, max_time=200.0).values}
    out['pvs_sway_lift'] = {
        key: PvsManoeuvre(model=PvsSwayLift).turn(angle * D2R, max_time=400.0).values
        for key, angle in (('turn10', 10), ('turn15', 15))}
    return out


def _guide_remus(f):
    o, p = f['uwv_hydro'], f['pvs']
    spec = [('10° turn: steady diameter', [('turn10', 'steady_diameter_m')]),
            ('10° turn: tactical diameter', [('turn10', 'tactical_diameter_m')]),
            ('10° turn: advance / transfer', [('turn10', 'advance_m'), ('turn10', 'transfer_m')]),
            ('10° turn: yaw rate / speed', [('turn10', 'yaw_rate_deg_s'),
                                            ('turn10', 'steady_speed_m_s')]),
            ('15° turn: steady diameter', [('turn15', 'steady_diameter_m')]),
            ('15° turn: tactical diameter', [('turn15', 'tactical_diameter_m')]),
            ('15° turn: advance / transfer', [('turn15', 'advance_m'), ('turn15', 'transfer_m')]),
            ('15° turn: yaw rate / speed', [('turn15', 'yaw_rate_deg_s'),
                                            ('turn15', 'steady_speed_m_s')]),
            ('10/10 zig-zag: 1st / 2nd / 3rd overshoot',
             [('zigzag', 'overshoot_%d_deg' % k) for k in (1, 2, 3)]),
            ('10/10 zig-zag: period', [('zigzag', 'period_s')]),
            ('10/10 zig-zag: time to 1st reversal', [('zigzag', 'time_to_first_reversal_s')]),
            ('10° / 15° turn: drift angle',
             [('turn10', 'drift_angle_deg'), ('turn15', 'drift_angle_deg')])]
    expected = {}
    for row, keys in spec:
        ours = [o[a][b] for a, b in keys]
        pvs = [p[a][b] for a, b in keys]
        expected[(row, 'uwv_hydro remus100')] = ours
        expected[(row, 'PVS remus100')] = pvs
        expected[(row, 'difference')] = [100.0 * (a / b - 1.0) for a, b in zip(ours, pvs)]
    drift = [('turn10', 'drift_angle_deg'), ('turn15', 'drift_angle_deg')]
    row = 'the same, PVS with its hull lift on the sideslip too'
    ours = [o[a][b] for a, b in drift]
    lift = [f['pvs_sway_lift'][a][b] for a, b in drift]
    expected[(row, 'uwv_hydro remus100')] = ours
    expected[(row, 'PVS remus100')] = lift
    expected[(row, 'difference')] = [100.0 * (a / b - 1.0) for a, b in zip(ours, lift)]
    return expected


def _compare_rows(page, header, expected):
    """As _compare_cells, the rows keyed by their first cell."""
    [(_, rows)] = [t for t in tables(page) if t[0] == header]
    by_first = {row[0]: row for row in rows}
    assert set(by_first) == {k[0] for k in expected}, sorted(set(by_first) ^ {
        k[0] for k in expected})
    keyed = {((row,), column): values for (row, column), values in expected.items()}
    return _compare_cells_of(page, header, {(r,): by_first[r] for r in by_first}, keyed)


def _compare_cells_of(page, header, rows, expected):
    columns = [c.strip() for c in header.split('|')[1:-1]]
    wrong, checked = [], 0
    for (row_key, column), values in expected.items():
        numbers = _cell_numbers(rows[row_key][columns.index(column)])
        if len(numbers) != len(values):
            wrong.append('%s / %s: %s quoted, %d computed'
                         % (row_key, column, numbers, len(values)))
            continue
        for quoted, value in zip(numbers, values):
            checked += 1
            kind = quoted if re.search(r'[.eE]', quoted) else '~' + quoted
            if not (math.isfinite(value) and figure_matches(kind, repr(float(value)))):
                wrong.append('%s / %s: quoted %s, computed %.6g'
                             % (row_key, column, quoted, value))
    assert not wrong, '%s, %s:\n%s' % (page, header, '\n'.join(wrong))
    return checked


def test_manoeuvres_guide_remus_table(remus_flights):
    """doc/guide/manoeuvres.md's REMUS table (with its differences) is what they fly."""
    page = 'doc/guide/manoeuvres.md'
    header = [h for (p, h), kind in df.CHECKED_TABLES.items() if p == page][0]
    checked = _compare_rows(page, header, _guide_remus(remus_flights))
    assert checked == 63, checked


def test_manoeuvres_guide_remus_prose_rpm(remus_flights):
    """The manoeuvres guide's cruise rpm (PVS 896, the REMUS file 674) are what they fly."""
    from test_remus_vs_pvs import PvsManoeuvre
    paragraph = [p for p in paragraphs('doc/guide/manoeuvres.md')
                 if 'Each runs at the propeller speed' in p][0]
    pvs = re.search(r'PVS at (\d+) rpm', paragraph).group(1)
    ours = re.search(r'(\d+) rpm, J = ', paragraph).group(1)
    assert figure_matches('~' + ours, repr(remus_flights['uwv_hydro']['turn10']['cruise_rpm']))
    assert figure_matches('~' + pvs, repr(float(PvsManoeuvre().rpm)))


#: hil.md's stick rows: (stick, the figure of the speed or rate column).
STICKS = {'forward 1': ('surge=1', 'surge_m_s'), 'forward ¾': ('surge=0.75', 'surge_m_s'),
          'forward ¼': ('surge=0.25', 'surge_m_s'), 'lateral 1': ('sway=1', 'sway_m_s'),
          'lateral ¾': ('sway=0.75', 'sway_m_s'), 'yaw 1': ('yaw=1', 'yaw_rate_deg_s'),
          'yaw ¾': ('yaw=0.75', 'yaw_rate_deg_s')}


def test_hil_stick_table():
    """hil.md's "after" column is what `manoeuvre ... hold --stick` flies now."""
    page = 'doc/guide/hil.md'
    header = [h for (p, h), kind in df.CHECKED_TABLES.items() if p == page][0]
    expected = {}
    for row, (stick, speed) in STICKS.items():
        proc = subprocess.run(
            [sys.executable, '-m', 'uwv_hydro', 'manoeuvre', 'config/ardusub_bluerov2.yaml',
             'hold', '--stick', stick, '--json'],
            cwd=str(REPO), capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        fig = json.loads(proc.stdout)['figures']
        # the table gives the speed or rate as a magnitude
        expected[(row, 'after: speed, max roll / pitch')] = [
            abs(fig[speed]), fig['max_abs_roll_deg'], fig['max_abs_pitch_deg']]
    header_full = [t[0] for t in tables(page) if t[0].startswith(header)][0]
    checked = _compare_rows(page, header_full, expected)
    assert checked == 21, checked
