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

"""Sphinx configuration of the uwv_hydro documentation (Markdown pages through MyST).

rosdoc2 builds a ROS 2 package's ``doc/`` folder with Sphinx when it holds a conf.py, as
this one does; ``make test`` builds it with warnings as errors (test/lint/test_docs.py).
"""
import pathlib
import xml.etree.ElementTree as ET

_PACKAGE = ET.parse(pathlib.Path(__file__).resolve().parents[1] / 'package.xml').getroot()

project = 'uwv_hydro'
author = 'The uwv_hydro Authors'
copyright = '2026, The uwv_hydro Authors'  # noqa: A001 (Sphinx's name)
release = version = _PACKAGE.findtext('version')

extensions = ['myst_parser']
source_suffix = {'.md': 'markdown'}
root_doc = 'index'
exclude_patterns = ['_build', 'examples']
myst_heading_anchors = 3
myst_enable_extensions = ['dollarmath']
html_theme = 'alabaster'
html_static_path = []
