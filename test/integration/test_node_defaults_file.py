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
config/node_defaults.yaml lists every parameter the node declares (issue 17, item 6).

The file is the launch file's ``params_file``: each parameter with its default and its
description.  It is generated from the parameter table
(``python -m uwv_hydro.node.parameters > config/node_defaults.yaml``); the running node's
declared parameters (over DDS) must be exactly the ones the file lists (a parameter
whose default comes from the vehicle is listed as a comment), plus rclpy's own, less
those of a vehicle with moving links for the rigid test vehicle.
"""
import re

from nodes.harness import analytic_vehicle_urdf, node_command, Probe, REPO, write_params
import pytest
from required_modules import require
import yaml

DEFAULTS = REPO / 'config' / 'node_defaults.yaml'
#: Declared by rclpy itself for every node.
RCLPY_PARAMETERS = {'use_sim_time', 'start_type_description_service'}


def _listed():
    """Return ({name: value} of the file, names listed as comments only)."""
    text = DEFAULTS.read_text()
    values = yaml.safe_load(text)['/**']['ros__parameters']
    commented = set(re.findall(r'^\s*#\s*([a-z_]+): <', text, flags=re.M))
    return values, commented


def test_defaults_file_is_the_parameter_table():
    require('rcl_interfaces')
    from uwv_hydro.node.parameters import defaults_yaml, SPECS
    assert DEFAULTS.read_text() == defaults_yaml(), (
        'config/node_defaults.yaml is out of date: run '
        '`tools/run python -m uwv_hydro.node.parameters > config/node_defaults.yaml`')
    values, commented = _listed()
    assert set(values) | commented == set(SPECS)
    for name, value in values.items():
        assert value == SPECS[name].default, name
    assert commented == {n for n, s in SPECS.items() if s.default is None}


@pytest.mark.ros
def test_the_running_node_declares_exactly_what_the_file_lists(
        rclpy_context, spawn, tmp_path):
    from rcl_interfaces.srv import ListParameters
    description = write_params(tmp_path / 'd.yaml',
                               {'robot_description': analytic_vehicle_urdf()})
    log = tmp_path / 'node.log'
    with open(log, 'w') as out:
        proc = spawn(node_command(str(DEFAULTS), extra=['--params-file', description]),
                     stdout=out, stderr=out)
    probe = Probe(rclpy_context)
    client = probe.node.create_client(ListParameters, 'uwv_hydro/list_parameters')
    assert probe.spin_until(client.service_is_ready, timeout=60.0, proc=proc, log=log)
    declared = set(probe.query(client, ListParameters.Request(), proc=proc,
                               log=log).result.names)
    from uwv_hydro.node.parameters import MOVING_LINKS_ONLY
    values, commented = _listed()
    # a rigid vehicle: the parameters of moving joints are not declared
    assert declared - RCLPY_PARAMETERS == (set(values) | commented) - set(MOVING_LINKS_ONLY)
    probe.close()
