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
Joint command profiles for offline simulation: what the node's joint commands carry, over time.

The node takes a command per moving joint as std_msgs/Float64 on
``joints/<joint>/cmd_pos`` (position), ``cmd_vel`` (velocity) or ``cmd_force`` (effort)
(:mod:`uwv_hydro.node.joint_io`), or one sensor_msgs/JointState for all of them with
the ros2_control block's interface (:mod:`uwv_hydro.modes.joint_state_io`); each is
held until the next (:meth:`~uwv_hydro.modes.articulated_simulate_mode.
ArticulatedSimulateMode.command`).  Offline the same commands come from CSV files:

* one per joint (``simulate --joint-command JOINT FILE.csv``): header ``t,<kind>``
  with ``<kind>`` position, velocity or effort (the Float64 topic it stands for),
  one command per row;
* one JointState profile (``simulate --joint-profile FILE.csv --joint-interface
  KIND``): header ``t,<joint>,<joint>,...``, one JointState per row, every listed
  joint commanded with the one interface.

Rows are in increasing t (s); a row's command is taken by the first step starting at
or after its time and held until the next row's (zero-order hold, as a Float64 held in
the node); before a joint's first row it holds its initial position (the node's
start).  Errors name the file, line and column.
"""
import csv
import math
import pathlib
from typing import Dict, List, Sequence, Tuple

import numpy as np

from uwv_hydro.description.errors import DescriptionError

#: The command kinds a profile may give (the node's Float64 topics and interfaces).
KINDS = ('position', 'velocity', 'effort')


def _read_rows(path: pathlib.Path) -> Tuple[List[str], np.ndarray]:
    """Return (header after t, values (n, 1 + columns)) of a profile CSV, checked."""
    try:
        text = path.read_text()
    except OSError as exc:
        raise DescriptionError('cannot read joint command profile: %s' % exc.strerror,
                               source=str(path)) from exc
    rows = list(csv.reader(text.splitlines()))
    header = [c.strip() for c in rows[0]] if rows else []
    if len(header) < 2 or header[0] != 't':
        raise DescriptionError('header must be t followed by at least one column',
                               source=str(path), line=1)
    values = []
    for lineno, row in enumerate(rows[1:], start=2):
        if not row or not ''.join(row).strip():
            continue
        if len(row) != len(header):
            raise DescriptionError('expected %d values, got %d' % (len(header), len(row)),
                                   source=str(path), line=lineno)
        try:
            numbers = [float(c) for c in row]
        except ValueError as exc:
            raise DescriptionError('not a number: %s' % exc, source=str(path),
                                   line=lineno) from exc
        bad = [header[k] for k, v in enumerate(numbers) if not math.isfinite(v)]
        if bad:
            raise DescriptionError('non-finite value in column %s' % bad[0], source=str(path),
                                   line=lineno)
        if values and numbers[0] <= values[-1][0]:
            raise DescriptionError('times must increase (%g after %g)'
                                   % (numbers[0], values[-1][0]), source=str(path),
                                   line=lineno)
        values.append(numbers)
    if not values:
        raise DescriptionError('no rows', source=str(path))
    return header[1:], np.array(values)


class JointCommandProfile:
    """Piecewise-constant joint commands, handed to the mode step by step."""

    def __init__(self, joint_names: Sequence[str]):
        self.joint_names = list(joint_names)
        self._index = {name: k for k, name in enumerate(self.joint_names)}
        #: per commanded joint: (joint index, kind, times, values), and its source
        self.series: List[Tuple[int, str, np.ndarray, np.ndarray]] = []
        self._sources: Dict[int, str] = {}
        self._held: List[int] = []

    def _joint(self, name: str, path, column: int) -> int:
        if name not in self._index:
            raise DescriptionError('no moving joint %r (column %d); the moving joints: %s'
                                   % (name, column, ', '.join(self.joint_names) or 'none'),
                                   source=str(path), line=1)
        k = self._index[name]
        if k in self._sources:
            raise DescriptionError('joint %s is commanded twice (also by %s)'
                                   % (name, self._sources[k]), source=str(path))
        self._sources[k] = str(path)
        return k

    def add(self, joint: str, kind: str, times, values, source: str = '') -> None:
        """Command ``joint`` with ``kind`` values held from each of ``times``."""
        if kind not in KINDS:
            raise DescriptionError('joint command kind must be one of %s, got %r'
                                   % (', '.join(KINDS), kind), source=source)
        k = self._joint(joint, source, 1)
        self.series.append((k, kind, np.asarray(times, dtype=float),
                            np.asarray(values, dtype=float)))
        self._held.append(-1)

    def add_joint_csv(self, joint: str, path) -> None:
        """Read one joint's CSV (header ``t,<kind>``)."""
        path = pathlib.Path(path)
        header, rows = _read_rows(path)
        if len(header) != 1 or header[0] not in KINDS:
            raise DescriptionError('header must be t,<kind> with <kind> one of %s, got %s'
                                   % (', '.join(KINDS), ','.join(['t'] + header)),
                                   source=str(path), line=1)
        self.add(joint, header[0], rows[:, 0], rows[:, 1], str(path))

    def add_joint_state_csv(self, path, kind: str) -> None:
        """Read a JointState profile (header ``t,<joint>,...``), every joint ``kind``."""
        path = pathlib.Path(path)
        header, rows = _read_rows(path)
        for column, name in enumerate(header, start=2):
            if header.count(name) > 1:
                raise DescriptionError('joint %s is listed twice' % name, source=str(path),
                                       line=1)
            self._joint(name, path, column)
            del self._sources[self._index[name]]  # add() records it
            self.add(name, kind, rows[:, 0], rows[:, column - 1], str(path))

    def apply(self, mode, t: float) -> None:
        """Give ``mode`` the commands held at step start ``t`` that changed since the last."""
        for s, (k, kind, times, values) in enumerate(self.series):
            # a row at t is taken by the step starting at t (to 1 ns: k dt rounding)
            i = int(np.searchsorted(times, t + 1e-9, side='right')) - 1
            if i >= 0 and i != self._held[s]:
                self._held[s] = i
                mode.command(k, kind, float(values[i]))
