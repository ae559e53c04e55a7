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
Navigation sensors measured from the rigid-body state (pure numpy).

Inputs: the state of the body origin -- world (ENU) position p, attitude q (world <-
body), body twist nu = [v, w] -- and its derivative nu_dot = [v_dot, w_dot] (body-frame
components, what the equations of motion give).  A sensor sits at r in the body frame
with axes R_bs (body <- sensor), from the URDF fixed-joint chain.  Rigid-body point
kinematics (Fossen 2021 ch. 2, body axes):

    v_P = v + w x r
    a_P = v_dot + w x v + w_dot x r + w x (w x r)     (inertial acceleration of P)

* IMU (REP-145): specific force f = R_bs^T (a_P + g R^T z) -- the reaction to gravity,
  +g up at rest and level -- angular rate R_bs^T w, orientation q (x) q_bs of the sensor
  frame in the world; per-axis white noise, turn-on bias and bias random walk.
* Fluid pressure: p = p_atm + rho g d at the sensor's depth d = -(p + R r)_z (Pascal's
  hydrostatic law), p_atm above the surface.
* DVL bottom track: R_bs^T (v + w x r), the sensor's velocity over the ground, in the
  sensor frame; locked only while the altitude over a flat seabed is within
  [min_altitude, max_altitude] and the transducer is in the water.
* NavSat: the antenna's ENU position to latitude/longitude/height on WGS-84
  (:mod:`uwv_hydro.physics.environment.geodesy`) while it is shallower than ``surfaced_depth``.
* Magnetometer: the world field B (ENU) in the sensor frame, (R R_bs)^T B (gz-sensors
  MagnetometerSensor and uuv's MagnetometerROSPlugin: ``RotateVectorReverse``), plus
  per-axis noise and turn-on bias; in the water and out of it alike.
* RPT (uuv's RPTROSPlugin): the sensor's position in a reference frame (p_ref, R_ref in
  the world), R_ref^T (p + R r - p_ref), plus per-axis noise.
* Echosounder (altimeter): the range along the sensor's +x to the nearest echo, in
  :mod:`uwv_hydro.physics.sensing.echosounder` (its model built there, not by
  :func:`build_sensor`).
"""
from dataclasses import dataclass
import math
from typing import Optional

import numpy as np

from uwv_hydro.physics.articulated.model.link_mount import link_at_zero, link_on_body
from uwv_hydro.physics.environment.geodesy import LocalTangentPlane
from uwv_hydro.physics.sensing.dvl_beams import (
    beam_directions, beam_variances, beam_velocities, boresight_cosines, slant_ranges)
from uwv_hydro.physics.sensing.sensor_noise import NoiseModel
from uwv_hydro.physics.sensing.sensor_params import (
    DvlParams, FluidPressureParams, ImuParams, MagnetometerParams, NavSatParams, RptParams,
    SensorParams)
from uwv_hydro.physics.spatial.point_transform import transfer_twist
from uwv_hydro.physics.spatial.rotation import (
    cross, matrix_to_quat, quat_from_axis_angle, quat_from_rpy, quat_multiply, quat_normalize,
    quat_to_matrix)


def point_acceleration(nu, nu_dot, r) -> np.ndarray:
    """Return the inertial acceleration of the body point r in body axes."""
    nu = np.asarray(nu, dtype=float)
    nu_dot = np.asarray(nu_dot, dtype=float)
    v, w = nu[:3], nu[3:]
    # a_P = v_dot + w x v + w_dot x r + w x (w x r) (body-frame derivative + transport terms)
    return nu_dot[:3] + cross(w, v) + cross(nu_dot[3:], r) + cross(w, cross(w, r))


def _unit(quaternion) -> np.ndarray:
    """Return q / |q| (a state's attitude: finite and nonzero)."""
    q = np.asarray(quaternion, dtype=float)
    # Unit quaternion: q / |q|
    return q / math.sqrt(float(q @ q))


def specific_force(quaternion, nu, nu_dot, r, gravity: float) -> np.ndarray:
    """Return the specific force at r in body axes: a_P - g_world (+g up at rest)."""
    rot = quat_to_matrix(_unit(quaternion))
    # f = a_P - R^T g_vec with g_vec = (0, 0, -g) in ENU: f = a_P + g R^T z (R^T z = row 2)
    return point_acceleration(nu, nu_dot, r) + gravity * rot[2]


def point_position(position, quaternion, r) -> np.ndarray:
    """Return the world position of the body point r: p + R r."""
    rot = quat_to_matrix(_unit(quaternion))
    # p_P = p + R(q) r
    return np.asarray(position, dtype=float) + rot @ np.asarray(r, dtype=float)


def _covariance(variances) -> tuple:
    """Return a row-major 3x3 diagonal covariance as 9 floats."""
    return tuple(np.diag(np.asarray(variances, dtype=float)).reshape(9).tolist())


@dataclass
class ImuReading:
    """One IMU sample in the sensor frame (sensor_msgs/Imu fields)."""

    orientation: Optional[np.ndarray]  # [w, x, y, z] world <- sensor, None if disabled
    angular_velocity: np.ndarray
    linear_acceleration: np.ndarray
    orientation_covariance: tuple
    angular_velocity_covariance: tuple
    linear_acceleration_covariance: tuple
    valid: bool = True


@dataclass
class PressureReading:
    """One absolute pressure sample (Pa) and its variance (Pa^2)."""

    fluid_pressure: float
    variance: float
    depth: float
    valid: bool = True


@dataclass
class DvlReading:
    """One bottom-track sample: velocity in the sensor frame, or no lock (valid False)."""

    velocity: Optional[np.ndarray]
    covariance: tuple
    altitude: float
    valid: bool
    #: (N, 3) unit beam vectors in the sensor frame (z = boresight)
    beam_directions: Optional[np.ndarray] = None
    #: slant range of each beam to the seabed (m; inf: no return, NaN: no seabed given)
    ranges: Optional[np.ndarray] = None
    #: per-beam bottom lock
    beam_locked: Optional[np.ndarray] = None
    #: velocity along each beam b_i . v (m/s; None without a velocity) and its variance
    beam_velocities: Optional[np.ndarray] = None
    beam_variances: Optional[np.ndarray] = None


@dataclass
class NavSatReading:
    """One fix (valid) or none while submerged; covariance in ENU (m^2)."""

    latitude: float
    longitude: float
    altitude: float
    position_covariance: tuple
    depth: float
    valid: bool


@dataclass
class MagnetometerReading:
    """One magnetic-field sample in the sensor frame and its row-major 3x3 covariance."""

    magnetic_field: np.ndarray
    covariance: tuple
    valid: bool = True


@dataclass
class RptReading:
    """One position in the reference frame and its row-major 3x3 covariance."""

    position: np.ndarray
    covariance: tuple
    valid: bool = True


class SensorModel:
    """Common part: mount (lever arm r, axes R_bs), seeded generator, sample clock."""

    #: True if :meth:`measure` uses nu_dot (the IMU); others accept None.
    needs_acceleration = False

    def __init__(self, spec: SensorParams, translation, rotation_wxyz):
        self.spec = spec
        self.r = np.asarray(translation, dtype=float).reshape(3)
        self.q_bs = quat_normalize(rotation_wxyz)
        self.r_bs = quat_to_matrix(self.q_bs)
        self._last_t: Optional[float] = None
        self.rng = np.random.default_rng(spec.seed)

    def _dt(self, t: float) -> float:
        """Return the time since the previous sample (0 for the first one)."""
        dt = 0.0 if self._last_t is None else max(t - self._last_t, 0.0)
        self._last_t = t
        return dt

    def reset(self) -> None:
        """Re-seed the generator and restart the noise (same sequence as at start)."""
        self.rng = np.random.default_rng(self.spec.seed)
        self._last_t = None
        for noise in self._noises():
            noise.reset(self.rng)

    def _noises(self):
        return ()


class ImuModel(SensorModel):
    """REP-145 IMU: specific force, angular rate and orientation of the sensor frame."""

    needs_acceleration = True

    def __init__(self, spec: SensorParams, translation, rotation_wxyz, gravity: float):
        super().__init__(spec, translation, rotation_wxyz)
        p: ImuParams = spec.model
        self.gravity = float(gravity)
        self.enable_orientation = p.enable_orientation
        self.gyro = NoiseModel(p.angular_velocity, self.rng)
        self.accel = NoiseModel(p.linear_acceleration, self.rng)
        self.attitude = NoiseModel(p.orientation, self.rng)
        # sensor_msgs/Imu: orientation_covariance[0] = -1 means no orientation
        self._covariances = ((-1.0,) + (0.0,) * 8 if not self.enable_orientation
                             else _covariance(self.attitude.variance()),
                             _covariance(self.gyro.variance()),
                             _covariance(self.accel.variance()))

    def _noises(self):
        return (self.gyro, self.accel, self.attitude)

    def measure(self, t: float, position, quaternion, nu, nu_dot) -> ImuReading:
        """Return the IMU sample at time t (s) of the state (p, q, nu) with derivative nu_dot."""
        dt = self._dt(t)
        q = _unit(quaternion)
        nu = np.asarray(nu, dtype=float)
        force = self.r_bs.T @ specific_force(q, nu, nu_dot, self.r, self.gravity)
        # Angular rate in the sensor frame: w_s = R_bs^T w
        rate = self.r_bs.T @ nu[3:]
        orientation = None
        if self.enable_orientation:
            # World <- sensor: q_ws = q_wb (x) q_bs
            orientation = quat_multiply(q, self.q_bs)
            if not self.attitude.zero:
                dtheta = self.attitude.apply(np.zeros(3), dt)
                angle = float(np.linalg.norm(dtheta))
                if angle > 0.0:
                    # Attitude error as a small rotation in the sensor frame: q (x) exp(dtheta)
                    orientation = quat_multiply(orientation,
                                                quat_from_axis_angle(dtheta, angle))
        return ImuReading(
            orientation=orientation,
            angular_velocity=self.gyro.apply(rate, dt),
            linear_acceleration=self.accel.apply(force, dt),
            orientation_covariance=self._covariances[0],
            angular_velocity_covariance=self._covariances[1],
            linear_acceleration_covariance=self._covariances[2])


class FluidPressureModel(SensorModel):
    """Absolute pressure p = p_atm + rho g depth at the sensor (Pa)."""

    def __init__(self, spec: SensorParams, translation, rotation_wxyz, gravity: float,
                 fluid_density: float):
        super().__init__(spec, translation, rotation_wxyz)
        p: FluidPressureParams = spec.model
        self.gravity = float(gravity)
        self.fluid_density = float(fluid_density)
        self.atmospheric_pressure = p.atmospheric_pressure
        self.noise = NoiseModel((p.pressure,), self.rng)

    def _noises(self):
        return (self.noise,)

    def pressure(self, depth: float) -> float:
        """Return the noise-free absolute pressure at ``depth`` (m, positive down)."""
        # Hydrostatic pressure (Pascal): p = p_atm + rho g d, p_atm above the surface
        return self.atmospheric_pressure + self.fluid_density * self.gravity * max(depth, 0.0)

    def measure(self, t: float, position, quaternion, nu, nu_dot) -> PressureReading:
        """Return the pressure sample at time t (s) of the state."""
        dt = self._dt(t)
        depth = -float(point_position(position, quaternion, self.r)[2])
        value = float(self.noise.apply([self.pressure(depth)], dt)[0])
        return PressureReading(fluid_pressure=value, variance=float(self.noise.variance()[0]),
                               depth=depth)


class DvlModel(SensorModel):
    """Bottom-track DVL over a flat seabed: sensor velocity in the sensor frame."""

    def __init__(self, spec: SensorParams, translation, rotation_wxyz):
        super().__init__(spec, translation, rotation_wxyz)
        p: DvlParams = spec.model
        self.params = p
        self.noise = NoiseModel(p.velocity, self.rng)
        self.beams = (np.array(p.beam_directions, dtype=float) if p.beam_directions
                      else beam_directions(p.janus_angle, p.beam_azimuths))
        #: cos of each beam's angle from the DVL axis (cos theta for a Janus DVL)
        self.beam_cosines = boresight_cosines(self.beams)

    def _noises(self):
        return (self.noise,)

    def altitude(self, depth: float) -> float:
        """Return the height of the transducer above the flat seabed (m)."""
        if self.params.seabed_depth is None:
            return math.nan
        return self.params.seabed_depth - depth

    def locked(self, depth: float) -> bool:
        """Return True if the DVL has bottom lock at this transducer depth."""
        if depth <= 0.0:
            return False  # out of the water: no acoustic return
        if self.params.seabed_depth is None:
            return True
        altitude = self.altitude(depth)
        return self.params.min_altitude <= altitude <= self.params.max_altitude

    def beam_lock(self, quaternion, depth: float):
        """
        Return (slant ranges, per-beam lock) of the beams at this attitude and depth.

        A beam locks when it reaches the seabed at a range whose vertical extent at the
        Janus angle, r cos(theta) (theta each beam's angle from the DVL axis), is within
        [min_altitude, max_altitude] (for a level DVL exactly the altitude rule of
        :meth:`locked`); without a seabed every beam
        locks in the water and the ranges are unknown (NaN).
        """
        n = len(self.beams)
        if depth <= 0.0:
            return np.full(n, math.inf), np.zeros(n, dtype=bool)
        if self.params.seabed_depth is None:
            return np.full(n, math.nan), np.ones(n, dtype=bool)
        rotation = quat_to_matrix(_unit(quaternion)) @ self.r_bs  # world <- sensor
        ranges = slant_ranges(self.beams, rotation, self.altitude(depth))
        vertical = ranges * self.beam_cosines
        locked = (np.isfinite(ranges) & (vertical >= self.params.min_altitude)
                  & (vertical <= self.params.max_altitude))
        return ranges, locked

    def measure(self, t: float, position, quaternion, nu, nu_dot) -> DvlReading:
        """
        Return the DVL sample at time t (s); ``valid`` False without bottom lock.

        The velocity lock is the altitude rule of :meth:`locked`; the beams (ranges,
        per-beam lock, along-beam velocities) describe the same sample for the
        drivers' message, and need the sensor's +z to look at the seabed.
        """
        depth = -float(point_position(position, quaternion, self.r)[2])
        altitude = self.altitude(depth)
        covariance = _covariance(self.noise.variance())
        ranges, beam_locked = self.beam_lock(quaternion, depth)
        beams = {'beam_directions': self.beams, 'ranges': ranges, 'beam_locked': beam_locked}
        if not self.locked(depth):
            return DvlReading(velocity=None, covariance=covariance, altitude=altitude,
                              valid=False, **beams)
        dt = self._dt(t)
        # Bottom track: velocity over the ground at the transducer, R_bs^T (v + w x r)
        velocity = self.noise.apply(self.r_bs.T @ transfer_twist(nu, self.r)[:3], dt)
        return DvlReading(velocity=velocity, covariance=covariance, altitude=altitude,
                          valid=True, beam_velocities=beam_velocities(self.beams, velocity),
                          beam_variances=beam_variances(self.beams, covariance), **beams)


class NavSatModel(SensorModel):
    """GNSS fix of the antenna while surfaced, from a WGS-84 datum of the world origin."""

    def __init__(self, spec: SensorParams, translation, rotation_wxyz):
        super().__init__(spec, translation, rotation_wxyz)
        p: NavSatParams = spec.model
        self.params = p
        self.plane = LocalTangentPlane(p.latitude_deg, p.longitude_deg, p.elevation)
        self.noise = NoiseModel((p.horizontal, p.horizontal, p.vertical), self.rng)

    def _noises(self):
        return (self.noise,)

    def measure(self, t: float, position, quaternion, nu, nu_dot) -> NavSatReading:
        """Return the fix at time t (s); ``valid`` False while the antenna is submerged."""
        enu = point_position(position, quaternion, self.r)
        depth = -float(enu[2])
        covariance = _covariance(self.noise.variance())
        if depth > self.params.surfaced_depth:
            return NavSatReading(math.nan, math.nan, math.nan, covariance, depth, False)
        dt = self._dt(t)
        lat, lon, height = self.plane.to_geodetic(self.noise.apply(enu, dt))
        return NavSatReading(lat, lon, height, covariance, depth, True)


class MagnetometerModel(SensorModel):
    """A constant world magnetic field measured in the sensor frame."""

    def __init__(self, spec: SensorParams, translation, rotation_wxyz):
        super().__init__(spec, translation, rotation_wxyz)
        p: MagnetometerParams = spec.model
        self.field_world = np.asarray(p.magnetic_field, dtype=float).reshape(3)
        self.noise = NoiseModel(p.noise, self.rng)
        variances = self.noise.variance() if p.covariance is None else p.covariance
        self.covariance = _covariance(variances)

    def _noises(self):
        return (self.noise,)

    def measure(self, t: float, position, quaternion, nu, nu_dot) -> MagnetometerReading:
        """Return the field sample at time t (s) of the state's attitude."""
        dt = self._dt(t)
        rotation = quat_to_matrix(_unit(quaternion)) @ self.r_bs  # world <- sensor
        # B_s = R_ws^T B_w (RotateVectorReverse of the sensor's world rotation)
        value = self.noise.apply(rotation.T @ self.field_world, dt)
        return MagnetometerReading(magnetic_field=value, covariance=self.covariance)


class RptModel(SensorModel):
    """The sensor's position in a fixed reference frame of the world."""

    def __init__(self, spec: SensorParams, translation, rotation_wxyz):
        super().__init__(spec, translation, rotation_wxyz)
        p: RptParams = spec.model
        self.reference_position = np.asarray(p.reference_position, dtype=float).reshape(3)
        self.reference_rotation = quat_to_matrix(quat_from_rpy(*p.reference_rpy))
        self.noise = NoiseModel(p.noise, self.rng)
        variances = self.noise.variance() if p.covariance is None else p.covariance
        self.covariance = _covariance(variances)

    def _noises(self):
        return (self.noise,)

    def measure(self, t: float, position, quaternion, nu, nu_dot) -> RptReading:
        """Return the position sample at time t (s) of the state."""
        dt = self._dt(t)
        # RPTROSPlugin: Rot_ref.RotateVectorReverse(p_link - p_ref)
        relative = self.reference_rotation.T @ (
            point_position(position, quaternion, self.r) - self.reference_position)
        return RptReading(position=self.noise.apply(relative, dt), covariance=self.covariance)


def _with_pose(spec: SensorParams, translation, rotation):
    """Return (translation, rotation wxyz) of the sensor frame given its link's."""
    if spec.pose is None:
        return np.asarray(translation, float), np.asarray(rotation, float)
    # Pose in the link: t = t_l + R_l xyz, q = q_l (x) q(rpy)
    xyz, rpy = np.asarray(spec.pose[:3], float), spec.pose[3:]
    return (np.asarray(translation, float) + quat_to_matrix(rotation) @ xyz,
            quat_multiply(rotation, quat_from_rpy(*rpy)))


def sensor_mount(spec: SensorParams, params):
    """
    Return (translation, rotation wxyz) of the sensor frame in the base frame.

    A sensor on a moving link: where it is at zero joint positions (the lumped vehicle).
    """
    if spec.link in ('', params.base_frame) or spec.link in params.frames:
        return _with_pose(spec, *params.frame_transform(spec.link))
    translation, rotation = link_at_zero(params, spec.link)
    return _with_pose(spec, translation, matrix_to_quat(rotation))


def sensor_body_mount(spec: SensorParams, params):
    """
    Return (body, translation, rotation wxyz) of the sensor frame in its body's frame.

    ``body`` is '' for the base body (the pose in the base frame, as :func:`sensor_mount`),
    else the moving body of the kinematic tree that carries the sensor's link.
    """
    body, translation, rotation = link_on_body(params, spec.link)
    if not body:
        return ('', *sensor_mount(spec, params))
    return (body, *_with_pose(spec, translation, matrix_to_quat(rotation)))


def build_sensor(spec: SensorParams, params, mount=None) -> SensorModel:
    """
    Return the model of ``spec`` mounted on ``params`` (VehicleParams).

    ``mount`` (translation, rotation wxyz) overrides where it sits (default
    :func:`sensor_mount`): a sensor on a moving body is mounted in that body's frame.
    """
    translation, rotation = sensor_mount(spec, params) if mount is None else mount
    if spec.kind == 'imu':
        return ImuModel(spec, translation, rotation, params.gravity)
    if spec.kind == 'fluid_pressure':
        return FluidPressureModel(spec, translation, rotation, params.gravity,
                                  params.fluid_density)
    if spec.kind == 'dvl':
        return DvlModel(spec, translation, rotation)
    if spec.kind == 'navsat':
        return NavSatModel(spec, translation, rotation)
    if spec.kind == 'magnetometer':
        return MagnetometerModel(spec, translation, rotation)
    if spec.kind == 'rpt':
        return RptModel(spec, translation, rotation)
    if spec.kind == 'echosounder':  # its module builds on this one
        raise ValueError('an echosounder is built by uwv_hydro.physics.sensing.echosounder.'
                         'EchosounderModel (SensorSuite), with the seabed it sounds')
    raise ValueError('unknown sensor type %r' % (spec.kind,))
