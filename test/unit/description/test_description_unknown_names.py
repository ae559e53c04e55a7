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
Typos in every format are errors naming file, line, path and the closest known name.

Each case used to load as a valid vehicle with a silently zero (or default) value;
now ``check`` exits 2 and says "did you mean".
"""

import pathlib

from description_texts import box_robot
import pytest
from required_modules import require
from test_fuzz_descriptions import GZ_SDF as SDF
from uwv_hydro.cli.main import main
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.loader import load_vehicle

REPO = pathlib.Path(__file__).resolve().parents[3]

URDF = box_robot('typo', """    <plugin name="dsros_hydro" filename="libdsros_hydro.so">
      <base_link>base_link</base_link>
      <buoyancy>
        <center x="0" y="0" z="0.1"/>
        <buoyancy>100.5</buoyancy>
      </buoyancy>
      <drag>
        <center x="0" y="0" z="0"/>
        <linear><xx>40</xx><yy>80</yy></linear>
        <quadratic><xxx>100</xxx></quadratic>
        <added_mass><xx>10</xx><yy>50</yy></added_mass>
      </drag>
    </plugin>""")

YAML_NESTED = """uwv_hydro:
  ros__parameters:
    rate_hz: 50.0
    vehicle:
      mass: 10.0
      inertia: {ixx: 1.0, iyy: 2.0, izz: 2.5}
      buoyancy_mass: 10.0
      linear_drag: [1.0, 2.0, 3.0, 0.1, 0.2, 0.3]
      surface: {out_of_water_depth: 0.0, fully_submerged_depth: 0.2}
"""

YAML_FLAT = """/**:
  ros__parameters:
    rate_hz: 50.0
    added_mass: lagged
    mass: 10.0
    inertia: {ixx: 1.0, iyy: 2.0, izz: 2.5}
    buoyancy_mass: 10.0
    linear_drag: [1.0, 2.0, 3.0, 0.1, 0.2, 0.3]
"""

# (name, template, [(text, typo)], expected closest name, file suffix)
CASES = [
    ('dsros <linear>', URDF, [('<linear>', '<linaer>'), ('</linear>', '</linaer>')],
     '<linear>', '.urdf'),
    ('dsros <drag>', URDF, [('<drag>', '<dragg>'), ('</drag>', '</dragg>')], '<drag>',
     '.urdf'),
    ('dsros <added_mass>', URDF, [('<added_mass>', '<added_mas>'),
                                  ('</added_mass>', '</added_mas>')], '<added_mass>', '.urdf'),
    ('dsros <center>', URDF, [('<center x="0" y="0" z="0.1"/>',
                               '<centre x="0" y="0" z="0.1"/>')], '<center>', '.urdf'),
    ('dsros center attribute', URDF, [('z="0.1"', 'zz="0.1"')], "'z'", '.urdf'),
    ('URDF <inertial>', URDF, [('<inertial>', '<inertail>'), ('</inertial>', '</inertail>')],
     '<inertial>', '.urdf'),
    ('URDF inertia attribute', URDF, [('iyy="20"', 'iyyy="20"')], "'iyy'", '.urdf'),
    ('SDF uwv plugin', SDF, [('<buoyancy_mass>50.5</buoyancy_mass>',
                              '<buoyancy_mas>50.5</buoyancy_mas>')], '<buoyancy_mass>',
     '.sdf'),
    ('SDF <inertia>', SDF, [('<inertia>', '<intertia>'), ('</inertia>', '</intertia>')],
     '<inertia>', '.sdf'),
    ('gz-sim parameter', SDF, [('<xUabsU>-6.0</xUabsU>', '<xUabU>-6.0</xUabU>')],
     '<xUabsU>', '.sdf'),
    ('YAML nested key', YAML_NESTED, [('linear_drag:', 'linear_darg:')], "'linear_drag'",
     '.yaml'),
    ('YAML surface key', YAML_NESTED, [('fully_submerged_depth', 'fully_submerged_dept')],
     "'fully_submerged_depth'", '.yaml'),
    ('YAML flat key', YAML_FLAT, [('linear_drag:', 'linear_darg:')], "'linear_drag'",
     '.yaml'),
    ('YAML section', YAML_NESTED, [('vehicle:', 'vehicel:')], "'vehicle'", '.yaml'),
    ('YAML ros__parameters', YAML_FLAT, [('ros__parameters:', 'ros_parameters:')],
     "'ros__parameters'", '.yaml'),
]


@pytest.mark.parametrize('name,template,typos,closest,suffix', CASES,
                         ids=[c[0] for c in CASES])
def test_typo_exits_2_naming_line_and_closest_name(tmp_path, capsys, name, template, typos,
                                                   closest, suffix):
    good_file = tmp_path / ('good' + suffix)
    good_file.write_text(template)
    assert main(['check', str(good_file)]) == 0  # the untouched file is valid
    capsys.readouterr()
    text = template
    for good, bad in typos:
        assert good in text
        text = text.replace(good, bad, 1)
    bad_file = tmp_path / ('bad' + suffix)
    bad_file.write_text(text)
    assert main(['check', str(bad_file)]) == 2
    err = capsys.readouterr().err
    assert 'did you mean %s?' % closest in err, err
    assert 'Traceback' not in err
    line = next(i for i, text_line in enumerate(text.splitlines(), 1)
                if typos[0][1] in text_line)
    assert '%s:%d:' % (bad_file, line) in err, err


def test_unknown_key_error_names_path():
    with pytest.raises(DescriptionError) as info:
        from uwv_hydro.description.loader import load_vehicle_string
        load_vehicle_string(YAML_NESTED.replace('linear_drag:', 'linear_darg:'), 'v.yaml')
    assert info.value.element == 'uwv_hydro.ros__parameters.vehicle.linear_darg'
    assert info.value.line == 8


def test_flat_layout_keeps_node_parameters_and_reads_vehicle_keys():
    """Node parameters beside flat vehicle keys are not errors (added_mass: lagged is one)."""
    require('rcl_interfaces')
    from uwv_hydro.node.parameters import PARAMETERS, VEHICLE_PARAMETERS
    from uwv_hydro.description.loader import load_vehicle_string
    lines = ['/**:', '  ros__parameters:']
    for spec in VEHICLE_PARAMETERS + PARAMETERS:
        if spec.name not in ('acceleration_alpha', 'robot_description', 'vehicle_file'):
            lines.append('    %s: %s' % (spec.name, _yaml_value(spec.default)))
    text = '\n'.join(lines) + '\n' + '\n'.join(YAML_FLAT.splitlines()[4:]) + '\n'
    params = load_vehicle_string(text, 'flat.yaml')
    assert params.mass == 10.0 and params.linear_drag[2, 2] == 3.0
    assert not params.added_mass.any()


def _yaml_value(value):
    if isinstance(value, bool):
        return 'true' if value else 'false'
    if isinstance(value, str):
        return '"%s"' % value
    if isinstance(value, (list, tuple)):
        return '[%s]' % ', '.join(_yaml_value(v) for v in value)
    return repr(value)


def test_yaml_syntax_errors_carry_lines(tmp_path):
    path = tmp_path / 'broken.yaml'
    path.write_text('vehicle:\n  mass: 1.0\n  inertia: [1.0, 2.0\n  com: [0, 0, 0]\n')
    with pytest.raises(DescriptionError, match='malformed YAML') as info:
        load_vehicle(str(path))
    assert info.value.line is not None and info.value.source == str(path)


def test_shipped_descriptions_have_no_unknown_names():
    for path in ('config/remus100.yaml', 'config/small_rov.yaml', 'config/sphere.yaml',
                 'urdf/remus100.urdf', 'urdf/dsros_vehicle.urdf.xacro'):
        load_vehicle(str(REPO / path))


@pytest.mark.parametrize('written, typo', [
    ('<mass>453.592</mass>', '<mas>453.592</mas>'), ('</linear>', '</linaer>'),
    ('<center x="${com_x}" y="${com_y}" z="$(arg cob_z)"/>',
     '<centre x="${com_x}" y="${com_y}" z="$(arg cob_z)"/>'),
])
def test_xacro_errors_point_at_the_line_of_the_xacro_file(tmp_path, written, typo):
    """A typo in a .xacro file is reported at its line in that file, not in xacro's output."""
    shipped = pathlib.Path(__file__).resolve().parents[3] / 'urdf' / 'dsros_vehicle.urdf.xacro'
    lines = shipped.read_text().split('\n')
    where = [i for i, line in enumerate(lines) if written in line]
    assert len(where) == 1, where
    lines[where[0]] = lines[where[0]].replace(written, typo)
    if written == '</linear>':  # keep the XML well formed: rename the opening tag too
        i = max(i for i in range(where[0]) if '<linear>' in lines[i])
        lines[i] = lines[i].replace('<linear>', '<linaer>')
        where[0] = i
    path = tmp_path / 'typo.urdf.xacro'
    path.write_text('\n'.join(lines))
    with pytest.raises(DescriptionError) as exc:
        load_vehicle(str(path))
    assert exc.value.line == where[0] + 1, (exc.value.line, where[0] + 1, str(exc.value))
    assert 'did you mean' in exc.value.reason
