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
uwv_hydro: hydrostatics and hydrodynamics for underwater vehicles on ROS 2.

A replacement for the dsros_hydro Gazebo plugin, a 6-DOF simulator for hardware in the
loop and ArduSub SITL, and offline tools.  Its rooms, in dependency order
(doc/architecture.md): :mod:`uwv_hydro.physics` (the core: numpy and a C kernel, no
rclpy), :mod:`uwv_hydro.description` (the loaders of every vehicle format),
:mod:`uwv_hydro.modes` (what the node and the offline tools both run), then
:mod:`uwv_hydro.node` (the rclpy node), :mod:`uwv_hydro.bag` (bags and replay),
:mod:`uwv_hydro.sysid` (fitting coefficients), :mod:`uwv_hydro.sweep` (Monte-Carlo
sweeps) and :mod:`uwv_hydro.cli` (the ``uwv-hydro`` command, also ``python -m
uwv_hydro`` through ``__main__``).
"""
__version__ = '0.1.0'
