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
The rigid vehicle: its parameters, mass and inertia, and its 6-DOF motion.

The parameter set every loader produces (``vehicle_params``), inertia tools
(``inertia``), the rigid-body mass and Coriolis matrices (``rigid_body``), the dynamics
integrated with RK4 (``dynamics``), the sub-step choice and divergence check
(``stability``) and N vehicles stepped together (``batch``).
"""
