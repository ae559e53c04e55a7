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
from nodes.harness import start_node
import numpy as np
import pytest

pytestmark = pytest.mark.ros

VEHICLE_YAML = """
uwv_hydro:
  ros__parameters:
    vehicle:
      name: lockstep_body
      mass: 40.0
      com: [0.02, 0.0, -0.03]
      inertia: {ixx: 1.5, iyy: 4.0, izz: 4.2}
      buoyancy_mass: 40.4
      cob: [0.0, 0.0, 0.04]
      linear_drag: {xx: 5.0, yy: 20.0, zz: 20.0, rr: 2.0, pp: 4.0, hh: 4.0, xh: 0.5}
      quadratic_drag: {xxx: 30.0, yyy: 80.0, zzz: 80.0, hhh: 6.0, xyy: 2.0}
      added_mass: {xx: 4.0, yy: 30.0, zz: 30.0, rr: 0.3, pp: 2.0, hh: 2.0, yh: 0.7, hy: 0.7}
      drag_center: [-0.05, 0.0, 0.0]
"""
START_NS = 10 ** 9
BAD = {40: 'non_finite', 90: 'stale'}  # sample index -> a message the node drops


def _trajectory(params):
    from uwv_hydro.modes.offline_simulation import simulate
    from uwv_hydro.modes.thrust_profile import ThrustProfile
    from uwv_hydro.physics.dynamics import State
    thrust = ThrustProfile([0.0, 0.6], np.array([[80, 10, -5, 0, 2, 6],
                                                 [20, -10, 5, 1, 0, -4]], float))
    start = State(position=np.array([0.0, 0.0, -8.0]),
                  quaternion=np.array([0.99, 0.05, -0.05, 0.1]) / np.linalg.norm(
                      [0.99, 0.05, -0.05, 0.1]),
                  twist=np.array([0.4, 0.1, 0.0, 0.05, 0.0, 0.1]))
    return simulate(params, 1.5, dt=0.01, thrust=thrust, initial=start)


@pytest.mark.parametrize('added_mass,current', [('lagged', None),
                                                ('implicit', [0.3, -0.2, 0.05])])
def test_one_wrench_per_odometry_stamped_like_it_equal_to_replay(
        rclpy_context, spawn, tmp_path, added_mass, current):
    from cosim.lock_step import LockStep
    from uwv_hydro.bag.replay import replay_wrench
    from uwv_hydro.bag.rosbag_io import BagWriter, MessageFactory, ODOMETRY
    from uwv_hydro.description.loader import load_vehicle
    vehicle = tmp_path / 'vehicle.yaml'
    vehicle.write_text(VEHICLE_YAML)
    params = load_vehicle(str(vehicle))
    traj = _trajectory(params)
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
