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
gz-sim (Gazebo) SDF worlds and models: frames, includes, systems, sensors, export, bridge.

Which model, its rigid body, Buoyancy, Hydrodynamics, Thruster, LiftDrag and joint
controllers, sensors, collisions, the kinematic tree's joints, heightmaps and the
world's seabed, SDF export (also of a heightmap) and the ros_gz bridge configuration.
Imports only the description core (never another format package); see
doc/architecture.md.
"""
