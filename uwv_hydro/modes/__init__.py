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
Modes: the pure classes that the node and the offline tools both run (no rclpy).

``wrench_mode`` (the plugin replacement: odometry in, hydro wrench out),
``simulate_mode`` (the 6-DOF vehicle: stepping on a clock, catch-up, divergence
retry and restore), ``thrust_mux`` (thruster wrenches moved to the base, watchdog),
``thrust_profile`` (scripted thrust), ``input_guard`` (the input rules every message
passes), ``msg_conversions`` (message fields <-> numpy, duck-typed so that rclpy and
rosbags messages both work) and ``offline_simulation`` (a trajectory without ROS).
"""
