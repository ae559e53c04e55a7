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
Real files' tolerance: rounding symmetrised, nonphysical loadable, peers' semantics kept.

The vehicles are the small descriptions under ``test/corpus/``.  Physics is checked
against uuv_simulator's HMFossen equations re-derived here (NED twist, D = -D_lin -
u D_fwd - diag(D_q |v|), tau = -D v) with Gazebo classic's points of application
(hydrodynamic force at the CoM, buoyancy at CoM + CoB), not against numbers of the
code.
"""

import pathlib

import numpy as np
import pytest

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.loader import load_vehicle, load_vehicle_string
from uwv_hydro.physics.body.dynamics import Simulator, State
from uwv_hydro.physics.body.vehicle_params import DEFAULT_GRAVITY
from uwv_hydro.physics.hydro.hydro_model import HydroModel

CORPUS = pathlib.Path(__file__).resolve().parents[2] / 'corpus'
UUV = CORPUS / 'uuv_offset_com.urdf'
DSROS = CORPUS / 'dsros_rounded_pair.urdf'

# The numbers of test/corpus/uuv_offset_com.urdf, as uuv_simulator holds them (NED/FRD)
COM = np.array([0.12, 0.0, -0.08])
COB = np.array([0.0, 0.0, 0.05])
VOLUME, RHO = 0.176, 1028.0
D_LIN = np.diag([-20.0, -60.0, -60.0, -5.0, -30.0, -30.0])
D_FWD = np.diag([-1.5, -25.0, -25.0, -0.5, -12.0, -12.0])
D_Q = np.array([-40.0, -300.0, -300.0, -2.0, -90.0, -90.0])
T = np.array([1.0, -1.0, -1.0, 1.0, -1.0, -1.0])  # ToNEDConvention on both halves
G_GAZEBO = 9.8  # Gazebo's default world gravity (sdformat world.sdf)


def uuv_damping_wrench_at_com(nu_flu):
    """
    Return HMFossen's damping for the link-origin twist, as Gazebo classic applies it.

    Returns the wrench about the link origin: the force acts at the CoM
    (AddRelativeForce -> dBodyAddRelForce), the torque is a pure torque.
    """
    v = T * nu_flu
    d = -D_LIN - v[0] * D_FWD - np.diag(D_Q * np.abs(v))  # ComputeDampingMatrix
    tau = T * (-d @ v)  # damping = -D v, back with FromNEDConvention
    force, torque = tau[:3], tau[3:]
    return np.concatenate([force, torque + np.cross(COM, force)])


def _drag(model, nu):
    w = model.wrench(nu).components
    return w['linear_drag'] + w['quadratic_drag']


@pytest.mark.parametrize('nu', [
    np.array([1.5, 0.1, -0.2, 0.05, 0.2, -0.1]),     # u > 0
    np.array([-0.8, -0.3, 0.25, -0.1, -0.15, 0.2]),  # u < 0: D_fwd reverses sign
    np.array([0.0, 0.4, 0.0, 0.0, 0.3, 0.0]),        # u = 0: no forward-speed term
])
def test_forward_speed_damping_and_force_at_the_com_as_uuv_in_gazebo_classic(nu):
    model = HydroModel(load_vehicle(str(UUV)))
    want = uuv_damping_wrench_at_com(nu)
    got = _drag(model, nu)
    # the same sums in another order: agreement to rounding of the largest term
    assert np.allclose(got, want, rtol=0.0, atol=1e-12 * np.abs(want).max())


def test_forward_speed_term_is_the_signed_u_part():
    """-u L_u nu: odd in u at fixed other components (not |u|, not a quadratic drag)."""
    params = load_vehicle(str(UUV))
    without = load_vehicle(str(UUV))
    without.forward_speed_drag = np.zeros((6, 6))
    a, b = HydroModel(params), HydroModel(without)
    for u in (1.2, -1.2):
        nu = np.array([u, 0.3, -0.2, 0.1, 0.05, -0.1])
        extra = _drag(a, nu) - _drag(b, nu)
        v = T * nu
        force = T * (u * D_FWD @ v)  # the -(-u D_fwd) v part of -D v, back in FLU
        want = np.concatenate([force[:3], force[3:] + np.cross(COM, force[:3])])
        assert np.allclose(extra, want, rtol=0.0, atol=1e-12 * np.abs(want).max())


def test_caldus_like_pitch_moment_of_an_offset_com_vehicle():
    """Pitch moment of drag + buoyancy + weight: uuv in Gazebo classic, re-derived."""
    params = load_vehicle(str(UUV))
    assert params.gravity == G_GAZEBO  # a URDF runs in a Gazebo world: g = 9.8
    nu = np.array([1.2, 0.0, 0.15, 0.0, 0.1, 0.0])
    pitch = np.deg2rad(10.0)
    quat = [np.cos(pitch / 2), 0.0, np.sin(pitch / 2), 0.0]  # nose down (FLU, +y pitch)
    w = HydroModel(params).wrench(nu, [0.0, 0.0, -20.0], quat).components
    ours = sum(w[k] for k in ('linear_drag', 'quadratic_drag', 'buoyancy', 'weight'))[4]
    rot_t = np.array([[np.cos(pitch), 0.0, -np.sin(pitch)], [0.0, 1.0, 0.0],
                      [np.sin(pitch), 0.0, np.cos(pitch)]])  # R^T for a rotation about y
    up = rot_t @ np.array([0.0, 0.0, 1.0])
    buoyancy = VOLUME * RHO * G_GAZEBO * up  # at com + cob (dBodyAddForceAtRelPos)
    weight = -180.0 * G_GAZEBO * up  # at the com
    want = (uuv_damping_wrench_at_com(nu)[4] + np.cross(COM + COB, buoyancy)[1]
            + np.cross(COM, weight)[1])
    assert ours == pytest.approx(want, rel=1e-12)
    # the same vehicle with everything at the link origin (before) is another moment
    force = uuv_damping_wrench_at_com(nu)[:3]
    assert abs(np.cross(COM, force)[1]) > 0.05 * abs(want)


def test_simulate_integrates_the_forward_speed_term_as_the_wrench_gives_it():
    """
    Simulate's acceleration against the wrench it is made of, u > 0 and u < 0.

    Simulator.derivative is the term-by-term evaluation; the compiled core is checked
    against the naive oracle with this term in test_core_cross_check (uuv_forward_speed).
    """
    params = load_vehicle(str(UUV))
    sim = Simulator(params, dt=0.01)
    model = HydroModel(params)
    for u in (1.5, -1.5):
        nu = np.array([u, 0.2, -0.1, 0.05, 0.1, -0.2])
        state = State(position=np.array([0.0, 0.0, -10.0]),
                      quaternion=np.array([1.0, 0.0, 0.0, 0.0]), twist=nu)
        nu_dot = sim.derivative(state).twist
        # (M_RB + M_A) nu_dot = hydro wrench (no nu_dot) - C_RB(nu) nu (Fossen 2011 eq. 7.x)
        rhs = model.wrench(nu, [0.0, 0.0, -10.0]).total
        m_rb = model.rigid_body_mass_matrix()
        a = m_rb @ nu
        c_rb_nu = -np.concatenate([np.cross(a[:3], nu[3:]),
                                   np.cross(a[:3], nu[:3]) + np.cross(a[3:], nu[3:])])
        lhs = model.mass_matrix() @ nu_dot
        assert np.allclose(lhs, rhs - c_rb_nu, rtol=0.0, atol=1e-9 * np.abs(rhs).max())


def test_rounded_pair_is_symmetrised_naming_both_entries_and_lines():
    params = load_vehicle(str(UUV))
    text = [w for w in params.warnings if 'rounding level' in w]
    assert len(text) == 1
    # uuv's matrix has no letters: row, column and the line of each number
    assert 'added_mass[2,6] (line 35) = 10.774' in text[0]
    assert 'added_mass[6,2] (line 39) = 10.775' in text[0]
    assert params.added_mass[1, 5] == params.added_mass[5, 1]
    assert params.added_mass[1, 5] == pytest.approx(10.7745, rel=1e-15)
    dsros = load_vehicle(str(DSROS))
    text = [w for w in dsros.warnings if 'rounding level' in w]
    assert len(text) == 1 and 'yh (line 26) = 2.4999' in text[0]
    assert 'hy (line 27) = 2.5001' in text[0]
    assert dsros.added_mass[1, 5] == dsros.added_mass[5, 1]


def test_real_asymmetry_is_refused_naming_both_entries_and_lines():
    text = UUV.read_text().replace('0.0 10.775 0.0', '0.0 12.5 0.0')
    with pytest.raises(DescriptionError) as info:
        load_vehicle_string(text, 'asym.urdf')
    message = str(info.value)
    assert 'not symmetric' in message
    assert 'added_mass[2,6] (line 35) = 10.774' in message
    assert 'added_mass[6,2] (line 39) = 12.5' in message
    assert info.value.line == 35


def test_inertia_triangle_inequality_error_names_the_moments_and_loads_with_the_flag():
    # Ixx + Iyy < Izz (eca_a9-like): positive definite, but no mass distribution has it
    text = UUV.read_text().replace('izz="48.0"', 'izz="60.0"')
    with pytest.raises(DescriptionError) as info:
        load_vehicle_string(text, 'tri.urdf')
    message = str(info.value)
    assert 'Ixx + Iyy >= Izz' in message and 'Ixx = 12' in message
    assert 'Iyy = 45' in message and 'Izz = 60' in message
    assert '--allow-nonphysical' in message
    params = load_vehicle_string(text, 'tri.urdf', allow_nonphysical=True)
    assert any('allow_nonphysical' in w and 'Ixx + Iyy >= Izz' in w for w in params.warnings)
    assert params.inertia[2, 2] == 60.0


def test_not_positive_definite_inertia_stays_an_error_with_the_flag():
    text = UUV.read_text().replace('ixx="12.0"', 'ixx="-12.0"')
    with pytest.raises(DescriptionError, match='not positive definite'):
        load_vehicle_string(text, 'neg.urdf', allow_nonphysical=True)


def test_default_gravity_per_format(tmp_path):
    assert load_vehicle(str(DSROS)).gravity == G_GAZEBO
    yaml_file = tmp_path / 'v.yaml'
    yaml_file.write_text('vehicle:\n  mass: 10.0\n  inertia: {ixx: 1.0, iyy: 1.0, izz: 1.0}\n'
                         '  buoyancy_mass: 10.0\n')
    assert load_vehicle(str(yaml_file)).gravity == DEFAULT_GRAVITY == 9.81
    # a YAML over the URDF keeps its own default: 9.8 is no value of the URDF file
    over = tmp_path / 'over.yaml'
    over.write_text('vehicle:\n  base: %s\n  buoyancy_mass: 101.0\n' % DSROS)
    assert load_vehicle(str(over)).gravity == DEFAULT_GRAVITY
    over.write_text('vehicle:\n  base: %s\n  buoyancy_mass: 101.0\n  gravity: 9.8\n' % DSROS)
    assert load_vehicle(str(over)).gravity == 9.8


def test_speed_past_which_forward_speed_drag_injects_energy_is_named():
    """Diagonal L and L_u: L_ii + u L_u,ii >= 0 for u >= -min_i(L_ii / L_u,ii)."""
    params = load_vehicle(str(UUV))
    l_diag, lu_diag = -np.diag(D_LIN), -np.diag(D_FWD)
    u_star = -np.min(l_diag / lu_diag)  # sway: 60 / 25
    text = [w for w in params.warnings if 'forward-speed linear drag' in w]
    assert len(text) == 1 and 'below %.4g m/s' % u_star in text[0]
    # just past that speed the drag power -nu^T (L + u L_u) nu of a sway motion is > 0
    lin, fwd = params.linear_drag, params.forward_speed_drag
    sway = np.array([0.0, 1.0, 0.0, 0.0, 0.0, 0.0])
    assert -sway @ (lin + (u_star - 0.01) * fwd) @ sway > 0.0
    assert -sway @ (lin + (u_star + 0.01) * fwd) @ sway < 0.0
