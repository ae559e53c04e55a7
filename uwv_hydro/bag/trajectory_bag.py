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
A simulated trajectory (and what drove it) written as a rosbag2 bag on the node's topics.

Every series is encoded at once (:func:`uwv_hydro.bag.cdr_codec.repeat_message`: one
message serialised by rosbags, numpy writing the stamps and values of all copies) and
written per topic (:meth:`uwv_hydro.bag.rosbag_io.BagWriter.write_many`).  Topics and
types are the simulate-mode node's (``node/simulate_io.py``, ``thruster_io.py``,
``fin_io.py``, ``hydro_node.py``), with the node's default names at the root namespace:

* ``/odometry`` nav_msgs/Odometry (odom -> base) and ``/tf`` tf2_msgs/TFMessage, every
  sample;
* ``/thrust`` geometry_msgs/WrenchStamped, the body wrench applied from each sample on
  (with a thrust input: what ``replay --simulate`` re-runs);
* with a vehicle: per thruster gz-sim's feedback ``.../force`` and ``.../ang_vel``
  (std_msgs/Float64; offline the thrusters get no command: neutral, zero), the fin
  angles on ``/joint_states`` (sensor_msgs/JointState, held over the run), its
  navigation sensors on their topics (``node/sensor_io.py``: sensor_msgs/Imu,
  FluidPressure, NavSatFix, MagneticField, Range (echosounder, every sample, +-inf
  out of range), geometry_msgs/TwistWithCovarianceStamped, uuv's
  PositionWithCovarianceStamped (RPT); nothing while a DVL has no bottom lock or a
  receiver no fix), each DVL's marine_acoustic_msgs/Dvl on ``/<name>/data`` (the
  node's default ``dvl_topic``; every sample, also without lock) and ``/tf_static``
  (one message at the start: base -> base_com, base_cob, base_drag_center and the
  posed sensor frames);
* with moving links (``trajectory.joints``): ``/joint_states`` of every moving joint, its
  link's ``/tf`` and the fixed links on ``/tf_static``, as the node's joint part sends
  them (:mod:`uwv_hydro.bag.joint_bag`);
* with ``components``: ``/hydro/components/<name>`` geometry_msgs/WrenchStamped (base
  frame) at every sample, the node's hydro components (acceleration: the backward
  difference of the twist over the step, the node's mean over an update).
"""

from typing import Callable, Optional, Sequence

import numpy as np

from uwv_hydro.bag.cdr_codec import odometry_layout, repeat_message
from uwv_hydro.bag.joint_bag import fixed_transforms, transform_stamped, write_joints
from uwv_hydro.bag.rosbag_io import BagWriter, MessageFactory, ODOMETRY, TF, typestore, WRENCH
from uwv_hydro.bag.tether_bag import write_tether
from uwv_hydro.modes.messages import sensor_messages
from uwv_hydro.modes.messages.dvl_message import fill_dvl
from uwv_hydro.modes.offline_sensors import sample_sensors
from uwv_hydro.modes.offline_simulation import Trajectory
from uwv_hydro.modes.thruster_drive import GZ_TOPIC_PATTERN, thruster_topics
from uwv_hydro.physics.body.vehicle_params import COMPONENT_NAMES, VehicleParams
from uwv_hydro.physics.hydro.hydro_model import HydroModel
from uwv_hydro.physics.spatial.rotation import quat_from_rpy

FLOAT64 = 'std_msgs/msg/Float64'
#: Messages of a series are encoded and written in blocks of about this many bytes.
BLOCK_BYTES = 1 << 20
JOINT_STATE = 'sensor_msgs/msg/JointState'


def stamps_ns(t: np.ndarray) -> np.ndarray:
    """Return sample times (s) as integer nanoseconds (round half to even, as round())."""
    return np.rint(np.asarray(t, dtype=float) * 1e9).astype(np.int64)


def write_bag(trajectory: Trajectory, path, odom_frame: str = 'odom',
              base_frame: str = 'base_link', odometry_topic: str = '/odometry',
              thrust: Optional[Callable[[float], np.ndarray]] = None,
              thrust_topic: str = '/thrust', vehicle: Optional[VehicleParams] = None,
              components: bool = False, current_world: Optional[Sequence[float]] = None,
              fin_angles: Optional[Sequence[float]] = None, sensors: bool = True,
              seabed=None) -> None:
    """
    Write nav_msgs/Odometry on ``odometry_topic`` plus /tf, stamped with t.

    With ``thrust``, the body wrench applied from each sample on is recorded too, as
    geometry_msgs/WrenchStamped in the base frame on ``thrust_topic`` (what a thruster
    driver would publish), so ``replay --simulate`` can re-run the manoeuvre.  With
    ``vehicle``, its thrusters' and fins' feedback, and with ``components`` (needs
    ``vehicle``; ``current_world`` and ``fin_angles`` as simulated) the hydro wrench
    components (see the module docstring); ``sensors`` False leaves the vehicle's
    sensors out (their noise models cost about a millisecond per IMU sample); ``seabed``
    (a :mod:`uwv_hydro.physics.environment.seabed`) is under the DVLs instead of their flat one.
    """
    if components and vehicle is None:
        raise ValueError('components need the vehicle')
    store = typestore()
    if vehicle is not None and any(s.kind == 'rpt' for s in vehicle.sensors):
        from rosbags.typesys import get_types_from_msg
        for name, text in sensor_messages.EXTRA_DEFINITIONS.items():
            store.register(get_types_from_msg(text, name))  # uuv's RPT message
    if vehicle is not None and sensors and any(s.kind == 'dvl' for s in vehicle.sensors):
        from rosbags.typesys import get_types_from_msg
        store.register(get_types_from_msg(sensor_messages.DVL_DEFINITION,
                                          sensor_messages.DVL_MESSAGE_TYPE))
    make = MessageFactory(store)
    stamps = stamps_ns(trajectory.t)
    n = len(stamps)
    xyzw = trajectory.quaternion[:, [1, 2, 3, 0]]
    with BagWriter(path, store=store) as bag:
        def series(topic, msgtype, msg, stamp_at=4, tail=None):
            """Write ``msg`` at every stamp, its trailing float64s from ``tail``."""
            template = (msg if isinstance(msg, bytes)
                        else bytes(store.serialize_cdr(msg, msgtype)))
            # in blocks of about 1 MiB (one MCAP chunk each): the arrays stay in cache
            block = max(1, BLOCK_BYTES // len(template))
            for a in range(0, n, block):
                b = min(n, a + block)
                part = None if tail is None else tail(a, b) if callable(tail) else tail[a:b]
                bag.write_many(topic, msgtype, stamps[a:b],
                               repeat_message(template, stamps[a:b], stamp_at, part))

        taus = None
        if thrust is not None:
            sample = getattr(thrust, 'sample', None)
            taus = np.asarray(sample(trajectory.t) if sample is not None
                              else [thrust(v) for v in trajectory.t.tolist()],
                              dtype=float).reshape(n, 6)
            series(thrust_topic, WRENCH, make.wrench(0, base_frame, [0.0] * 6), tail=taus)
        odometry = make.odometry(0, odom_frame, base_frame, [0.0] * 3, [1.0, 0, 0, 0], [0.0] * 6)
        template = bytes(store.serialize_cdr(odometry, ODOMETRY))
        start = odometry_layout(template)[4]
        # the 85 float64 after the frame ids: pose, pose covariance, twist, twist covariance
        constant = np.frombuffer(template, dtype='<f8', offset=start)

        def odometry_values(a, b):
            values = np.empty((b - a, len(constant)))
            values[:] = constant  # the covariances
            values[:, 0:3] = trajectory.position[a:b]
            values[:, 3:7] = xyzw[a:b]
            values[:, 43:49] = trajectory.twist[a:b]
            return values
        series(odometry_topic, ODOMETRY, template, 4, odometry_values)
        series('/tf', TF, make.tf(0, odom_frame, base_frame, [0.0] * 3, [1.0, 0, 0, 0]),
               stamp_at=8, tail=np.column_stack([trajectory.position, xyzw]))
        if trajectory.tether is not None:
            write_tether(bag, store, make, trajectory.tether, stamps, odom_frame)
        joints = trajectory.joints
        if joints is not None:
            write_joints(bag, store, make, joints, stamps)
        if vehicle is not None:
            _static_frames(bag, store, make, vehicle, base_frame, int(stamps[0]),
                           [] if joints is None else
                           fixed_transforms(store, make, joints, int(stamps[0])))
            _feedback(series, store, make, vehicle, n, fin_angles)
            if sensors:
                _sensors(bag, store, make, vehicle, trajectory, stamps, taus, current_world,
                         fin_angles, odom_frame, seabed)
        if components:
            _components(series, make, vehicle, trajectory, base_frame, current_world,
                        fin_angles)


def _feedback(series, store, make, vehicle: VehicleParams, n: int, fin_angles) -> None:
    """Write the thrusters' force / ang_vel (neutral: no commands) and the fin angles."""
    zero = np.zeros((n, 1))
    for spec in vehicle.thrusters:
        topics = thruster_topics(spec, vehicle.name, GZ_TOPIC_PATTERN)
        # std_msgs/Float64 has no header: the bag timestamp is the sample's
        series(topics['force'], FLOAT64, store.types[FLOAT64](data=0.0), None, zero)
        if spec.model != 'table':  # a lookup-table thruster has no rotor speed (thruster_io)
            series(topics['ang_vel'], FLOAT64, store.types[FLOAT64](data=0.0), None, zero)
    if vehicle.fins:
        names = [f.name for f in vehicle.fins]
        angles = (np.zeros(len(names)) if fin_angles is None
                  else np.asarray(fin_angles, dtype=float))
        msg = store.types[JOINT_STATE](header=make.header(0, ''), name=names,
                                       position=angles, velocity=np.zeros(len(names)),
                                       effort=np.zeros(0))
        series('/joint_states', JOINT_STATE, msg)


def _components(series, make, vehicle: VehicleParams, trajectory: Trajectory,
                base_frame: str, current_world, fin_angles) -> None:
    """Write /hydro/components/<name> at every sample (the node's publish_components)."""
    twist = trajectory.twist
    nu_dot = np.zeros_like(twist)
    # the node's SimulateMode.nu_dot: the mean acceleration over the update (one step)
    nu_dot[1:] = np.diff(twist, axis=0) / np.diff(trajectory.t)[:, None]
    comps = HydroModel(vehicle).wrench_many(
        twist, trajectory.position, trajectory.quaternion, nu_dot,
        None if current_world is None else np.asarray(current_world, dtype=float),
        fin_angles=None if fin_angles is None else np.asarray(fin_angles, dtype=float))
    for k, name in enumerate(COMPONENT_NAMES):
        series('/hydro/components/' + name, WRENCH, make.wrench(0, base_frame, [0.0] * 6),
               tail=comps[:, k, :])


def _static_frames(bag, store, make, vehicle: VehicleParams, base_frame: str,
                   stamp_ns: int, fixed=()) -> None:
    """Write the node's /tf_static (node/static_frames.py) once, at the first stamp."""
    transforms = [transform_stamped(store, make, stamp_ns, base_frame, base_frame + suffix,
                                    point, (1.0, 0.0, 0.0, 0.0))
                  for suffix, point in (('_com', vehicle.com), ('_cob', vehicle.cob),
                                        ('_drag_center', vehicle.resolved_drag_center()))]
    for spec in vehicle.sensors:
        if spec.pose is not None:  # a sensor with a pose has its own frame on its link
            transforms.append(transform_stamped(store, make, stamp_ns, spec.link,
                                                spec.frame_id(), spec.pose[:3],
                                                quat_from_rpy(*spec.pose[3:])))
    transforms += list(fixed)  # the links fixed in a body (a vehicle with moving links)
    bag.latched('/tf_static', TF)
    bag.write('/tf_static', TF, stamp_ns, store.types[TF](transforms=transforms))


def _sensor_message(store, make, kind: str, reading, stamp_ns: int, frame_id: str):
    """Return the rosbags message of a reading, field for field node/sensor_io.py's."""
    t = store.types
    header = make.header(stamp_ns, frame_id)
    vec = t['geometry_msgs/msg/Vector3']
    if kind == 'imu':
        q = (1.0, 0.0, 0.0, 0.0) if reading.orientation is None else reading.orientation
        return t[sensor_messages.MESSAGE_TYPES[kind]](
            header=header, orientation=t['geometry_msgs/msg/Quaternion'](
                x=float(q[1]), y=float(q[2]), z=float(q[3]), w=float(q[0])),
            orientation_covariance=np.array(reading.orientation_covariance, dtype=float),
            angular_velocity=vec(*(float(v) for v in reading.angular_velocity)),
            angular_velocity_covariance=np.array(reading.angular_velocity_covariance,
                                                 dtype=float),
            linear_acceleration=vec(*(float(v) for v in reading.linear_acceleration)),
            linear_acceleration_covariance=np.array(reading.linear_acceleration_covariance,
                                                    dtype=float))
    if kind == 'fluid_pressure':
        return t[sensor_messages.MESSAGE_TYPES[kind]](
            header=header, fluid_pressure=float(reading.fluid_pressure),
            variance=float(reading.variance))
    if kind == 'dvl':
        twist = t['geometry_msgs/msg/Twist'](
            linear=vec(*(float(v) for v in reading.velocity)), angular=vec(0.0, 0.0, 0.0))
        return t[sensor_messages.MESSAGE_TYPES[kind]](
            header=header, twist=t['geometry_msgs/msg/TwistWithCovariance'](
                twist=twist,
                covariance=np.array(sensor_messages.dvl_twist_covariance(reading))))
    if kind == 'rpt':
        stamped = t[sensor_messages.MESSAGE_TYPES[kind]]
        return stamped(header=header, pos=t['uuv_sensor_ros_plugins_msgs/msg/'
                                            'PositionWithCovariance'](
            pos=t['geometry_msgs/msg/Point'](*(float(v) for v in reading.position)),
            covariance=np.array(reading.covariance, dtype=float)))
    if kind == 'echosounder':
        return t[sensor_messages.MESSAGE_TYPES[kind]](
            header=header, **sensor_messages.range_fields(reading))
    if kind == 'magnetometer':
        return t[sensor_messages.MESSAGE_TYPES[kind]](
            header=header, magnetic_field=vec(*(float(v) for v in reading.magnetic_field)),
            magnetic_field_covariance=np.array(reading.covariance, dtype=float))
    return t[sensor_messages.MESSAGE_TYPES[kind]](
        header=header, status=t['sensor_msgs/msg/NavSatStatus'](
            status=sensor_messages.NAVSAT_STATUS_FIX,
            service=sensor_messages.NAVSAT_SERVICE_GPS),
        latitude=float(reading.latitude), longitude=float(reading.longitude),
        altitude=float(reading.altitude),
        position_covariance=np.array(reading.position_covariance, dtype=float),
        position_covariance_type=sensor_messages.NAVSAT_COVARIANCE_DIAGONAL_KNOWN)


def _sensors(bag, store, make, vehicle: VehicleParams, trajectory: Trajectory, stamps,
             taus, current_world, fin_angles, odom_frame: str, seabed=None) -> None:
    """Write each sensor's valid samples on its topic (the node's sensor_io)."""
    for model, times, readings in sample_sensors(
            vehicle, stamps, trajectory.position, trajectory.quaternion, trajectory.twist,
            taus, current_world, fin_angles, trajectory.joints, seabed):
        spec = model.spec
        msgtype = sensor_messages.MESSAGE_TYPES[spec.kind]
        topic = spec.topic if spec.topic.startswith('/') else '/' + spec.topic
        frame_id = spec.frame_id()
        if spec.kind == 'rpt':  # the reference frame, the world's odom (node/sensor_io.py)
            frame_id = spec.model.reference_frame or odom_frame
        for stamp, reading in zip(times, readings):
            if reading.valid:
                msg = _sensor_message(store, make, spec.kind, reading, stamp, frame_id)
                bag.queue_raw(topic, msgtype, stamp, bytes(store.serialize_cdr(msg, msgtype)))
        if spec.kind == 'dvl':
            _dvl_messages(bag, store, make, model, times, readings, frame_id)


def _dvl_messages(bag, store, make, model, times, readings, frame_id: str) -> None:
    """Write a DVL's marine_acoustic_msgs/Dvl of every sample (node/sensor_io.py's)."""
    dvl = sensor_messages.DVL_MESSAGE_TYPE
    vec = store.types['geometry_msgs/msg/Vector3']
    msg = store.types[dvl](
        header=make.header(0, frame_id), velocity_mode=0, dvl_type=0, velocity=vec(0, 0, 0),
        velocity_covar=np.zeros(9), altitude=0.0, course_gnd=0.0, speed_gnd=0.0,
        num_good_beams=0, sound_speed=0.0, beam_ranges_valid=False,
        beam_velocities_valid=False, beam_unit_vec=[vec(0, 0, 0) for _ in range(4)],
        range=np.zeros(4), range_covar=np.zeros(4, np.float32),
        beam_quality=np.zeros(4, np.float32), beam_velocity=np.zeros(4, np.float32),
        beam_velocity_covar=np.zeros(4, np.float32))
    spec = model.spec
    topic = '/' + sensor_messages.DVL_TOPIC.format(name=spec.name, topic=spec.topic)
    for stamp, reading in zip(times, readings):
        fill_dvl(msg, reading, model.beam_cosines)  # refilled, serialised at once
        msg.header = make.header(stamp, frame_id)
        bag.queue_raw(topic, dvl, stamp, bytes(store.serialize_cdr(msg, dvl)))
