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

"""``uwv-hydro topic pub`` / ``echo``, the venv's ros2 topic pub / echo, over real DDS."""
import subprocess
import sys

from conftest import REPO
import pytest
from required_modules import require
import yaml


@pytest.mark.ros
def test_pub_and_echo_carry_a_message(ros_env):
    """What pub publishes (a nested message from YAML), echo prints as YAML."""
    pub = subprocess.Popen(
        [sys.executable, '-m', 'uwv_hydro', 'topic', 'pub', '--rate', '20', 'probe/wrench',
         'geometry_msgs/msg/WrenchStamped',
         '{header: {frame_id: base_link}, wrench: {force: {x: 3.645}, torque: {z: -2}}}'],
        cwd=str(REPO), env=ros_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True)
    try:
        echo = subprocess.run(
            [sys.executable, '-m', 'uwv_hydro', 'topic', 'echo', '/probe/wrench',
             '--count', '2', '--timeout', '60'],
            cwd=str(REPO), env=ros_env, capture_output=True, text=True, timeout=120)
    finally:
        pub.terminate()
        pub.communicate(timeout=30)
    assert echo.returncode == 0, echo.stdout + echo.stderr
    messages = [yaml.safe_load(m) for m in echo.stdout.split('---\n') if m.strip()]
    assert len(messages) == 2, echo.stdout
    for msg in messages:
        assert msg['header']['frame_id'] == 'base_link'
        assert msg['wrench']['force'] == {'x': 3.645, 'y': 0.0, 'z': 0.0}
        assert msg['wrench']['torque'] == {'x': 0.0, 'y': 0.0, 'z': -2.0}


def test_pub_names_a_wrong_field_and_type():
    """A field the message lacks, or an unknown type: exit 2, naming it."""
    require('std_msgs')  # the message types pub reads, which only a ROS 2 environment has
    for argv, named in ((['std_msgs/msg/Float64', '{dat: 0.4}'], "no field 'dat'"),
                        (['std_msgs/msg/Float64', '{data: [1, 2]}'], 'VALUES.data'),
                        (['std_msgs/msg/NoSuch', '{}'], "'std_msgs/msg/NoSuch'")):
        proc = subprocess.run([sys.executable, '-m', 'uwv_hydro', 'topic', 'pub', 'x'] + argv,
                              cwd=str(REPO), capture_output=True, text=True, timeout=60)
        assert proc.returncode == 2 and named in proc.stderr, (argv, proc.stderr)


@pytest.mark.ros
def test_echo_without_a_publisher_says_so(ros_env):
    """No publisher within --timeout: exit 1 and the topic named."""
    proc = subprocess.run([sys.executable, '-m', 'uwv_hydro', 'topic', 'echo', 'nobody_here',
                           '--timeout', '1'], cwd=str(REPO), env=ros_env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and 'no publisher of /nobody_here' in proc.stderr, proc.stderr
