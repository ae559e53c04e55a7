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
Simulate mode: navigation sensors published from the simulated state.

Every integration step the simulate part hands the state (stamp on the node clock) to
:class:`uwv_hydro.modes.sensor_suite.SensorSuite`, which takes each sensor's sample when
its own ``update_rate`` grid point comes; each sample is published stamped with the
state's time, ``header.frame_id`` = ``frame_prefix`` + the sensor frame (its link, or
for a sensor with a ``pose`` its own frame, published on /tf_static with the node's
static frames):

* ``imu``: sensor_msgs/Imu (REP-145); the body acceleration is the equations of
  motion at the published state, not a difference of two states;
* ``fluid_pressure``: sensor_msgs/FluidPressure (Pa);
* ``dvl``: geometry_msgs/TwistWithCovarianceStamped (bottom track in the sensor frame,
  angular part not measured), nothing without bottom lock (``no_lock`` in
  /diagnostics); beside it on ``dvl_topic`` every sample as marine_acoustic_msgs/Dvl
  (:mod:`uwv_hydro.modes.messages.dvl_message`; the sensor frame's +z the boresight), cast to
  ``seabed_file`` when given (:mod:`uwv_hydro.physics.sensing.dvl_terrain`);
* ``navsat``: sensor_msgs/NavSatFix while shallower than ``surfaced_depth`` (``no_fix``);
* ``magnetometer``: sensor_msgs/MagneticField in the sensor frame;
* ``rpt``: uuv_sensor_ros_plugins_msgs/PositionWithCovarianceStamped in its reference
  frame; without that package (no ROS 2 release; tools/interfaces builds it) the sensor
  is not published, a warning names it and /diagnostics shows it ``unavailable``;
* ``echosounder``: sensor_msgs/Range, every sample (REP 117 +-inf;
  :mod:`uwv_hydro.physics.sensing.echosounder`).

Each message's fields, covariances and lock rules: doc/guide/hil.md ("Navigation
sensors (simulate mode)"), doc/guide/drivers.md ("The DVL as drivers publish it") and
doc/guide/seabed.md.
"""
from typing import Dict, List

from geometry_msgs.msg import TransformStamped, TwistWithCovarianceStamped
from sensor_msgs.msg import FluidPressure, Imu, MagneticField, NavSatFix, NavSatStatus, Range

from uwv_hydro.modes.messages import msg_conversions as conv
from uwv_hydro.modes.messages import sensor_messages
from uwv_hydro.modes.messages.dvl_message import fill_dvl
from uwv_hydro.modes.sensor_suite import SensorSuite
from uwv_hydro.node.node_part import NodePart
from uwv_hydro.node.seabed_source import node_seabed
from uwv_hydro.node.static_frames import transform_stamped
from uwv_hydro.physics.spatial.rotation import quat_from_rpy

_MESSAGES = {'imu': Imu, 'fluid_pressure': FluidPressure, 'dvl': TwistWithCovarianceStamped,
             'navsat': NavSatFix, 'magnetometer': MagneticField, 'echosounder': Range}


#: Why a sensor kind's message type may be missing (the package no distribution releases).
OPTIONAL_PACKAGES = {'rpt': 'uuv_sensor_ros_plugins_msgs'}


def _message_type(kind: str):
    """Return the rclpy message class of a sensor kind (uuv's RPT type imported on use)."""
    if kind == 'rpt':
        from uuv_sensor_ros_plugins_msgs.msg import PositionWithCovarianceStamped
        return PositionWithCovarianceStamped
    return _MESSAGES[kind]


def _optional_message_type(kind: str):
    """Return (message class or None, why not) of a sensor kind."""
    try:
        return _message_type(kind), ''
    except ImportError as exc:
        return None, '%s is not installed (%s)' % (OPTIONAL_PACKAGES.get(kind, kind), exc)


class SensorIO(NodePart):
    """One publisher per sensor of the vehicle, fed with the simulated states."""

    def __init__(self, node, mode):
        super().__init__(node)
        self.mode = mode
        seabed = node_seabed(node)  # shared with ArduPilot SITL's rangefinder
        # sensors on moving links read their bodies' frames (articulated mode only)
        self.suite = SensorSuite(node.vehicle, getattr(mode, 'body_frames', None),
                                 seabed[0] if seabed else None)
        self._state = lambda: mode.state  # the current state, built when asked
        prefix = self.cfg['frame_prefix']
        self.pubs = {}
        self.frame_ids: Dict[str, str] = {}
        self.status: Dict[str, dict] = {}
        self.dvl_pubs = {}
        for model in self.suite.models:
            spec = model.spec
            msg_type, missing = _optional_message_type(spec.kind)
            if msg_type is not None:
                self.pubs[spec.name] = node.create_publisher(msg_type, spec.topic, 10)
            if spec.kind == 'dvl':
                self._add_dvl(model)
            self.frame_ids[spec.name] = prefix + spec.frame_id()
            if spec.kind == 'rpt':  # uuv: the reference frame's name, the world's odom
                self.frame_ids[spec.name] = spec.model.reference_frame or self.cfg['odom_frame']
            self.status[spec.name] = {'type': spec.kind, 'topic': spec.topic,
                                      'frame': self.frame_ids[spec.name],
                                      'update_rate': spec.update_rate, 'published': 0,
                                      'state': 'waiting'}
            if msg_type is None:
                self._unavailable(spec, missing)
                continue
            self.logger.info('sensor %s (%s): %s in %s at %g Hz'
                             % (spec.name, spec.kind, spec.topic, self.frame_ids[spec.name],
                                spec.update_rate))

    def _unavailable(self, spec, missing: str) -> None:
        """Warn that sensor ``spec`` cannot be published and say so in /diagnostics."""
        what = 'sensor %s (%s) on %s' % (spec.name, spec.kind, spec.topic)
        self.status[spec.name].update(state='unavailable', reason=missing, not_published=0)
        self.node.unavailable_outputs.append('%s: %s' % (what, missing))
        self.logger.warning('%s is NOT published: %s; build it from its message definition '
                            '(tools/interfaces) to publish it' % (what, missing))

    def _add_dvl(self, model) -> None:
        """Create the marine_acoustic_msgs/Dvl publisher of a DVL."""
        from marine_acoustic_msgs.msg import Dvl
        spec = model.spec
        try:
            topic = self.cfg['dvl_topic'].format(name=spec.name, topic=spec.topic)
        except (KeyError, IndexError, ValueError) as exc:
            raise ValueError('dvl_topic %r: only {name} and {topic} can be substituted (%s)'
                             % (self.cfg['dvl_topic'], exc)) from None
        self.dvl_pubs[spec.name] = (self.node.create_publisher(Dvl, topic, 10), Dvl())
        # the boresight (sensor +z) in the body frame: a DVL looking up never sees the seabed
        if model.r_bs[2, 2] > 0.0:
            self.logger.warning('sensor %s: its +z (the DVL boresight) looks up: no beam will '
                                'reach the seabed (mount it with roll pi, z down)' % spec.name)
        self.logger.info('sensor %s: marine_acoustic_msgs/Dvl on %s' % (spec.name, topic))

    def publishers(self) -> List:
        """Return every sensor publisher (the cycle profile times their publishes)."""
        return list(self.pubs.values()) + [pub for pub, _ in self.dvl_pubs.values()]

    def static_transforms(self, stamp) -> List[TransformStamped]:
        """Return link -> sensor frame of the sensors with a pose (for /tf_static)."""
        prefix = self.cfg['frame_prefix']
        out = []
        for model in self.suite.models:
            spec = model.spec
            if spec.pose is None:
                continue
            out.append(transform_stamped(stamp, prefix + spec.link, prefix + spec.frame_id(),
                                         spec.pose[:3], quat_from_rpy(*spec.pose[3:])))
        return out

    def sample(self, pace_ns: int, stamp_ns: int) -> None:
        """
        Publish the samples due at pacing time ``pace_ns`` of the current state.

        Each sensor's schedule runs on the pacing clock (sim time, else monotonic), its
        messages are stamped ``stamp_ns`` (ROS time), as odometry is.
        """
        # the state built only when a sensor is due (most steps: none)
        for model, reading in self.suite.sample(pace_ns, self._state,
                                                self.mode.acceleration):
            name = model.spec.name
            status = self.status[name]
            if name not in self.pubs:  # its message package is missing (_unavailable)
                status['not_published'] += 1
                continue
            if name in self.dvl_pubs:
                self._publish_dvl(model, reading, name, stamp_ns)
            if not reading.valid:
                status['state'] = 'no_lock' if model.spec.kind == 'dvl' else 'no_fix'
                status['not_published'] = status.get('not_published', 0) + 1
                self._note_depth(status, reading)
                continue
            msg = getattr(self, '_' + model.spec.kind)(reading)
            msg.header.frame_id = self.frame_ids[name]
            conv.ns_to_stamp(msg.header.stamp, stamp_ns)
            self.node.outbox.publish(self.pubs[name], msg)
            status['published'] += 1
            status['state'] = 'ok'
            self._note_depth(status, reading)

    def _publish_dvl(self, model, reading, name: str, stamp_ns: int) -> None:
        pub, msg = self.dvl_pubs[name]  # one message per DVL, refilled every sample
        fill_dvl(msg, reading, model.beam_cosines)
        msg.header.frame_id = self.frame_ids[name]
        conv.ns_to_stamp(msg.header.stamp, stamp_ns)
        pub.publish(msg)

    @staticmethod
    def _note_depth(status: dict, reading) -> None:
        for key in ('altitude', 'depth'):
            if hasattr(reading, key):
                status[key] = float(getattr(reading, key))

    @staticmethod
    def _imu(reading) -> Imu:
        msg = Imu()
        if reading.orientation is not None:
            conv.fill_quaternion(msg.orientation, reading.orientation)
        conv.fill_vector3(msg.angular_velocity, reading.angular_velocity)
        conv.fill_vector3(msg.linear_acceleration, reading.linear_acceleration)
        msg.orientation_covariance = [float(v) for v in reading.orientation_covariance]
        msg.angular_velocity_covariance = [float(v)
                                           for v in reading.angular_velocity_covariance]
        msg.linear_acceleration_covariance = [
            float(v) for v in reading.linear_acceleration_covariance]
        return msg

    @staticmethod
    def _fluid_pressure(reading) -> FluidPressure:
        msg = FluidPressure()
        msg.fluid_pressure = float(reading.fluid_pressure)
        msg.variance = float(reading.variance)
        return msg

    @staticmethod
    def _dvl(reading) -> TwistWithCovarianceStamped:
        msg = TwistWithCovarianceStamped()
        conv.fill_vector3(msg.twist.twist.linear, reading.velocity)
        msg.twist.covariance = sensor_messages.dvl_twist_covariance(reading)
        return msg

    @staticmethod
    def _navsat(reading) -> NavSatFix:
        msg = NavSatFix()
        msg.status.status = NavSatStatus.STATUS_FIX
        msg.status.service = NavSatStatus.SERVICE_GPS
        msg.latitude = float(reading.latitude)
        msg.longitude = float(reading.longitude)
        msg.altitude = float(reading.altitude)
        msg.position_covariance = [float(v) for v in reading.position_covariance]
        msg.position_covariance_type = NavSatFix.COVARIANCE_TYPE_DIAGONAL_KNOWN
        return msg

    @staticmethod
    def _rpt(reading):
        msg = _message_type('rpt')()
        msg.pos.pos.x, msg.pos.pos.y, msg.pos.pos.z = (float(v) for v in reading.position)
        msg.pos.covariance = [float(v) for v in reading.covariance]
        return msg

    @staticmethod
    def _echosounder(reading) -> Range:
        msg = Range()
        for key, value in sensor_messages.range_fields(reading).items():
            if hasattr(msg, key):  # Humble's Range has no variance
                setattr(msg, key, value)
        return msg

    @staticmethod
    def _magnetometer(reading) -> MagneticField:
        msg = MagneticField()
        conv.fill_vector3(msg.magnetic_field, reading.magnetic_field)
        msg.magnetic_field_covariance = [float(v) for v in reading.covariance]
        return msg

    def reset(self) -> None:
        """Restart the sample grids (after ~/reset or a clock jump back)."""
        self.suite.reset()

    def snapshot(self, snap: dict) -> None:
        """Add each sensor's state and counts to /diagnostics."""
        for status, schedule in zip(self.status.values(), self.suite.schedules):
            status['missed'] = schedule.missed
        snap['sensors'] = {name: dict(s) for name, s in self.status.items()}
