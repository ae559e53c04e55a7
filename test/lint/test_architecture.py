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
The package's rooms and their dependency order, enforced from the import statements.

physics (core, pure numpy) <- description <- modes <- {node, cli, bag, sysid, sweep}
(doc/architecture.md).  Every import counts, also the ones inside functions: a
lazy import is still a dependency.  Also: no import cycle between modules, the
physics core and the modes never import rclpy, and package.xml declares exactly what is imported.
The C sources of a room include only that room's headers, without a cycle, and no
Python, C or header file of the package is longer than MAX_LINES lines.
"""
import ast
from collections import Counter
import os
import pathlib
import re
import sys
import xml.etree.ElementTree as ET

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGE = ROOT / 'uwv_hydro'

#: room -> the rooms its modules may import (besides itself)
ALLOWED = {
    'physics': set(),
    'description': {'physics'},
    'modes': {'physics', 'description'},
    'bag': {'physics', 'description', 'modes'},
    'node': {'physics', 'description', 'modes'},
    'sysid': {'physics', 'description', 'modes', 'bag'},
    'sweep': {'physics', 'description', 'modes', 'sysid'},
    'cli': {'physics', 'description', 'modes', 'bag', 'sysid', 'sweep',
            'node.launch_commands.launch_command'},
}

#: third-party imports the physics core and the modes may use: numpy, and in the core
#: Pinocchio (the rigid multibody algorithms of vehicles whose links move,
#: physics.articulated.model.multibody);
#: in the modes MoorDyn (the tether's cable, a compiled core, loaded only for a tether)
CORE_THIRD_PARTY = {'physics': {'numpy', 'pinocchio'}, 'modes': {'numpy', 'moordyn', 'cmoordyn'}}

#: import name -> package.xml key, where they differ
ROSDEP_KEYS = {
    'numpy': 'python3-numpy', 'yaml': 'python3-yaml', 'transforms3d': 'python3-transforms3d',
    'defusedxml': 'python3-defusedxml', 'matplotlib': 'python3-matplotlib',
    'PIL': 'python3-pil',
}

#: imports with no rosdep key: installed by pip (requirements.txt) and used only by
#: the offline tools (bags; sweeps: dask, distributed, pyarrow) or by a seabed file
#: (rasterio, xarray, netCDF4, pyproj), lazily, so that the node runs without them
PIP_ONLY = {'rosbags', 'dask', 'distributed', 'pyarrow', 'rasterio', 'xarray', 'netCDF4',
            'pyproj', 'moordyn', 'cmoordyn'}
#: pip-only modules installed by another requirement's package: module -> requirement
#: (MoorDyn's wheel installs its compiled core cmoordyn beside moordyn)
PIP_PACKAGE = {'cmoordyn': 'moordyn'}
#: interface packages no ROS 2 distribution releases (ros/rosdistro): imported only where
#: the output that needs them is made, and never in package.xml, where rosdep would fail
UNRELEASED = {'uuv_sensor_ros_plugins_msgs'}

#: declared for the launch files (launch/*.py), which this test also reads
LAUNCH_FILES = sorted((ROOT / 'launch').glob('*.py'))


def _imports(path):
    """Yield the absolute module names imported anywhere in path."""
    tree = ast.parse(path.read_text(encoding='utf-8'), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module
            for alias in node.names:  # 'from uwv_hydro.modes import wrench_mode'
                yield node.module + '.' + alias.name
        elif isinstance(node, ast.Call) and getattr(node.func, 'id', '') == '__import__':
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    yield arg.value


def _module_name(path):
    rel = path.relative_to(ROOT).with_suffix('')
    parts = list(rel.parts)
    if parts[-1] == '__init__':
        parts.pop()
    return '.'.join(parts)


def _modules():
    return {_module_name(p): p for p in sorted(PACKAGE.rglob('*.py'))}


def _room(module):
    parts = module.split('.')
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in ALLOWED) else None


def _internal_edges():
    modules = _modules()
    edges = {}
    for name, path in modules.items():
        targets = set()
        for imported in _imports(path):
            if imported in modules and imported != name:
                targets.add(imported)
        edges[name] = targets
    return edges


def test_every_subpackage_is_a_room():
    """Each subpackage of uwv_hydro has its place in the dependency order (ALLOWED)."""
    rooms = sorted(p.parent.name for p in PACKAGE.glob('*/__init__.py'))
    assert [r for r in rooms if r not in ALLOWED] == [], rooms
    assert sorted(ALLOWED) == rooms, 'ALLOWED names a room that is gone: %s' % sorted(
        set(ALLOWED) - set(rooms))


def test_every_module_lives_in_a_room():
    """Only the package entry points sit beside the rooms."""
    loose = [m for m in _modules() if _room(m) is None]
    assert sorted(loose) == ['uwv_hydro', 'uwv_hydro.__main__'], loose


def test_rooms_import_only_what_lies_below_them():
    """Each room imports only the rooms its layer may depend on."""
    offenders = []
    for name, targets in _internal_edges().items():
        room = _room(name)
        if room is None:
            continue
        for target in targets:
            other = _room(target)
            if other is None or other == room:
                continue
            allowed = ALLOWED[room]
            if other in allowed or target.split('.', 1)[1] in allowed:
                continue
            offenders.append('%s imports %s (%s may import %s)' % (
                name, target, room, ', '.join(sorted(allowed)) or 'nothing of the package'))
    assert not offenders, '\n'.join(offenders)


def test_no_import_cycle():
    """The module import graph (lazy imports included) has no cycle."""
    edges = _internal_edges()
    for name in edges:  # a package's __init__ is not an edge target of its modules
        edges[name] = {t for t in edges[name] if not name.startswith(t + '.')}
    state, cycles = {}, []

    def visit(node, stack):
        state[node] = 'open'
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 'open':
                cycles.append(' -> '.join(stack[stack.index(nxt):] + [nxt]))
            elif nxt not in state:
                visit(nxt, stack)
        stack.pop()
        state[node] = 'done'

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))
    for node in sorted(edges):
        if node not in state:
            visit(node, [])
    assert not cycles, '\n'.join(cycles)


@pytest.mark.parametrize('room', ['physics', 'modes'])
def test_core_and_modes_are_pure_numpy(room):
    """The core and the modes import numpy (the core also Pinocchio) and the stdlib only."""
    offenders = []
    for name, path in _modules().items():
        if _room(name) != room:
            continue
        for imported in _imports(path):
            top = imported.split('.')[0]
            if top == 'uwv_hydro' or top in sys.stdlib_module_names:
                continue
            if top not in CORE_THIRD_PARTY[room]:
                offenders.append('%s imports %s' % (name, imported))
    assert not offenders, offenders


def _declared():
    root = ET.parse(ROOT / 'package.xml').getroot()
    return {e.text.strip() for e in root if e.tag in ('exec_depend', 'depend')}


def _third_party_imports():
    found = {}
    for path in list(PACKAGE.rglob('*.py')) + LAUNCH_FILES:
        for imported in _imports(path):
            top = imported.split('.')[0]
            if top in ('uwv_hydro', '__future__') or top in sys.stdlib_module_names:
                continue
            found.setdefault(top, path.relative_to(ROOT))
    return found


def test_every_import_is_declared():
    """Each third-party module the package imports has its package.xml dependency."""
    declared = _declared()
    requirements = (ROOT / 'requirements.txt').read_text()
    missing = []
    for top, where in sorted(_third_party_imports().items()):
        if top in PIP_ONLY:
            if not re.search(r'^%s==' % re.escape(PIP_PACKAGE.get(top, top)), requirements,
                             re.M):
                missing.append('%s (pip-only, imported in %s) not in requirements.txt'
                               % (top, where))
        elif top in UNRELEASED:
            if top in declared:
                missing.append('%s is released by no ROS 2 distribution: rosdep fails on '
                               'it in package.xml' % top)
        elif ROSDEP_KEYS.get(top, top) not in declared:
            missing.append('%s (imported in %s) not in package.xml'
                           % (ROSDEP_KEYS.get(top, top), where))
    assert not missing, missing


def test_every_declared_dependency_is_imported():
    """Each package.xml run dependency is imported by the package or its launch files."""
    imported = {ROSDEP_KEYS.get(top, top) for top in _third_party_imports()}
    unused = sorted(_declared() - imported)
    assert not unused, 'declared in package.xml but never imported: %s' % unused


def test_each_dependency_is_declared_once():
    """package.xml names each dependency once per tag (a duplicate hides a removal)."""
    root = ET.parse(ROOT / 'package.xml').getroot()
    seen = Counter((e.tag, e.text.strip()) for e in root if e.tag.endswith('depend'))
    assert [k for k, n in seen.items() if n > 1] == []


#: the format packages of uwv_hydro.description, one per simulator's format
FORMATS = ('urdf', 'dsros', 'uuv', 'sdf', 'lrauv', 'yaml')

#: the core modules that dispatch a description to the formats' readers; they alone
#: of the core may import a format package (doc/architecture.md).  seabed.seabed_file
#: dispatches a seabed file by its extension, an SDF world to sdf.world_seabed (the
#: SDF format reads its <heightmap> and builds the grid with the core's seabed helpers:
#: sdf -> seabed.placement, never the reverse but for this dispatch)
DISPATCHERS = {'loader', 'vehicle_from_urdf', 'vehicle_from_sdf', 'equipment_from_urdf',
               'plugin_inventory', 'seabed.seabed_file'}

#: the longest a Python, C or header file of the package may be, in lines
MAX_LINES = 500

#: Known exceptions to MAX_LINES, with the length they may not grow past.  They are
#: being split (issue 42); the lead empties this list as they are: a file that is no
#: longer over MAX_LINES must leave it (test_known_long_files_are_still_long).
KNOWN_LONG = {
}


def _description_part(module):
    """Return (format or None, module name inside uwv_hydro.description)."""
    rest = module.split('.', 2)[2] if module.count('.') >= 2 else ''
    head = rest.split('.')[0]
    return (head if head in FORMATS else None), rest


def test_formats_import_only_the_description_core():
    """A format package imports the core only; the core imports formats only to dispatch."""
    offenders = []
    for name, targets in _internal_edges().items():
        if not name.startswith('uwv_hydro.description.'):
            continue
        fmt, rest = _description_part(name)
        for target in targets:
            if not target.startswith('uwv_hydro.description.'):
                continue
            other, _ = _description_part(target)
            if other is None or other == fmt:
                continue
            if fmt is None and rest in DISPATCHERS:
                continue
            offenders.append('%s imports %s' % (name, target))
    assert not offenders, '\n'.join(offenders)


def test_core_modules_do_not_import_upwards():
    """No description module but a dispatcher imports a dispatcher."""
    offenders = []
    for name, targets in _internal_edges().items():
        fmt, rest = _description_part(name)
        if not name.startswith('uwv_hydro.description.') or rest in DISPATCHERS:
            continue
        for target in targets:
            other, other_rest = _description_part(target)
            if target.startswith('uwv_hydro.description.') and other_rest in DISPATCHERS:
                offenders.append('%s imports %s' % (name, target))
    assert not offenders, '\n'.join(offenders)


def _source_lengths():
    """Yield (path inside uwv_hydro, lines) of every .py, .c and .h file of the package."""
    for path in sorted(PACKAGE.rglob('*')):
        if path.suffix in ('.py', '.c', '.h') and path.is_file():
            yield (path.relative_to(PACKAGE).as_posix(),
                   len(path.read_text(encoding='utf-8').splitlines()))


def test_package_files_are_short():
    """No Python, C or header file of uwv_hydro is longer than MAX_LINES lines."""
    long = ['uwv_hydro/%s: %d lines (at most %d)' % (name, n, KNOWN_LONG.get(name, MAX_LINES))
            for name, n in _source_lengths() if n > KNOWN_LONG.get(name, MAX_LINES)]
    assert not long, '\n'.join(long)


def test_known_long_files_are_still_long():
    """Each exception of KNOWN_LONG still exists and is still over MAX_LINES."""
    lengths = dict(_source_lengths())
    stale = ['uwv_hydro/%s: %s: remove it from KNOWN_LONG' % (
        name, 'gone' if name not in lengths else '%d lines' % lengths[name])
        for name in KNOWN_LONG if lengths.get(name, 0) <= MAX_LINES]
    assert not stale, '\n'.join(stale)


def test_the_line_count_sees_the_c_core():
    """The length check covers the compiled core's sources and headers too."""
    names = {name for name, _ in _source_lengths()}
    assert {'physics/_kernel.c', 'physics/_kernel.h', 'modes/messages/_csv_text.c'} <= names


_INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def _c_includes():
    """Return {C file or header: its local includes (paths inside uwv_hydro)}."""
    found = {}
    for path in sorted(PACKAGE.rglob('*')):
        if path.suffix not in ('.c', '.h'):
            continue
        local = []
        for kind, name in _INCLUDE.findall(path.read_text(encoding='utf-8')):
            if kind == '"':
                local.append((path.parent / name).resolve())
        found[path.resolve()] = local
    return found


def test_c_sources_include_their_room_only():
    """A C file includes system headers (<...>) and its own room's headers, which exist."""
    offenders = []
    for path, includes in _c_includes().items():
        for target in includes:
            if target.parent != path.parent or not target.is_file():
                offenders.append('%s includes %s' % (path.relative_to(ROOT),
                                                     os.path.relpath(target, ROOT)))
    assert not offenders, '\n'.join(offenders)


def test_no_include_cycle():
    """The headers of the compiled sources include each other without a cycle."""
    edges = _c_includes()
    state, cycles = {}, []

    def visit(node, stack):
        state[node] = 'open'
        stack.append(node)
        for nxt in edges.get(node, ()):
            if state.get(nxt) == 'open':
                cycles.append(' -> '.join(p.name for p in stack[stack.index(nxt):] + [nxt]))
            elif nxt not in state:
                visit(nxt, stack)
        stack.pop()
        state[node] = 'done'

    for node in sorted(edges):
        if node not in state:
            visit(node, [])
    assert not cycles, '\n'.join(cycles)
