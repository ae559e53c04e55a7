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
Offline simulation of a vehicle with moving links: the joints commanded, their states kept.

:func:`run_articulated` steps :class:`~uwv_hydro.modes.articulated_simulate_mode.
ArticulatedSimulateMode` once per ``dt`` as the node's update does (the joint commands
held at the step's start handed to the mode first, then the step under the base wrench),
and keeps after every step what the node's :class:`~uwv_hydro.node.joint_io.JointIO`
publishes of that state: ``joint_states`` (every moving joint's position, velocity and
effort) and, per moving joint, the child link in the joint's parent link
(:meth:`ArticulatedSimulateMode.joint_transforms`, the /tf of robot_state_publisher).
"""
from dataclasses import dataclass
from typing import List, Optional, Tuple

import numpy as np

from uwv_hydro.modes.body_wrenches import add_wrenches


@dataclass
class JointTrajectory:
    """The moving joints' states and link transforms at every sample of a trajectory."""

    names: List[str]
    position: np.ndarray   # (n, J) rad or m
    velocity: np.ndarray   # (n, J)
    effort: np.ndarray     # (n, J) N m or N: the joint torque or force of the step's end
    #: per moving joint (parent link, child link), and the child in the parent (n, J, 7):
    #: translation x, y, z and quaternion w, x, y, z
    frames: List[Tuple[str, str]]
    transforms: np.ndarray
    #: the links fixed in a body, in the link they hang from (parent, link, position,
    #: rotation): what the node sends once on /tf_static
    fixed: list
    #: the joints' accelerations (n, J) and the base's nu_dot (n, 6) at each sample: the
    #: equations of motion at the state under the step that led to it (the sensors')
    acceleration: Optional[np.ndarray] = None
    base_acceleration: Optional[np.ndarray] = None


def _transforms(mode) -> np.ndarray:
    return np.array([np.concatenate((p, q)) for _, _, p, q in mode.joint_transforms()])


def run_articulated(mode, n: int, dt: float, rows: np.ndarray, taus=None, current=None,
                    commands=None, engines=None) -> JointTrajectory:
    """
    Run ``n`` steps of ``mode``; write the base state to ``rows[1:]``; return the joints.

    ``taus`` (n, 6) or None: the base wrench of each step; ``commands`` a
    :class:`~uwv_hydro.modes.joint_profiles.JointCommandProfile` (None: the joints hold
    their initial positions); ``engines``: buoyancy engines stepped as the node does.
    A step that stays non-finite keeps the state before it (the mode's restore).
    """
    names = list(mode.joint_names)
    frames = [(parent, child) for parent, child, _, _ in mode.joint_transforms()]
    joints = len(names)
    position = np.empty((n + 1, joints))
    velocity = np.empty((n + 1, joints))
    effort = np.empty((n + 1, joints))
    transforms = np.empty((n + 1, joints, 7))
    qdd = np.empty((n + 1, joints))
    nu_dot = np.empty((n + 1, 6))

    def keep(k):
        position[k], velocity[k], effort[k] = mode.q, mode.qd, mode.efforts
        qdd[k], nu_dot[k] = mode.qdd, mode.acceleration()
        transforms[k] = _transforms(mode)

    keep(0)
    for k in range(n):
        if commands is not None:
            commands.apply(mode, k * dt)
        tau: Optional[np.ndarray] = None if taus is None else taus[k]
        if engines is not None:
            # gz-sim BuoyancyEngine: the volume moves first, its force acts over the step
            engines.step(dt)
            tau = add_wrenches(mode.engine_wrench(engines), tau)
        mode.step(tau, current)
        rows[k + 1] = mode.x
        keep(k + 1)
    return JointTrajectory(names, position, velocity, effort, frames, transforms,
                           mode.dynamics.tree.fixed_link_frames(), qdd, nu_dot)
