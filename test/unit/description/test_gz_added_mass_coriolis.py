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
The added-mass Coriolis wrench of an SDF vehicle, settled against gz-sim (2026).

gz-sim's Hydrodynamics.cc after its 2026 fixes (gz-sim PR 3456: Coriolis entries
(0, 5) and (5, 0) corrected, a current correction for ``<fluid_added_mass>``):

* ``<fluid_added_mass>`` (DART carries M_A): DART applies -C_A(v) v implicitly with
  the absolute twist, and the system adds C_A(v) v - C_A(v_r) v_r, so the total is
  Fossen's -C_A(v_r) v_r (2011 eq. 6.43) with the full M_A;
* plugin ``<xDotU>``...: Cmat = buildCoriolisMatrix(Ma, v_r) is Fossen's eq. 6.51
  C_A (diagonal of Ma only), put in the wrench as -Cmat v_r and the wrench is applied
  negated: +C_A(v_r) v_r, the opposite sign of Fossen's (a Munk moment that turns
  the nose into the flow).

uwv_hydro computes -C_A(nu_r) nu_r from the full M_A for both.  The worked case of
doc/guide/semantics.md is checked by hand and against these formulas re-derived.
"""

import pathlib

import numpy as np

from uwv_hydro.description.loader import load_vehicle, load_vehicle_string
from uwv_hydro.physics.hydro.hydro_model import HydroModel

WORKED = pathlib.Path(__file__).resolve().parents[2] / 'corpus' / 'gz_fluid_added_mass.sdf'
M_A = np.diag([10.0, 60.0, 80.0, 2.0, 15.0, 12.0])
NU = np.array([1.2, 0.3, -0.2, 0.1, 0.05, -0.3])
# By hand (doc/guide/semantics.md): a1 = (12, 18, -16), a2 = (0.2, 0.75, -3.6),
# -C_A nu = [a1 x w, a1 x v + a2 x w]
BY_HAND = np.array([-4.6, 2.0, -1.2, 1.155, -17.1, -18.065])


def skew(a):
    """Return S(a) with S(a) b = a x b."""
    return np.array([[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]])


def full_coriolis_matrix(m_a, v):
    """C_A(v) of Fossen 2011 eq. 6.43 (gz-sim buildFullCoriolisMatrix), M_A positive."""
    a1 = m_a[:3, :3] @ v[:3] + m_a[:3, 3:] @ v[3:]
    a2 = m_a[3:, :3] @ v[:3] + m_a[3:, 3:] @ v[3:]
    return np.block([[np.zeros((3, 3)), -skew(a1)], [-skew(a1), -skew(a2)]])


def gz_plugin_coriolis_matrix(ma, s):
    """Fossen 2011 eq. 6.51 in derivatives (gz-sim buildCoriolisMatrix), Ma negative."""
    c = np.zeros((6, 6))
    x, y, z, k, m, n = (ma[i, i] for i in range(6))
    u, v, w, p, q, r = s
    c[0, 4], c[0, 5] = -z * w, y * v
    c[1, 3], c[1, 5] = z * w, -x * u
    c[2, 3], c[2, 4] = -y * v, x * u
    c[3, 1], c[3, 2], c[3, 4], c[3, 5] = -z * w, y * v, -n * r, m * q
    c[4, 0], c[4, 2], c[4, 3], c[4, 5] = z * w, -x * u, n * r, -k * p
    c[5, 0], c[5, 1], c[5, 3], c[5, 4] = -y * v, x * u, -m * q, k * p
    return c


def test_worked_case_by_hand_and_fossen():
    """The hand result is Fossen's -C_A(nu) nu (and C_A is skew: it does no work)."""
    c_a = full_coriolis_matrix(M_A, NU)
    np.testing.assert_allclose(-c_a @ NU, BY_HAND, rtol=0.0, atol=1e-12)
    assert abs(NU @ c_a @ NU) < 1e-12


def test_sdf_fluid_added_mass_coriolis_is_gz_sim_with_dart():
    """Still water: DART's -C_A(v) v; the worked case."""
    model = HydroModel(load_vehicle(str(WORKED)))
    got = model.wrench(NU).components['added_mass_coriolis']
    np.testing.assert_allclose(got, BY_HAND, rtol=0.0, atol=1e-12 * 20.0)


def test_sdf_fluid_added_mass_coriolis_with_current_is_gz_sim_correction():
    """A current: DART -C_A(v) v plus gz-sim's correction C_A(v) v - C_A(v_r) v_r."""
    model = HydroModel(load_vehicle(str(WORKED)))
    current = np.array([0.4, -0.2, 0.1])  # world (ENU), level vehicle: body = world
    v_r = NU - np.concatenate([current, np.zeros(3)])
    dart = -full_coriolis_matrix(M_A, NU) @ NU
    correction = full_coriolis_matrix(M_A, NU) @ NU - full_coriolis_matrix(M_A, v_r) @ v_r
    total = model.wrench(NU, current_world=current).components['added_mass_coriolis']
    np.testing.assert_allclose(total, dart + correction, rtol=0.0, atol=1e-11)
    # beside an engine carrying M_A (DART) the wrench is gz-sim's correction alone
    engine = model.wrench(NU, current_world=current, engine_added_mass=True)
    np.testing.assert_allclose(engine.components['added_mass_coriolis'], correction,
                               rtol=0.0, atol=1e-11)


def test_gz_plugin_added_mass_coriolis_is_the_opposite_sign_there():
    """Plugin <xDotU>..: gz-sim applies +C_A(v_r) v_r; uwv_hydro Fossen's -C_A."""
    model = HydroModel(load_vehicle_string(_plugin_model(''), 'plugin.sdf'))
    ours = model.wrench(NU).components['added_mass_coriolis']
    ma = -M_A  # the derivatives as written (negative)
    cmat = gz_plugin_coriolis_matrix(ma, NU)
    np.testing.assert_allclose(cmat, full_coriolis_matrix(M_A, NU), atol=1e-12)  # = C_A
    k_total = -cmat @ NU  # kCmatVec, then the wrench applied is -kTotalWrench
    gz_applied = -k_total
    np.testing.assert_allclose(ours, BY_HAND, rtol=0.0, atol=1e-11)
    np.testing.assert_allclose(gz_applied, -BY_HAND, rtol=0.0, atol=1e-11)


def _plugin_model(extra):
    """Return the worked SDF with M_A given by gz-sim's plugin <xDotU>.. and ``extra``."""
    text = WORKED.read_text()
    start, end = text.rindex('<fluid_added_mass>'), text.rindex('</fluid_added_mass>')
    text = text[:start] + text[end + len('</fluid_added_mass>'):]
    letters = ('xDotU', 'yDotV', 'zDotW', 'kDotP', 'mDotQ', 'nDotR')
    plugin = ''.join('<%s>%r</%s>' % (t, -float(M_A[i, i]), t) for i, t in enumerate(letters))
    return text.replace('</model>', '<plugin filename="gz-sim-hydrodynamics-system" '
                        'name="gz::sim::systems::Hydrodynamics"><link_name>body</link_name>'
                        '%s%s</plugin></model>' % (plugin, extra))


def test_gz_disable_coriolis_drops_only_the_added_mass_coriolis():
    """
    ``<disable_coriolis>``: Hydrodynamics.cc skips -Cmat v only; C_RB stays (the engine's).

    So the description keeps ``coriolis`` (the rigid body's) and sets
    ``added_mass_coriolis`` false: that component is zero, the dynamics keep -C_RB nu.
    """
    params = load_vehicle_string(_plugin_model('<disable_coriolis>true</disable_coriolis>'),
                                 'plugin.sdf')
    assert params.coriolis is True
    assert params.added_mass_coriolis is False
    assert any('<disable_coriolis>' in w and 'rigid-body Coriolis stays on' in w
               for w in params.warnings), params.warnings
    model = HydroModel(params)
    assert np.all(model.wrench(NU).components['added_mass_coriolis'] == 0.0)
    default = load_vehicle_string(_plugin_model(''), 'plugin.sdf')
    assert default.coriolis is True and default.added_mass_coriolis is True
    assert not any('disable_coriolis' in w for w in default.warnings)
