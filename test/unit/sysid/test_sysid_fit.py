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
``fit``: recover known coefficients from simulated, noisy bags; refuse unexcited axes.

Bags are recorded like test_offline_tools: the simulator (the model under test is the
truth) is driven by a random piecewise-constant 6-DOF thrust profile, the thrust is
written on /thrust at every step and the odometry gets white noise (twist 0.005 m/s
and 0.01 rad/s, position 0.01 m, attitude 0.002 rad).
"""

import subprocess
import sys

from conftest import REPO
import numpy as np
import pytest
from uwv_hydro.description.loader import load_vehicle
from uwv_hydro.physics.body.dynamics import State
from uwv_hydro.physics.spatial.rotation import quat_multiply
from uwv_hydro.sysid import regressors
from uwv_hydro.sysid.bag_data import load_recording
from uwv_hydro.sysid.fit import fit_recording, FitOptions
from uwv_hydro.sysid.identifiability import IdentificationError

VEHICLE = REPO / 'config' / 'small_rov.yaml'
NOISE_TWIST = (0.005, 0.005, 0.005, 0.01, 0.01, 0.01)
#: Relative tolerances of the recovered coefficients (60 s bag, noise above).
TOLERANCE = {'added_mass': 0.03, 'quadratic': 0.05, 'linear': 0.10}
#: The rotational linear drag (0.07 N m s) is 5 % of the quadratic at 1 rad/s.
TOLERANCE_ROTATIONAL_LINEAR = 0.25


def run_cli(*args):
    return subprocess.run([sys.executable, '-m', 'uwv_hydro', *map(str, args)],
                          capture_output=True, text=True, cwd=str(REPO), timeout=300)


def record(params, path, axes=range(6), duration=60.0, dt=0.02, seed=0):
    """Simulate a random manoeuvre exciting ``axes``; write noisy odometry + thrust."""
    from uwv_hydro.modes.offline_simulation import simulate
    from uwv_hydro.bag.rosbag_io import BagWriter, MessageFactory, ODOMETRY, WRENCH
    from uwv_hydro.modes.thrust_profile import ThrustProfile
    rng = np.random.default_rng(seed)
    times = np.arange(0.0, duration, 1.5)
    wrenches = rng.uniform(-1, 1, (times.size, 6)) * [40, 40, 40, 1.5, 1.5, 1.5]
    wrenches[rng.uniform(size=wrenches.shape) < 0.25] = 0.0
    mask = np.zeros(6)
    mask[list(axes)] = 1.0
    profile = ThrustProfile(times, wrenches * mask)
    traj = simulate(params, duration, dt=dt, thrust=profile,
                    initial=State(position=[0.0, 0.0, -20.0]))
    n = traj.t.size
    twist = traj.twist + rng.standard_normal((n, 6)) * NOISE_TWIST
    position = traj.position + 0.01 * rng.standard_normal((n, 3))
    small = np.hstack([np.ones((n, 1)), 0.001 * rng.standard_normal((n, 3))])
    quat = np.array([quat_multiply(q, s / np.linalg.norm(s))
                     for q, s in zip(traj.quaternion, small)])
    factory = MessageFactory()
    with BagWriter(path, store=factory.store) as bag:
        for k, t in enumerate(traj.t):
            ns = int(round(t * 1e9))
            bag.write('/thrust', WRENCH, ns, factory.wrench(ns, '', profile(t)))
            bag.write('/odometry', ODOMETRY, ns, factory.odometry(
                ns, 'odom', 'base_link', position[k], quat[k], twist[k]))
    return traj


@pytest.fixture(scope='module')
def truth():
    return load_vehicle(str(VEHICLE))


@pytest.fixture(scope='module')
def full_bag(tmp_path_factory, truth):
    path = tmp_path_factory.mktemp('sysid') / 'full'
    record(truth, path)
    return path


def tolerance(c):
    if c.term == 'linear' and c.index[0] >= 3:
        return TOLERANCE_ROTATIONAL_LINEAR
    return TOLERANCE[c.term]


def test_fit_recovers_the_true_coefficients(full_bag, truth):
    rec = load_recording(full_bag, truth)
    result = fit_recording(rec, truth, FitOptions(), source=str(full_bag))
    assert len(result.estimates) == 18 and not result.kept
    rows = []
    for e in result.estimates:
        want = float(regressors.read(truth, [e.coefficient])[0])
        rel = abs(e.value - want) / want
        rows.append((e.coefficient.tag, want, e.value, e.half_width, rel))
        assert rel < tolerance(e.coefficient), rows[-1]
        # The stated 95 % interval is honest: the truth is within ~2 half-widths
        assert abs(e.value - want) < 2.5 * e.half_width + 1e-3 * want, rows[-1]
        assert e.half_width < tolerance(e.coefficient) * want
    print('\n'.join('%-20s true %9.4f fit %9.4f +- %7.4f (%.1f%%)' % (r[:4] + (100 * r[4],))
                    for r in rows))
    # Noise estimate, fit quality and the held-out validation
    np.testing.assert_allclose(result.velocity_noise, NOISE_TWIST, rtol=0.15)
    assert np.all(result.r_squared > 0.99)
    v, prior = result.validation, result.prior_validation
    assert v.recorded.t[0] == pytest.approx(0.7 * 60.0, abs=0.05)
    assert v.rms_position < 0.1 and v.rms_attitude_deg < 2.0
    assert v.rms_position < 2.0 * prior.rms_position + 0.01


def test_fit_cli_writes_a_loadable_description_and_plot(full_bag, truth, tmp_path):
    out = tmp_path / 'fitted.yaml'
    png = tmp_path / 'fit.png'
    proc = run_cli('fit', full_bag, '--vehicle', VEHICLE, '--terms', 'quadratic,added_mass',
                   '--out', out, '--plot', png)
    assert proc.returncode == 0, proc.stderr
    assert 'quadratic_drag.yyy' in proc.stdout and 'validation on the held-out' in proc.stdout
    fitted = load_vehicle(str(out))
    # Known terms kept, linear drag kept from the description, fitted terms close
    assert fitted.mass == truth.mass and fitted.buoyancy_mass == truth.buoyancy_mass
    np.testing.assert_array_equal(fitted.inertia, truth.inertia)
    np.testing.assert_array_equal(fitted.linear_drag, truth.linear_drag)
    np.testing.assert_allclose(np.diag(fitted.added_mass), np.diag(truth.added_mass),
                               rtol=TOLERANCE['added_mass'])
    for i in range(6):
        assert fitted.quadratic_drag[i, i, i] == pytest.approx(
            truth.quadratic_drag[i, i, i], rel=TOLERANCE['quadratic'])
    assert png.stat().st_size > 20000
    check = run_cli('check', out)
    assert check.returncode == 0, check.stderr


def test_unexcited_axes_are_refused_by_name(truth, tmp_path):
    bag = tmp_path / 'surge_heave'
    traj = record(truth, bag, axes=(0, 2), duration=30.0)
    assert np.max(np.abs(traj.twist[:, 1])) < 1e-9  # no sway at all
    proc = run_cli('fit', bag, '--vehicle', VEHICLE, '--terms', 'quadratic',
                   '--out', tmp_path / 'x.yaml')
    assert proc.returncode == 2
    assert 'cannot identify quadratic drag in sway (v): the bag has no sway motion ' \
           '(max |v| = ' in proc.stderr
    assert 'quadratic drag in yaw (r)' in proc.stderr
    assert 'quadratic drag in surge' not in proc.stderr
    assert not (tmp_path / 'x.yaml').exists()
    # With --keep-unidentified the unexcited axes keep the description's values
    rec = load_recording(bag, truth)
    with pytest.raises(IdentificationError):
        fit_recording(rec, truth, FitOptions(terms=('quadratic',)))
    result = fit_recording(rec, truth, FitOptions(terms=('quadratic',),
                                                  keep_unidentified=True))
    fitted = {e.coefficient.tag for e in result.estimates}
    kept = {p.coefficient.tag for p in result.kept}
    assert {'quadratic_drag.xxx', 'quadratic_drag.zzz'} <= fitted
    assert {'quadratic_drag.yyy', 'quadratic_drag.rrr', 'quadratic_drag.hhh'} <= kept
    for p in result.kept:
        idx = p.coefficient.index
        assert result.params.quadratic_drag[idx] == truth.quadratic_drag[idx]
    assert result.params.quadratic_drag[0, 0, 0] == pytest.approx(18.18, rel=0.05)
