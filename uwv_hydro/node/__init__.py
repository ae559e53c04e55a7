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
The rclpy node ``uwv_hydro`` (``hydro_node``): ROS I/O around the modes.

Here the node and its parts; ``launch_commands/`` the launch helpers.

Its entry point and set-up, the parameter table, the parts that each own a mode's or an
input's topics (wrench, simulate, thrusters, fins, joints, sensors, current, ArduSub,
SITL JSON, ros2_control, gz-sim, buoyancy engines, tether), the vehicle and seabed read
at start, the paced update loop and its outbox, the clock watch, diagnostics and
markers, and the launch commands.  Reference:
doc/reference/node.md.
"""
