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
ArduSub through MAVROS (simulate mode): OverrideRCIn or RCOut in, thruster PWM out.

``ardusub_input`` chooses the input: ``override`` (mavros_msgs/OverrideRCIn on
``ardusub_override_topic``, default ``mavros/rc/override``: what an individual-thruster
stack such as ardusub_driver's thruster_hardware sends with the thruster servos in RC
passthrough) or ``rc_out`` (mavros_msgs/RCOut on ``ardusub_rc_out_topic``, default
``mavros/rc/out``: the servo outputs of an autopilot running elsewhere, SITL or the
board).  Channels go to thrusters through ``ardusub_servo_functions``
(SERVOn_FUNCTION, 33..40 = Motor1..8) and ``ardusub_motor_joints`` (the frame's
motor layout); a mapped thruster that is no PWM table is refused at start
(:func:`uwv_hydro.modes.ardusub_rc.pwm_thruster_problems`); the mapping, failsafe
and validation are :class:`uwv_hydro.modes.ardusub_rc.ArduSubChannels`.  Before every update the
channels' PWM widths are handed to the thrusters as their commands
(:class:`uwv_hydro.node.thruster_io.ThrusterIO`), so they replace the Float64
commands of those thrusters.
"""
from uwv_hydro.modes.ardusub_rc import ArduSubChannels, check_pwm_thrusters
from uwv_hydro.node.node_part import locked, NodePart


def motor_joints(cfg, thrusters):
    """Return the thruster joint of Motor1, Motor2, ... (``ardusub_motor_joints``)."""
    joints = [j for j in cfg['ardusub_motor_joints'] if j]
    if not joints:
        joints = list(thrusters.drive.names)  # Motor k = the vehicle's k-th thruster
    unknown = [j for j in joints if j not in thrusters.drive.names]
    if unknown:
        raise ValueError('ardusub_motor_joints: %s not thrusters of the vehicle (%s)'
                         % (', '.join(unknown), ', '.join(thrusters.drive.names)))
    return joints


def check_pwm_servos(servos, thrusters) -> None:
    """Raise ValueError when a thruster on an ArduSub servo takes no PWM (its model named)."""
    check_pwm_thrusters(servos, {spec.joint_name: spec for spec in thrusters.drive.bank.specs})


class ArduSubIO(NodePart):
    """One MAVROS subscription feeding the vehicle's thrusters."""

    def __init__(self, node, thrusters):
        super().__init__(node)
        cfg = self.cfg
        joints = motor_joints(cfg, thrusters)
        kind = cfg['ardusub_input']
        self.channels = ArduSubChannels(kind, cfg['ardusub_servo_functions'], joints,
                                        cfg['ardusub_timeout'])
        check_pwm_servos(self.channels.servos, thrusters)
        self.thrusters = thrusters
        if kind == 'override':
            from mavros_msgs.msg import OverrideRCIn
            msg_type, self.topic = OverrideRCIn, cfg['ardusub_override_topic']
        else:
            from mavros_msgs.msg import RCOut
            msg_type, self.topic = RCOut, cfg['ardusub_rc_out_topic']
        self.add_input(self.topic)
        node.create_subscription(msg_type, self.topic, self._on_channels, 10)
        thrusters.feeds.append(self._feed)
        self.logger.info('ArduSub %s on %s: %s' % (kind, self.topic, ', '.join(
            'servo %d -> %s' % item for item in sorted(self.channels.servos.items()))))

    @locked
    def _on_channels(self, msg) -> None:
        node = self.node
        reason = self.channels.receive(list(msg.channels), node.pace_ns())
        if reason is not None:
            node.drop(self.topic, reason, ' (%d channels)' % len(msg.channels))
            return
        node.inputs[self.topic].received(node.now_ns())

    def _feed(self, now_ns: int) -> None:
        for joint, pwm in self.channels.commands(now_ns).items():
            self.thrusters.drive.command(joint, pwm, now_ns)

    def reset(self) -> None:
        """Forget the channels (failsafe neutral until the next message)."""
        self.channels.reset()

    def snapshot(self, snap: dict) -> None:
        """Add each thruster's servo, PWM and state to the input's /diagnostics entry."""
        now = self.node.pace_ns()
        commands = self.channels.commands(now)
        values = snap['inputs'][self.topic].setdefault('values', {})
        for n, joint in sorted(self.channels.servos.items()):
            values['servo%d %s pwm' % (n, joint)] = commands[joint]
            values['servo%d %s' % (n, joint)] = ('ok' if self.channels.fresh(joint, now)
                                                 else 'neutral')
