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
Standard manoeuvres flown without ROS (ITTC 7.5-04-02-01).

The entry points (``manoeuvre``), how a manoeuvre holds and drives the vehicle
(``manoeuvre_control``), the turning circle, zig-zag, pull-out and spiral
(``manoeuvre_turn``, ``manoeuvre_zigzag``, ``manoeuvre_pullout``,
``manoeuvre_spiral``) and a flown track with its figures (``manoeuvre_track``).
"""
