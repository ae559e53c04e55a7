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

"""Two namespaced nodes side by side: relative topics, prefixed frames, no crosstalk."""
from nodes.harness import analytic_vehicle_urdf, Probe, start_node
import pytest

pytestmark = pytest.mark.ros


def test_two_namespaced_nodes_do_not_interfere(rclpy_context, spawn, tmp_path):
    from geometry_msgs.msg import WrenchStamped
    from nav_msgs.msg import Odometry
    from tf2_msgs.msg import TFMessage
    procs = {}
    for ns in ('auv1', 'auv2'):
        procs[ns] = start_node(spawn, tmp_path, {
            'robot_description': analytic_vehicle_urdf(), 'mode': 'simulate',
            'rate_hz': 100.0, 'frame_prefix': ns + '/',
            'initial_position': [0.0, 10.0 if ns == 'auv2' else 0.0, -10.0],
            'publish_markers': False}, ns='/' + ns, name=ns)
    probe = Probe(rclpy_context)
    odom = {ns: probe.collect(Odometry, '/%s/odometry' % ns, keep=5) for ns in procs}
    children = set()
    probe.node.create_subscription(
        TFMessage, '/tf', lambda m: children.update(t.child_frame_id for t in m.transforms),
        100)
    pub = probe.publisher(WrenchStamped, '/auv1/thrust')
    msg = WrenchStamped()
    msg.header.frame_id = 'auv1/base_link'  # prefixed frame ids are accepted
    msg.wrench.force.x = 20.0

    def alive():
        for ns, (proc, log) in procs.items():
            assert proc.poll() is None, open(log).read()
        pub.publish(msg)

    def moved():
        return (odom['auv1'] and odom['auv1'][-1].pose.pose.position.x > 0.3 and odom['auv2']
                and {'auv1/base_link', 'auv2/base_link'} <= children)

    assert probe.spin_until(moved, timeout=60.0, action=alive), 'auv1 did not move'
    a1, a2 = odom['auv1'][-1], odom['auv2'][-1]
    assert a1.child_frame_id == 'auv1/base_link'
    assert a2.child_frame_id == 'auv2/base_link'
    assert a1.header.frame_id == a2.header.frame_id == 'odom'
    assert a2.pose.pose.position.x == 0.0 and a2.twist.twist.linear.x == 0.0
    assert a2.pose.pose.position.y == 10.0
    assert children == {'auv1/base_link', 'auv2/base_link'}
    # the ROS graph is eventually consistent: wait until discovery lists both nodes
    wanted = {('uwv_hydro', '/auv1'), ('uwv_hydro', '/auv2')}
    assert probe.spin_until(
        lambda: wanted <= set(probe.node.get_node_names_and_namespaces()), timeout=30.0,
        action=alive), 'graph lists %s' % probe.node.get_node_names_and_namespaces()
    probe.close()
