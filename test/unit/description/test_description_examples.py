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

"""The shipped example vehicles load, validate and are valid ROS 2 params files."""

import pathlib
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from required_modules import require

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.loader import load_vehicle

REPO = pathlib.Path(__file__).resolve().parents[3]
EXAMPLES = sorted(str(p) for pattern in ('config/*.yaml', 'urdf/*.urdf', 'urdf/*.xacro',
                                         'urdf/*.sdf')
                  for p in REPO.glob(pattern))
VEHICLE_YAMLS = ('bluerov2.yaml', 'remus100.yaml', 'small_rov.yaml', 'sphere.yaml')


def test_expected_examples_are_shipped():
    names = {pathlib.Path(p).name for p in EXAMPLES}
    assert {'dsros_vehicle.urdf.xacro', 'remus100.urdf'} | set(VEHICLE_YAMLS) <= names


@pytest.mark.parametrize('path', [p for p in EXAMPLES
                                  if pathlib.Path(p).name in VEHICLE_YAMLS
                                  or '/urdf/' in p])
def test_example_loads_and_validates(path):
    params = load_vehicle(path)
    assert params.mass > 0.0 and params.buoyancy_mass > 0.0
    assert params.cob[2] > params.com[2] or 'sphere' in path


def test_default_vehicle_matches_dsros_document():
    params = load_vehicle(str(REPO / 'urdf' / 'dsros_vehicle.urdf.xacro'))
    assert params.mass == 453.592 and params.buoyancy_mass == 455.592
    assert np.allclose(np.diag(params.inertia),
                       [46.5860609943583, 114.624724916758, 110.483572365747])
    assert params.surface.fully_submerged_depth == pytest.approx(8 * 0.0254)
    assert params.surface.out_of_water_depth == 0.0
    assert {'thruster_port', 'thruster_stbd'} <= set(params.frames)
    assert params.frames['thruster_port'].translation[1] > 0.0 > \
        params.frames['thruster_stbd'].translation[1]
    assert params.semantics == 'dsros' and params.warnings == []


def test_remus_yaml_frd_matches_flu_urdf():
    yaml_params = load_vehicle(str(REPO / 'config' / 'remus100.yaml'))
    urdf_params = load_vehicle(str(REPO / 'urdf' / 'remus100.urdf'))
    assert yaml_params.mass == 30.48
    assert np.allclose(yaml_params.com, [0.0, 0.0, -0.0196])  # below the CoB in FLU
    # the URDF adds its four 0.01 kg fin links (revolute joints, lumped at zero
    # deflection as gz-sim simulates their mass), each at its joint origin
    fins = [j for j in ET.parse(str(REPO / 'urdf' / 'remus100.urdf')).getroot()
            .findall('joint') if j.get('type') == 'revolute']
    origins = [np.array([float(v) for v in j.find('origin').get('xyz').split()]) for j in fins]
    assert len(origins) == 4
    assert urdf_params.mass == pytest.approx(30.48 + 0.04, rel=1e-12)
    # centre of mass of the union: (m_0 c_0 + sum m_i p_i) / (m_0 + sum m_i)
    expected = (30.48 * yaml_params.com + 0.01 * sum(origins)) / 30.52
    assert np.allclose(urdf_params.com, expected, rtol=0, atol=1e-12)
    assert np.allclose(yaml_params.added_mass, urdf_params.added_mass)
    assert np.allclose(yaml_params.quadratic_drag, urdf_params.quadratic_drag)
    assert yaml_params.added_mass[1, 1] == 35.5 and yaml_params.quadratic_drag[0, 0, 0] == 1.62


def test_sphere_is_neutral_with_half_displaced_added_mass():
    params = load_vehicle(str(REPO / 'config' / 'sphere.yaml'))
    r, rho = 0.1, 1025.0
    volume = 4.0 / 3.0 * np.pi * r ** 3
    assert params.mass == pytest.approx(rho * volume)
    assert params.buoyancy_mass == pytest.approx(params.mass)
    assert np.allclose(params.inertia, 0.4 * params.mass * r * r * np.eye(3))
    assert np.allclose(np.diag(params.added_mass)[:3], 0.5 * rho * volume)


def _rcl_accepts(path: str) -> bool:
    import rclpy
    context = rclpy.Context()
    try:
        rclpy.init(args=['--ros-args', '--params-file', path], context=context)
        return True
    except Exception:  # noqa: B902 -- rclpy raises RCLError for a bad params file
        return False
    finally:
        context.try_shutdown()


@pytest.mark.parametrize('name', VEHICLE_YAMLS)
def test_shipped_yaml_is_a_valid_ros2_params_file(name):
    require('rclpy')
    assert _rcl_accepts(str(REPO / 'config' / name))


def test_rcl_check_detects_invalid_params_files(tmp_path):
    require('rclpy')
    nested = tmp_path / 'nested.yaml'
    nested.write_text('n:\n  ros__parameters:\n    m: [[1.0, 2.0], [3.0, 4.0]]\n')
    mixed = tmp_path / 'mixed.yaml'
    mixed.write_text('n:\n  ros__parameters:\n    m: [1, 2.0]\n')
    assert not _rcl_accepts(str(nested)) and not _rcl_accepts(str(mixed))


def test_invalid_example_variant_is_rejected():
    with pytest.raises(DescriptionError):
        load_vehicle(str(REPO / 'urdf' / 'dsros_vehicle.urdf.xacro'),
                     mappings={'com_z': 'not_a_number'})


def test_loaders_do_not_import_rclpy():
    code = ('import sys\n'
            'from uwv_hydro.description.loader import load_vehicle\n'
            'load_vehicle(%r)\n'
            'load_vehicle(%r)\n'
            'assert "rclpy" not in sys.modules, "rclpy imported"\n'
            % (str(REPO / 'urdf' / 'dsros_vehicle.urdf.xacro'),
               str(REPO / 'config' / 'remus100.yaml')))
    result = subprocess.run([sys.executable, '-c', code], cwd=REPO, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
