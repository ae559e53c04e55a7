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
How a manoeuvre holds and drives the vehicle: the depth autopilot, the attitude it reads.

:class:`DepthHold` steers the stern planes (PI on depth -> pitch reference -> PD on
pitch), :func:`euler_zyx` gives the roll, pitch and heading of the flown state, and
:func:`rotor_speed_commanded` turns a thrust-commanded propeller into one commanded by
rotor speed, as the manoeuvres fly propellers at fixed rpm (:mod:`.manoeuvre`).
"""
import dataclasses
import math

from uwv_hydro.physics.actuators.thruster_spec import ThrusterSpec


def rotor_speed_commanded(spec: ThrusterSpec, fluid_density: float) -> ThrusterSpec:
    """
    Return a propeller commanded by rotor speed (rad/s): the manoeuvres hold the rpm.

    A propeller commanded by thrust gets the rotor-speed limits at which it gives its
    thrust limits at rest (bollard pull); other thrusters are returned unchanged.
    """
    if spec.model != 'propeller' or spec.use_angvel_cmd:
        return spec
    rho = fluid_density if spec.fluid_density is None else spec.fluid_density
    scale = spec.kt_polynomial[0] * rho * spec.propeller_diameter ** 4
    # bollard pull T = K_T(0) rho D^4 n|n|, omega = 2 pi n
    low, high = (math.copysign(2.0 * math.pi * math.sqrt(abs(t) / scale), t)
                 for t in spec.command_limits())
    return dataclasses.replace(spec, use_angvel_cmd=True, min_thrust_cmd=low,
                               max_thrust_cmd=high, max_cmd_rate=math.inf)


def euler_zyx(q) -> tuple:
    """Return (roll, pitch, yaw) of a world <- body quaternion [w, x, y, z] (ZYX)."""
    w, x, y, z = q
    roll = math.atan2(2.0 * (w * x + y * z), 1.0 - 2.0 * (x * x + y * y))
    pitch = math.asin(max(-1.0, min(1.0, 2.0 * (w * y - z * x))))
    yaw = math.atan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z))
    return roll, pitch, yaw


class DepthHold:
    """
    Stern-plane depth autopilot: PI on depth -> pitch reference -> PD on pitch.

    Returns the stern command (rad, positive pitches the nose down: positive pitch in
    FLU) from the depth (m, positive down), the pitch (rad, FLU: positive nose down)
    and the pitch rate q (rad/s, FLU).  The pitch reference is bounded to +-0.1 rad.
    """

    def __init__(self, depth: float, dt: float, kp: float = 0.2, ki: float = 0.02,
                 k_pitch: float = 3.0, k_rate: float = 3.0, max_pitch: float = 0.1):
        self.depth, self.dt = float(depth), float(dt)
        self.kp, self.ki, self.k_pitch, self.k_rate = kp, ki, k_pitch, k_rate
        self.max_pitch = max_pitch
        self.integral = 0.0

    def __call__(self, depth: float, pitch: float, q: float) -> float:
        """Return the stern command for this step (and advance the integral)."""
        error = self.depth - depth  # too shallow: positive -> nose down
        self.integral = min(max(self.integral + error * self.dt, -5.0), 5.0)
        pitch_ref = min(max(self.kp * error + self.ki * self.integral, -self.max_pitch),
                        self.max_pitch)
        return self.k_pitch * (pitch_ref - pitch) - self.k_rate * q
