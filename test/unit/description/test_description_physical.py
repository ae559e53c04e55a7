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
Sign and symmetry mistakes are errors naming the coefficient; with the flag, warnings.

Loaded with ``--allow-nonphysical`` the vehicle behaves as the warning says: a negative
linear drag makes a lone surge grow as u0 exp(|L_xx| t / (m + A_xx)) (analytic), and a
non-symmetric added mass does not conserve the kinetic energy of a drag-free body
while its symmetric part does.
"""

import json
import pathlib

from description_texts import box_robot
import numpy as np
import pytest
from uwv_hydro.cli.main import main
from uwv_hydro.description.loader import load_vehicle
from uwv_hydro.physics.body.dynamics import Simulator, State

REPO = pathlib.Path(__file__).resolve().parents[3]

URDF = box_robot('signs', """    <plugin name="dsros_hydro" filename="libdsros_hydro.so">
      <base_link>base_link</base_link>
      <buoyancy><center x="0" y="0" z="0"/><buoyancy>100.0</buoyancy></buoyancy>
      <drag>
        <center x="0" y="0" z="0"/>
        <linear><xx>{xx}</xx><yy>80</yy><hh>30</hh>{linear}</linear>
        <quadratic><xxx>{xxx}</xxx></quadratic>
        <added_mass><xx>{axx}</xx><yy>50</yy><hh>5</hh>{added}</added_mass>
      </drag>
    </plugin>""")

SDF = """<?xml version="1.0"?>
<sdf version="1.10">
  <model name="auv">
    <link name="body">
      <inertial><mass>50.0</mass>
        <inertia><ixx>2.0</ixx><iyy>4.0</iyy><izz>4.5</izz></inertia></inertial>
    </link>
    <plugin filename="gz-sim-hydrodynamics-system" name="gz::sim::systems::Hydrodynamics">
      <link_name>body</link_name>
      <xU>{xu}</xU><yV>-10.0</yV>
    </plugin>
  </model>
</sdf>
"""

YAML = """vehicle:
  mass: 100.0
  inertia: {{ixx: 10.0, iyy: 20.0, izz: 25.0}}
  buoyancy_mass: 100.0
  added_mass: {{xx: {axx}, yy: 50.0, hh: 5.0}}
"""


def urdf(xx='40', linear='', xxx='100', axx='10', added=''):
    return URDF.format(xx=xx, linear=linear, xxx=xxx, axx=axx, added=added)


# (name, suffix, text, words the error must contain, what is named)
CASES = [
    ('negative dsros linear xx', '.urdf', urdf(xx='-40'),
     ['linear drag', 'is negative', 'injects energy'], '/drag/linear/xx'),
    ('positive gz-sim xU', '.sdf', SDF.format(xu='3.0'),
     ['linear drag', 'is negative', 'gz-sim xU = 3.0'], '/xU'),
    ('sym(L) not PSD', '.urdf', urdf(linear='<xy>70</xy><yx>70</yx>'),
     ['not positive semi-definite', 'injects energy'], '/drag/linear/xy'),
    ('negative quadratic diagonal', '.urdf', urdf(xxx='-100'),
     ['quadratic drag', 'is negative', 'blows up'], '/drag/quadratic/xxx'),
    ('negative added-mass diagonal (YAML)', '.yaml', YAML.format(axx='-5.0'),
     ['added mass', 'is negative'], 'vehicle.added_mass.xx'),
    ('added mass yh without hy', '.urdf', urdf(added='<yh>2</yh>'),
     ['not symmetric', 'gains or loses energy'], '/drag/added_mass/yh'),
    ('added mass yh != hy', '.urdf', urdf(added='<yh>2</yh><hy>1.5</hy>'),
     ['not symmetric'], '/drag/added_mass/yh'),
]


@pytest.mark.parametrize('name,suffix,text,words,element', CASES, ids=[c[0] for c in CASES])
def test_nonphysical_file_exits_2_then_loads_with_the_flag(tmp_path, capsys, name, suffix,
                                                           text, words, element):
    path = tmp_path / ('bad' + suffix)
    path.write_text(text)
    assert main(['check', str(path), '--json']) == 2
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert report['valid'] is False and report['source'] == str(path)
    assert report['element'].endswith(element) or element in report['element'], report
    assert report['line'] is not None
    for word in words:
        assert word in report['reason'], report['reason']
    assert 'allow-nonphysical' in report['reason']
    assert main(['check', str(path), '--json', '--allow-nonphysical']) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary['allow_nonphysical'] is True
    assert any('non-physical' in w and words[0] in w for w in summary['warnings'])


def test_allow_nonphysical_key_in_the_description(tmp_path):
    path = tmp_path / 'v.yaml'
    path.write_text(YAML.format(axx='-5.0') + '  allow_nonphysical: true\n')
    params = load_vehicle(str(path))
    assert params.allow_nonphysical and any('is negative' in w for w in params.warnings)
    dsros = tmp_path / 'v.urdf'
    dsros.write_text(urdf(xx='-40').replace(
        '</drag>', '</drag><allow_nonphysical>true</allow_nonphysical>'))
    assert load_vehicle(str(dsros)).linear_drag[0, 0] == -40.0


def test_physical_vehicle_passes():
    params = load_vehicle(str(REPO / 'config' / 'remus100.yaml'))
    assert not any('non-physical' in w for w in params.warnings)


def _deep_state(twist):
    return State(position=[0.0, 0.0, -50.0], twist=twist)


def test_negative_linear_drag_grows_surge_exponentially_as_documented(tmp_path):
    path = tmp_path / 'grow.urdf'
    path.write_text(urdf(xx='-40', xxx='0'))
    params = load_vehicle(str(path), allow_nonphysical=True)
    assert any('exp(' in w for w in params.warnings)
    sim = Simulator(params, dt=0.01, substeps=4)
    state = _deep_state([0.5, 0.0, 0.0, 0.0, 0.0, 0.0])
    t_end = 2.0
    for _ in range(int(round(t_end / sim.dt))):
        state = sim.step(state)
    # m u_dot + A_xx u_dot = -L_xx u with L_xx = -40: u = u0 exp(40 t / (m + A_xx))
    expected = 0.5 * np.exp(40.0 * t_end / (100.0 + 10.0))
    assert state.twist[0] == pytest.approx(expected, rel=1e-6)
    assert np.allclose(state.twist[1:], 0.0, atol=1e-12)


def _kinetic_energy(params, twist):
    from uwv_hydro.description.validate import mass_matrix_about_origin
    # T = 1/2 nu^T (M_RB + sym(M_A)) nu (Fossen 2011 eq. 6.x)
    return 0.5 * twist @ mass_matrix_about_origin(params) @ twist


def test_non_symmetric_added_mass_does_not_conserve_energy_its_symmetric_part_does(tmp_path):
    coupling = '<yh>60</yh><hy>-20</hy><xz>30</xz>'
    path = tmp_path / 'asym.urdf'
    path.write_text(urdf(xx='0', xxx='0', added=coupling))
    asym = load_vehicle(str(path), allow_nonphysical=True)
    sym_path = tmp_path / 'sym.urdf'
    sym_path.write_text(urdf(xx='0', xxx='0',
                             added='<yh>20</yh><hy>20</hy><xz>15</xz><zx>15</zx>'))
    sym = load_vehicle(str(sym_path))
    assert np.allclose(sym.added_mass, 0.5 * (asym.added_mass + asym.added_mass.T))
    energies = {}
    for name, params in (('asym', asym), ('sym', sym)):
        params.linear_drag[:] = 0.0  # drag-free (the YAML yy/hh damping removed)
        sim = Simulator(params, dt=0.005, substeps=2)
        state = _deep_state([1.0, 0.6, -0.4, 0.3, -0.5, 0.8])
        e0 = _kinetic_energy(params, state.twist)
        drift = 0.0
        for _ in range(1500):
            state = sim.step(state)
            drift = max(drift, abs(_kinetic_energy(params, state.twist) - e0) / e0)
        energies[name] = drift
    assert energies['sym'] < 1e-6          # conserved (RK4 error only)
    assert energies['asym'] > 1e-2         # not conserved, as the warning says
