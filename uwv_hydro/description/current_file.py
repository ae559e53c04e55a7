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
The current description file: a YAML ``current:`` block -> a physics current field.

Format (one ``type``; keys of the peer simulators where they exist)::

    current:
      type: constant | profile | tide | csv | gauss_markov
      time_origin: start          # or clock (optional; see physics.environment.current_field)
      velocity: [0.3, 0.0, 0.0]                  # constant: world ENU, m/s
      profile: [[0, 0.5, 0, 0], [50, 0.1, 0, 0]] # profile: [depth (down), vx, vy, vz]
      table: [[0, 0.2, 0, 0], [600, -0.2, 0, 0]] # tide: [t (s), vx, vy, vz] and/or
      constituents: [{amplitude: [0.3, 0, 0], period: 44714.0, phase: 0.0}]
      data: currents.csv                         # csv: gz-sim EnvironmentPreload
      lookup_current_x: current_x                # and Hydrodynamics names
      velocity: {mean: 0.5, min: 0.0, max: 1.0, mu: 0.01, noiseAmp: 0.05}
                                                 # gauss_markov: uuv_simulator's
                                                 # UnderwaterCurrentPlugin names

The keys of each type, with their sources (gz-sim
``src/systems/environment_preload/EnvironmentPreload.cc``, uuv_simulator
``uuv_world_plugins/src/UnderwaterCurrentPlugin.cc``) and defaults:
doc/guide/currents.md.

Every error is a :class:`DescriptionError` naming the file, the key and its line;
:func:`load_current_file` returns the field and the warnings (what gz-sim or uuv would
accept but is doubtful).
"""
import csv
import io
import math
import os
from typing import List, Optional, Tuple

import numpy as np

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.name_checks import closest
from uwv_hydro.description.xml_safe import read_text_file
from uwv_hydro.description.yaml_safe import load_yaml_text_file, YamlMap
from uwv_hydro.physics.environment.current_field import (
    ConstantCurrent, CurrentField, DepthProfileCurrent, MAX_CURRENT_COMPONENT, TidalCurrent,
    TIME_ORIGINS)
from uwv_hydro.physics.environment.current_grid import GridCurrent
from uwv_hydro.physics.environment.gauss_markov_current import (
    DEFAULT_UPDATE_PERIOD, GaussMarkovCurrent, GaussMarkovProcess)

#: Largest current CSV accepted (bytes).
MAX_CSV_BYTES = 64 * 1024 * 1024
CURRENT_TYPES = ('constant', 'profile', 'tide', 'csv', 'gauss_markov')
_COMMON = ('type', 'time_origin')
KEYS = {
    'constant': _COMMON + ('velocity',),
    'profile': _COMMON + ('profile',),
    'tide': _COMMON + ('table', 'mean', 'constituents'),
    'csv': _COMMON + ('data', 'dimensions', 'lookup_current_x', 'lookup_current_y',
                      'lookup_current_z'),
    'gauss_markov': _COMMON + ('velocity', 'horizontal_angle', 'vertical_angle',
                               'update_period', 'seed'),
}
#: uuv GaussMarkovProcess parameters and their defaults (GaussMarkovProcess.cc)
GM_KEYS = {'mean': 0.0, 'min': -1.0, 'max': 1.0, 'mu': 0.0, 'noiseAmp': 0.0}


class _Block:
    """A YAML mapping with its file, for errors that name the key and line."""

    def __init__(self, data, source: str, path: str):
        if not isinstance(data, dict):
            raise DescriptionError('must be a mapping', source, path,
                                   getattr(data, 'line', None))
        self.data, self.source, self.path = data, source, path

    def line(self, key):
        return self.data.line_of(key) if isinstance(self.data, YamlMap) else None

    def error(self, key, reason: str) -> DescriptionError:
        return DescriptionError(reason, self.source, '%s.%s' % (self.path, key),
                                self.line(key))

    def check_keys(self, known) -> None:
        for key in self.data:
            if key not in known:
                guess = closest(key, known)
                raise self.error(key, 'unknown key%s; known: %s' % (
                    " (did you mean '%s'?)" % guess if guess else '', ', '.join(known)))

    def get(self, key, default=None):
        return self.data.get(key, default)

    def number(self, key, default=None) -> float:
        value = self.data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or not math.isfinite(value):
            raise self.error(key, 'must be a finite number, got %r' % (value,))
        return float(value)

    def vector(self, key, default=None) -> np.ndarray:
        value = self.data.get(key, default)
        if not _numbers(value, 3):
            raise self.error(key, 'must be 3 finite numbers, got %r' % (value,))
        return np.array(value, dtype=float)

    def speeds(self, key, values) -> np.ndarray:
        """Return ``values`` (m/s) if every component is within the current bound."""
        values = np.asarray(values, dtype=float)
        k = _first_too_fast(values)
        if k is not None:
            raise self.error(key, _too_fast(values.flat[k]))
        return values

    def rows(self, key, width: int) -> np.ndarray:
        value = self.data.get(key)
        if not isinstance(value, list) or not value or not all(
                _numbers(row, width) for row in value):
            raise self.error(key, 'must be a non-empty list of rows of %d finite numbers'
                             % width)
        table = np.array(value, dtype=float)
        bad = np.flatnonzero(np.diff(table[:, 0]) <= 0.0)
        if bad.size:
            # name the first row that does not increase, at its own line
            k = int(bad[0]) + 1
            line = getattr(value[k], 'line', None) or self.line(key)
            raise DescriptionError(
                'the first column must be strictly increasing: row %d (%r) follows %r'
                % (k + 1, value[k][0], value[k - 1][0]), self.source,
                '%s.%s[%d]' % (self.path, key, k), line)
        return table


def _first_too_fast(values: np.ndarray) -> Optional[int]:
    """Return the flat index of the first component beyond MAX_CURRENT_COMPONENT, or None."""
    beyond = np.flatnonzero(np.abs(values) > MAX_CURRENT_COMPONENT)
    return int(beyond[0]) if beyond.size else None


def _too_fast(value: float) -> str:
    return 'a current component of %g m/s: beyond +-%g m/s' % (value, MAX_CURRENT_COMPONENT)


def _numbers(value, n: int) -> bool:
    return (isinstance(value, list) and len(value) == n and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
        for v in value))


def load_current_file(path: str) -> Tuple[CurrentField, List[str]]:
    """Return (field, warnings) of the current description file at ``path``."""
    doc = load_yaml_text_file(path)
    if not isinstance(doc, dict) or 'current' not in doc:
        raise DescriptionError("expected a mapping with the key 'current'", path,
                               line=getattr(doc, 'line', None))
    top = _Block(doc, path, '')
    top.check_keys(('current',))
    return current_from_mapping(doc['current'], path)


def current_from_mapping(data, source: str) -> Tuple[CurrentField, List[str]]:
    """Return (field, warnings) of one ``current:`` mapping read from ``source``."""
    block = _Block(data, source, 'current')
    kind = block.get('type')
    if kind not in CURRENT_TYPES:
        raise block.error('type', 'must be one of %s, got %r' % (', '.join(CURRENT_TYPES),
                                                                 kind))
    block.check_keys(KEYS[kind])
    origin = block.get('time_origin', 'start')
    if origin not in TIME_ORIGINS:
        raise block.error('time_origin', 'must be one of %s, got %r'
                          % (', '.join(TIME_ORIGINS), origin))
    warnings: List[str] = []
    if kind == 'constant':
        field = ConstantCurrent(block.speeds('velocity', block.vector('velocity')), origin)
    elif kind == 'profile':
        table = block.rows('profile', 4)
        field = DepthProfileCurrent(table[:, 0], block.speeds('profile', table[:, 1:]), origin)
    elif kind == 'tide':
        field = _tide(block, origin)
    elif kind == 'csv':
        field = _grid(block, origin, warnings)
    else:
        field = _gauss_markov(block, origin)
    return field, warnings


def _tide(block: _Block, origin: str) -> TidalCurrent:
    if 'table' not in block.data and 'constituents' not in block.data:
        raise block.error('type', "a tide needs 'table' and/or 'constituents'")
    times = velocities = None
    if 'table' in block.data:
        table = block.rows('table', 4)
        times, velocities = table[:, 0], block.speeds('table', table[:, 1:])
    constituents = []
    items = block.get('constituents', [])
    if not isinstance(items, list):
        raise block.error('constituents', 'must be a list of mappings')
    for k, item in enumerate(items):
        c = _Block(item, block.source, 'current.constituents[%d]' % k)
        c.check_keys(('amplitude', 'period', 'phase'))
        period = c.number('period')
        if not period > 0.0:
            raise c.error('period', 'must be positive, got %r' % period)
        constituents.append((c.speeds('amplitude', c.vector('amplitude')), period,
                             c.number('phase', 0.0)))
    mean = block.speeds('mean', block.vector('mean')) if 'mean' in block.data else None
    return TidalCurrent(times, velocities, mean, constituents, origin)


def _process(block: _Block, key: str, required: bool) -> GaussMarkovProcess:
    if key not in block.data:
        if required:
            raise block.error(key, 'missing: the speed process {mean, min, max, mu, '
                              'noiseAmp}')
        return GaussMarkovProcess()
    p = _Block(block.data[key], block.source, 'current.' + key)
    p.check_keys(tuple(GM_KEYS))
    values = {k: p.number(k, d) for k, d in GM_KEYS.items()}
    if key == 'velocity':  # the speed process: its bounds and start, m/s
        for k in ('mean', 'min', 'max'):
            p.speeds(k, values[k])
    try:
        return GaussMarkovProcess(values['mean'], values['min'], values['max'], values['mu'],
                                  values['noiseAmp'])
    except ValueError as exc:
        # UnderwaterCurrentPlugin's assertions
        raise block.error(key, str(exc)) from None


def _gauss_markov(block: _Block, origin: str) -> GaussMarkovCurrent:
    period = block.number('update_period', DEFAULT_UPDATE_PERIOD)
    if not period > 0.0:
        raise block.error('update_period', 'must be positive, got %r' % period)
    seed = block.get('seed', 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise block.error('seed', 'must be an integer >= 0, got %r' % (seed,))
    return GaussMarkovCurrent(_process(block, 'velocity', True),
                              _process(block, 'horizontal_angle', False),
                              _process(block, 'vertical_angle', False),
                              update_period=period, seed=seed, time_origin=origin)


def _grid(block: _Block, origin: str, warnings: List[str]) -> GridCurrent:
    data = block.get('data')
    if not isinstance(data, str) or not data:
        raise block.error('data', 'must name the CSV file (EnvironmentPreload <data>)')
    path = data if os.path.isabs(data) else os.path.join(
        os.path.dirname(os.path.abspath(block.source)), data)
    dims = _Block(block.get('dimensions', {}), block.source, 'current.dimensions')
    dims.check_keys(('time', 'ignore_time', 'space'))
    ignore_time = dims.get('ignore_time', False)
    if not isinstance(ignore_time, bool):
        raise dims.error('ignore_time', 'must be true or false')
    space = _Block(dims.get('space', {}), block.source, 'current.dimensions.space')
    space.check_keys(('reference', 'units', 'x', 'y', 'z'))
    reference = space.get('reference', 'global')
    if reference != 'global':
        raise space.error('reference', "only 'global' (world ENU metres) is supported, got "
                          "%r: 'spherical' and 'ecef' need the world's spherical "
                          'coordinates' % (reference,))
    names = [dims.get('time', 't')] + [space.get(a, a) for a in 'xyz']
    lookups = [block.get('lookup_current_' + a) for a in 'xyz']
    if all(name is None for name in lookups):
        raise block.error('lookup_current_x', 'give at least one of lookup_current_x|y|z '
                          '(the CSV columns of the current; gz-sim Hydrodynamics)')
    columns, header, lines = _read_csv(path, names + [n for n in lookups if n is not None])
    for name in names:
        if name not in header:
            raise block.error('data', '%s: no column %r (header: %s)'
                              % (path, name, ', '.join(header)))
    n = len(columns[names[0]])
    values = []
    for axis, name in zip('xyz', lookups):
        if name is None:
            values.append(np.zeros(n))  # gz-sim: a component without a column is 0
        elif name not in header:
            # gz-sim warns "could not find field" and leaves the component at 0
            warnings.append('current CSV %s has no column %r (lookup_current_%s): that '
                            'component is 0, as in gz-sim' % (path, name, axis))
            values.append(np.zeros(n))
        else:
            k = _first_too_fast(columns[name])
            if k is not None:
                raise DescriptionError('column %r: %s' % (name, _too_fast(columns[name][k])),
                                       path, line=lines[k])
            values.append(columns[name])
    try:
        field = GridCurrent(columns[names[0]], np.column_stack([columns[a] for a in names[1:]]),
                            np.column_stack(values), static_time=ignore_time,
                            time_origin=origin)
    except ValueError as exc:
        raise block.error('data', '%s: %s' % (path, exc)) from None
    if len(field.times) == 1 and not ignore_time:
        warnings.append('current CSV %s has one time (%g s): used at every time (gz-sim '
                        'needs ignore_time for that)' % (path, field.times[0]))
    if ignore_time and len(field.times) > 1:
        warnings.append('current CSV %s: ignore_time with %d times: the first (%g s) is '
                        'used' % (path, len(field.times), field.times[0]))
    if field.holes():
        warnings.append('current CSV %s: %d grid points have no row: they read as 0 '
                        '(gz-math)' % (path, field.holes()))
    for axis, a, b in field.close_values():
        warnings.append("current CSV %s: %s values %.9g and %.9g are closer than gz-math's "
                        '1e-6 lookup tolerance: no gradient is taken between them'
                        % (path, axis, a, b))
    for k, axis in enumerate('xyz'):
        single = [s for s in field.slices if len(s.axes[k]) == 1]
        if single:
            warnings.append('current CSV %s: one %s value (%g): the current is 0 more than '
                            '1e-6 away from it, as in gz-sim'
                            % (path, axis, single[0].axes[k][0]))
    return field


def _read_csv(path: str, wanted):
    """Return ({column: (N,) floats} of the ``wanted`` columns present, header, lines)."""
    text = read_text_file(path, MAX_CSV_BYTES)
    reader = csv.reader(io.StringIO(text))
    try:
        header = [h.strip() for h in next(reader)]
    except StopIteration:
        raise DescriptionError('empty CSV file', path) from None
    index = {name: header.index(name) for name in wanted if name in header}
    data = {name: [] for name in index}
    lines = []
    rows = 0
    for row in reader:
        if not row or all(not c.strip() for c in row):
            continue
        rows += 1
        line = reader.line_num
        if len(row) != len(header):
            raise DescriptionError('%d values for %d columns' % (len(row), len(header)),
                                   path, line=line)
        for name, k in index.items():
            try:
                value = float(row[k])
            except ValueError:
                raise DescriptionError('column %r: %r is not a number' % (name, row[k]),
                                       path, line=line) from None
            if not math.isfinite(value):
                raise DescriptionError('column %r: %r is not finite' % (name, row[k]),
                                       path, line=line)
            data[name].append(value)
        lines.append(line)
    if rows == 0:
        raise DescriptionError('no data rows', path)
    return {name: np.array(v) for name, v in data.items()}, header, lines
