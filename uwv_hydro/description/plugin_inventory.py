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
Every ``<plugin>`` of a URDF, recorded: read by a reader, recognised but not modelled, or unknown.

The readers of thrusters, fins and sensors record their own plugins (``thruster``,
``fin``, ``sensor`` records); :func:`record_plugins` records the others as kind
``plugin``: 'read' for the hull-hydrodynamics, gz-sim Thruster, ds_sim thruster and
LiftDrag blocks (read by their readers), 'warned' with a note 'not modelled ...' for
the plugins of uuv_simulator, ds_sim, DAVE and Gazebo that this project knows but does
not simulate (:data:`NOT_MODELLED`, matched on the filename), and 'warned' with the
note 'unknown plugin' for anything else.  Nothing a URDF carries is dropped silently.
"""
from typing import Callable, Iterable
import xml.etree.ElementTree as ET

from uwv_hydro.description.dsros.block import is_dsros_plugin
from uwv_hydro.description.element_report import record, where
from uwv_hydro.description.fins import is_liftdrag_plugin
from uwv_hydro.description.sdf.gz_hydrodynamics import is_gz_hydrodynamics_plugin
from uwv_hydro.description.sensor_elements import SENSOR_READERS, sensor_type_key
from uwv_hydro.description.thrusters import is_dsros_thruster_plugin, is_thruster_plugin
from uwv_hydro.description.uuv.underwater_object import is_uuv_plugin
from uwv_hydro.physics.body.vehicle_params import VehicleParams

#: Plugins read by the other readers of a URDF: (predicate, what it becomes).
READ_BY_OTHERS = (
    (is_dsros_plugin, 'dsros_hydro hydrodynamics'),
    (is_uuv_plugin, 'uuv_simulator underwater-object hydrodynamics'),
    (is_gz_hydrodynamics_plugin, 'gz-sim Hydrodynamics'),
    (is_thruster_plugin, 'gz-sim Thruster'),
    (is_dsros_thruster_plugin, 'ds_sim thruster'),
    (is_liftdrag_plugin, 'LiftDrag fin'),
)
#: Filename substrings of plugins known and not simulated here, with what they do.
#: uuv_simulator: uuv_gazebo_ros_plugins/CMakeLists.txt, uuv_sensor_plugins_ros;
#: ds_sim: ds_sim/CMakeLists.txt; Gazebo classic: gazebo_ros_pkgs.
NOT_MODELLED = (
    ('uuv_joint_state_publisher', 'joint-state publisher (uuv_simulator)'),
    ('uuv_accelerations_test', 'acceleration test output (uuv_simulator)'),
    # uuv_gazebo_ros_plugins/CMakeLists.txt names them without 'uuv'
    ('linear_battery_ros_plugin', 'battery model (uuv_simulator)'),
    ('custom_battery_consumer_ros_plugin', 'battery consumer (uuv_simulator)'),
    ('gazebo_ros_control', 'ros_control bridge (Gazebo)'),
    ('gazebo_ros_p3d', 'ground-truth pose (Gazebo)'),
    ('gazebo_ros_joint_state_publisher', 'joint-state publisher (Gazebo)'),
    ('gazebo_ros_camera', 'camera (Gazebo)'),
    ('gazebo_ros_depth_camera', 'depth camera (Gazebo)'),
    ('gazebo_ros_laser', 'laser / sonar beam (Gazebo)'),
    ('gazebo_ros_ray_sensor', 'ray sensor (Gazebo)'),
    ('gazebo_ros_gpu_laser', 'laser / sonar beam (Gazebo)'),
    ('gazebo_ros_range', 'range finder, e.g. a uuv DVL beam (Gazebo)'),
    ('gazebo_ros_imu', 'Gazebo ROS IMU (its <sensor> type decides)'),
    ('gazebo_ros_ft_sensor', 'force-torque sensor (Gazebo)'),
    ('dsros_ros_camera', 'camera (ds_sim)'),
    ('dsros_jointstate', 'joint-state publisher (ds_sim)'),
    ('dsros_ros_jointstate', 'joint-state publisher (ds_sim)'),
    ('dsros_ros_odometry', 'ground-truth odometry (ds_sim)'),
    ('dsros_ros_nav', 'ground-truth navigation (ds_sim)'),
    ('dsros_ros_reson', 'multibeam sonar (ds_sim)'),
    ('dsros_ros_mag', 'magnetometer (ds_sim)'),
    ('dsros_ros_sbp', 'sub-bottom profiler (ds_sim)'),
    ('dave_', 'DAVE plugin'),
    ('nps_', 'multibeam / sonar (NPS, DAVE)'),
    ('ocean_current', 'ocean current world plugin (uuv_simulator / DAVE): the current is the '
                      "node's current input"),
)


def is_recorded_elsewhere(elem: ET.Element,
                          readers: Iterable[Callable[[ET.Element], bool]]) -> bool:
    """Return True if one of ``readers`` (predicates) takes ``elem``."""
    return any(reader(elem) for reader in readers)


def record_plugins(root: ET.Element, params: VehicleParams, source: str,
                   own_readers: Iterable[Callable[[ET.Element], bool]]) -> None:
    """Record every <plugin> not taken by ``own_readers`` (which record their own)."""
    own = tuple(own_readers)
    for elem in root.iter('plugin'):
        if is_recorded_elsewhere(elem, own):
            continue
        name = elem.get('filename') or elem.get('name') or 'plugin'
        place = where(source, elem)
        parent = getattr(elem, 'parent', None)
        if parent is not None and parent.tag == 'sensor' and \
                sensor_type_key(parent) in SENSOR_READERS:
            record(params, 'plugin', name, place, 'read', 'ROS interface of sensor %r (the '
                   "sensor's topic is used)" % parent.get('name'))
            continue
        for predicate, what in READ_BY_OTHERS:
            if predicate(elem):
                record(params, 'plugin', name, place, 'read', what)
                break
        else:
            lower = name.lower()
            known = [what for marker, what in NOT_MODELLED if marker in lower]
            if known:
                record(params, 'plugin', name, place, 'warned', 'not modelled: ' + known[0])
            else:
                record(params, 'plugin', name, place, 'warned', 'unknown plugin')
                params.warnings.append('unknown plugin %r at %s: not read' % (name, place))
