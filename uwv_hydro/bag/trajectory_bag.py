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

"""A simulated trajectory (and the thrust that drove it) written as a rosbag2 bag."""

from typing import Callable, Optional

import numpy as np

from uwv_hydro.bag.cdr_codec import encode_odometry, encode_tf_message, encode_wrench_stamped
from uwv_hydro.bag.rosbag_io import BagWriter, ODOMETRY, TF, typestore, WRENCH
from uwv_hydro.modes.offline_simulation import Trajectory


def write_bag(trajectory: Trajectory, path, odom_frame: str = 'odom',
              base_frame: str = 'base_link', odometry_topic: str = '/odometry',
              thrust: Optional[Callable[[float], np.ndarray]] = None,
              thrust_topic: str = '/thrust') -> None:
    """
    Write nav_msgs/Odometry on ``odometry_topic`` plus /tf, stamped with t.

    With ``thrust``, the body wrench applied from each sample on is recorded too, as
    geometry_msgs/WrenchStamped in the base frame on ``thrust_topic`` (what a thruster
    driver would publish), so ``replay --simulate`` can re-run the manoeuvre.
    """
    with BagWriter(path, store=typestore()) as bag:
        for t, p, q, v in zip(trajectory.t.tolist(), trajectory.position.tolist(),
                              trajectory.quaternion.tolist(), trajectory.twist.tolist()):
            ns = int(round(t * 1e9))
            sec, nanosec = divmod(ns, 1_000_000_000)
            xyzw = (q[1], q[2], q[3], q[0])
            if thrust is not None:
                bag.queue_raw(thrust_topic, WRENCH, ns, encode_wrench_stamped(
                    sec, nanosec, base_frame, [float(f) for f in thrust(t)]))
            bag.queue_raw(odometry_topic, ODOMETRY, ns,
                          encode_odometry(sec, nanosec, odom_frame, base_frame, p, xyzw, v))
            bag.queue_raw('/tf', TF, ns,
                          encode_tf_message(sec, nanosec, odom_frame, base_frame, p, xyzw))
