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
A depth and heading autopilot for the fin tests, and the offline flight it drives.

The controller sees only what a vehicle's autopilot would get from odometry (ENU
position, world <- body quaternion [w, x, y, z], FLU body twist) and returns the four
fin angle commands of config/remus100.yaml (rudder_upper, rudder_lower, stern_port,
stern_starboard) in radians.  Sign convention of that file: positive rudder turns to
port (positive yaw rate), positive stern planes pitch the nose down.
"""
import math

import numpy as np

#: Cruise speed of the REMUS-like vehicle (m/s) and the constant thrust holding about it:
#: the hull's surge drag X_u|u| U^2 (1.62 U^2) plus the centred fins' drag (none).
CRUISE_SPEED = 1.5
CRUISE_THRUST = 1.62 * CRUISE_SPEED ** 2
#: Heading reference turn rate (rad/s): the autopilot turns at a bounded rate instead of
#: commanding a 90 degree step, below what the vehicle can follow (config/remus100.yaml
#: turns at about 3.3 deg/s = 0.058 rad/s at full rudder, 15 deg, like PVS's remus100).
TURN_RATE = 0.04
FIN_LIMIT = 0.5


def euler_zyx(q):
    """Return (roll, pitch, yaw) of a world <- body quaternion [w, x, y, z] (ZYX)."""
    w, x, y, z = q
    roll = math.atan2(2.0 * (w * x + y * z), 1.0 - 2.0 * (x * x + y * y))
    pitch = math.asin(max(-1.0, min(1.0, 2.0 * (w * y - z * x))))
    yaw = math.atan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z))
    return roll, pitch, yaw


def wrap(angle):
    """Return ``angle`` wrapped into (-pi, pi]."""
    return math.atan2(math.sin(angle), math.cos(angle))


class Autopilot:
    """PD heading (rate-limited reference) and PI depth -> pitch -> stern planes."""

    def __init__(self, depth, heading_change_at, heading_change, dt):
        self.depth = depth
        self.turn_at = heading_change_at
        self.turn = heading_change
        self.dt = dt
        self.integral = 0.0

    def heading_reference(self, t):
        """Return (psi_ref, r_ref): hold 0, then turn at TURN_RATE to ``heading_change``."""
        if t < self.turn_at:
            return 0.0, 0.0
        done = TURN_RATE * (t - self.turn_at)
        if done >= abs(self.turn):
            return self.turn, 0.0
        return math.copysign(done, self.turn), math.copysign(TURN_RATE, self.turn)

    def __call__(self, t, position, quaternion, twist):
        """Return the fin commands [rudder, rudder, stern, stern] (rad) at time t."""
        _, pitch, yaw = euler_zyx(quaternion)
        psi_ref, r_ref = self.heading_reference(t)
        # Positive rudder -> positive yaw rate: PD on the heading error
        rudder = 1.0 * wrap(psi_ref - yaw) + 3.0 * (r_ref - twist[5])
        error = self.depth - (-position[2])
        self.integral = min(max(self.integral + error * self.dt, -5.0), 5.0)
        # Too shallow -> nose down (positive pitch in FLU) -> positive stern planes
        pitch_ref = float(np.clip(0.2 * error + 0.02 * self.integral, -0.1, 0.1))
        stern = 3.0 * (pitch_ref - pitch) - 3.0 * twist[4]
        rudder = float(np.clip(rudder, -FIN_LIMIT, FIN_LIMIT))
        stern = float(np.clip(stern, -FIN_LIMIT, FIN_LIMIT))
        return [rudder, rudder, stern, stern]


def initial_state(depth):
    """Return (position, quaternion, twist) of the vehicle at cruise, level, heading 0."""
    return ([0.0, 0.0, -depth], [1.0, 0.0, 0.0, 0.0], [CRUISE_SPEED, 0.0, 0.0, 0.0, 0.0, 0.0])


def fly_offline(params, duration, dt, start_depth, depth, turn_at, turn, t0_ns=0,
                rudder=None):
    """
    Fly ``duration`` s with SimulateMode + FinServos as the node does; return arrays.

    ``rudder`` (rad), when given, holds both rudders there (the autopilot keeps depth).

    Per step: odometry state at t_k -> autopilot -> fin commands stamped t_k -> advance
    to t_k+1 (servos step, then the vehicle).  Returns (t (n,), x (n, 13), angles (n, 4)).
    """
    from uwv_hydro.modes.fin_servos import FinServos
    from uwv_hydro.modes.simulate_mode import SimulateMode
    from uwv_hydro.physics.body.dynamics import State
    pos, quat, twist = initial_state(start_depth)
    mode = SimulateMode(params, dt=dt, initial=State(pos, quat, twist))
    mode.servos = FinServos(params.fins)
    pilot = Autopilot(depth, turn_at, turn, dt)
    period = mode.period_ns
    now = t0_ns
    mode.advance(now)
    times, states, angles = [], [], []
    for _ in range(int(round(duration / dt))):
        x = mode.x
        t = (now - t0_ns) * 1e-9
        times.append(t)
        states.append(list(x))
        angles.append(mode.servos.angles.copy())
        commands = pilot(t, x[:3], x[3:7], x[7:])
        if rudder is not None:
            commands[:2] = [rudder, rudder]
        for k, c in enumerate(commands):
            mode.servos.command(k, c, now * 1e-9)
        now += period
        mode.advance(now, [CRUISE_THRUST, 0, 0, 0, 0, 0])
    return np.array(times), np.array(states), np.array(angles)
