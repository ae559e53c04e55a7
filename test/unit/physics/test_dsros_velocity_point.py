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
dsros_hydro's drag and added-mass Coriolis use the centre-of-mass velocity (issue 40).

``DsrosHydro::OnUpdate`` (ds_sim ``gazebo_src/dsros_hydro.cc``) reads the link-origin
twist (``RelativeLinearVel``: Gazebo classic's Link.hh, "the linear velocity of the
origin of the link frame") and at once moves it to the centre of mass:
``vel_lin -= com_vector.Cross(vel_ang)`` with ``com_vector`` the base link's own
``GetInertial()->CoG()``, i.e. v_c = v_o + w x c.  Linear and quadratic drag are
evaluated on that twist (``loadMatrix``: tag <ab> is L[a, b]; ``loadTensor``: tag <abc>
is C_a[b, c], F_a = sum |nu_b| C_a[b, c] nu_c), their forces applied at the drag centre
(``AddLinkForce``, relative to the link origin) and their torques as pure torques
(``AddRelativeTorque``); the added mass's Coriolis term (Fossen 6.43 with its
-S(.) blocks) on the same twist, its force at the CoM (``AddRelativeForce``).  The test
re-derives that on a look-alike (our own numbers) whose base body's CoM is far from
its origin and from the lumped CoM, and compares with the loaded vehicle's components
about the link origin.
"""
import numpy as np
import pytest
from test_uuv_classic_body import BODY_COG, robot, TOTAL_COM

from uwv_hydro.description.loader import load_vehicle_string
from uwv_hydro.physics.hydro.hydro_model import HydroModel

TAGS = 'xyzrph'
CENTER = np.array([0.4, -0.1, 0.15])
LINEAR = {'xx': 70.0, 'yy': 90.0, 'zz': 120.0, 'rr': 40.0, 'pp': 50.0, 'hh': 60.0,
          'xp': 5.0, 'zx': 3.0, 'hy': -4.0}
QUADRATIC = {'xxx': 100.0, 'yyy': 150.0, 'zzz': 200.0, 'rrr': 20.0, 'ppp': 25.0,
             'hhh': 30.0, 'xzp': 7.0, 'yhx': -6.0, 'ppz': 9.0}
ADDED = {'xx': 300.0, 'yy': 900.0, 'zz': 800.0, 'rr': 50.0, 'pp': 100.0, 'hh': 200.0,
         'xp': 20.0, 'px': 20.0}


def _tags(values):
    return ''.join('<%s>%r</%s>' % (t, v, t) for t, v in values.items())


BLOCK = """  <gazebo><plugin name="dsros_hydro" filename="libdsros_hydro.so">
    <base_link>base_link</base_link>
    <buoyancy><center x="0" y="0" z="0.2"/><buoyancy>1790</buoyancy><mass>1740</mass>
    </buoyancy>
    <drag><center x="%r" y="%r" z="%r"/>
      <linear>%s</linear><quadratic>%s</quadratic><added_mass>%s</added_mass></drag>
  </plugin></gazebo>
""" % (*map(float, CENTER), _tags(LINEAR), _tags(QUADRATIC), _tags(ADDED))


def _matrix(values):
    """Return loadMatrix's 6x6: tag <ab> at [a, b]."""
    out = np.zeros((6, 6))
    for tag, v in values.items():
        out[TAGS.index(tag[0]), TAGS.index(tag[1])] = v
    return out


def _tensor(values):
    """Return loadTensor's six 6x6 blocks: tag <abc> at C_a[b, c]."""
    out = np.zeros((6, 6, 6))
    for tag, v in values.items():
        out[TAGS.index(tag[0]), TAGS.index(tag[1]), TAGS.index(tag[2])] = v
    return out


def _skew(a):
    return np.array([[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]])


def dsros_wrench(nu_origin, cog=BODY_COG):
    """Return dsros_hydro's drag and added-mass Coriolis wrenches about the link origin."""
    v_o, w = nu_origin[:3], nu_origin[3:]
    v = v_o - np.cross(cog, w)  # vel_lin -= com_vector.Cross(vel_ang)
    nu = np.concatenate([v, w])
    lin = _matrix(LINEAR) @ nu
    c = _tensor(QUADRATIC)
    quad = np.array([np.abs(nu) @ c[i] @ nu for i in range(6)])
    drag = []
    for f in (lin, quad):  # AddLinkForce(-F, drag_center_body), AddRelativeTorque(-T)
        drag.append(np.concatenate([-f[:3], -f[3:] + np.cross(CENTER, -f[:3])]))
    ma = _matrix(ADDED)
    cam_lin, cam_ang = ma[:3] @ nu, ma[3:] @ nu
    cor_force = -_skew(cam_lin) @ w  # Cam.m11 = 0, m12 = -S(cam_lin)
    cor_torque = -_skew(cam_lin) @ v - _skew(cam_ang) @ w  # m21 = m12, m22 = -S(cam_ang)
    # AddRelativeForce(-F) at the CoM, AddRelativeTorque(-T)
    coriolis = np.concatenate([-cor_force, -cor_torque + np.cross(cog, -cor_force)])
    return drag[0], drag[1], coriolis


TWISTS = [np.array([1.2, -0.3, 0.25, 0.4, -0.35, 0.6]),
          np.array([-0.6, 0.5, -0.4, -0.5, 0.3, -0.45])]


@pytest.fixture(scope='module')
def model():
    params = load_vehicle_string(robot(BLOCK), 'lookalike.urdf')
    assert np.allclose(params.drag_velocity_point, BODY_COG, atol=1e-12)
    return HydroModel(params)


@pytest.mark.parametrize('nu', TWISTS)
def test_drag_and_coriolis_are_dsros_hydros_at_the_com_velocity(model, nu):
    w = model.wrench(nu).components
    lin, quad, coriolis = dsros_wrench(nu)
    # the same arithmetic in another order: 1e-12 of the largest term
    for got, want in ((w['linear_drag'], lin), (w['quadratic_drag'], quad),
                      (w['added_mass_coriolis'], coriolis)):
        assert np.allclose(got, want, rtol=0, atol=1e-12 * np.abs(want).max())


@pytest.mark.parametrize('nu', TWISTS)
def test_the_origin_or_lumped_velocity_would_differ(model, nu):
    """The look-alike is one where the point matters (the test above can fail)."""
    want = sum(dsros_wrench(nu))
    for point in (np.zeros(3), TOTAL_COM):
        other = sum(dsros_wrench(nu, cog=point))
        assert np.abs(other - want).max() > 1e-2 * np.abs(want).max()
