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
The hydrostatic and hydrodynamic wrench on a vehicle, by named component.

Hydrostatics, added mass, linear and quadratic drag, cross-flow drag and hull lift of a
slender hull, the components summed (``hydro_model``), the same wrench as affine and
bilinear forms the compiled kernel evaluates (``wrench_forms``), and first estimates from
the hull's geometry (``geometry_estimates``).
"""
