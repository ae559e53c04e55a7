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
uuv's per-link blocks of a vehicle whose links move act on each link's Gazebo classic body.

DAVE's RexROV with the SL3 lidar (``rexrov_oberon7_sl3.xacro``) hangs the lidar's mount
from ``rexrov/base_link`` on a fixed joint: Gazebo classic merges it into the base body
(sdformat ReduceFixedJoints), so uuv's base block acts at that body's CoG.  A block
naming a merged link is skipped by uuv (UnderwaterObjectPlugin: "Specified link not
found").  The look-alike (our own numbers) has a fixed child on the base and on the arm
link, and a block on a merged link; the test re-derives uuv's drag (HMFossen on each
link's origin twist, AddRelativeForce at its body's CoG) and buoyancy (at CoG +
center_of_buoyancy) and compares with the per-link wrench at zero joint angle.
"""
import numpy as np
import pytest

from required_modules import require  # noqa: I100

require('pinocchio')

from uwv_hydro.description.loader import load_vehicle_string  # noqa: E402
from uwv_hydro.modes.link_wrench_mode import LinkWrenchMode  # noqa: E402

RHO, G = 1028.0, 9.8
T = np.array([1.0, -1.0, -1.0, 1.0, -1.0, -1.0])  # HMFossen ToNEDConvention
#: block link: (volume, center_of_buoyancy, linear damping, quadratic damping)
BLOCKS = {
    'base_link': (1.2, (0.0, 0.0, 0.2), (-60, -80, -300, -200, -250, -90),
                  (-700, -900, -1500, -600, -700, -500)),
    'arm': (0.004, (0.0, 0.0, 0.0), (0, 0, 0, 0, 0, 0), (-30, -60, -60, -1, -2, -2)),
    'mount': (0.01, (0.0, 0.0, 0.0), (0, 0, 0, 0, 0, 0), (-5, -5, -5, 0, 0, 0)),
}
#: link: (mass, CoM in the link, parent, joint type, joint origin in the parent)
LINKS = {
    'base_link': (1200.0, (0.02, 0.0, -0.05), None, None, None),
    'mount': (30.0, (0.0, 0.05, 0.1), 'base_link', 'fixed', (0.9, 0.0, 0.6)),
    'arm': (12.0, (0.25, 0.0, 0.0), 'base_link', 'revolute', (1.1, -0.4, -0.5)),
    'tool': (6.0, (0.05, 0.0, 0.02), 'arm', 'fixed', (0.5, 0.0, 0.0)),
}


def _v(values):
    return ' '.join(repr(float(v)) for v in values)


def robot():
    out = ['<?xml version="1.0"?>\n<robot name="v">\n']
    for name, (mass, com, parent, kind, xyz) in LINKS.items():
        out.append('<link name="%s"><inertial><origin xyz="%s"/><mass value="%r"/>'
                   '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>'
                   '</link>\n' % (name, _v(com), mass))
        if parent is not None:
            limit = ('<limit lower="-1" upper="1" effort="10" velocity="1"/>'
                     if kind == 'revolute' else '')
            out.append('<joint name="%s_joint" type="%s"><parent link="%s"/><child link="%s"/>'
                       '<origin xyz="%s"/><axis xyz="0 0 1"/>%s</joint>\n'
                       % (name, kind, parent, name, _v(xyz), limit))
    out.append('<gazebo><plugin name="uuv_plugin" '
               'filename="libuuv_underwater_object_ros_plugin.so">'
               '<fluid_density>%r</fluid_density>' % RHO)
    for name, (volume, cob, lin, quad) in BLOCKS.items():
        out.append('<link name="%s"><volume>%r</volume><center_of_buoyancy>%s'
                   '</center_of_buoyancy><box><width>0.3</width><length>0.3</length>'
                   '<height>0.3</height></box><hydrodynamic_model><type>fossen</type>'
                   '<added_mass>%s</added_mass><linear_damping>%s</linear_damping>'
                   '<quadratic_damping>%s</quadratic_damping></hydrodynamic_model></link>'
                   % (name, volume, _v(cob), _v([0.0] * 36), _v(lin), _v(quad)))
    out.append('</plugin></gazebo></robot>\n')
    return ''.join(out)


def origin(name):
    """Return the link origin in the base (joint angle zero; the joints carry no turn)."""
    parent = LINKS[name][2]
    return np.zeros(3) if parent is None else origin(parent) + np.array(LINKS[name][4])


def classic_body(name):
    """Return (mass, CoG in the link frame) of the link and its fixed-joint children."""
    members = [name] + [n for n, v in LINKS.items() if v[2] == name and v[3] == 'fixed']
    mass = sum(LINKS[n][0] for n in members)
    moment = sum(LINKS[n][0] * (origin(n) - origin(name) + LINKS[n][1]) for n in members)
    return mass, moment / mass


def uuv_wrench(nu):
    """Return uuv's drag and buoyancy about the base origin: the blocks Gazebo keeps."""
    drag, lift = np.zeros(6), np.zeros(6)
    for name in ('base_link', 'arm'):  # 'mount' is merged into base_link: skipped
        volume, cob, lin, quad = BLOCKS[name]
        p = origin(name)
        cog = classic_body(name)[1]
        v = T * np.concatenate([nu[:3] + np.cross(nu[3:], p), nu[3:]])
        d = -np.diag(lin) - np.diag(np.asarray(quad) * np.abs(v))  # ComputeDampingMatrix
        f = T * (-d @ v)
        at = p + cog  # AddRelativeForce: at the body's CoG; the torque pure
        drag += np.concatenate([f[:3], f[3:] + np.cross(at, f[:3])])
        up = np.array([0.0, 0.0, volume * RHO * G])
        lift += np.concatenate([up, np.cross(p + cog + np.array(cob), up)])
    return drag, lift


@pytest.fixture(scope='module')
def vehicle():
    return load_vehicle_string(robot(), 'v.urdf')


def test_blocks_act_on_each_links_classic_body(vehicle):
    mode = LinkWrenchMode(vehicle)
    rng = np.random.default_rng(41)
    for _ in range(5):
        nu = rng.uniform(-1.0, 1.0, 6)
        w = mode.evaluate(0.0, None, [1.0, 0.0, 0.0, 0.0], nu).components
        drag, lift = uuv_wrench(nu)
        # the same sums in another order: 1e-12 of the largest term
        assert np.allclose(w['linear_drag'] + w['quadratic_drag'], drag, rtol=0,
                           atol=1e-12 * np.abs(drag).max())
        assert np.allclose(w['buoyancy'], lift, rtol=0, atol=1e-12 * lift[2])


def test_a_block_on_a_merged_link_is_skipped_with_a_warning(vehicle):
    found = [w for w in vehicle.warnings if "block for link 'mount'" in w]
    assert len(found) == 1 and "fixed joint 'mount_joint'" in found[0]


def test_the_rule_matters_here():
    """The links' own CoMs would differ from their bodies' (the test above can fail)."""
    for name in ('base_link', 'arm'):
        assert np.linalg.norm(classic_body(name)[1] - np.array(LINKS[name][1])) > 1e-3
