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
Property-based fuzzing of every loader and of the ``wrench`` command line.

Random mutations of valid descriptions (numbers replaced by NaN, inf, huge, empty or
garbage; lines deleted, duplicated or swapped; tags renamed; text truncated) must give
either a valid, all-finite model or the loaders' one exception type (DescriptionError,
naming the source) — never another exception from deep inside, never NaN or inf.
"""

from contextlib import redirect_stderr, redirect_stdout
import io
import json
import math
import pathlib
import re

from hypothesis import given, HealthCheck, settings, strategies as st
import numpy as np
import pytest

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.loader import load_vehicle_string
from uwv_hydro.description.urdf.xacro_file import expand_xacro

REPO = pathlib.Path(__file__).resolve().parents[3]
NUMBER = re.compile(r'-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?')
TAG = re.compile(r'(?<=<)/?([A-Za-z_]+)')
NASTY = ['nan', 'NaN', 'inf', '-inf', '1e309', '-1e309', '1e-320', '-1', '0', '-0', '',
         ' ', 'abc', '1,2', '0x10', '3.5.5', '1e400', '+', '.', '1e', '9' * 400]

GZ_SDF = """<?xml version="1.0"?>
<sdf version="1.10">
  <model name="auv">
    <link name="body">
      <inertial>
        <mass>50.0</mass>
        <pose>0.0 0.0 -0.05 0 0 0</pose>
        <inertia><ixx>2.0</ixx><iyy>4.0</iyy><izz>4.5</izz></inertia>
        <fluid_added_mass>
          <xx>5.0</xx><yy>20.0</yy><zz>20.0</zz><pp>0.5</pp><qq>2.0</qq><rr>2.0</rr>
          <xq>0.1</xq><yr>-0.2</yr>
        </fluid_added_mass>
      </inertial>
    </link>
    <plugin filename="gz-sim-hydrodynamics-system"
            name="gz::sim::systems::Hydrodynamics">
      <link_name>body</link_name>
      <xU>-3.0</xU><yV>-10.0</yV><zW>-10.0</zW><kP>-1.0</kP><mQ>-2.0</mQ><nR>-2.0</nR>
      <xUabsU>-6.0</xUabsU><yVabsV>-40.0</yVabsV><nRabsR>-3.0</nRabsR>
    </plugin>
    <plugin filename="uwv_hydro" name="uwv_hydro">
      <buoyancy_mass>50.5</buoyancy_mass>
      <center_of_buoyancy>0 0 0.02</center_of_buoyancy>
    </plugin>
  </model>
</sdf>
"""


def _seeds():
    return {
        'dsros.urdf': expand_xacro(str(REPO / 'urdf' / 'dsros_vehicle.urdf.xacro')),
        'remus.urdf': (REPO / 'urdf' / 'remus100.urdf').read_text(),
        'gz.sdf': GZ_SDF,
        'rov.yaml': (REPO / 'config' / 'small_rov.yaml').read_text(),
        'remus.yaml': (REPO / 'config' / 'remus100.yaml').read_text(),
    }


SEEDS = _seeds()


def mutate(text: str, data) -> str:
    """Apply 1-3 random mutations to text."""
    for _ in range(data.draw(st.integers(1, 3), label='mutations')):
        op = data.draw(st.sampled_from(['number', 'number', 'delete', 'duplicate', 'swap',
                                        'tag', 'truncate', 'insert']), label='op')
        lines = text.split('\n')
        if op == 'number':
            spans = [m.span() for m in NUMBER.finditer(text)]
            if spans:
                a, b = data.draw(st.sampled_from(spans), label='span')
                new = data.draw(st.one_of(st.sampled_from(NASTY), st.floats().map(repr)),
                                label='value')
                text = text[:a] + new + text[b:]
        elif op == 'delete' and len(lines) > 1:
            del lines[data.draw(st.integers(0, len(lines) - 1))]
            text = '\n'.join(lines)
        elif op == 'duplicate':
            i = data.draw(st.integers(0, len(lines) - 1))
            lines.insert(i, lines[i])
            text = '\n'.join(lines)
        elif op == 'swap' and len(lines) > 1:
            i, j = (data.draw(st.integers(0, len(lines) - 1)) for _ in range(2))
            lines[i], lines[j] = lines[j], lines[i]
            text = '\n'.join(lines)
        elif op == 'tag':
            spans = [m.span(1) for m in TAG.finditer(text)]
            if spans:
                a, b = data.draw(st.sampled_from(spans), label='tag')
                new = data.draw(st.sampled_from(['xxy', 'foo', 'linear', 'mass', 'x', 'hhh',
                                                 'inertia', 'added_mass', 'zz']))
                text = text[:a] + new + text[b:]
        elif op == 'truncate':
            text = text[:data.draw(st.integers(0, len(text)))]
        elif op == 'insert':
            i = data.draw(st.integers(0, len(text)))
            text = text[:i] + data.draw(st.text(max_size=8)) + text[i:]
    return text


def assert_finite_model(params):
    for name in ('mass', 'inertia', 'com', 'cob', 'buoyancy_mass', 'linear_drag',
                 'quadratic_drag', 'added_mass', 'added_mass_point', 'gravity',
                 'fluid_density', 'acceleration_alpha'):
        value = np.asarray(getattr(params, name), float)
        assert np.all(np.isfinite(value)), '%s is not finite: %r' % (name, value)
    for name in ('drag_center', 'drag_velocity_point'):
        value = getattr(params, name)
        assert value is None or np.all(np.isfinite(value)), name
    for frame in params.frames.values():
        assert np.all(np.isfinite(frame.translation)) and np.all(np.isfinite(frame.rotation))


@pytest.mark.parametrize('seed', sorted(SEEDS))
@settings(max_examples=100, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_mutated_description_is_valid_or_a_clear_error(seed, data):
    text = mutate(SEEDS[seed], data)
    try:
        params = load_vehicle_string(text, source='fuzz/' + seed)
    except DescriptionError as exc:
        assert 'fuzz/' + seed in str(exc) or exc.source == 'fuzz/' + seed, str(exc)
        assert exc.reason
        return
    assert_finite_model(params)


def test_the_seeds_themselves_load():
    for name, text in SEEDS.items():
        assert_finite_model(load_vehicle_string(text, source=name))


FLOATS = st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                   st.floats(-1e3, 1e3), st.sampled_from([0.0, -0.0, 1e308, -1e308]))


@settings(max_examples=60, deadline=None, derandomize=True)
@given(velocity=st.lists(FLOATS, min_size=6, max_size=6),
       position=st.lists(FLOATS, min_size=3, max_size=3),
       orientation=st.lists(FLOATS, min_size=4, max_size=4),
       acceleration=st.lists(FLOATS, min_size=6, max_size=6),
       current=st.lists(FLOATS, min_size=3, max_size=3))
def test_wrench_cli_gives_finite_json_or_exit_2(velocity, position, orientation,
                                                acceleration, current):
    from uwv_hydro.cli.main import main
    argv = ['wrench', str(REPO / 'config' / 'small_rov.yaml'), '--json']
    for flag, values in (('--velocity', velocity), ('--position', position),
                         ('--orientation', orientation), ('--acceleration', acceleration),
                         ('--current', current)):
        argv += [flag] + [repr(v) for v in values]
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:
            # argparse refuses a number beyond its bound or not finite, naming it; a
            # number like -1e+16 is still read as a number (never 'expected 6 arguments')
            assert exc.code == 2 and 'error: argument --' in err.getvalue()
            assert ': must be ' in err.getvalue(), err.getvalue()
            return
    if code == 2:
        assert err.getvalue().startswith('error: ') and out.getvalue() == ''
        return
    assert code == 0
    result = json.loads(out.getvalue())
    values = result['total'] + [v for comp in result['components'].values() for v in comp]
    assert all(math.isfinite(v) for v in values)
