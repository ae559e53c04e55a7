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
The row-wise kernels of the per-link wrench against their one-at-a-time forms.

motion_transforms against description.link_hydrodynamics.link_twist_map (written
separately) and the rigid velocity field; cross_rows against numpy's cross;
added_mass_coriolis_wrench_many against added_mass_coriolis_wrench; a LaggedAcceleration
of size 6 + n equal to its 6-long form on the twist part.
"""
import numpy as np
from transforms3d.euler import euler2mat
from uwv_hydro.description.link_hydrodynamics import link_twist_map
from uwv_hydro.physics.hydro.added_mass import (
    added_mass_coriolis_wrench, added_mass_coriolis_wrench_many, LaggedAcceleration)
from uwv_hydro.physics.spatial.point_transform import motion_transforms
from uwv_hydro.physics.spatial.rotation import cross_rows

RNG = np.random.default_rng(34)


def test_motion_transforms_are_the_link_twist_maps():
    rotations = np.array([euler2mat(*RNG.normal(size=3)) for _ in range(5)])
    positions = RNG.normal(size=(5, 3))
    x = motion_transforms(rotations, positions)
    nu = RNG.normal(size=6)
    for k in range(5):
        np.testing.assert_allclose(x[k], link_twist_map(positions[k], rotations[k]), atol=1e-15)
        # rigid velocity field: the frame origin moves at v + w x p, seen in its axes
        expected = np.r_[rotations[k].T @ (nu[:3] + np.cross(nu[3:], positions[k])),
                         rotations[k].T @ nu[3:]]
        np.testing.assert_allclose(x[k] @ nu, expected, atol=1e-14)


def test_cross_rows_is_the_cross_product_broadcast():
    a, b = RNG.normal(size=(4, 1, 3)), RNG.normal(size=(4, 7, 3))
    np.testing.assert_allclose(cross_rows(a, b), np.cross(a, b), atol=1e-15)


def test_added_mass_coriolis_of_many_rows():
    m = RNG.normal(size=(6, 6, 6))
    nu = RNG.normal(size=(6, 6))
    got = added_mass_coriolis_wrench_many(m, nu)
    for k in range(6):
        np.testing.assert_allclose(got[k], added_mass_coriolis_wrench(m[k], nu[k]), atol=1e-13)


def test_a_longer_lagged_acceleration_filters_each_entry_alike():
    long, short = LaggedAcceleration(0.4, size=9), LaggedAcceleration(0.4)
    for k in range(5):
        sample = RNG.normal(size=9)
        np.testing.assert_allclose(long.update(sample, 0.1 * k)[:6],
                                   short.update(sample[:6], 0.1 * k), atol=1e-15)
    assert np.any(long.update(RNG.normal(size=9), 0.6) != 0.0)
