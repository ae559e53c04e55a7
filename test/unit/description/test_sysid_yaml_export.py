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

"""YAML export: load(export(p)) == p for every exportable field, rcl-compatible text."""

import dataclasses

from conftest import REPO
import numpy as np
import pytest
from uwv_hydro.description.loader import load_vehicle
from uwv_hydro.description.yaml.export import export_yaml, NOT_EXPORTED, write_yaml, yaml_float
from uwv_hydro.physics.body.vehicle_params import FixedFrame
import yaml

VEHICLES = ['config/sphere.yaml', 'config/small_rov.yaml', 'config/remus100.yaml',
            'urdf/remus100.urdf', 'urdf/dsros_vehicle.urdf.xacro']


def assert_same(a, b, skip=NOT_EXPORTED):
    for f in dataclasses.fields(a):
        if f.name in skip:
            continue
        va, vb = getattr(a, f.name), getattr(b, f.name)
        if f.name == 'frames':
            assert sorted(va) == sorted(vb)
            for name in va:
                np.testing.assert_array_equal(va[name].translation, vb[name].translation)
                np.testing.assert_array_equal(va[name].rotation, vb[name].rotation)
        elif f.name == 'fins':
            assert [fin.name for fin in va] == [fin.name for fin in vb]
            for fa, fb in zip(va, vb):
                assert_same(fa, fb, skip=('source',))
        elif f.name == 'elements':  # the same records, at places in the other file
            assert [(r.kind, r.name, r.status, r.note) for r in va] == [
                (r.kind, r.name, r.status, r.note) for r in vb]
        elif f.name == 'hull':
            assert (va is None) == (vb is None), f.name
            if va is not None:
                assert_same(va, vb, skip=('source',))
        elif isinstance(va, np.ndarray) or isinstance(vb, np.ndarray):
            assert va is not None and vb is not None, f.name
            np.testing.assert_array_equal(np.asarray(va), np.asarray(vb), err_msg=f.name)
        else:
            assert va == vb, f.name


def _leaves(node):
    if isinstance(node, dict):
        for v in node.values():
            yield from _leaves(v)
    else:
        yield node


@pytest.mark.parametrize('path', VEHICLES)
def test_round_trip_is_exact(path, tmp_path):
    p = load_vehicle(str(REPO / path))
    out = tmp_path / 'exported.yaml'
    write_yaml(p, out)
    q = load_vehicle(str(out))
    assert_same(p, q)
    # validation recomputes its warnings; the loader's own (lumped joints, equipment not
    # simulated) stay with the original: the export adds no warning of its own
    assert set(q.warnings) <= set(p.warnings), set(q.warnings) - set(p.warnings)
    # rcl params-file rules: no list nested in a list, every float spelled with a '.'
    data = yaml.safe_load(out.read_text())
    for leaf in _leaves(data):
        if isinstance(leaf, list):
            assert not any(isinstance(x, list) for x in leaf)
        assert not isinstance(leaf, int) or isinstance(leaf, bool)


def test_frames_are_lost_without_base_and_kept_with_it(tmp_path):
    src = REPO / 'urdf' / 'dsros_vehicle.urdf.xacro'
    p = load_vehicle(str(src))
    assert p.frames
    out = tmp_path / 'standalone.yaml'
    write_yaml(p, out)
    assert load_vehicle(str(out)).frames == {}
    out = tmp_path / 'based.yaml'
    write_yaml(p, out, base=str(src))
    q = load_vehicle(str(out))
    assert_same(p, q, skip=('source', 'warnings', 'origins', 'coefficient_labels', 'elements'))


def test_exotic_values_round_trip(tmp_path):
    p = load_vehicle(str(REPO / 'config' / 'small_rov.yaml'))
    rng = np.random.default_rng(3)
    p.linear_drag = np.diag(rng.uniform(1, 5, 6))
    p.linear_drag[1, 5] = -1.234e-7
    p.quadratic_drag[0, 1, 1] = 3.0e21
    p.added_mass[2, 4] = p.added_mass[4, 2] = 1e-5
    p.drag_center = np.array([0.1, -0.2, 1.0 / 3.0])
    p.drag_velocity_point = np.array([0.0, 0.0, -0.05])
    p.added_mass_point = np.array([0.01, 0.0, 0.0])
    p.coriolis = False
    p.added_mass_coriolis = False
    p.damping = 'quadratic_only'
    p.name = 'yes'  # a YAML 1.1 boolean unless quoted
    p.frames = {'x': FixedFrame()}
    text = export_yaml(p, node='/**')
    out = tmp_path / 'x.yaml'
    out.write_text(text)
    assert_same(p, load_vehicle(str(out)))
    assert 'xx' in text and 'yh: -1.234e-07' in text and 'xyy: 3.0e+21' in text


def test_yaml_float_always_has_a_decimal_point():
    assert yaml_float(1) == '1.0'
    assert yaml_float(1e-5) == '1.0e-05'
    assert yaml_float(-0.0) == '0.0'
    for v in (0.1, 1.0 / 3.0, 6.02e23, -2.5e-300, 123456789.0):
        assert '.' in yaml_float(v)
        assert yaml.safe_load(yaml_float(v)) == v
    with pytest.raises(ValueError):
        yaml_float(float('nan'))
