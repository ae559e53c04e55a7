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
Mutation fuzzing of the files kept in the repository, through ``check`` and ``wrench``.

Every description under config/, urdf/, worlds/ and test/corpus/ is copied to a
temporary tree and mutated in place (numbers and YAML leaves set to NaN, inf, huge,
400-digit integers, wrong types or nothing; lines deleted or duplicated; bytes
damaged), so includes and relative paths still resolve.  Each mutant must either
load, and then give a finite wrench, or be refused with exit 2 and an error naming
the file -- never a traceback.  Regression tests below hold the minimal inputs of
the tracebacks such fuzzing found.
"""

from contextlib import redirect_stderr, redirect_stdout
import io
import json
import math
import pathlib
import re
import shutil
import warnings

from hypothesis import given, HealthCheck, settings, strategies as st
import numpy as np
import pytest
from required_modules import require

from uwv_hydro.cli.main import main
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.loader import load_vehicle
from uwv_hydro.modes.offline_simulation import simulate
from uwv_hydro.physics.hydro.hydro_model import HydroModel

REPO = pathlib.Path(__file__).resolve().parents[3]
TREES = ('config', 'urdf', 'worlds', 'test/corpus')
#: Not vehicle descriptions (node, bridge and ros2_control settings).
NOT_VEHICLES = {'gz_bridge.yaml', 'node_defaults.yaml', 'ros2_control_remus100.yaml',
                'model.config'}
NUMBER = re.compile(r'(?<![\w.])-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?')
LEAVES = ['nan', '.nan', '.inf', '-.inf', 'inf', '-inf', '1e309', '1e300', '-1e300', '1e200',
          '1e-320', '0', '-0', '', '~', 'null', 'abc', '"1"', '[]', '{}', '[1, 2]', 'true',
          '9' * 400, '-' + '9' * 400, '0x10', '1,2']
DAMAGE = ['<', '>', '"', "'", ':', '-', '\x00', ' ', '0']


def _corpus(root: pathlib.Path):
    return sorted(str(p.relative_to(root)) for tree in TREES for p in (root / tree).rglob('*')
                  if p.is_file() and p.name not in NOT_VEHICLES and not p.name.startswith('.')
                  and p.suffix in ('.yaml', '.urdf', '.xacro', '.sdf'))


FILES = _corpus(REPO)


@pytest.fixture(scope='module')
def tree(tmp_path_factory):
    """Copy the corpus for the mutants; its gz models resolve as model://NAME."""
    root = tmp_path_factory.mktemp('fuzz')
    for sub in TREES:
        shutil.copytree(REPO / sub, root / sub, ignore=shutil.ignore_patterns('.*'))
    with pytest.MonkeyPatch.context() as env:
        for variable in ('IGN_GAZEBO_RESOURCE_PATH', 'SDF_PATH', 'GAZEBO_MODEL_PATH'):
            env.delenv(variable, raising=False)
        env.setenv('GZ_SIM_RESOURCE_PATH', str(root / 'test/corpus/gz_sim/models'))
        yield root


def mutate(text: str, data) -> str:
    """Apply one or two mutations of the kinds the outside fuzzing used."""
    for _ in range(data.draw(st.integers(1, 2), label='mutations')):
        kind = data.draw(st.sampled_from(['leaf', 'leaf', 'leaf', 'delete', 'duplicate',
                                          'byte']), label='kind')
        lines = text.split('\n')
        if kind == 'leaf':
            spans = [m.span() for m in NUMBER.finditer(text)]
            if spans:
                a, b = data.draw(st.sampled_from(spans), label='number')
                text = text[:a] + data.draw(st.sampled_from(LEAVES), label='leaf') + text[b:]
        elif kind == 'delete':
            del lines[data.draw(st.integers(0, len(lines) - 1), label='line')]
            text = '\n'.join(lines)
        elif kind == 'duplicate':
            i = data.draw(st.integers(0, len(lines) - 1), label='line')
            text = '\n'.join(lines[:i + 1] + lines[i:])
        else:
            i = data.draw(st.integers(0, max(len(text) - 1, 0)), label='offset')
            text = text[:i] + data.draw(st.sampled_from(DAMAGE), label='byte') + text[i + 1:]
    return text


def run(argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def test_the_corpus_is_found_and_loads(tree):
    assert len(FILES) >= 20, FILES
    for name in FILES:
        assert run(['check', str(tree / name)])[0] == 0, name


@settings(max_examples=1200, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_mutant_loads_with_a_finite_wrench_or_is_refused_naming_the_file(tree, data):
    name = data.draw(st.sampled_from(FILES), label='file')
    original = tree / name
    mutant = original.with_name('mutant_' + original.name)  # beside it: includes resolve
    mutant.write_text(mutate(original.read_text(), data))
    try:
        code, _, err = run(['check', str(mutant)])
        assert code in (0, 2)
        if code == 2:
            assert err.startswith('error: ') and str(mutant) in err, err
            return
        code, out, err = run(['wrench', str(mutant), '--json',
                              '--velocity', '1', '0.2', '-0.1', '0.1', '-0.2', '0.3'])
        assert code == 0, err  # what check accepts, wrench evaluates
        result = json.loads(out)
        values = result['total'] + [v for c in result['components'].values() for v in c]
        assert all(math.isfinite(v) for v in values), result
    finally:
        mutant.unlink()


def _quiet(load, path: pathlib.Path, old: str, new: str):
    """Run ``load`` on a copy of ``path`` with ``old`` replaced by ``new``; no warnings."""
    text = path.read_text()
    assert old in text
    copy = path.with_name('regression_' + path.name)
    copy.write_text(text.replace(old, new, 1))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('error')  # a RuntimeWarning from numpy fails the test
            return load(str(copy)), str(copy)
    finally:
        copy.unlink()


def _error(path: str):
    try:
        load_vehicle(path)
    except DescriptionError as exc:
        return exc
    raise AssertionError('loaded')


def _refused(path: pathlib.Path, old: str, new: str) -> DescriptionError:
    """Load ``path`` with ``old`` replaced by ``new``; return the error naming the copy."""
    error, copy = _quiet(_error, path, old, new)
    assert error.source == copy, error
    return error


def test_a_400_digit_yaml_integer_is_refused_with_key_and_line(tree):
    # was OverflowError: int too large to convert to float
    path = tree / 'config' / 'small_rov.yaml'
    error = _refused(path, 'mass: 11.5', 'mass: ' + '9' * 400)
    assert error.line == path.read_text().split('\n').index('      mass: 11.5') + 1
    assert error.element == 'mass' and '400 digits' in error.reason


def test_a_400_digit_integer_in_a_sensor_block_is_refused(tree):
    # was OverflowError: int too large to convert to float, in the sensor reader
    path = tree / 'config' / 'ardusub_bluerov2_heavy.yaml'
    error = _refused(path, 'max_altitude: 50.0', 'max_altitude: ' + '9' * 400)
    assert error.line == path.read_text().split('\n').index(
        '            max_altitude: 50.0') + 1
    assert error.element == 'max_altitude' and 'too large to be a number' in error.reason


def test_an_offset_whose_mass_matrix_overflows_is_refused(tree):
    # was LinAlgError: Eigenvalues did not converge (M_RB with m r^2 = inf)
    error = _refused(tree / 'test' / 'corpus' / 'dsros_rounded_pair.urdf',
                     '<origin xyz="0 0 0" rpy="0 0 0"/>',
                     '<origin xyz="1e300 0 0" rpy="0 0 0"/>')
    assert 'not finite' in error.reason


def test_a_fin_with_a_huge_forward_keeps_its_direction(tree):
    # first ValueError in wrench (|forward|^2 overflows), then a refusal with numpy's
    # overflow warnings printed before it; a fin's forward is a direction (gz LiftDrag
    # normalises it): 1e200 0 0 flies as 1 0 0
    old = '<cp>0.05 0 0</cp><forward>1 0 0</forward>'
    path = tree / 'test' / 'corpus' / 'gz_sim' / 'finned_auv.sdf'
    params, _ = _quiet(load_vehicle, path, old, old.replace('1 0 0', '1e200 0 0'))
    reference = load_vehicle(str(path))
    fins = {fin.name: fin for fin in params.fins}
    assert np.allclose(fins['keel'].forward, [1.0, 0.0, 0.0], atol=1e-15)
    twist = [1.0, 0.2, -0.1, 0.1, -0.2, 0.3]
    ours, theirs = (np.asarray(HydroModel(p).wrench(
        twist, fin_angles=np.full(len(p.fins), 0.1)).total) for p in (params, reference))
    assert np.allclose(ours, theirs, rtol=1e-12, atol=1e-12 * np.abs(theirs).max())


def test_a_collision_volume_that_overflows_is_refused(tree):
    # was OverflowError: (34, 'Numerical result out of range') for r ** 3
    error = _refused(tree / 'test' / 'corpus' / 'gz_sim' / 'two_link_auv.sdf',
                     '<sphere><radius>0.08</radius></sphere>',
                     '<sphere><radius>1e300</radius></sphere>')
    assert 'volume' in error.reason and error.line


def test_a_fin_whose_force_overflows_is_refused_at_load(tree):
    # was loaded by check, then wrench at 1 m/s: the fins wrench overflows (cp 1e300 m)
    error = _refused(tree / 'urdf' / 'remus100.urdf', '<cp>0 0 0</cp>', '<cp>1e300 0 0</cp>')
    assert 'not finite' in error.reason and error.element.startswith('fin ')


def test_a_fin_whose_moment_overflows_is_refused_at_load(tree):
    # was loaded by check, then wrench: the fins wrench overflows (r x F, r = 1e150 m)
    error = _refused(tree / 'test' / 'corpus' / 'uuv_simulator' / 'lauv_like.urdf.xacro',
                     '<origin xyz="-0.9 0 0" rpy="${rpy}"/>',
                     '<origin xyz="-0.9 -1e150 0" rpy="${rpy}"/>')
    assert 'not finite' in error.reason and error.element.startswith('fin ')


# Found by mutating uuv_simulator's own xacros (rexrov, rexrov2, lauv, eca_a9, desistek_saga,
# with their sensor, thruster and fin macros) and by running ``simulate`` on mutants of the
# files kept here: numpy's overflow warnings printed before a refusal, refusals that named
# no link, and mutants check accepted that simulate then refused with a traceback.

def test_a_link_whose_offset_overflows_the_lumped_inertia_is_named(tree):
    # was: RuntimeWarning overflow in rigid_lumping, then 'inertia: non-finite number in
    # inertia' with no link named (an ordinary link's offset from the displaced centre
    # of mass overflows first)
    error = _refused(tree / 'test' / 'corpus' / 'uuv_simulator' / 'arm_vehicle_like.urdf',
                     '<origin xyz="0.2 0 0" rpy="0 0 0"/>',
                     '<origin xyz="0.2 0 1e300" rpy="0 0 0"/>')
    assert "link[@name='arm_link']" in error.element, error
    assert 'overflows the float range' in error.reason and error.line


def test_a_thrust_axis_beyond_float_range_is_still_a_direction(tree):
    # was: RuntimeWarning overflow in norm, then "expected a unit vector, norm 0";
    # sdformat and urdfdom normalise an axis, so xyz="1e300 0 0" is +x
    params, _ = _quiet(load_vehicle, tree / 'test' / 'corpus' / 'uuv_simulator' /
                       'lauv_like.urdf.xacro', '<axis xyz="1 0 0"/>\n    <parent',
                       '<axis xyz="1e300 0 0"/>\n    <parent')
    (spec,) = params.thrusters
    assert np.allclose(spec.axis, [1.0, 0.0, 0.0], atol=1e-15)


def test_a_vanishing_mass_is_refused_at_load_not_by_simulate(tree):
    # was accepted by check (its smallest eigenvalue 1e-320 > 0), then simulate raised
    # ValueError: the mass matrix M_RB + M_A is singular or not finite
    error = _refused(tree / 'test' / 'corpus' / 'ds_sim' / 'nested_gazebo_plate.urdf',
                     '<mass value="20.0"/>', '<mass value="1e-320"/>')
    assert 'singular to working precision' in error.reason and error.element == 'mass'


def test_a_nameless_joint_is_refused_as_urdfdom_does(tree):
    # was accepted as joint '' (here with a 1e300 axis that then became [0, 0, 0]), and
    # simulate raised ValueError in the multibody
    error = _refused(tree / 'test' / 'corpus' / 'uuv_simulator' / 'arm_vehicle_like.urdf',
                     '<joint name="shoulder" type="revolute">', '<joint type="revolute">')
    assert error.reason == 'a <joint> needs a name' and error.line


def test_a_moving_joint_axis_beyond_float_range_is_a_direction_and_simulates(tree):
    require('pinocchio')
    # was: the tree kept the axis [0, 0, 0] (1e300 / inf) and simulate raised ValueError
    params, _ = _quiet(load_vehicle, tree / 'test' / 'corpus' / 'uuv_simulator' /
                       'arm_vehicle_like.urdf', '<axis xyz="0 1 0"/>',
                       '<axis xyz="0 1e300 0"/>')
    (joint,) = params.tree.joints
    assert np.allclose(joint.axis, [0.0, 1.0, 0.0], atol=1e-15)
    trajectory = simulate(params, 0.05, dt=0.01)
    assert np.all(np.isfinite(trajectory.rows()))


def test_a_world_gravity_beyond_float_range_squared_is_read_quietly(tree):
    # was: RuntimeWarning overflow in norm (|g|^2 = 1e600) printed, gravity inf
    params, _ = _quiet(load_vehicle, tree / 'test' / 'corpus' / 'gz_sim' /
                       'rudder_arm_like.sdf', '<gravity>0 0 -9.81</gravity>',
                       '<gravity>0 0 1e300</gravity>')
    assert params.gravity == pytest.approx(1e300, rel=1e-15)
