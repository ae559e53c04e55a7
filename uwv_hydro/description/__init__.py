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
Vehicle descriptions: every format's reader, and the core they share.

One subpackage per format (``urdf``, ``dsros``, ``uuv``, ``sdf``, ``lrauv``, ``yaml``)
and ``seabed`` for bathymetry files; here the dispatch modules that hand each element of
a file to its format's reader (``loader``, ``vehicle_from_urdf``, ``vehicle_from_sdf``,
``equipment_from_urdf``, ``plugin_inventory``) and the core every format uses: errors,
safe XML and YAML, validation and physical checks, number bounds, conventions, rigid
lumping and Gazebo classic's body, URDF joints and zero-range joints, equipment records
(thrusters, fins, sensors, hull, seabed contact points, currents, Gazebo range finders),
the simulators' defaults, the known names behind "did you mean", the kinematic tree,
the element report and where each field came from.
"""
