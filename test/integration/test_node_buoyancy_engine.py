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
A gz-sim BuoyancyEngine over DDS: Float64 volume commands in, the volume out, the glider rises.

The node runs an SDF glider (neutral hull, one bladder) in simulate mode in wall time; a
volume command above max_volume is clamped, the bladder fills at most at
max_inflation_rate (the published volume never jumps by more than the rate allows over
the time between two messages plus one update), and the extra displacement lifts the
vehicle.  A NaN command is dropped and counted.
"""
import time

from nodes.harness import Probe, read_log, start_node
import numpy as np
import pytest

from test_sdf_equipment import GLIDER
from uwv_hydro.physics.spatial.rotation import rotate

pytestmark = pytest.mark.ros

RATE = 1e-3  # m^3/s: the bladder fills 0.001 m^3 in about one second


def test_volume_commands_fill_the_bladder_and_lift_the_glider(rclpy_context, spawn,
                                                              tmp_path):
    """Commanded 0.01 m^3 (clamped to 0.003): the volume ramps at <= RATE, the glider rises."""
    from nav_msgs.msg import Odometry
    from std_msgs.msg import Float64
    sdf = tmp_path / 'glider.sdf'
    sdf.write_text((GLIDER % '').replace('<max_inflation_rate>0.0001',
                                         '<max_inflation_rate>%g' % RATE))
    params = {'vehicle_file': str(sdf), 'mode': 'simulate', 'rate_hz': 50.0,
              'initial_position': [0.0, 0.0, -20.0], 'publish_markers': False}
    proc, log = start_node(spawn, tmp_path, params)
    probe = Probe(rclpy_context)
    volumes = probe.collect(Float64, '/model/glider/buoyancy_engine/current_volume',
                            keep=10000)
    arrivals = []
    odom = probe.collect(Odometry, 'odometry', keep=5)
    command = probe.publisher(Float64, '/model/glider/buoyancy_engine')
    try:
        assert probe.spin_until(lambda: len(volumes) > 5, 30.0, proc, log)
        assert volumes[-1].data == pytest.approx(0.002, abs=1e-15)  # default_volume
        # a volatile reader drops what a writer it has not matched yet sends
        assert probe.wait_matched(command, 30.0, proc, log)
        command.publish(Float64(data=float('nan')))
        # taken before the filling commands follow: a reliable writer keeps only its last
        # 10 messages, so at ~100 commands/s a NaN not yet read could be overwritten
        dropped = 'dropped a message on /model/glider/buoyancy_engine: non_finite'
        assert probe.spin_until(lambda: dropped in read_log(log), 10.0, proc, log)
        start = len(volumes)

        def fill():
            command.publish(Float64(data=0.01))
            while len(arrivals) < len(volumes):
                arrivals.append(time.monotonic())

        assert probe.spin_until(lambda: volumes[-1].data >= 0.003, 20.0, proc, log,
                                action=fill)
        probe.spin_for(0.5, action=fill)
        seen = np.array([m.data for m in volumes[start:]])
        assert np.all(np.diff(seen) >= 0.0) and seen.max() <= 0.003  # clamped, filling
        # never faster than the rate over the wall time between two messages (+ 1 update)
        t = np.array(arrivals[start:len(seen) + start])
        jumps = np.diff(seen[:len(t)])
        assert np.all(jumps <= RATE * (np.diff(t) + 0.02) * 1.5 + 1e-12)
        # 0.001 m^3 more displacement: it rises (world z; the twist is in the body frame,
        # and the glider pitches as it rises)
        last = odom[-1]
        o, v = last.pose.pose.orientation, last.twist.twist.linear
        assert rotate([o.w, o.x, o.y, o.z], [v.x, v.y, v.z])[2] > 0.0
    finally:
        probe.close()
