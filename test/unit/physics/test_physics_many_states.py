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
The many-state evaluations (replay's chunks) equal the one-state functions row by row.

HydroModel.wrench_many, LaggedAcceleration.update_many, surface_fractions,
quats_to_matrices and world_wrenches, across every branch (surface transition, resets,
repeated stamps, a current), plus an analytic buoyancy check through the surface.
"""
import sys

from conftest import REPO
import numpy as np
import pytest

from uwv_hydro.modes.wrench_mode import (unit_quaternion, usable_quaternions, world_wrench,
                                         world_wrenches)
from uwv_hydro.physics.body.vehicle_params import COMPONENT_NAMES, SurfaceTransition
from uwv_hydro.physics.hydro.added_mass import LaggedAcceleration
from uwv_hydro.physics.hydro.hydro_model import HydroModel
from uwv_hydro.physics.hydro.hydrostatics import surface_fraction, surface_fractions
from uwv_hydro.physics.spatial.rotation import quat_to_matrix, quats_to_matrices

sys.path.insert(0, str(REPO / 'benchmarks'))
from naive_reference import full_vehicle, vehicle_variants  # noqa: E402, I100
from naive_reference import surface_fraction as naive_surface_fraction  # noqa: E402, I100

VARIANTS = dict(vehicle_variants())


def _states(n, seed=3):
    rng = np.random.default_rng(seed)
    nu = rng.normal(size=(n, 6))
    nu_dot = rng.normal(size=(n, 6))
    quat = rng.normal(size=(n, 4))
    # depths across the surface transition and well below it
    position = np.column_stack((rng.normal(size=(n, 2)), rng.uniform(-3.0, 0.5, n)))
    return nu, nu_dot, quat, position


@pytest.mark.parametrize('variant', sorted(VARIANTS))
def test_wrench_many_equals_wrench_row_by_row(variant):
    model = HydroModel(VARIANTS[variant])
    nu, nu_dot, quat, position = _states(300, seed=len(variant))
    for kwargs in ({}, {'position': position, 'quaternion': quat},
                   {'position': position, 'quaternion': quat, 'nu_dot': nu_dot,
                    'current_world': [0.3, -0.2, 0.05]}):
        got = model.wrench_many(nu, **kwargs)
        assert got.shape == (300, len(COMPONENT_NAMES), 6)
        for k in range(300):
            row = {key: (value if key == 'current_world' else value[k])
                   for key, value in kwargs.items()}
            wc = model.wrench(nu[k], **row)
            want = np.array([wc.components[name] for name in COMPONENT_NAMES])
            np.testing.assert_allclose(got[k], want, rtol=1e-12, atol=1e-12)


def test_wrench_many_buoyancy_through_the_surface_is_the_dsros_formula():
    params = full_vehicle()
    model = HydroModel(params)
    s = params.surface
    depth = np.linspace(-1.0, 3.0, 401)
    position = np.column_stack((np.zeros((401, 2)), -depth))
    heave = model.wrench_many(np.zeros((401, 6)), position=position)[
        :, COMPONENT_NAMES.index('buoyancy'), 2]
    full, out, scale = s.fully_submerged_depth, s.out_of_water_depth, s.scale_factor
    assert out < full  # the sweep crosses a real transition
    frac = (depth - out) / (full - out)
    # dsros_hydro VEHICLE_MODELLING.md, written independently of the code under test
    expected_fraction = np.where(depth >= full, 1.0, np.where(
        depth <= out, 0.0, scale * frac + (1.0 - scale)))
    expected = params.buoyancy_mass * params.gravity * expected_fraction
    np.testing.assert_allclose(heave, expected, rtol=1e-12, atol=1e-9)


def test_wrench_many_rejects_a_zero_quaternion_naming_the_row():
    model = HydroModel(full_vehicle())
    quat = np.tile([1.0, 0.0, 0.0, 0.0], (5, 1))
    quat[3] = 0.0
    with pytest.raises(ValueError, match='row 3'):
        model.wrench_many(np.zeros((5, 6)), quaternion=quat)


@pytest.mark.parametrize('model', ['dsros', 'continuous'])
def test_surface_fractions_equal_the_naive_reference(model):
    for full, out in ((1.0, -0.5), (0.3, 0.3)):
        surface = SurfaceTransition(fully_submerged_depth=full, out_of_water_depth=out,
                                    scale_factor=0.4, model=model)
        depths = np.concatenate((np.linspace(-2.0, 2.0, 97), [full, out]))
        want = [naive_surface_fraction(d, surface) for d in depths]
        got = surface_fractions(depths, surface)
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-15)
        assert [surface_fraction(d, surface) for d in depths] == got.tolist()
    with pytest.raises(ValueError, match='index 2'):
        surface_fractions([0.0, 1.0, float('nan')], surface)


def _dsros_lagged_reference(nu, t, resets, alpha):
    """Apply a_k = alpha (nu_k - nu_{k-1}) / dt + (1 - alpha) a_{k-1} (class docstring)."""
    prev, t_prev, est, out = None, None, np.zeros(6), []
    for k in range(len(t)):
        if resets[k]:
            prev, est = None, np.zeros(6)
        if prev is None:
            prev, t_prev = nu[k], t[k]
        elif t[k] - t_prev > 0.0:  # dt <= 0: the previous estimate, sample not stored
            est = alpha * (nu[k] - prev) / (t[k] - t_prev) + (1.0 - alpha) * est
            prev, t_prev = nu[k], t[k]
        out.append(est)
    return np.array(out)


def test_update_many_is_update_called_in_a_loop():
    """Identical estimates across resets, repeated stamps, zero dt and split calls."""
    rng = np.random.default_rng(7)
    n = 400
    nu = rng.normal(size=(n, 6))
    t = np.cumsum(rng.choice([0.0, 0.01, 0.02], size=n))
    t[150:160] = t[150]  # a run of repeated stamps
    resets = np.zeros(n, dtype=bool)
    resets[[0, 57, 58, 300]] = True
    one = LaggedAcceleration(0.3)
    want = []
    for k in range(n):
        if resets[k]:
            one.reset()
        want.append(one.update(nu[k], t[k]))
    many = LaggedAcceleration(0.3)
    got = np.concatenate([many.update_many(nu[a:b], t[a:b], resets[a:b])
                          for a, b in ((0, 1), (1, 123), (123, 124), (124, n))])
    assert np.array_equal(got, np.array(want))
    assert np.array_equal(got, _dsros_lagged_reference(nu, t, resets, 0.3))
    assert np.any(got != 0.0)
    # the state carries on: the next sample agrees too
    assert np.array_equal(many.update(nu[0], t[-1] + 0.01), one.update(nu[0], t[-1] + 0.01))
    with pytest.raises(ValueError, match='3 samples but 2 times'):
        many.update_many(nu[:3], t[:2])


def test_quats_to_matrices_and_world_wrenches():
    rng = np.random.default_rng(11)
    quat = rng.normal(size=(50, 4))
    unit = quat / np.linalg.norm(quat, axis=1)[:, None]
    rot = quats_to_matrices(quat)  # normalises
    for k in range(50):
        np.testing.assert_allclose(rot[k], quat_to_matrix(unit[k]), atol=1e-14)
        np.testing.assert_allclose(rot[k] @ rot[k].T, np.eye(3), atol=1e-14)
        assert np.linalg.det(rot[k]) == pytest.approx(1.0, abs=1e-14)
    wrenches = rng.normal(size=(50, 6))
    got = world_wrenches(wrenches, unit)
    for k in range(50):
        np.testing.assert_allclose(got[k], world_wrench(wrenches[k], unit[k]), atol=1e-13)


def test_usable_quaternions_follow_the_node_rule():
    """Replay's vectorised check accepts exactly what wrench_mode.unit_quaternion accepts."""
    rng = np.random.default_rng(2)
    unit = rng.normal(size=(6, 4))
    unit /= np.linalg.norm(unit, axis=1)[:, None]
    quats = np.vstack([unit * s for s in (0.0, 0.3, 0.5, 0.5000001, 1.0, 1.3, 1.9999, 2.0, 5.0)]
                      + [[[np.nan, 0, 0, 1], [np.inf, 0, 0, 1], [1e200, 0, 0, 0]]])
    norm, usable = usable_quaternions(quats)
    with np.errstate(over='ignore'):  # |q|^2 of the 1e200 row overflows to inf: rejected
        want = [unit_quaternion(q)[0] is not None for q in quats]
    assert usable.tolist() == want
    assert 0 < sum(want) < len(want)
    for q, n, ok in zip(quats, norm, usable):
        if ok:
            np.testing.assert_allclose(n, unit_quaternion(q)[1], rtol=1e-15)
