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
uuv_simulator's and dsros_hydro's blocks act on the base link's own Gazebo classic body.

Gazebo classic (sdformat's URDF parser, ReduceFixedJoints) merges a link into the base
only across a fixed joint; uuv's sensor links (revolute, lower = upper = 0) and
thruster links stay separate bodies.  The look-alike below (our own numbers) has one
of each: the test re-derives uuv's wrench from HydrodynamicModel.cc (HMFossen damping
on the link-origin twist, AddRelativeForce: the force at the body's CoG, the torque
pure) and BuoyantObject.cc (AddForceAtRelativePosition: at CoG + center_of_buoyancy;
neutrally_buoyant: V = body mass / rho), and Gazebo's gravity on every body, and
compares with the loaded vehicle's components.
"""
import numpy as np
import pytest

from uwv_hydro.description.loader import load_vehicle_string
from uwv_hydro.physics.hydro.hydro_model import HydroModel

RHO, G, VOLUME = 1028.0, 9.8, 1.75
COB = np.array([0.0, 0.02, 0.25])
LINEAR = [-70.0, -65.0, -700.0, -260.0, -300.0, -100.0]
QUAD = [-740.0, -990.0, -1800.0, -670.0, -770.0, -520.0]
#: link: (mass, CoM in the link, link origin in the base, joint type)
LINKS = {
    'base_link': (1700.0, (0.05, 0.0, -0.1), (0.0, 0.0, 0.0), None),
    'plate_link': (40.0, (0.0, 0.1, 0.0), (0.5, 0.0, 0.2), 'fixed'),
    'imu_link': (15.0, (0.0, 0.0, 0.0), (1.2, 0.3, -0.4), 'zero_range'),
    'thruster_link': (30.0, (0.1, 0.0, 0.0), (-1.5, 0.5, 0.2), 'continuous'),
}

_LINK = """  <link name="{name}"><inertial><origin xyz="{com}"/><mass value="{mass}"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
"""
_JOINT = """  <joint name="{name}_joint" type="{kind}"><parent link="base_link"/>
    <child link="{name}"/><origin xyz="{xyz}"/><axis xyz="1 0 0"/>{limit}</joint>
"""
_UUV = """  <gazebo><plugin name="uuv_plugin" filename="libuuv_underwater_object_ros_plugin.so">
    <fluid_density>{rho}</fluid_density>
    <link name="base_link">
      <neutrally_buoyant>{neutral}</neutrally_buoyant><volume>{volume}</volume>
      <box><width>2.6</width><length>1.5</length><height>1.3</height></box>
      <center_of_buoyancy>{cob}</center_of_buoyancy>
      <hydrodynamic_model><type>fossen</type>
        <added_mass>{zeros}</added_mass>
        <linear_damping>{linear}</linear_damping>
        <quadratic_damping>{quad}</quadratic_damping>
      </hydrodynamic_model>
    </link></plugin></gazebo>
"""
_DSROS = """  <gazebo><plugin name="dsros_hydro" filename="libdsros_hydro.so">
    <base_link>base_link</base_link>
    <buoyancy><center x="0" y="0" z="0.2"/><buoyancy>1790</buoyancy><mass>1740</mass>
    </buoyancy>
    <drag><linear><xx>70</xx><hh>100</hh></linear>
      <added_mass><xx>300</xx><yy>900</yy><hh>200</hh></added_mass></drag>
  </plugin></gazebo>
"""


def _v(values):
    return ' '.join(repr(float(v)) for v in values)


def robot(block: str) -> str:
    """Return the look-alike with ``block`` (its plugin's <gazebo>) at the end."""
    out = ['<?xml version="1.0"?>\n<robot name="lookalike">\n']
    for name, (mass, com, xyz, kind) in LINKS.items():
        out.append(_LINK.format(name=name, com=_v(com), mass=mass))
        if kind is not None:
            limit = {'fixed': '', 'continuous': '',
                     'zero_range': '<limit lower="0" upper="0" effort="0" velocity="0"/>'}
            out.append(_JOINT.format(name=name, kind='revolute' if kind == 'zero_range'
                                     else kind, xyz=_v(xyz), limit=limit[kind]))
    out += [block, '</robot>\n']
    return ''.join(out)


def uuv_robot(neutral=0) -> str:
    return robot(_UUV.format(rho=RHO, neutral=neutral, volume=VOLUME, cob=_v(COB),
                             zeros=_v([0.0] * 36), linear=_v(LINEAR), quad=_v(QUAD)))


def body(names):
    """Return (mass, CoM in the base frame) of the named links, summed by hand."""
    mass = sum(LINKS[n][0] for n in names)
    moment = sum(LINKS[n][0] * (np.array(LINKS[n][2]) + LINKS[n][1]) for n in names)
    return mass, moment / mass


#: Gazebo classic's ODE body of the base link: the base and its fixed-joint child.
BODY_MASS, BODY_COG = body(('base_link', 'plate_link'))
TOTAL_MASS, TOTAL_COM = body(LINKS)


def uuv_wrench(nu_flu, neutral=False):
    """Return uuv's drag, buoyancy and weight about the link origin, level, no current."""
    t = np.array([1.0, -1.0, -1.0, 1.0, -1.0, -1.0])  # HMFossen: ToNEDConvention
    v = t * nu_flu
    d = -np.diag(LINEAR) - np.diag(np.asarray(QUAD) * np.abs(v))  # ComputeDampingMatrix
    damping = t * (-d @ v)  # FromNEDConvention
    # AddRelativeForce (dBodyAddRelForce): at the CoG; AddRelativeTorque: a pure torque
    drag = np.concatenate([damping[:3], damping[3:] + np.cross(BODY_COG, damping[:3])])
    volume = BODY_MASS / RHO if neutral else VOLUME  # BuoyantObject::SetNeutrallyBuoyant
    lift = np.array([0.0, 0.0, volume * RHO * G])
    # AddForceAtRelativePosition (dBodyAddForceAtRelPos): relative to the CoG
    buoyancy = np.concatenate([lift, np.cross(BODY_COG + COB, lift)])
    # Gazebo's gravity on every body at its own CoG
    weight = np.zeros(6)
    for name in LINKS:
        force = np.array([0.0, 0.0, -LINKS[name][0] * G])
        weight += np.concatenate([force, np.cross(body((name,))[1], force)])
    return drag, buoyancy, weight


@pytest.mark.parametrize('neutral', [0, 1])
def test_uuv_block_acts_on_the_base_links_own_body(neutral):
    params = load_vehicle_string(uuv_robot(neutral), 'lookalike.urdf')
    # the rigid body keeps every link
    assert params.mass == pytest.approx(TOTAL_MASS, rel=1e-12)
    assert np.allclose(params.com, TOTAL_COM, atol=1e-12)
    model = HydroModel(params)
    for nu in ([1.2, -0.4, 0.3, 0.2, -0.1, 0.35], [-0.5, 0.8, -0.6, -0.3, 0.25, -0.2]):
        w = model.wrench(np.array(nu)).components
        drag, buoyancy, weight = uuv_wrench(np.array(nu), bool(neutral))
        scale = np.abs(drag).max()
        # the same arithmetic in another order: 1e-12 of the largest term
        assert np.allclose(w['linear_drag'] + w['quadratic_drag'], drag, rtol=0,
                           atol=1e-12 * scale)
        assert np.allclose(w['buoyancy'], buoyancy, rtol=0, atol=1e-9)
        assert np.allclose(w['weight'], weight, rtol=0, atol=1e-9)


def test_the_lumped_com_would_be_off_by_com_cross_force():
    """The look-alike is one where the rule matters (the test above can fail)."""
    assert np.linalg.norm(TOTAL_COM - BODY_COG) > 1e-3
    assert abs(TOTAL_MASS - BODY_MASS) > 1.0


def test_dsros_block_takes_the_body_links_cog():
    params = load_vehicle_string(robot(_DSROS), 'lookalike.urdf')
    # dsros_hydro.cc: drag centre (no <center>) and added-mass force at GetInertial()->CoG()
    assert np.allclose(params.resolved_drag_center(), BODY_COG, atol=1e-12)
    assert np.allclose(params.drag_velocity_point, BODY_COG, atol=1e-12)
    assert np.allclose(params.added_mass_point, BODY_COG, atol=1e-12)
    assert np.allclose(params.com, TOTAL_COM, atol=1e-12)
    # <mass> replaces the body link's gravity only: 1740 kg is that body's, no warning
    assert BODY_MASS == pytest.approx(1740.0, rel=1e-15)
    assert not any('<buoyancy><mass>' in w for w in params.warnings)
    other = load_vehicle_string(robot(_DSROS.replace('<mass>1740', '<mass>1785')), 'l.urdf')
    assert any('<buoyancy><mass> 1785' in w for w in other.warnings)
