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


"""The slender-hull block in YAML, SDF (uwv_hydro plugin) and URDF (dsros_hydro plugin)."""
import pathlib
import sys

import numpy as np
import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / 'helpers'))
from description_texts import box_robot  # noqa: E402, I100

from uwv_hydro.description.errors import DescriptionError  # noqa: E402
from uwv_hydro.description.loader import load_vehicle_string  # noqa: E402

BASIC = """
mass: 30.0
inertia: {ixx: 0.2, iyy: 3.0, izz: 3.0}
buoyancy_mass: 30.0
"""
PROFILE = [[-0.7, 0.05], [-0.3, 0.19], [0.4, 0.19], [0.6, 0.08]]


def _yaml(hull):
    text = BASIC + 'hull:\n' + ''.join('  %s\n' % line for line in hull)
    return load_vehicle_string(text, 'v.yaml')


def _sdf(hull):
    return load_vehicle_string(
        '<?xml version="1.0"?><sdf version="1.10"><model name="auv"><link name="body">'
        '<inertial><mass>30.0</mass><inertia><ixx>0.2</ixx><iyy>3.0</iyy><izz>3.0</izz>'
        '</inertia></inertial></link><plugin filename="uwv_hydro" name="uwv_hydro::Hydro">'
        '<link_name>body</link_name><buoyancy_mass>30.0</buoyancy_mass>\n%s\n</plugin>'
        '</model></sdf>' % hull, 'a.sdf')


def _urdf(hull):
    block = ('<plugin name="dsros_hydro" filename="libdsros_hydro.so"><buoyancy>'
             '<center x="0" y="0" z="0"/><buoyancy>100.0</buoyancy></buoyancy><drag>'
             '<center x="0" y="0" z="0"/><linear/><quadratic><xxx>1.0</xxx></quadratic>'
             '</drag>\n%s\n</plugin>' % hull)
    return load_vehicle_string(box_robot('auv', block), 'a.urdf')


XML_HULL = ('<hull><profile>%s</profile><c_yd_beta>1.1</c_yd_beta><x_cp>-0.3</x_cp>'
            '<cd_crossflow>1.2</cd_crossflow><model>jorgensen</model><strips>30</strips>'
            '</hull>' % ' '.join('%g %g' % tuple(row) for row in PROFILE))


def _same_hull(hull):
    assert np.array_equal(hull.stations, [row[0] for row in PROFILE])
    assert np.array_equal(hull.diameters, [row[1] for row in PROFILE])
    assert (hull.c_yd_beta, hull.x_cp, hull.cd_crossflow, hull.model, hull.strips) == (
        1.1, -0.3, 1.2, 'jorgensen', 30)


@pytest.mark.parametrize('profile', [
    'profile: [%s]' % ', '.join('%g, %g' % tuple(row) for row in PROFILE),
    'profile: %s' % PROFILE])
def test_yaml_sdf_and_urdf_routes_read_the_same_hull(profile):
    """The flat (ROS 2 parameter) and paired YAML profiles, SDF and URDF give one hull."""
    lines = [profile, 'c_yd_beta: 1.1', 'x_cp: -0.3', 'cd_crossflow: 1.2',
             'model: jorgensen', 'strips: 30']
    for params in (_yaml(lines), _sdf(XML_HULL), _urdf(XML_HULL)):
        _same_hull(params.hull)
        record = [r for r in params.elements if r.kind == 'hull']
        assert len(record) == 1 and record[0].status == 'read'
        assert 'hull' in record[0].where


def test_a_cylinder_and_the_defaults():
    """length/diameter/x_center make two stations; c_yd_beta 1.2, cd 1.1, prestero, 40."""
    hull = _yaml(['length: 1.6', 'diameter: 0.19', 'x_center: -0.1']).hull
    assert np.allclose(hull.stations, [-0.9, 0.7]) and np.allclose(hull.diameters, 0.19)
    assert (hull.c_yd_beta, hull.cd_crossflow, hull.model, hull.strips, hull.x_cp) == (
        1.2, 1.1, 'prestero', 40, None)


@pytest.mark.parametrize('lines,words', [
    (['length: 1.6'], 'needs a length and a diameter'),
    (['length: 1.6', 'diameter: -0.1'], 'must be positive'),
    (['length: 1.6', 'diameter: 0.2', 'profile: [0.0, 0.1, 1.0, 0.1]'], 'not both'),
    (['profile: [0.0, 0.1, -1.0, 0.1]'], 'increasing x'),
    (['profile: [0.0, 0.1, 1.0]'], 'x diameter x diameter'),
    (['length: 1.6', 'diameter: 0.2', 'model: hoerner'], 'prestero, jorgensen'),
    (['length: 1.6', 'diameter: 0.2', 'strips: 2.5'], 'integer'),
    (['length: 1.6', 'diameter: 0.2', 'cd_crossflow: -1.0'], '>= 0'),
    (['length: 1.6', 'diameter: 0.2', 'x_cpp: 0.1'], "unknown hull key 'x_cpp'"),
])
def test_yaml_errors_name_the_key(lines, words):
    with pytest.raises(DescriptionError) as err:
        _yaml(lines)
    assert words in str(err.value) and 'hull' in str(err.value)


def test_xml_errors_name_the_element_and_line():
    with pytest.raises(DescriptionError) as err:
        _sdf('<hull><length>1.6</length><diameter>0.2</diameter>\n<x_cpp>1</x_cpp></hull>')
    assert 'x_cpp' in str(err.value) and 'x_cp' in str(err.value)
    with pytest.raises(DescriptionError) as err:
        _urdf('<hull><length>1.6</length><diameter>abc</diameter></hull>')
    assert 'diameter' in str(err.value)


def test_doubtful_hulls_load_with_a_warning():
    """x_cp off the hull, and sway drag given twice (quadratic terms and the strips)."""
    params = _yaml(['length: 1.0', 'diameter: 0.2', 'x_cp: 2.0'])
    assert any('outside the hull' in w for w in params.warnings)
    params = load_vehicle_string(BASIC + 'quadratic_drag: {yyy: 100.0}\nhull:\n'
                                 '  length: 1.0\n  diameter: 0.2\n', 'v.yaml')
    assert any('both are applied' in w for w in params.warnings)


@pytest.mark.parametrize('key,value', [('lift_diameter', '1.0e+308'), ('x_cp', '-2.0e+4'),
                                       ('c_yd_beta', '1.0e+300'), ('diameter', '1.0e+200')])
def test_numbers_whose_products_overflow_are_refused_with_key_and_line(key, value):
    """A 1e308 lift_diameter passed check and then overflowed in wrench (issue 40)."""
    lines = ['length: 1.6', 'diameter: 0.2', '%s: %s' % (key, value)]
    if key == 'diameter':
        lines = ['length: 1.6', 'diameter: %s' % value]
    with pytest.raises(DescriptionError) as err:
        _yaml(lines)
    assert err.value.element.endswith(key) and err.value.line is not None
    assert 'overflow' in str(err.value)
    # the XML routes name the element and its line too
    with pytest.raises(DescriptionError, match=key) as err:
        _sdf('<hull>%s</hull>' % ''.join('<%s>%s</%s>' % (k, v, k) for k, v in
                                         (line.split(': ') for line in lines)))
    assert err.value.line is not None
