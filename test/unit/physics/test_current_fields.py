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

"""Current fields: gz-sim grid interpolation by hand, uuv Gauss-Markov statistics, files."""
import warnings

import numpy as np
import pytest

from uwv_hydro.description.current_file import load_current_file
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.physics.environment.current_field import DepthProfileCurrent, TidalCurrent
from uwv_hydro.physics.environment.gauss_markov_current import (
    GaussMarkovCurrent, GaussMarkovProcess)

#: corner values of v_x on the cell x in {0, 2}, y in {0, 4}, z in {-1, 0} at t = 0
CORNERS = {(0, 0, -1): 1.0, (2, 0, -1): 3.0, (0, 4, -1): 5.0, (2, 4, -1): 9.0,
           (0, 0, 0): 2.0, (2, 0, 0): 2.0, (0, 4, 0): 6.0, (2, 4, 0): 10.0}


def _csv(tmp_path, drop=(), extra=''):
    """Write the grid at t = 0 and, all values + 1, at t = 10 s; return the YAML path."""
    lines = ['t,x,y,z,vx,vy']
    for t, offset in ((0, 0.0), (10, 1.0)):
        for (x, y, z), v in CORNERS.items():
            if (t, x, y, z) not in drop:
                lines.append('%d,%d,%d,%d,%r,%r' % (t, x, y, z, v + offset, -2.0 * v))
    (tmp_path / 'c.csv').write_text('\n'.join(lines) + '\n')
    path = tmp_path / 'c.yaml'
    path.write_text('current:\n  type: csv\n  data: c.csv\n  lookup_current_x: vx\n'
                    '  lookup_current_y: vy\n' + extra)
    return str(path)


def test_grid_trilinear_interpolation_by_hand(tmp_path):
    field, warnings = load_current_file(_csv(tmp_path))
    assert warnings == []
    s = field.sample([0.5, 1.0, -0.25], 0.0)
    # wx = 0.25, wy = 0.25, wz = 0.75.  z = -1: y = 0: 1 + 0.25 (3 - 1) = 1.5;
    # y = 4: 5 + 0.25 (9 - 5) = 6; in y: 1.5 + 0.25 (6 - 1.5) = 2.625.
    # z = 0: 2 + 0 = 2 and 6 + 0.25 (10 - 6) = 7; in y: 2 + 0.25 (7 - 2) = 3.25.
    # in z: 2.625 + 0.75 (3.25 - 2.625) = 3.09375
    assert abs(s.velocity[0] - 3.09375) < 1e-12
    assert abs(s.velocity[1] + 2.0 * 3.09375) < 1e-12   # vy = -2 vx everywhere
    assert s.velocity[2] == 0.0                          # no lookup_current_z: zero
    # d vx/dx: z = -1: 0.75 (3 - 1)/2 + 0.25 (9 - 5)/2 = 1.25; z = 0: 0.25 (10 - 6)/2 = 0.5;
    # in z: 0.25 1.25 + 0.75 0.5 = 0.6875
    assert abs(s.gradient[0, 0] - 0.6875) < 1e-12
    # d vx/dz: 3.25 - 2.625 over 1 m
    assert abs(s.gradient[0, 2] - 0.625) < 1e-12
    # a quarter of the way to t = 10 s: + 0.25, slope 1/10 per s
    s = field.sample([0.5, 1.0, -0.25], 2.5)
    assert abs(s.velocity[0] - 3.34375) < 1e-12
    assert abs(s.rate[0] - 0.1) < 1e-12 and abs(s.rate[1]) < 1e-12
    # the last time is the last slice
    assert abs(field.velocity([0.5, 1.0, -0.25], 10.0)[0] - 4.09375) < 1e-12


def test_grid_edges_as_gz_math_finds_them(tmp_path):
    field, _ = load_current_file(_csv(tmp_path))
    # within 1e-6 of a grid value: that value (AxisIndex tolerance)
    assert field.velocity([2.0 - 5e-7, 0.0, -1.0], 0.0)[0] == 3.0
    assert field.velocity([2.0, 4.0, 0.0], 0.0)[0] == 10.0
    # out of the field (std::map::lower_bound past the last value) or time: zero
    for point, t in (([2.0 + 1e-9, 1.0, -0.5], 0.0), ([-0.1, 1.0, -0.5], 0.0),
                     ([1.0, 1.0, 0.5], 0.0), ([1.0, 1.0, -0.5], -1.0),
                     ([1.0, 1.0, -0.5], 10.5)):
        assert not np.any(field.velocity(point, t)), (point, t)
    assert field.misses['out_of_field'] == 3 and field.misses['out_of_time'] == 2


def test_grid_hole_reads_zero_with_a_warning(tmp_path):
    field, warnings = load_current_file(_csv(tmp_path, drop={(0, 2, 4, 0)}))
    assert any('1 grid points have no row' in w for w in warnings), warnings
    assert field.velocity([2.0, 4.0, 0.0], 0.0)[0] == 0.0
    # half way to the hole from (0, 4, 0) (value 6): 3
    assert abs(field.velocity([1.0, 4.0, 0.0], 0.0)[0] - 3.0) < 1e-12


def test_grid_single_slice_is_static_and_single_axis_value_warned(tmp_path):
    (tmp_path / 'p.csv').write_text('t,x,y,z,cx\n0,0,0,0,0.5\n0,1,0,0,1.5\n')
    path = tmp_path / 'p.yaml'
    path.write_text('current: {type: csv, data: p.csv, lookup_current_x: cx}\n')
    field, warnings = load_current_file(str(path))
    assert any('one time' in w for w in warnings)
    assert any('one y value' in w for w in warnings)
    assert any('one z value' in w for w in warnings)
    assert abs(field.velocity([0.25, 0.0, 0.0], 123.0)[0] - 0.75) < 1e-12
    assert not np.any(field.velocity([0.25, 1e-3, 0.0], 0.0))


def test_a_grid_current_beyond_the_bound_names_its_csv_line(tmp_path):
    path = _csv(tmp_path)
    csv_path = tmp_path / 'c.csv'
    lines = csv_path.read_text().split('\n')
    lines[5] = lines[5].rsplit(',', 2)[0] + ',-1e300,' + lines[5].rsplit(',', 1)[1]
    csv_path.write_text('\n'.join(lines))
    with pytest.raises(DescriptionError) as err:
        load_current_file(path)
    assert err.value.source == str(csv_path) and err.value.line == 6, err.value
    assert "column 'vx': a current component of -1e+300 m/s" in err.value.reason


def test_grid_values_closer_than_the_lookup_tolerance_give_no_gradient(tmp_path):
    """
    Grid values x = 0 and 1e-320 (times 0 and 1e-320): one point to gz-math's lookup.

    The slope across such a cell, 1 / 1e-320, overflowed: the gradient and the rate
    were NaN and simulate restored every step.  Now the file loads with a warning and,
    at x = 0, the velocity is the grid's and the gradient the cell above's in y and z,
    0 in x (no cell is resolved there); the rate between the two times is 0.
    """
    (tmp_path / 'p.csv').write_text(
        't,x,y,z,cx\n'
        '0,0,0,-1,1.0\n0,1e-320,0,-1,2.0\n0,1,0,-1,3.0\n0,0,1,-1,4.0\n0,1e-320,1,-1,5.0\n'
        '0,1,1,-1,6.0\n0,0,0,0,1.5\n0,1e-320,0,0,2.5\n0,1,0,0,3.5\n0,0,1,0,4.5\n'
        '0,1e-320,1,0,5.5\n0,1,1,0,6.5\n'
        '1e-320,0,0,-1,9.0\n1e-320,0,0,0,9.0\n')
    path = tmp_path / 'p.yaml'
    path.write_text('current: {type: csv, data: p.csv, lookup_current_x: cx}\n')
    with warnings.catch_warnings():
        warnings.simplefilter('error')  # no overflow in numpy either
        field, notes = load_current_file(str(path))
        sample = field.sample([0.0, 0.0, -1.0], 0.0)
    assert sum("closer than gz-math's 1e-6 lookup tolerance" in w for w in notes) == 2, notes
    assert sample.velocity[0] == pytest.approx(1.0, abs=1e-12)
    assert sample.gradient[0, 0] == 0.0  # across x = 0 .. 1e-320
    assert sample.gradient[0, 1] == pytest.approx(4.0 - 1.0, abs=1e-12)  # y: 0 -> 1
    assert sample.gradient[0, 2] == pytest.approx(1.5 - 1.0, abs=1e-12)  # z: -1 -> 0
    assert np.all(np.isfinite(sample.rate)) and not np.any(sample.rate)


@pytest.mark.parametrize('text, key, reason', [
    ('current: {type: csv, data: c.csv, lookup_current_x: vx, lookup_curent_y: vy}',
     'current.lookup_curent_y', "did you mean 'lookup_current_y'"),
    ('current: {type: csv, data: c.csv, lookup_current_x: vx, dimensions: {space: '
     '{reference: spherical}}}', 'current.dimensions.space.reference', "only 'global'"),
    ('current: {type: tide}', 'current.type', "'table' and/or 'constituents'"),
    ('current: {type: profile, profile: [[0, 1, 0, 0], [0, 2, 0, 0]]}', 'current.profile[1]',
     'row 2 (0) follows 0'),
    ('current: {type: gauss_markov, velocity: {mean: 2.0, min: 0.0, max: 1.0}}',
     'current.velocity', 'mean (2) must lie in'),
    ('current: {type: gauss_markov, velocity: {mean: 0.5, mu: 1.5}}', 'current.velocity',
     'mu (1.5) must be in [0, 1)'),
    ('current: {type: eddy}', 'current.type', 'must be one of'),
    # a current beyond +-100 m/s (the node's current parameter bound): absurd, and 1e300
    # made simulate go non-finite at every step
    ('current: {type: constant, velocity: [0.3, -1.0e+300, 0]}', 'current.velocity',
     'a current component of -1e+300 m/s: beyond +-100 m/s'),
    ('current: {type: profile, profile: [[0, 1, 0, 0], [10, 0, 0, 101]]}', 'current.profile',
     'a current component of 101 m/s'),
    ('current: {type: tide, table: [[0, 0, 0, 0], [60, 1, 0, 0]], mean: [150, 0, 0]}',
     'current.mean', 'a current component of 150 m/s'),
    ('current: {type: tide, constituents: [{amplitude: [0, 0, 1.0e+5], period: 60}]}',
     'current.constituents[0].amplitude', 'a current component of 100000 m/s'),
    ('current: {type: gauss_markov, velocity: {mean: 0.5, min: 0.0, max: 1.0e+9}}',
     'current.velocity.max', 'a current component of 1e+09 m/s'),
])
def test_bad_current_files_name_the_key(tmp_path, text, key, reason):
    _csv(tmp_path)
    path = tmp_path / 'bad.yaml'
    path.write_text(text + '\n')
    with pytest.raises(DescriptionError) as err:
        load_current_file(str(path))
    assert err.value.element == key and reason in err.value.reason, err.value
    assert err.value.source == str(path) and err.value.line == 1


def test_profile_depth_not_increasing_names_the_row_line(tmp_path):
    path = tmp_path / 'bad.yaml'
    path.write_text('current:\n  type: profile\n  profile:\n    - [0, 1, 0, 0]\n'
                    '    - [10, 1, 0, 0]\n    - [5, 2, 0, 0]\n')
    with pytest.raises(DescriptionError) as err:
        load_current_file(str(path))
    # the third row, on line 6, not the 'profile:' key on line 3
    assert err.value.line == 6 and err.value.element == 'current.profile[2]', err.value
    assert 'row 3 (5) follows 10' in err.value.reason


def test_bad_csv_value_names_the_line(tmp_path):
    path = _csv(tmp_path)
    text = (tmp_path / 'c.csv').read_text().splitlines()
    text[3] = 'zero' + text[3][1:]          # the t column of line 4
    (tmp_path / 'c.csv').write_text('\n'.join(text) + '\n')
    with pytest.raises(DescriptionError) as err:
        load_current_file(path)
    assert err.value.line == 4 and 'not a number' in err.value.reason


def test_missing_lookup_column_is_zero_with_a_warning(tmp_path):
    path = _csv(tmp_path, extra='  lookup_current_z: vz\n')
    field, warnings = load_current_file(path)
    assert any("no column 'vz'" in w for w in warnings)
    assert field.velocity([1.0, 1.0, -0.5], 0.0)[2] == 0.0


def test_depth_profile_and_tide_by_hand():
    profile = DepthProfileCurrent([0.0, 10.0, 30.0], [[1, 0, 0], [0.5, 0.2, 0], [0, 0, 0]])
    s = profile.sample([5.0, 5.0, -20.0], 0.0)    # depth 20: half way from 10 to 30 m
    assert np.allclose(s.velocity, [0.25, 0.1, 0.0], rtol=0, atol=1e-15)
    # dv/dz = -dv/dd = -(0 - [0.5, 0.2, 0]) / 20
    assert np.allclose(s.gradient[:, 2], [0.025, 0.01, 0.0], rtol=0, atol=1e-15)
    assert np.array_equal(profile.velocity([0, 0, -100.0], 0.0), [0, 0, 0])  # below: holds
    assert not np.any(profile.sample([0, 0, -100.0], 0.0).gradient)
    tide = TidalCurrent([0.0, 100.0], [[0.2, 0, 0], [-0.2, 0, 0]], mean=[0, 0.1, 0])
    s = tide.sample([0, 0, 0], 25.0)
    assert np.allclose(s.velocity, [0.1, 0.1, 0.0], rtol=0, atol=1e-15)
    assert np.allclose(s.rate, [-0.004, 0, 0], rtol=0, atol=1e-15)


def _speed(mean=0.5, low=-10.0, high=10.0, mu=0.5, noise=0.5):
    return GaussMarkovProcess(mean, low, high, mu, noise)


def test_gauss_markov_stationary_mean_and_variance():
    """
    Check the AR(1) statistics of uuv's process.

    x' = a x + b (U - 1/2), a = 1 - mu dt = 0.9 (mu 0.5/s, dt 0.2 s), b = 0.5: stationary
    mean 0 (uuv's process decays to 0, not to its ``mean``) and variance
    b^2 / 12 / (1 - a^2); its bounds (+-10, 30 sigma) never act.
    """
    dt, n, every = 0.2, 50_000, 4
    field = GaussMarkovCurrent(_speed(), update_period=dt, seed=7)
    field.sample([0, 0, 0], 0.0)                 # its clock starts at the first sample
    values = np.empty(n)
    for k in range(n):
        # every 4th of 200 000 updates (the field runs the updates due in between)
        values[k] = field.sample([0, 0, 0], (k + 1) * every * dt).velocity[0]
    assert field.updates == n * every
    a, b = 1.0 - 0.5 * dt, 0.5
    variance = b * b / 12.0 / (1.0 - a * a)
    c = a ** every                               # correlation of the samples kept
    tail = values[250:]                          # a^1000: the start value forgotten
    # standard error of an AR(1) mean: sqrt(var (1 + c) / (1 - c) / N) = 0.0033
    assert abs(tail.mean()) < 5 * np.sqrt(variance * (1 + c) / (1 - c) / len(tail))
    # relative standard error of its variance: sqrt(2 (1 + c^2) / (1 - c^2) / N) = 0.010
    assert abs(tail.var() / variance - 1.0) < 0.05, (tail.var(), variance)
    # lag autocorrelation a^4
    assert abs(np.corrcoef(tail[:-1], tail[1:])[0, 1] - c) < 0.02


def test_gauss_markov_mean_decays_from_its_start_value():
    """E[x_k] = a^k mean over independent seeds (uuv: var = (1 - step mu) var + noise)."""
    dt, k = 0.2, 10
    ends = []
    for seed in range(2000):
        field = GaussMarkovCurrent(_speed(), update_period=dt, seed=seed)
        field.sample([0, 0, 0], 100.0)          # the first sample starts its clock
        ends.append(field.sample([0, 0, 0], 100.0 + k * dt).velocity[0])
    a = 1.0 - 0.5 * dt
    # std of x_10 <= sqrt(b^2/12/(1-a^2)) = 0.33 over sqrt(2000) seeds: 0.0074
    assert abs(np.mean(ends) - a ** k * 0.5) < 0.035


def test_gauss_markov_bounds_angles_rate_and_seed():
    dt = 0.01
    speed = GaussMarkovProcess(0.5, 0.4, 0.6, 0.0, 0.9)
    angle = GaussMarkovProcess(0.3, -1.0, 1.0, 0.0, 0.0)     # constant 0.3 rad
    tilt = GaussMarkovProcess(-0.2, -1.0, 1.0, 0.0, 0.0)     # constant -0.2 rad
    field = GaussMarkovCurrent(speed, angle, tilt, update_period=dt, seed=3)
    vel = np.array([field.sample([0, 0, 0], k * dt).velocity for k in range(2001)])
    mag = np.linalg.norm(vel, axis=1)
    assert mag.min() >= 0.4 - 1e-15 and mag.max() <= 0.6 + 1e-15
    assert np.sum(np.abs(mag - 0.4) < 1e-12) > 10 and np.sum(np.abs(mag - 0.6) < 1e-12) > 10
    # V [cos h cos a, sin h cos a, sin a] with h = 0.3, a = -0.2
    unit = np.array([np.cos(0.3) * np.cos(-0.2), np.sin(0.3) * np.cos(-0.2), np.sin(-0.2)])
    assert np.max(np.abs(vel - mag[:, None] * unit)) < 1e-15
    # stepped at its own rate: the updates due at t, whatever the sampling
    field.sample([0, 0, 0], 0.0495)
    assert field.updates == 4
    # the same seed, the same series (its clock from its first sample); time going back
    # replays it
    again = GaussMarkovCurrent(GaussMarkovProcess(0.5, 0.4, 0.6, 0.0, 0.9), angle, tilt,
                               update_period=dt, seed=3)
    again.sample([0, 0, 0], 1e6)
    assert np.array_equal(again.sample([0, 0, 0], 1e6 + 20 * dt).velocity, vel[20])
    assert np.array_equal(field.sample([0, 0, 0], 20 * dt).velocity, vel[20])
    other = GaussMarkovCurrent(GaussMarkovProcess(0.5, 0.4, 0.6, 0.0, 0.9), angle, tilt,
                               update_period=dt, seed=4)
    other.sample([0, 0, 0], 0.0)
    assert not np.array_equal(other.sample([0, 0, 0], 20 * dt).velocity, vel[20])


def test_missing_time_column_is_named(tmp_path):
    path = _csv(tmp_path, extra='  dimensions: {time: seconds}\n')
    with pytest.raises(DescriptionError) as err:
        load_current_file(path)
    assert "no column 'seconds'" in err.value.reason and err.value.element == 'current.data'


def test_grid_axis_snap_reaches_below_an_axis_never_above():
    """gz-math AxisIndex: lower_bound with a 1e-6 tolerance snaps from below only."""
    from uwv_hydro.physics.environment.current_grid import GridCurrent
    pts = [(x, y, z) for x in (0.0, 10.0) for y in (0.0, 10.0) for z in (-10.0, 0.0)]
    vals = [(0.1 + 0.01 * x, 0.0, 0.0) for x, y, z in pts]
    field = GridCurrent(np.zeros(len(pts)), pts, vals, static_time=True)
    # 0.5e-6 below the lowest x: the grid value x = 0 (0.1 m/s)
    assert abs(field.velocity([-0.5e-6, 5.0, -5.0], 0.0)[0] - 0.1) < 1e-12
    # 2e-6 below it, or 1e-9 above the highest x: out of the field, 0
    assert not np.any(field.velocity([-2e-6, 5.0, -5.0], 0.0))
    assert not np.any(field.velocity([10.0 + 1e-9, 5.0, -5.0], 0.0))
    # the top value itself is inside (0.2 m/s)
    assert abs(field.velocity([10.0, 5.0, -5.0], 0.0)[0] - 0.2) < 1e-12
