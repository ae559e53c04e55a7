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
The simulated state in ArduPilot's frames: ENU world / FLU body to NED / FRD (pure).

The node's world is ENU (REP-103) with its origin on the water surface, the body FLU;
ArduPilot's JSON interface takes NED and FRD (SIM_JSON.cpp).  With
T = [[0, 1, 0], [1, 0, 0], [0, 0, -1]] (ENU <-> NED, its own inverse) and
F = diag(1, -1, -1) (FLU <-> FRD):

* position and velocity: p_NED = T p_ENU, v_NED = T R v_body (the twist is in the body);
* attitude: R_NED<-FRD = T R F, the quaternion q_T (x) q (x) q_F with q_T = [0, 1/sqrt2,
  1/sqrt2, 0] (pi about (x+y)/sqrt2) and q_F = [0, 1, 0, 0] (pi about x);
* gyro: F w; accel_body: F f with f the specific force a - g at the body origin
  (physics.sensing.sensors.specific_force at r = 0, written out on floats: [0, 0, +g] FLU level
  at rest, so [0, 0, -g] FRD).

Down is the depth: a vehicle at z = -2 m (ENU) is at 2 m NED down, and ArduSub's home
at altitude 0 sits on the surface above the origin.
"""
import math

_S = 1.0 / math.sqrt(2.0)


def enu_to_ned(v) -> list:
    """Return the NED vector of an ENU vector (T v: swap east and north, negate up)."""
    return [float(v[1]), float(v[0]), -float(v[2])]


def ned_state(x, nu_dot, gravity: float):
    """
    Return (gyro FRD, accel_body FRD, position NED, quaternion FRD->NED, velocity NED).

    ``x``: the 13-float state (position ENU, quaternion [w, x, y, z] body FLU -> ENU,
    twist FLU); ``nu_dot``: the body acceleration at that state (the equations of
    motion); ``gravity``: g (m/s^2).  Scalar arithmetic: it runs once per ArduPilot
    frame, where numpy's per-call cost on 3-vectors would dominate.
    """
    w, a, b, c = (float(v) for v in x[3:7])
    n = 1.0 / math.sqrt(w * w + a * a + b * b + c * c)
    w, a, b, c = w * n, a * n, b * n, c * n
    u, v, z, p, q, r = (float(k) for k in x[7:13])
    # v_world = R v, R of the unit quaternion [w, a, b, c] (rows of the rotation matrix)
    vx = (1 - 2 * (b * b + c * c)) * u + 2 * (a * b - w * c) * v + 2 * (a * c + w * b) * z
    vy = 2 * (a * b + w * c) * u + (1 - 2 * (a * a + c * c)) * v + 2 * (b * c - w * a) * z
    vz = 2 * (a * c - w * b) * u + 2 * (b * c + w * a) * v + (1 - 2 * (a * a + b * b)) * z
    # q_NED = q_T (x) q (x) q_F, q_T = [0, s, s, 0], q_F = [0, 1, 0, 0] (module docstring)
    # (Hamilton products written out: q_T (x) q = s [-(a + b), w + c, w - c, b - a])
    qw, qx, qy, qz = -_S * (w + c), -_S * (a + b), _S * (b - a), -_S * (w - c)
    if qw < 0.0:
        qw, qx, qy, qz = -qw, -qx, -qy, -qz
    # specific force at the origin: f = v_dot + w x v + g R^T z (physics.sensing.sensors)
    fx = float(nu_dot[0]) + q * z - r * v + gravity * 2 * (a * c - w * b)
    fy = float(nu_dot[1]) + r * u - p * z + gravity * 2 * (b * c + w * a)
    fz = float(nu_dot[2]) + p * v - q * u + gravity * (1 - 2 * (a * a + b * b))
    return ([p, -q, -r], [fx, -fy, -fz], enu_to_ned(x[0:3]), [qw, qx, qy, qz],
            [vy, vx, -vz])
