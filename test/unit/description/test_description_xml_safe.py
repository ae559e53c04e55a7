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

"""Safe XML parsing: hostile documents fail fast, line numbers are kept."""

import time

import pytest

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.loader import load_vehicle, load_vehicle_string
from uwv_hydro.description.xml_safe import element_path, MAX_XML_BYTES, parse_xml_string

#: Longer than any rejection takes on a loaded machine, far shorter than an expansion.
HANG_S = 30.0

BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<robot name="&lol9;"><link name="base_link"/></robot>
"""

EXTERNAL_ENTITY = """<?xml version="1.0"?>
<!DOCTYPE robot [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<robot name="x"><link name="&xxe;"/></robot>
"""


@pytest.mark.parametrize('text', [BILLION_LAUGHS, EXTERNAL_ENTITY])
def test_hostile_xml_string_is_rejected_quickly(text):
    start = time.monotonic()
    with pytest.raises(DescriptionError) as info:
        load_vehicle_string(text, source='hostile.urdf')
    assert time.monotonic() - start < HANG_S  # a hang guard, not a speed target
    assert 'hostile.urdf' in str(info.value)
    assert 'forbidden' in info.value.reason
    assert 'root:' not in str(info.value)  # /etc/passwd content never leaks


@pytest.mark.parametrize('suffix', ['.urdf', '.sdf', '.urdf.xacro'])
def test_hostile_xml_files_are_rejected(tmp_path, suffix):
    path = tmp_path / ('bomb' + suffix)
    path.write_text(BILLION_LAUGHS)
    start = time.monotonic()
    with pytest.raises(DescriptionError) as info:
        load_vehicle(str(path))
    assert time.monotonic() - start < HANG_S  # a hang guard, not a speed target
    assert info.value.source == str(path)


def test_oversized_document_is_rejected_before_parsing():
    text = '<robot>' + ' ' * MAX_XML_BYTES + '</robot>'
    with pytest.raises(DescriptionError, match='larger than'):
        parse_xml_string(text, 'big.urdf')


def test_malformed_xml_names_line():
    with pytest.raises(DescriptionError) as info:
        parse_xml_string('<robot>\n<link>\n</robot>', 'bad.urdf')
    assert info.value.line == 3
    assert str(info.value).startswith('bad.urdf:3:')


def test_elements_keep_line_numbers_and_paths():
    root = parse_xml_string('<robot name="r">\n\n  <link name="a">\n    <inertial/>'
                            '\n  </link>\n</robot>')
    inertial = root.find('link/inertial')
    assert inertial.line == 4
    assert root.find('link').line == 3
    assert element_path(inertial) == "robot[@name='r']/link[@name='a']/inertial"
