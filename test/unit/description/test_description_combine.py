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
One rule for a YAML over a base: the base's hydrodynamics are replaced as a whole.

Before, the YAML was laid over the URDF field by field, so the dsros block's linear
drag and ``semantics: dsros`` reference points leaked into a YAML vehicle (the
shipped REMUS YAML over the REMUS URDF gave [-62.8, -13.7, 0.7, ...] instead of its
own [-2.8, -1.7, 6.7, ...]).
"""

import json
import pathlib

import numpy as np
import pytest

from uwv_hydro.cli.main import main
from uwv_hydro.description.loader import load_combined, load_vehicle
from uwv_hydro.description.provenance import field_sources, format_field_sources
from uwv_hydro.physics.hydro.hydro_model import HydroModel

REPO = pathlib.Path(__file__).resolve().parents[3]
REMUS_YAML = REPO / 'config' / 'remus100.yaml'
REMUS_URDF = REPO / 'urdf' / 'remus100.urdf'
DSROS_XACRO = REPO / 'urdf' / 'dsros_vehicle.urdf.xacro'

NU = np.array([1.5, -0.2, 0.3, 0.1, -0.2, 0.25])
NU_DOT = np.array([0.2, 0.1, -0.1, 0.05, 0.0, -0.05])
POS = [0.0, 0.0, -10.0]
QUAT = [0.96, 0.1, -0.15, 0.2]
CURRENT = [0.2, -0.1, 0.0]


def _total(params):
    return HydroModel(params).wrench(NU, POS, QUAT, NU_DOT, CURRENT).total


def _assert_same_vehicle_physics(a, b):
    wa = HydroModel(a).wrench(NU, POS, QUAT, NU_DOT, CURRENT).components
    wb = HydroModel(b).wrench(NU, POS, QUAT, NU_DOT, CURRENT).components
    for name in wa:
        scale = max(1.0, np.max(np.abs(wa[name])))
        assert np.allclose(wa[name], wb[name], rtol=0.0, atol=1e-12 * scale), name
    for field in ('mass', 'inertia', 'com', 'cob', 'buoyancy_mass', 'linear_drag',
                  'quadratic_drag', 'added_mass', 'added_mass_point', 'semantics',
                  'acceleration_alpha'):
        assert np.array_equal(np.asarray(getattr(a, field)), np.asarray(getattr(b, field))), \
            field


def test_whole_yaml_vehicle_over_a_dsros_urdf_is_the_yaml_alone():
    """The shipped REMUS YAML through the launch path (robot_description + vehicle_file)."""
    alone = load_vehicle(str(REMUS_YAML))
    combined, notes = load_combined(REMUS_URDF.read_text(), str(REMUS_YAML))
    _assert_same_vehicle_physics(alone, combined)
    assert 'propeller_link' in combined.frames and combined.base_frame == 'base_link'
    urdf_alone = load_vehicle(str(REMUS_URDF))
    assert not np.allclose(_total(urdf_alone), _total(combined))  # the URDF's own differs
    assert any('remus100.yaml (YAML)' in note and 'quadratic_drag' in note for note in notes)


def test_partial_yaml_takes_nothing_hydro_from_the_urdf(tmp_path):
    """A YAML giving only buoyancy and quadratic drag over the dsros vehicle."""
    yaml_file = tmp_path / 'hydro.yaml'
    yaml_file.write_text('vehicle:\n  buoyancy_mass: 455.0\n  cob: [0.0, 0.0, 0.05]\n'
                         '  quadratic_drag: {xxx: 100.0}\n')
    from uwv_hydro.description.urdf.xacro_file import expand_xacro
    params, _ = load_combined(expand_xacro(str(DSROS_XACRO)), str(yaml_file))
    assert params.mass == pytest.approx(453.592)            # rigid body from the URDF
    assert params.com[2] == pytest.approx(-0.10) and 'dvl_link' in params.frames
    assert not params.linear_drag.any() and not params.added_mass.any()  # not the block's
    assert params.semantics == 'origin'
    assert params.drag_velocity_point is None and not params.added_mass_point.any()
    assert params.acceleration_alpha == 0.3 and params.surface.fully_submerged_depth == 0.0
    sources = field_sources(params)
    assert sources['linear_drag'] == 'default' and sources['semantics'] == 'default'
    assert sources['mass'].startswith('<robot_description> (URDF')
    assert sources['quadratic_drag'] == '%s:4 (YAML)' % yaml_file
    lines = format_field_sources(params)
    assert any(line.startswith('defaults:') and 'linear_drag' in line for line in lines)


def test_yaml_base_key_follows_the_same_rule(tmp_path):
    base = tmp_path / 'base.urdf'
    base.write_text(REMUS_URDF.read_text())
    overlay = tmp_path / 'over.yaml'
    overlay.write_text('vehicle:\n  base: base.urdf\n  buoyancy_mass: 30.48\n')
    params = load_vehicle(str(overlay))
    assert params.mass == load_vehicle(str(REMUS_URDF)).mass  # the URDF's rigid body
    assert not params.quadratic_drag.any()
    assert params.semantics == 'origin' and 'dvl_link' in params.frames


def test_non_yaml_file_with_a_description_is_used_alone():
    params, notes = load_combined(REMUS_URDF.read_text(), str(REMUS_URDF))
    assert any('is used alone' in note for note in notes)
    assert params.semantics == 'dsros'


def test_check_robot_description_prints_sources_and_json(capsys):
    argv = ['check', str(REMUS_YAML), '--robot-description', str(REMUS_URDF), '--json']
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out)
    alone = load_vehicle(str(REMUS_YAML))
    assert np.allclose(summary['matrices']['quadratic_drag'], alone.quadratic_drag)
    assert summary['sources']['frames'].startswith(str(REMUS_URDF))
    assert summary['sources']['added_mass'].startswith(str(REMUS_YAML))
    assert main(argv[:-1]) == 0
    out = capsys.readouterr().out
    assert 'sources:' in out and 'defaults:' in out


def test_check_json_has_converted_matrices_and_reference_points(capsys):
    """REMUS in FRD: the FLU matrices are T M T, Q_abc T_a T_c; the points resolved."""
    assert main(['check', str(REMUS_YAML), '--json']) == 0
    s = json.loads(capsys.readouterr().out)
    m_a = np.array(s['matrices']['added_mass'])
    # config/remus100.yaml: yh = -1.93, zp = 1.93 in FRD; T_y T_h = T_z T_p = +1 keep them
    assert m_a[1, 5] == pytest.approx(-1.93) and m_a[2, 4] == pytest.approx(1.93)
    assert np.allclose(m_a, m_a.T)
    q = np.array(s['matrices']['quadratic_drag'])
    # xxx = 1.62, rrr = 0.0013, hxh = pxp = 25: T_a T_c = +1 (the cross-flow terms are
    # the hull block's)
    assert q[0, 0, 0] == pytest.approx(1.62) and q[3, 3, 3] == pytest.approx(0.0013)
    assert q[5, 0, 5] == pytest.approx(25.0) and q[4, 0, 4] == pytest.approx(25.0)
    assert s['hull']['x_cp'] == pytest.approx(-0.72)
    assert q.shape == (6, 6, 6) and np.array(s['matrices']['linear_drag']).shape == (6, 6)
    com = s['com']
    assert s['reference_points']['drag_center'] == pytest.approx(com)
    assert s['reference_points']['added_mass_point'] == pytest.approx([0.0, 0.0, 0.0])
    m = np.array(s['matrices']['mass_matrix_about_origin'])
    assert np.allclose(m, m.T) and np.linalg.eigvalsh(m)[0] > 0.0


def test_check_json_matrices_are_converted_from_frd(tmp_path, capsys):
    path = tmp_path / 'frd.yaml'
    path.write_text('vehicle:\n  convention: frd\n  mass: 10.0\n'
                    '  inertia: {ixx: 1.0, iyy: 2.0, izz: 2.5}\n  buoyancy_mass: 10.0\n'
                    '  linear_drag: {xx: 5.0, zz: 5.0, xz: 1.0, zx: 1.0}\n'
                    '  quadratic_drag: {xxx: 3.0, xyz: 0.5, yxy: 0.25}\n'
                    '  added_mass: {xx: 1.0, yy: 2.0, xy: 0.5, yx: 0.5}\n')
    assert main(['check', str(path), '--json']) == 0
    m = json.loads(capsys.readouterr().out)['matrices']
    lin, quad, add = (np.array(m[k]) for k in ('linear_drag', 'quadratic_drag', 'added_mass'))
    # L' = T L T, M_A' = T M_A T: x-z and x-y couplings flip sign (T_x T_z = -1)
    assert lin[0, 2] == -1.0 and lin[2, 0] == -1.0 and lin[0, 0] == 5.0
    assert add[0, 1] == -0.5 and add[1, 1] == 2.0
    # Q'_abc = T_a T_c Q_abc (not T_a T_b T_c): xyz -> T_x T_z = -1, yxy -> T_y T_y = +1
    assert quad[0, 1, 2] == -0.5 and quad[1, 0, 1] == 0.25 and quad[0, 0, 0] == 3.0
