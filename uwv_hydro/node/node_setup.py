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

:func:`make_parts` builds the parts of :class:`uwv_hydro.node.hydro_node.HydroNode`
(the mode's topics, current, fins, thrusters, the stacks' inputs -- ArduSub through
MAVROS or ArduPilot's JSON SITL, ros2_control -- joints, buoyancy engines, the tether),
its reset service and slow outputs, and returns them as one :class:`NodeParts`, which
the node keeps as its attributes.  :func:`start_reports` then starts what reads the
assigned parts (/diagnostics, the step cost, /tf_static); :func:`choose_loop` picks what
paces the update, :func:`log_start` says the set-up and :func:`start_profile` hooks the
debug cycle profile in.
"""
import dataclasses
import time
from typing import Dict, List, Optional, Tuple, Union

from geometry_msgs.msg import WrenchStamped
from rclpy.publisher import Publisher
from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy
from std_srvs.srv import Trigger
from tf2_msgs.msg import TFMessage
from uwv_hydro.node.ardusub_io import ArduSubIO
from uwv_hydro.node.buoyancy_engine_io import BuoyancyEngineIO
from uwv_hydro.node.current_input import CurrentInput
from uwv_hydro.node.diagnostics import DiagnosticsReport
from uwv_hydro.node.executor_choice import choose
from uwv_hydro.node.fin_io import FinIO
from uwv_hydro.node.joint_io import JointIO
from uwv_hydro.node.markers import MarkerBuilder
from uwv_hydro.node.node_part import NodePart
from uwv_hydro.node.parameters import describe, unread_parameters
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


@dataclasses.dataclass
class NodeParts:
    """The node's parts for its mode, vehicle and parameters (:func:`make_parts`)."""

    #: the water current: its parameter and topics in, its velocity out
    current: CurrentInput
    #: the mode's topics: odometry and TF out (simulate), the hydro wrench out (wrench)
    io: Union[SimulateIO, WrenchIO]
    #: every part, in the order they are reset and their inputs taken
    parts: List[NodePart]
    #: the parts updated after the mode, at the state's time (joints, ros2_control, ...)
    stack_outputs: List[NodePart]
    #: fin servos: commands in, JointState out (a vehicle with fins)
    fins: Optional[FinIO] = None
    #: per-thruster Float64 commands (simulate mode, a vehicle with thrusters)
    thrusters: Optional[ThrusterIO] = None
    #: ArduPilot's JSON SITL backend, which paces the node (ardusub_input sitl_json)
    sitl: Optional[SitlJsonIO] = None
    #: moving joints: commands in, joint_states and TF out (simulate, moving links)
    joints: Optional[JointIO] = None
    #: gz-sim buoyancy engines: volume commands in, volumes out (simulate mode)
    engines: Optional[BuoyancyEngineIO] = None
    #: the tether's cable (MoorDyn): tension and cable out (simulate, a rigid vehicle)
    tether: Optional[TetherIO] = None
    #: hydro/components/<name> publishers by component name (publish_components)
    component_pubs: Dict[str, Publisher] = dataclasses.field(default_factory=dict)
    #: the hydro/markers builder and publisher (publish_markers)
    markers: Optional[MarkerBuilder] = None
    marker_pub: Optional[Publisher] = None


def make_parts(node) -> NodeParts:
    """Return the node's I/O parts, services and slow outputs for its mode and vehicle."""
    cfg, vehicle, simulate = node.cfg, node.vehicle, node.mode == 'simulate'
    current = CurrentInput(node)
    # the mode's topics: one part per mode
    io = SimulateIO(node, current) if simulate else WrenchIO(node, current)
    made = NodeParts(current=current, io=io, parts=[io, current], stack_outputs=[])
    if vehicle.fins:
        made.fins = _add(made, FinIO(node, io))
    if simulate and vehicle.thrusters:
        made.thrusters = _add(made, ThrusterIO(node))
    # the stacks' own message types: ArduSub via MAVROS, ros2_control's topics
    if cfg['ardusub_input'] != 'none':
        made.sitl = _ardusub_input(node, made)
    if simulate and vehicle.tree is not None:
        made.joints = _add(made, JointIO(node, io), output=True)
    if cfg['ros2_control']:
        if not simulate or (made.thrusters is None and made.fins is None
                            and made.joints is None):
            raise ConfigError('ros2_control needs simulate mode and a vehicle with '
                              'thrusters, fins or moving joints')
        _add(made, Ros2ControlIO(node, made.thrusters, made.fins, made.joints), output=True)
    if simulate and vehicle.buoyancy_engines:
        made.engines = _add(made, BuoyancyEngineIO(node, io), output=True)
    if vehicle.tether is not None and (not simulate or vehicle.tree is not None):
        node.get_logger().warning(
            'the vehicle has a tether: it is modelled in simulate mode for a rigid vehicle '
            'only (not in wrench mode, not on a vehicle whose links move): not modelled here')
    elif vehicle.tether is not None:
        made.tether = _add(made, TetherIO(node, io), output=True)
    if not simulate and vehicle.sensors:
        node.get_logger().info('the vehicle has %d navigation sensors: they are published '
                               'in simulate mode only' % len(vehicle.sensors))
    node.create_service(Trigger, '~/reset', node._on_reset)
    if cfg['publish_components']:
        made.component_pubs = {
            name: node.create_publisher(WrenchStamped, 'hydro/components/' + name, 10)
            for name in COMPONENT_NAMES}
    if cfg['publish_markers']:
        made.markers = MarkerBuilder(vehicle, node.base_frame, cfg['marker_force_scale'])
        made.marker_pub = node.create_publisher(MarkerArray, 'hydro/markers', 1)
    return made


def _add(made: NodeParts, part, output: bool = False):
    """Append ``part`` to the parts (and to the stack outputs with ``output``); return it."""
    made.parts.append(part)
    if output:
        made.stack_outputs.append(part)
    return part


def _ardusub_input(node, made: NodeParts) -> Optional[SitlJsonIO]:
    """Add ArduSub's input (MAVROS or ArduPilot's JSON SITL); return the SITL backend."""
    kind = node.cfg['ardusub_input']
    if made.thrusters is None:
        raise ConfigError('ardusub_input %r needs simulate mode and a vehicle with '
                          'thrusters' % kind)
    try:
        if kind == 'sitl_json':  # ArduPilot SITL paces the node
            return _add(made, SitlJsonIO(node, made.thrusters, made.io))
        _add(made, ArduSubIO(node, made.thrusters))
    except ValueError as exc:
        raise ConfigError('ardusub: %s' % exc) from None
    return None


def start_reports(node) -> Tuple[DiagnosticsReport, Optional[Publisher]]:
    """
    Start the reports that read the node's assigned parts; return them.

    /diagnostics (its first window from the node clock, ArduPilot's under SITL), the
    step cost (simulate mode: the node's update cycles timed, the state reset after)
    and /tf_static (publish_static_frames, else None as its publisher).
    """
    diagnostics = DiagnosticsReport(node)
    if node.mode == 'simulate' and node.sitl is None:
        # a vehicle too heavy for the rate is named now (the state is reset after)
        report_step_cost(node)
    static_pub = None
    if node.cfg['publish_static_frames']:
        static_pub = node.create_publisher(TFMessage, '/tf_static', TF_STATIC_QOS)
        static_pub.publish(static_frames(node))
    return diagnostics, static_pub


def choose_loop(cfg: dict, sim_time: bool) -> Tuple[str, str, str]:
    """Return what paces the update (loop_mode), rclpy's executor and why (parameters)."""
    # The update is paced by a timer on the pacing clock, or in wall time by a
    # RateLoop thread: rclpy's executor costs a few hundred us of CPU per timer tick,
    # too much for a steady 1 kHz (see rate_loop.py)
    if cfg['ardusub_input'] == 'sitl_json':
        loop_mode = 'sitl_json'  # each frame of ArduPilot runs one update
    elif cfg['loop'] != 'auto':
        loop_mode = cfg['loop']
    else:
        loop_mode = 'timer' if sim_time else 'thread'
    # rclpy's executor (executor_choice.py): what this rclpy has, said at start-up
    try:
        name, reason = choose(cfg['executor'], loop_mode in ('thread', 'sitl_json'))
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    return loop_mode, name, reason


def log_start(node, vehicle_values: dict, notes: List[str]) -> None:
    """Log the vehicle's notes and warnings, the unread parameters, then the set-up."""
    logger = node.get_logger()
    for note in notes:
        logger.info(note)
    for warning in node.vehicle.warnings:
        logger.warning('vehicle: %s' % warning)
    for warning in unread_parameters(node):
        logger.warning(warning)
    clock = 'sim time' if node.sim_time else 'the monotonic clock'
    paced_by = {'thread': 'a wall-clock thread', 'sitl_json': "ArduPilot SITL's frames",
                'timer': 'a timer on %s' % clock}[node.loop_mode]
    vehicle = node.vehicle
    logger.info(
        'vehicle %r from %s (mass %.6g kg, buoyancy %.6g kg, base %r); mode %s at %g Hz '
        '(paced by %s; callbacks on the %s executor, %s); configuration:\n%s' % (
            vehicle.name, vehicle.source, vehicle.mass, vehicle.buoyancy_mass,
            node.base_frame, node.mode, node.cfg['rate_hz'], paced_by, node.executor_name,
            node.executor_reason, describe(dict(vehicle_values, **node.cfg))))


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
