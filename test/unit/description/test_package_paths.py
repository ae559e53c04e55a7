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

"""ROS 1 package paths for $(find pkg) in xacro (issue 21, item 3): each route, and failure."""
import os
import pathlib

import pytest
from required_modules import require

from uwv_hydro.cli.main import main
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.loader import load_vehicle
from uwv_hydro.description.urdf.package_paths import crawl, PackageResolver
from uwv_hydro.node.vehicle_source import load_from_parameters

PART = """<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <link name="base_link"><inertial><mass value="%s"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
</robot>
"""
TOP = """<?xml version="1.0"?>
<robot name="v" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:include filename="%s"/>
</robot>
"""


def _package(root: pathlib.Path, rel: str, name: str, mass: float = 10.0) -> pathlib.Path:
    """Write a catkin package ``name`` at root/rel with urdf/part.xacro (base_link mass)."""
    directory = root / rel
    (directory / 'urdf').mkdir(parents=True)
    (directory / 'package.xml').write_text(
        '<?xml version="1.0"?>\n<package format="2"><name>%s</name><version>1.0.0'
        '</version></package>\n' % name)
    (directory / 'urdf' / 'part.xacro').write_text(PART % mass)
    return directory


@pytest.fixture
def workspace(tmp_path, monkeypatch):
    """Return a ROS 1 workspace with uuv_descriptions two levels down, and a top file."""
    monkeypatch.delenv('ROS_PACKAGE_PATH', raising=False)
    ws = tmp_path / 'catkin_ws' / 'src'
    _package(ws, 'uuv_simulator/uuv_descriptions', 'uuv_descriptions', 42.0)
    top = tmp_path / 'vehicle.urdf.xacro'
    top.write_text(TOP % '$(find uuv_descriptions)/urdf/part.xacro')
    return ws, top


def test_not_found_lists_every_place_searched(workspace, tmp_path):
    ws, top = workspace
    missing = tmp_path / 'nowhere'
    with pytest.raises(DescriptionError) as err:
        load_vehicle(top, package_path=[str(missing)])
    text = str(err.value)
    assert "ROS package 'uuv_descriptions' not found" in text
    assert 'ament index (AMENT_PREFIX_PATH=' in text
    assert '%s (missing)' % missing in text and 'ROS_PACKAGE_PATH (none)' in text
    assert err.value.source == str(top)


def test_package_path_argument(workspace):
    ws, top = workspace
    assert load_vehicle(top, package_path=[str(ws)]).mass == 42.0


def test_ros_package_path_environment(workspace, monkeypatch, tmp_path):
    ws, top = workspace
    monkeypatch.setenv('ROS_PACKAGE_PATH', os.pathsep.join([str(tmp_path / 'empty'), str(ws)]))
    assert load_vehicle(top).mass == 42.0


def test_cli_package_path_option_is_repeatable(workspace, tmp_path, capsys):
    ws, top = workspace
    assert main(['check', str(top)]) == 2
    assert 'uuv_descriptions' in capsys.readouterr().err
    other = tmp_path / 'other'
    other.mkdir()
    assert main(['check', str(top), '--package-path', str(other),
                 '--package-path', str(ws)]) == 0
    assert 'mass:' in capsys.readouterr().out


def test_node_parameter_route(workspace):
    ws, top = workspace
    # the node's package_path parameter ([''] by default: empty entries are ignored)
    params, _ = load_from_parameters('', str(top), package_path=['', str(ws)])
    assert params.mass == 42.0


def test_package_path_comes_before_ros_package_path(workspace, monkeypatch, tmp_path):
    ws, top = workspace
    other = tmp_path / 'other_ws'
    _package(other, 'uuv_descriptions', 'uuv_descriptions', 7.0)
    monkeypatch.setenv('ROS_PACKAGE_PATH', str(ws))
    assert load_vehicle(top, package_path=[str(other)]).mass == 7.0


def test_ament_index_comes_first(tmp_path, monkeypatch):
    require('ament_index_python')
    # a ROS 1 package named like an installed ament package does not shadow it
    _package(tmp_path / 'ws', 'uwv_hydro', 'uwv_hydro')
    monkeypatch.setenv('ROS_PACKAGE_PATH', str(tmp_path / 'ws'))
    from ament_index_python.packages import get_package_share_directory
    assert PackageResolver().find('uwv_hydro') == get_package_share_directory('uwv_hydro')


def test_crawl_stops_at_a_package_and_skips_ignored_and_hidden(tmp_path):
    _package(tmp_path, 'a', 'outer')
    _package(tmp_path, 'a/inner', 'nested')  # inside a package: rospack does not look
    _package(tmp_path, 'b/deep/deeper', 'deep_pkg')
    _package(tmp_path, 'c', 'ignored')
    (tmp_path / 'c' / 'CATKIN_IGNORE').write_text('')
    _package(tmp_path, '.hidden', 'hidden')
    (tmp_path / 'd').mkdir()
    (tmp_path / 'd' / 'package.xml').write_text('<package><name>')  # unreadable: skipped
    found = crawl(str(tmp_path))
    assert found == {'outer': str(tmp_path / 'a'), 'deep_pkg': str(tmp_path / 'b/deep/deeper')}


def test_package_uri_include(workspace, tmp_path):
    ws, _ = workspace
    top = tmp_path / 'uri.urdf.xacro'
    top.write_text(TOP % 'package://uuv_descriptions/urdf/part.xacro')
    assert load_vehicle(top, package_path=[str(ws)]).mass == 42.0


def test_xacro_is_restored_after_expansion(workspace):
    ws, top = workspace
    import xacro
    from xacro import substitution_args
    before = (substitution_args._eval_find, xacro.abs_filename_spec)
    load_vehicle(top, package_path=[str(ws)])
    assert (substitution_args._eval_find, xacro.abs_filename_spec) == before
