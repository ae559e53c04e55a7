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
(:mod:`uwv_hydro.physics.sensors`) in the same messages; the mapping that is more
than a field copy lives here.
"""
from typing import List

#: Message type of each sensor kind (sensor_msgs, REP-145; a DVL as gz-sim bridges it).
MESSAGE_TYPES = {'imu': 'sensor_msgs/msg/Imu', 'fluid_pressure': 'sensor_msgs/msg/FluidPressure',
                 'dvl': 'geometry_msgs/msg/TwistWithCovarianceStamped',
                 'navsat': 'sensor_msgs/msg/NavSatFix',
                 'magnetometer': 'sensor_msgs/msg/MagneticField',
                 'rpt': 'uuv_sensor_ros_plugins_msgs/msg/PositionWithCovarianceStamped'}
#: Definitions of the message types rosbags' typestore lacks (uuv_sensor_ros_plugins_msgs,
#: its field names and types), for the bags: {type: .msg text}.
EXTRA_DEFINITIONS = {
    'uuv_sensor_ros_plugins_msgs/msg/PositionWithCovariance':
        'geometry_msgs/Point pos\nfloat64[9] covariance\n',
    'uuv_sensor_ros_plugins_msgs/msg/PositionWithCovarianceStamped':
        'std_msgs/Header header\nuuv_sensor_ros_plugins_msgs/PositionWithCovariance pos\n',
}
#: sensor_msgs/NavSatStatus STATUS_FIX and SERVICE_GPS (sensor_msgs/msg/NavSatStatus.msg).
NAVSAT_STATUS_FIX = 0
NAVSAT_SERVICE_GPS = 1
#: sensor_msgs/NavSatFix COVARIANCE_TYPE_DIAGONAL_KNOWN (sensor_msgs/msg/NavSatFix.msg).
NAVSAT_COVARIANCE_DIAGONAL_KNOWN = 2


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
