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
What the command line says to its user.

Errors that name the option or file and the bad value, help without markup and with
defaults, plots that say where they went, units.

In-process through ``main`` (argparse's errors are a SystemExit(2) with the message on
stderr); each test reads what a user would see.
"""
import argparse
import json
import pathlib

import numpy as np
import pytest

from uwv_hydro.cli.check_cmd import summarize, UNITS
from uwv_hydro.cli.main import build_parser, main
from uwv_hydro.description.loader import load_vehicle
from uwv_hydro.sweep.summary import summarise

REPO = pathlib.Path(__file__).resolve().parents[3]
REMUS = str(REPO / 'config' / 'remus100.yaml')
ROV = str(REPO / 'config' / 'bluerov2.yaml')


def _error(capsys, argv) -> str:
    """Return stderr of a command line that must fail with exit code 2."""
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse
        code = exc.code
    assert code == 2, argv
    return capsys.readouterr().err


@pytest.mark.parametrize('argv, message', [
    (['simulate', REMUS, '--duration', '-5', '--out', 'x.csv'],
     'argument --duration: must be >= 0, got -5'),
    (['simulate', REMUS, '--duration', '1', '--dt', '-0.01', '--out', 'x.csv'],
     'argument --dt: must be >= 1e-06, got -0.01'),
    (['simulate', REMUS, '--duration', '1', '--substeps', '0', '--out', 'x.csv'],
     'argument --substeps: must be >= 1, got 0'),
    (['simulate', REMUS, '--duration', 'nan', '--out', 'x.csv'],
     'argument --duration: must be finite, got nan'),
    (['manoeuvre', REMUS, 'turn', '--speed', '-1'], 'argument --speed: must be > 0, got -1'),
    (['manoeuvre', ROV, 'hold', '--duration', '-3'],
     'argument --duration: must be > 0, got -3'),
    (['manoeuvre', REMUS, 'turn', '--speed', 'fast'],
     "argument --speed: expected a number, got 'fast'"),
    (['demo', '--duration', '-1'], 'argument --duration: must be > 0, got -1'),
    (['sweep', 'spec.yaml', '--out', 'x', '--workers', '0'],
     'argument --workers: must be >= 1, got 0'),
    (['replay', 'bag', '--vehicle', REMUS, '--out', 'x', '--acceleration-alpha', '1.5'],
     'argument --acceleration-alpha: must be <= 1, got 1.5'),
])
def test_option_errors_name_the_option_and_the_value(capsys, argv, message):
    """Refused by the parser before any file is read or any process started."""
    err = _error(capsys, argv)
    assert message in err
    assert '<description>' not in err


def test_a_directory_is_named_as_such(capsys, tmp_path):
    """A directory as the vehicle, or as a bag, is called what it is."""
    err = _error(capsys, ['check', str(tmp_path)])
    assert '%s: a directory, not a vehicle description file' % tmp_path in err
    err = _error(capsys, ['replay', str(tmp_path), '--vehicle', REMUS,
                          '--out', str(tmp_path / 'out')])
    assert '%s: cannot read bag: a directory without metadata.yaml' % tmp_path in err
    err = _error(capsys, ['replay', str(tmp_path / 'none'), '--vehicle', REMUS,
                          '--out', str(tmp_path / 'out')])
    assert 'cannot read bag: no such file or directory' in err
    err = _error(capsys, ['check', str(tmp_path / 'none.yaml')])
    assert '%s: no such file' % (tmp_path / 'none.yaml') in err


def test_an_option_error_after_parsing_names_the_option(capsys, tmp_path):
    """No '<description>' for what is not a description: the option and the value."""
    err = _error(capsys, ['simulate', REMUS, '--duration', '1', '--components',
                          '--out', str(tmp_path / 'run.csv')])
    assert err.startswith('error: --out: --components needs a bag output')
    assert str(tmp_path / 'run.csv') in err


def _subparsers():
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return action.choices


def test_help_is_plain_text_with_every_option_explained_and_its_default():
    """No RST markup, every option has help, every default that is a value is shown."""
    for name, sub in _subparsers().items():
        text = sub.format_help()
        assert '``' not in text and ':mod:' not in text and ':class:' not in text, name
        for action in sub._actions:
            if not action.option_strings or action.help == argparse.SUPPRESS:
                continue
            assert action.help, '%s %s has no help' % (name, action.option_strings[0])
            default = action.default
            if default not in (None, False, '', []) and default is not argparse.SUPPRESS:
                helped = sub._get_formatter()._get_help_string(action) % vars(action)
                assert 'default' in helped, '%s %s hides its default %r' % (
                    name, action.option_strings[0], default)
    demo = _subparsers()['demo'].format_help()
    assert '(default: 20)' in ' '.join(demo.split())
    simulate = ' '.join(_subparsers()['simulate'].format_help().split())
    assert 'needs them) (default: 1)' in simulate


def test_help_keeps_the_list_items_on_their_own_lines():
    """The manoeuvre list of `manoeuvre --help` is a list, one item a line."""
    text = _subparsers()['manoeuvre'].format_help()
    starts = [line.split(':')[0] for line in text.splitlines() if line.startswith('* ')]
    assert starts == ['* turn', '* zigzag', '* pullout', '* spiral', '* hold (an ROV, open loop)']
    assert 'fixed rpm' in ' '.join(text.split())


def test_plots_say_where_they_went(capsys, tmp_path):
    """simulate, manoeuvre (also with --json: on stderr) and replay print the plot's path."""
    bag, png = tmp_path / 'run.mcap', tmp_path / 'sim.png'
    assert main(['simulate', REMUS, '--duration', '0.5', '--out', str(bag),
                 '--plot', str(png)]) == 0
    assert 'wrote %s (plot)' % png in capsys.readouterr().out and png.is_file()
    png = tmp_path / 'replay.png'
    assert main(['replay', str(bag), '--vehicle', REMUS, '--out', str(tmp_path / 'w'),
                 '--plot', str(png)]) == 0
    assert 'wrote %s (plot)' % png in capsys.readouterr().out and png.is_file()
    png = tmp_path / 'turn.png'
    assert main(['manoeuvre', ROV, 'pullout', '--speed', '0.5', '--settle', '2', '--json',
                 '--plot', str(png)]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)['manoeuvre'] == 'pullout'  # stdout stays JSON
    assert 'wrote %s (plot)' % png in out.err and png.is_file()


def test_wrench_table_has_units_and_no_negative_zero(capsys):
    """A header row names each column with its unit; an exactly zero term prints 0."""
    assert main(['wrench', REMUS, '--velocity', '1', '0', '0', '0', '0', '0']) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split() == ['Fx', '[N]', 'Fy', '[N]', 'Fz', '[N]', 'Tx', '[N', 'm]',
                                'Ty', '[N', 'm]', 'Tz', '[N', 'm]']
    assert not [word for line in lines[2:] for word in line.split()[1:]
                if word in ('-0', '-0.0')]
    assert main(['wrench', REMUS, '--velocity', '1', '0', '0', '0', '0', '0', '--json']) == 0
    assert json.loads(capsys.readouterr().out)['units'] == ['N', 'N', 'N', 'N m', 'N m', 'N m']


def test_check_units_cover_every_number():
    """Every top-level number and every numeric list of check's summary has a unit."""
    summary = summarize(load_vehicle(REMUS))
    numeric = [key for key, value in summary.items()
               if isinstance(value, float) or (isinstance(value, list) and value
                                               and isinstance(value[0], (float, list)))]
    assert numeric
    missing = [key for key in numeric if key not in UNITS]
    assert not missing, missing
    for group in ('surface', 'hull', 'matrices'):
        keys = ['%s.%s' % (group, k) for k, v in summary[group].items()
                if isinstance(v, (float, list))]
        assert all(k in UNITS or group in UNITS for k in keys), keys


def test_a_broach_never_seen_has_its_interval_from_zero():
    """Wilson's interval at p = 0 starts at 0, not at a rounding residue (1.7e-18)."""
    row = summarise({'broach': np.zeros(200, dtype=bool)}, ['broach'])[0]
    assert row['ci95'][0] == 0.0 and 0.0 < row['ci95'][1] < 0.02
    row = summarise({'broach': np.ones(200, dtype=bool)}, ['broach'])[0]
    assert row['ci95'][1] == 1.0


def test_simulate_says_what_the_vehicle_lacks(capsys, tmp_path):
    """A URDF without a hydro block: simulate names no drag, no added mass, no buoyancy."""
    urdf = tmp_path / 'bare.urdf'
    urdf.write_text('<robot name="bare"><link name="base_link"><inertial><mass value="10"/>'
                    '<inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>'
                    '</link></robot>')
    assert main(['simulate', str(urdf), '--duration', '0.1',
                 '--out', str(tmp_path / 'run.csv')]) == 0
    err = capsys.readouterr().err
    for lack in ('no buoyancy', 'no drag', 'no added mass'):
        assert 'warning: %s:' % lack in err
