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

"""``uwv-hydro wrench``: JSON output and equal forces from equivalent descriptions."""

import json
import pathlib
import subprocess
import sys

import numpy as np
import pytest

from uwv_hydro.cli.main import main
from uwv_hydro.physics.body.vehicle_params import COMPONENT_NAMES

REPO = pathlib.Path(__file__).resolve().parents[3]
DEFAULT = str(REPO / 'urdf' / 'dsros_vehicle.urdf.xacro')
# every component: the weight applied and the lagged added mass of a given acceleration
STATE = ['--velocity', '0.8', '-0.3', '0.2', '0.1', '-0.2', '0.3',
         '--orientation', '0.95', '0.1', '-0.2', '0.2', '--added-mass', 'lagged',
         '--apply-weight', '--acceleration', '0.1', '0.2', '-0.1', '0.05', '0.02', '-0.03']


def run_wrench(path, *extra):
    result = subprocess.run(
        [sys.executable, '-m', 'uwv_hydro', 'wrench', str(path)] + STATE + list(extra)
        + ['--json'], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_wrench_json_layout_and_total(capsys):
    assert main(['wrench', DEFAULT] + STATE + ['--current', '0.1', '0.0', '0.0', '--json']) == 0
    out = json.loads(capsys.readouterr().out)
    assert out['frame'] == 'base_link'
    assert out['gravity'] == 9.8 and out['fluid_density'] == 1025.0
    assert set(out['components']) == set(COMPONENT_NAMES)
    total = np.sum([out['components'][n] for n in COMPONENT_NAMES], axis=0)
    assert np.allclose(out['total'], total)
    assert np.linalg.norm(out['components']['added_mass']) > 0.0
    assert np.linalg.norm(out['components']['quadratic_drag']) > 0.0


def test_wrench_position_above_water_removes_buoyancy(capsys):
    assert main(['wrench', DEFAULT, '--velocity'] + ['0'] * 6
                + ['--position', '0', '0', '1.0', '--apply-weight', '--json']) == 0
    out = json.loads(capsys.readouterr().out)
    assert out['components']['buoyancy'] == pytest.approx([0.0] * 6)
    assert out['components']['weight'][2] == pytest.approx(-453.592 * 9.8)


def test_wrench_defaults_are_the_node_s(capsys):
    """As the node's defaults: implicit added mass (no -M_A nu_dot), weight not applied."""
    velocity = ['--velocity', '0.8', '-0.3', '0.2', '0.1', '-0.2', '0.3']
    assert main(['wrench', DEFAULT] + velocity + ['--json']) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out['added_mass'], out['apply_weight']) == ('implicit', False)
    assert out['components']['weight'] == [0.0] * 6
    assert out['components']['added_mass'] == [0.0] * 6
    assert np.linalg.norm(out['components']['buoyancy']) > 0.0
    np.testing.assert_allclose(out['total'], np.sum(
        [out['components'][n] for n in COMPONENT_NAMES], axis=0), rtol=0, atol=1e-9)
    # the acceleration is the lagged estimate: meaningless with implicit added mass
    assert main(['wrench', DEFAULT] + velocity + ['--acceleration'] + ['1'] * 6) == 2
    assert '--added-mass lagged' in capsys.readouterr().err


def test_wrench_bad_input_exits_2(capsys):
    with pytest.raises(SystemExit) as exc:  # argparse: --velocity must be finite
        main(['wrench', DEFAULT, '--velocity', '1', '0', '0', '0', '0', 'nan'])
    assert exc.value.code == 2
    assert 'argument --velocity: must be finite, got nan' in capsys.readouterr().err
    assert main(['wrench', DEFAULT, '--velocity'] + ['0'] * 6
                + ['--orientation', '0', '0', '0', '0']) == 2


# One vehicle, four descriptions.  CoM at the origin so dsros semantics (drag with
# the CoM velocity, added mass about the CoM) coincide with the origin semantics.
DSROS_URDF = """<?xml version="1.0"?>
<robot name="eq">
  <link name="base_link">
    <inertial><origin xyz="0 0 0" rpy="0 0 0"/><mass value="50.0"/>
      <inertia ixx="2.0" ixy="0" ixz="0" iyy="4.0" iyz="0" izz="4.5"/></inertial>
  </link>
  <gazebo><plugin name="dsros_hydro" filename="libdsros_hydro.so">
    <buoyancy><center x="0.0" y="0.0" z="0.06"/><mass>50.0</mass>
      <buoyancy>51.0</buoyancy></buoyancy>
    <drag><center x="0" y="0" z="0"/>
      <linear><xx>10.0</xx><yy>20.0</yy><hh>3.0</hh><yh>-0.5</yh></linear>
      <quadratic><xxx>30.0</xxx><yyy>80.0</yyy><xyx>7.0</xyx><rrr>0.5</rrr></quadratic>
      <added_mass><xx>5.0</xx><yy>40.0</yy><zz>45.0</zz><rr>0.3</rr><pp>2.0</pp>
        <hh>2.5</hh><yh>-0.8</yh><hy>-0.8</hy></added_mass>
    </drag>
  </plugin></gazebo>
</robot>
"""

RIGID_SDF = """<?xml version="1.0"?>
<sdf version="1.10"><model name="eq"><link name="base_link"><inertial>
  <mass>50.0</mass><pose>0 0 0 0 0 0</pose>
  <inertia><ixx>2.0</ixx><iyy>4.0</iyy><izz>4.5</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz>
  </inertia>
  <fluid_added_mass><xx>5.0</xx><yy>40.0</yy><zz>45.0</zz><pp>0.3</pp><qq>2.0</qq>
    <rr>2.5</rr><yr>-0.8</yr></fluid_added_mass>
</inertial></link>%s</model></sdf>
"""

OVERLAY_YAML = """# SDF rigid body; YAML hydrostatics, drag and added mass (a YAML over a base
# replaces the base's hydrodynamics as a whole)
uwv_hydro:
  ros__parameters:
    vehicle:
      base: eq.sdf
      added_mass: {xx: 5.0, yy: 40.0, zz: 45.0, rr: 0.3, pp: 2.0, hh: 2.5, yh: -0.8, hy: -0.8}
      buoyancy_mass: 51.0
      cob: [0.0, 0.0, 0.06]
      linear_drag: {xx: 10.0, yy: 20.0, hh: 3.0, yh: -0.5}
      quadratic_drag: {xxx: 30.0, yyy: 80.0, xyx: 7.0, rrr: 0.5}
"""

GZ_PLUGINS = """
<plugin filename="gz-sim-hydrodynamics-system" name="gz::sim::systems::Hydrodynamics">
  <link_name>base_link</link_name>
  <xU>-10.0</xU><yV>-20.0</yV><nR>-3.0</nR><yR>0.5</yR>
  <xUabsU>-30.0</xUabsU><yVabsV>-80.0</yVabsV><xUabsV>-7.0</xUabsV><kPabsP>-0.5</kPabsP>
</plugin>
<plugin filename="uwv_hydro" name="uwv_hydro::Buoyancy">
  <buoyancy_mass>51.0</buoyancy_mass><center_of_buoyancy>0 0 0.06</center_of_buoyancy>
</plugin>"""

GZ_ADDED_MASS = ('<xDotU>-5.0</xDotU><yDotV>-40.0</yDotV><zDotW>-45.0</zDotW>'
                 '<kDotP>-0.3</kDotP><mDotQ>-2.0</mDotQ><nDotR>-2.5</nDotR>'
                 '<yDotR>0.8</yDotR><nDotV>0.8</nDotV>')


def test_equivalent_descriptions_give_the_same_wrench(tmp_path):
    (tmp_path / 'eq.urdf').write_text(DSROS_URDF)
    (tmp_path / 'eq.sdf').write_text(RIGID_SDF % '')
    (tmp_path / 'eq_overlay.yaml').write_text(OVERLAY_YAML)
    # gz-sim parameters: drag and added mass in the Hydrodynamics plugin
    gz_plugins = GZ_PLUGINS.replace('<xU>', GZ_ADDED_MASS + '<xU>')
    gz_sdf = RIGID_SDF.replace(
        RIGID_SDF[RIGID_SDF.index('<fluid_added_mass>'):
                  RIGID_SDF.index('</fluid_added_mass>') + len('</fluid_added_mass>')], '')
    (tmp_path / 'eq_gz.sdf').write_text(gz_sdf % gz_plugins)
    # gz-sim drag with SDF-native fluid_added_mass
    (tmp_path / 'eq_gz_fam.sdf').write_text(RIGID_SDF % GZ_PLUGINS)
    results = [run_wrench(tmp_path / name) for name in
               ('eq.urdf', 'eq_overlay.yaml', 'eq_gz.sdf', 'eq_gz_fam.sdf')]
    reference = results[0]
    for name in COMPONENT_NAMES:
        if name not in ('fins', 'hull_lift', 'crossflow_drag'):  # no fins nor hull here
            assert np.linalg.norm(reference['components'][name]) > 1e-3, name
    for other in results[1:]:
        assert other['frame'] == 'base_link'
        # each format's default gravity (URDF: Gazebo's 9.8, YAML and SDF model: 9.81)
        # scales weight and buoyancy only
        ratio = reference['gravity'] / other['gravity']
        for name in COMPONENT_NAMES:
            scale = ratio if name in ('weight', 'buoyancy') else 1.0
            assert np.allclose(np.multiply(other['components'][name], scale),
                               reference['components'][name],
                               rtol=1e-9, atol=1e-9), (name, other['source'])
