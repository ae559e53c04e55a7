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

"""HydroModel against an independently written numpy reference, over random states."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / 'benchmarks'))

from naive_reference import naive_wrench, vehicle_variants  # noqa: E402, I100
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from uwv_hydro.physics.hydro_model import HydroModel  # noqa: E402
from uwv_hydro.physics.vehicle_params import COMPONENT_NAMES  # noqa: E402


def _variants():
    return vehicle_variants(dsros_seed=7)


@pytest.mark.parametrize('name,params', list(_variants()), ids=lambda v: v
                         if isinstance(v, str) else '')
def test_core_matches_independent_reference(name, params):
    model = HydroModel(params)
    rng = np.random.default_rng(11)
    for _ in range(200):
        nu = rng.normal(scale=[1, 0.5, 0.5, 0.3, 0.3, 0.3])
        q = rng.normal(size=4)
        pos = np.array([rng.normal(), rng.normal(), rng.uniform(-0.5, 0.2)])  # near surface
        nu_dot = rng.normal(size=6)
        cur = rng.normal(scale=0.3, size=3)
        got = model.wrench(nu, position=pos, quaternion=q, nu_dot=nu_dot, current_world=cur)
        want = naive_wrench(params, nu, pos, q, nu_dot, cur)
        want.setdefault('fins', np.zeros(6))  # the variants have no fins
        for comp in COMPONENT_NAMES:
            np.testing.assert_allclose(got.components[comp], want[comp], rtol=1e-10,
                                       atol=1e-9, err_msg='%s: %s' % (name, comp))
        np.testing.assert_allclose(got.total, sum(want.values()), rtol=1e-10, atol=1e-9)
