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
Every number option of every command is bounded where its work would overflow (issue 51).

Each option gets a huge (1e308, 1e15) or tiny (1e-300) finite value on the real command
line: it is refused with exit code 2 naming the option, the value and the bound, never a
traceback, a NaN figure or an allocation of petabytes.  The option parsers are checked
over all floats: each returns its value within its bounds or refuses it.
"""
import argparse
import math
import pathlib
import subprocess
import sys

from hypothesis import given, settings, strategies as st
import pytest

from uwv_hydro.cli import number_options
from uwv_hydro.cli.main import main
from uwv_hydro.description import overflow_bounds as bounds

REPO = pathlib.Path(__file__).resolve().parents[3]
REMUS = str(REPO / 'config' / 'remus100.yaml')
ROV = str(REPO / 'config' / 'bluerov2.yaml')
NOWHERE = '/dev/null/never'  # nothing can be written there, should a run start
SIM = ['simulate', REMUS, '--out', NOWHERE + '.csv']
WRENCH = ['wrench', REMUS, '--velocity', '1', '0', '0', '0', '0', '0']
FIT = ['fit', 'no_bag', '--vehicle', REMUS, '--out', NOWHERE + '.yaml']
REPLAY = ['replay', 'no_bag', '--vehicle', REMUS, '--out', NOWHERE]

#: (command line before the option, the option, its values, the bound named)
CASES = [
    (SIM, '--duration', ['1e15'], '1e+08'),
    (SIM + ['--duration', '1'], '--dt', ['1e-300'], '1e-06'),
    (SIM + ['--duration', '1'], '--dt', ['1e15'], '10'),
    (SIM + ['--duration', '1e7'], '--dt', ['0.01'], '1e+07'),  # 1e9 steps
    (SIM + ['--duration', '1'], '--substeps', ['1000000000000000'], '1000'),
    (SIM + ['--duration', '1'], '--thrust', ['1e308', '0', '0', '0', '0', '0'], '1e+09'),
    (SIM + ['--duration', '1'], '--initial-velocity', ['0', '1e308', '0', '0', '0', '0'],
     '1000'),
    (SIM + ['--duration', '1'], '--initial-position', ['0', '0', '-1e308'], '1e+07'),
    (SIM + ['--duration', '1'], '--initial-orientation', ['1e308', '0', '0', '0'], '1e+06'),
    (SIM + ['--duration', '1'], '--current', ['1e15', '0', '0'], '1000'),
    (SIM + ['--duration', '1'], '--initial-joint-positions', ['1e308'], '1000'),
    (WRENCH, '--position', ['0', '0', '1e308'], '1e+07'),
    (WRENCH, '--orientation', ['1e308', '1e308', '0', '0'], '1e+06'),
    (WRENCH, '--acceleration', ['1e308', '0', '0', '0', '0', '0'], '1e+06'),
    (WRENCH, '--current', ['0', '0', '-1e308'], '1000'),
    (WRENCH, '--time', ['1e308'], '1e+09'),
    (['wrench', REMUS], '--velocity', ['1e308', '0', '0', '0', '0', '0'], '1000'),
    (['manoeuvre', ROV, 'zigzag'], '--speed', ['1e308'], '1000'),
    (['manoeuvre', REMUS, 'turn'], '--depth', ['1e308'], '1e+07'),
    (['manoeuvre', REMUS, 'turn'], '--rudder', ['1e308'], '57295.8'),
    (['manoeuvre', REMUS, 'zigzag'], '--check', ['1e308'], '57295.8'),
    (['manoeuvre', REMUS, 'spiral'], '--angles', ['5', '1e308'], '57295.8'),
    (['manoeuvre', REMUS, 'pullout'], '--settle', ['1e15'], '1e+08'),
    (['manoeuvre', REMUS, 'pullout', '--settle', '1e7'], '--dt', ['0.02'], '1e+07'),
    (['manoeuvre', REMUS, 'turn'], '--dt', ['1e-300'], '1e-06'),
    (['manoeuvre', REMUS, 'turn'], '--dt', ['1e-6'], '1e+07'),  # 600 s: 6e8 steps
    (['manoeuvre', ROV, 'hold'], '--duration', ['1e15'], '1e+08'),
    (['manoeuvre', ROV, 'hold', '--duration', '1e7'], '--dt', ['0.02'], '1e+07'),
    (['demo'], '--duration', ['1e308'], '1e+08'),
    (['demo'], '--speed', ['1e308'], '1000'),
    (['demo'], '--rate-hz', ['1e308'], '1e+06'),
    (['demo', '--rate-hz', '1e6'], '--duration', ['1e3'], '1e+07'),
    (['demo'], '--depth', ['1e308'], '1e+07'),
    (['demo'], '--domain-id', ['1000000000000000'], '232'),
    (['export-sdf', REMUS], '--step-size', ['1e-300'], '1e-06'),
    (['export-sdf', REMUS], '--position', ['1e308', '0', '0'], '1e+07'),
    (FIT, '--thrust-timeout', ['1e308'], '1e+09'),
    (FIT, '--window', ['1e308'], '1e+09'),
    (FIT, '--order', ['1000000000000000'], '20'),
    (FIT, '--bootstrap', ['1000000000000000'], '100000'),
    (FIT, '--bootstrap-seed', [str(10 ** 400)], str(2 ** 64 - 1)),
    (FIT, '--workers', ['1000000000000000'], '1024'),
    (REPLAY, '--current', ['1e308', '0', '0'], '1000'),
    (REPLAY, '--substeps', ['1000000000000000'], '1000'),
    (REPLAY, '--thrust-timeout', ['1e308'], '1e+09'),
    (['sweep', 'no_spec.yaml', '--out', NOWHERE], '--workers', ['1000000000000000'], '1024'),
]


@pytest.mark.parametrize('before,option,values,bound', CASES,
                         ids=['%s %s %s' % (c[0][0], c[1], c[2][-1][:8]) for c in CASES])
def test_a_number_beyond_its_bound_is_refused(capsys, before, option, values, bound):
    """Exit 2 naming the option, the value and the bound; nothing run, no traceback."""
    try:
        code = main(before + [option] + values)
    except SystemExit as exc:  # argparse's usage errors
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2, err
    assert option in err and bound in err, err
    shown = [v for v in values if v not in ('0', '5')][0]
    assert shown in err or '%g' % float(shown) in err, err
    assert 'Traceback' not in err and 'nan' not in err.lower().replace('manoeuvre', '')


@pytest.mark.parametrize('argv', [
    ['simulate', REMUS, '--duration', '1e308', '--out', NOWHERE + '.csv'],
    ['simulate', REMUS, '--duration', '1e15', '--out', NOWHERE + '.csv'],
    ['simulate', REMUS, '--duration', '1', '--dt', '1e-300', '--out', NOWHERE + '.csv'],
    ['manoeuvre', ROV, 'zigzag', '--speed', '1e308'],
])
def test_the_reported_command_lines_exit_2_without_a_traceback(argv):
    """The issue's command lines, run as a user runs them: a message, no traceback."""
    run = subprocess.run([sys.executable, '-m', 'uwv_hydro'] + argv, capture_output=True,
                         text=True, timeout=120, cwd=REPO)
    assert run.returncode == 2, run.stderr
    assert 'Traceback' not in run.stderr and 'RuntimeWarning' not in run.stderr
    assert 'error: argument --' in run.stderr and ': must be ' in run.stderr
    assert run.stdout == ''


PARSERS = [(name, value) for name, value in vars(number_options).items()
           if isinstance(value, number_options.Number)]


@pytest.mark.parametrize('name,parse', PARSERS, ids=[n for n, _ in PARSERS])
@settings(max_examples=300, deadline=None)
@given(x=st.floats(allow_nan=True, allow_infinity=True) | st.integers(-10 ** 30, 10 ** 30))
def test_every_parser_returns_a_value_in_its_bounds_or_refuses(name, parse, x):
    """A parser's value is finite and within every bound it states, or an argparse error."""
    text = repr(x) if isinstance(x, float) else str(x)
    try:
        value = parse(text)
    except argparse.ArgumentTypeError as exc:
        assert 'got' in str(exc)
        return
    assert math.isfinite(value) and isinstance(value, parse.kind)
    for bound, ok in ((parse.above, lambda b: value > b), (parse.at_least, lambda b: value >= b),
                      (parse.at_most, lambda b: value <= b),
                      (parse.magnitude, lambda b: abs(value) <= b)):
        assert bound is None or ok(bound), (name, text)


def test_the_step_check_bounds_the_steps_it_allows():
    """check_steps: at most MAX_STEPS steps, whatever the duration and step."""
    assert number_options.check_steps(10.0, 0.01, '--duration', '--dt') == 1000
    assert number_options.check_steps(bounds.MAX_STEPS * 0.01, 0.01, 'a', 'b') == 10 ** 7
    with pytest.raises(Exception, match='--duration 1e\\+15 at --dt 0.01'):
        number_options.check_steps(1e15, 0.01, '--duration', '--dt')


def _number_actions(parser, path=()):
    """Yield (command path, option, type) of every option of ``parser`` and its commands."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _number_actions(sub, path + (name,))
        elif action.type is not None:
            yield ' '.join(path), '/'.join(action.option_strings) or action.dest, action.type


def test_every_number_option_of_every_command_is_a_bounded_number():
    """A plain int or float type (unbounded) on any option of any command fails here."""
    from uwv_hydro.cli.main import build_parser
    plain, unbounded = [], []
    for command, option, kind in _number_actions(build_parser()):
        if kind in (int, float):
            plain.append('%s %s' % (command, option))
        elif isinstance(kind, number_options.Number):
            if kind.why is not None and kind.at_most is None and kind.magnitude is None:
                unbounded.append('%s %s' % (command, option))
    assert not plain, 'options read as a plain int/float, unbounded: %s' % plain
    assert not unbounded, 'options said to cause work but with no upper bound: %s' % unbounded
