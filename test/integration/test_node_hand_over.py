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
The update never waits on a callback (lock-free input hand-over); its outputs go out in order.

* :class:`uwv_hydro.node.input_slots.LatestSlots` under two real threads (a callback
  writing, the update taking): every value taken is whole, each key's values come in
  the order written, and the last value written is always taken;
* :class:`uwv_hydro.node.outbox.Outbox` over real rclpy/DDS: the messages arrive in
  the order published, and a publish that fails is reported, not raised;
* the node (in-process, wall-clock update thread): while another thread holds the
  node's state lock, thrust messages are still received and accounted (the callback
  does not wait for the lock), and once the lock is free the next update applies the
  latest of them; the odometry goes out with stamps one period apart, in order.
"""
import threading

from nodes.harness import analytic_vehicle_urdf, Probe
import pytest

from uwv_hydro.node.input_slots import LatestSlots
from uwv_hydro.node.outbox import Outbox


def test_latest_slots_hand_over_whole_values_in_order_and_the_last_one():
    slots = LatestSlots()
    keys = ('thrust', 'thrust_aft', 'fin')
    n = 20000
    taken = {key: [] for key in keys}
    done = threading.Event()

    def callback():  # the executor thread
        for k in range(n):
            for key in keys:
                slots.put(key, (k, -k, key))
        done.set()

    writer = threading.Thread(target=callback)
    writer.start()
    while True:  # the update thread
        finished = done.is_set()
        for key, value in slots.take():
            taken[key].append(value)
        if finished:
            break
    writer.join()
    for key in keys:
        values = taken[key]
        assert all(v[1] == -v[0] and v[2] == key for v in values), 'a torn value'
        seq = [v[0] for v in values]
        assert all(b > a for a, b in zip(seq, seq[1:])), 'values out of order'
        assert seq[-1] == n - 1, 'the last value written was not taken'
        assert len(seq) >= 1
    assert slots.take() == []
    slots.put('thrust', (1, -1, 'thrust'))
    slots.clear()
    assert slots.take() == []


@pytest.mark.ros
def test_outbox_publishes_in_order_and_survives_a_failed_publish(rclpy_context):
    from rclpy.qos import HistoryPolicy, QoSProfile, ReliabilityPolicy
    from std_msgs.msg import Float64
    qos = QoSProfile(depth=1000, reliability=ReliabilityPolicy.RELIABLE,
                     history=HistoryPolicy.KEEP_LAST)
    probe = Probe(rclpy_context)
    received = probe.collect(Float64, 'outbox_order', qos=qos)
    pub = probe.node.create_publisher(Float64, 'outbox_order', qos)
    dead = probe.node.create_publisher(Float64, 'outbox_dead', qos)
    probe.node.destroy_publisher(dead)  # publishing on it raises
    assert probe.spin_until(lambda: pub.get_subscription_count() > 0, timeout=10.0)
    errors = []
    outbox = Outbox(on_error=errors.append)
    for k in range(50):
        outbox.publish(pub, Float64(data=float(k)))
        if k == 20:
            outbox.publish(dead, Float64(data=-1.0))
    assert probe.spin_until(lambda: len(received) == 50, timeout=30.0), len(received)
    assert [m.data for m in received] == [float(k) for k in range(50)]
    assert outbox.published == 50 and len(errors) == 1, errors
    probe.close()


@pytest.mark.ros
def test_thrust_callback_never_waits_for_the_state_lock(rclpy_context):
    from geometry_msgs.msg import WrenchStamped
    from nav_msgs.msg import Odometry
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.parameter import Parameter
    from uwv_hydro.node.hydro_node import HydroNode
    rate_hz = 100.0
    params = {'robot_description': analytic_vehicle_urdf(), 'mode': 'simulate',
              'rate_hz': rate_hz, 'loop': 'thread', 'initial_position': [0.0, 0.0, -10.0],
              'publish_markers': False, 'thrust_timeout': 60.0}
    node = HydroNode(context=rclpy_context,
                     parameter_overrides=[Parameter(k, value=v) for k, v in params.items()])
    executor = SingleThreadedExecutor(context=rclpy_context)
    executor.add_node(node)
    spinner = threading.Thread(target=executor.spin, daemon=True)
    spinner.start()
    probe = Probe(rclpy_context)
    odom = probe.collect(Odometry, 'odometry')
    thrust_pub = probe.publisher(WrenchStamped, 'thrust')
    stats = node.inputs['thrust']
    try:
        assert probe.spin_until(lambda: len(odom) > 10 and thrust_pub.get_subscription_count(),
                                timeout=30.0)
        # another thread holds the state lock: the update waits, the callbacks do not
        with node.lock:
            before = stats.count
            cycles = node.loop_stats['ticks']
            for k in range(5):
                msg = WrenchStamped()
                msg.header.frame_id = 'base_link'
                msg.wrench.force.y = 100.0 * (k + 1)
                thrust_pub.publish(msg)
                probe.spin_for(0.02)
            assert probe.spin_until(lambda: stats.count == before + 5, timeout=10.0), (
                'a thrust callback waited for the state lock (%d of 5 received while it '
                'was held)' % (stats.count - before))
            assert node.loop_stats['ticks'] == cycles, 'an update ran under the held lock'
            # handed over, not yet applied: the mux has no wrench before the next update
            assert node.io.mux.inputs['thrust'].wrench is None
        # the next update applies the latest of the five
        assert probe.spin_until(lambda: node.io.mux.inputs['thrust'].wrench is not None,
                                timeout=10.0)
        # the last one sent (base frame: moved to the base by the identity)
        assert abs(node.io.mux.inputs['thrust'].wrench[1] - 500.0) < 1e-9
        probe.spin_for(0.3)
    finally:
        executor.shutdown(timeout_sec=2.0)
        node.destroy_node()
        probe.close()
    assert node.outbox.published > 0
    stamps = [m.header.stamp.sec * 10 ** 9 + m.header.stamp.nanosec for m in odom]
    steps = [b - a for a, b in zip(stamps, stamps[1:])]
    period = int(round(1e9 / rate_hz))
    # in order, one integration step (one period) apart
    assert all(s > 0 for s in steps), steps
    assert sorted(steps)[len(steps) // 2] == period, steps
