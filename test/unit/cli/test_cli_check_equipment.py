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

"""``uwv-hydro check`` shows fins, thrust coefficients, sorted ranges, elements; strict JSON."""

import json
import pathlib

import pytest

from uwv_hydro.cli.main import main

REPO = pathlib.Path(__file__).resolve().parents[3]
CORPUS = REPO / 'test' / 'corpus'
EQUIPMENT = str(CORPUS / 'check_equipment.yaml')


def _strict(text):
    """Parse JSON refusing Infinity, -Infinity and NaN (not JSON, RFC 8259)."""
    def fail(constant):
        raise AssertionError('non-JSON constant %s in the output' % constant)
    return json.loads(text, parse_constant=fail)


def _check_json(capsys, path, *extra):
    assert main(['check', path, '--json'] + list(extra)) == 0
    return _strict(capsys.readouterr().out)


def test_json_is_strict_and_names_what_is_unbounded(capsys):
    """A uuv thruster without limits has infinite thrust: null, named in non_finite."""
    summary = _check_json(capsys, EQUIPMENT)
    lateral = summary['thrusters'][1]
    assert lateral['model'] == 'uuv_basic'
    assert lateral['thrust_range'] == [None, None]
    assert lateral['command_limits'] == [None, None]
    assert 'thrusters[1].thrust_range[1] = +inf (unbounded)' in summary['non_finite']
    assert 'thrusters[1].command_limits[0] = -inf (unbounded)' in summary['non_finite']
    assert 'fins[1].rate = +inf (unbounded)' in summary['non_finite']  # no rate limit


def test_ds_sim_thrust_range_is_sorted_and_is_the_polynomials_at_the_limits(capsys):
    """With propdir -1, command -10 runs the forward polynomial and +10 the reverse one."""
    summary = _check_json(capsys, EQUIPMENT)
    stern = summary['thrusters'][0]
    assert stern['model'] == 'dsros'
    # ds_sim thrust = quad_gain c^2 (gain, offset 0) at |c| = max_cmd, signed by direction
    forward, reverse = 3.0 * 10.0 ** 2, -(0.8 * 10.0 ** 2)
    assert stern['thrust_range'] == pytest.approx([reverse, forward], rel=1e-12)
    assert stern['thrust_range'][0] <= stern['thrust_range'][1]
    assert stern['command_limits'] == [-10.0, 10.0]
    coefficients = stern['coefficients']
    assert coefficients['forward']['quad_gain'] == 3.0
    assert coefficients['reverse']['quad_gain'] == 0.8 and coefficients['propdir'] == -1
    lateral = summary['thrusters'][1]['coefficients']
    assert lateral == {'conversion': 'Basic', 'rotorConstant': 0.0049}


def test_fins_in_json_and_text(capsys):
    summary = _check_json(capsys, EQUIPMENT)
    rudder, elevator = summary['fins']
    assert rudder['model'] == 'two_line' and rudder['joint'] == 'rudder'
    assert rudder['coefficients']['area'] == 0.004 and rudder['coefficients']['cla'] == 3.0
    assert rudder['limits'] == [-0.4, 0.4] and rudder['rate'] == 1.5
    assert rudder['time_constant'] == 0.05
    assert elevator['model'] == 'quadratic'
    assert elevator['coefficients'] == {'lift_constant': 4.0, 'drag_constant': 0.6}
    assert elevator['rate'] is None
    assert main(['check', EQUIPMENT]) == 0
    out = capsys.readouterr().out
    assert 'fins:           2' in out
    assert ('rudder: two_line (area 0.004 m^2, cla 3, cda 0.25 /rad, stall 0.4 rad, a0 0), '
            'joint rudder, limits [-0.4, 0.4] rad, rate 1.5 rad/s, lag 0.05 s') in out
    assert 'elevator: quadratic (lift_constant 4, drag_constant 0.6)' in out
    assert 'thrust [-80, 300] N' in out
    assert 'coefficients: conversion Basic, rotorConstant 0.0049' in out


def test_remus_fins_are_listed(capsys):
    summary = _check_json(capsys, str(REPO / 'config' / 'remus100.yaml'))
    assert sorted(f['name'] for f in summary['fins']) == [
        'rudder_lower', 'rudder_upper', 'stern_port', 'stern_starboard']
    assert all(f['limits'][0] < 0.0 < f['limits'][1] for f in summary['fins'])
    propeller = summary['thrusters'][0]
    assert set(propeller['coefficients']) >= {'kt_polynomial', 'propeller_diameter'}


def test_elements_with_their_status_in_json_and_text(capsys):
    summary = _check_json(capsys, str(CORPUS / 'uuv_offset_com.urdf'))
    kinds = {(e['kind'], e['status']) for e in summary['elements']}
    assert ('plugin', 'read') in kinds and ('hydrodynamic_model', 'read') in kinds
    plugin = [e for e in summary['elements'] if e['kind'] == 'plugin'][0]
    assert plugin['where'].startswith(str(CORPUS / 'uuv_offset_com.urdf') + ':22: ')
    assert main(['check', str(CORPUS / 'uuv_offset_com.urdf')]) == 0
    out = capsys.readouterr().out
    assert "read    plugin 'libuuv_underwater_object_ros_plugin.so'" in out
    assert 'forward-speed drag L_u (wrench -u L_u nu, u signed): diagonal [1.5, 25' in out
    assert summary['forward_speed_drag'][1][1] == pytest.approx(25.0)  # -T D_fwd T
