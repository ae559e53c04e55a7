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
Helpers of the node integration tests: start hydro_node, probe its topics over DDS.

The node runs as a real subprocess on the test's ROS domain; its log goes to a file
(a pipe could fill up and block it).  :class:`Probe` is a test-side rclpy node with
an executor and a bounded :meth:`Probe.spin_until`.
"""
import pathlib
import sys
import time

import numpy as np
import yaml

REPO = pathlib.Path(__file__).resolve().parents[3]
HYDRO_NODE = REPO / 'install' / 'uwv_hydro' / 'lib' / 'uwv_hydro' / 'hydro_node'

#: A test vehicle whose steady states are analytic (all reference points at the origin,
#: neutrally buoyant, no added mass): surge terminal speed sqrt(F / Q_xxx), steady yaw
#: rate T_z / N_r.  thruster_stern sits 1 m aft, turned +90 deg about z.
TEST_VEHICLE = """<?xml version="1.0"?>
<robot name="test_box">
  <link name="base_link">
    <inertial>
      <origin xyz="0 0 0" rpy="0 0 0"/>
      <mass value="{mass}"/>
      <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="{izz}"/>
    </inertial>
  </link>
  <link name="thruster_stern"/>
  <joint name="thruster_stern_joint" type="fixed">
    <parent link="base_link"/>
    <child link="thruster_stern"/>
    <origin xyz="-1 0 0" rpy="0 0 1.5707963267948966"/>
  </joint>
  <link name="thruster_port"/>
  <joint name="thruster_port_joint" type="fixed">
    <parent link="base_link"/>
    <child link="thruster_port"/>
    <origin xyz="0 0.5 0" rpy="0 0 0"/>
  </joint>
  <gazebo>
    <plugin name="dsros_hydro" filename="libdsros_hydro.so">
      <base_link>base_link</base_link>
      <buoyancy>
        <center x="0" y="0" z="0"/>
        <buoyancy>{mass}</buoyancy>
      </buoyancy>
      <drag>
        <linear><yy>2.0</yy><zz>2.0</zz><rr>1.0</rr><pp>1.0</pp><hh>{n_r}</hh></linear>
        <quadratic><xxx>{q_xxx}</xxx></quadratic>
      </drag>
    </plugin>
  </gazebo>
</robot>
"""
TEST_MASS = 1.0
TEST_IZZ = 0.1
TEST_Q_XXX = 4.0
TEST_N_R = 1.0


#: A YAML vehicle with coupled drag and added mass, CoM and drag centre off the origin.
COUPLED_VEHICLE_YAML = """
uwv_hydro:
  ros__parameters:
    vehicle:
      name: replay_body
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


def manoeuvre(params, duration, dt=0.01):
    """Return (offline-simulated Trajectory, ThrustProfile) of a scripted manoeuvre."""
    import numpy as np
    from uwv_hydro.modes.offline_simulation import simulate
    from uwv_hydro.modes.thrust_profile import ThrustProfile
    from uwv_hydro.physics.body.dynamics import State
    thrust = ThrustProfile([0.0, 2.0], np.array([[80, 10, -5, 0, 0, 6],
                                                 [20, -10, 0, 0, 0, -4]], float))
    q = np.array([0.99, 0.05, -0.05, 0.1])
    start = State(position=np.array([0.0, 0.0, -8.0]), quaternion=q / np.linalg.norm(q),
                  twist=np.array([0.4, 0.1, 0.0, 0.05, 0.0, 0.1]))
    return simulate(params, duration, dt=dt, thrust=thrust, initial=start), thrust


def analytic_vehicle_urdf() -> str:
    """Return the URDF text of the analytic test vehicle."""
    return TEST_VEHICLE.format(mass=TEST_MASS, izz=TEST_IZZ, q_xxx=TEST_Q_XXX, n_r=TEST_N_R)


def write_params(path, params: dict) -> str:
    """Write a ROS 2 params file applying ``params`` to every node; return its path."""
    with open(path, 'w') as f:
        yaml.safe_dump({'/**': {'ros__parameters': params}}, f)
    return str(path)


def node_command(params_file=None, ns='', extra=()):
    """Return the hydro_node command line."""
    exe = [str(HYDRO_NODE)] if HYDRO_NODE.exists() else [
        sys.executable, '-m', 'uwv_hydro.node.main']
    cmd = exe + ['--ros-args']
    if ns:
        cmd += ['-r', '__ns:=' + ns]
    if params_file:
        cmd += ['--params-file', str(params_file)]
    return cmd + list(extra)


def start_node(spawn, tmp_path, params: dict, ns='', name='node'):
    """Start hydro_node with ``params`` (a params file in tmp_path); return (proc, log path)."""
    params_file = write_params(tmp_path / ('%s_params.yaml' % name), params)
    log = tmp_path / ('%s.log' % name)
    out = open(log, 'w')
    proc = spawn(node_command(params_file, ns), stdout=out, stderr=out)
    out.close()
    return proc, log


def read_log(log) -> str:
    """Return the node's log so far."""
    try:
        return pathlib.Path(log).read_text()
    except OSError:
        return ''


def odometry_msg(position, quaternion, nu, stamp_ns=0, frame_id='odom',
                 child_frame_id='base_link'):
    """Return a nav_msgs/Odometry: pose (position, quaternion wxyz) and body twist ``nu``."""
    from nav_msgs.msg import Odometry
    msg = Odometry()
    msg.header.frame_id = frame_id
    msg.header.stamp.sec, msg.header.stamp.nanosec = divmod(int(stamp_ns), 10 ** 9)
    msg.child_frame_id = child_frame_id
    p = msg.pose.pose.position
    p.x, p.y, p.z = (float(v) for v in position)
    o = msg.pose.pose.orientation
    o.w, o.x, o.y, o.z = (float(v) for v in quaternion)
    t = msg.twist.twist
    t.linear.x, t.linear.y, t.linear.z = (float(v) for v in nu[:3])
    t.angular.x, t.angular.y, t.angular.z = (float(v) for v in nu[3:])
    return msg


def odometry_rows(messages) -> np.ndarray:
    """Return (n, 13) [position, quaternion w x y z, body twist] of nav_msgs/Odometry messages."""
    return np.array([[m.pose.pose.position.x, m.pose.pose.position.y, m.pose.pose.position.z,
                      m.pose.pose.orientation.w, m.pose.pose.orientation.x,
                      m.pose.pose.orientation.y, m.pose.pose.orientation.z,
                      m.twist.twist.linear.x, m.twist.twist.linear.y, m.twist.twist.linear.z,
                      m.twist.twist.angular.x, m.twist.twist.angular.y,
                      m.twist.twist.angular.z] for m in messages])


def diag_values(msg, name_part: str) -> dict:
    """Return {key: value} of the first status whose name contains ``name_part``."""
    for status in msg.status:
        if name_part in status.name:
            return {kv.key: kv.value for kv in status.values}
    return {}


class Probe:
    """A test-side node: subscriptions that collect, publishers, bounded spinning."""

    def __init__(self, context, name='probe'):
        from rclpy.executors import SingleThreadedExecutor
        from rclpy.node import Node
        self.node = Node(name, context=context)
        self.executor = SingleThreadedExecutor(context=context)
        self.executor.add_node(self.node)
        self._subscriptions = []

    def collect(self, msg_type, topic, qos=10, keep=None):
        """Subscribe to ``topic``; return the list the messages are appended to."""
        got = []

        def _on(msg):
            got.append(msg)
            if keep is not None and len(got) > keep:
                del got[0]

        self._subscriptions.append(self.node.create_subscription(msg_type, topic, _on, qos))
        return got

    def wait_matched(self, pub, timeout=30.0, proc=None, log=None) -> bool:
        """
        Spin until ``pub`` has a subscriber and every collecting subscription a publisher.

        A volatile reader drops what a writer it has not matched yet sends: a reply sent
        before this probe's readers are matched is lost.
        """
        return self.spin_until(lambda: pub.get_subscription_count() > 0 and all(
            self._publishers_of(s) > 0 for s in self._subscriptions), timeout, proc, log)

    def _publishers_of(self, sub) -> int:
        """Return the publishers matched with ``sub`` (Humble: those of its topic)."""
        if hasattr(sub, 'get_publisher_count'):
            return sub.get_publisher_count()
        return self.node.count_publishers(sub.topic_name)  # no get_publisher_count in Humble

    def publish_until(self, pub, msg, condition, resend=1.0, timeout=30.0, proc=None,
                      log=None) -> bool:
        """
        Publish ``msg`` and spin until ``condition()``, publishing it again every ``resend`` s.

        The node's reader may match this probe's writer after this probe has matched it
        and drop the first sample; the same message again is then its first.  With the
        replies' readers matched first (:meth:`wait_matched`), no reply is lost.
        """
        last = [time.monotonic()]
        pub.publish(msg)

        def again():
            if time.monotonic() - last[0] >= resend:
                last[0] = time.monotonic()
                pub.publish(msg)

        return self.spin_until(condition, timeout, proc, log, action=again)

    def publisher(self, msg_type, topic, qos=10):
        """Return a publisher on ``topic``."""
        return self.node.create_publisher(msg_type, topic, qos)

    def spin_until(self, condition, timeout=30.0, proc=None, log=None, action=None,
                   period=0.01) -> bool:
        """
        Spin until ``condition()`` is true or ``timeout`` (s) passed; return the condition.

        ``action()`` runs every iteration (e.g. publish); a dead ``proc`` fails at once.
        """
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if proc is not None and proc.poll() is not None:
                raise AssertionError(
                    'node exited with %s:\n%s' % (proc.returncode, read_log(log)))
            if action is not None:
                action()
            self.executor.spin_once(timeout_sec=period)
            if condition():
                return True
        return bool(condition())

    def spin_for(self, seconds, action=None, period=0.01) -> None:
        """Spin for ``seconds`` of wall time (running ``action`` every iteration)."""
        self.spin_until(lambda: False, seconds, action=action, period=period)

    def query(self, client, request, resend=5.0, timeout=30.0, proc=None, log=None):
        """
        Return the response of an idempotent service call, the request sent again if need be.

        A service can be ready (its request reader matched) before its response writer has
        matched this client's reader: the server then drops the response ("failed to send
        response (timeout)").  The same request sent again every ``resend`` s gets one.
        """
        assert self.spin_until(client.service_is_ready, timeout=timeout, proc=proc, log=log)
        futures = [client.call_async(request)]
        last = [time.monotonic()]

        def again():
            if time.monotonic() - last[0] >= resend:
                last[0] = time.monotonic()
                futures.append(client.call_async(request))

        assert self.spin_until(lambda: any(f.done() for f in futures), timeout, proc, log,
                               action=again)
        return next(f for f in futures if f.done()).result()

    def _parameter_call(self, node_name: str, service: str, request, proc, log):
        """
        Call ``node_name``'s parameter service ``service`` (its request); return the reply.

        rclpy's AsyncParameterClient is not in Humble's rclpy: the services themselves
        (rcl_interfaces/srv/SetParameters, GetParameters) are called instead.
        """
        from rcl_interfaces import srv
        kind = {'set_parameters': srv.SetParameters, 'get_parameters': srv.GetParameters}
        client = self.node.create_client(kind[service], '%s/%s' % (node_name, service))
        try:
            assert self.spin_until(client.service_is_ready, timeout=30.0, proc=proc, log=log)
            future = client.call_async(request)
            assert self.spin_until(future.done, timeout=30.0, proc=proc, log=log)
            return future.result()
        finally:
            self.node.destroy_client(client)

    def set_parameters(self, node_name: str, values: dict, proc=None, log=None) -> list:
        """Set ``values`` on ``node_name`` over its parameter service; return the results."""
        from rcl_interfaces.srv import SetParameters
        from rclpy.parameter import Parameter
        request = SetParameters.Request(
            parameters=[Parameter(k, value=v).to_parameter_msg() for k, v in values.items()])
        return list(self._parameter_call(node_name, 'set_parameters', request, proc,
                                         log).results)

    def get_parameters(self, node_name: str, names, proc=None, log=None) -> dict:
        """Return {name: value} of ``names`` on ``node_name``."""
        from rcl_interfaces.srv import GetParameters
        from rclpy.parameter import parameter_value_to_python
        reply = self._parameter_call(node_name, 'get_parameters',
                                     GetParameters.Request(names=list(names)), proc, log)
        return {n: parameter_value_to_python(v) for n, v in zip(names, reply.values)}

    def trigger(self, service: str, proc=None, log=None):
        """Call a std_srvs/Trigger service; return the response."""
        from std_srvs.srv import Trigger
        client = self.node.create_client(Trigger, service)
        assert self.spin_until(client.service_is_ready, timeout=30.0, proc=proc, log=log)
        future = client.call_async(Trigger.Request())
        assert self.spin_until(future.done, timeout=30.0, proc=proc, log=log)
        return future.result()

    def close(self) -> None:
        """Destroy the node and the executor."""
        self.executor.shutdown()
        self.node.destroy_node()
