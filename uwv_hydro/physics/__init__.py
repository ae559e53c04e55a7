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
The physics core: the vehicle model and its dynamics, without ROS (no rclpy below here).

By concern: ``spatial`` (rotations, moving twists and wrenches), ``body`` (VehicleParams,
the rigid body, the 6-DOF dynamics), ``hydro`` (the hydro wrench), ``actuators``,
``environment`` (currents, geodesy, the seabed, the tether's cable), ``sensing`` and
``articulated`` (``model`` apart from ``algorithms``); here the compiled kernel.

``VehicleParams`` (what every loader produces), the hydro terms (hydrostatics, drag,
added mass, fins, hull lift and cross-flow, buoyancy engines), the rigid body and the
6-DOF dynamics (RK4, batches, stability), thrusters, navigation sensors and their noise,
currents, the seabed, the DVL on it and the seabed contact, geodesy, the tether's
catenary, and vehicles whose links move (the kinematic tree, per-link wrenches, the
articulated dynamics).  Python and numpy, with the compiled
kernel (``_*.c``, ``_*.h``, built into ``_kernel`` and loaded by ``kernel``) running the
state derivative, the steps and the batches; Pinocchio only in ``articulated``.
"""
