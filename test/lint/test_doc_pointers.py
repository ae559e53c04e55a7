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
Every doc page (and section) a launch file or a tool points to exists.

A pointer is ``doc/PATH.md``, optionally followed by ``("Section title")`` or
``#anchor`` (GitHub's heading anchor); the page must exist and the section be one of
its headings.  The ArduSub SITL launch file pointed to a section of hil.md that had
moved to its own page.
"""
import pathlib
import re

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
SOURCES = sorted(REPO.glob('launch/*.py')) + sorted(REPO.glob('tools/*.py'))
POINTER = re.compile(r'(doc/[\w/.-]+?\.md)(?:#([\w-]+)| \("([^"]+)"\))?')


def _headings(page):
    """Return the page's headings' titles and their GitHub anchors."""
    titles = [m.group(1).strip() for m in re.finditer(r'^#+\s+(.+)$', page.read_text(), re.M)]
    # GitHub's anchor: lower case, punctuation dropped, spaces to hyphens
    anchors = [re.sub(r'[^\w\- ]', '', t.lower()).replace(' ', '-') for t in titles]
    return titles, anchors


def _pointers():
    for source in SOURCES:
        for m in POINTER.finditer(source.read_text()):
            yield source.relative_to(REPO), m.group(1), m.group(2), m.group(3)


def test_there_are_pointers_to_check():
    assert any(path == pathlib.Path('launch/ardusub_sitl.launch.py')
               for path, _, _, _ in _pointers())


@pytest.mark.parametrize('source, doc, anchor, title', list(_pointers()),
                         ids=lambda v: str(v))
def test_doc_pointer_exists(source, doc, anchor, title):
    page = REPO / doc
    assert page.is_file(), '%s points to %s: no such page' % (source, doc)
    titles, anchors = _headings(page)
    if title is not None:
        assert title in titles, '%s points to %s ("%s"): no such section (%s)' % (
            source, doc, title, '; '.join(titles))
    if anchor is not None:
        assert anchor in anchors, '%s points to %s#%s: no such anchor' % (source, doc, anchor)
