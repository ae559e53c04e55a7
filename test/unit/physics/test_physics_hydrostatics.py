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

"""Tests of weight, buoyancy and the surface transition."""
import math

import numpy as np
import pytest

from uwv_hydro.physics.body.vehicle_params import SurfaceTransition, VehicleParams
from uwv_hydro.physics.hydro.hydrostatics import down_direction, Hydrostatics, surface_fraction
from uwv_hydro.physics.spatial.rotation import quat_from_rpy, quat_to_matrix

OUT, FULL = 0.1, 0.3


def _expected(depth, s, model):
    """Evaluate the SurfaceTransition docstring formula directly."""
    if depth >= FULL:
        return 1.0
    if depth <= OUT:
        return 0.0
    frac = (depth - OUT) / (FULL - OUT)
    return frac if model == 'continuous' else s * frac + (1.0 - s)


@pytest.mark.parametrize('model', ['dsros', 'continuous'])
@pytest.mark.parametrize('s', [1.0, 0.5, 0.0])
def test_surface_transition_regions_and_boundaries(model, s):
    """Zero above out, full below full, the formula in between, boundaries included."""
    surface = SurfaceTransition(out_of_water_depth=OUT, fully_submerged_depth=FULL,
                                scale_factor=s, model=model)
    for depth in (-1.0, 0.0, OUT, 0.15, 0.2, 0.25, FULL, 0.5, 10.0):
        assert abs(surface_fraction(depth, surface) - _expected(depth, s, model)) < 1e-15
    assert surface_fraction(OUT, surface) == 0.0
    assert surface_fraction(FULL, surface) == 1.0
    mid = surface_fraction(0.2, surface)
    assert mid == pytest.approx(0.5 if model == 'continuous' else 0.5 * s + 1.0 - s)


def test_dsros_jumps_and_continuous_does_not():
    """Just below the out-of-water depth dsros jumps to (1 - s); continuous stays at 0."""
    eps = 1e-9
    dsros = SurfaceTransition(OUT, FULL, 0.25, 'dsros')
    cont = SurfaceTransition(OUT, FULL, 0.25, 'continuous')
    assert surface_fraction(OUT + eps, dsros) == pytest.approx(0.75, abs=1e-7)
    assert surface_fraction(OUT + eps, cont) < 1e-7
    assert abs(surface_fraction(FULL - eps, cont) - 1.0) < 1e-7
    depths = np.linspace(-0.2, 0.6, 2001)
    jumps = np.diff([surface_fraction(d, cont) for d in depths])
    assert np.max(np.abs(jumps)) < 2.0 * (depths[1] - depths[0]) / (FULL - OUT)


def test_equal_depths_is_a_step():
    """Equal depths (full == out) give a step there: full buoyancy at and below it."""
    surface = SurfaceTransition(0.2, 0.2, 0.5, 'dsros')
    assert surface_fraction(0.2 - 1e-12, surface) == 0.0
    assert surface_fraction(0.2, surface) == 1.0
    assert surface_fraction(0.3, surface) == 1.0


def test_level_weight_and_buoyancy():
    """Level: weight -m g z at the CoM and buoyancy +B z at the CoB, with their moments."""
    params = VehicleParams(mass=10.0, inertia=np.eye(3), com=[0.1, 0.2, -0.3],
                           buoyancy_mass=12.0, cob=[0.05, -0.1, 0.4], gravity=9.81)
    hs = Hydrostatics(params)
    down = down_direction(np.eye(3))
    w = hs.weight_wrench(down)
    b = hs.buoyancy_wrench(down, 0.5)
    f_w = np.array([0, 0, -98.1])
    f_b = np.array([0, 0, 0.5 * 12.0 * 9.81])
    assert np.allclose(w, np.r_[f_w, np.cross(params.com, f_w)], atol=1e-12)
    assert np.allclose(b, np.r_[f_b, np.cross(params.cob, f_b)], atol=1e-12)


def test_rolled_body_restoring_moment():
    """Rolled by phi with CoB above CoM (W = B): roll moment -W BG sin(phi), no net force."""
    bg, weight = 0.05, 100.0 * 9.81
    params = VehicleParams(mass=100.0, inertia=np.eye(3), buoyancy_mass=100.0,
                           cob=[0, 0, bg], gravity=9.81)
    hs = Hydrostatics(params)
    for phi in (0.1, -0.4, 1.2):
        down = down_direction(quat_to_matrix(quat_from_rpy(phi, 0.0, 0.0)))
        tau = hs.weight_wrench(down) + hs.buoyancy_wrench(down, 1.0)
        assert np.allclose(tau[:3], 0.0, atol=1e-12)
        assert tau[3] == pytest.approx(-weight * bg * math.sin(phi), rel=1e-12)
        assert abs(tau[4]) < 1e-12 and abs(tau[5]) < 1e-12


def test_down_direction_in_body_frame():
    """Pitched nose-down by 90 degrees (pitch +pi/2 in FLU), world down is body +x."""
    down = down_direction(quat_to_matrix(quat_from_rpy(0.0, math.pi / 2, 0.0)))
    assert np.allclose(down, [1.0, 0.0, 0.0], atol=1e-15)


def test_nan_depth_is_a_clear_error_even_with_a_step_transition():
    for surface in (SurfaceTransition(0.0, 0.0, 1.0, 'dsros'),
                    SurfaceTransition(0.0, 0.2, 0.5, 'continuous')):
        with pytest.raises(ValueError, match='depth is not a number'):
            surface_fraction(float('nan'), surface)
