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

"""Numbers, vectors, inertia and coefficient arrays of a YAML vehicle mapping."""
from typing import Any, Dict, Optional, Tuple

import numpy as np

from uwv_hydro.description.conventions import DSROS_LETTERS
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.name_checks import unknown_reason
from uwv_hydro.description.overflow_bounds import beyond, MAX_SIGNED_QUADRATIC
from uwv_hydro.description.validate import coefficient_indices
from uwv_hydro.description.yaml_safe import YamlMap


_INERTIA_KEYS = ('ixx', 'iyy', 'izz', 'ixy', 'ixz', 'iyz')
#: Keys of the ``surface:`` mapping.
SURFACE_KEYS = ('out_of_water_depth', 'fully_submerged_depth', 'scale_factor', 'model')

_BLOCK_NAMES = {'linear_drag': 'linear drag', 'added_mass': 'added mass',
                'quadratic_drag': 'quadratic drag',
                'forward_speed_drag': 'forward-speed linear drag',
                'signed_quadratic_drag': 'signed quadratic drag'}


class _Ctx:
    """Where errors point: the file, the key path prefix and the lines of the keys."""

    def __init__(self, source: str, mapping: Optional[dict] = None, prefix: str = ''):
        self.source = source
        self.mapping = mapping
        self.prefix = prefix
        #: the file's convention is FRD (set once it is read)
        self.frd = False

    def line(self, key: str) -> Optional[int]:
        """Return the line of dotted ``key`` in the vehicle mapping (deepest known)."""
        node, line = self.mapping, None
        for part in key.split('.') if key else ():
            if not isinstance(node, dict) or part not in node:
                break
            if isinstance(node, YamlMap):
                line = node.line_of(part)
            node = node[part]
        return line

    def where(self, key: str) -> str:
        """Return '<file>:<line>' of ``key`` (for origins and labels)."""
        line = self.line(key)
        return self.source + (':%d' % line if line is not None else '')

    def error(self, key: str, reason: str) -> DescriptionError:
        return DescriptionError(reason, self.source, self.prefix + key, self.line(key))


def _number(value: Any, key: str, ctx: _Ctx) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ctx.error(key, 'expected a number, got %r' % (_short(value),))
    try:
        number = float(value)  # a YAML integer may exceed the float range
    except OverflowError:
        number = float('inf')
    if not np.isfinite(number):
        raise ctx.error(key, 'non-finite number %s' % _short(value))
    return number


def _short(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + '...'


def _leaves(value: Any):
    if isinstance(value, (list, tuple)):
        for item in value:
            yield from _leaves(item)
    else:
        yield value


def _array(value: Any, key: str, ctx: _Ctx) -> np.ndarray:
    if not isinstance(value, (list, tuple)):
        raise ctx.error(key, 'expected a list, got %r' % (value,))
    if any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in _leaves(value)):
        raise ctx.error(key, 'expected a (nested) list of numbers')
    try:
        arr = np.array(value, dtype=float)
    except OverflowError:
        raise ctx.error(key, 'non-finite number in list') from None
    except (TypeError, ValueError):
        raise ctx.error(key, 'expected a regular (nested) list of numbers') from None
    if not np.all(np.isfinite(arr)):
        raise ctx.error(key, 'non-finite number in list')
    return arr


def _vector3(value: Any, key: str, ctx: _Ctx) -> np.ndarray:
    arr = _array(value, key, ctx)
    if arr.shape != (3,):
        raise ctx.error(key, 'expected [x, y, z], got shape %s' % (arr.shape,))
    return arr


def _inertia(value: Any, ctx: _Ctx) -> np.ndarray:
    if isinstance(value, dict):
        for k in value:
            if k not in _INERTIA_KEYS:
                raise ctx.error('inertia.%s' % k, unknown_reason('key', k, _INERTIA_KEYS))
        v = {k: _number(value.get(k, 0.0), 'inertia.' + k, ctx) for k in _INERTIA_KEYS}
        return np.array([[v['ixx'], v['ixy'], v['ixz']], [v['ixy'], v['iyy'], v['iyz']],
                         [v['ixz'], v['iyz'], v['izz']]])
    arr = _array(value, 'inertia', ctx)
    if arr.size != 9:
        raise ctx.error('inertia', 'expected a {ixx: ..} map, 3x3 or flat 9-list')
    arr = arr.reshape(3, 3)
    if not np.allclose(arr, arr.T, rtol=1e-9, atol=1e-12):
        raise ctx.error('inertia', 'inertia matrix is not symmetric')
    return arr


def coefficient_array(value: Any, key: str, order: int, ctx: _Ctx,
                      labels: Optional[Dict[tuple, Tuple[str, Optional[int]]]] = None
                      ) -> np.ndarray:
    """
    Parse a 6**order coefficient set from nested/flat lists or a sparse map.

    ``labels`` (if given) receives {index: (key path, line)} naming each entry.
    """
    shape = (6,) * order
    if isinstance(value, dict):
        out = np.zeros(shape)
        seen: Dict[tuple, str] = {}
        for tag, coeff in value.items():
            path = '%s.%s' % (key, tag)
            idx = coefficient_indices(str(tag), DSROS_LETTERS, order, _BLOCK_NAMES[key],
                                      seen, ctx.source, ctx.prefix + path, ctx.line(path))
            out[idx] = _number(coeff, path, ctx)
            if labels is not None:
                labels[idx] = (ctx.prefix + path, ctx.line(path))
        return out
    arr = _array(value, key, ctx)
    line = ctx.line(key)
    if arr.size == 6 ** order:
        if labels is not None:
            nested = arr.ndim == order
            for idx in np.ndindex(*shape):
                pos = (''.join('[%d]' % i for i in idx) if nested
                       else '[%d]' % np.ravel_multi_index(idx, shape))
                labels[idx] = (ctx.prefix + key + pos, line)
        return arr.reshape(shape)
    if arr.shape == (6,):
        out = np.zeros(shape)
        for i in range(6):
            out[(i,) * order] = arr[i]
            if labels is not None:
                labels[(i,) * order] = ('%s%s[%d]' % (ctx.prefix, key, i), line)
        return out
    raise ctx.error(key, 'expected %s nested, a flat %d-list, a flat 6-list (diagonal) or a '
                    'sparse map; got shape %s' % ('x'.join('6' * order), 6 ** order, arr.shape))


def _point(value: Any, key: str, ctx: _Ctx):
    """Return a 3-vector or one of the names 'com', 'origin', 'drag_center'."""
    if isinstance(value, str):
        if value not in ('com', 'origin', 'drag_center'):
            raise ctx.error(key, "expected [x, y, z], 'com', 'origin' or 'drag_center'")
        return value
    return _vector3(value, key, ctx)


def check_signed_quadratic_bound(arr: np.ndarray,
                                 labels: Dict[tuple, Tuple[str, Optional[int]]],
                                 ctx: _Ctx) -> None:
    """Refuse a signed quadratic coefficient beyond its bound, naming its key and line."""
    for idx in zip(*np.nonzero(np.abs(arr) > MAX_SIGNED_QUADRATIC)):
        idx = tuple(int(i) for i in idx)
        key = 'signed_quadratic_drag'
        path, line = labels.get(idx, (ctx.prefix + key, ctx.line(key)))
        raise DescriptionError(beyond(float(arr[idx]), MAX_SIGNED_QUADRATIC, 'coefficient'),
                               ctx.source, path, line)
