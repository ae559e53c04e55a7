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
Each description format's environment defaults: those of the simulator that reads it.

A file that does not give gravity gets the gravity of the world its own simulator
would run it in, so that a weight here is the weight there:

| format                              | simulator            | gravity  | density   |
| ----------------------------------- | -------------------- | -------- | --------- |
| URDF (dsros_hydro, uuv_simulator)   | Gazebo classic       | 9.8      | 1028 uuv  |
| URDF (gz-sim Hydrodynamics)         | gz-sim               | 9.8      | 998 gz    |
| SDF model / world                   | gz-sim (sdformat)    | 9.8      | see sdf   |
| YAML (uwv_hydro's own)              | uwv_hydro            | 9.81     | 1025      |

Gazebo classic and gz-sim take gravity from the world, whose SDF default is
``<gravity>0 0 -9.8</gravity>`` (sdformat ``sdf/1.6/world.sdf``, element ``gravity``,
default "0 0 -9.8"); a URDF spawned in them runs in such a world.  The YAML keeps
uwv_hydro's :data:`uwv_hydro.physics.body.vehicle_params.DEFAULT_GRAVITY` (9.81), also
over a URDF base (a simulator default of the base is no value of its file).
"""
from uwv_hydro.description.provenance import set_origin, SIMULATOR_DEFAULT
from uwv_hydro.physics.body.vehicle_params import VehicleParams

#: Gazebo classic / gz-sim world default gravity (sdformat world.sdf: "0 0 -9.8").
GAZEBO_GRAVITY = 9.8


def apply_urdf_defaults(params: VehicleParams, source: str) -> VehicleParams:
    """Set the gravity of a URDF's simulator (Gazebo's world default) and its origin."""
    params.gravity = GAZEBO_GRAVITY
    set_origin(params, ('gravity',), '%s (%s: the Gazebo world gravity of a URDF, sdformat '
                                     'world.sdf <gravity> 0 0 -9.8)' % (source, SIMULATOR_DEFAULT))
    return params
