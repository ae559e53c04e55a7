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
``uwv-hydro``, the name every page uses, runs after the documented set-up.

Two ways in, both through the built workspace: on the PATH of the environment
(``tools/run uwv-hydro``: colcon puts ``install/uwv_hydro/bin`` on the PATH when the
workspace is sourced), and the console script where ``ros2 run uwv_hydro uwv-hydro``
looks for it (``lib/uwv_hydro`` under the package's prefix in the ament index, as ros2run's
``get_executable_paths`` finds it).
"""
import os
import pathlib
import subprocess

from required_modules import require  # noqa: I100

require('ament_index_python')

from ament_index_python.packages import get_package_prefix  # noqa: E402, I100

from uwv_hydro import __version__  # noqa: E402

REPO = pathlib.Path(__file__).resolve().parents[2]


def _environment_without_workspace():
    """Return os.environ with the workspace's directories taken out of PATH."""
    install = str(REPO / 'install')
    path = [d for d in os.environ.get('PATH', '').split(os.pathsep)
            if d and not d.startswith(install)]
    return dict(os.environ, PATH=os.pathsep.join(path), UWV_QUIET='1')


def test_tools_run_finds_uwv_hydro_on_the_path():
    """`tools/run uwv-hydro --version` (README, every guide) prints the package version."""
    env = _environment_without_workspace()
    proc = subprocess.run([str(REPO / 'tools' / 'run'), 'uwv-hydro', '--version'],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip() == 'uwv-hydro %s' % __version__


def test_the_command_runs_outside_the_checkout(tmp_path):
    """From another directory the name still reaches this package (a sourced workspace)."""
    env = _environment_without_workspace()
    proc = subprocess.run([str(REPO / 'tools' / 'run'), 'bash', '-c',
                           'cd "$1" && command -v uwv-hydro && uwv-hydro check --help',
                           'bash', str(tmp_path)],
                          env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    found = proc.stdout.splitlines()[0]
    assert found == str(REPO / 'install' / 'uwv_hydro' / 'bin' / 'uwv-hydro')
    assert 'usage: uwv-hydro check' in proc.stdout


def test_ros2_run_finds_the_console_scripts():
    """`ros2 run uwv_hydro uwv-hydro` / `hydro_node`: executables in <prefix>/lib/uwv_hydro."""
    base = pathlib.Path(get_package_prefix('uwv_hydro')) / 'lib' / 'uwv_hydro'
    executables = sorted(p.name for p in base.iterdir()
                         if p.is_file() and os.access(p, os.X_OK))
    assert 'uwv-hydro' in executables and 'hydro_node' in executables, executables
    proc = subprocess.run([str(base / 'uwv-hydro'), '--version'],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip() == 'uwv-hydro %s' % __version__
