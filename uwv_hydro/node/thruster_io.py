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
Thruster I/O (simulate mode): std_msgs/Float64 commands per thruster in, feedback out.

One subscription per thruster of the vehicle (:mod:`uwv_hydro.description.thrusters`)
on gz-sim's ``/model/{ns}/joint/{joint}/cmd_thrust`` (``cmd_vel`` with
``use_angvel_cmd``; the pattern is the ``thruster_topic_pattern`` parameter, a
thruster's ``topic`` gives ``{ns}/{topic}``).  The rotors advance once per
integration step and their wrench is held over the step
(:class:`uwv_hydro.modes.thruster_drive.ThrusterDrive`); a thruster without a command
for ``thruster_timeout`` goes to its neutral command (zero thrust) and shows as stale
in /diagnostics.  After each update the applied thrust is published on ``.../force``
and the rotor speed on ``.../ang_vel`` (gz-sim's feedback topics; no ``ang_vel`` for
a lookup-table thruster, which has no rotor speed); a std_msgs/Bool on
``.../enable_deadband`` switches the thruster's deadband off and on, as in gz-sim.

Per-step cost (1 kHz: eight thrusters, two feedback topics each, are 16 000 messages a
second): the feedback goes out as serialised bytes
(:class:`~uwv_hydro.node.serialized_message.ValueWire`), and only on the topics with a
subscriber, looked up every :data:`LISTENER_REFRESH_S` (as the link wrench topics,
node/link_wrench_io.py: a new subscriber gets messages within that time); the body
twist relative to the water is worked out only for thrusters that see the inflow.
"""
import math
import time
from typing import Callable, Optional

import numpy as np
from std_msgs.msg import Bool, Float64

from uwv_hydro.modes.body_wrenches import relative_body_twists
from uwv_hydro.modes.thruster_drive import thruster_topics, ThrusterDrive
from uwv_hydro.node.input_slots import LatestSlots
from uwv_hydro.node.node_part import locked, NodePart
from uwv_hydro.node.serialized_message import ValueWire
from uwv_hydro.physics.spatial.rotation import quat_to_matrix

#: Seconds between two lookups of the feedback topics' subscriber counts.
LISTENER_REFRESH_S = 0.5


def _fill_float64(msg: Float64, value: float) -> None:
    msg.data = value


class ThrusterIO(NodePart):
    """Per-thruster Float64 commands, the rotor models, force / ang_vel feedback."""

    def __init__(self, node):
        super().__init__(node)
        vehicle = node.vehicle
        self.drive = ThrusterDrive(vehicle.thrusters, vehicle.fluid_density,
                                   self.cfg['thruster_timeout'], vehicle.tree)
        #: callables f(now_ns) run before each update's steps: a stack's input
        #: (node/ardusub_io.py) handing its commands to the drive
        self.feeds = []
        #: rotor angle of each thruster (rad): the rotor speed integrated over the steps
        self.rotor_angle = np.zeros(len(self.drive))
        # accepted commands, handed to the update without the state lock
        self._command_slots = LatestSlots()
        self.command_topics = []
        self._force_pubs = []
        self._ang_vel_pubs = []
        for spec in vehicle.thrusters:
            topics = thruster_topics(spec, vehicle.name, self.cfg['thruster_topic_pattern'])
            topic = topics['command']
            self.command_topics.append(topic)
            self.add_input(topic)
            node.create_subscription(
                Float64, topic,
                lambda msg, name=spec.joint_name, topic=topic: self._on_command(msg, name, topic),
                10)
            node.create_subscription(
                Bool, topics['enable_deadband'],
                lambda msg, k=len(self.command_topics) - 1: self._on_enable_deadband(msg, k),
                10)
            self._force_pubs.append(node.create_publisher(Float64, topics['force'], 10))
            has_speed = spec.model != 'table'
            self._ang_vel_pubs.append(
                node.create_publisher(Float64, topics['ang_vel'], 10) if has_speed else None)
        #: Float64 as bytes (None: as messages); the feedback (publisher, thruster,
        #: 'thrust' | 'omega') with a subscriber, looked up at _next_lookup (monotonic s)
        self._wire = ValueWire.create(Float64(), _fill_float64)
        self._listened = []
        self._next_lookup = 0.0
        #: the bank's rotors with a speed (NaN: none, a table): the rotor angle's terms
        self._has_speed = ~np.isnan(self.drive.bank.omega)
        names = ', '.join('%s <- %s' % pair for pair in zip(self.drive.names,
                                                            self.command_topics))
        self.logger.info('%d thrusters: %s' % (len(self.drive), names))

    def _on_command(self, msg: Float64, name: str, topic: str) -> None:
        # executor thread, no state lock: checked here, handed over in a slot
        if not math.isfinite(msg.data):
            self.node.drop(topic, 'non_finite')
            return
        # the watchdog counts on the pacing clock (monotonic in wall time)
        self._command_slots.put(name, (float(msg.data), self.node.pace_ns()))
        self.node.inputs[topic].received(self.node.now_ns())

    @property
    def dt(self) -> float:
        """Return the step (s): the node's, which ArduPilot's frame rate may set."""
        return self.node.period_ns * 1e-9

    def take_inputs(self) -> None:
        """Give the drive the latest command of each thruster received since the last update."""
        for name, (value, received_ns) in self._command_slots.take():
            self.drive.command(name, value, received_ns)

    @locked
    def _on_enable_deadband(self, msg: Bool, index: int) -> None:
        # gz-sim: a Bool on .../enable_deadband switches the deadband at run time
        self.drive.bank.deadband_enabled[index] = bool(msg.data)
        self.logger.info('thruster %s: deadband %s' % (
            self.drive.names[index], 'enabled' if msg.data else 'disabled'))

    def set_timeout(self, timeout_s: float) -> None:
        """Take a new ``thruster_timeout`` (s)."""
        self.drive.watchdog.set_timeout(timeout_s)

    def per_step(self, now_ns: int, current_world: Optional[np.ndarray]
                 ) -> Callable[[list], np.ndarray]:
        """
        Return f(x) -> the thrusters' body wrench for one integration step from state x.

        x is the 13-float state (position, quaternion [w, x, y, z], twist); each call
        advances the rotors by one step under the commands fresh at ``now_ns`` (pacing
        clock, as the command times).
        """
        for feed in self.feeds:
            feed(now_ns)
        inflow = self.drive.bank.sees_inflow
        has_speed = self._has_speed
        # thrusters on moving links see their own bodies' twists (the articulated mode's)
        mode = getattr(self.node.io, 'mode', None)
        if not (inflow and self.drive.bodies is not None and hasattr(mode, 'dynamics')):
            mode = None

        def step(x) -> np.ndarray:
            nu_r = twists = None
            if inflow:
                nu_r = np.array(x[7:13], dtype=float)
                if current_world is not None:
                    # Relative velocity: nu_r = nu - [R^T v_c, 0]
                    nu_r[:3] -= quat_to_matrix(x[3:7]).T @ current_world
            if mode is not None:
                twists = relative_body_twists(mode.dynamics.body_states(x, mode.q, mode.qd),
                                              current_world)
            wrench, went_stale, recovered = self.drive.step(self.dt, now_ns, nu_r, twists)
            # Rotor angle: phi += omega dt (0 for models without a rotor speed)
            self.rotor_angle[has_speed] += self.drive.bank.omega[has_speed] * self.dt
            for name in went_stale:
                self.node.log_throttled('warning', (name, 'thruster_watchdog'),
                                        'thruster %s: no command for more than %g s: '
                                        'neutral (zero thrust)'
                                        % (name, self.drive.watchdog.timeout_ns * 1e-9))
            for name in recovered:
                self.logger.info('thruster %s: commands are back' % name)
            return wrench
        return step

    def publish(self) -> None:
        """Publish the applied thrust and the rotor speed of every thruster listened to."""
        now = time.monotonic()
        if now >= self._next_lookup:
            self._next_lookup = now + LISTENER_REFRESH_S
            self._listened = [
                (pub, k, kind) for k, pubs in enumerate(zip(self._force_pubs, self._ang_vel_pubs))
                for pub, kind in zip(pubs, ('thrust', 'omega'))
                if pub is not None and pub.get_subscription_count()]
        if not self._listened:
            return
        bank, outbox, wire = self.drive.bank, self.node.outbox, self._wire
        values = {'thrust': bank.thrust.tolist(), 'omega': bank.omega.tolist()}
        for pub, k, kind in self._listened:
            value = values[kind][k]
            outbox.publish(pub, wire.pack(value) if wire is not None else Float64(data=value))

    def reset(self) -> None:
        """Stop the rotors and forget the commands."""
        self._command_slots.clear()
        self.drive.reset()
        self.rotor_angle[:] = 0.0

    def snapshot(self, snap: dict) -> None:
        """Add each thruster's watchdog state, thrust and rotor speed."""
        bank = self.drive.bank
        for k, (name, topic) in enumerate(zip(self.drive.names, self.command_topics)):
            state = self.drive.state(name)
            snap.setdefault('watchdog', {})['thruster ' + name] = state
            info = snap['inputs'][topic]
            info['state'] = state
            values = info.setdefault('values', {})
            values['thrust'] = float(bank.thrust[k])
            if not math.isnan(bank.omega[k]):
                values['ang_vel'] = float(bank.omega[k])
