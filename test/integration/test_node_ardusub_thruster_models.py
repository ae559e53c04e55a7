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
The node refuses to hand ArduSub's PWM to a thruster that takes no PWM.

config/remus100.yaml's propeller reads its command in rpm: ArduSub's neutral 1500 us
would be 1500 rpm, clamped to its bollard pull (105 N) while ArduSub is disarmed.  Each
ArduSub input (OverrideRCIn, RCOut, the JSON SITL backend) must refuse it at start
with the config error code, naming the thruster and its model.
"""
import socket
import subprocess

from nodes.harness import node_command, REPO, write_params
import pytest

CONFIG = REPO / 'config' / 'remus100.yaml'


def _free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


@pytest.mark.ros
@pytest.mark.parametrize('kind', ['override', 'rc_out', 'sitl_json'])
def test_ardusub_input_refuses_a_propeller(tmp_path, ros_env, kind):
    from uwv_hydro.node.main import EXIT_CONFIG
    port = _free_port()
    params = {'vehicle_file': str(CONFIG), 'mode': 'simulate', 'ardusub_input': kind,
              'ardusub_servo_functions': [33], 'sitl_json_port': port, 'rate_hz': 1200.0}
    params_file = write_params(tmp_path / 'params.yaml', params)
    result = subprocess.run(node_command(params_file), env=ros_env, capture_output=True,
                            text=True, timeout=60.0)
    assert result.returncode == EXIT_CONFIG, (result.returncode, result.stderr[-2000:])
    assert 'servo 1 -> thruster propeller_joint (propeller model)' in result.stderr
    assert 'Traceback' not in result.stderr
    # the SITL port was never bound: ArduPilot's backend may take it
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(('127.0.0.1', port))
