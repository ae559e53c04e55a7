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
Descriptions of the navigation sensors a vehicle carries (``VehicleParams.sensors``).

Every sensor sits on a link rigidly attached to the base (URDF fixed-joint chain) and
measures in that link's frame.  Noise follows gz-sensors' Gaussian noise model and SDF
``<noise>`` element names: ``mean``, ``stddev``, ``bias_mean``, ``bias_stddev``,
``dynamic_bias_stddev``, ``dynamic_bias_correlation_time`` (see
:mod:`uwv_hydro.physics.sensing.sensor_noise`).  All values are SI (m, s, rad, Pa).
"""
from dataclasses import dataclass, field
import math
from typing import Optional, Tuple

from uwv_hydro.physics.sensing.dvl_beams import A50_AZIMUTHS, A50_JANUS_ANGLE

#: Sensor types, named as gz-sim names its sensors where it has one (imu, dvl, navsat).
SENSOR_TYPES = ('imu', 'fluid_pressure', 'dvl', 'navsat', 'magnetometer', 'rpt', 'echosounder')

#: Standard atmosphere at sea level (Pa), ISO 2533.
STANDARD_ATMOSPHERE = 101325.0
#: SDF's default world magnetic field (T): sdformat 16.1.0 sdf/1.12/world.sdf and src/World.cc.
SDF_DEFAULT_MAGNETIC_FIELD = (5.5645e-6, 22.8758e-6, -42.3884e-6)


@dataclass
class NoiseParams:
    """gz-sensors Gaussian noise of one measured axis (SDF ``<noise type="gaussian">``)."""

    #: Mean of the white noise (a constant offset).
    mean: float = 0.0
    #: Standard deviation of the white noise added to every sample.
    stddev: float = 0.0
    #: Mean of the turn-on bias (its sign is drawn at random, as gz-sensors does).
    bias_mean: float = 0.0
    #: Standard deviation of the turn-on bias.
    bias_stddev: float = 0.0
    #: Diffusion of the dynamic bias (unit / sqrt(s)): Var grows by stddev^2 per second.
    dynamic_bias_stddev: float = 0.0
    #: Correlation time of the dynamic bias (s); infinity = a pure random walk.
    dynamic_bias_correlation_time: float = math.inf

    def is_zero(self) -> bool:
        """Return True if this axis is noise free."""
        return (self.mean == 0.0 and self.stddev == 0.0 and self.bias_mean == 0.0
                and self.bias_stddev == 0.0 and self.dynamic_bias_stddev == 0.0)


def _axes() -> Tuple[NoiseParams, NoiseParams, NoiseParams]:
    return (NoiseParams(), NoiseParams(), NoiseParams())


@dataclass
class ImuParams:
    """IMU (REP-145): specific force, angular rate and orientation in the sensor frame."""

    angular_velocity: Tuple[NoiseParams, ...] = field(default_factory=_axes)
    linear_acceleration: Tuple[NoiseParams, ...] = field(default_factory=_axes)
    #: Noise of the orientation as a small rotation vector in the sensor frame (rad).
    orientation: Tuple[NoiseParams, ...] = field(default_factory=_axes)
    #: Publish the orientation (gz ``enable_orientation``); else covariance[0] = -1.
    enable_orientation: bool = True


@dataclass
class FluidPressureParams:
    """Absolute pressure at the sensor: p = p_atm + rho g depth (sensor_msgs/FluidPressure)."""

    #: Pressure at the free surface (Pa).
    atmospheric_pressure: float = STANDARD_ATMOSPHERE
    pressure: NoiseParams = field(default_factory=NoiseParams)


@dataclass
class DvlParams:
    """Bottom-track DVL: velocity of the sensor over a flat seabed, in the sensor frame."""

    #: Depth of the flat seabed below the surface (m); None = always within range.
    seabed_depth: Optional[float] = None
    #: Largest altitude above the seabed with bottom lock (m).
    max_altitude: float = math.inf
    #: Smallest altitude with bottom lock (m) (gz DVL ``minimum_range``).
    min_altitude: float = 0.0
    velocity: Tuple[NoiseParams, ...] = field(default_factory=_axes)
    #: Beam tilt from the boresight (the sensor frame's +z) (rad); Water Linked A50's.
    janus_angle: float = A50_JANUS_ANGLE
    #: Azimuth of each beam from the sensor's +x towards +y (rad); the A50's "X" layout.
    beam_azimuths: Tuple[float, ...] = A50_AZIMUTHS
    #: Unit beam vectors in the sensor frame (a gz ``<arrangement>``, at least three);
    #: when given they replace ``janus_angle`` and ``beam_azimuths``.
    beam_directions: Optional[Tuple[Tuple[float, float, float], ...]] = None


@dataclass
class NavSatParams:
    """GNSS fix while the antenna is at the surface, from a geodetic datum of the world origin."""

    #: Geodetic datum of the world (odom) origin, as gz ``<spherical_coordinates>``.
    latitude_deg: float = 0.0
    longitude_deg: float = 0.0
    elevation: float = 0.0
    #: A fix is available while the antenna is shallower than this depth (m).
    surfaced_depth: float = 0.0
    #: Position noise in metres: east and north (horizontal), up (vertical).
    horizontal: NoiseParams = field(default_factory=NoiseParams)
    vertical: NoiseParams = field(default_factory=NoiseParams)


@dataclass
class MagnetometerParams:
    """Magnetometer: a constant world magnetic field seen in the sensor frame."""

    #: The field in the world (ENU) frame, in the unit published (gz: tesla; uuv: the
    #: plugin's ``intensity`` unit, microtesla in its macros).
    magnetic_field: Tuple[float, ...] = SDF_DEFAULT_MAGNETIC_FIELD
    noise: Tuple[NoiseParams, ...] = field(default_factory=_axes)
    #: Variances the message reports per axis; None: the white-noise stddev squared.
    covariance: Optional[Tuple[float, ...]] = None


@dataclass
class RptParams:
    """Acoustic positioning (uuv's RPT): the sensor's position in a reference frame."""

    #: Pose of the reference frame in the world (ENU): position and rpy; zero = the world.
    reference_position: Tuple[float, ...] = (0.0, 0.0, 0.0)
    reference_rpy: Tuple[float, ...] = (0.0, 0.0, 0.0)
    #: frame_id of the messages; '' = the world (the node's odom frame).
    reference_frame: str = ''
    noise: Tuple[NoiseParams, ...] = field(default_factory=_axes)
    #: Variances the message reports per axis; None: the white-noise stddev squared.
    covariance: Optional[Tuple[float, ...]] = None


@dataclass
class EchosounderParams:
    """Single-beam echo sounder / altimeter: range to the nearest echo along its +x."""

    #: Shortest range measured (m); a nearer echo reads -inf (REP 117: too close).
    min_range: float = 0.0
    #: Longest range measured (m); no echo within it reads +inf (REP 117: no return).
    max_range: float = 100.0
    #: Full angle of the beam's cone about the sensor's +x (rad); 0: one ray.
    field_of_view: float = 0.0
    #: Noise of the range (m), the YAML ``range: {noise}``.
    noise: NoiseParams = field(default_factory=NoiseParams)
    #: Depth of the flat seabed (m) when the world has no seabed; None: no seabed.
    seabed_depth: Optional[float] = None
    #: The sea surface echoes (an upward-looking sounder measures the water above it).
    surface_echo: bool = True


@dataclass
class SensorParams:
    """One sensor: where it is, how often it measures, where it publishes, its model."""

    name: str
    #: One of SENSOR_TYPES (the ``type`` key of a description).
    kind: str
    #: The sensor link (a fixed frame of the vehicle, or the base link).
    link: str
    #: Measurements per second (gz ``update_rate``).
    update_rate: float
    #: Output topic (relative names resolve in the node's namespace).
    topic: str
    #: Seed of the sensor's own random generator.
    seed: int
    #: ImuParams, FluidPressureParams, DvlParams, NavSatParams, MagnetometerParams,
    #: RptParams or EchosounderParams, as ``kind`` says.
    model: object = None
    #: Pose of the sensor in its link (gz ``<pose>``): (x, y, z, roll, pitch, yaw), or None.
    pose: Optional[Tuple[float, ...]] = None
    #: Frame the sensor measures in (header.frame_id without prefix); '' = the link.  A
    #: sensor with a pose has a frame of its own (default: its name), a static transform.
    frame: str = ''

    def frame_id(self) -> str:
        """Return the frame of the measurements (without the node's frame_prefix)."""
        return self.frame or self.link
