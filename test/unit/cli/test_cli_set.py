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
``--set NAME:=VALUE`` sets a declared xacro argument, or is refused (issue 51).

xacro ignores a mapping no ``<xacro:arg>`` declares, so ``--set drag_sacle:=0.8`` used
to load the unscaled vehicle without a word, and ``--set`` on a YAML vehicle was
ignored.  On the real command line of every command that takes ``--set``: a name no
``<xacro:arg>`` of the file and its includes declares is refused (exit 2) with the
declared names and the closest; ``--set`` on a vehicle that expands no xacro is refused
saying what ``--set`` sets; a declared name takes effect (the drag scales with it).
"""
import json
import pathlib

import pytest

from uwv_hydro.cli.main import main

REPO = pathlib.Path(__file__).resolve().parents[3]
XACRO = str(REPO / 'urdf' / 'dsros_vehicle.urdf.xacro')
YAML = str(REPO / 'config' / 'remus100.yaml')
NOWHERE = '/dev/null/never'  # nothing can be written there, should a run start


def _commands(vehicle):
    """Every command that takes --set, loading ``vehicle`` (before any bag is read)."""
    return [
        ['check', vehicle],
        ['wrench', vehicle, '--velocity', '1', '0', '0', '0', '0', '0'],
        ['simulate', vehicle, '--duration', '0.1', '--out', NOWHERE + '.csv'],
        ['replay', NOWHERE, '--vehicle', vehicle, '--simulate', '--out', NOWHERE],
        ['fit', NOWHERE, '--vehicle', vehicle, '--out', NOWHERE + '.yaml'],
        ['export-sdf', vehicle, '--out', NOWHERE + '.sdf'],
        ['manoeuvre', vehicle, 'turn'],
    ]


def _exit_2(capsys, argv) -> str:
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2, err
    return err


@pytest.mark.parametrize('argv', _commands(XACRO), ids=lambda a: a[0])
def test_a_misspelled_xacro_argument_is_refused(capsys, argv):
    """drag_sacle: refused naming the declared arguments and drag_scale."""
    err = _exit_2(capsys, argv + ['--set', 'drag_sacle:=0.8'])
    assert "error: --set: 'drag_sacle' is declared by no <xacro:arg> of %s" % XACRO in err
    for name in ('cob_z', 'com_x', 'com_y', 'com_z', 'drag_scale', 'sensors'):
        assert name in err  # the <xacro:arg>s of urdf/dsros_vehicle.urdf.xacro
    assert "did you mean 'drag_scale'?" in err


@pytest.mark.parametrize('argv', _commands(YAML), ids=lambda a: a[0])
def test_set_on_a_yaml_vehicle_is_refused(capsys, argv):
    """A YAML vehicle has no xacro arguments: --set is refused, saying what it sets."""
    err = _exit_2(capsys, argv + ['--set', 'drag_scale:=0.8'])
    assert 'error: --set: --set sets xacro arguments' in err
    assert '%s expands no xacro: drag_scale:=0.8 would change nothing' % YAML in err
    assert 'change a YAML vehicle by editing its keys' in err


def test_a_declared_argument_takes_effect(capsys):
    """drag_scale:=0.8 scales the linear and quadratic drag of the xacro by 0.8."""
    drag = {}
    for scale in ('1.0', '0.8'):
        assert main(['wrench', XACRO, '--velocity', '1', '0', '0', '0', '0', '0', '--json',
                     '--set', 'drag_scale:=%s' % scale]) == 0
        drag[scale] = json.loads(capsys.readouterr().out)['components']
    for term in ('linear_drag', 'quadratic_drag'):
        assert drag['1.0'][term][0] < 0.0
        assert drag['0.8'][term][0] == pytest.approx(0.8 * drag['1.0'][term][0], rel=1e-12)


def test_set_with_a_xacro_robot_description_under_a_yaml_vehicle(capsys, tmp_path):
    """Under a YAML vehicle, --set reaches a xacro --robot-description: not refused."""
    assert main(['check', YAML, '--robot-description', XACRO,
                 '--set', 'com_z:=-0.2']) == 0
    capsys.readouterr()
    err = _exit_2(capsys, ['check', YAML, '--robot-description', XACRO,
                           '--set', 'com_zz:=-0.2'])
    assert "did you mean 'com_z'?" in err
