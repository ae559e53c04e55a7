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
``publish_on: odometry``: one wrench per odometry message, stamped with its stamp.

Over real DDS, odometry of a simulated manoeuvre goes to the node one message at a
time (with messages the node must drop in between); every wrench that comes back
carries the stamp of an accepted input, there is exactly one per accepted input, in
order, and each equals the offline ``replay`` of the same messages to 1e-12 (lagged
added mass: the acceleration history must match too; implicit with a current).
"""
from nodes.harness import COUPLED_VEHICLE_YAML, manoeuvre, start_node
import numpy as np
import pytest

pytestmark = pytest.mark.ros

START_NS = 10 ** 9
BAD = {40: 'non_finite', 90: 'stale'}  # sample index -> a message the node drops


@pytest.mark.parametrize('added_mass,current', [('lagged', None),
                                                ('implicit', [0.3, -0.2, 0.05])])
def test_one_wrench_per_odometry_stamped_like_it_equal_to_replay(
        rclpy_context, spawn, tmp_path, added_mass, current):
    from cosim.lock_step import LockStep
    from uwv_hydro.bag.replay import replay_wrench
    from uwv_hydro.bag.rosbag_io import BagWriter, MessageFactory, ODOMETRY
    from uwv_hydro.description.loader import load_vehicle
    vehicle = tmp_path / 'vehicle.yaml'
    vehicle.write_text(COUPLED_VEHICLE_YAML)
    params = load_vehicle(str(vehicle))
    traj, _ = manoeuvre(params, 1.5)
    inputs = []  # (stamp ns, position, quaternion, twist) in sending order
    for k in range(len(traj.t)):
        stamp = START_NS + int(round(traj.t[k] * 1e9))
        twist = traj.twist[k]
        if BAD.get(k) == 'non_finite':
            twist = twist.copy()
            twist[4] = np.nan
        elif BAD.get(k) == 'stale':
            stamp -= 15_000_000  # older than the previous message
        inputs.append((stamp, traj.position[k], traj.quaternion[k], twist))
    factory = MessageFactory()
    with BagWriter(tmp_path / 'inputs', store=factory.store) as bag:
        for k, (stamp, position, quaternion, twist) in enumerate(inputs):
            bag.write('/odometry', ODOMETRY, START_NS + k, factory.odometry(
                stamp, 'odom', 'base_link', position, quaternion, twist))
    offline = replay_wrench(tmp_path / 'inputs', params, added_mass=added_mass,
                            current_world=current, progress=False)
    assert len(offline.stamps_ns) == len(inputs) - len(BAD)

    node_params = {'vehicle_file': str(vehicle), 'mode': 'wrench', 'added_mass': added_mass,
                   'publish_on': 'odometry', 'rate_hz': 5.0, 'use_sim_time': True}
    if current is not None:
        node_params['current'] = current
    proc, log = start_node(spawn, tmp_path, node_params)
    engine = LockStep(rclpy_context)
    assert engine.spin_until(engine.connected, timeout=60.0), 'node not connected'
    received = []
    for k, (stamp, position, quaternion, twist) in enumerate(inputs):
        if k in BAD:  # (the clock does not go back: that would reset the node's inputs)
            engine.publish(stamp, position, quaternion, twist, clock=False)
            continue
        received.append((stamp, engine.exchange(stamp, position, quaternion, twist)))
    engine.spin_until(lambda: False, 0.5)  # anything else the node publishes comes now
    assert not engine.wrenches, 'wrenches for no accepted input: %s' % sorted(engine.wrenches)
    engine.close()
    assert proc.poll() is None
    assert [s for s, _ in received] == offline.stamps_ns.tolist()
    got = np.array([w for _, w in received])
    error = np.max(np.abs(got - offline.total))
    print('%s: %d wrenches, max |live - replay| %.3g' % (added_mass, len(got), error))
    assert error <= 1e-12
    # the added-mass part is in play: lagged history, implicit current corrections
    name = 'added_mass' if added_mass == 'lagged' else 'added_mass_coriolis'
    assert np.max(np.abs(offline.components[name])) > 0.01
