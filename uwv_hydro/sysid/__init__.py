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
System identification: fit hydrodynamic coefficients to recorded odometry and thrust.

``differentiation`` (Savitzky-Golay smoothing and derivatives), ``bounded_least_squares``
(active-set least squares with sign bounds), ``regressors`` (which coefficients are
unknown and their regressor columns), ``bag_data`` (bag to uniformly sampled arrays),
``identifiability`` (excitation and uncertainty checks), ``fit`` (the estimator),
``validation`` (open-loop simulation on held-out data) and ``report`` (text and PNG).
"""
