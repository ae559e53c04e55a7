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
ros2_control through topic_based_ros2_control: JointState commands in, JointState out.

``topic_based_ros2_control/TopicBasedSystem`` (PickNikRobotics/topic_based_ros2_control,
src/topic_based_system.cpp) is the hardware interface a simulator stands in for: its
``write()`` publishes sensor_msgs/JointState on ``joint_commands_topic`` (default
``/robot_joint_commands``) and its ``read()`` takes the JointState of
``joint_states_topic`` (default ``/robot_joint_states``).

Commands (:class:`JointCommands`): ``name`` lists every joint of the ros2_control
block, and each of ``position``, ``velocity``, ``effort`` carries one value per joint
*that has that command interface*, in name order (so with mixed joints the arrays are
shorter than ``name``); an array as long as ``name`` is read index by index.  A
thruster joint takes **effort** = its Float64 command (thrust, or the model's own
command such as PWM) or, with ``use_angvel_cmd``, **velocity** = rotor speed; a fin
joint **position** = deflection (rad); a moving joint of a kinematic tree the value of
the block's command interface
(:meth:`uwv_hydro.modes.articulated_simulate_mode.ArticulatedSimulateMode.command`).

Joints the vehicle does not have are ignored when the arrays are one per name; a
message is rejected whole and counted (:attr:`JointCommands.rejected`) when an array
fits neither rule (``bad_length``) or a value this vehicle uses is NaN/inf
(``non_finite``).  Where the commands lie depends only on the names and the array
lengths (:meth:`JointCommands.plan`), so the node works it out once per message layout
and reads each message's values by position (:meth:`JointCommands.take`).

State (:func:`joint_state_arrays`): every thruster and fin joint with position,
velocity and effort: a thruster's rotor angle, rotor speed (0 without one) and thrust;
a fin's deflection, rate and 0.  The set-up: doc/guide/drivers.md ("ros2_control
through topic_based_ros2_control").
"""
from collections import Counter
import math
from typing import Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

#: topic_based_ros2_control's default topics (topic_based_system.cpp on_init).
COMMANDS_TOPIC = '/robot_joint_commands'
STATES_TOPIC = '/robot_joint_states'
INTERFACES = ('position', 'velocity', 'effort')
#: Where a message layout's commands lie (:meth:`JointCommands.plan`), or why it is refused.
Plan = Union[str, List[Tuple[str, int, str, int]]]


class JointCommands:
    """Decode TopicBasedSystem command messages into thruster and fin commands."""

    def __init__(self, thrusters: Sequence, fin_names: Sequence[str],
                 joints: Sequence[Tuple[str, str]] = ()):
        #: joint -> ('thruster' | 'fin' | 'joint', index, interface)
        self.joints: Dict[str, Tuple[str, int, str]] = {}
        for k, spec in enumerate(thrusters):
            self.joints[spec.joint_name] = ('thruster', k, 'velocity' if spec.use_angvel_cmd
                                            else 'effort')
        for k, name in enumerate(fin_names):
            self.joints[name] = ('fin', k, 'position')
        for k, (name, interface) in enumerate(joints):
            if interface not in INTERFACES:
                raise ValueError('joint %s: command interface must be one of %s, got %r'
                                 % (name, ', '.join(INTERFACES), interface))
            self.joints[name] = ('joint', k, interface)
        self.rejected: Counter = Counter()
        self.accepted = 0

    def decode(self, names: Sequence[str], arrays: Dict[str, Sequence[float]]
               ) -> Tuple[Optional[str], List[Tuple[str, int, float]]]:
        """
        Return (None, [(kind, index, value)...]) or (reason, []) for one message.

        ``arrays`` maps 'position'/'velocity'/'effort' to the message's arrays.  A
        joint of this vehicle listed without a value for its interface gets none.
        """
        lengths = {interface: len(arrays.get(interface, ())) for interface in INTERFACES}
        return self.take(self.plan(names, lengths), arrays)

    def plan(self, names: Sequence[str], lengths: Dict[str, int]) -> Plan:
        """
        Return where each command of a message with ``names`` and array ``lengths`` lies.

        [(kind, index, interface, position in that array)...] in name order, or the
        reason the layout is refused ('bad_length'); the same for every message of
        that layout, so it may be kept (:meth:`take` uses it).
        """
        names = list(names)
        columns: Dict[str, Dict[str, int]] = {}
        for interface in INTERFACES:
            size = lengths.get(interface, 0)
            if not size:
                continue
            if size == len(names):
                columns[interface] = {name: k for k, name in enumerate(names)}
                continue
            # packed: one value per joint having this command interface, in name order
            users = [n for n in names if self.joints.get(n, (None, None, None))[2] == interface]
            if len(users) != size:
                return 'bad_length'
            columns[interface] = {name: k for k, name in enumerate(users)}
        out = []
        for name in names:
            known = self.joints.get(name)
            if known is None:
                continue
            kind, index, interface = known
            column = columns.get(interface, {}).get(name)
            if column is not None:
                out.append((kind, index, interface, column))
        return out

    def take(self, plan: Plan, arrays: Dict[str, Sequence[float]]
             ) -> Tuple[Optional[str], List[Tuple[str, int, float]]]:
        """Return (None, commands) or (reason, []) of a message laid out as ``plan``."""
        if isinstance(plan, str):
            self.rejected[plan] += 1
            return plan, []
        out = []
        for kind, index, interface, column in plan:
            value = float(arrays[interface][column])
            if not math.isfinite(value):
                self.rejected['non_finite'] += 1
                return 'non_finite', []
            out.append((kind, index, value))
        self.accepted += 1
        return None, out


def joint_state_arrays(thrust: np.ndarray, omega: np.ndarray, rotor_angle: np.ndarray,
                       fin_angles: Sequence[float], fin_rates: Sequence[float],
                       joints: Sequence[Sequence[float]] = ((), (), ())
                       ) -> Tuple[List[float], List[float], List[float]]:
    """
    Return (position, velocity, effort) lists: thrusters, then fins, then moving joints.

    ``joints``: the moving joints' (positions, speeds, efforts).
    """
    omega = np.where(np.isnan(omega), 0.0, omega)  # a model without rotor speed: 0
    position = ([float(a) for a in rotor_angle] + [float(a) for a in fin_angles]
                + [float(a) for a in joints[0]])
    velocity = ([float(w) for w in omega] + [float(r) for r in fin_rates]
                + [float(r) for r in joints[1]])
    effort = ([float(t) for t in thrust] + [0.0] * len(fin_angles)
              + [float(e) for e in joints[2]])
    return position, velocity, effort
