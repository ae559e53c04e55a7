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
JointState commands as topic_based_ros2_control's TopicBasedSystem writes them.

TopicBasedSystem::write() (src/topic_based_system.cpp) lists every joint in ``name``
and pushes a position / velocity / effort value only for the joints declaring that
command interface: with thrusters (effort) and fins (position) the arrays are
shorter than ``name``.  Both layouts (packed and one value per name) decode alike.
"""
import math

import numpy as np

from uwv_hydro.modes.joint_state_io import joint_state_arrays, JointCommands
from uwv_hydro.physics.actuators.thruster_spec import ThrusterSpec

THRUSTERS = (ThrusterSpec('stern'), ThrusterSpec('side', use_angvel_cmd=True))
FINS = ('rudder', 'elevator')


def test_packed_and_aligned_layouts_decode_alike():
    dec = JointCommands(THRUSTERS, FINS)
    names = ['stern', 'side', 'rudder', 'elevator', 'arm_joint']
    # packed, as TopicBasedSystem writes it: effort for stern, velocity for side,
    # position for the fins
    packed = dec.decode(names[:4], {'effort': [3.0], 'velocity': [40.0],
                                    'position': [0.1, -0.2]})
    aligned = dec.decode(names, {'effort': [3.0, 0.0, 0.0, 0.0, 0.0],
                                 'velocity': [0.0, 40.0, 0.0, 0.0, 0.0],
                                 'position': [0.0, 0.0, 0.1, -0.2, 1.5]})
    expected = [('thruster', 0, 3.0), ('thruster', 1, 40.0), ('fin', 0, 0.1),
                ('fin', 1, -0.2)]
    assert packed == (None, expected)
    assert aligned == (None, expected)
    # aligned arrays may list another robot's joints (arm_joint: ignored); packed ones
    # are matched to this vehicle's joints, so a foreign position makes 3 values for
    # 2 fins: ambiguous, rejected
    assert dec.decode(names[:4] + ['x'], {'position': [0.1, -0.2, 9.0]})[0] == 'bad_length'
    assert dec.accepted == 2


def test_bad_messages_are_rejected_whole():
    dec = JointCommands(THRUSTERS, FINS)
    assert dec.decode(['stern', 'rudder'], {'effort': [1.0, 2.0, 3.0]}) == ('bad_length', [])
    assert dec.decode(['stern', 'rudder'], {'effort': [math.nan], 'position': [0.1]}) == (
        'non_finite', [])
    # a NaN of a joint that is not ours is no reason to reject
    assert dec.decode(['other', 'stern'], {'effort': [math.nan, 2.0]}) == (
        None, [('thruster', 0, 2.0)])
    assert dict(dec.rejected) == {'bad_length': 1, 'non_finite': 1}


def test_state_arrays_every_joint_has_position_velocity_effort():
    pos, vel, eff = joint_state_arrays(np.array([3.0, 5.0]), np.array([np.nan, 40.0]),
                                       np.array([0.0, 2.5]), [0.1, -0.2], [0.01, 0.0])
    assert pos == [0.0, 2.5, 0.1, -0.2]
    assert vel == [0.0, 40.0, 0.01, 0.0]  # no rotor speed (a table thruster): 0
    assert eff == [3.0, 5.0, 0.0, 0.0]


def test_moving_joints_take_their_interface_beside_thrusters_and_fins():
    """An arm joint (a vehicle with moving links) with the velocity interface, packed or not."""
    dec = JointCommands(THRUSTERS, FINS, [('shoulder', 'velocity'), ('elbow', 'velocity')])
    names = ['stern', 'side', 'rudder', 'elevator', 'shoulder', 'elbow']
    # packed: velocity for side (use_angvel_cmd) and both arm joints, in name order
    packed = dec.decode(names, {'effort': [3.0], 'velocity': [40.0, 0.2, -0.3],
                                'position': [0.1, -0.2]})
    assert packed == (None, [('thruster', 0, 3.0), ('thruster', 1, 40.0), ('fin', 0, 0.1),
                             ('fin', 1, -0.2), ('joint', 0, 0.2), ('joint', 1, -0.3)])
    # one value per name: an arm joint's position is not its interface's value
    aligned = dec.decode(['shoulder', 'elbow'], {'position': [1.0, 2.0],
                                                 'velocity': [0.5, 0.6]})
    assert aligned == (None, [('joint', 0, 0.5), ('joint', 1, 0.6)])
    position, velocity, effort = joint_state_arrays(
        np.zeros(0), np.zeros(0), np.zeros(0), [], [], ([0.4, -0.1], [0.2, 0.0], [3.0, -1.0]))
    assert (position, velocity, effort) == ([0.4, -0.1], [0.2, 0.0], [3.0, -1.0])
