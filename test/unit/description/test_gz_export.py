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
``uwv-hydro export-sdf``: the SDF loader reads the export back to the same M_RB and M_A.

M_A is written about the link origin (SDF fluid added mass); for a vehicle whose M_A
is referred to another point (dsros: the CoM) the test checks the transport against
the invariant it must keep: the fluid's kinetic energy 1/2 nu^T M_A nu is the same
whichever point's twist it is written with (v_P = v + w x r, computed here).
"""
import xml.etree.ElementTree as ET

from conftest import REPO
import numpy as np
import pytest
from uwv_hydro.cli.main import main
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.loader import load_vehicle
from uwv_hydro.description.sdf import export as sdf_export
from uwv_hydro.description.sdf.gz_bridge import bridge_yaml
from uwv_hydro.description.yaml.export import write_yaml
from uwv_hydro.physics.body.rigid_body import rigid_body_mass_matrix

VEHICLES = ['urdf/dsros_vehicle.urdf.xacro', 'urdf/remus100.urdf', 'config/remus100.yaml',
            'config/small_rov.yaml', 'config/sphere.yaml']
DEFAULT = str(REPO / 'urdf' / 'dsros_vehicle.urdf.xacro')


def _m_rb(p):
    return rigid_body_mass_matrix(p.mass, p.inertia, p.com)


def _export(tmp_path, vehicle, *options):
    out = tmp_path / 'out.sdf'
    assert main(['export-sdf', str(REPO / vehicle), '--out', str(out)] + list(options)) == 0
    return out


@pytest.mark.parametrize('vehicle', VEHICLES)
@pytest.mark.parametrize('world', [False, True])
def test_round_trip_keeps_rigid_body_and_added_mass(tmp_path, vehicle, world):
    original = load_vehicle(str(REPO / vehicle))
    back = load_vehicle(str(_export(tmp_path, vehicle, *(['--world'] if world else []))))
    assert back.mass == original.mass
    np.testing.assert_array_equal(back.com, original.com)
    np.testing.assert_array_equal(back.inertia, original.inertia)
    np.testing.assert_array_equal(_m_rb(back), _m_rb(original))
    assert back.base_frame == original.base_frame
    np.testing.assert_array_equal(back.added_mass_point, np.zeros(3))
    # exactly what export-sdf computes, and the same fluid kinetic energy as the original
    np.testing.assert_array_equal(back.added_mass, sdf_export.fluid_added_mass(original))
    r = np.asarray(original.added_mass_point, float)
    rng = np.random.default_rng(7)
    for nu in rng.normal(size=(20, 6)):
        nu_point = np.concatenate((nu[:3] + np.cross(nu[3:], r), nu[3:]))
        energy = 0.5 * nu_point @ original.added_mass @ nu_point
        assert 0.5 * nu @ back.added_mass @ nu == pytest.approx(energy, rel=1e-12, abs=1e-12)
    if world:
        assert back.gravity == original.gravity


def test_dsros_added_mass_is_moved_from_the_com_to_the_origin():
    """The default vehicle refers M_A to its CoM 0.1 m below the origin: couplings appear."""
    p = load_vehicle(DEFAULT)
    assert p.semantics == 'dsros' and p.added_mass_point[2] == -0.1
    m_a = sdf_export.fluid_added_mass(p)
    a = np.diag(p.added_mass)
    # r = (0, 0, z), diagonal M_A: v_P = v + w x r gives u_P = u + z q, v_P = v - z p, so
    # 1/2 m_x u_P^2 + 1/2 m_y v_P^2 has the couplings M_o[x, q] = z m_x, M_o[y, p] = -z m_y
    z = p.added_mass_point[2]
    assert m_a[0, 4] == pytest.approx(z * a[0])
    assert m_a[1, 3] == pytest.approx(-z * a[1])
    assert m_a[3, 3] == pytest.approx(a[3] + z * z * a[1])
    assert m_a[4, 4] == pytest.approx(a[4] + z * z * a[0])
    np.testing.assert_array_equal(m_a, m_a.T)


def test_inertial_only_is_a_link_fragment(tmp_path, capsys):
    assert main(['export-sdf', DEFAULT, '--inertial-only']) == 0
    text = capsys.readouterr().out
    inertial = ET.fromstring(text)
    assert inertial.tag == 'inertial'
    assert [c.tag for c in inertial] == ['mass', 'pose', 'inertia', 'fluid_added_mass']
    assert len(inertial.find('fluid_added_mass')) == 21
    model = tmp_path / 'model.sdf'
    model.write_text('<sdf version="1.10"><model name="m"><link name="base_link">%s'
                     '</link></model></sdf>' % text)
    back, original = load_vehicle(str(model)), load_vehicle(DEFAULT)
    np.testing.assert_array_equal(_m_rb(back), _m_rb(original))
    np.testing.assert_array_equal(back.added_mass, sdf_export.fluid_added_mass(original))


def test_world_holds_what_the_node_needs():
    world = ET.fromstring(sdf_export.export_sdf(load_vehicle(DEFAULT), world=True,
                                                world_name='pool', step_size=0.004,
                                                position=(1.0, 2.0, -5.0)))
    w = world.find('world')
    assert w.get('name') == 'pool'
    assert float(w.find('physics/max_step_size').text) == 0.004
    plugins = {p.get('name'): p for p in w.iter('plugin')}
    assert plugins['gz::sim::systems::Physics'].find('engine/filename').text == \
        'gz-physics-dartsim-plugin'
    assert plugins['gz::sim::systems::ApplyLinkWrench'].find('verbose').text == 'false'
    odom = plugins['gz::sim::systems::OdometryPublisher']
    assert odom.find('dimensions').text == '3'
    assert float(odom.find('odom_publish_frequency').text) == pytest.approx(250.0)
    assert odom.find('robot_base_frame').text == 'base_link'
    model = w.find('model')
    assert model.get('name') == 'dsros_vehicle'
    assert model.find('pose').text.split()[:3] == ['1.0', '2.0', '-5.0']
    # the link sits at the model origin: OdometryPublisher's model pose is the link's
    assert model.find('link/pose') is None
    # no second source of buoyancy or drag: the node supplies them
    assert not any('uoyancy' in n or 'ydrodynamics' in n for n in plugins)


def test_shipped_world_and_bridge_config_are_current():
    """worlds/dsros_vehicle.sdf and config/gz_bridge.yaml are what export-sdf writes now."""
    shipped = (REPO / 'worlds' / 'dsros_vehicle.sdf').read_text()
    expected = sdf_export.export_sdf(
        load_vehicle(DEFAULT), world=True,
        comments=['Written by `uwv-hydro export-sdf` from dsros_vehicle.urdf.xacro.'])
    assert shipped == expected, 'regenerate: uwv-hydro export-sdf %s --world --out ' \
        'worlds/dsros_vehicle.sdf --bridge-config config/gz_bridge.yaml' % DEFAULT
    assert (REPO / 'config' / 'gz_bridge.yaml').read_text() == \
        bridge_yaml('dsros_vehicle', sdf_export.DEFAULT_WORLD_NAME)


def test_asymmetric_added_mass_is_a_clear_error(tmp_path, capsys):
    p = load_vehicle(str(REPO / 'config' / 'sphere.yaml'))
    p.added_mass = np.array(p.added_mass, float)
    p.added_mass[0, 4] += 0.125  # X_q without M_q
    with pytest.raises(DescriptionError, match=r'not symmetric.*xq = 0\.125.*qx = 0\.0'):
        sdf_export.fluid_added_mass(p)
    path = tmp_path / 'asym.yaml'
    write_yaml(p, path)
    assert main(['export-sdf', str(path)]) == 2  # the loader's physical check first
    assert 'added mass is not symmetric' in capsys.readouterr().err
    assert main(['export-sdf', str(path), '--allow-nonphysical']) == 2
    assert 'fluid_added_mass> holds a symmetric matrix only' in capsys.readouterr().err


def test_bad_step_size_is_rejected(capsys):
    # refused by the option's parser (issue 51: every number option bounded), exit 2
    with pytest.raises(SystemExit) as stop:
        main(['export-sdf', DEFAULT, '--step-size', '0'])
    assert stop.value.code == 2
    assert 'argument --step-size: must be >= 1e-06, got 0' in capsys.readouterr().err
