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
``simulate``'s options for a vehicle with moving links: joint commands, initial positions.

``--joint-command JOINT FILE.csv`` (repeatable; header ``t,position``, ``t,velocity``
or ``t,effort``: the node's Float64 ``cmd_pos``, ``cmd_vel``, ``cmd_force``),
``--joint-profile FILE.csv`` (header ``t,<joint>,...``: one JointState per row, every
joint with ``--joint-interface``, the node's ``ros2_control_joint_interface``) and
``--initial-joint-positions`` (the node's ``initial_joint_positions``): see
:mod:`uwv_hydro.modes.joint_profiles` and :mod:`uwv_hydro.modes.initial_joints`.
"""
from uwv_hydro.cli.number_options import JOINT_POSITION
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.modes.joint_profiles import KINDS


def add_joint_arguments(p) -> None:
    """Register the joint options on parser ``p``."""
    p.add_argument('--joint-command', nargs=2, action='append', default=[],
                   metavar=('JOINT', 'FILE.csv'),
                   help='a vehicle with moving links: commands of JOINT from a CSV '
                   't,position | t,velocity | t,effort (held from each row to the next, '
                   "as the node's joints/<joint>/cmd_pos, cmd_vel, cmd_force); repeatable")
    p.add_argument('--joint-profile', metavar='FILE.csv',
                   help='a vehicle with moving links: one JointState command per row, CSV '
                   't,<joint>,<joint>,... (held from each row to the next)')
    p.add_argument('--joint-interface', choices=KINDS, default='position',
                   help="what --joint-profile's values are (the node's "
                   'ros2_control_joint_interface; default position)')
    p.add_argument('--initial-joint-positions', nargs='+', type=JOINT_POSITION, metavar='Q',
                   help='a vehicle with moving links: initial position of every moving '
                   'joint, in the order of joint_states (default zero, clamped to the '
                   "limits; the node's initial_joint_positions)")


def joint_inputs(args, params):
    """Return (JointCommandProfile or None, initial joint positions or None), checked."""
    given = [name for name, value in (
        ('--joint-command', args.joint_command), ('--joint-profile', args.joint_profile),
        ('--initial-joint-positions', args.initial_joint_positions)) if value]
    if params.tree is None:
        if given:
            raise DescriptionError('vehicle %s has no moving joints' % params.name,
                                   element=given[0])
        return None, None
    from uwv_hydro.modes.initial_joints import initial_joint_positions
    from uwv_hydro.modes.joint_profiles import JointCommandProfile
    try:
        start = (None if args.initial_joint_positions is None
                 else initial_joint_positions(args.initial_joint_positions, params.tree,
                                              '--initial-joint-positions'))
    except ValueError as exc:
        raise DescriptionError(str(exc)) from None
    if not args.joint_command and not args.joint_profile:
        return None, start
    profile = JointCommandProfile(params.tree.joint_names())
    for joint, path in args.joint_command:
        profile.add_joint_csv(joint, path)
    if args.joint_profile:
        profile.add_joint_state_csv(args.joint_profile, args.joint_interface)
    return profile, start
