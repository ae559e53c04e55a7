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

"""YAML parameter files: layouts, coefficient forms, FRD conversion, base overlay."""

import numpy as np
import pytest

from uwv_hydro.description.conventions import T6
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.loader import load_vehicle, load_vehicle_string
from uwv_hydro.physics.body.vehicle_params import COMPONENT_NAMES
from uwv_hydro.physics.hydro.hydro_model import HydroModel

BASIC = """
mass: 10.0
inertia: {ixx: 1.0, iyy: 2.0, izz: 2.5}
buoyancy_mass: 10.5
cob: [0.0, 0.0, 0.05]
"""


def load(text, **kwargs):
    return load_vehicle_string(text, 'v.yaml', **kwargs)


@pytest.mark.parametrize('wrap', [
    lambda body: body,
    lambda body: 'vehicle:\n' + indent(body, 2),
    lambda body: 'uwv_hydro:\n  ros__parameters:\n    vehicle:\n' + indent(body, 6),
    lambda body: '/**:\n  ros__parameters:\n' + indent(body, 4),
    lambda body: 'other_node:\n  ros__parameters:\n    rate: 10.0\n    vehicle:\n'
    + indent(body, 6),
])
def test_layouts(wrap):
    params = load(wrap(BASIC))
    assert params.mass == 10.0 and params.buoyancy_mass == 10.5
    assert np.allclose(np.diag(params.inertia), [1.0, 2.0, 2.5])


def indent(text, n):
    return '\n'.join(' ' * n + line for line in text.strip().splitlines()) + '\n'


def test_dotted_keys_and_vehicle_priority():
    params = load('n:\n  ros__parameters:\n    mass: 99.0\n    vehicle.mass: 10.0\n'
                  '    vehicle.inertia.ixx: 1.0\n    vehicle.inertia.iyy: 1.0\n'
                  '    vehicle.inertia.izz: 1.0\n')
    assert params.mass == 10.0


def test_matrix_forms_are_equivalent():
    dense = np.zeros((6, 6))
    dense[0, 0], dense[1, 5], dense[5, 1], dense[3, 3] = 1.0, 0.5, 0.5, 2.0
    dense[1, 1], dense[5, 5] = 1.0, 1.0  # sym(L) positive semi-definite
    nested = '[' + ', '.join('[' + ', '.join('%.1f' % v for v in row) + ']'
                             for row in dense) + ']'
    flat = '[' + ', '.join('%.1f' % v for v in dense.ravel()) + ']'
    sparse = '{xx: 1.0, yh: 0.5, hy: 0.5, rr: 2.0, yy: 1.0, hh: 1.0}'
    for form in (nested, flat, sparse):
        params = load(BASIC + 'linear_drag: %s\n' % form)
        assert np.array_equal(params.linear_drag, dense), form
    diag = load(BASIC + 'added_mass: [1.0, 2.0, 3.0, 0.1, 0.2, 0.3]\n').added_mass
    assert np.array_equal(diag, np.diag([1.0, 2.0, 3.0, 0.1, 0.2, 0.3]))


def test_quadratic_forms_are_equivalent():
    q = np.zeros((6, 6, 6))
    q[0, 0, 0], q[1, 5, 5], q[5, 1, 0] = 3.0, 0.7, 1.5
    sparse = load(BASIC + 'quadratic_drag: {xxx: 3.0, yhh: 0.7, hyx: 1.5}\n').quadratic_drag
    flat = load(BASIC + 'quadratic_drag: [%s]\n'
                % ', '.join('%.1f' % v for v in q.ravel())).quadratic_drag
    assert np.array_equal(sparse, q) and np.array_equal(flat, q)
    diag = load(BASIC + 'quadratic_drag: [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]\n').quadratic_drag
    assert diag[4, 4, 4] == 5.0 and np.count_nonzero(diag) == 6


def test_volume_uses_fluid_density_and_inertia_list():
    params = load('mass: 10.0\ninertia: [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]\n'
                  'fluid_density: 1000.0\nvolume: 0.0101\n')
    assert params.buoyancy_mass == pytest.approx(10.1)


@pytest.mark.parametrize('extra,match', [
    ('linear_drag: {xxy: 1.0}', "unknown coefficient 'xxy' in linear drag; expected two"),
    ('quadratic_drag: {xq: 1.0}', "unknown coefficient 'xq' in quadratic drag"),
    ('added_mass: [1.0, 2.0]', 'flat 36-list'),
    ('linear_drag: [[1.0, 2.0], [3.0]]', 'regular'),
    ('mass: heavy', 'expected a number'),
    ('com: [0.0, 0.0]', r'expected \[x, y, z\]'),
    ('convention: ned', "expected 'flu' or 'frd'"),
    ('volume: 0.01', "'buoyancy_mass' or 'volume'"),
    ('inertia: [[1.0, 0.1, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]', 'not symmetric'),
    ('drag_velocity_point: somewhere', "'com', 'origin'"),
    ('linear_drag: [true, 1.0, 1.0, 1.0, 1.0, 1.0]', 'list of numbers'),
    ('added_mass_coriolis: 0.0', 'expected true or false'),
])
def test_yaml_errors_name_key(extra, match):
    key = extra.split(':')[0]
    body = ''.join(line + '\n' for line in BASIC.strip().splitlines()
                   if not line.startswith(key + ':'))  # a key given twice is an error
    with pytest.raises(DescriptionError, match=match) as info:
        load('vehicle:\n' + indent(body + extra, 2))
    assert info.value.source == 'v.yaml'
    assert info.value.element


def test_added_mass_coriolis_key_is_its_own_switch():
    """``added_mass_coriolis: false`` keeps ``coriolis`` (the rigid body's) on."""
    params = load(BASIC + 'added_mass_coriolis: false\n')
    assert params.added_mass_coriolis is False and params.coriolis is True
    default = load(BASIC)
    assert default.added_mass_coriolis is True and default.coriolis is True


def test_unknown_vehicle_key_is_an_error():
    with pytest.raises(DescriptionError, match="unknown key 'masss'") as info:
        load('vehicle:\n  masss: 1.0\n')
    assert info.value.element == 'vehicle.masss'


def test_missing_mass_and_malformed_yaml():
    with pytest.raises(DescriptionError, match="missing 'mass'"):
        load('inertia: {ixx: 1.0, iyy: 1.0, izz: 1.0}\n')
    with pytest.raises(DescriptionError, match='malformed YAML') as info:
        load('mass: 1.0\ninertia: [1.0, 2.0\n')
    assert info.value.line is not None


def test_yaml_aliases_are_rejected():
    bomb = 'a: &a [1.0, 1.0]\nb: &b [*a, *a]\nc: [*b, *b]\n'
    with pytest.raises(DescriptionError, match='aliases'):
        load(bomb)


def test_semantics_dsros_moves_reference_points_to_com():
    params = load(BASIC + 'com: [0.1, 0.0, -0.1]\nsemantics: dsros\n')
    assert np.allclose(params.drag_velocity_point, [0.1, 0.0, -0.1])
    assert np.allclose(params.added_mass_point, [0.1, 0.0, -0.1])
    params = load(BASIC + 'com: [0.1, 0.0, -0.1]\nadded_mass_point: origin\n')
    assert np.allclose(params.added_mass_point, 0.0)
    assert params.drag_velocity_point is None


def test_base_overlay_keeps_rigid_body(tmp_path):
    urdf = tmp_path / 'body.urdf'
    urdf.write_text('<robot name="b"><link name="hull"><inertial><origin xyz="0 0 -0.1"/>'
                    '<mass value="20"/><inertia ixx="1" iyy="2" izz="2"/></inertial></link>'
                    '<link name="cam"/><joint name="j" type="fixed"><parent link="hull"/>'
                    '<child link="cam"/><origin xyz="0.5 0 0"/></joint></robot>')
    overlay = tmp_path / 'hydro.yaml'
    overlay.write_text('vehicle:\n  base: body.urdf\n  buoyancy_mass: 20.5\n'
                       '  cob: [0.0, 0.0, 0.0]\n  linear_drag: {xx: 3.0}\n')
    params = load_vehicle(str(overlay))
    assert params.mass == 20.0 and params.base_frame == 'hull' and 'cam' in params.frames
    assert params.linear_drag[0, 0] == 3.0 and params.buoyancy_mass == 20.5
    assert params.source == str(overlay)
    assert not any('no buoyancy' in w for w in params.warnings)
    # the same through the base= argument; the base object is not modified
    base = load_vehicle(str(urdf))
    again = load_vehicle(str(tmp_path / 'hydro.yaml'), base=base)
    assert again.linear_drag[0, 0] == 3.0 and base.linear_drag[0, 0] == 0.0


FRD_VEHICLE = """
vehicle:
  convention: {convention}
  mass: 20.0
  inertia: {{ixx: 1.0, iyy: 2.0, izz: 2.2, ixy: 0.1, ixz: -0.05, iyz: 0.02}}
  com: [0.02, -0.01, 0.05]
  cob: [0.01, 0.02, -0.03]
  buoyancy_mass: 20.4
  drag_center: [0.1, 0.05, -0.02]
  linear_drag: [{linear}]
  added_mass: [{added}]
  quadratic_drag: {{xxx: 3.0, yyy: 8.0, zzz: 9.0, rrr: 0.5, ppp: 1.5, hhh: 1.6, yhh: 0.4,
                   hyy: -0.3, zpp: 0.2, xyz: 0.6, rzy: 0.15}}
"""


def _frd_texts():
    rng = np.random.default_rng(7)
    linear = np.diag([2.0, 5.0, 6.0, 0.4, 1.0, 1.1]) + 0.1 * rng.standard_normal((6, 6))
    a = 0.2 * rng.standard_normal((6, 6))
    added = np.diag([1.0, 12.0, 13.0, 0.2, 1.5, 1.6]) + 0.5 * (a + a.T)
    fmt = lambda m: ', '.join('%.12f' % v for v in m.ravel())  # noqa: E731
    return [FRD_VEHICLE.format(convention=c, linear=fmt(linear), added=fmt(added))
            for c in ('frd', 'flu')]


def test_frd_to_flu_conversion_preserves_physics():
    """wrench_FLU(T nu, T nu_dot) == T wrench_FRD(nu, nu_dot) for every component."""
    frd_text, raw_text = _frd_texts()
    flu = load(frd_text)        # converted on load
    raw = load(raw_text)        # the same numbers taken as-is: the FRD body
    assert raw.com[2] == 0.05 and flu.com[2] == -0.05
    flu_model, raw_model = HydroModel(flu), HydroModel(raw)
    rng = np.random.default_rng(3)
    # A level FRD body is rotated by pi about x relative to the ENU world (z down).
    q_frd_level = [0.0, 1.0, 0.0, 0.0]
    for _ in range(5):
        nu = rng.uniform(-1.0, 1.0, 6)
        nu_dot = rng.uniform(-0.5, 0.5, 6)
        w_raw = raw_model.wrench(nu, quaternion=q_frd_level, nu_dot=nu_dot)
        w_flu = flu_model.wrench(T6 * nu, quaternion=[1.0, 0.0, 0.0, 0.0],
                                 nu_dot=T6 * nu_dot)
        for name in COMPONENT_NAMES:
            assert np.allclose(w_flu.components[name], T6 * w_raw.components[name],
                               atol=1e-9), name
        assert np.linalg.norm(w_flu.components['quadratic_drag']) > 0.1
    # the conversion is not the identity
    assert not np.allclose(flu.linear_drag, raw.linear_drag)
    assert not np.allclose(flu.quadratic_drag, raw.quadratic_drag)
