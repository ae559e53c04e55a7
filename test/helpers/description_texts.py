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

"""Description texts shared by the description tests."""


def box_robot(name: str, gazebo: str) -> str:
    """Return a URDF: one 100 kg base link (I = diag(10, 20, 25)) and a <gazebo> block."""
    return """<?xml version="1.0"?>
<robot name="%s">
  <link name="base_link">
    <inertial>
      <origin xyz="0 0 0" rpy="0 0 0"/>
      <mass value="100.0"/>
      <inertia ixx="10" ixy="0" ixz="0" iyy="20" iyz="0" izz="25"/>
    </inertial>
  </link>
  <gazebo>
%s
  </gazebo>
</robot>
""" % (name, gazebo)
