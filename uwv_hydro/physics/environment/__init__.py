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
The world around the vehicle: currents, geodesy, the seabed and a tether.

Ocean currents (``current_field``; gz-sim's grid ``current_grid``; uuv_simulator's
``gauss_markov_current``), WGS-84 geodesy (``geodesy``), the seabed and contact with it
(``seabed``, ``seabed_contact``), and a tether's description and its static catenary
(``tether_spec``, ``catenary``).
"""
