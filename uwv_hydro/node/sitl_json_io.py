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
ArduPilot SITL's JSON physics backend (simulate mode, ``ardusub_input: sitl_json``).

ArduSub built for SITL and started with ``--model JSON`` sends a servo packet per
frame to UDP ``sitl_json_address``:``sitl_json_port`` (default 127.0.0.1:9002) and
waits for the reply (:mod:`uwv_hydro.modes.messages.sitl_json_packet`).  This part binds that
port and runs the node in lock step with it (:mod:`uwv_hydro.modes.sitl_lock_step`):
each new frame hands the servos' PWM to the thrusters (``ardusub_servo_functions`` /
``ardusub_motor_joints``, the thrusters' PWM tables), runs exactly one update of one
step of 1/``rate_hz`` s, and answers with the state in NED / FRD
(:mod:`uwv_hydro.modes.sitl_json_frames`).  The node has no timer then: its pacing
clock and its stamps are the physics time (0 at start, advancing 1/``rate_hz`` per
frame).  Without ``rate_hz`` the step is 1/``frame_rate`` of each run's first frame
(ArduPilot's ``SIM_RATE_HZ``, SIM_JSON.cpp); a given ``rate_hz`` is kept.  Odometry,
TF and /clock (the physics time) go out every 1/``sitl_json_publish_rate`` s of physics
time; the sensors at their own rates.  The set-up: doc/guide/ardusub_sitl.md.

With a seabed (``seabed_file``) every reply also carries ``rng_1``, ArduPilot's SITL
rangefinder 1 (``RNGFND1_TYPE`` 100): the range along a beam from
``sitl_json_rangefinder_position`` in ``sitl_json_rangefinder_direction`` (base link,
FLU; straight down by default) to the seabed, measured every
1/``sitl_json_rangefinder_rate`` s of physics time, 1 m beyond
``sitl_json_rangefinder_max`` without a return (:mod:`uwv_hydro.modes.sitl_rangefinder`).
Without a seabed file the reply has no ``rng_1``.

Bad input never stops it: a packet with a wrong magic, a wrong size or frame_rate 0 is
dropped (counted per reason, named in a throttled warning); a motor PWM of 0 (no pulse)
is neutral and one outside [1000, 2000] us is clamped (both counted); a second sender is
ignored while the first is alive; a silence of ``sitl_json_timeout`` s is reported once
and the vehicle waits, as ArduPilot does, for the next frame.
"""
import socket
import threading
import time
from typing import Optional

from rosgraph_msgs.msg import Clock

from uwv_hydro.modes.ardusub_rc import NEUTRAL_PWM, servo_map
from uwv_hydro.modes.messages.sitl_json_packet import parse_servo_packet, sensor_json
from uwv_hydro.modes.sitl_json_frames import ned_state
from uwv_hydro.modes.sitl_lock_step import FOREIGN, LockStep, REPEAT, RESET
from uwv_hydro.modes.sitl_rangefinder import BeamRangefinder
from uwv_hydro.modes.sitl_real_time import RealTimeFactor
from uwv_hydro.node.ardusub_io import check_pwm_servos, motor_joints
from uwv_hydro.node.node_part import NodePart
from uwv_hydro.node.seabed_source import node_seabed

#: The PWM range ArduPilot's servo outputs use (SRV_Channel SERVOn_MIN / MAX limits).
PWM_LOW, PWM_HIGH = 1000, 2000
#: recv() wakes this often to notice a stop and a silent peer (s).
POLL_S = 0.1
#: The largest datagram read whole (an oversized packet must show its true size).
MAX_DATAGRAM = 65536


class SitlJsonIO(NodePart):
    """The UDP server ArduPilot's JSON SITL talks to, driving the node in lock step."""

    def __init__(self, node, thrusters, io):
        super().__init__(node)
        cfg = self.cfg
        self.thrusters = thrusters
        self.servos = servo_map(cfg['ardusub_servo_functions'], motor_joints(cfg, thrusters))
        check_pwm_servos(self.servos, thrusters)  # before the port is bound
        self._init_rangefinder(node)  # so is the seabed read and the beam checked
        self.address = (cfg['sitl_json_address'], int(cfg['sitl_json_port']))
        #: rate_hz not given: each run's step is 1/frame_rate of its first frame
        #: (ArduPilot's SIM_RATE_HZ), not the node's 100 Hz default
        self.follow_rate = 'rate_hz' not in node._parameter_overrides
        self.name = 'sitl_json udp %s:%d' % self.address
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            self.sock.bind(self.address)
        except OSError as exc:
            self.sock.close()
            raise ValueError('sitl_json: cannot bind UDP %s:%d (%s)'
                             % (self.address + (exc.strerror or exc,))) from None
        self.sock.settimeout(POLL_S)
        # sitl_json_timeout: a silence is reported, and another sender may take over
        self.lock_step = LockStep(int(cfg['sitl_json_timeout'] * 1e9))
        self.add_input(self.name)
        self.clock_pub = node.create_publisher(Clock, '/clock', 10) if cfg[
            'sitl_json_publish_clock'] else None
        self.publish_period_ns = max(1, int(round(1e9 / cfg['sitl_json_publish_rate'])))
        self.gravity = float(node.vehicle.gravity)
        #: physics time (ns): node clock, pacing clock and the replies' timestamp
        self.time_ns = 0
        self._next_publish_ns = 0
        self._pwm = {joint: NEUTRAL_PWM for joint in self.servos.values()}
        self._pwm_changed = True
        #: physics time the drive last took the PWM (it takes it at least every quarter
        #: of its watchdog's timeout)
        self._fed_ns = 0
        self._last_reply: Optional[bytes] = None
        self._silent = False
        #: physics time per wall time run, silences and earlier runs left out
        self.real_time = RealTimeFactor(self.lock_step.peer_timeout_ns)
        self.counts = {'pwm_clamped': 0, 'pwm_no_pulse': 0, 'silences': 0,
                       'frame_rate_mismatch': 0, 'send_errors': 0,
                       'rangefinder_no_return': 0}
        thrusters.feeds.append(self._feed)
        io.output_due = self._output_due  # the mode's part (node.io)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, name='sitl_json', daemon=True)
        step = ("the step 1/frame_rate of ArduPilot's first frame (rate_hz not given)"
                if self.follow_rate else 'one step of %g s per frame (rate_hz)'
                % (node.period_ns * 1e-9))
        self.logger.info('ArduPilot JSON SITL backend on UDP %s:%d, %s: %s' % (
            self.address + (step, ', '.join(
                'servo %d -> %s' % item for item in sorted(self.servos.items())))))

    def _init_rangefinder(self, node) -> None:
        """Set up rng_1: a beam to the seabed of seabed_file (None without one)."""
        cfg = self.cfg
        seabed = node_seabed(node)
        self.rangefinder = None
        #: the latest reading (m), the physics time the next is due (ns), its period
        self._range: Optional[float] = None
        self._next_range_ns = 0
        self._range_period_ns = max(1, int(round(1e9 / cfg['sitl_json_rangefinder_rate'])))
        if seabed is None:
            self.logger.info('sitl_json: no seabed_file: the replies carry no rangefinder '
                             '(rng_1)')
            return
        self.rangefinder = BeamRangefinder(seabed[0], cfg['sitl_json_rangefinder_position'],
                                           cfg['sitl_json_rangefinder_direction'],
                                           cfg['sitl_json_rangefinder_max'])
        self.logger.info('sitl_json: rangefinder 1 (rng_1, RNGFND1_TYPE 100) from %s along %s '
                         '(base link, FLU) to the seabed, up to %g m, at %g Hz; %g m without '
                         'a return' % (list(self.rangefinder.position),
                                       [round(float(v), 6) for v in self.rangefinder.direction],
                                       self.rangefinder.max_range,
                                       cfg['sitl_json_rangefinder_rate'],
                                       self.rangefinder.no_return))

    def _ranges(self, x) -> tuple:
        """Return the rangefinder readings of the reply at state ``x`` (measured when due)."""
        if self.rangefinder is None:
            return ()
        if self._range is None or self.time_ns >= self._next_range_ns:
            reading = self.rangefinder.reading(x)
            if reading == self.rangefinder.no_return:
                self.counts['rangefinder_no_return'] += 1
            self._range = reading
            period = self._range_period_ns
            self._next_range_ns = (self.time_ns // period + 1) * period
        return (self._range,)

    # ------------------------------------------------------------------ the thread
    def start(self) -> None:
        """Start serving (after the node is set up)."""
        self._thread.start()

    def stop(self) -> None:
        """Stop serving and close the socket."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=2.0)
        self.sock.close()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                data, sender = self.sock.recvfrom(MAX_DATAGRAM)
            except socket.timeout:
                self._check_silence()
                continue
            except OSError:  # closed by stop(), or a transient socket error
                if self._stop.is_set():
                    return
                continue
            self.node.outbox.hold()  # the frame's outputs go out after the reply
            try:
                reply = self._handle(data, sender)
            except Exception as exc:  # noqa: B902 - the backend must keep serving
                self.node.events['update_errors'] += 1
                self.node.log_throttled('error', 'sitl_json_error', 'sitl_json: frame failed '
                                        '(%s: %s); continuing' % (type(exc).__name__, exc))
                reply = self._last_reply
            if reply is not None:
                try:
                    self.sock.sendto(reply, sender)
                except OSError as exc:
                    self.counts['send_errors'] += 1
                    self.node.log_throttled('warning', 'sitl_json_send',
                                            'sitl_json: reply to %s:%d failed (%s)'
                                            % (sender + (exc,)))
            self.node.outbox.flush()  # published while ArduPilot computes its next frame

    def _check_silence(self) -> None:
        silent = self.lock_step.silent_for_ns(time.monotonic_ns())
        if silent is None or silent < self.lock_step.peer_timeout_ns or self._silent:
            return
        self._silent = True
        self.counts['silences'] += 1
        self.node.log_throttled('warning', 'sitl_json_silent', 'sitl_json: no servo packet from '
                                'ArduPilot (%s:%d) for %.3g s: the vehicle waits for the next '
                                'frame' % (self.lock_step.peer + (silent * 1e-9,)))

    # ------------------------------------------------------------------ one packet
    def _handle(self, data: bytes, sender) -> Optional[bytes]:
        """Return the reply to one datagram (None: none is sent)."""
        node = self.node
        packet = parse_servo_packet(data)
        if isinstance(packet, str):
            node.drop(self.name, packet, ' (%d bytes from %s:%d)' % ((len(data),) + sender))
            return None
        verdict = self.lock_step.classify(packet.frame_count, sender, time.monotonic_ns())
        if verdict == FOREIGN:
            node.drop(self.name, 'foreign_sender', ' (%s:%d while ArduPilot at %s:%d is alive)'
                      % (sender + self.lock_step.peer))
            return None
        self._silent = False
        if verdict == REPEAT:
            return self._last_reply
        with node.lock:
            if verdict == RESET:
                self._restart()
            if self.follow_rate and node.io.mode.state_ns is None:
                self._follow(packet.frame_rate)  # a run starts: its step is ArduPilot's
            period_ns = node.period_ns
            self._take_pwm(packet.pwm)
            if node.io.mode.state_ns is None:  # start (or reset): the clock starts here
                node._update(self.time_ns)
            self.time_ns += period_ns
        node._on_timer(self.time_ns)
        if packet.frame_rate != int(round(1e9 / period_ns)):
            self._rate_mismatch(packet.frame_rate, period_ns)
        node.inputs[self.name].received(self.time_ns)
        self.real_time.frame(time.monotonic_ns(), period_ns)
        with node.lock:
            mode = node.io.mode
            reply = sensor_json(self.time_ns * 1e-9,
                                *ned_state(mode.x, mode.acceleration(), self.gravity),
                                self._ranges(mode.x))
        self._last_reply = reply
        return reply

    def _restart(self) -> None:
        """Return to the initial state at physics time zero (ArduPilot restarted)."""
        node = self.node
        node.reset_state()
        node.jumps.forget()  # the time goes back on purpose
        self.time_ns = 0
        self.real_time.restart()
        self._next_publish_ns = 0
        self._last_reply = None
        self._range, self._next_range_ns = None, 0
        self.logger.info('sitl_json: ArduPilot restarted (frame count went back): '
                         'vehicle reset to its initial state, physics time 0')

    def _follow(self, frame_rate: int) -> None:
        """Make the step 1/``frame_rate`` s (ArduPilot's SIM_RATE_HZ) for the run starting."""
        node = self.node
        period_ns = max(1, int(round(1e9 / frame_rate)))
        if period_ns == node.period_ns:
            return
        node.period_ns = period_ns
        node.io.mode.set_step(period_ns * 1e-9)
        self.logger.info('sitl_json: ArduPilot runs %d frames per second: one step of %g s '
                         'per frame' % (frame_rate, period_ns * 1e-9))

    def _rate_mismatch(self, frame_rate: int, period_ns: int) -> None:
        self.counts['frame_rate_mismatch'] += 1
        why = ("the step of the run's first frame is kept until ArduPilot restarts"
               if self.follow_rate else 'set SIM_RATE_HZ or rate_hz to match, or leave '
               'rate_hz out and the node follows ArduPilot')
        self.node.log_throttled('warning', 'sitl_json_rate', 'sitl_json: ArduPilot runs %d '
                                'frames per second, the node %g: each frame is still one step '
                                'of %g s, and ArduPilot follows that time (%s)'
                                % (frame_rate, 1e9 / period_ns, period_ns * 1e-9, why))

    def _take_pwm(self, pwm) -> None:
        for n, joint in self.servos.items():
            value = pwm[n - 1] if n <= len(pwm) else 0
            if value == 0:  # no pulse on that output (not armed yet, output disabled)
                self.counts['pwm_no_pulse'] += 1
                value = NEUTRAL_PWM
            elif not PWM_LOW <= value <= PWM_HIGH:
                self.counts['pwm_clamped'] += 1
                self.node.log_throttled('warning', 'sitl_json_pwm', 'sitl_json: servo %d (%s) '
                                        'PWM %d us outside [%d, %d]: clamped'
                                        % (n, joint, value, PWM_LOW, PWM_HIGH))
                value = min(max(value, PWM_LOW), PWM_HIGH)
            value = float(value)
            if value != self._pwm[joint]:
                self._pwm[joint] = value
                self._pwm_changed = True

    def _feed(self, now_ns: int) -> None:
        # the drive takes the PWM when it changed, and often enough for its watchdog
        # (thruster_timeout) to see every thruster commanded
        refresh_ns = self.thrusters.drive.watchdog.timeout_ns // 4
        if not self._pwm_changed and now_ns - self._fed_ns < refresh_ns:
            return
        for joint, pwm in self._pwm.items():
            self.thrusters.drive.command(joint, pwm, now_ns)
        self._pwm_changed, self._fed_ns = False, now_ns

    def _output_due(self, pace_ns: int) -> bool:
        """Return True when odometry and TF are due at ``pace_ns``; publish /clock then."""
        if pace_ns < self._next_publish_ns:
            return False
        period = self.publish_period_ns
        self._next_publish_ns = (pace_ns // period + 1) * period
        if self.clock_pub is not None:
            msg = Clock()
            msg.clock.sec, msg.clock.nanosec = divmod(pace_ns, 1_000_000_000)
            self.node.outbox.publish(self.clock_pub, msg)
        return True

    # ------------------------------------------------------------------ node part
    def reset(self) -> None:
        """Neutral thrusters until the next frame."""
        for joint in self._pwm:
            self._pwm[joint] = NEUTRAL_PWM
        self._pwm_changed = True
        self._range = None  # measured again at the next reply

    def snapshot(self, snap: dict) -> None:
        """Add the lock-step counters, the PWM, rng_1 and the real-time factor."""
        values = snap['inputs'][self.name].setdefault('values', {})
        values.update(self.lock_step.counts)
        values.update(self.counts)
        values['physics_time_s'] = self.time_ns * 1e-9
        if self._range is not None:
            values['rng_1 m'] = self._range
        factor = self.real_time.factor()
        if factor is not None:
            values['real_time_factor'] = factor
        peer = self.lock_step.peer
        values['peer'] = 'none yet' if peer is None else '%s:%d' % peer
        for n, joint in sorted(self.servos.items()):
            values['servo%d %s pwm' % (n, joint)] = self._pwm[joint]
