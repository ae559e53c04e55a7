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
Modes: the classes that the node and the offline tools both run (no rclpy).

Here the modes and what feeds them; ``manoeuvres/`` the flown manoeuvres and
``messages/`` the message encodings.

The wrench mode (the plugin replacement: odometry in, the hydro wrench out, also per
link) and the simulate mode (the 6-DOF vehicle on a clock, also articulated); what feeds
and reads them: thrust, thrust profiles and the thruster drive, fin servos, buoyancy
engines, joint commands, stops and profiles, input rules, sensors and their messages;
the marine stacks' formats (ArduSub's RC channels, ArduPilot SITL's JSON frames and
lock step, ros2_control joint states, the DVL message); the manoeuvres (turn, zig-zag,
pull-out, spiral, the ROV hold), the tether, the seabed landing and offline runs;
``_csv_text.c``, the compiled helper that writes exact CSV text (``csv_text``).
"""
