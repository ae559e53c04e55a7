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
The body Gazebo classic makes of a URDF's base link: where a classic plugin's forces act.

sdformat's URDF parser (``parser_urdf.cc``, ``ReduceFixedJoints``) merges a link into its
parent only across a ``fixed`` joint; every other joint -- uuv_simulator's sensor links
on revolute joints with ``lower = upper = 0``, thruster and fin links -- stays a joint
between separate ODE bodies.  A model plugin acting on the base link therefore sees the
base link's inertial lumped with its fixed-joint children only (``Link::GetInertial``:
mass and ``CoG``), not the whole vehicle's:

* uuv_simulator's underwater object (``HydrodynamicModel.cc``, ``BuoyantObject.cc``)
  applies damping with ``AddRelativeForce`` at that CoG, buoyancy with
  ``AddForceAtRelativePosition`` at that CoG + ``<center_of_buoyancy>``, and
  ``neutrally_buoyant`` balances that mass;
* dsros_hydro (``dsros_hydro.cc``) takes ``body_link->GetInertial()->CoG()`` as its
  default drag centre and as the point of its added-mass force.

The project's rigid body (and so the weight) keeps every link lumped
(:mod:`uwv_hydro.description.rigid_lumping`): the other bodies' mass, inertia and
gravity are simulated by Gazebo too.
"""
from typing import Dict, Set, Tuple
import xml.etree.ElementTree as ET

import numpy as np

from uwv_hydro.description.rigid_lumping import lump, part_in_base
from uwv_hydro.description.urdf_joint import origin_of


def _kept_fixed_joints(root: ET.Element) -> Set[str]:
    """Return the fixed joints sdformat keeps (``<disableFixedJointLumping>``, ...)."""
    return {g.get('reference', '') for g in root.findall('gazebo')
            for tag in ('disableFixedJointLumping', 'preserveFixedJoint')
            if (g.findtext(tag) or '').strip().lower() in ('1', 'true')}


def merged_links(root: ET.Element) -> Dict[str, str]:
    """Return {link: fixed joint} of the links sdformat merges into their parent link."""
    kept = _kept_fixed_joints(root)
    return {joint.find('child').get('link', ''): joint.get('name', '')
            for joint in root.findall('joint')
            if joint.get('type') == 'fixed' and joint.get('name', '') not in kept
            and joint.find('child') is not None}


def classic_base_body(base: str, root: ET.Element, inertials: Dict[str, tuple],
                      source: str) -> Tuple[float, np.ndarray]:
    """
    Return (mass, centre of mass in the base frame) of the base link's Gazebo classic body.

    ``inertials``: {link: (mass, com, inertia)} in each link's frame.  The base link and
    every link reached from it through ``fixed`` joints (parent to child, poses composed
    T_base_child = T_base_parent T_joint), lumped; (0, 0) when none has an inertial.
    A fixed joint whose ``<gazebo reference>`` sets ``<disableFixedJointLumping>`` or
    ``<preserveFixedJoint>`` is kept, as sdformat keeps it (``FixedJointShouldBeReduced``).
    """
    kept = _kept_fixed_joints(root)
    children: Dict[str, list] = {}
    for joint in root.findall('joint'):
        parent, child = joint.find('parent'), joint.find('child')
        if (joint.get('type') == 'fixed' and joint.get('name', '') not in kept
                and parent is not None and child is not None):
            children.setdefault(parent.get('link', ''), []).append(
                (child.get('link', ''), origin_of(joint, source)))
    poses = {base: (np.zeros(3), np.eye(3))}
    stack = [base]
    while stack:
        here = stack.pop()
        p, r = poses[here]
        for child, (xyz, rot) in children.get(here, []):
            if child not in poses:
                poses[child] = (p + r @ xyz, r @ rot)
                stack.append(child)
    parts = [part_in_base(*inertials[name], *pose) for name, pose in poses.items()
             if name in inertials]
    if not parts:
        return 0.0, np.zeros(3)
    mass, com, _ = lump(parts)
    return mass, com
