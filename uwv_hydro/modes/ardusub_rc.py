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
ArduSub PWM channels (MAVROS messages) to per-thruster commands (pure, no ROS).

Two inputs, as a BlueROV2 stack sends them through MAVROS:

``override`` (mavros_msgs/OverrideRCIn on ``mavros/rc/override``)
    RC channel n in microseconds.  An individual-thruster stack (ardusub_driver's
    ``thruster_hardware``) sets each thruster's ``SERVOn_FUNCTION`` to 1 (RCPassThru),
    so servo n puts out RC channel n; the thruster on servo n is the ArduSub motor k
    with ``SERVOn_FUNCTION = 32 + k`` (ArduPilot SRV_Channel.h ``k_motor1``..).  Special
    values (MAVLink RC_CHANNELS_OVERRIDE, common.xml; MAVROS OverrideRCIn.msg):
    channels 1-8: 0 (CHAN_RELEASE) releases to the (absent) radio, i.e. neutral, 65535
    (CHAN_NOCHANGE) leaves it; channels 9-18: 0 and 65535 are ignored, 65534 releases.
    A channel not overridden for ``timeout`` seconds (ArduPilot ``RC_OVERRIDE_TIME``,
    RC_Channel.cpp) falls back to neutral: the failsafe with no pilot input.
``rc_out`` (mavros_msgs/RCOut on ``mavros/rc/out``)
    The autopilot's actual servo outputs (MAVLink SERVO_OUTPUT_RAW): channels[n-1]
    is servo n; no output for ``timeout`` seconds makes every thruster neutral.

Neutral is 1500 us (AP_Motors6DOF ``output_min``).  A thruster command is the PWM
width itself, read through the thruster's lookup table (the table thrust model, e.g.
the T200 curve of ``config/ardusub_bluerov2.yaml``).  Only such a table reads a PWM
width: :func:`pwm_thruster_problems` refuses every other thruster model (which would
read 1500 us as 1500 of its own unit and push at full power while disarmed) and a
table that does not hold 1500 us at zero thrust; no peer defines another map.

Bad messages are rejected whole and counted (:attr:`ArduSubChannels.rejected`):
``bad_channel_count`` (an RCOut shorter than the highest mapped servo),
``pwm_out_of_range`` (a mapped channel outside [:data:`PWM_MIN`, :data:`PWM_MAX`]
that is no special value).  The set-up: doc/guide/drivers.md ("ArduSub through MAVROS").
"""
from collections import Counter
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

#: The MAVROS inputs this module maps; ``sitl_json`` is ArduPilot's JSON SITL backend
#: (node/sitl_json_io.py), which maps the servos of its packets itself.
MAVROS_INPUTS = ('override', 'rc_out')
INPUTS = ('none',) + MAVROS_INPUTS + ('sitl_json',)
#: ArduSub motor outputs at rest / in failsafe (AP_Motors6DOF::output_min).
NEUTRAL_PWM = 1500.0
#: Plausible pulse widths (us); outside is no servo pulse (a unit or scaling bug).
PWM_MIN = 800
PWM_MAX = 2200
#: ArduPilot RC_OVERRIDE_TIME default (s).
OVERRIDE_TIMEOUT_S = 3.0
#: MAVROS OverrideRCIn constants and MAVLink's release value of channels 9-18.
CHAN_RELEASE = 0
CHAN_NOCHANGE = 65535
CHAN_RELEASE_HIGH = 65534
#: SRV_Channel function numbers of Motor1..Motor8 (k_motor1 = 33).
MOTOR_FUNCTION_FIRST = 33
MOTOR_FUNCTION_LAST = 40
#: OverrideRCIn carries 18 channels (MAVLink RC_CHANNELS_OVERRIDE).
OVERRIDE_CHANNELS = 18


def servo_map(servo_functions: Sequence[int], motor_joints: Sequence[str]
              ) -> Dict[int, str]:
    """
    Return {servo number (1-based): thruster joint} from SERVOn_FUNCTION and the frame.

    ``servo_functions[n-1]`` is ``SERVOn_FUNCTION``; a motor function 32 + k puts
    ArduSub motor k (``motor_joints[k-1]``) on servo n.  Other functions (disabled,
    lights, gripper...) drive no thruster.  Raises ValueError for a motor the frame
    does not have or two servos on one motor.
    """
    out = {}
    for n, function in enumerate(servo_functions, start=1):
        function = int(function)
        if not MOTOR_FUNCTION_FIRST <= function <= MOTOR_FUNCTION_LAST:
            continue
        k = function - MOTOR_FUNCTION_FIRST + 1
        if k > len(motor_joints):
            raise ValueError('SERVO%d_FUNCTION = %d (Motor%d): the frame has %d motors'
                             % (n, function, k, len(motor_joints)))
        joint = motor_joints[k - 1]
        if joint in out.values():
            raise ValueError('SERVO%d_FUNCTION = %d: Motor%d (%s) is already on another servo'
                             % (n, function, k, joint))
        out[n] = joint
    if not out:
        raise ValueError('no SERVOn_FUNCTION is a motor (33..40): no thruster to drive')
    return out


def pwm_thruster_problems(servos: Mapping[int, str], specs: Mapping[str, object]
                          ) -> List[str]:
    """
    Return why each thruster on an ArduSub servo cannot take a PWM width (empty: all can).

    ``servos``: {servo number: thruster joint} (:func:`servo_map`); ``specs``: {joint:
    its ThrusterSpec}.  A thruster takes PWM when it is the table model whose commands
    span ArduSub's neutral :data:`NEUTRAL_PWM` and give zero thrust there (the motors'
    output when disarmed or in failsafe, AP_Motors6DOF::output_min).
    """
    out = []
    for n, joint in sorted(servos.items()):
        spec = specs[joint]
        model = spec.model
        where = 'servo %d -> thruster %s (%s model)' % (n, joint, model)
        if model != 'table':
            out.append('%s: ArduSub sends PWM widths (neutral %g us), which only a table '
                       'thruster (lookup_command in us) reads; this model would take %g us '
                       'as %g of its own command' % (where, NEUTRAL_PWM, NEUTRAL_PWM,
                                                     NEUTRAL_PWM))
            continue
        command = np.asarray(spec.lookup_command, dtype=float)
        thrust = np.asarray(spec.lookup_thrust, dtype=float)
        if not command[0] <= NEUTRAL_PWM <= command[-1]:
            out.append('%s: lookup_command [%g .. %g] does not hold the ArduSub neutral %g us '
                       '(not a PWM table)' % (where, command[0], command[-1], NEUTRAL_PWM))
            continue
        # neutral must give no thrust: zero up to the interpolation's rounding
        at_neutral = float(np.interp(NEUTRAL_PWM, command, thrust))
        if abs(at_neutral) > 1e-9 * float(np.max(np.abs(thrust))):
            out.append('%s: %g N at the ArduSub neutral %g us (disarmed and failsafe must '
                       'give no thrust)' % (where, at_neutral, NEUTRAL_PWM))
    return out


def check_pwm_thrusters(servos: Mapping[int, str], specs: Mapping[str, object]) -> None:
    """Raise ValueError naming every thruster on an ArduSub servo that takes no PWM."""
    problems = pwm_thruster_problems(servos, specs)
    if problems:
        raise ValueError('; '.join(problems))


class ArduSubChannels:
    """PWM channels of OverrideRCIn / RCOut -> per-thruster PWM commands."""

    def __init__(self, kind: str, servo_functions: Sequence[int],
                 motor_joints: Sequence[str], timeout_s: float = OVERRIDE_TIMEOUT_S):
        if kind not in MAVROS_INPUTS:
            raise ValueError('ardusub input %r: one of %s' % (kind, ', '.join(MAVROS_INPUTS)))
        self.kind = kind
        self.servos = servo_map(servo_functions, motor_joints)
        if kind == 'override' and max(self.servos) > OVERRIDE_CHANNELS:
            raise ValueError('servo %d has no RC channel to pass through (OverrideRCIn has %d)'
                             % (max(self.servos), OVERRIDE_CHANNELS))
        self.timeout_ns = int(round(timeout_s * 1e9))
        self.rejected: Counter = Counter()
        self.accepted = 0
        #: per joint: (PWM, time it was last set in ns) of the override / output
        self._last: Dict[str, Tuple[float, int]] = {}

    @property
    def joints(self) -> List[str]:
        """Return the thruster joints driven, in servo order."""
        return [self.servos[n] for n in sorted(self.servos)]

    def _check(self, channels: Sequence[int]) -> Optional[str]:
        """Return why a message is unusable (None if usable)."""
        if len(channels) < max(self.servos):
            return 'bad_channel_count'
        for n in self.servos:
            value = int(channels[n - 1])
            if self._special(n, value) is None and not PWM_MIN <= value <= PWM_MAX:
                return 'pwm_out_of_range'
        return None

    def _special(self, n: int, value: int) -> Optional[str]:
        """Return 'release', 'ignore' or None (a pulse) for channel n's value."""
        if self.kind != 'override':
            return None
        # MAVLink RC_CHANNELS_OVERRIDE: chan1-8 0 = release, UINT16_MAX = ignore;
        # chan9-18 0 / UINT16_MAX = ignore, UINT16_MAX - 1 = release
        if n <= 8:
            return {CHAN_RELEASE: 'release', CHAN_NOCHANGE: 'ignore'}.get(value)
        return {CHAN_RELEASE: 'ignore', CHAN_NOCHANGE: 'ignore',
                CHAN_RELEASE_HIGH: 'release'}.get(value)

    def receive(self, channels: Sequence[int], now_ns: int) -> Optional[str]:
        """
        Take one message's channels received at ``now_ns``; return None or why rejected.

        A rejected message changes nothing (counted in :attr:`rejected`).
        """
        reason = self._check(channels)
        if reason is not None:
            self.rejected[reason] += 1
            return reason
        self.accepted += 1
        for n, joint in self.servos.items():
            value = int(channels[n - 1])
            special = self._special(n, value)
            if special == 'ignore':
                continue  # no change: the channel keeps its value and its age
            self._last[joint] = (NEUTRAL_PWM if special == 'release' else float(value), now_ns)
        return None

    def commands(self, now_ns: int) -> Dict[str, float]:
        """Return {joint: PWM} now: the latest value, neutral once older than the timeout."""
        out = {}
        for joint in self.joints:
            value, t = self._last.get(joint, (NEUTRAL_PWM, None))
            # ArduPilot RC_Channel.cpp: an override is held while its age < the timeout
            if t is None or now_ns - t >= self.timeout_ns:
                value = NEUTRAL_PWM  # RC_OVERRIDE_TIME reached / no output: failsafe neutral
            out[joint] = value
        return out

    def fresh(self, joint: str, now_ns: int) -> bool:
        """Return True when ``joint`` has a value younger than the timeout."""
        last = self._last.get(joint)
        return last is not None and now_ns - last[1] < self.timeout_ns

    def reset(self) -> None:
        """Forget every channel (reset, clock jump)."""
        self._last.clear()
