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
gz-sim ``JointPositionController`` plugins that drive fin joints.

gz-sim (``src/systems/joint_position_controller/JointPositionController.cc``,
Configure) drives the joints of its ``<joint_name>`` elements with a PID (defaults
p 1, i 0.1, d 0.01, i_max/i_min +-1, cmd_max/cmd_min +-1000, cmd_offset 0) toward
the last std_msgs Double position command, listening on (later rules win):

* ``/model/<model>/joint/<first joint_name>/<joint_index, default 0>/cmd_pos``;
* ``/actuators`` (Actuators messages) with ``<use_actuator_msg>true``;
* ``/model/<model>/<sub_topic>`` with ``<sub_topic>``;
* ``<topic>`` as written with ``<topic>``.

uwv_hydro's fins are servos (:class:`uwv_hydro.modes.fin_servos.FinServos`): the
deflection moves to the command at the joint's ``<velocity>`` limit (none: in one
step), so the PID's gains, limits and overshoot are not simulated, which the
warning of :func:`controller_warning` says.
"""
from typing import List, Optional
import xml.etree.ElementTree as ET

#: PID and start elements of JointPositionController that a fin servo does not model.
PID_KEYS = ('p_gain', 'i_gain', 'd_gain', 'i_max', 'i_min', 'cmd_max', 'cmd_min',
            'cmd_offset', 'use_velocity_commands', 'initial_position')


def is_joint_position_controller(plugin: ET.Element) -> bool:
    """Return True for a gz-sim / Ignition JointPositionController <plugin>."""
    text = (plugin.get('filename', '') + ' ' + plugin.get('name', '')).lower()
    return 'jointpositioncontroller' in text.replace('-', '').replace('_', '')


def _text(plugin: ET.Element, tag: str) -> str:
    elem = plugin.find(tag)
    return (elem.text or '').strip() if elem is not None else ''


def controller_joints(plugin: ET.Element) -> List[str]:
    """Return the (unscoped) names of a controller's non-empty <joint_name> elements."""
    return [(e.text or '').strip() for e in plugin.findall('joint_name')
            if (e.text or '').strip()]


def controller_topic(plugin: ET.Element, model: str) -> Optional[str]:
    """
    Return the gz topic a JointPositionController listens on (None: Actuators messages).

    ``model`` is the model's name in the world; the rules are Configure's.
    """
    joints = controller_joints(plugin)
    if _text(plugin, 'topic'):
        return _text(plugin, 'topic')
    if _text(plugin, 'sub_topic'):
        return '/model/%s/%s' % (model, _text(plugin, 'sub_topic'))
    if _text(plugin, 'use_actuator_msg').lower() in ('1', 'true'):
        return None
    index = _text(plugin, 'joint_index') or '0'
    return '/model/%s/joint/%s/%s/cmd_pos' % (model, joints[0] if joints else '', index)


def ros_fin_topic(gz_topic: str) -> str:
    """
    Return a gz topic as a valid ROS 2 name: tokens starting with a digit are dropped.

    gz-sim's default ``.../joint/<joint>/0/cmd_pos`` becomes ``.../joint/<joint>/cmd_pos``
    (a ROS 2 name token may not start with a digit).
    """
    tokens = [t for t in gz_topic.split('/') if t and not t[0].isdigit()]
    return ('/' if gz_topic.startswith('/') else '') + '/'.join(tokens)


def controller_warning(plugin: ET.Element, joint: str, velocity: float) -> str:
    """Return the warning naming what a fin's JointPositionController has that is not run."""
    given = ['%s %s' % (key, _text(plugin, key)) for key in PID_KEYS if _text(plugin, key)]
    rate = ('at the joint velocity limit %g rad/s' % velocity if velocity != float('inf')
            else 'in one step (the joint has no velocity limit)')
    return ('JointPositionController of fin %s: its PID (%s) is not simulated; the fin is '
            'a servo reaching the commanded angle %s'
            % (joint, ', '.join(given) or "gz-sim's default gains", rate))
