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

"""The compiled core loads, or fails loudly naming what to install (no slow fallback)."""

import subprocess
import sys

import pytest

from uwv_hydro.physics import kernel

BLOCKED = """
import importlib.abc, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == 'uwv_hydro.physics._kernel':
            raise ImportError('no module named %s (blocked by the test)' % name)
sys.meta_path.insert(0, Block())
from uwv_hydro.physics.body.dynamics import Simulator
"""


def test_a_missing_extension_names_what_to_install():
    proc = subprocess.run([sys.executable, '-c', BLOCKED], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode != 0
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith('ImportError: uwv_hydro: the compiled core')
    for needed in ('C compiler', 'python3-dev', 'build-essential', 'tools/bootstrap',
                   'colcon build'):
        assert needed in last, (needed, last)


def test_a_stale_binary_is_refused(tmp_path, monkeypatch):
    """A binary built from other sources (symlink install, C file edited) is refused."""
    here = kernel._HERE
    names = kernel.kernel_sources(here)
    for name in names:
        text = (here / name).read_text()
        if name == '_fins.c':
            text += '/* another version */\n'
        (tmp_path / name).write_text(text)
    monkeypatch.setattr(kernel, '_HERE', tmp_path)
    with pytest.raises(ImportError, match='built from another version of its sources'):
        kernel._load()
    # the same sources: loaded
    (tmp_path / '_fins.c').write_text((here / '_fins.c').read_text())
    assert kernel._load() is kernel.core
    # a source file more (a new concern not built in): refused too
    (tmp_path / '_new_concern.c').write_text('/* not built */\n')
    with pytest.raises(ImportError, match='built from another version of its sources'):
        kernel._load()


def test_the_sources_are_split_by_concern():
    """Every source of the core is found by the glob setup.py builds from, each short."""
    names = kernel.kernel_sources(kernel._HERE)
    for needed in ('_kernel.c', '_kernel.h', '_derivative.c', '_rk4.c', '_fins.c',
                   '_hull.c', '_tree_wrench.c'):
        assert needed in names, (needed, names)
    listed = (kernel._HERE / '_kernel.h').read_text()
    for name in names:  # _kernel.h's file list names every file
        if name not in ('_kernel.h', '_tree.h', '_vec3.h') and not name.startswith('_tree'):
            assert name in listed, name


def test_the_extension_matches_its_source():
    assert kernel._load() is kernel.core
    assert kernel.core.LAYOUT_VERSION == 3  # 3: current field (M_A,O) and hull sections
