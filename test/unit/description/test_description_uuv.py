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
A uuv_simulator underwater-object block is read with uuv_simulator's semantics.

Checked three ways: against the equivalent YAML a user would write from the same
numbers (``convention: frd``, signs flipped to uwv_hydro's positive convention), to
1e-12; against an independent implementation of HMFossen::ApplyHydrodynamicForces
(NED velocity, tau = D_lin v + D_q |v| v - M_a a - C_A(v) v, back to FLU); and for
the surface transition of BuoyantObject::GetBuoyancyForce.  Before, such a URDF
loaded as "valid" with zero drag and no buoyancy.
"""

import numpy as np
import pytest

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.loader import load_vehicle_string
from uwv_hydro.physics.hydro.hydro_model import HydroModel

# RexROV-like numbers (uuv_simulator's rexrov description), with off-diagonal terms.
ADDED = np.array([
    [779.8, -6.87, 103.3, 8.53, -165.5, -7.8],
    [-6.87, 1222.0, 51.3, 409.4, -5.8, 62.7],
    [103.3, 51.3, 3659.9, 6.1, -386.4, 10.8],
    [8.53, 409.4, 6.1, 534.9, -10.0, 21.0],
    [-165.5, -5.8, -386.4, -10.0, 842.7, -1.2],
    [-7.8, 62.7, 10.8, 21.0, -1.2, 224.3]])
LINEAR = -np.diag([74.82, 69.48, 728.4, 268.8, 309.77, 105.0])
LINEAR[1, 5] = LINEAR[5, 1] = -20.0
QUAD = [-748.22, -992.53, -1821.01, -672.0, -774.44, -523.27]
VOLUME, RHO, HEIGHT = 1.83826, 1028.0, 1.3
COB = [0.0, 0.0, 0.3]


def _numbers(values):
    return ' '.join(repr(float(v)) for v in np.ravel(values))


UUV_URDF = """<?xml version="1.0"?>
<robot name="rexrov">
  <link name="base_link">
    <inertial>
      <origin xyz="0 0 0" rpy="0 0 0"/>
      <mass value="1862.87"/>
      <inertia ixx="525.39" ixy="1.44" ixz="33.41" iyy="794.2" iyz="2.6" izz="691.23"/>
    </inertial>
  </link>
  <gazebo>
    <plugin name="uuv_plugin" filename="libuuv_underwater_object_ros_plugin.so">
      <fluid_density>{rho}</fluid_density>
      <flow_velocity_topic>hydrodynamics/current_velocity</flow_velocity_topic>
      <debug>0</debug>
      <link name="base_link">
        <neutrally_buoyant>0</neutrally_buoyant>
        <volume>{volume}</volume>
        <box><width>2.6</width><length>1.5</length><height>{height}</height></box>
        <center_of_buoyancy>{cob}</center_of_buoyancy>
        <hydrodynamic_model>
          <type>fossen</type>
          <added_mass>{added}</added_mass>
          <linear_damping>{linear}</linear_damping>
          <quadratic_damping>{quad}</quadratic_damping>
        </hydrodynamic_model>
      </link>
    </plugin>
  </gazebo>
</robot>
"""


def uuv_urdf(**over):
    values = {'rho': RHO, 'volume': VOLUME, 'height': HEIGHT, 'cob': _numbers(COB),
              'added': _numbers(ADDED), 'linear': _numbers(LINEAR), 'quad': _numbers(QUAD)}
    values.update(over)
    return UUV_URDF.format(**values)


def equivalent_yaml():
    """Return what a user writes from the same numbers: FRD, positive signs."""
    def rows(m):
        return '[' + ', '.join('[%s]' % ', '.join(repr(float(v)) for v in row)
                               for row in m) + ']'
    return '\n'.join([
        'vehicle:',
        '  name: rexrov',
        '  convention: frd',
        '  mass: 1862.87',
        '  inertia: {ixx: 525.39, iyy: 794.2, izz: 691.23, ixy: -1.44, ixz: -33.41, '
        'iyz: 2.6}',  # I' = P I P in FRD: ixy, ixz change sign
        '  gravity: 9.8',  # Gazebo's default world gravity
        '  fluid_density: %r' % RHO,
        '  volume: %r' % VOLUME,
        '  cob: [0.0, 0.0, %r]' % -COB[2],  # FLU z up = FRD z down
        '  surface: {out_of_water_depth: 0.0, fully_submerged_depth: %r, '
        'scale_factor: 0.5}' % (HEIGHT / 2),
        '  added_mass: %s' % rows(ADDED),
        '  linear_drag: %s' % rows(-LINEAR),
        '  quadratic_drag: [%s]' % ', '.join(repr(-q) for q in QUAD),
        '  drag_center: [0.0, 0.0, 0.0]',
        '  drag_velocity_point: origin',
        '  added_mass_point: origin',
    ]) + '\n'


STATES = [
    (np.array([1.2, -0.4, 0.3, 0.2, -0.1, 0.35]), np.array([0.3, 0.1, -0.2, 0.05, 0.02, -0.1]),
     [0.0, 0.0, -20.0], [0.98, 0.05, -0.1, 0.15], [0.3, -0.2, 0.05]),
    (np.array([-0.5, 0.8, -0.6, -0.3, 0.25, -0.2]), np.array([-0.1, 0.4, 0.2, -0.3, 0.1, 0.0]),
     [1.0, -2.0, -0.3], [0.9, -0.2, 0.3, 0.2], None),
]


def test_uuv_urdf_gives_the_same_wrench_as_the_equivalent_yaml():
    uuv = load_vehicle_string(uuv_urdf(), 'rexrov.urdf')
    yml = load_vehicle_string(equivalent_yaml(), 'rexrov.yaml')
    assert uuv.semantics == 'origin' and uuv.buoyancy_mass == pytest.approx(VOLUME * RHO)
    assert not any('buoyancy' in w for w in uuv.warnings)
    a, b = HydroModel(uuv), HydroModel(yml)
    for nu, nu_dot, pos, quat, current in STATES:
        wa = a.wrench(nu, pos, quat, nu_dot, current)
        wb = b.wrench(nu, pos, quat, nu_dot, current)
        for name, value in wa.components.items():
            scale = max(1.0, np.max(np.abs(value)))
            assert np.allclose(value, wb.components[name], rtol=0.0, atol=1e-12 * scale), name
        assert np.abs(wa.total).max() > 100.0  # not a zero wrench


def _skew(r):
    return np.array([[0.0, -r[2], r[1]], [r[2], 0.0, -r[0]], [-r[1], r[0], 0.0]])


def uuv_hydrodynamic_wrench(nu_flu, nu_dot_flu):
    """HMFossen::ApplyHydrodynamicForces without current, written from its source."""
    t = np.array([1.0, -1.0, -1.0, 1.0, -1.0, -1.0])  # ToNEDConvention on both parts
    v, acc = t * nu_flu, t * nu_dot_flu
    d = -LINEAR - np.diag(np.asarray(QUAD) * np.abs(v))  # ComputeDampingMatrix
    ab = ADDED @ v  # ComputeAddedCoriolisMatrix, Fossen 2011 eq. 6.43
    sa = -_skew(ab[:3])
    ca = np.block([[np.zeros((3, 3)), sa], [sa, -_skew(ab[3:])]])
    tau = -d @ v - ADDED @ acc - ca @ v
    return t * tau  # FromNEDConvention


def test_uuv_block_matches_an_independent_implementation_of_uuv_simulator():
    model = HydroModel(load_vehicle_string(uuv_urdf(), 'rexrov.urdf'))
    for nu, nu_dot, _, _, _ in STATES:
        w = model.wrench(nu, None, None, nu_dot, None).components
        ours = (w['linear_drag'] + w['quadratic_drag'] + w['added_mass']
                + w['added_mass_coriolis'])
        expected = uuv_hydrodynamic_wrench(nu, nu_dot)
        assert np.allclose(ours, expected, rtol=1e-12, atol=1e-9)
        # buoyancy, level: rho V g up at the centre of buoyancy
        force = np.array([0.0, 0.0, VOLUME * RHO * 9.8])  # Gazebo's default
        assert np.allclose(w['buoyancy'], np.concatenate([force, np.cross(COB, force)]))


@pytest.mark.parametrize('depth,fraction', [(-0.2, 0.0), (0.0, 0.0), (HEIGHT / 4, 0.75),
                                            (HEIGHT / 2, 1.0), (5.0, 1.0)])
def test_surface_transition_as_buoyant_object(depth, fraction):
    """BuoyantObject::GetBuoyancyForce: V (|z| + h/2) / h for -h/2 < z < 0, 0 above."""
    model = HydroModel(load_vehicle_string(uuv_urdf(), 'rexrov.urdf'))
    w = model.wrench(np.zeros(6), [0.0, 0.0, -depth]).components['buoyancy']
    assert w[2] == pytest.approx(fraction * VOLUME * RHO * 9.8, rel=1e-12, abs=1e-9)


def test_neutrally_buoyant_and_quadratic_off_diagonals():
    text = uuv_urdf().replace('<neutrally_buoyant>0', '<neutrally_buoyant>1')
    params = load_vehicle_string(text, 'n.urdf')
    assert params.buoyancy_mass == pytest.approx(1862.87)
    full = np.diag(QUAD)
    full[0, 1] = -5.0
    params = load_vehicle_string(uuv_urdf(quad=_numbers(full)), 'q.urdf')
    assert any('only the diagonal' in w for w in params.warnings)
    assert np.count_nonzero(params.quadratic_drag) == 6


@pytest.mark.parametrize('change,match', [
    (('<type>fossen</type>', '<type>sphere</type>'), "type 'sphere' is not read"),
    (('<volume>', '<metacentric_width>1</metacentric_width><volume>'), 'surface-vessel'),
    (('<link name="base_link">\n        <neutrally', '<link name="thruster">\n        <neu'
      'trally'), "only the base link 'base_link'"),
    (('<quadratic_damping>', '<quadratic_dampin>'), 'did you mean <quadratic_damping>'),
])
def test_unread_uuv_content_is_an_error(change, match):
    text = uuv_urdf()
    old, new = change
    assert old in text
    text = text.replace(old, new).replace('</quadratic_damping>\n', '</quadratic_dampin>\n') \
        if 'dampin>' in new else text.replace(old, new)
    with pytest.raises(DescriptionError, match=match):
        load_vehicle_string(text, 'bad.urdf')


@pytest.mark.parametrize('filename', ['libBuoyancyPlugin.so', 'libfreefloating_fluid_plugin.so',
                                      'gz-sim-buoyancy-system'])
def test_foreign_hydro_plugin_is_an_error_naming_it(filename):
    text = uuv_urdf().replace('libuuv_underwater_object_ros_plugin.so', filename)
    with pytest.raises(DescriptionError, match='is not read by uwv_hydro') as info:
        load_vehicle_string(text, 'foreign.urdf')
    assert filename in str(info.value) and info.value.line is not None


def test_fin_and_thruster_plugins_are_not_taken_for_hull_hydrodynamics():
    """A thruster plugin beside the hull block is no hull; a LiftDrag block is read as a fin."""
    thruster = '<plugin name="t" filename="libuuv_thruster_ros_plugin.so"/>'
    text = uuv_urdf().replace('</gazebo>', thruster + '</gazebo>')
    with pytest.raises(DescriptionError) as err:  # read as a thruster (incomplete), no hull
        load_vehicle_string(text, 'thruster.urdf')
    assert 'uuv_simulator thruster needs <linkName>' in str(err.value)
    fin = '<plugin name="fin" filename="gz-sim-lift-drag-system"><a0>0</a0></plugin>'
    with pytest.raises(DescriptionError) as err:  # a fin, incomplete: said so, not ignored
        load_vehicle_string(text.replace('</gazebo>', fin + '</gazebo>'), 'fins.urdf')
    assert 'LiftDrag block without <link_name>' in str(err.value)
