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
How a sensor reading becomes its ROS message: the parts the node and the bag share.

The node (``node/sensor_io.py``, rclpy messages) and ``simulate``'s bags
(``bag/trajectory_bag.py``, rosbags messages) publish the same readings
(:mod:`uwv_hydro.physics.sensing.sensors`) in the same messages; the mapping that is more
than a field copy lives here.
"""
from typing import List

#: Message type of each sensor kind (sensor_msgs, REP-145; a DVL as gz-sim bridges it).
MESSAGE_TYPES = {'imu': 'sensor_msgs/msg/Imu', 'fluid_pressure': 'sensor_msgs/msg/FluidPressure',
                 'dvl': 'geometry_msgs/msg/TwistWithCovarianceStamped',
                 'navsat': 'sensor_msgs/msg/NavSatFix',
                 'magnetometer': 'sensor_msgs/msg/MagneticField',
                 'rpt': 'uuv_sensor_ros_plugins_msgs/msg/PositionWithCovarianceStamped',
                 'echosounder': 'sensor_msgs/msg/Range'}
#: The DVL's second message, as DVL drivers publish it (node ``dvl_topic``).
DVL_MESSAGE_TYPE = 'marine_acoustic_msgs/msg/Dvl'
#: sensor_msgs/Range ULTRASOUND (sensor_msgs/msg/Range.msg): an echo sounder's sound.
RANGE_ULTRASOUND = 0
#: Definitions of the message types rosbags' typestore lacks (uuv_sensor_ros_plugins_msgs,
#: its field names and types), for the bags: {type: .msg text}.
EXTRA_DEFINITIONS = {
    'uuv_sensor_ros_plugins_msgs/msg/PositionWithCovariance':
        'geometry_msgs/Point pos\nfloat64[9] covariance\n',
    'uuv_sensor_ros_plugins_msgs/msg/PositionWithCovarianceStamped':
        'std_msgs/Header header\nuuv_sensor_ros_plugins_msgs/PositionWithCovariance pos\n',
}
#: marine_acoustic_msgs/msg/Dvl (apl-ocean-engineering/marine_msgs; tools/interfaces has
#: the same), for the bags: rosbags' typestore lacks it.
DVL_DEFINITION = (
    'uint8 DVL_MODE_BOTTOM=1\nuint8 DVL_MODE_WATER=2\n'
    'uint8 DVL_TYPE_PISTON=0\nuint8 DVL_TYPE_PHASED_ARRAY=1\n'
    'std_msgs/Header header\nuint8 velocity_mode\nuint8 dvl_type\n'
    'geometry_msgs/Vector3 velocity\nfloat64[9] velocity_covar\nfloat64 altitude\n'
    'float64 course_gnd\nfloat64 speed_gnd\nuint8 num_good_beams\nfloat32 sound_speed\n'
    'bool beam_ranges_valid\nbool beam_velocities_valid\n'
    'geometry_msgs/Vector3[4] beam_unit_vec\nfloat64[4] range\nfloat32[4] range_covar\n'
    'float32[4] beam_quality\nfloat32[4] beam_velocity\nfloat32[4] beam_velocity_covar\n')
#: Default topic of a DVL's Dvl message (the node's ``dvl_topic`` default).
DVL_TOPIC = '{name}/data'
#: sensor_msgs/NavSatStatus STATUS_FIX and SERVICE_GPS (sensor_msgs/msg/NavSatStatus.msg).
NAVSAT_STATUS_FIX = 0
NAVSAT_SERVICE_GPS = 1
#: sensor_msgs/NavSatFix COVARIANCE_TYPE_DIAGONAL_KNOWN (sensor_msgs/msg/NavSatFix.msg).
NAVSAT_COVARIANCE_DIAGONAL_KNOWN = 2


def range_fields(reading) -> dict:
    """
    Return the sensor_msgs/Range fields (not the header) of an echosounder reading.

    ``range`` is finite within [min_range, max_range], +inf for no echo, -inf for one
    too close (REP 117); ``variance`` the noise model's (0: "unknown" in the message,
    which a noise-free sounder reports).  Jazzy and later have ``variance``; Humble's
    Range has none (the caller leaves it out there).
    """
    return {'radiation_type': RANGE_ULTRASOUND,
            'field_of_view': float(reading.field_of_view),
            'min_range': float(reading.min_range), 'max_range': float(reading.max_range),
            'range': float(reading.distance), 'variance': float(reading.variance)}


def dvl_twist_covariance(reading) -> List[float]:
    """
    Return the 6x6 twist covariance (row-major) of a DVL reading.

    Linear: the diagonal of the reading's 3x3 velocity covariance; angular: not
    measured, diagonal -1 (the REP-145 convention for an unknown field).
    """
    cov = [0.0] * 36
    for i in range(3):
        cov[7 * i] = float(reading.covariance[4 * i])
        cov[7 * (i + 3)] = -1.0  # angular rate not measured
    return cov
