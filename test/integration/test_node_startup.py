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

"""Start-up: an invalid vehicle exits non-zero with the loader's message; config is logged."""
import subprocess

from nodes.harness import node_command, write_params
import pytest

BAD_VEHICLE = '<robot name="bad"><link name="base_link"/></robot>'


def _run(tmp_path, ros_env, params, timeout=60.0):
    params_file = write_params(tmp_path / 'params.yaml', params)
    return subprocess.run(node_command(params_file), env=ros_env, capture_output=True,
                          text=True, timeout=timeout)


@pytest.mark.ros
def test_invalid_robot_description_exits_with_the_loader_message(tmp_path, ros_env):
    from uwv_hydro.description.errors import DescriptionError
    from uwv_hydro.description.loader import load_vehicle_string
    with pytest.raises(DescriptionError) as exc:
        load_vehicle_string(BAD_VEHICLE)
    result = _run(tmp_path, ros_env, {'robot_description': BAD_VEHICLE})
    assert result.returncode == 2, result.stderr
    assert exc.value.reason in result.stderr
    assert 'Traceback' not in result.stderr


@pytest.mark.ros
def test_missing_vehicle_file_exits_non_zero(tmp_path, ros_env):
    missing = str(tmp_path / 'nope.urdf')
    result = _run(tmp_path, ros_env, {'vehicle_file': missing})
    assert result.returncode == 2
    assert missing in result.stderr and 'no such file' in result.stderr
    assert 'Traceback' not in result.stderr


@pytest.mark.ros
def test_no_vehicle_at_all_exits_non_zero(tmp_path, ros_env):
    result = _run(tmp_path, ros_env, {'mode': 'simulate'})
    assert result.returncode == 2
    assert 'robot_description' in result.stderr


@pytest.mark.ros
def test_bad_mode_exits_non_zero(tmp_path, ros_env):
    from nodes.harness import analytic_vehicle_urdf
    result = _run(tmp_path, ros_env, {'robot_description': analytic_vehicle_urdf(),
                                      'mode': 'fly'})
    assert result.returncode == 1
    assert 'mode must be one of' in result.stderr


@pytest.mark.ros
def test_out_of_range_rate_exits_non_zero(tmp_path, ros_env):
    from nodes.harness import analytic_vehicle_urdf
    result = _run(tmp_path, ros_env, {'robot_description': analytic_vehicle_urdf(),
                                      'rate_hz': 5000.0})
    assert result.returncode == 1
    assert 'rate_hz' in result.stderr
    assert 'Traceback' not in result.stderr


@pytest.mark.ros
@pytest.mark.parametrize('kind', ['nested', 'keys'])
def test_hostile_params_file_exits_with_a_clear_error(tmp_path, ros_env, kind):
    """
    A params file rcl would choke on (5000 nested '[', 200 000 keys) is refused first.

    rcl's parser has no depth or size limit: without the guard the node died with an
    RCLError traceback (nesting) or sat in the parser for minutes (keys).
    """
    path = tmp_path / 'hostile.yaml'
    if kind == 'nested':
        path.write_text('/**:\n  ros__parameters:\n    x: ' + '[' * 5000 + '\n')
    else:
        path.write_text('/**:\n  ros__parameters:\n' + ''.join(
            '    k%d: %d\n' % (i, i) for i in range(200000)))
    result = subprocess.run(node_command(str(path)), env=ros_env, capture_output=True,
                            text=True, timeout=60.0)
    assert result.returncode == 1, result.stderr
    assert 'invalid parameters file' in result.stderr and str(path) in result.stderr
    assert 'Traceback' not in result.stderr
