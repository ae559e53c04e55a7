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
A Gazebo range finder (a ``ray`` sensor publishing sensor_msgs/Range) as an echosounder.

How the peers write a sonar altimeter / single-beam echo sounder: a Gazebo ``ray`` (or
``gpu_ray``) sensor of a few rays with a range plugin -- uuv_simulator's DVL beams
(``uuv_sensor_ros_plugins/urdf/dvl_snippets.xacro``, ``dvl_single_sonar``) and DAVE's
copies of them (``dave_sensor_models/models/teledyne_whn_uuvsim``).  ds_sim and
osrf/lrauv have no altimeter sensor, gz-sensors no range sensor (its ``altimeter`` is
the vertical position above a reference: left not modelled).  Read here, the sensor is
one ``echosounder``:

* ROS 1 ``libgazebo_ros_range.so`` (gazebo_ros_pkgs ``gazebo_plugins/src/
  gazebo_ros_range.cpp``: ``topicName``, ``updateRate``, ``gaussianNoise``,
  ``radiation``, ``fov``, ``frameName``) or ROS 2 ``libgazebo_ros_ray_sensor.so`` with
  ``<output_type>sensor_msgs/Range`` (topic from ``<ros><remapping>~/out:=topic``,
  ``frame_name``, ``radiation_type``);
* ``<ray><range>`` ``min`` / ``max`` -> ``min_range`` / ``max_range``; ``<ray><scan>``
  -> a cone of full angle the larger extent, centred on the scan's centre, cast with
  the fixed pattern of :mod:`uwv_hydro.physics.sensing.echosounder` instead of Gazebo's rays;
  ``<ray><noise>`` and the plugin's noise -> one range noise, the stddevs in quadrature.

What differs, and is warned: gazebo_ros_range publishes ``max_range`` for no echo and
sees through targets nearer than ``<min>``, where this echosounder publishes +inf and
-inf as sensor_msgs/Range and REP 117 define them; the targets are the world's seabed
(``seabed_file``) and the sea surface, not the world's meshes.  The peers' files and
the mapping in full: doc/guide/seabed.md ("The peers' altimeters").
"""
import math
from typing import Any, Dict, List, Optional
import xml.etree.ElementTree as ET

from uwv_hydro.description.conventions import rpy_to_matrix
from uwv_hydro.description.sensors import _Ctx, _join, _mapping, _number

#: The warning every Gazebo range sensor read as an echosounder carries.
RANGE_SEMANTICS = ('out of range +inf, too close -inf (sensor_msgs/Range, REP 117), where '
                   'gazebo_ros_range publishes max_range for no echo and sees through '
                   'targets nearer than <min> (gazebo_ros_pkgs gazebo_plugins/src/'
                   'gazebo_ros_range.cpp); targets: the seabed and the sea surface, not '
                   "the world's meshes")
_ROS1 = 'gazebo_ros_range'
_ROS2 = 'gazebo_ros_ray_sensor'


def range_plugin(sensor: ET.Element) -> Optional[ET.Element]:
    """Return the <plugin> of a ``ray`` / ``gpu_ray`` sensor that publishes a Range, or None."""
    for plugin in sensor.findall('plugin'):
        filename = plugin.get('filename', '')
        if _ROS1 in filename:
            return plugin
        output = plugin.find('output_type')
        if _ROS2 in filename and output is not None and \
                (output.text or '').strip() == 'sensor_msgs/Range':
            return plugin
    return None


def _text(plugin: ET.Element, tag: str) -> Optional[str]:
    elem = plugin.find(tag)
    return None if elem is None else (elem.text or '').strip()


def _ros2_topic(plugin: ET.Element) -> Optional[str]:
    """Return the topic of gazebo_ros_ray_sensor's ``~/out`` remapping (and namespace)."""
    ros = plugin.find('ros')
    if ros is None:
        return None
    topic = None
    for remap in ros.findall('remapping') + ros.findall('argument'):
        text = (remap.text or '').strip()
        if text.startswith('~/out:='):
            topic = text.split(':=', 1)[1].strip()
    namespace = (ros.findtext('namespace') or '').strip()
    if topic and namespace and not topic.startswith('/'):
        topic = namespace.rstrip('/') + '/' + topic
    return topic or None


def _scan_axis(scan: Dict[str, Any], axis: str, path: str, ctx: _Ctx):
    """Return (extent, centre) (rad) of a scan axis; a missing axis is one ray on +x."""
    block = _mapping(scan.get(axis))
    if not isinstance(block, dict):
        raise ctx.error(_join(path, axis), 'expected a <%s> block' % axis)
    for key in block:
        if key not in ('samples', 'resolution', 'min_angle', 'max_angle'):
            raise ctx.error(_join(path, '%s.%s' % (axis, key)),
                            "unknown scan element '%s'" % key)
    low = _number(block.get('min_angle', '0'), _join(path, axis + '.min_angle'), ctx)
    high = _number(block.get('max_angle', '0'), _join(path, axis + '.max_angle'), ctx)
    samples = _number(block.get('samples', '1'), _join(path, axis + '.samples'), ctx,
                      minimum=1.0)
    if samples == 1.0:
        return 0.0, low  # SDF: one sample at min_angle
    return abs(high - low), 0.5 * (low + high)


def read_gazebo_range(tree: Dict[str, Any], ctx: _Ctx, name: str):
    """Return a Gazebo range sensor as an echosounder (reader of SENSOR_READERS)."""
    plugin: ET.Element = tree.pop('_range_plugin')
    notes: List[str] = [RANGE_SEMANTICS]
    ray_key = 'ray'
    ray = _mapping(tree.pop(ray_key, None))
    if not isinstance(ray, dict):
        raise ctx.error(_join(name, ray_key), 'expected a <ray> block')
    for key in ray:
        if key not in ('scan', 'range', 'noise'):
            raise ctx.error(_join(name, 'ray.' + key), "unknown ray element '%s'" % key)
    block: Dict[str, Any] = {}
    limits = _mapping(ray.get('range'))
    if isinstance(limits, dict):
        if 'min' in limits:
            block['min_range'] = _number(limits['min'], _join(name, 'ray.range.min'), ctx)
        if 'max' in limits:
            block['max_range'] = _number(limits['max'], _join(name, 'ray.range.max'), ctx)
        if 'resolution' in limits:
            notes.append('ray range resolution not modelled')
    scan = _mapping(ray.get('scan'))
    if isinstance(scan, dict) and scan:
        where = _join(name, 'ray.scan')
        (width, yaw), (height, elevation) = (_scan_axis(scan, a, where, ctx)
                                             for a in ('horizontal', 'vertical'))
        block['field_of_view'] = max(width, height)
        notes.append('scan of %.4g x %.4g rad read as a cone of %.4g rad (the fixed ray '
                     'pattern of physics/sensing/echosounder.py)'
                     % (width, height, block['field_of_view']))
    else:
        yaw = elevation = 0.0
    rotation = None
    if yaw or elevation:
        # Gazebo ray direction Rz(h) Ry(-v) x: the cone's axis at the scan's centre
        rotation = rpy_to_matrix((0.0, -elevation, yaw))
        notes.append('scan centred %.4g rad left, %.4g rad up of +x: the frame is turned '
                     'onto it' % (yaw, elevation))
    sigmas, mean = [], 0.0
    noise = _mapping(ray.get('noise'))
    if isinstance(noise, dict) and noise and noise.get('type', 'gaussian') != 'none':
        for key in noise:
            if key not in ('type', 'mean', 'stddev'):
                raise ctx.error(_join(name, 'ray.noise.' + key),
                                "unknown ray noise element '%s'" % key)
        sigmas.append(_number(noise.get('stddev', '0'), _join(name, 'ray.noise.stddev'),
                              ctx, minimum=0.0))
        mean = _number(noise.get('mean', '0'), _join(name, 'ray.noise.mean'), ctx)
        notes.append('the per-ray <noise> (Gazebo adds it to every ray before the '
                     'minimum) is applied to the range')
    ros1 = _ROS1 in plugin.get('filename', '')
    plugin_noise = _text(plugin, 'gaussianNoise') if ros1 else None
    if plugin_noise:
        sigmas.append(_number(plugin_noise, _join(name, 'plugin.gaussianNoise'), ctx,
                              minimum=0.0))
    if sigmas or mean:
        # independent Gaussian noises add in variance
        block['range'] = {'noise': {'mean': mean,
                                    'stddev': math.sqrt(sum(s * s for s in sigmas))}}
    topic = _text(plugin, 'topicName') if ros1 else _ros2_topic(plugin)
    if topic:
        tree['topic'] = topic
    rate = _text(plugin, 'updateRate') if ros1 else None
    if rate:
        value = _number(rate, _join(name, 'plugin.updateRate'), ctx, minimum=0.0)
        own = tree.get('update_rate')
        try:
            own = float(own) if own is not None else 0.0
        except (TypeError, ValueError):
            own = 0.0  # sensor_from_mapping names the bad value
        if value > 0.0 and (own <= 0.0 or value < own):
            tree['update_rate'] = value  # gazebo_ros_range throttles to its updateRate
    radiation = _text(plugin, 'radiation' if ros1 else 'radiation_type')
    if radiation and radiation.lower() != 'ultrasound':
        notes.append('radiation %s published as ULTRASOUND (an echo sounder)' % radiation)
    fov = _text(plugin, 'fov') if ros1 else None
    if fov and 'field_of_view' in block:
        value = _number(fov, _join(name, 'plugin.fov'), ctx, minimum=0.0)
        if abs(value - block['field_of_view']) > 1e-9:
            notes.append('plugin fov %g rad (only written to the message by '
                         'gazebo_ros_range) differs from the scan: %.4g rad published'
                         % (value, block['field_of_view']))
    frame = _text(plugin, 'frameName' if ros1 else 'frame_name')
    if frame:
        notes.append('frame %s: the sensor frame is used' % frame)
    notes.append('no seabed_depth: without a seabed_file the sounder sees only the sea '
                 'surface')
    tree['echosounder'] = block
    tree['type'] = 'echosounder'
    return 'echosounder', tree, notes, rotation
