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

"""The source trees the linters check (never .venv, build or install)."""

import pathlib

REPO = pathlib.Path(__file__).resolve().parents[2]


def python_sources():
    """Return the repository's Python files and folders, as strings."""
    paths = [REPO / 'setup.py']
    for folder in ('uwv_hydro', 'test', 'launch', 'benchmarks', 'tools', 'soak'):
        if (REPO / folder).is_dir():
            paths.append(REPO / folder)
    return [str(p) for p in paths]
