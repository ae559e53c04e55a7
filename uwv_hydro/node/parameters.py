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
Every parameter of the node, declared from one table with a ParameterDescriptor.

:data:`VEHICLE_PARAMETERS` are declared first (the vehicle is needed for the
defaults of the others, e.g. ``acceleration_alpha``); :data:`PARAMETERS` then.
Read-only parameters cannot change after start; the others are re-read on change
(see ``HydroNode._on_set_parameters``).

:func:`check` is the one validation of values, at start-up and on every change: the
choices, the lengths of arrays, and every number finite and in its range (``bounds``
of a scalar, ``element_bounds`` of each array element; ``low_open`` excludes the
lower bound, e.g. ``acceleration_alpha`` in (0, 1]), which the descriptors cannot
express (rclpy checks no array element, and accepts the closed range only).

Durations and rates are on the *pacing clock*: sim time (/clock) under
``use_sim_time``, else the monotonic clock, so a step of the system clock changes
nothing but the stamps (ROS time stamps the outputs).

``python -m uwv_hydro.node.parameters`` prints ``config/node_defaults.yaml``.
"""
from dataclasses import dataclass
import difflib
import math
import sys
import textwrap
from typing import Any, Dict, List, Optional, Tuple

from rcl_interfaces.msg import FloatingPointRange, IntegerRange, ParameterDescriptor

from uwv_hydro.description.yaml.params import VEHICLE_KEYS
from uwv_hydro.modes.ardusub_rc import INPUTS as ARDUSUB_INPUTS, OVERRIDE_TIMEOUT_S
from uwv_hydro.modes.fin_servos import TIMEOUT_ACTIONS as FIN_TIMEOUT_ACTIONS
from uwv_hydro.modes.initial_joints import initial_joint_positions
from uwv_hydro.modes.joint_state_io import COMMANDS_TOPIC, STATES_TOPIC
from uwv_hydro.modes.sitl_rangefinder import MAX_RANGE_LIMIT_M
from uwv_hydro.modes.thruster_drive import GZ_TOPIC_PATTERN
from uwv_hydro.modes.wrench_mode import ADDED_MASS_MODES
from uwv_hydro.node.executor_choice import EXECUTORS
from uwv_hydro.physics.environment.current_field import MAX_CURRENT_COMPONENT

MODES = ('simulate', 'wrench')
LOOP_MODES = ('auto', 'timer', 'thread')
PUBLISH_ON = ('timer', 'odometry')
#: Where the simulator's ApplyLinkWrench applies an EntityWrench's force (node/gz_io.py).
GZ_WRENCH_POINTS = ('link_origin', 'com')

#: Default odometry covariance diagonal (variance; m^2, rad^2): the simulated state is
#: exact, so a small positive value that keeps consumers (e.g. robot_localization) sane.
DEFAULT_POSE_VARIANCE = 1e-6
DEFAULT_TWIST_VARIANCE = 1e-6
#: The fin command topic pattern by default (SDF fins with a joint controller use its).
DEFAULT_FIN_TOPIC = 'fins/{joint}/cmd_pos'
#: The moving joints' command topic prefix by default (+ /cmd_pos, /cmd_vel, /cmd_force).
DEFAULT_JOINT_TOPIC = 'joints/{joint}'
#: Declared only for a vehicle with moving links (their default is the vehicle's).
MOVING_LINKS_ONLY = ('initial_joint_positions',)
#: physics.articulated.algorithms.articulated_dynamics.ADDED_MASS_METHODS (not imported: Pinocchio)
JOINT_ADDED_MASS = ('inertia', 'lagged')


@dataclass(frozen=True)
class Spec:
    """One parameter: name, default, description, read-only flag and optional range."""

    name: str
    default: Any
    description: str
    read_only: bool = True
    #: (low, high) for doubles and integers.
    bounds: Optional[Tuple[float, float]] = None
    choices: Tuple[str, ...] = ()
    #: number of elements of an array parameter
    size: Optional[int] = None
    #: (low, high) of every element of an array parameter
    element_bounds: Optional[Tuple[float, float]] = None
    #: the lower bound is excluded
    low_open: bool = False


VEHICLE_PARAMETERS = (
    Spec('robot_description', '', 'URDF string (as robot_state_publisher takes)'),
    Spec('vehicle_file', '', 'URDF/xacro/SDF/YAML path; a YAML file extends robot_description '
         'when both are given'),
    Spec('model_name', '', 'the model of an SDF world to use as the vehicle (empty: the one '
         'model carrying hydrodynamics, buoyancy or thrusters)'),
    # [''] rather than []: an empty list has no type for rclpy; empty entries are ignored
    Spec('package_path', [''], 'directories searched recursively for ROS 1 packages '
         '(package.xml) by $(find pkg) in a xacro vehicle_file, after the ament index and '
         'before ROS_PACKAGE_PATH'),
)

PARAMETERS = (
    Spec('mode', 'simulate', 'simulate (integrate the dynamics, publish odometry and TF) '
         'or wrench (hydro wrench from odometry for an external simulator)',
         choices=MODES),
    Spec('rate_hz', 100.0, 'fixed update rate (Hz, pacing clock: sim time under '
         'use_sim_time, else monotonic; ardusub_input sitl_json without it: the '
         "frame_rate of ArduPilot's first packet)", bounds=(1.0, 2000.0)),
    Spec('loop', 'auto', 'what paces the update: timer (an executor timer on the pacing '
         'clock), thread (a '
         'precisely paced wall-clock thread, for high rates in hardware in the loop) or '
         'auto (thread in wall time, timer under use_sim_time)', choices=LOOP_MODES),
    Spec('executor', 'auto', "rclpy's executor of the callbacks: events (the EventsExecutor, "
         'Kilted and Jazzy from rclpy 7.1.4), single_threaded, or auto (events where rclpy '
         'has it and the updates run on their own thread)', choices=EXECUTORS),
    Spec('cycle_profile', False, "debug: time every wall-clock cycle's stages (wake-up "
         'lateness, state lock, inputs, update, hand-over, each publish, gc; late wakes by the '
         'section then running) and report their p50/p99/max in /diagnostics (profile.*); '
         'off: a few flag tests per cycle (doc/guide/node_timing.md)'),
    Spec('substeps', 1, 'least RK4 sub-steps per update (simulate mode); raised at start '
         'so the stiffest mode keeps |lambda| h <= 2.5 (rk4_substeps in /diagnostics)',
         bounds=(1, 1000)),
    Spec('max_catchup_steps', 10, 'most simulation steps one late update may run to keep '
         'the state on the pacing clock (each published as odometry); beyond, the node '
         'slows down: the simulated time (the stamps) falls behind the clock, warned and '
         'counted, and catches up by running lagged steps in updates with fewer due, up '
         'to this many per update', bounds=(1, 1000)),
    Spec('added_mass', 'implicit', 'wrench mode: implicit (the engine carries M_A in its '
         'inertia and its C_A(nu) nu: only the current corrections are emitted) or lagged '
         '(filtered backward-difference acceleration)', choices=ADDED_MASS_MODES),
    Spec('publish_on', 'timer', 'wrench mode: timer (the latest wrench at rate_hz) or '
         'odometry (one wrench per odometry message, computed when it arrives and '
         'stamped with its stamp: lock-step co-simulation)', choices=PUBLISH_ON),
    Spec('acceleration_alpha', None, 'low-pass coefficient of the lagged acceleration, in '
         '(0, 1] (default: the vehicle value)', bounds=(0.0, 1.0), low_open=True),
    Spec('apply_weight', False, 'wrench mode: include the weight (false: the simulator '
         'applies gravity)', read_only=False),
    Spec('odometry_timeout', 0.5, 'wrench mode: stop publishing when odometry is older '
         'than this (s, pacing clock)', read_only=False, bounds=(0.0, 3600.0)),
    Spec('joint_states_topic', 'joint_states', 'wrench mode, a vehicle whose links move: '
         'sensor_msgs/JointState of its joints, matched by name (what ros_gz_bridge carries '
         "from gz-sim's JointStatePublisher, or a robot driver's); each link's wrench goes "
         'out on hydro/links/<link>/wrench; simulate mode publishes it (position, '
         'velocity, effort of every moving joint)'),
    Spec('thrust_topics', ['thrust'], 'WrenchStamped thrust topics (frame_id = thruster '
         'link, summed in the base frame)'),
    Spec('thrust_timeout', 0.5, 'a thrust topic silent this long contributes zero '
         '(s, pacing clock)', read_only=False, bounds=(0.0, 3600.0)),
    Spec('thruster_timeout', 0.5, 'simulate: a thruster of the vehicle without a Float64 '
         'command this long goes to its neutral command (zero thrust) (s, pacing clock)',
         read_only=False, bounds=(0.0, 3600.0)),
    Spec('thruster_topic_pattern', GZ_TOPIC_PATTERN, 'simulate: command topic of each '
         "thruster (gz-sim's by default): {ns} = the thruster's namespace or the vehicle "
         'name, {joint} = its joint, {cmd} = cmd_thrust (cmd_vel with use_angvel_cmd); '
         'feedback on the same pattern with {cmd} = force and ang_vel'),
    Spec('fin_command_topic', DEFAULT_FIN_TOPIC, 'std_msgs/Float64 fin angle command '
         'topic (rad); {joint} = the fin joint, {model} = the vehicle name (gz-style: '
         '/model/{model}/joint/{joint}/cmd_pos); left at its default, a fin driven by '
         "an SDF JointPositionController listens on that controller's topic"),
    Spec('fin_command_timeout', 0.5, 'a fin whose last command is older than this is stale '
         '(s, pacing clock; 0 = never)', bounds=(0.0, 3600.0)),
    Spec('fin_timeout_action', 'hold', 'what a stale fin does: hold (its last command) or '
         'centre (zero)', choices=FIN_TIMEOUT_ACTIONS),
    Spec('fin_joint_state_topic', 'joint_states', 'sensor_msgs/JointState of the actual fin '
         'angles (for robot_state_publisher)'),
    Spec('joint_command_topic', DEFAULT_JOINT_TOPIC, 'simulate, a vehicle with moving '
         'links: std_msgs/Float64 command topics of each moving joint, this + /cmd_pos '
         '(position), /cmd_vel (velocity) or /cmd_force (effort); {joint} = the joint, '
         '{model} = the vehicle name (gz-style: /model/{model}/joint/{joint})'),
    Spec('joint_servo_bandwidth', 20.0, 'simulate, moving links: bandwidth w of the '
         'joint position/velocity servos (rad/s; velocity loop w, position loop w / 4, on '
         "the joint's apparent inertia)", bounds=(1e-3, 1e4)),
    Spec('initial_joint_positions', None, 'simulate, moving links: initial position of '
         'every moving joint (rad or m), one value per joint in the order of joint_states '
         '(the order the start-up log lists); each within its joint limits, else the node '
         'does not start; used at start and on every reset (default: zero, clamped to the '
         'limits)'),
    Spec('joint_added_mass', 'inertia', 'simulate, moving links: inertia (the rigid-body '
         "form of each link's added mass in its inertia, every remainder solved with the "
         "accelerations) or lagged (every link's added mass lagged by a step)",
         choices=JOINT_ADDED_MASS),
    Spec('ardusub_input', 'none', 'simulate: thruster PWM from ArduSub: through MAVROS, '
         'override (mavros_msgs/OverrideRCIn, thruster servos in RC passthrough) or rc_out '
         '(mavros_msgs/RCOut, the autopilot outputs); sitl_json (the node is the physics of '
         "ArduPilot SITL's JSON backend, in lock step: its servo packets in, the state out, "
         'the node paced by its frames and publishing /clock); or none',
         choices=ARDUSUB_INPUTS),
    Spec('sitl_json_address', '127.0.0.1', 'ardusub_input sitl_json: the UDP address the '
         'node binds (ArduPilot sends to 127.0.0.1 unless started with --sim-address)'),
    Spec('sitl_json_port', 9002, 'ardusub_input sitl_json: the UDP port the node binds '
         '(ArduPilot instance I sends to 9002 + 10 I)', bounds=(1, 65535)),
    Spec('sitl_json_publish_rate', 100.0, 'ardusub_input sitl_json: /clock, odometry and '
         'TF per second of physics time (the sensors keep their own rates)',
         bounds=(1.0, 2000.0)),
    Spec('sitl_json_publish_clock', True, 'ardusub_input sitl_json: publish the physics '
         'time on /clock (the node is the clock: start the other nodes with use_sim_time)'),
    Spec('sitl_json_timeout', 2.0, 'ardusub_input sitl_json: ArduPilot silent this long '
         '(s, wall time) is reported; another sender takes over the port after it',
         bounds=(0.01, 3600.0)),
    Spec('sitl_json_rangefinder_position', [0.0, 0.0, 0.0], 'ardusub_input sitl_json with '
         "seabed_file: where ArduPilot's rangefinder 1 (rng_1, RNGFND1_TYPE 100) sits on "
         'the base link (m, FLU)', size=3, element_bounds=(-1.0e3, 1.0e3)),
    Spec('sitl_json_rangefinder_direction', [0.0, 0.0, -1.0], 'ardusub_input sitl_json '
         'with seabed_file: the direction of its beam in the base link (FLU; [0, 0, -1] = '
         'down, RNGFND1_ORIENT 25)', size=3, element_bounds=(-1.0, 1.0)),
    Spec('sitl_json_rangefinder_max', 30.0, 'ardusub_input sitl_json with seabed_file: '
         'the beam reaches this far (m); with no seabed within it rng_1 is 1 m beyond it '
         '(set RNGFND1_MAX to it: ArduPilot reads that out of range high)',
         bounds=(0.0, MAX_RANGE_LIMIT_M), low_open=True),
    Spec('sitl_json_rangefinder_rate', 20.0, 'ardusub_input sitl_json with seabed_file: rng_1 '
         'measured this often (Hz, physics time; ArduSub reads it at 20 Hz)', bounds=(0.1, 2e3)),
    Spec('ardusub_override_topic', 'mavros/rc/override', 'OverrideRCIn topic '
         '(ardusub_input override)'),
    Spec('ardusub_rc_out_topic', 'mavros/rc/out', 'RCOut topic (ardusub_input rc_out)'),
    Spec('ardusub_servo_functions', [33, 34, 35, 36, 37, 38], 'ArduSub SERVOn_FUNCTION of '
         'servo 1, 2, ...: 33..40 = Motor1..8 puts that motor on servo n (channel n); other '
         'values drive no thruster', element_bounds=(0, 200)),
    Spec('ardusub_motor_joints', [''], 'thruster joint of ArduSub Motor1, Motor2, ... (the '
         "frame's motor layout); [''] = the vehicle's thrusters in order"),
    Spec('ardusub_timeout', OVERRIDE_TIMEOUT_S, 'a channel without a new value this long '
         'goes neutral (1500 us) (s, pacing clock; ArduPilot RC_OVERRIDE_TIME)',
         bounds=(0.0, 3600.0)),
    Spec('ros2_control', False, 'simulate: stand in for a topic_based_ros2_control '
         'TopicBasedSystem (JointState commands in, JointState states out)'),
    Spec('ros2_control_commands_topic', COMMANDS_TOPIC, 'JointState commands of the '
         'thruster (effort = thrust, velocity = rotor speed) and fin (position) joints'),
    Spec('ros2_control_states_topic', STATES_TOPIC, 'JointState of the thruster and fin '
         'joints (position, velocity, effort)'),
    Spec('ros2_control_joint_interface', 'position', 'the command interface of the moving '
         'joints (a vehicle with moving links) in the ros2_control block: position, '
         'velocity or effort', choices=('position', 'velocity', 'effort')),
    Spec('dvl_topic', '{name}/data', 'simulate: marine_acoustic_msgs/Dvl topic of each '
         'DVL ({name} = the sensor name, {topic} = its twist topic)'),
    Spec('seabed_file', '', "simulate: the world's seabed (DVLs, echosounders, rng_1 of "
         'sitl_json, contact, the tether): a grid (.asc, .tif, .nc, .grd), an SDF world or a '
         "YAML seabed description, doc/guide/seabed.md ('' = none: flat seabed_depth)"),
    Spec('seabed_origin', '', "LAT,LON (deg): the datum of the world origin on seabed_file's "
         'grid (a YAML description gives its own, an SDF world its spherical_coordinates; '
         "'' = none)"),
    Spec('seabed_radius', 0.0, 'read only the square of this half-side (m) around the '
         'origin of seabed_file (0 = the whole grid)', bounds=(0.0, 1.0e7)),
    Spec('current', [0.0, 0.0, 0.0], 'world-frame (ENU) current velocity (m/s, each '
         'component within +-%g); the current topics override it once they publish'
         % MAX_CURRENT_COMPONENT, read_only=False, size=3,
         element_bounds=(-MAX_CURRENT_COMPONENT, MAX_CURRENT_COMPONENT)),
    Spec('current_file', '', 'current description file (YAML current: {type: constant|'
         'profile|tide|csv|gauss_markov, ...}, doc/guide/currents.md): the water current '
         'at the vehicle position and time replaces the current parameter; the current '
         "topics still override it once they publish ('' = none)"),
    Spec('current_publish_period', 0.05, 'least interval between two messages on '
         'hydrodynamics/current_velocity (s of stamp time; 0.05 = 20 Hz as uuv_simulator, '
         '0 = every update or odometry)', bounds=(0.0, 3600.0)),
    Spec('odom_frame', 'odom', 'parent frame of odometry and TF (not prefixed); wrench '
         'mode: the header.frame_id odometry must have'),
    Spec('accept_any_odometry_frames', False, 'wrench mode: use odometry whatever its '
         'frames (false: header.frame_id must be odom_frame and child_frame_id the base '
         'link or a fixed frame of the vehicle, else the message is dropped as '
         'frame_mismatch)'),
    Spec('frame_prefix', '', 'prefix of the vehicle frame ids (like '
         'robot_state_publisher)'),
    Spec('initial_position', [0.0, 0.0, 0.0], 'simulate: initial position in odom (m, ENU)',
         read_only=False, size=3, element_bounds=(-1e9, 1e9)),
    Spec('initial_orientation_rpy', [0.0, 0.0, 0.0], 'simulate: initial roll, pitch, yaw '
         '(rad)', read_only=False, size=3, element_bounds=(-100.0, 100.0)),
    Spec('initial_velocity', [0.0] * 6, 'simulate: initial body twist [u v w p q r] (m/s, '
         'rad/s; each within +-1e4)', read_only=False, size=6,
         element_bounds=(-1e4, 1e4)),
    Spec('pose_covariance_diagonal', [DEFAULT_POSE_VARIANCE] * 6, 'odometry pose '
         'covariance diagonal (m^2, rad^2)', size=6, element_bounds=(0.0, 1e12)),
    Spec('twist_covariance_diagonal', [DEFAULT_TWIST_VARIANCE] * 6, 'odometry twist '
         'covariance diagonal ((m/s)^2, (rad/s)^2)', size=6, element_bounds=(0.0, 1e12)),
    Spec('publish_tf', True, 'simulate: publish odom -> base on /tf'),
    Spec('publish_static_frames', True, 'publish CoM, CoB and centre of drag on /tf_static'),
    Spec('publish_components', False, 'publish hydro/components/<name>'),
    Spec('publish_markers', True, 'publish hydro/markers'),
    Spec('publish_tether', True, 'simulate, a tethered vehicle: publish tether/marker (the '
         'cable as a line strip; tether/tension is always published)'),
    Spec('marker_rate_hz', 10.0, 'rate of hydro/markers (Hz, pacing clock)',
         bounds=(0.1, 100.0)),
    Spec('marker_force_scale', 0.0, 'arrow length per newton (m/N); 0 = automatic',
         bounds=(0.0, 1e3)),
    Spec('diagnostics_period', 1.0, 'period of /diagnostics (s, steady clock)',
         bounds=(0.05, 60.0)),
    Spec('clock_stall_timeout', 1.0, 'use_sim_time: /clock not advancing for this long '
         '(s, steady clock) is reported as "clock stalled" (WARN)', bounds=(0.1, 3600.0)),
    Spec('stamp_reset_threshold', 1.0, 'a header stamp older than the previous one by more '
         'than this (s) restarts that input (looping bag); less is dropped as stale',
         bounds=(0.0, 1e6)),
    Spec('gz_entity_wrench', False, 'wrench mode: also publish hydro/entity_wrench '
         '(ros_gz_interfaces/EntityWrench of hydro/wrench_world for gz-sim ApplyLinkWrench '
         'through ros_gz_bridge)'),
    Spec('gz_model_name', '', 'gz-sim model of the EntityWrench entity <model>::<link> '
         '(default: the vehicle name)'),
    Spec('gz_link_name', '', 'gz-sim link of the EntityWrench entity (default: the base '
         'link)'),
    Spec('gz_wrench_point', 'link_origin', 'where the ApplyLinkWrench of the simulator '
         'applies the force: link_origin (gz-sim 7-9) or com (the torque is moved to the '
         'centre of mass)', choices=GZ_WRENCH_POINTS),
)

SPECS: Dict[str, Spec] = {s.name: s for s in VEHICLE_PARAMETERS + PARAMETERS}


def descriptor(spec: Spec) -> ParameterDescriptor:
    """Return the ParameterDescriptor of ``spec``."""
    desc = ParameterDescriptor(description=spec.description, read_only=spec.read_only)
    if spec.choices:
        desc.additional_constraints = 'one of: ' + ', '.join(spec.choices)
    if spec.bounds is not None:
        if isinstance(spec.default, int) and not isinstance(spec.default, bool):
            desc.integer_range = [IntegerRange(from_value=int(spec.bounds[0]),
                                               to_value=int(spec.bounds[1]), step=1)]
        else:
            desc.floating_point_range = [FloatingPointRange(
                from_value=float(spec.bounds[0]), to_value=float(spec.bounds[1]), step=0.0)]
    return desc


def declare(node, specs, overrides: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    """
    Declare ``specs`` on ``node`` (``overrides`` replaces defaults); return the values.

    A spec whose default stays None is not declared (it has no value for this vehicle).
    """
    overrides = overrides or {}
    values = {}
    for spec in specs:
        default = overrides.get(spec.name, spec.default)
        if default is None:
            continue  # no value for this vehicle (initial_joint_positions of a rigid one)
        node.declare_parameter(spec.name, default, descriptor(spec))
        values[spec.name] = node.get_parameter(spec.name).value
    return values


def initial_joint_default(vehicle) -> Optional[List[float]]:
    """Return the vehicle's initial_joint_positions default (None: no moving joints)."""
    if vehicle.tree is None or not vehicle.tree.joints:
        return None
    return initial_joint_positions(None, vehicle.tree).tolist()


def joint_start(values: Dict[str, Any], vehicle):
    """Return the checked initial joint positions of ``values`` (ValueError naming the joint)."""
    start = values.get('initial_joint_positions')
    if isinstance(start, (int, float)):  # one joint, given as a scalar in YAML
        start = [start]
    return initial_joint_positions(start, vehicle.tree)


def vehicle_problems(values: Dict[str, Any], vehicle) -> List[str]:
    """Return the problems of the values that depend on the vehicle (its joints)."""
    if vehicle.tree is None or values.get('mode') != 'simulate':
        return []
    try:
        joint_start(values, vehicle)
    except ValueError as exc:
        return [str(exc)]
    return []


def _range_text(low: float, high: float, low_open: bool) -> str:
    return '%s%g, %g]' % ('(' if low_open else '[', low, high)


def _number_problems(name: str, value, low_high, low_open: bool) -> List[str]:
    """Return the problems of one number: not finite, or outside its range."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return []
    if not math.isfinite(value):
        return ['%s must be finite, got %r' % (name, value)]
    if low_high is None:
        return []
    low, high = low_high
    if value < low or value > high or (low_open and value == low):
        return ['%s must be in %s, got %r' % (name, _range_text(low, high, low_open), value)]
    return []


def check(values: Dict[str, Any]) -> List[str]:
    """
    Return the problems of a value set (empty when it is valid).

    Every number must be finite, also in parameters this table does not know; each
    problem names the parameter (and the element of an array).
    """
    problems = []
    for name, value in values.items():
        spec = SPECS.get(name)
        if spec is not None and spec.choices and value not in spec.choices:
            problems.append('%s must be one of %s, got %r'
                            % (name, ', '.join(spec.choices), value))
        if isinstance(value, (list, tuple)) or hasattr(value, 'tolist'):
            items = list(value)
            if spec is not None and spec.size is not None and len(items) != spec.size:
                problems.append('%s must have %d elements, got %d'
                                % (name, spec.size, len(items)))
            bounds = spec.element_bounds if spec is not None else None
            for k, item in enumerate(items):
                problems += _number_problems('%s[%d]' % (name, k), item, bounds, False)
        else:
            problems += _number_problems(name, value, spec.bounds if spec else None,
                                         spec.low_open if spec else False)
    pattern = values.get('thruster_topic_pattern')
    if pattern is not None:
        try:
            unique = pattern.format(ns='n', joint='j', cmd='c') != pattern.format(
                ns='n', joint='k', cmd='c')
        except (KeyError, IndexError, ValueError):
            unique = False
        if not unique:
            problems.append('thruster_topic_pattern %r: use {ns}, {joint} and {cmd} only, and '
                            '{joint} (one topic per thruster)' % pattern)
    if 'thrust_topics' in values and len(set(values['thrust_topics'])) != len(
            values['thrust_topics']):
        problems.append('thrust_topics has duplicates')
    return problems


def describe(values: Dict[str, Any]) -> str:
    """Return the effective configuration as 'name: value' lines (robot_description shortened)."""
    lines = []
    for name in sorted(values):
        value = values[name]
        if name == 'robot_description' and value:
            value = '<%d characters>' % len(value)
        lines.append('  %s: %r' % (name, value))
    return '\n'.join(lines)


def defaults_yaml() -> str:
    """
    Return ``config/node_defaults.yaml``: every parameter, its description and default.

    A parameter without a fixed default (the vehicle's value) is listed as a comment.
    """
    import yaml
    lines = [
        '# Copyright 2026 The uwv_hydro Authors',
        '# SPDX-License-Identifier: Apache-2.0',
        '#',
        '# Every uwv_hydro node parameter with its default (the params_file of',
        '# launch/uwv_hydro.launch.py); the launch arguments (vehicle, mode, use_sim_time,',
        '# rate_hz) override this file.  Generated from uwv_hydro/node/parameters.py:',
        '#   python -m uwv_hydro.node.parameters > config/node_defaults.yaml',
        '/**:',
        '  ros__parameters:',
    ]
    for spec in VEHICLE_PARAMETERS + PARAMETERS:
        text = spec.description + (' (read-only)' if spec.read_only else
                                   ' (can be changed at run time)')
        lines += textwrap.wrap(text, 92, initial_indent='    # ', subsequent_indent='    #   ',
                               break_on_hyphens=False)
        if spec.default is None:
            lines.append("    # %s: <the vehicle's value>" % spec.name)
        else:
            lines.append('    ' + yaml.safe_dump({spec.name: spec.default},
                                                 default_flow_style=True, width=1000
                                                 ).strip()[1:-1])
    return '\n'.join(lines) + '\n'


if __name__ == '__main__':
    sys.stdout.write(defaults_yaml())


def unread_parameters(node) -> List[str]:
    """
    Return a warning per parameter given to ``node`` that it does not declare.

    Vehicle keys (a ``vehicle:`` section or flat ones such as ``linear_drag``) are
    named together with the way to use them; any other name with the closest
    declared name.
    """
    declared = sorted(node._parameters)
    unknown = sorted(n for n in node._parameter_overrides if not node.has_parameter(n))
    vehicle = [n for n in unknown if n.split('.')[0] in ('vehicle',) + VEHICLE_KEYS]
    warnings = []
    vehicle_file = str(node.get_parameter('vehicle_file').value)
    # one YAML file as both vehicle_file and params file (config/ardusub_*.yaml): the
    # vehicle keys are read, from the vehicle file
    if vehicle and not vehicle_file.endswith(('.yaml', '.yml')):
        warnings.append(
            'the parameters give vehicle keys the node does not read: %s; the node '
            'reads its vehicle from robot_description and vehicle_file only (pass '
            'this YAML file as vehicle_file:=<path>)' % ', '.join(vehicle))
    for name in unknown:
        if name in vehicle:
            continue
        if name in MOVING_LINKS_ONLY:
            warnings.append('parameter %r: the vehicle has no moving joints: ignored' % name)
            continue
        close = difflib.get_close_matches(name, declared, n=1, cutoff=0.6)
        warnings.append('parameter %r is not a parameter of this node: ignored%s' % (
            name, '; did you mean %r?' % close[0] if close else ''))
    return warnings
