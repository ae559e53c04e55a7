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
Per-thruster scalar commands with a watchdog, driving the vehicle's thruster models.

Each thruster takes the latest command of its topic (thrust in N, rotor angular
velocity in rad/s with ``use_angvel_cmd``, or the lookup table's command).  A
thruster whose command is older than ``timeout`` (or that never had one) gets the
neutral command -- zero thrust, through its rotor dynamics -- and the transition
is reported once, as the WrenchStamped inputs' watchdog does
(:class:`~uwv_hydro.modes.thrust_mux.ThrustMux`, reused here per thruster).

Topic names follow gz-sim's Thruster system: ``/model/{ns}/joint/{joint}/cmd_thrust``
(``cmd_vel`` with ``use_angvel_cmd``) with ``ns`` the thruster's ``namespace`` or
the vehicle name; a thruster ``topic`` gives ``{ns}/{topic}``.  Feedback as gz-sim:
``ang_vel`` (rotor speed) and ``force`` (applied thrust) next to the command, and
gz-sim's ``enable_deadband`` switch (std_msgs/Bool) beside them.
"""
import re
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from uwv_hydro.modes.body_wrenches import BodyThrusters
from uwv_hydro.modes.thrust_mux import ThrustMux
from uwv_hydro.physics.actuators.thruster_bank import ThrusterBank
from uwv_hydro.physics.actuators.thruster_spec import ThrusterSpec

#: gz-sim's command topic pattern; {cmd} is cmd_thrust, cmd_vel, force or ang_vel.
GZ_TOPIC_PATTERN = '/model/{ns}/joint/{joint}/{cmd}'


def _clean(topic: str) -> str:
    """Collapse repeated slashes and drop a trailing one (gz-sim's AsValidTopic does too)."""
    topic = re.sub('/+', '/', topic)
    return topic[:-1] if len(topic) > 1 and topic.endswith('/') else topic


def thruster_topics(spec: ThrusterSpec, vehicle_name: str,
                    pattern: str = GZ_TOPIC_PATTERN) -> Dict[str, str]:
    """Return the 'command', 'force', 'ang_vel' and 'enable_deadband' topics of a thruster."""
    ns = spec.namespace or vehicle_name
    if spec.topic:
        base = '%s/%s' % (ns, spec.topic)
        topics = {key: base + suffix for key, suffix in (
            ('command', ''), ('force', '/force'), ('ang_vel', '/ang_vel'),
            ('enable_deadband', '/enable_deadband'))}
    else:
        cmd = 'cmd_vel' if spec.use_angvel_cmd else 'cmd_thrust'
        topics = {key: pattern.format(ns=ns, joint=spec.joint_name, cmd=name)
                  for key, name in (('command', cmd), ('force', 'force'),
                                    ('ang_vel', 'ang_vel'),
                                    ('enable_deadband', 'enable_deadband'))}
    return {key: _clean(topic) for key, topic in topics.items()}


class ThrusterDrive:
    """
    The thrusters of one vehicle under per-thruster commands (pure, no ROS).

    ``tree``: the vehicle's kinematic tree (None: rigid).  When a thruster pushes a moving
    body of it (``ThrusterSpec.body``), :meth:`step` returns one wrench per body
    (:class:`~uwv_hydro.modes.body_wrenches.BodyThrusters`), else the base wrench.
    """

    def __init__(self, specs: Sequence[ThrusterSpec], fluid_density: float, timeout_s: float,
                 tree=None):
        self.bank = ThrusterBank(specs, fluid_density)
        #: the thrusters on their bodies (None: every thruster on the base)
        self.bodies = (BodyThrusters(tree, specs) if tree is not None
                       and any(spec.body for spec in specs) else None)
        self.names: Tuple[str, ...] = self.bank.names
        self.watchdog = ThrustMux(self.names, timeout_s)
        self._index = {name: k for k, name in enumerate(self.names)}
        self.counts = np.zeros(len(self.names), dtype=int)

    def __len__(self) -> int:
        return len(self.names)

    def command(self, name: str, value: float, now_ns: int) -> None:
        """Store the latest command of thruster ``name`` (finite value) received at now_ns."""
        self.watchdog.update(name, np.array([float(value)]), now_ns)
        self.counts[self._index[name]] += 1

    def commands(self, now_ns: int) -> Tuple[np.ndarray, List[str], List[str]]:
        """Return (fresh commands, NaN where stale or missing; just stale; just recovered)."""
        fresh, went_stale, recovered = self.watchdog.fresh(now_ns)
        u = np.full(len(self.names), np.nan)
        for name, value in fresh.items():
            u[self._index[name]] = value[0]
        return u, went_stale, recovered

    def step(self, dt: float, now_ns: int, nu_r: Optional[np.ndarray] = None,
             body_twists: Optional[np.ndarray] = None
             ) -> Tuple[np.ndarray, List[str], List[str]]:
        """
        Advance every rotor by dt under the current commands; return the base wrench.

        Returns (wrench to hold over the step, thrusters that just went stale, thrusters
        that just recovered).  ``nu_r`` is the body twist relative to the water.  With
        thrusters on moving bodies the wrench is one per body (nb, 6), each in its frame,
        and ``body_twists`` (each body's twist relative to the water, its axes; None: the
        base's ``nu_r`` at the thrusters' zero-joint points) gives their inflow.
        """
        u, went_stale, recovered = self.commands(now_ns)
        inflow = None
        if self.bodies is not None and body_twists is not None and self.bank.sees_inflow:
            inflow = self.bodies.inflow(body_twists)
        wrench = self.bank.step(u, dt, nu_r, inflow)
        if self.bodies is not None:
            bank = self.bank
            wrench = self.bodies.wrenches(bank.deduction * bank.thrust, bank.torque)
        return wrench, went_stale, recovered

    def state(self, name: str) -> str:
        """Return 'waiting', 'ok' or 'stale' for thruster ``name``."""
        return self.watchdog.state(name)

    def reset(self) -> None:
        """Stop the rotors and forget every command (reset, clock jump)."""
        self.bank.reset()
        self.watchdog.clear()
