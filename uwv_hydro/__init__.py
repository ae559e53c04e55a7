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

A replacement for the dsros_hydro Gazebo plugin: a pure-numpy physics core
(:mod:`uwv_hydro.physics`), vehicle-description loaders
(:mod:`uwv_hydro.description`), command-line tools (:mod:`uwv_hydro.cli`) and a
thin rclpy node (:mod:`uwv_hydro.node`).
"""
__version__ = '0.1.0'
