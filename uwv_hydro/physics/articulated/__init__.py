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
Vehicles whose links move: a floating base with joints, model apart from algorithms.

As Pinocchio keeps them apart: ``model`` holds what the tree is (the rigid multibody
model, the kinematic tree with per-link hydro, where a link is mounted), ``algorithms``
what is computed on it (the equations of motion, with Pinocchio and compiled, and every
link's hydro wrench).
"""
