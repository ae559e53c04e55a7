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
Parameters the node does not read are named, not ignored (issue 17, item 2).

Before, misspelled node parameters (``apply_wieght``, ``thrust_topic``) and a vehicle
section inside the ``--params-file`` were ignored without a word.  Now every override
the node did not declare is warned about with the closest declared name, and vehicle
keys (a ``vehicle:`` section or flat vehicle keys such as ``linear_drag``) are named
with the way to use them (``vehicle_file``).
"""
import time

from nodes.harness import analytic_vehicle_urdf, node_command, read_log, write_params
import pytest

pytestmark = pytest.mark.ros


def test_unknown_overrides_and_a_vehicle_section_are_warned_about(spawn, tmp_path):
    params = write_params(tmp_path / 'params.yaml', {
        'robot_description': analytic_vehicle_urdf(), 'mode': 'simulate',
        'apply_wieght': True, 'thrust_topic': ['a'], 'linear_drag': [1.0] * 6,
        'vehicle': {'mass': 3.0, 'quadratic_drag': {'xxx': 2.0}}})
    log = tmp_path / 'node.log'
    with open(log, 'w') as out:
        proc = spawn(node_command(params, extra=['-p', 'odometry_timout:=2.0']),
                     stdout=out, stderr=out)
    deadline = time.monotonic() + 60.0
    while 'paced by' not in read_log(log) and time.monotonic() < deadline:
        assert proc.poll() is None, read_log(log)
        time.sleep(0.1)
    text = read_log(log)
    lines = [line for line in text.splitlines() if 'WARN' in line]

    def warned(*words):
        return any(all(w in line for w in words) for line in lines)

    assert warned("'apply_wieght'", "did you mean 'apply_weight'"), lines
    assert warned("'thrust_topic'", "did you mean 'thrust_topics'"), lines
    assert warned("'odometry_timout'", "did you mean 'odometry_timeout'"), lines
    assert warned('vehicle.mass', 'vehicle.quadratic_drag.xxx', 'linear_drag',
                  'vehicle_file'), lines
    # declared parameters and rclpy's own are not warned about
    assert not warned("'mode'") and not warned("'robot_description'")
    assert not warned('use_sim_time')
