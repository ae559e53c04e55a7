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
tools/ardusub_sitl_flight.py given a wrong path: a clear error, nothing left running.

Before, a wrong ``--ardusub`` gave a FileNotFoundError traceback after the node had
started, and the node (in its own session) stayed bound to the SITL UDP port.
"""
import socket
import subprocess
import sys

from nodes.harness import REPO
import pytest

TOOL = REPO / 'tools' / 'ardusub_sitl_flight.py'


def _free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


@pytest.mark.ros
def test_wrong_ardusub_path_is_a_clear_error_and_frees_the_port(tmp_path, ros_env):
    missing = tmp_path / 'build' / 'sitl' / 'bin' / 'ardusub'
    port = _free_port()
    result = subprocess.run(
        [sys.executable, str(TOOL), '--ardusub', str(missing), '--ardupilot', str(tmp_path),
         '--port', str(port), '--node-start-s', '1'],
        env=ros_env, capture_output=True, text=True, timeout=120.0)
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    assert '--ardusub %s: no such executable' % missing in result.stderr, result.stderr
    assert 'Traceback' not in result.stderr
    # no node holds the SITL port: ArduPilot's backend (or the next run) can take it
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(('127.0.0.1', port))
