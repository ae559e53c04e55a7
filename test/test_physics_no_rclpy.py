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

"""The physics core must stay importable without ROS: no rclpy import anywhere."""
import ast
import pathlib

PHYSICS = pathlib.Path(__file__).resolve().parents[1] / 'uwv_hydro' / 'physics'


def _imported_modules(path):
    tree = ast.parse(path.read_text(encoding='utf-8'), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module
        elif isinstance(node, ast.Call) and getattr(node.func, 'id', '') == '__import__':
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    yield arg.value


def test_physics_never_imports_rclpy():
    """No module under uwv_hydro/physics imports rclpy (checked on the syntax tree)."""
    files = sorted(PHYSICS.rglob('*.py'))
    assert len(files) >= 10
    offenders = [
        '%s imports %s' % (path.name, name)
        for path in files for name in _imported_modules(path)
        if name == 'rclpy' or name.startswith('rclpy.')]
    assert not offenders, offenders
