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
Load the vehicle once at start from ``robot_description`` and/or ``vehicle_file``.

The combination rule is the loaders' (:func:`uwv_hydro.description.loader.load_combined`,
the same as ``uwv-hydro check --robot-description``):

* only ``robot_description``: the URDF (or SDF/YAML) text;
* only ``vehicle_file``: the file by extension (URDF, xacro, SDF, YAML);
* both, ``vehicle_file`` YAML: the YAML over the description's rigid body, frames and
  equipment (thrusters, sensors); the hydrodynamics come from the YAML alone;
* both, ``vehicle_file`` not YAML: the file wins (a note says so).

``model_name`` chooses the model of an SDF world that holds several
(:mod:`uwv_hydro.description.sdf.model_choice`).

The notes end with the source of every vehicle field, logged at start-up.  Every
failure is the loaders' DescriptionError; the node logs it and exits non-zero.
"""
from typing import List, Sequence, Tuple

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.loader import load_combined


def load_from_parameters(robot_description: str, vehicle_file: str, model_name: str = '',
                         package_path: Sequence[str] = ()) -> Tuple[object, List[str]]:
    """
    Return (VehicleParams, notes to log) for the vehicle parameters.

    ``model_name``: the model of an SDF world.  ``package_path``: the ``package_path``
    parameter (ROS 1 package directories for ``$(find pkg)`` in a xacro ``vehicle_file``;
    empty entries ignored).
    """
    if not (robot_description and robot_description.strip()) and not vehicle_file:
        raise DescriptionError('no vehicle: set the robot_description or vehicle_file '
                               'parameter', '<parameters>')
    return load_combined(robot_description, vehicle_file, model_name=model_name,
                         package_path=[p for p in package_path if p])
