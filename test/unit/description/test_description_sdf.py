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

"""SDF (inertial, fluid_added_mass, collisions) and gz-sim Hydrodynamics parameters."""

import numpy as np
import pytest

from uwv_hydro.description.conventions import rpy_to_matrix
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.loader import load_vehicle, load_vehicle_string
from uwv_hydro.physics.hydro.hydro_model import HydroModel


def sdf(inertial_extra='', model_extra='', link_extra='', pose='0.0 0.0 -0.05 0 0 0',
        world=False):
    model = """<model name="auv">
    <link name="body">
      <inertial>
        <mass>50.0</mass>
        <pose>%s</pose>
        <inertia><ixx>2.0</ixx><iyy>4.0</iyy><izz>4.5</izz></inertia>
        %s
      </inertial>
      %s
    </link>
    %s
  </model>""" % (pose, inertial_extra, link_extra, model_extra)
    if world:
        model = ('<world name="w"><gravity>0 0 -9.8</gravity>'
                 '<plugin filename="gz-sim-buoyancy-system" name="gz::sim::systems::Buoyancy">'
                 '<uniform_fluid_density>1000</uniform_fluid_density></plugin>%s</world>'
                 % model)
    return '<?xml version="1.0"?>\n<sdf version="1.10">\n  %s\n</sdf>\n' % model


def test_sdf_inertial_pose_and_fluid_added_mass_letters():
    fam = ('<fluid_added_mass><xx>1.0</xx><pp>0.1</pp><qq>0.2</qq><rr>0.3</rr>'
           '<yr>0.05</yr></fluid_added_mass>')
    params = load_vehicle_string(sdf(fam, pose='0.1 0 -0.05 0 0 0.3'), 'a.sdf')
    assert params.added_mass[0, 0] == 1.0
    assert params.added_mass[3, 3] == 0.1      # p = roll
    assert params.added_mass[5, 5] == 0.3      # r = yaw (roll-roll in dsros letters)
    assert params.added_mass[1, 5] == params.added_mass[5, 1] == 0.05
    assert np.allclose(params.com, [0.1, 0.0, -0.05])
    rot = rpy_to_matrix([0, 0, 0.3])
    assert np.allclose(params.inertia, rot @ np.diag([2.0, 4.0, 4.5]) @ rot.T)
    assert params.base_frame == 'body' and params.name == 'auv'
    assert np.allclose(params.added_mass_point, 0.0) and params.semantics == 'origin'


def test_sdf_asymmetric_added_mass_is_an_error(tmp_path):
    path = tmp_path / 'asym.sdf'
    path.write_text(sdf('<fluid_added_mass>\n<xy>1.0</xy>\n<yx>2.0</yx>\n'
                        '</fluid_added_mass>'))
    with pytest.raises(DescriptionError, match='asymmetric') as info:
        load_vehicle(str(path))
    assert info.value.source == str(path)
    assert info.value.element.endswith('fluid_added_mass/yx')
    assert info.value.line is not None


def test_sdf_unknown_added_mass_tag():
    with pytest.raises(DescriptionError,
                       match="unknown coefficient 'xh' in fluid_added_mass; expected two "
                             'of x y z p q r'):
        load_vehicle_string(sdf('<fluid_added_mass><xh>1.0</xh></fluid_added_mass>'))


def test_sdf_buoyancy_from_collision_volumes_and_world():
    link = ('<collision name="hull"><pose>0 0 0.1 0 0 0</pose><geometry><box>'
            '<size>1.0 0.5 0.1</size></box></geometry></collision>'
            '<collision name="ball"><pose>0 0 0.2 0 0 0</pose><geometry><sphere>'
            '<radius>0.1</radius></sphere></geometry></collision>')
    params = load_vehicle_string(sdf(link_extra=link, world=True), 'w.world')
    v_box, v_ball = 0.05, 4.0 / 3.0 * np.pi * 0.001
    assert params.fluid_density == 1000.0
    assert params.gravity == pytest.approx(9.8)
    assert params.buoyancy_mass == pytest.approx(1000.0 * (v_box + v_ball))
    assert params.cob[2] == pytest.approx((0.1 * v_box + 0.2 * v_ball) / (v_box + v_ball))


def test_sdf_uwv_plugin_sets_buoyancy():
    plugin = ('<plugin filename="uwv_hydro" name="uwv_hydro::Hydro"><link_name>body'
              '</link_name><buoyancy_mass>51.0</buoyancy_mass>'
              '<center_of_buoyancy>0 0 0.1</center_of_buoyancy></plugin>')
    params = load_vehicle_string(sdf(model_extra=plugin))
    assert params.buoyancy_mass == 51.0 and np.allclose(params.cob, [0, 0, 0.1])


GZ_PLUGIN = """<plugin filename="gz-sim-hydrodynamics-system"
        name="gz::sim::systems::Hydrodynamics">
      <link_name>body</link_name>
      <water_density>1025</water_density>
      <xDotU>-5.0</xDotU><yDotV>-40.0</yDotV><zDotW>-45.0</zDotW>
      <kDotP>-0.3</kDotP><mDotQ>-2.0</mDotQ><nDotR>-2.5</nDotR><yDotR>0.8</yDotR>
      <nDotV>0.8</nDotV>
      <xU>-10.0</xU><yV>-20.0</yV><nR>-3.0</nR><yR>0.5</yR>
      <xUabsU>-30.0</xUabsU><yVabsV>-80.0</yVabsV><xUabsV>-7.0</xUabsV>
      <kPabsP>-0.5</kPabsP>
    </plugin>"""


def test_gz_hydrodynamics_parameter_mapping():
    params = load_vehicle_string(sdf(model_extra=GZ_PLUGIN))
    assert params.fluid_density == 1025.0
    assert params.added_mass[0, 0] == 5.0 and params.added_mass[5, 5] == 2.5
    assert params.added_mass[1, 5] == -0.8
    assert params.linear_drag[0, 0] == 10.0 and params.linear_drag[1, 5] == -0.5
    assert params.quadratic_drag[0, 0, 0] == 30.0
    # xUabsV: output x, SIGNED U, ABS V -> Q[x, |v|, u]
    assert params.quadratic_drag[0, 1, 0] == 7.0 and params.quadratic_drag[0, 0, 1] == 0.0
    assert params.quadratic_drag[3, 3, 3] == 0.5
    assert np.allclose(params.drag_velocity_point, 0.0) and np.allclose(params.drag_center, 0)


def test_gz_migration_gives_gz_sim_forces():
    """Drag and added-mass forces equal gz-sim's formula on the raw parameters."""
    params = load_vehicle_string(sdf(model_extra=GZ_PLUGIN))
    model = HydroModel(params)
    raw_lin = np.zeros((6, 6))
    raw_lin[0, 0], raw_lin[1, 1], raw_lin[5, 5], raw_lin[1, 5] = -10.0, -20.0, -3.0, 0.5
    raw_abs = np.zeros((6, 6, 6))  # [force i, signed j, abs k]
    raw_abs[0, 0, 0], raw_abs[1, 1, 1], raw_abs[0, 0, 1], raw_abs[3, 3, 3] = (
        -30.0, -80.0, -7.0, -0.5)
    raw_ma = np.diag([-5.0, -40.0, -45.0, -0.3, -2.0, -2.5])
    raw_ma[1, 5] = raw_ma[5, 1] = 0.8
    rng = np.random.default_rng(11)
    for _ in range(5):
        nu, nu_dot = rng.uniform(-1, 1, 6), rng.uniform(-1, 1, 6)
        # gz-sim Hydrodynamics.cc: F_i = sum_j (D_ij + sum_k Dabs_ijk |nu_k|) nu_j + Ma nu_dot
        damping = raw_lin + np.einsum('ijk,k->ij', raw_abs, np.abs(nu))
        wc = model.wrench(nu, nu_dot=nu_dot)
        drag = wc.components['linear_drag'] + wc.components['quadratic_drag']
        assert np.allclose(drag, damping @ nu)
        assert np.allclose(wc.components['added_mass'], raw_ma @ nu_dot)


def test_gz_signed_quadratic_is_read_with_gz_sims_warning():
    """<xUU> is read (gz-sim Garden+: coefficient * U * U), no longer refused."""
    plugin = GZ_PLUGIN.replace('<xUabsU>-30.0</xUabsU>', '<xUU>-30.0</xUU>')
    params = load_vehicle_string(sdf(model_extra=plugin), 'g.sdf')
    assert params.signed_quadratic_drag[0, 0, 0] == 30.0  # S = -D_sig
    assert params.quadratic_drag[0, 0, 0] == 0.0
    assert any('<xUU>' in w and 'xUabsU' in w for w in params.warnings)


def test_sdf_without_model_or_mass():
    with pytest.raises(DescriptionError, match='no <model>'):
        load_vehicle_string('<sdf version="1.10"><world name="w"/></sdf>')
    with pytest.raises(DescriptionError, match='no <inertial><mass>'):
        load_vehicle_string('<sdf version="1.10"><model name="m"><link name="l"/></model>'
                            '</sdf>')


def _urdf_with(plugin):
    """Return the sdf() body as a URDF, ``plugin`` in its <gazebo> block (as ros_gz users do)."""
    return """<?xml version="1.0"?>
<robot name="auv">
  <link name="body">
    <inertial>
      <origin xyz="0 0 -0.05" rpy="0 0 0"/>
      <mass value="50.0"/>
      <inertia ixx="2.0" ixy="0" ixz="0" iyy="4.0" iyz="0" izz="4.5"/>
    </inertial>
  </link>
  <gazebo>
    %s
  </gazebo>
</robot>
""" % plugin


def test_gz_hydrodynamics_in_a_urdf_gives_the_sdf_forces():
    """A gz-sim Hydrodynamics block in a URDF <gazebo> gives the SDF model's hydrodynamics."""
    from_sdf = load_vehicle_string(sdf(model_extra=GZ_PLUGIN), 'auv.sdf')
    from_urdf = load_vehicle_string(_urdf_with(GZ_PLUGIN), 'auv.urdf')
    assert from_urdf.fluid_density == from_sdf.fluid_density == 1025.0
    assert any('gives no buoyancy' in w for w in from_urdf.warnings)
    assert from_urdf.buoyancy_mass == 0.0 and from_urdf.semantics == 'origin'
    rng = np.random.default_rng(5)
    for _ in range(10):
        nu, nu_dot = rng.uniform(-1, 1, 6), rng.uniform(-1, 1, 6)
        a = HydroModel(from_urdf).wrench(nu, nu_dot=nu_dot).components
        b = HydroModel(from_sdf).wrench(nu, nu_dot=nu_dot).components
        for name in ('linear_drag', 'quadratic_drag', 'added_mass', 'added_mass_coriolis'):
            assert np.allclose(a[name], b[name], rtol=0, atol=1e-12), name
    with pytest.raises(DescriptionError, match="<link_name> 'hull' is not the base link"):
        load_vehicle_string(_urdf_with(GZ_PLUGIN.replace('>body<', '>hull<')), 'auv.urdf')


@pytest.mark.parametrize('scale', [1.0, 0.5, 1e300])
def test_sdf_quat_xyzw_pose_is_the_rpy_pose(scale):
    """SDF 1.9 ``rotation_format="quat_xyzw"``: any non-zero multiple of the quaternion."""
    rpy = (0.2, -0.1, 0.3)
    reference = load_vehicle_string(sdf(pose='0.1 0 -0.05 %r %r %r' % rpy), 'a.sdf')
    # q of roll-pitch-yaw (fixed axes x, y, z): q_z(yaw) q_y(pitch) q_x(roll)
    c, s = np.cos(np.asarray(rpy) / 2), np.sin(np.asarray(rpy) / 2)
    q_wxyz = np.array([c[0] * c[1] * c[2] + s[0] * s[1] * s[2],
                       s[0] * c[1] * c[2] - c[0] * s[1] * s[2],
                       c[0] * s[1] * c[2] + s[0] * c[1] * s[2],
                       c[0] * c[1] * s[2] - s[0] * s[1] * c[2]])
    xyzw = ' '.join(repr(float(scale * v)) for v in (*q_wxyz[1:], q_wxyz[0]))
    text = sdf(pose='0.1 0 -0.05 ' + xyzw).replace(
        '<pose>', '<pose rotation_format="quat_xyzw">')
    params = load_vehicle_string(text, 'a.sdf')
    assert np.allclose(params.inertia, reference.inertia, rtol=0, atol=1e-12)
    assert np.allclose(params.com, reference.com, rtol=0, atol=1e-15)


def test_sdf_quat_xyzw_pose_of_zero_is_refused():
    text = sdf(pose='0.1 0 -0.05 0 0 0 0').replace('<pose>', '<pose rotation_format="quat_xyzw">')
    with pytest.raises(DescriptionError, match='quaternion of a quat_xyzw pose is zero'):
        load_vehicle_string(text, 'a.sdf')


def test_density_origin_says_whether_the_file_gave_it():
    """Issue 40: gz-sim's default 998 was reported as if the file had given it."""
    given = load_vehicle_string(sdf(model_extra=GZ_PLUGIN), 'g.sdf')
    text = sdf(model_extra=GZ_PLUGIN)
    line = text[:text.index('<water_density>')].count('\n') + 1
    assert given.origins['fluid_density'].startswith('g.sdf:%d ' % line)  # its line
    assert '<water_density>' in given.origins['fluid_density']
    plugin = GZ_PLUGIN.replace('<water_density>1025</water_density>', '')
    default = load_vehicle_string(sdf(model_extra=plugin), 'g.sdf')
    assert default.fluid_density == 998.0
    assert 'no <water_density>' in default.origins['fluid_density']
    assert 'default 998' in default.origins['fluid_density']
