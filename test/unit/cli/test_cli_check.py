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

"""``uwv-hydro check``: summary, JSON, exit codes."""

import json
import pathlib
import subprocess
import sys

import pytest

from uwv_hydro.cli.main import main

REPO = pathlib.Path(__file__).resolve().parents[3]
DEFAULT = str(REPO / 'urdf' / 'dsros_vehicle.urdf.xacro')


def test_check_prints_summary(capsys):
    assert main(['check', DEFAULT]) == 0
    out = capsys.readouterr().out
    for text in ('453.592 kg', 'buoyancy:', 'CoB:', 'BG (CoB-CoM):', 'principal I:',
                 'equivalent box:', 'eig(M_RB+M_A):', 'roll period:', 'pitch period:',
                 'thruster_port', 'valid'):
        assert text in out


def test_check_json_and_set(capsys):
    assert main(['check', DEFAULT, '--json', '--set', 'com_z:=-0.2']) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary['valid'] is True
    assert summary['mass'] == pytest.approx(453.592)
    assert summary['com'] == pytest.approx([0.0, 0.0, -0.2])
    assert summary['bg'] == pytest.approx([0.0, 0.0, 0.25])
    assert summary['weight'] == pytest.approx(453.592 * 9.8)  # Gazebo's default for a URDF
    assert summary['buoyancy'] == pytest.approx(455.592 * 9.8)
    assert min(summary['mass_matrix_eigenvalues']) > 0.0
    # T = 2 pi sqrt((Ixx + A_rr) / (W BG))
    expected = 2 * 3.141592653589793 * ((46.5860609943583 + 10.0)
                                        / (453.592 * 9.8 * 0.25)) ** 0.5
    assert summary['roll_period'] == pytest.approx(expected)
    assert summary['principal_inertia'] == pytest.approx(
        sorted([46.5860609943583, 114.624724916758, 110.483572365747]))


def test_check_warnings_listed(capsys):
    assert main(['check', DEFAULT, '--set', 'cob_z:=-0.3']) == 0
    out = capsys.readouterr().out
    assert 'below the centre of mass' in out
    assert 'roll period:    none' in out


def test_check_invalid_exits_2_with_location(tmp_path, capsys):
    path = tmp_path / 'bad.urdf'
    path.write_text('<robot name="b">\n<link name="base_link"><inertial>\n'
                    '<mass value="-3"/><inertia ixx="1" iyy="1" izz="1"/>'
                    '</inertial></link>\n</robot>')
    assert main(['check', str(path), '--json']) == 2
    captured = capsys.readouterr()
    assert 'mass must be positive' in captured.err and str(path) in captured.err
    report = json.loads(captured.out)
    assert report['valid'] is False and report['source'] == str(path)


def test_check_subprocess_exit_codes(tmp_path):
    path = tmp_path / 'bad.yaml'
    path.write_text('vehicle:\n  mass: 1.0\n  inertia: {ixx: 1.0, iyy: 1.0, izz: 3.0}\n')
    cmd = [sys.executable, '-m', 'uwv_hydro', 'check']
    bad = subprocess.run(cmd + [str(path)], cwd=REPO, capture_output=True, text=True,
                         timeout=60)
    assert bad.returncode == 2
    assert 'Ixx + Iyy >= Izz' in bad.stderr and str(path) in bad.stderr
    good = subprocess.run(cmd + [str(REPO / 'config' / 'sphere.yaml')], cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    assert good.returncode == 0, good.stderr
    missing = subprocess.run(cmd + [str(tmp_path / 'none.urdf')], cwd=REPO,
                             capture_output=True, text=True, timeout=60)
    assert missing.returncode == 2 and 'no such file' in missing.stderr


def test_check_into_a_closed_pipe_ends_without_a_traceback():
    """`uwv-hydro check ... | head -1`: the reader leaves early; no BrokenPipeError trace."""
    cmd = [sys.executable, '-m', 'uwv_hydro', 'check', '--json',
           str(REPO / 'config' / 'remus100.yaml')]
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # before the child writes anything: its first write fails
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 1, err
    assert b'Traceback' not in err and b'BrokenPipe' not in err, err
