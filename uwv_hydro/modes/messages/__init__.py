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
Message encodings at the edge, without rclpy.

ROS messages to and from numpy (``msg_conversions``), JointState read from its CDR
bytes (``joint_state_cdr``), the DVL message (``dvl_message``), sensor readings as their
messages (``sensor_messages``), ArduPilot SITL's JSON packets (``sitl_json_packet``) and
exact CSV text of float tables (``csv_text``, with its compiled helper ``_csv_text.c``).
"""
