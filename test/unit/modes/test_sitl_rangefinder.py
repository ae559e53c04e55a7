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
ArduPilot SITL's rangefinder (``rng_1``): the beam's range against the plane written out.

The range of a beam from p in unit direction d to the plane z = z0 + gx x + gy y is
t = (p_z - z0 - gx p_x - gy p_y) / (gx d_x + gy d_y - d_z); for a vehicle at height h
above a flat seabed pitched by theta, a beam straight down in the body reads
h / cos(theta).  The reply is read back by test/helpers/ardupilot_json_peer.py as SIM_JSON.cpp
reads ``rng_1`` (``atof`` into a float) and classified as AP_RangeFinder_SITL does.
"""
import math

from ardupilot_json_peer import parse, rangefinder_status
import numpy as np
import pytest

from uwv_hydro.modes.messages.sitl_json_packet import sensor_json
from uwv_hydro.modes.sitl_rangefinder import BeamRangefinder, NO_RETURN_MARGIN_M
from uwv_hydro.physics.environment.seabed import FlatSeabed, GridSeabed
from uwv_hydro.physics.spatial.rotation import quat_from_rpy, quat_to_matrix

Z0, GX, GY = -30.0, 0.1, -0.05
#: a plane is bilinear: the grid holds it exactly, and the cast meets it to rounding
#: (doc/guide/seabed.md: 5e-14 m); allowed 1e-9 m
TOL_M = 1e-9


def _plane_grid(z0=Z0, gx=GX, gy=GY, half=100.0, step=2.0):
    x = np.arange(-half, half + step / 2, step)
    xx, yy = np.meshgrid(x, x)
    return GridSeabed(z0 + gx * xx + gy * yy, -half, -half, step, step)


def _state(position, rpy):
    return np.concatenate([position, quat_from_rpy(*rpy), np.zeros(6)])


def _plane_range(p, d, z0=Z0, gx=GX, gy=GY):
    """Ray p + t d meets z = z0 + gx x + gy y at t = (p_z - z0 - gx p_x - gy p_y) / (...)."""
    return (p[2] - z0 - gx * p[0] - gy * p[1]) / (gx * d[0] + gy * d[1] - d[2])


def test_flat_seabed_down_beam_reads_height_over_cos_pitch():
    finder = BeamRangefinder(FlatSeabed(30.0), [0.0, 0.0, 0.0], [0.0, 0.0, -1.0], 100.0)
    h = 30.0 - 8.0  # vehicle 8 m deep over 30 m of water
    for pitch in (0.0, 0.1, -0.3, 0.6):
        x = _state([3.0, -4.0, -8.0], [0.0, pitch, 0.7])
        assert finder.reading(x) == pytest.approx(h / math.cos(pitch), abs=TOL_M)
    # rolled and pitched: h / (cos roll cos pitch), the beam's vertical component
    x = _state([0.0, 0.0, -8.0], [0.2, 0.3, -1.1])
    assert finder.reading(x) == pytest.approx(h / (math.cos(0.2) * math.cos(0.3)), abs=TOL_M)


def test_sloping_seabed_with_a_lever_arm_and_attitude():
    grid = _plane_grid()
    lever = np.array([0.2, -0.05, -0.15])
    direction = np.array([0.1, 0.0, -1.0])
    finder = BeamRangefinder(grid, lever, direction, 100.0)
    rng = np.random.default_rng(50)
    for _ in range(50):
        p = np.array([*rng.uniform(-60.0, 60.0, 2), rng.uniform(-20.0, -2.0)])
        rpy = rng.uniform(-0.5, 0.5, 3) * [1.0, 1.0, 2 * math.pi]
        x = _state(p, rpy)
        r = quat_to_matrix(quat_from_rpy(*rpy))
        start = p + r @ lever
        d = r @ direction / np.linalg.norm(direction)
        assert finder.reading(x) == pytest.approx(_plane_range(start, d), abs=TOL_M)


def test_no_return_reads_beyond_the_maximum_range():
    grid = _plane_grid()
    down = BeamRangefinder(grid, [0.0, 0.0, 0.0], [0.0, 0.0, -1.0], 10.0)
    no_return = 10.0 + NO_RETURN_MARGIN_M
    deep = _state([0.0, 0.0, -5.0], [0.0, 0.0, 0.0])  # 25 m above the seabed
    assert down.reading(deep) == no_return
    # beyond the grid's edge there is no seabed
    assert down.reading(_state([500.0, 0.0, -25.0], [0.0, 0.0, 0.0])) == no_return
    # upside down: the beam looks up
    assert down.reading(_state([0.0, 0.0, -25.0], [math.pi, 0.0, 0.0])) == no_return
    # in range: the height
    assert down.reading(_state([0.0, 0.0, -25.0], [0.0, 0.0, 0.0])) == pytest.approx(
        5.0, abs=TOL_M)
    # buried: 0, which ArduPilot reads out of range low (below RNGFND1_MIN)
    assert down.reading(_state([0.0, 0.0, -31.0], [0.0, 0.0, 0.0])) == 0.0


@pytest.mark.parametrize('direction, max_range, match', [
    ([0.0, 0.0, 0.0], 30.0, 'not a direction'),
    ([math.nan, 0.0, -1.0], 30.0, 'not a direction'),
    ([0.0, 0.0, -1.0], 0.0, 'maximum range'),
    ([0.0, 0.0, -1.0], 1000.0, 'maximum range'),
])
def test_bad_beam_is_refused(direction, max_range, match):
    with pytest.raises(ValueError, match=match):
        BeamRangefinder(FlatSeabed(30.0), [0.0, 0.0, 0.0], direction, max_range)


def test_rng_1_in_the_reply_as_ardupilot_reads_it():
    values = (1.5, [0.0, 0.0, 0.0], [0.0, 0.0, -9.8], [1.0, 2.0, 8.0], [1.0, 0.0, 0.0, 0.0],
              [0.0, 0.0, 0.0])
    plain, _ = parse(sensor_json(*values))
    assert not any(key.startswith('rng_') for key in plain)
    distance = 21.987654321
    text = sensor_json(*values, (distance,))
    assert text.decode().count('rng_') == 1 and '"rng_1":' in text.decode()
    state, _ = parse(text)
    # SIM_JSON.cpp stores rng_1 as a float: within half an ulp of single precision
    assert state['rng_1'] == pytest.approx(distance, rel=2.0 ** -24)
    assert state['position'] == values[3]  # the other keys still found
    # the no-return reading is out of range high for RNGFND1_MAX = the beam's range
    assert rangefinder_status(parse(sensor_json(*values, (31.0,)))[0]['rng_1'], 0.2,
                              30.0) == 'out_of_range_high'
    assert rangefinder_status(state['rng_1'], 0.2, 30.0) == 'good'
    with pytest.raises(ValueError, match='rng_1 .. rng_6'):
        sensor_json(*values, [1.0] * 7)
