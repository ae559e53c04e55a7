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
Make the modules named in ``UWV_HIDE_MODULES`` unimportable (a test's process only).

With this directory first on PYTHONPATH, Python imports this ``sitecustomize`` at
start-up; it puts a finder first on ``sys.meta_path`` that answers ImportError
(ModuleNotFoundError, as for a module that is not installed) for every module of
``UWV_HIDE_MODULES`` (comma-separated; a name hides its submodules too), e.g.
``rclpy.experimental`` for Humble's rclpy.  test/integration/test_node_humble_api.py uses it.
"""
import importlib.abc
import os
import sys


class _Hide(importlib.abc.MetaPathFinder):
    """Refuse the hidden modules before any other finder looks for them."""

    def __init__(self, names):
        self.names = tuple(names)

    def find_spec(self, fullname, path=None, target=None):
        """Raise ModuleNotFoundError for a hidden module; None (look on) otherwise."""
        if any(fullname == n or fullname.startswith(n + '.') for n in self.names):
            raise ModuleNotFoundError('No module named %r (hidden by UWV_HIDE_MODULES)'
                                      % fullname, name=fullname)
        return None


_NAMES = [n.strip() for n in os.environ.get('UWV_HIDE_MODULES', '').split(',') if n.strip()]
if _NAMES:
    sys.meta_path.insert(0, _Hide(_NAMES))
