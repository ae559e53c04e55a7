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
uuv_simulator's TwoLines fin (``LiftDragModel.cc``) as uuv computes it (issue 40).

The ECA A9's fins: uuv's own two lines (past -alpha_stall the lift slope is cda_stall,
as written there; the drag coefficient signed; no sweep factor; the plugin's own
fluid_density), not gz-sim LiftDrag's.  The look-alike is our own numbers; the force is
re-derived from FinPlugin::OnUpdate and LiftDragTwoLines::compute.
"""
import math

import numpy as np
import pytest

from uwv_hydro.description.loader import load_vehicle_string
from uwv_hydro.description.vehicle_from_urdf import load_urdf_string
from uwv_hydro.description.yaml.export import export_yaml
from uwv_hydro.physics.actuators.fins import FinSet

TWO_LINES = """<?xml version="1.0"?>
<robot name="v">
  <link name="base_link"><inertial><mass value="10"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <joint name="fin_joint" type="revolute"><origin xyz="-1 0 0" rpy="1.5707963267948966 0 0"/>
    <axis xyz="0 0 1"/><limit effort="0" lower="-0.3" upper="0.5" velocity="2"/>
    <parent link="base_link"/><child link="fin"/></joint>
  <link name="fin"/>
  <gazebo>
    <plugin name="f" filename="libuuv_fin_ros_plugin.so">
      <dynamics><type>ZeroOrder</type></dynamics>
      <liftdrag><type>TwoLines</type><area>0.05</area><fluid_density>1000</fluid_density>
        <a0>0.01</a0><alpha_stall>0.3</alpha_stall><cla>3.0</cla><cla_stall>-1.5</cla_stall>
        <cda>0.2</cda><cda_stall>1.1</cda_stall></liftdrag>
      <link_name>fin</link_name><joint_name>fin_joint</joint_name>
    </plugin>
  </gazebo>
</robot>
"""


def test_two_lines_fin_is_uuvs_two_lines_model_with_its_own_density():
    params = load_urdf_string(TWO_LINES, 'fin.urdf')
    fin = params.fins[0]
    assert fin.model == 'uuv_two_lines' and fin.time_constant == 0.0
    assert (fin.area, fin.a0, fin.alpha_stall, fin.cla, fin.cla_stall, fin.cda,
            fin.cda_stall, fin.fluid_density) == (0.05, 0.01, 0.3, 3.0, -1.5, 0.2, 1.1, 1000.0)
    assert (fin.lower, fin.upper, fin.velocity) == (-0.3, 0.5, 2.0)
    # the link's z (the span) is the base's -y after the joint's roll of pi/2
    assert np.max(np.abs(fin.axis - [0.0, -1.0, 0.0])) < 1e-15
    assert np.max(np.abs(fin.upward - [0.0, 0.0, -1.0])) < 1e-15
    record = [r for r in params.elements if r.kind == 'fin'][0]
    assert record.status == 'read'


def uuv_two_lines_force(nu, delta):
    """
    Return uuv's fin force (base frame) on the TWO_LINES look-alike, from its source.

    FinPlugin::OnUpdate: the link-origin velocity projected on the link's x-y plane, in
    the link frame (the joint turned by delta about the link's z); LiftDragTwoLines::
    compute: angle = atan2(v_y, v_x) folded into [-pi/2, pi/2], alpha = angle + a0,
    its two lines (past -alpha_stall the C_L slope is cda_stall, as written there),
    L = C_L q A along -z x v / |v|, D = C_D q A along -v / |v|, q = 1/2 rho |v|^2 with
    the plugin's own rho; AddRelativeForce in the link frame.
    """
    area, rho, a0, stall, cla, cla_s, cda, cda_s = 0.05, 1000.0, 0.01, 0.3, 3.0, -1.5, 0.2, 1.1
    roll = np.array([[1, 0, 0], [0, 0, -1], [0, 1, 0]], float)  # rpy (pi/2, 0, 0)
    turn = np.array([[math.cos(delta), -math.sin(delta), 0],
                     [math.sin(delta), math.cos(delta), 0], [0, 0, 1]])
    r = roll @ turn
    at = np.array([-1.0, 0.0, 0.0])
    vel = r.T @ (nu[:3] + np.cross(nu[3:], at))
    z = np.array([0.0, 0.0, 1.0])
    v = np.cross(z, np.cross(vel, z))
    angle = math.atan2(v[1], v[0])
    if angle > math.pi / 2:
        angle -= math.pi
    elif angle < -math.pi / 2:
        angle += math.pi
    alpha = angle + a0
    if alpha > stall:
        cl, cd = cla * stall + cla_s * (alpha - stall), cda * stall + cda_s * (alpha - stall)
    elif alpha < -stall:
        cl, cd = -cla * stall + cda_s * (alpha + stall), -cda * stall + cda_s * (alpha + stall)
    else:
        cl, cd = cla * alpha, cda * alpha
    q = 0.5 * rho * (v @ v)
    lift_dir = -np.cross(z, v) / np.linalg.norm(np.cross(z, v))
    return r @ (cl * q * area * lift_dir - cd * q * area * v / np.linalg.norm(v))


@pytest.mark.parametrize('nu,delta', [
    ([1.5, 0.0, 0.1, 0.0, 0.0, 0.0], 0.1),      # alpha -0.02: a negative drag, as uuv
    ([1.5, 0.0, -0.2, 0.0, 0.3, 0.0], -0.25),   # alpha 0.33: past +alpha_stall
    ([1.2, 0.1, 0.9, 0.2, 0.0, 0.1], 0.45),     # alpha 0.20: below the stall, spanwise flow
    ([1.2, -0.1, -0.9, 0.0, -0.2, 0.1], -0.3),  # alpha -0.43: past -alpha_stall
    ([-1.0, 0.4, 0.3, 0.1, 0.2, -0.3], 0.2),    # alpha -0.65: from astern, past the stall
])
def test_two_lines_fin_force_is_uuvs_formula(nu, delta):
    params = load_urdf_string(TWO_LINES, 'fin.urdf')
    fins = FinSet(params.fins, params.fluid_density)
    _, forces, _ = fins.forces(np.array(nu, float), np.array([delta]))
    want = uuv_two_lines_force(np.array(nu, float), delta)
    # the same formula in two codes: rounding of O(10) N sums
    assert np.allclose(forces[0, 0], want, rtol=0, atol=1e-12 * np.abs(want).max())
    assert params.fluid_density != 1000.0  # the plugin's own density is the one used


def test_two_lines_fin_keeps_its_model_and_density_through_yaml():
    params = load_urdf_string(TWO_LINES, 'fin.urdf')
    again = load_vehicle_string(export_yaml(params), 'again.yaml')
    assert [(f.model, f.fluid_density) for f in again.fins] == [('uuv_two_lines', 1000.0)]
    nu, delta = np.array([1.2, 0.1, -0.9, 0.0, -0.2, 0.1]), np.array([-0.3])
    want = FinSet(params.fins, params.fluid_density).wrench(nu, delta)
    got = FinSet(again.fins, again.fluid_density).wrench(nu, delta)
    # exported numbers are repr-exact: the same wrench to rounding
    assert np.allclose(got, want, rtol=0, atol=1e-12 * np.abs(want).max())
