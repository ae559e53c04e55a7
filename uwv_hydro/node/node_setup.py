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
The node's set-up: its I/O parts for the mode, the vehicle and the parameters.

:func:`create_io` builds the parts of :class:`uwv_hydro.node.hydro_node.HydroNode`
(the mode's topics, current, fins, thrusters, the stacks' inputs -- ArduSub through
MAVROS or ArduPilot's JSON SITL, ros2_control -- joints, buoyancy engines), its
services and slow outputs; :func:`start_profile` hooks the debug cycle profile in.
"""
import time

from geometry_msgs.msg import WrenchStamped
from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy
from std_srvs.srv import Trigger
from tf2_msgs.msg import TFMessage
from uwv_hydro.node.ardusub_io import ArduSubIO
from uwv_hydro.node.buoyancy_engine_io import BuoyancyEngineIO
from uwv_hydro.node.current_input import CurrentInput
from uwv_hydro.node.diagnostics import DiagnosticsReport
from uwv_hydro.node.fin_io import FinIO
from uwv_hydro.node.joint_io import JointIO
from uwv_hydro.node.markers import MarkerBuilder
from uwv_hydro.node.ros2_control_io import Ros2ControlIO
from uwv_hydro.node.simulate_io import SimulateIO
from uwv_hydro.node.sitl_json_io import SitlJsonIO
from uwv_hydro.node.static_frames import static_frames
from uwv_hydro.node.step_cost import report_step_cost
from uwv_hydro.node.tether_io import TetherIO
from uwv_hydro.node.thruster_io import ThrusterIO
from uwv_hydro.node.wrench_io import WrenchIO
from uwv_hydro.physics.body.vehicle_params import COMPONENT_NAMES
from visualization_msgs.msg import MarkerArray

#: QoS of tf2_ros' StaticTransformBroadcaster.
TF_STATIC_QOS = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                           durability=DurabilityPolicy.TRANSIENT_LOCAL,
                           history=HistoryPolicy.KEEP_LAST)


class ConfigError(ValueError):
    """The parameters are inconsistent (the node exits non-zero)."""


def create_io(node) -> None:
    """Create the node's I/O parts for its mode, vehicle and parameters."""
    cfg = node.cfg
    node.current = CurrentInput(node)
    # the mode's topics: one part per mode
    node.io = SimulateIO(node) if node.mode == 'simulate' else WrenchIO(node)
    node.parts = [node.io, node.current]
    # fin servos: commands in, JointState out (vehicles with fins)
    node.fins = FinIO(node) if node.vehicle.fins else None
    if node.fins is not None:
        node.parts.append(node.fins)
    # per-thruster Float64 commands (simulate mode, a vehicle with thrusters)
    node.thrusters = ThrusterIO(node) if (
        node.mode == 'simulate' and node.vehicle.thrusters) else None
    if node.thrusters is not None:
        node.parts.append(node.thrusters)
    # the stacks' own message types: ArduSub via MAVROS, ros2_control's topics
    node.stack_outputs = []
    if cfg['ardusub_input'] != 'none':
        if node.thrusters is None:
            raise ConfigError('ardusub_input %r needs simulate mode and a vehicle with '
                              'thrusters' % cfg['ardusub_input'])
        try:
            if cfg['ardusub_input'] == 'sitl_json':  # ArduPilot SITL paces the node
                node.sitl = SitlJsonIO(node, node.thrusters)
                node.parts.append(node.sitl)
            else:
                node.parts.append(ArduSubIO(node, node.thrusters))
        except ValueError as exc:
            raise ConfigError('ardusub: %s' % exc) from None
    # moving joints (a vehicle with moving links): commands in, joint_states and TF out
    node.joints = JointIO(node) if (
        node.mode == 'simulate' and node.vehicle.tree is not None) else None
    if node.joints is not None:
        node.parts.append(node.joints)
        node.stack_outputs.append(node.joints)
    if cfg['ros2_control']:
        if node.mode != 'simulate' or (
                node.thrusters is None and node.fins is None and node.joints is None):
            raise ConfigError('ros2_control needs simulate mode and a vehicle with '
                              'thrusters, fins or moving joints')
        ros2_control = Ros2ControlIO(node, node.thrusters, node.fins, node.joints)
        node.parts.append(ros2_control)
        node.stack_outputs.append(ros2_control)
    # gz-sim buoyancy engines: volume commands in, volumes out (simulate mode)
    node.engines = BuoyancyEngineIO(node) if (
        node.mode == 'simulate' and node.vehicle.buoyancy_engines) else None
    if node.engines is not None:
        node.parts.append(node.engines)
        node.stack_outputs.append(node.engines)
    # the tether's cable (MoorDyn): tension and cable out (simulate mode)
    node.tether = None
    if node.vehicle.tether is not None and (node.mode != 'simulate'
                                            or node.vehicle.tree is not None):
        node.get_logger().warning(
            'the vehicle has a tether: it is modelled in simulate mode for a rigid vehicle '
            'only (not in wrench mode, not on a vehicle whose links move): not modelled here')
    elif node.vehicle.tether is not None:
        node.tether = TetherIO(node)
        node.parts.append(node.tether)
        node.stack_outputs.append(node.tether)
    if node.mode != 'simulate' and node.vehicle.sensors:
        node.get_logger().info('the vehicle has %d navigation sensors: they are published '
                               'in simulate mode only' % len(node.vehicle.sensors))
    node.create_service(Trigger, '~/reset', node._on_reset)
    node.component_pubs = {}
    if cfg['publish_components']:
        node.component_pubs = {
            name: node.create_publisher(WrenchStamped, 'hydro/components/' + name, 10)
            for name in COMPONENT_NAMES}
    node.markers = None
    if cfg['publish_markers']:
        node.markers = MarkerBuilder(node.vehicle, node.base_frame,
                                     cfg['marker_force_scale'])
        node.marker_pub = node.create_publisher(MarkerArray, 'hydro/markers', 1)
    node.diagnostics = DiagnosticsReport(node)
    if node.mode == 'simulate' and node.sitl is None:
        # a vehicle too heavy for the rate is named now (the state is reset after)
        report_step_cost(node)
    if cfg['publish_static_frames']:
        node.static_pub = node.create_publisher(TFMessage, '/tf_static', TF_STATIC_QOS)
        node.static_pub.publish(static_frames(node))


def start_profile(node) -> None:
    """Time the publishes, the rate loop's sleeps and gc passes too."""
    profile = node.profile
    io = node.io
    if node.mode == 'simulate':
        profile.register_publisher(io.odom_pub, 'publish_odometry')
        if io.tf_pub is not None:
            profile.register_publisher(io.tf_pub, 'publish_tf')
        if io.sensors is not None:
            for pub in io.sensors.publishers():
                profile.register_publisher(pub, 'publish_sensors')
    node.outbox.profile = profile
    if node._rate_loop is not None:
        node._rate_loop.profiled = True
        # a sleep overshooting the spin tail wakes after the deadline: a late wake
        profile.late_wake_ns = int(node._rate_loop.spin_tail * 1e9)
    profile.watch_gc(time.monotonic_ns)
