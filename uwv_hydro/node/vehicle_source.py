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

* only ``robot_description``: the URDF (or SDF/YAML) text;
* only ``vehicle_file``: the file by extension (URDF, xacro, SDF, YAML);
* both, ``vehicle_file`` YAML: the URDF gives the rigid body and the frames, the YAML
  the hydro coefficients (``load_vehicle(yaml, base=urdf_params)``);
* both, ``vehicle_file`` not YAML: the file wins (a warning says so).

Every failure is the loaders' DescriptionError; the node logs it and exits non-zero.
"""
from typing import List, Tuple

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.loader import load_vehicle, load_vehicle_string

YAML_EXTENSIONS = ('.yaml', '.yml')


def load_from_parameters(robot_description: str, vehicle_file: str) -> Tuple[object, List[str]]:
    """Return (VehicleParams, notes to log) for the two vehicle parameters."""
    notes = []
    has_description = bool(robot_description and robot_description.strip())
    if not has_description and not vehicle_file:
        raise DescriptionError('no vehicle: set the robot_description or vehicle_file '
                               'parameter', '<parameters>')
    if not vehicle_file:
        return load_vehicle_string(robot_description, '<robot_description>'), notes
    if not has_description:
        return load_vehicle(vehicle_file), notes
    if vehicle_file.lower().endswith(YAML_EXTENSIONS):
        base = load_vehicle_string(robot_description, '<robot_description>')
        notes.append('vehicle: rigid body and frames from robot_description, hydro '
                     'coefficients from %s' % vehicle_file)
        return load_vehicle(vehicle_file, base=base), notes
    notes.append('both robot_description and vehicle_file are set; vehicle_file %s is used '
                 '(only a YAML vehicle_file combines with robot_description)' % vehicle_file)
    return load_vehicle(vehicle_file), notes
