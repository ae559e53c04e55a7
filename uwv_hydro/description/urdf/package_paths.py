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
Find ROS packages for ``$(find pkg)`` and ``package://pkg/...``: ament index, then ROS 1 paths.

uuv_simulator, DAVE and ds_sim description packages are ROS 1 (catkin) packages: they
are not in the ament index.  :class:`PackageResolver` looks a package up

1. in the ament index (``ament_index_python``, as xacro does);
2. in each ``--package-path`` directory (CLI) / ``package_path`` parameter entry (node),
   in the order given;
3. in each directory of the ``ROS_PACKAGE_PATH`` environment variable, in order;

searching a directory as rospack does (``rospack``'s crawl): recursively, a directory
holding a ``package.xml`` is a package named by its ``<name>`` and is not descended
further; directories holding ``CATKIN_IGNORE``, ``COLCON_IGNORE`` or ``AMENT_IGNORE``
and hidden ones are skipped.  The first match wins.  A package found nowhere is a
DescriptionError listing every place searched.

:func:`xacro_packages` installs a resolver into xacro for the duration of one
expansion (its ``$(find)`` and ``package://`` include file names), restoring xacro after.
"""
import contextlib
import os
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.xml_safe import parse_xml_file

#: Marker files that make rospack / colcon skip a directory.
IGNORE_MARKERS = ('CATKIN_IGNORE', 'COLCON_IGNORE', 'AMENT_IGNORE')
#: Deepest directory level searched below a package-path root (a guard against loops).
MAX_DEPTH = 16


def _package_name(manifest: str) -> Optional[str]:
    """Return the <name> of a package.xml, or None if it cannot be read."""
    try:
        root = parse_xml_file(manifest)
    except (DescriptionError, OSError):
        return None
    name = root.find('name')
    text = (name.text or '').strip() if name is not None else ''
    return text or None


def crawl(root: str) -> Dict[str, str]:
    """Return {package name: directory} of the packages under ``root`` (rospack's crawl)."""
    found: Dict[str, str] = {}
    stack: List[Tuple[str, int]] = [(os.path.abspath(root), 0)]
    seen = set()
    while stack:
        directory, depth = stack.pop()
        real = os.path.realpath(directory)
        if real in seen or depth > MAX_DEPTH:
            continue
        seen.add(real)
        try:
            entries = sorted(os.listdir(directory))
        except OSError:
            continue
        if any(marker in entries for marker in IGNORE_MARKERS):
            continue
        if 'package.xml' in entries:
            name = _package_name(os.path.join(directory, 'package.xml'))
            if name is not None:
                found.setdefault(name, directory)
            continue  # a package: not descended further (rospack)
        for entry in reversed(entries):  # the stack pops them in sorted order
            path = os.path.join(directory, entry)
            if not entry.startswith('.') and os.path.isdir(path):
                stack.append((path, depth + 1))
    return found


def _ament_share(package: str) -> Optional[str]:
    try:
        from ament_index_python.packages import (
            get_package_share_directory, PackageNotFoundError)
    except ImportError:
        return None
    try:
        return get_package_share_directory(package)
    except (PackageNotFoundError, ValueError, LookupError):
        return None


class PackageResolver:
    """Resolve package names to directories (ament index, package paths, ROS_PACKAGE_PATH)."""

    def __init__(self, package_path: Sequence[str] = (), environ=None):
        env = os.environ if environ is None else environ
        self.package_path = [p for p in package_path if p]
        self.ros_package_path = [p for p in env.get('ROS_PACKAGE_PATH', '').split(os.pathsep)
                                 if p]
        self.ament_prefix_path = env.get('AMENT_PREFIX_PATH', '')
        self._crawled: Dict[str, Dict[str, str]] = {}
        #: The last lookup that failed (xacro wraps the error; the caller re-raises it).
        self.failure: Optional[DescriptionError] = None

    def _in(self, root: str) -> Dict[str, str]:
        if root not in self._crawled:
            self._crawled[root] = crawl(root) if os.path.isdir(root) else {}
        return self._crawled[root]

    def find(self, package: str) -> str:
        """Return the directory of ``package`` or raise DescriptionError naming the search."""
        share = _ament_share(package)
        if share is not None:
            return share
        for root in self.package_path + self.ros_package_path:
            found = self._in(root).get(package)
            if found is not None:
                return found
        self.failure = DescriptionError(
            'ROS package %r not found; searched the ament index (AMENT_PREFIX_PATH=%s), '
            '--package-path / package_path %s and ROS_PACKAGE_PATH %s (each recursively for '
            'a package.xml whose <name> is %r)'
            % (package, self.ament_prefix_path or '(unset)',
               self._listing(self.package_path), self._listing(self.ros_package_path),
               package), '<package path>', package)
        raise self.failure

    @staticmethod
    def _listing(paths: List[str]) -> str:
        if not paths:
            return '(none)'
        return '[%s]' % ', '.join('%s%s' % (p, '' if os.path.isdir(p) else ' (missing)')
                                  for p in paths)

    def resolve_uri(self, uri: str) -> str:
        """Return the file path of ``package://pkg/rest`` (other strings unchanged)."""
        if not uri.startswith('package://'):
            return uri
        package, _, rest = uri[len('package://'):].partition('/')
        return os.path.join(self.find(package), rest)


@contextlib.contextmanager
def xacro_packages(resolver: PackageResolver) -> Iterator[None]:
    """Let xacro's ``$(find)`` and ``package://`` include names use ``resolver``."""
    import xacro
    from xacro import substitution_args
    saved = (substitution_args._eval_find, substitution_args._eval_dict.get('find'),
             xacro.abs_filename_spec)
    original_abs = xacro.abs_filename_spec

    def abs_filename_spec(filename_spec):
        return original_abs(resolver.resolve_uri(filename_spec))

    substitution_args._eval_find = resolver.find
    substitution_args._eval_dict['find'] = resolver.find
    xacro.abs_filename_spec = abs_filename_spec
    try:
        yield
    finally:
        substitution_args._eval_find, substitution_args._eval_dict['find'] = saved[:2]
        xacro.abs_filename_spec = saved[2]
